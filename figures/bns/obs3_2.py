"""Figure for Bun-Nissim-Stemmer Observation 3.2 (direct sum): n_hat against k for basic
and advanced composition, log-log, each over its claim's bound (upper-basic,
upper-advanced)."""

from __future__ import annotations

import numpy as np

from privbounds.figures.common import (
    PALETTE,
    band,
    bound_line,
    claim_bound,
    exponent_text,
    legend,
    new_figure,
    save,
    select,
    sweep,
    verdict,
)


def plot(theorem, record, out):
    fig, (ax,) = new_figure(1, width=7.5, height=6.6)
    for i, rule in enumerate(("basic", "advanced")):
        pts = select(record, rule=rule)
        if not pts:
            continue
        p0 = pts[0]["point"]
        ks = [p["point"]["k"] for p in pts]
        band(ax, ks, pts, PALETTE[i], f"{rule} composition ({exponent_text(verdict(record, f'scaling-k-{rule}'))})", "os"[i])
        kk = np.unique(np.geomspace(min(ks), max(ks), 40).round().astype(int))
        bound_line(ax, kk, sweep(claim_bound(theorem, f"upper-{rule}"), p0, "k", kk), PALETTE[i],
                   f"Obs 3.2 bound, {rule}")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("number of concepts k")
    ax.set_ylabel("rows needed, n_hat (all k accurate w.p. >= 1 - beta)")
    ax.set_title("exp.-mech. learner per concept on THRESH_8; total eps = 1, delta = 1e-6", fontsize=10)
    legend(ax)
    return save(fig, record, out)
