"""Figure for Bun-Nissim-Stemmer Proposition 2.21, drawn for the SUBSTITUTE threshold
sanitizer (binary-tree histogram): n_hat against |X| over the substitute's bound (the
claim "upper-tree"), with the paper's 2^(O(log* |X|)) shape as a reference only (no
claim: its constant is hidden) (left); n_hat against 1/alpha over the same bound
(right)."""

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
    fig, (ax1, ax2) = new_figure(2, height=7.0)
    pts = select(record, alpha=0.1)
    if pts:
        p0 = pts[0]["point"]
        X = [2.0 ** p["point"]["d"] for p in pts]
        band(ax1, X, pts, PALETTE[0], f"SUBSTITUTE tree sanitizer ({exponent_text(verdict(record, 'scaling-L'))})")
        xx = np.geomspace(min(X), max(X), 40)
        # the claim's parameter is d = log2|X|: a smooth curve over |X| is one over real d
        bound_line(ax1, xx, sweep(claim_bound(theorem, "upper-tree"), p0, "d", np.log2(xx)), PALETTE[0],
                   "substitute's bound (2L^2/(alpha eps)) ln(2|X|/beta)")
        bound_line(ax1, xx, bns.n_thresh_sanitizer_paper(p0["alpha"], p0["epsilon"], 1e-6, p0["beta"], xx),
                   "gray", "Prop 2.21 shape 8^(log*|X|) log*|X| ln(1/(a b delta))/(a eps), constant 1, "
                   "delta = 1e-6 (reference only)", ":")
        ax1.set_title(f"alpha = {p0['alpha']}, eps = {p0['epsilon']}, beta = {p0['beta']}", fontsize=10)
    ax1.set_xscale("log", base=2)
    ax1.set_yscale("log")
    ax1.set_xlabel("domain size |X|")
    ax1.set_ylabel("n_hat (all prefix queries within alpha w.p. >= 1 - beta)")
    legend(ax1)
    d = theorem.simulator.D_FOR_ALPHA
    pts = select(record, d=d)
    if len(pts) > 1:
        p0 = pts[0]["point"]
        inv = [1 / p["point"]["alpha"] for p in pts]
        band(ax2, inv, pts, PALETTE[1], f"SUBSTITUTE, |X| = 2^{d} ({exponent_text(verdict(record, 'scaling-alpha'))})",
             "s")
        ii = np.geomspace(min(inv), max(inv), 30)
        bound_line(ax2, ii, sweep(claim_bound(theorem, "upper-tree"), p0, "alpha", 1 / ii), PALETTE[1],
                   "substitute's bound")
        ax2.set_xscale("log", base=2)
        ax2.set_yscale("log")
        ax2.set_xlabel("1 / alpha")
        ax2.set_ylabel("n_hat")
        ax2.set_title("accuracy", fontsize=10)
        legend(ax2)
    return save(fig, record, out)
