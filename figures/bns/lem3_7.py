"""Figure for Bun-Nissim-Stemmer Lemma 3.7 (Algorithm 2 over the point sanitizer, k = 16):
n_hat against 1/alpha for both accountings over the explicit three-event bound (the
claim "upper")."""

from __future__ import annotations

import numpy as np

from privbounds.figures.bns.style import draw_claim, measured_ticks, style
from privbounds.figures.common import (
    band,
    claim_bound,
    legend,
    new_figure,
    save,
    select,
    sweep,
)


def plot(theorem, record, out):
    fig, (ax,) = new_figure(1, width=7.5, height=6.8)
    xs = []
    for rule in ("basic", "advanced"):
        pts = select(record, rule=rule)
        if not pts:
            continue
        p0 = pts[0].point
        inv = [1 / p.point["alpha"] for p in pts]
        xs += inv
        st = style(f"Alg 2 + Alg 1, {rule}")
        band(ax, inv, pts, st["color"], f"Alg 2 + Alg 1, {rule}, k = {p0['k']}", st["marker"])
        ii = np.geomspace(min(inv), max(inv), 20)
        draw_claim(ax, theorem, record, "upper", ii, sweep(claim_bound(theorem, "upper"), p0, "alpha", 1 / ii),
                   st["color"], f"Lemma 3.7 bound for Alg 2 + Alg 1, {rule}")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    measured_ticks(ax, xs)
    ax.set_xlabel("1 / alpha")
    ax.set_ylabel("n_hat (all k within alpha of optimal w.p. >= 1 - beta)")
    ax.set_title("agnostic POINT_10 (instance of Cor 3.9)", fontsize=10)
    legend(ax)
    return save(fig, record, out)
