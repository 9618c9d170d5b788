"""Figures for Kaplan, Mansour, Matias and Stemmer, "Differentially Private Learning of
Geometric Concepts" (ICML 2019), section 3: Theorem 3.5 (CONJ and DISJ against k and d,
with the composition baselines of Example 3.3 and the classical non-private learner).

``draw_conj_k(ax, record, baselines=None)`` draws n_hat against k at d = 512 on one Axes:
the improved learner (CONJ, DISJ, the paper-literal reading), Section 1.1's non-private
learner, and, when ``baselines`` (the result record of kmms.ex3_3) is given, the advanced
and basic composition baselines; each with its interval band, the explicit bounds dashed,
and the fitted exponents (n_hat / ln(d/k) against k) with their intervals in the legend.
``record`` is the result record of kmms.thm3_5, which holds the improved and non-private
k-curves; the paper's headline figure calls it.
"""

from __future__ import annotations

import numpy as np

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
    sibling,
    sweep,
    verdict,
)

D_K = 512


def _fit(record, claim):
    try:
        return exponent_text(verdict(record, claim))
    except StopIteration:
        return "no fit"


def _with_hat(points):
    return [p for p in points if "n_hat" in p]


def draw_conj_k(ax, record: dict, baselines: dict | None = None) -> None:
    """n_hat against k at d = 512 for every learner (see the module docstring)."""
    from privbounds.registry import get

    thm = get("kmms.thm3_5")
    series = [
        (dict(learner="setcover", form="conj"), "improved (Thm 3.5), CONJ", PALETTE[0], "o", "scaling-k-conj"),
        (dict(learner="setcover", form="disj"), "improved, DISJ", PALETTE[1], "s", "scaling-k-disj"),
        (dict(learner="setcover-literal", form="conj"), "improved, paper-literal constants", PALETTE[4], "v", None),
        (dict(learner="nonprivate", form="conj"), "non-private (Sec 1.1)", PALETTE[7], "D", None),
    ]
    ks_all = []
    for where, name, color, marker, claim in series:
        pts = _with_hat(select(record, family="decoy", d=D_K, **where))
        if not pts:
            continue
        ks = [p["point"]["k"] for p in pts]
        ks_all += ks
        label = name + (f" ({_fit(record, claim)})" if claim else "")
        band(ax, ks, pts, color, label, marker)
    ref = _with_hat(select(record, family="decoy", d=D_K, learner="setcover", form="conj"))
    if ref:
        kk = np.unique(np.geomspace(min(ks_all), max(ks_all), 24).round().astype(int))
        bound_line(ax, kk, sweep(claim_bound(thm, "upper-conj"), ref[0]["point"], "k", kk), PALETTE[0],
                   "our explicit n_32, SAFE (bound)")
    if baselines is not None:
        from privbounds.registry import get as get_thm

        ex = get_thm("kmms.ex3_3")
        for i, rule in enumerate(("advanced", "basic")):
            pts = _with_hat(select(baselines, learner=rule, d=D_K))
            if not pts:
                continue
            ks = [p["point"]["k"] for p in pts]
            band(ax, ks, pts, PALETTE[2 + i], f"composition, {rule} (Ex 3.3) ({_fit(baselines, f'scaling-k-{rule}')})",
                 "^<"[i])
            kk = np.unique(np.geomspace(min(ks), max(ks), 24).round().astype(int))
            bound_line(ax, kk, sweep(claim_bound(ex, f"upper-{rule}"), pts[0]["point"], "k", kk), PALETTE[2 + i],
                       f"our explicit n_32, {rule} composition (bound)", ":")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("k (literals in the target)")
    ax.set_ylabel("n_hat (error <= alpha w.p. >= 1 - beta)")
    ax.set_title(f"CONJ / DISJ, decoy family, d = {D_K}: exponents of n_hat / ln(d/k) in k", fontsize=10)
    legend(ax)


def _d_panel(ax, theorem, record):
    pts = _with_hat(select(record, family="decoy", k=4, learner="setcover", form="conj"))
    if not pts:
        ax.set_axis_off()
        return
    ds = [p["point"]["d"] for p in pts]
    band(ax, ds, pts, PALETTE[0], f"improved, CONJ, k = 4 ({_fit(record, 'scaling-d')})")
    dd = np.unique(np.geomspace(min(ds), max(ds), 24).round().astype(int))
    bound_line(ax, dd, sweep(claim_bound(theorem, "upper-conj"), pts[0]["point"], "d", dd), PALETTE[0],
               "our explicit n_32, SAFE (bound)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("d (variables); the fit uses d >= 64, against ln(d/k)")
    ax.set_ylabel("n_hat")
    ax.set_title("CONJ, decoy family, k = 4: n_hat against d", fontsize=10)
    legend(ax)


def _family_panel(ax, theorem, record):
    for i, fam in enumerate(("decoy", "nearmiss")):
        pts = _with_hat(select(record, family=fam, d=D_K, learner="setcover", form="conj"))
        if pts:
            band(ax, [p["point"]["k"] for p in pts], pts, PALETTE[i * 3], f"improved, CONJ, {fam} family", "os"[i])
    ref = _with_hat(select(record, family="nearmiss", d=D_K, learner="setcover", form="conj"))
    if ref:
        ks = [p["point"]["k"] for p in ref]
        bound_line(ax, ks, [claim_bound(theorem, "upper-conj")(p["point"]) for p in ref], "k",
                   "our explicit n_32, SAFE (bound; the same for every family)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("k")
    ax.set_ylabel("n_hat")
    ax.set_title(f"The hard and the easy family, d = {D_K}", fontsize=10)
    legend(ax)


def thm3_5(theorem, record, out):
    fig, axes = new_figure(3, width=6.4, height=8.6)
    draw_conj_k(axes[0], record, sibling(out, "kmms.ex3_3"))
    _d_panel(axes[1], theorem, record)
    _family_panel(axes[2], theorem, record)
    return save(fig, record, out)
