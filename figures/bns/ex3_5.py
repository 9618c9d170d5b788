"""Figure for Bun-Nissim-Stemmer Example 3.5 (pure-DP direct sum over PAR_d): n_hat
against k (left) and d (right), between the explicit upper bound (the claim "upper") and
the packing lower bound of Thm 5.4 (the claim "lower-thm5_4"); the approximate-DP
Algorithm 4 bound (Thm 3.12, delta = 1e-6) for contrast."""

from __future__ import annotations

import numpy as np

from privbounds.bounds import bns
from privbounds.figures.bns.style import claim_label, draw_claim, fit_text, measured_ticks, style
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

LEARNER = "direct sum, pure"


def plot(theorem, record, out):
    sim = theorem.simulator
    fig, (ax1, ax2) = new_figure(2, height=7.0)
    pts = select(record, d=sim.D_FOR_K)
    if pts:
        p0 = pts[0].point
        ks = [p.point["k"] for p in pts]
        d, eps, b = p0["d"], p0["epsilon"], p0["beta"]
        st = style(LEARNER)
        band(ax1, ks, pts, st["color"], f"{LEARNER} eps-DP{fit_text(record, 'scaling-k')}", st["marker"])
        kk = np.geomspace(min(ks), max(ks), 40)
        upper, lower = claim_bound(theorem, "upper"), claim_bound(theorem, "lower-thm5_4")
        draw_claim(ax1, theorem, record, "upper", kk, sweep(upper, p0, "k", kk), st["color"],
                   f"Ex 3.5 upper bound for {LEARNER}")
        draw_claim(ax1, theorem, record, "lower-thm5_4", kk, np.maximum(sweep(lower, p0, "k", kk), 1), "k",
                   "Thm 5.4 lower bound (k d ln2 + ln(1-beta))/eps, any pure eps-DP learner", "-")
        bound_line(ax1, kk, np.full_like(kk, bns.n_alg4_parities(d, eps, 1e-6, b)), style("Alg 4")["color"],
                   bound_label(get("bns.thm3_12"), "upper",
                               "Thm 3.12 bound for Alg 4, (eps, 1e-6)-DP, no k (contrast, not judged here)"), ":")
        ax1.set_xscale("log", base=2)
        ax1.set_yscale("log")
        ax1.set_xlabel("number of concepts k")
        ax1.set_ylabel("n_hat (all k parities exact w.p. >= 1 - beta)")
        ax1.set_title(f"PAR_{d} under uniform; eps = {eps}, beta = {b}", fontsize=10)
        legend(ax1)
    pts = select(record, k=sim.K_FOR_D)
    if len(pts) > 1:
        p0 = pts[0].point
        ds = [p.point["d"] for p in pts]
        st = style(LEARNER)
        band(ax2, ds, pts, st["color"], f"{LEARNER}, k = {sim.K_FOR_D}{fit_text(record, 'scaling-d')}", st["marker"])
        dd = np.arange(min(ds), max(ds) + 1)
        draw_claim(ax2, theorem, record, "upper", dd, sweep(claim_bound(theorem, "upper"), p0, "d", dd), st["color"],
                   f"Ex 3.5 upper bound for {LEARNER}")
        ax2.plot(dd, sweep(claim_bound(theorem, "lower-thm5_4"), p0, "d", dd), "-", color="k", linewidth=1.6,
                 label=claim_label(theorem, record, "lower-thm5_4", "Thm 5.4 lower bound"))
        measured_ticks(ax2, ds)
        ax2.set_yscale("log")
        ax2.set_xlabel("dimension d")
        ax2.set_ylabel("n_hat")
        ax2.set_title("growth in d", fontsize=10)
        legend(ax2)
    return save(fig, record, out)
