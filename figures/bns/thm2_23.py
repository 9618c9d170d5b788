"""Figure for Bun-Nissim-Stemmer Theorem 2.23 (sanitizer to learner; Algorithm 2 with
k = 1): n_hat against eps, log-log, over the explicit bound of Lemma 3.7 at k = 1 (the
claim "upper")."""

from __future__ import annotations

import numpy as np

from privbounds.figures.bns.style import draw_claim, fit_text, measured_ticks, style
from privbounds.figures.common import (
    band,
    claim_bound,
    legend,
    new_figure,
    save,
    sweep,
)


def plot(theorem, record, out):
    fig, (ax,) = new_figure(1, width=7.5, height=6.6)
    pts = record.points
    if pts:
        p0 = pts[0].point
        eps = [p.point["epsilon"] for p in pts]
        learner = f"Alg 2 + Alg 1, {p0['rule']}"
        st = style(learner)
        band(ax, eps, pts, st["color"], f"{learner}, k = 1{fit_text(record, 'scaling-eps')}", st["marker"])
        ee = np.geomspace(min(eps), max(eps), 30)
        draw_claim(ax, theorem, record, "upper", ee, sweep(claim_bound(theorem, "upper"), p0, "epsilon", ee),
                   st["color"], f"Lemma 3.7 bound for {learner} at k = {p0['k']}")
        ax.set_title(f"agnostic POINT_10, noise 0.1; alpha = {p0['alpha']}, delta = {p0['delta']:g}, "
                     f"beta = {p0['beta']}", fontsize=10)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    measured_ticks(ax, [p.point["epsilon"] for p in pts])
    ax.set_xlabel("privacy parameter eps")
    ax.set_ylabel("n_hat (within alpha of optimal w.p. >= 1 - beta)")
    legend(ax)
    return save(fig, record, out)
