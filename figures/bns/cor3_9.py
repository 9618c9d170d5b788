"""Figure for Bun-Nissim-Stemmer Corollary 3.9 (Algorithm 2 over the point sanitizer):
n_hat against k under basic and advanced accounting (left) over the explicit bound of
Lemma 3.7 (the claim "upper"), with the non-private reference of Cor 2.12; n_hat against
|X| (right) over the same bound."""

from __future__ import annotations

import numpy as np

from privbounds.bounds import bns
from privbounds.figures.bns.style import draw_claim, fit_text, rules_against_k, style
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
)
from privbounds.registry import get


def plot(theorem, record, out):
    fig, (ax1, ax2) = new_figure(2, height=7.2)
    p0 = rules_against_k(ax1, theorem, record, "Alg 1", "upper", "Lemma 3.7 bound", d=10)
    if p0:
        kk = np.geomspace(1, max(p.point["k"] for p in record.points), 30)
        bound_line(ax1, kk, bns.n_nonprivate_k_learner(1, kk, p0["alpha"], p0["beta"]), NONPRIVATE,
                   bound_label(get("bns.cor2_12"), "upper-erm-point",
                               "Cor 2.12 bound for non-private ERM (realizable; reference, not judged here)"), ":")
        ax1.set_title(f"agnostic POINT_10, noise 0.1; alpha = {p0['alpha']}, eps = {p0['epsilon']}, "
                      f"delta = {p0['delta']:g}", fontsize=10)
    ax1.set_ylabel("n_hat (all k within alpha of optimal w.p. >= 1 - beta)")
    legend(ax1)
    k_x = theorem.simulator.K_FOR_X
    pts = select(record, rule="basic", k=k_x)
    if len(pts) > 1:
        X = [2.0 ** p.point["d"] for p in pts]
        st = style("Alg 2 + Alg 1, basic")
        band(ax2, X, pts, st["color"], f"Alg 2 + Alg 1, basic, k = {k_x}{fit_text(record, 'scaling-X')}", st["marker"])
        draw_claim(ax2, theorem, record, "upper", X, [claim_bound(theorem, "upper")(p.point) for p in pts],
                   st["color"], "Lemma 3.7 bound for Alg 2 + Alg 1, basic (no |X|)")
        ax2.set_xscale("log", base=2)
        ax2.set_yscale("log")
        ax2.set_xlabel("domain size |X|")
        ax2.set_ylabel("n_hat")
        ax2.set_title("independent of the domain size", fontsize=10)
        legend(ax2)
    return save(fig, record, out)
