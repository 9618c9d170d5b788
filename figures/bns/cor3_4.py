"""Figures for Bun-Nissim-Stemmer Corollaries 3.4 and 3.3 (direct sums over POINT_X):
n_hat against k (left) and against |X| (right) on the agnostic instance of Cor 3.9.

Cor 3.4: both panels over the claim "upper", the right one with Cor 3.9's |X|-free bound
for contrast. Cor 3.3: over the claim "lower-thm5_1" (Thm 5.1's packing bound; the
upper bound's constant is hidden, so it is not drawn)."""

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
    rules_against_k,
    save,
    select,
    sweep,
    verdict,
)


def _x_panel(ax, record, pts, label, claim):
    X = [2.0 ** p["point"]["d"] for p in pts]
    band(ax, X, pts, PALETTE[0], f"{label} ({exponent_text(verdict(record, claim))})")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("domain size |X|")
    ax.set_ylabel("n_hat")
    return X


def plot(theorem, record, out):
    fig, (ax1, ax2) = new_figure(2, height=7.2)
    k_x = theorem.simulator.K_FOR_X
    p0 = rules_against_k(ax1, theorem, record, "direct sum", "upper", "Cor 3.4 bound", d=10)
    if p0:
        ax1.set_title(f"agnostic POINT_10 (instance of Cor 3.9); alpha = {p0['alpha']}, eps = {p0['epsilon']}",
                      fontsize=10)
    ax1.set_ylabel("n_hat (all k within alpha of optimal w.p. >= 1 - beta)")
    legend(ax1)
    pts = select(record, rule="basic", k=k_x)
    if len(pts) > 1:
        X = _x_panel(ax2, record, pts, f"direct sum, basic, k = {k_x}", "scaling-X")
        q = pts[0]["point"]
        xx = np.geomspace(min(X), max(X), 30)
        # the claim's parameter is d = log2|X|: a smooth curve over |X| is one over real d
        bound_line(ax2, xx, sweep(claim_bound(theorem, "upper"), q, "d", np.log2(xx)),
                   PALETTE[0], "Cor 3.4 bound (grows with ln|X|)")
        bound_line(ax2, xx, np.full_like(xx, bns.n_alg2_points(k_x, "basic", q["alpha"], q["epsilon"], q["delta"],
                                                               q["beta"])), PALETTE[2],
                   "Cor 3.9 bound (Alg 2, no |X|; contrast)", ":")
        ax2.set_title("the direct sum pays for the domain", fontsize=10)
        legend(ax2)
    return save(fig, record, out)


def plot_cor3_3(theorem, record, out):
    fig, (ax1, ax2) = new_figure(2, height=7.0)
    k_x = theorem.simulator.K_FOR_X
    pts = select(record, d=16)
    if pts:
        p0 = pts[0]["point"]
        ks = [p["point"]["k"] for p in pts]
        band(ax1, ks, pts, PALETTE[0], f"hash-learner direct sum ({exponent_text(verdict(record, 'scaling-k'))})")
        kk = np.geomspace(min(ks), max(ks), 30)
        bound_line(ax1, kk, np.maximum(sweep(claim_bound(theorem, "lower-thm5_1"), p0, "k", kk), 1), "k",
                   "Thm 5.1: every pure eps-DP learner needs (k ln2 + ln(1-beta))/eps", "-")
        ax1.set_xscale("log", base=2)
        ax1.set_yscale("log")
        ax1.set_xlabel("number of concepts k")
        ax1.set_ylabel("n_hat (all k within alpha of optimal w.p. >= 1 - beta)")
        ax1.set_title(f"agnostic POINT_16, pure eps = {p0['epsilon']}; SUBSTITUTE inner learner (hashing)",
                      fontsize=10)
        legend(ax1)
    pts = select(record, k=k_x)
    if len(pts) > 1:
        _x_panel(ax2, record, pts, f"hash learner, k = {k_x}", "scaling-X")
        ax2.set_title("independent of the domain size", fontsize=10)
        legend(ax2)
    return save(fig, record, out)
