"""Figure for Bun-Nissim-Stemmer Theorem 2.23 (sanitizer to learner; Algorithm 2 with
k = 1): n_hat against eps, log-log, over the explicit bound of Lemma 3.7 at k = 1 (the
claim "upper")."""

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
    sweep,
)


def plot(theorem, record, out):
    fig, (ax,) = new_figure(1, width=7.5, height=6.6)
    pts = record["points"]
    if pts:
        p0 = pts[0]["point"]
        eps = [p["point"]["epsilon"] for p in pts]
        v = next(v for v in record["verdicts"] if v["claim"] == "scaling-eps")
        band(ax, eps, pts, PALETTE[0], f"Alg 2 + Alg 1, k = 1 ({exponent_text(v)})")
        ee = np.geomspace(min(eps), max(eps), 30)
        bound_line(ax, ee, sweep(claim_bound(theorem, "upper"), p0, "epsilon", ee), PALETTE[0],
                   f"Lemma 3.7 bound at k = {p0['k']}, {p0['rule']} accounting")
        ax.set_title(f"agnostic POINT_10, noise 0.1; alpha = {p0['alpha']}, delta = {p0['delta']:g}, "
                     f"beta = {p0['beta']}", fontsize=10)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("privacy parameter eps")
    ax.set_ylabel("n_hat (within alpha of optimal w.p. >= 1 - beta)")
    legend(ax)
    return save(fig, record, out)
