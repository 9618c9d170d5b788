"""Figure for Bun-Nissim-Stemmer Example 3.5 (pure-DP direct sum over PAR_d): n_hat
against k (left) and d (right), between the explicit upper bound (the claim "upper") and
the packing lower bound of Thm 5.4 (the claim "lower-thm5_4"); the approximate-DP
Algorithm 4 bound (Thm 3.12, delta = 1e-6) for contrast."""

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
    sim = theorem.simulator
    fig, (ax1, ax2) = new_figure(2, height=7.0)
    pts = select(record, d=sim.D_FOR_K)
    if pts:
        p0 = pts[0]["point"]
        ks = [p["point"]["k"] for p in pts]
        d, eps, b = p0["d"], p0["epsilon"], p0["beta"]
        band(ax1, ks, pts, PALETTE[0], f"direct sum, pure eps-DP ({exponent_text(verdict(record, 'scaling-k'))})")
        kk = np.geomspace(min(ks), max(ks), 40)
        upper, lower = claim_bound(theorem, "upper"), claim_bound(theorem, "lower-thm5_4")
        bound_line(ax1, kk, sweep(upper, p0, "k", kk), PALETTE[0], "Ex 3.5 upper bound")
        bound_line(ax1, kk, np.maximum(sweep(lower, p0, "k", kk), 1), "k",
                   "Thm 5.4 lower bound (k d ln2 + ln(1-beta))/eps", "-")
        bound_line(ax1, kk, np.full_like(kk, bns.n_alg4_parities(d, eps, 1e-6, b)), PALETTE[2],
                   "Thm 3.12 bound, (eps, 1e-6)-DP, no k (contrast)", ":")
        ax1.set_xscale("log", base=2)
        ax1.set_yscale("log")
        ax1.set_xlabel("number of concepts k")
        ax1.set_ylabel("n_hat (all k parities exact w.p. >= 1 - beta)")
        ax1.set_title(f"PAR_{d} under uniform; eps = {eps}, beta = {b}", fontsize=10)
        legend(ax1)
    pts = select(record, k=sim.K_FOR_D)
    if len(pts) > 1:
        p0 = pts[0]["point"]
        ds = [p["point"]["d"] for p in pts]
        band(ax2, ds, pts, PALETTE[1], f"direct sum, k = {sim.K_FOR_D} ({exponent_text(verdict(record, 'scaling-d'))})",
             "s")
        dd = np.arange(min(ds), max(ds) + 1)
        bound_line(ax2, dd, sweep(claim_bound(theorem, "upper"), p0, "d", dd), PALETTE[1], "Ex 3.5 upper bound")
        bound_line(ax2, dd, sweep(claim_bound(theorem, "lower-thm5_4"), p0, "d", dd), "k",
                   "Thm 5.4 lower bound", "-")
        ax2.set_yscale("log")
        ax2.set_xlabel("dimension d")
        ax2.set_ylabel("n_hat")
        ax2.set_title("growth in d", fontsize=10)
        legend(ax2)
    return save(fig, record, out)
