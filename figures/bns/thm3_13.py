"""Figure for Bun-Nissim-Stemmer Theorem 3.13 (Algorithm 5, points): n_hat against k for
two domain sizes, flat, over the k-free bound (the claim "upper"), with the pure-DP
packing lower bound of Thm 5.1 (linear in k) and the non-private reference of Cor 2.12."""

from __future__ import annotations

import numpy as np

from privbounds.bounds import bns
from privbounds.figures.bns.style import draw_claim, fit_text, variants
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
    fig, (ax,) = new_figure(1, width=7.5, height=7.0)
    p0 = None
    domains = (10, 16)
    for d, st in zip(domains, variants("Alg 5", len(domains))):
        pts = select(record, d=d)
        if not pts:
            continue
        p0 = pts[0].point
        band(ax, [p.point["k"] for p in pts], pts, st["color"],
             f"Alg 5, |X| = 2^{d}{fit_text(record, f'scaling-k-d{d}')}", st["marker"])
    if p0:
        ks = np.geomspace(1, max(p.point["k"] for p in record.points), 40)
        eps, dl, a, b = p0["epsilon"], p0["delta"], p0["alpha"], p0["beta"]
        draw_claim(ax, theorem, record, "upper", ks, sweep(claim_bound(theorem, "upper"), p0, "k", ks),
                   variants("Alg 5", 1)[0]["color"], "Thm 3.13 bound for Alg 5 (no k, no |X|)")
        bound_line(ax, ks, np.maximum(bns.packing_lower_bound(ks, eps, b), 1), "k",
                   "Thm 5.1: every pure eps-DP learner needs (k ln2 + ln(1-beta))/eps", "-")
        bound_line(ax, ks, bns.n_nonprivate_k_learner(1, ks, a, b), NONPRIVATE,
                   bound_label(get("bns.cor2_12"), "upper-erm-point",
                               "Cor 2.12 bound for non-private ERM (reference, not judged here)"), ":")
        ax.set_title(f"POINT, realizable; alpha = {a}, eps = {eps}, delta = {dl:g}, beta = {b}", fontsize=10)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("number of concepts k")
    ax.set_ylabel("n_hat (all k alpha-accurate w.p. >= 1 - beta)")
    legend(ax)
    return save(fig, record, out)
