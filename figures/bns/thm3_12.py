"""Figure for Bun-Nissim-Stemmer Theorem 3.12 (Algorithm 4, parities): n_hat against k at
d = 10 (left), flat, over the k-free bound (the claim "upper"), against the pure-DP
packing lower bound of Thm 5.4 (which grows like k d) and the non-private reference of
Cor 2.12; n_hat against d (right) over the same bound."""

from __future__ import annotations

import numpy as np

from privbounds.bounds import bns
from privbounds.figures.bns.style import draw_claim, fit_text, style
from privbounds.figures.common import (
    NONPRIVATE,
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


def plot(theorem, record, out):
    fig, (ax1, ax2) = new_figure(2, height=7.0)
    pts = [p for p in select(record, d=10)]
    if pts:
        p0 = pts[0].point
        ks = [p.point["k"] for p in pts]
        st = style("Alg 4")
        band(ax1, ks, pts, st["color"], f"Alg 4, (eps, delta)-DP{fit_text(record, 'scaling-k')}", st["marker"])
        kk = np.geomspace(min(ks), max(ks), 40)
        eps, dl, b = p0["epsilon"], p0["delta"], p0["beta"]
        draw_claim(ax1, theorem, record, "upper", kk, sweep(claim_bound(theorem, "upper"), p0, "k", kk), st["color"],
                   "Thm 3.12 bound (d + 3) T for Alg 4, independent of k")
        bound_line(ax1, kk, bns.parity_packing_lower_bound(kk, 10, eps, b), "k",
                   "Thm 5.4: every pure eps-DP learner needs (k d ln2 + ln(1-beta))/eps", "-")
        bound_line(ax1, kk, bns.n_nonprivate_k_learner(10, kk, 0.25, b), NONPRIVATE,
                   bound_label(get("bns.cor2_12"), "upper-erm-par",
                               "Cor 2.12 bound for non-private ERM (alpha = 1/4; reference, not judged here)"), ":")
        ax1.set_xscale("log", base=2)
        ax1.set_yscale("log")
        ax1.set_xlabel("number of concepts k")
        ax1.set_ylabel("rows needed, n_hat (all k parities exact w.p. >= 1 - beta)")
        ax1.set_title(f"PAR_10 under uniform; eps = {eps}, delta = {dl:g}, beta = {b}", fontsize=10)
        legend(ax1)
    dpts = [p for p in record.points if p.point["k"] == 16]
    if dpts:
        ds = [p.point["d"] for p in dpts]
        st = style("Alg 4")
        band(ax2, ds, dpts, st["color"], f"Alg 4, k = 16{fit_text(record, 'scaling-d')}", st["marker"])
        p0 = dpts[0].point
        dd = np.arange(min(ds), max(ds) + 1)
        draw_claim(ax2, theorem, record, "upper", dd, sweep(claim_bound(theorem, "upper"), p0, "d", dd), st["color"],
                   "Thm 3.12 bound (d + 3) T for Alg 4")
        ax2.set_xlabel("dimension d")
        ax2.set_ylabel("rows needed, n_hat")
        ax2.set_title("growth in d: linear through the block size s = d + 3", fontsize=10)
        legend(ax2)
    return save(fig, record, out)
