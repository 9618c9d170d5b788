"""Figure for Bun-Nissim-Stemmer Proposition 2.21, drawn for the SUBSTITUTE threshold
sanitizer (binary-tree histogram): n_hat against |X| over the substitute's bound (the
claim "upper-tree"), with the paper's 2^(O(log* |X|)) shape as a reference only (no
claim: its constant is hidden) (left); n_hat against 1/alpha over the same bound
(right)."""

from __future__ import annotations

import numpy as np

from privbounds.bounds import bns
from privbounds.figures.bns.style import draw_claim, fit_text, measured_ticks, style
from privbounds.figures.common import (
    band,
    bound_line,
    claim_bound,
    fn_label,
    legend,
    new_figure,
    save,
    select,
    sweep,
)

LEARNER = "tree sanitizer"


def plot(theorem, record, out):
    fig, (ax1, ax2) = new_figure(2, height=7.0)
    pts = select(record, alpha=0.1)
    if pts:
        p0 = pts[0].point
        X = [2.0 ** p.point["d"] for p in pts]
        st = style(LEARNER)
        band(ax1, X, pts, st["color"], f"SUBSTITUTE tree sanitizer{fit_text(record, 'scaling-L')}", st["marker"])
        xx = np.geomspace(min(X), max(X), 40)
        # the claim's parameter is d = log2|X|: a smooth curve over |X| is one over real d
        draw_claim(ax1, theorem, record, "upper-tree", xx, sweep(claim_bound(theorem, "upper-tree"), p0, "d",
                                                                 np.log2(xx)), st["color"],
                   "the substitute's bound (2L^2/(alpha eps)) ln(2|X|/beta) for the tree sanitizer")
        bound_line(ax1, xx, bns.n_thresh_sanitizer_paper(p0["alpha"], p0["epsilon"], 1e-6, p0["beta"], xx),
                   "gray", fn_label(bns.n_thresh_sanitizer_paper,
                                    "Prop 2.21 shape 8^(log*|X|) log*|X| ln(1/(a b delta))/(a eps), constant 1, "
                                    "delta = 1e-6 (reference only)"), ":")
        ax1.set_title(f"alpha = {p0['alpha']}, eps = {p0['epsilon']}, beta = {p0['beta']}", fontsize=10)
    ax1.set_xscale("log", base=2)
    ax1.set_yscale("log")
    ax1.set_xlabel("domain size |X|")
    ax1.set_ylabel("n_hat (all prefix queries within alpha w.p. >= 1 - beta)")
    legend(ax1)
    d = theorem.simulator.D_FOR_ALPHA
    pts = select(record, d=d)
    if len(pts) > 1:
        p0 = pts[0].point
        inv = [1 / p.point["alpha"] for p in pts]
        st = style(LEARNER)
        band(ax2, inv, pts, st["color"], f"SUBSTITUTE tree sanitizer, |X| = 2^{d}{fit_text(record, 'scaling-alpha')}",
             st["marker"])
        ii = np.geomspace(min(inv), max(inv), 30)
        draw_claim(ax2, theorem, record, "upper-tree", ii, sweep(claim_bound(theorem, "upper-tree"), p0, "alpha",
                                                                 1 / ii), st["color"],
                   "the substitute's bound for the tree sanitizer")
        ax2.set_xscale("log", base=2)
        ax2.set_yscale("log")
        measured_ticks(ax2, inv)
        ax2.set_xlabel("1 / alpha")
        ax2.set_ylabel("n_hat")
        ax2.set_title("accuracy", fontsize=10)
        legend(ax2)
    return save(fig, record, out)
