"""Figure for Bun-Nissim-Stemmer Theorem 3.13 (Algorithm 5, points): n_hat against k for
two domain sizes, flat, over the k-free bound (the claim "upper"), with the pure-DP
packing lower bound of Thm 5.1 (linear in k) and the non-private reference of Cor 2.12."""

from __future__ import annotations

import numpy as np

from privbounds.bounds import bns
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
    fig, (ax,) = new_figure(1, width=7.5, height=7.0)
    p0 = None
    for i, d in enumerate((10, 16)):
        pts = select(record, d=d)
        if not pts:
            continue
        p0 = pts[0]["point"]
        band(ax, [p["point"]["k"] for p in pts], pts, PALETTE[i],
             f"Alg 5, |X| = 2^{d} ({exponent_text(verdict(record, f'scaling-k-d{d}'))})", "os"[i])
    if p0:
        ks = np.geomspace(1, max(p["point"]["k"] for p in record["points"]), 40)
        eps, dl, a, b = p0["epsilon"], p0["delta"], p0["alpha"], p0["beta"]
        bound_line(ax, ks, sweep(claim_bound(theorem, "upper"), p0, "k", ks), PALETTE[2],
                   "Thm 3.13 bound (no k, no |X|)")
        bound_line(ax, ks, np.maximum(bns.packing_lower_bound(ks, eps, b), 1), "k",
                   "Thm 5.1: every pure eps-DP learner needs (k ln2 + ln(1-beta))/eps", "-")
        bound_line(ax, ks, bns.n_nonprivate_k_learner(1, ks, a, b), PALETTE[3],
                   "Cor 2.12: non-private ERM bound", ":")
        ax.set_title(f"POINT, realizable; alpha = {a}, eps = {eps}, delta = {dl:g}, beta = {b}", fontsize=10)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("number of concepts k")
    ax.set_ylabel("n_hat (all k alpha-accurate w.p. >= 1 - beta)")
    legend(ax)
    return save(fig, record, out)
