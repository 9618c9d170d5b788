"""Figure for Bun-Nissim-Stemmer Corollary 3.10 (Algorithm 2 over the substitute
threshold sanitizer): n_hat against k, basic and advanced accounting, over the explicit
bound of the claim "upper" (Lemma 3.7's three events over the tree sanitizer), with
sqrt(k) and k^(1/3) reference slopes (Cor 3.10's upper and Cor 4.6's lower bound shapes)
and the non-private reference of Cor 2.12."""

from __future__ import annotations

import numpy as np

from privbounds.bounds import bns
from privbounds.figures.bns.style import rules_against_k
from privbounds.figures.common import (
    NONPRIVATE,
    bound_label,
    bound_line,
    legend,
    new_figure,
    save,
    select,
)
from privbounds.registry import get


def plot(theorem, record, out):
    fig, (ax,) = new_figure(1, width=7.8, height=7.4)
    p0 = rules_against_k(ax, theorem, record, "tree", "upper", "Lemma 3.7 bound (tree sanitizer)")
    adv = select(record, rule="advanced")
    if adv:
        top = max(adv, key=lambda p: p.point["k"])
        if top.n_hat:
            kk = np.geomspace(1, top.point["k"], 30)
            for expo, style, name in ((0.5, "-.", "sqrt(k) (Cor 3.10)"), (1 / 3, (0, (1, 3)), "k^(1/3) (Cor 4.6 lower bound)")):
                ax.plot(kk, top.n_hat * (kk / top.point["k"]) ** expo, linestyle=style, color="gray",
                        label=f"slope {name}, through the last advanced point")
    if p0:
        kk = np.geomspace(1, max(p.point["k"] for p in record.points), 30)
        bound_line(ax, kk, bns.n_nonprivate_k_learner(1, kk, p0["alpha"], p0["beta"]), NONPRIVATE,
                   bound_label(get("bns.cor2_12"), "upper-erm-thresh",
                               "Cor 2.12 bound for non-private ERM (realizable; reference, not judged here)"), ":")
        ax.set_title(f"agnostic THRESH_{p0['d']}, noise 0.1; alpha = {p0['alpha']}, eps = {p0['epsilon']}, "
                     f"delta = {p0['delta']:g}; SUBSTITUTE tree sanitizer", fontsize=9.5)
    ax.set_ylabel("n_hat (all k within alpha of optimal w.p. >= 1 - beta)")
    legend(ax)
    return save(fig, record, out)
