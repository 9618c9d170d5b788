"""Figures for Bassily et al., "Private Query Release Assisted by Public Data" (ICML 2020),
section 3: Theorem 3.1's public/private frontier with its stumps and domain-size panels.
Its baselines, Lemma 3.3 and Lemma 2.7 are declared for the one plotter (``specs.py``).

``frontier_panel`` draws the frontier (the smallest private n at each public m, with
intervals, over the explicit bound's curve, with the public-only and private-only
baselines) on a given Axes; the paper's opening figure (paper.py) reuses it. Baselines
are drawn from the baseline theorems' results when they were run (their measured m_hat
and n_hat), else from their explicit bounds only, and the legend says which.
"""

from __future__ import annotations

import numpy as np

from privbounds.bounds import pap as pap_bounds
from privbounds.figures.common import (
    band,
    bound_label,
    bound_line,
    claim_bound,
    legend,
    new_figure,
    save,
    select,
    sibling,
    verdict,
)
from privbounds.figures.pap.style import SERIES_MARKS, learner_color, shades, style
from privbounds.figures.spec_nhat import worst_points as worst
from privbounds.record import fit_text, verdict_text
from privbounds.simulators.pap.query_classes import DISTRIBUTIONS


def _by_dist(ax, record, x_of, dists, learner="public+private", name="measured", learner_key=None, **where):
    """One series per distribution, in shades of the learner's colour (a colour names a
    learner in every figure of the paper), told apart by shade and marker."""
    for i, (dist, color) in enumerate(zip(dists, shades(learner, len(dists)))):
        if learner_key is not None:
            where = {**where, "learner": learner_key}
        pts = [p for p in select(record, dist=dist, **where) if p.searched]
        if pts:
            band(ax, [x_of(p.point) for p in pts], pts, color, f"{name}, {dist}",
                 SERIES_MARKS[i % len(SERIES_MARKS)])


def _fit(ax, record, claim):
    """The claim's fitted exponent as a legend entry (too long for a panel title); returns
    ``claim: verdict`` for the title."""
    v = verdict(record, claim)
    ax.plot([], [], " ", label=f"fit: {fit_text(v)}")
    return verdict_text(v)


def _finish(ax, xlabel, ylabel, title, xbase=10):
    ax.set_xscale("log", base=xbase)
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    legend(ax)


def frontier_panel(ax, theorem, record, out, alpha: float = 0.2) -> None:
    """Theorem 3.1's frontier on THR_4096 at ``alpha``: measured private n_hat per public m
    (each distribution, and the worst as a thick line), the explicit bound where the
    theorem applies, and the two baselines, each learner in its colour (``LEARNERS``)."""
    pts = [p for p in select(record, panel="frontier", alpha=alpha) if p.searched]
    if not pts:
        ax.text(0.5, 0.5, "no frontier points in this run", ha="center", transform=ax.transAxes)
        return
    ref = pts[0].point
    pap_color = learner_color("public+private")
    _by_dist(ax, record, lambda p: p["m"], DISTRIBUTIONS, name="public + private (Alg 3)", panel="frontier",
             alpha=alpha)
    worst_m = sorted(worst(pts), key=lambda p: p.point["m"])
    fin = [p for p in worst_m if p.n_hat]
    if fin:
        ax.plot([p.point["m"] for p in fin], [p.n_hat for p in fin], "-", color=pap_color, linewidth=3,
                alpha=0.45, label="worst distribution (the claim's n_hat)")
    floor = [p.point["m"] for p in worst_m if not p.n_hat]
    if floor:
        ax.axvspan(min(p.point["m"] for p in worst_m) / 1.2, max(floor) * 1.2, color="red", alpha=0.07,
                   label=f"cover floor: no n <= 2^30 suffices (m <= {max(floor)})")
    m_pub = float(pap_bounds.m_pap_public(alpha, ref["beta"], 1))
    ms = np.geomspace(m_pub, max(p.point["m"] for p in pts) * 1.5, 20)
    bound = claim_bound(theorem, "upper-thr")
    bound_line(ax, ms, [bound({**ref, "m": int(m)}) for m in ms], pap_color,
               bound_label(theorem, "upper-thr", "our explicit n_PAP (upper-thr; applies for m >= m_PAP)"))
    ax.axvline(m_pub, color="k", linestyle=":", linewidth=1.2, label=f"m_PAP = {m_pub:.0f} (explicit public bound)")
    pub_color = learner_color("public-only")
    pub = sibling(out, "pap.base_pub")
    pub_pts = [p for p in (pub.points if pub else ()) if p.point.get("alpha") == alpha and p.n_hat]
    if pub_pts:
        w = max(p.n_hat for p in pub_pts)
        ax.axvline(w, color=pub_color, linewidth=2, label=f"public only: measured m_hat = {w} (pap.base_pub)")
    m_only = float(pap_bounds.m_public_only(alpha, ref["beta"], ref["T"] + 1))
    ax.axvline(m_only, color=pub_color, linestyle="--", linewidth=1.2,
               label=f"public only: bound 2 ln(2(T+1)/beta)/alpha^2 = {m_only:.0f}")
    priv = sibling(out, "pap.base_priv")
    for learner, style_ in (("pmw", "-"), ("tree", "-.")):
        pp = [p for p in (priv.points if priv else ()) if p.point.get("T") == ref["T"]
              and p.point.get("alpha") == alpha and p.point.get("learner") == learner and p.searched]
        if pp:
            w = worst(pp)[0]
            if w.n_hat:
                ax.axhline(w.n_hat, color=learner_color(learner), linestyle=style_, linewidth=2,
                           label=f"private only ({'PMW over [T]' if learner == 'pmw' else 'binary tree'}): measured "
                                 f"n_hat = {w.n_hat:.3g} (pap.base_priv)")
    n_priv = float(pap_bounds.n_pmw_offline(alpha, ref["beta"], ref["epsilon"], ref["delta"], ref["T"], ref["T"] + 1))
    from privbounds.registry import get

    ax.axhline(n_priv, color=learner_color("pmw"), linestyle="--", linewidth=1.2,
               label=bound_label(get("pap.base_priv"), "upper-pmw", f"private only: PMW bound n_PMW = {n_priv:.3g}"))
    claim = next((v for v in record.verdicts if v.claim == "upper-thr"), None)
    _finish(ax, "public sample size m", "private n_hat (success >= 1 - beta)",
            f"THR_{ref['T']}, alpha = {alpha}, beta = {ref['beta']:g}, eps = {ref['epsilon']:g}, "
            f"delta = {ref['delta']:g}" + (f"\n{verdict_text(claim)}" if claim else ""), xbase=2)


def thm3_1(theorem, record, out):
    """Bespoke: another theorem's measured n_hat (pap.base_priv, pap.base_pub) is drawn as a
    line across the public-size axis it was not measured on, and the worst distribution as
    the thick line the claim judges, which the one plotter's series and references cannot."""
    alphas = sorted({p.point["alpha"] for p in select(record, panel="frontier")}, reverse=True) or [0.2]
    fig, axes = new_figure(len(alphas) + 2, width=6.4, height=9.0)
    for ax, a in zip(axes, alphas):
        frontier_panel(ax, theorem, record, out, a)
    ax = axes[len(alphas)]
    pts = select(record, panel="stumps", alpha=0.2)
    if pts:
        dists = ("zero", "random", "skewed")
        _by_dist(ax, record, lambda p: p["p"], dists, name="public + private", panel="stumps", alpha=0.2)
        ps = sorted({p.point["p"] for p in pts})
        bound = claim_bound(theorem, "upper-stump")
        ref = {k: v for k, v in pts[0].point.items()}
        bound_line(ax, ps, [bound({**ref, "p": q, "m": next(p.point["m"] for p in pts if p.point["p"] == q)})
                            for q in ps], learner_color("public+private"),
                   bound_label(theorem, "upper-stump", "our explicit n_PAP (upper-stump)"))
        title = _fit(ax, record, "scaling-dual-vc")
        if any(v.claim == "scaling-dual-vc-law" for v in record.verdicts):  # older records lack it
            title += "\n" + _fit(ax, record, "scaling-dual-vc-law")
        _finish(ax, "dual VC dimension p (STUMP_p)", "private n_hat",
                f"stumps, alpha = 0.2\n{verdict_text(verdict(record, 'upper-stump'))}; {title}", xbase=2)
    ax = axes[len(alphas) + 1]
    pts = select(record, panel="domain")
    if pts:
        _by_dist(ax, record, lambda p: p["T"], DISTRIBUTIONS, name="public + private", panel="domain")
        priv = sibling(out, "pap.base_priv")
        pp = [p for p in (priv.points if priv else ()) if p.point.get("learner") == "pmw" and p.searched]
        if pp:
            w = sorted(worst(pp), key=lambda p: p.point["T"])
            w = [p for p in w if p.n_hat]
            color, marker = style("pmw")
            ax.plot([p.point["T"] for p in w], [p.n_hat for p in w], "-", marker=marker, color=color,
                    markerfacecolor="none", label="private only, PMW over [T] (pap.base_priv, worst)")
        title = _fit(ax, record, "flat-domain")
        _finish(ax, "domain size T (m = 256)", "private n_hat", f"THR_T, alpha = 0.2\n{title}", xbase=2)
    return save(fig, record, out)

