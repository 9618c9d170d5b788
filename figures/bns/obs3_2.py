"""Figure for Bun-Nissim-Stemmer Observation 3.2 (direct sum): n_hat against k for basic
and advanced composition, log-log, each over its claim's bound (upper-basic,
upper-advanced)."""

from __future__ import annotations

from privbounds.figures.bns.style import rules_against_k
from privbounds.figures.common import (
    legend,
    new_figure,
    save,
)


def plot(theorem, record, out):
    fig, (ax,) = new_figure(1, width=7.5, height=6.6)
    rules_against_k(ax, theorem, record, None, "upper-{rule}", "Obs 3.2 bound")
    ax.set_ylabel("rows needed, n_hat (all k accurate w.p. >= 1 - beta)")
    ax.set_title("exp.-mech. learner per concept on THRESH_8; total eps = 1, delta = 1e-6", fontsize=10)
    legend(ax)
    return save(fig, record, out)
