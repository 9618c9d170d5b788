"""Figures for Bun-Nissim-Stemmer Corollaries 3.4 and 3.3 (direct sums over POINT_X):
n_hat against k (left) and against |X| (right) on the agnostic instance of Cor 3.9.

Cor 3.4: both panels over the claim "upper", the right one with Cor 3.9's |X|-free bound
for contrast. Cor 3.3: over the claim "lower-thm5_1" (Thm 5.1's packing bound; the
upper bound's constant is hidden, so it is not drawn)."""

from __future__ import annotations

import numpy as np

from privbounds.bounds import bns
from privbounds.figures.bns.style import claim_label, draw_claim, fit_text, rules_against_k, style
from privbounds.figures.common import (
    band,
    bound_label,
    bound_line,
    claim_bound,
    legend,
    new_figure,
    save,
    select,
    sweep,
)
from privbounds.registry import get


def _x_panel(ax, record, pts, learner, label, claim):
    X = [2.0 ** p.point["d"] for p in pts]
    st = style(learner)
    band(ax, X, pts, st["color"], f"{label}{fit_text(record, claim)}", st["marker"])
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("domain size |X|")
    ax.set_ylabel("n_hat")
    return X


def plot(theorem, record, out):
    fig, (ax1, ax2) = new_figure(2, height=7.2)
    k_x = theorem.simulator.K_FOR_X
    p0 = rules_against_k(ax1, theorem, record, None, "upper", "Cor 3.4 bound", d=10)
    if p0:
        ax1.set_title(f"agnostic POINT_10 (instance of Cor 3.9); alpha = {p0['alpha']}, eps = {p0['epsilon']}",
                      fontsize=10)
    ax1.set_ylabel("n_hat (all k within alpha of optimal w.p. >= 1 - beta)")
    legend(ax1)
    pts = select(record, rule="basic", k=k_x)
    if len(pts) > 1:
        X = _x_panel(ax2, record, pts, "direct sum, basic", f"direct sum, basic, k = {k_x}", "scaling-X")
        q = pts[0].point
        xx = np.geomspace(min(X), max(X), 30)
        # the claim's parameter is d = log2|X|: a smooth curve over |X| is one over real d
        draw_claim(ax2, theorem, record, "upper", xx, sweep(claim_bound(theorem, "upper"), q, "d", np.log2(xx)),
                   style("direct sum, basic")["color"], "Cor 3.4 bound for direct sum, basic (grows with ln|X|)")
        bound_line(ax2, xx, np.full_like(xx, bns.n_alg2_points(k_x, "basic", q["alpha"], q["epsilon"], q["delta"],
                                                               q["beta"])), style("Alg 2 + Alg 1, basic")["color"],
                   bound_label(get("bns.cor3_9"), "upper",
                               "Cor 3.9 bound for Alg 2 + Alg 1, basic (no |X|; contrast, not judged here)"), ":")
        ax2.set_title("the direct sum pays for the domain", fontsize=10)
        legend(ax2)
    return save(fig, record, out)


def plot_cor3_3(theorem, record, out):
    fig, (ax1, ax2) = new_figure(2, height=7.0)
    k_x = theorem.simulator.K_FOR_X
    pts = select(record, d=16)
    if pts:
        p0 = pts[0].point
        ks = [p.point["k"] for p in pts]
        st = style("hash learner")
        band(ax1, ks, pts, st["color"], f"hash learner (pure direct sum){fit_text(record, 'scaling-k')}", st["marker"])
        kk = np.geomspace(min(ks), max(ks), 30)
        bound_line(ax1, kk, np.maximum(sweep(claim_bound(theorem, "lower-thm5_1"), p0, "k", kk), 1), "k",
                   claim_label(theorem, record, "lower-thm5_1",
                               "Thm 5.1: every pure eps-DP learner needs (k ln2 + ln(1-beta))/eps"), "-")
        ax1.set_xscale("log", base=2)
        ax1.set_yscale("log")
        ax1.set_xlabel("number of concepts k")
        ax1.set_ylabel("n_hat (all k within alpha of optimal w.p. >= 1 - beta)")
        ax1.set_title(f"agnostic POINT_16, pure eps = {p0['epsilon']}; SUBSTITUTE inner learner (hashing)",
                      fontsize=10)
        legend(ax1)
    pts = select(record, k=k_x)
    if len(pts) > 1:
        _x_panel(ax2, record, pts, "hash learner", f"hash learner, k = {k_x}", "scaling-X")
        ax2.set_title("independent of the domain size", fontsize=10)
        legend(ax2)
    return save(fig, record, out)
