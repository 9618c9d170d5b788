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
    band,
    bound_label,
    bound_line,
    claim_bound,
    exponent_text,
    legend,
    new_figure,
    save,
    select,
    shade,
    sibling,
    sweep,
    verdict,
)
from privbounds.figures.kmms.style import style
from privbounds.record import Record, verdict_text

D_K = 512


def _fit(record, claim):
    try:
        v = verdict(record, claim)
    except KeyError:
        return "no fit"
    return f"{exponent_text(v)}: {v.verdict}"


def _verdicts(record, *claims) -> str:
    """``claim: verdict`` of each claim the panel draws (for its title)."""
    out = []
    for c in claims:
        try:
            out.append(verdict_text(verdict(record, c)))
        except KeyError:
            pass
    return "; ".join(out)


def _with_hat(points):
    return [p for p in points if p.searched]


def draw_conj_k(ax, record: Record, baselines: Record | None = None) -> None:
    """n_hat against k at d = 512 for every learner (see the module docstring)."""
    from privbounds.registry import get

    thm = get("kmms.thm3_5")
    improved = style("setcover")[0]
    # DISJ is the same learner as CONJ: its colour, a darker shade and a hollow marker
    series = [
        (dict(learner="setcover", form="conj"), "improved (Thm 3.5), CONJ", *style("setcover"), "scaling-k-conj"),
        (dict(learner="setcover", form="disj"), "improved, DISJ", shade(improved, -0.4), "s", "scaling-k-disj"),
        (dict(learner="setcover-literal", form="conj"), "improved, paper-literal constants", *style("setcover-literal"),
         None),
        (dict(learner="nonprivate", form="conj"), "non-private (Sec 1.1)", *style("nonprivate"), None),
    ]
    ks_all = []
    for where, name, color, marker, claim in series:
        pts = _with_hat(select(record, family="decoy", d=D_K, **where))
        if not pts:
            continue
        ks = [p.point["k"] for p in pts]
        ks_all += ks
        label = name + (f" ({_fit(record, claim)})" if claim else "")
        band(ax, ks, pts, color, label, marker)
    ref = _with_hat(select(record, family="decoy", d=D_K, learner="setcover", form="conj"))
    if ref:
        kk = np.unique(np.geomspace(min(ks_all), max(ks_all), 24).round().astype(int))
        bound_line(ax, kk, sweep(claim_bound(thm, "upper-conj"), ref[0].point, "k", kk), improved,
                   bound_label(thm, "upper-conj", "our explicit n_32, SAFE (upper-conj)"))
    if baselines is not None:
        from privbounds.registry import get as get_thm

        ex = get_thm("kmms.ex3_3")
        for rule in ("advanced", "basic"):
            pts = _with_hat(select(baselines, learner=rule, d=D_K))
            if not pts:
                continue
            color, marker = style(rule)
            ks = [p.point["k"] for p in pts]
            band(ax, ks, pts, color, f"composition, {rule} (Ex 3.3) ({_fit(baselines, f'scaling-k-{rule}')})", marker)
            kk = np.unique(np.geomspace(min(ks), max(ks), 24).round().astype(int))
            bound_line(ax, kk, sweep(claim_bound(ex, f"upper-{rule}"), pts[0].point, "k", kk), color,
                       bound_label(ex, f"upper-{rule}", f"our explicit n_32, {rule} composition (Ex 3.3 upper-{rule})"))
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("k (literals in the target)")
    ax.set_ylabel("n_hat (error <= alpha w.p. >= 1 - beta)")
    ax.set_title(f"CONJ / DISJ, decoy family, d = {D_K}: exponents of n_hat / ln(d/k) in k\n"
                 + _verdicts(record, "upper-conj", "upper-disj", "upper-literal"), fontsize=10)
    legend(ax)


def _d_panel(ax, theorem, record):
    pts = _with_hat(select(record, family="decoy", k=4, learner="setcover", form="conj"))
    if not pts:
        ax.set_axis_off()
        return
    ds = [p.point["d"] for p in pts]
    color, marker = style("setcover")
    band(ax, ds, pts, color, f"improved, CONJ, k = 4 ({_fit(record, 'scaling-d')})", marker)
    dd = np.unique(np.geomspace(min(ds), max(ds), 24).round().astype(int))
    bound_line(ax, dd, sweep(claim_bound(theorem, "upper-conj"), pts[0].point, "d", dd), color,
               bound_label(theorem, "upper-conj", "our explicit n_32, SAFE (upper-conj)"))
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("d (variables); the fit uses d >= 64, against ln(d/k)")
    ax.set_ylabel("n_hat")
    ax.set_title("CONJ, decoy family, k = 4: n_hat against d\n" + _verdicts(record, "upper-conj", "scaling-d"),
                 fontsize=10)
    legend(ax)


def _family_panel(ax, theorem, record):
    color, marker = style("setcover")
    # one learner on two target families: its colour, the easy family a lighter shade
    for fam, c, m in (("decoy", color, marker), ("nearmiss", shade(color, 0.45), "s")):
        pts = _with_hat(select(record, family=fam, d=D_K, learner="setcover", form="conj"))
        if pts:
            band(ax, [p.point["k"] for p in pts], pts, c, f"improved, CONJ, {fam} family", m)
    ref = _with_hat(select(record, family="nearmiss", d=D_K, learner="setcover", form="conj"))
    if ref:
        ks = [p.point["k"] for p in ref]
        bound_line(ax, ks, [claim_bound(theorem, "upper-conj")(p.point) for p in ref], color,
                   bound_label(theorem, "upper-conj", "our explicit n_32, SAFE (upper-conj; the same for every family)"))
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("k")
    ax.set_ylabel("n_hat")
    ax.set_title(f"The hard and the easy family, d = {D_K}\n" + _verdicts(record, "upper-conj"), fontsize=10)
    legend(ax)


def thm3_5(theorem, record, out):
    fig, axes = new_figure(3, width=6.4, height=8.6)
    draw_conj_k(axes[0], record, sibling(out, "kmms.ex3_3"))
    _d_panel(axes[1], theorem, record)
    _family_panel(axes[2], theorem, record)
    return save(fig, record, out)
