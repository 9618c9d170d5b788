"""Figures for Bassily et al., "Private Query Release Assisted by Public Data" (ICML 2020),
sections 1-3: the cover's public requirement (Lemma 3.3), the public-only baseline, PMW
(Lemma 2.7), the private-only baseline, and Theorem 3.1's public/private frontier with
its stumps and domain-size panels.

``frontier_panel`` draws the frontier (the smallest private n at each public m, with
intervals, over the explicit bound's curve, with the public-only and private-only
baselines) on a given Axes; the paper's opening figure (paper.py) reuses it. Baselines
are drawn from the baseline theorems' results when they were run (their measured m_hat
and n_hat), else from their explicit bounds only, and the legend says which.
"""

from __future__ import annotations

import numpy as np

from privbounds.bounds import pap as pap_bounds
from privbounds.claims import worst_case
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
    verdict,
)
from privbounds.simulators.query_classes import DISTRIBUTIONS

MARKS = "os^v"


def _by_dist(ax, record, x_of, dists, **where):
    for i, dist in enumerate(dists):
        pts = [p for p in select(record, dist=dist, **where) if "n_hat" in p]
        if pts:
            band(ax, [x_of(p["point"]) for p in pts], pts, PALETTE[i], f"measured, {dist}", MARKS[i % 4])


def _finish(ax, xlabel, ylabel, title, xbase=10):
    ax.set_xscale("log", base=xbase)
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    legend(ax)


def lem3_3(theorem, record, out):
    fig, axes = new_figure(2, height=7.0)
    for ax, (cls, name) in zip(axes, (("thr", "THR_4096 (d = 1)"), ("int", "INT_1024 (d = 2)"))):
        pts = select(record, **{"class": cls})
        if not pts:
            continue
        _by_dist(ax, record, lambda p: 1 / p["radius"], DISTRIBUTIONS, **{"class": cls})
        xs = sorted({1 / p["point"]["radius"] for p in pts})
        ref = pts[0]["point"]
        bound = claim_bound(theorem, f"upper-cover-{cls}")
        bound_line(ax, xs, [bound({**ref, "radius": 1 / x}) for x in xs], "k", "our explicit m_cover (bound)")
        pub = [pap_bounds.m_public_only(min(0.99, 2 / x), ref["beta"], ref["T"] + 1) for x in xs]
        bound_line(ax, xs, pub, "gray", "public-only uniform convergence at alpha = 2r (slope 2)", ":")
        _finish(ax, "1 / radius", "public m_hat (radius <= r w.p. >= 1 - beta)",
                f"{name}: {exponent_text(verdict(record, f'scaling-radius-{cls}'))}")
    return save(fig, record, out)


def base_pub(theorem, record, out):
    fig, (ax,) = new_figure(1, width=7.0, height=7.0)
    _by_dist(ax, record, lambda p: 1 / p["alpha"], DISTRIBUTIONS)
    pts = record["points"]
    if pts:
        xs = sorted({1 / p["point"]["alpha"] for p in pts})
        bound = claim_bound(theorem, "upper")
        bound_line(ax, xs, [bound({**pts[0]["point"], "alpha": 1 / x}) for x in xs], "k",
                   "2 ln(2(T+1)/beta)/alpha^2 (bound)")
    _finish(ax, "1 / alpha", "public m_hat (no private data)",
            f"public empirical means on THR_4096: {exponent_text(verdict(record, 'scaling-alpha'))}")
    return save(fig, record, out)


def lem2_7(theorem, record, out):
    fig, axes = new_figure(2, height=7.2)
    for ax, cls, name in ((axes[0], "thr", "THR_256 over all of [256]"), (axes[1], "random", "random class 64 x 64")):
        pts = select(record, **{"class": cls, "measure": "search"})
        if not pts:
            continue
        _by_dist(ax, record, lambda p: 1 / p["alpha"], DISTRIBUTIONS, **{"class": cls, "measure": "search"})
        xs = sorted({1 / p["point"]["alpha"] for p in pts})
        bound = claim_bound(theorem, f"upper-{cls}")
        bound_line(ax, xs, [bound({**pts[0]["point"], "alpha": 1 / x}) for x in xs], "k", "our explicit n_PMW")
        _finish(ax, "1 / alpha", "private n_hat", f"PMW, {name}:\n"
                f"{exponent_text(verdict(record, f'scaling-alpha-{cls}'))}")
    curves = [v for v in record["verdicts"] if v["kind"] == "success ceiling"]
    text = []
    for v in curves:
        for d in v["details"]:
            text.append(f"{v['claim']} ({d['label']}): {d['p_hat']:.3f} [{d['p_low']:.3f}, {d['p_high']:.3f}] "
                        f"at n = {d['n']}, ceiling {d['ceiling']:g}: {d['verdict']}")
    if text:
        fig.text(0.01, 0.005, "\n".join(text), fontsize=7, va="bottom")
        fig.subplots_adjust(bottom=0.3)
    return save(fig, record, out)


def base_priv(theorem, record, out):
    fig, (ax,) = new_figure(1, width=7.0, height=7.0)
    for j, learner in enumerate(("pmw", "tree")):
        for i, dist in enumerate(DISTRIBUTIONS):
            pts = [p for p in select(record, learner=learner, dist=dist) if "n_hat" in p]
            if pts:
                band(ax, [p["point"]["T"] for p in pts], pts, PALETTE[i + 3 * j],
                     f"{'PMW over [T]' if learner == 'pmw' else 'binary tree'}, {dist}", MARKS[j])
        pts = select(record, learner=learner)
        if pts:
            ts = sorted({p["point"]["T"] for p in pts})
            bound = claim_bound(theorem, f"upper-{learner}")
            bound_line(ax, ts, [bound({**pts[0]["point"], "T": t}) for t in ts], "k" if j == 0 else "gray",
                       f"bound, {'PMW' if learner == 'pmw' else 'tree'}")
    _finish(ax, "domain size T", "private n_hat (no public data)",
            f"THR_T, alpha = 0.2: {exponent_text(verdict(record, 'scaling-domain-pmw'))}", xbase=2)
    return save(fig, record, out)


def frontier_panel(ax, theorem, record, out, alpha: float = 0.2) -> None:
    """Theorem 3.1's frontier on THR_4096 at ``alpha``: measured private n_hat per public m
    (each distribution, and the worst as a thick line), the explicit bound where the
    theorem applies, and the two baselines."""
    pts = [p for p in select(record, panel="frontier", alpha=alpha) if "n_hat" in p]
    if not pts:
        ax.text(0.5, 0.5, "no frontier points in this run", ha="center", transform=ax.transAxes)
        return
    ref = pts[0]["point"]
    _by_dist(ax, record, lambda p: p["m"], DISTRIBUTIONS, panel="frontier", alpha=alpha)
    worst = sorted(worst_case(pts, ("dist",)), key=lambda p: p["point"]["m"])
    fin = [p for p in worst if p["n_hat"]]
    if fin:
        ax.plot([p["point"]["m"] for p in fin], [p["n_hat"] for p in fin], "-", color="k", linewidth=2.4,
                alpha=0.5, label="worst distribution (the claim's n_hat)")
    floor = [p["point"]["m"] for p in worst if not p["n_hat"]]
    if floor:
        ax.axvspan(min(p["point"]["m"] for p in worst) / 1.2, max(floor) * 1.2, color="red", alpha=0.07,
                   label=f"cover floor: no n <= 2^30 suffices (m <= {max(floor)})")
    m_pub = float(pap_bounds.m_pap_public(alpha, ref["beta"], 1))
    ms = np.geomspace(m_pub, max(p["point"]["m"] for p in pts) * 1.5, 20)
    bound = claim_bound(theorem, "upper-thr")
    bound_line(ax, ms, [bound({**ref, "m": int(m)}) for m in ms], "k", "our explicit n_PAP (applies for m >= m_PAP)")
    ax.axvline(m_pub, color="k", linestyle=":", linewidth=1.2, label=f"m_PAP = {m_pub:.0f} (explicit public bound)")
    pub = sibling(out, "pap.base_pub")
    pub_pts = [p for p in (pub or {}).get("points", []) if p["point"].get("alpha") == alpha and p.get("n_hat")]
    if pub_pts:
        w = max(p["n_hat"] for p in pub_pts)
        ax.axvline(w, color=PALETTE[4], linewidth=2, label=f"public only: measured m_hat = {w} (pap.base_pub)")
    m_only = float(pap_bounds.m_public_only(alpha, ref["beta"], ref["T"] + 1))
    ax.axvline(m_only, color=PALETTE[4], linestyle="--", linewidth=1.2,
               label=f"public only: bound 2 ln(2(T+1)/beta)/alpha^2 = {m_only:.0f}")
    priv = sibling(out, "pap.base_priv")
    for learner, style in (("pmw", "-"), ("tree", "-.")):
        pp = [p for p in (priv or {}).get("points", []) if p["point"].get("T") == ref["T"]
              and p["point"].get("alpha") == alpha and p["point"].get("learner") == learner and "n_hat" in p]
        if pp:
            w = worst_case(pp, ("dist",))[0]
            if w["n_hat"]:
                ax.axhline(w["n_hat"], color=PALETTE[5 if learner == "pmw" else 6], linestyle=style, linewidth=2,
                           label=f"private only ({'PMW over [T]' if learner == 'pmw' else 'binary tree'}): measured "
                                 f"n_hat = {w['n_hat']:.3g} (pap.base_priv)")
    n_priv = float(pap_bounds.n_pmw_offline(alpha, ref["beta"], ref["epsilon"], ref["delta"], ref["T"], ref["T"] + 1))
    ax.axhline(n_priv, color=PALETTE[5], linestyle="--", linewidth=1.2,
               label=f"private only: PMW bound n_PMW = {n_priv:.3g}")
    _finish(ax, "public sample size m", "private n_hat (success >= 1 - beta)",
            f"THR_{ref['T']}, alpha = {alpha}, eps = {ref['epsilon']:g}, delta = {ref['delta']:g}", xbase=2)


def thm3_1(theorem, record, out):
    alphas = sorted({p["point"]["alpha"] for p in select(record, panel="frontier")}, reverse=True) or [0.2]
    fig, axes = new_figure(len(alphas) + 2, width=6.4, height=9.0)
    for ax, a in zip(axes, alphas):
        frontier_panel(ax, theorem, record, out, a)
    ax = axes[len(alphas)]
    pts = select(record, panel="stumps", alpha=0.2)
    if pts:
        dists = ("zero", "random", "skewed")
        _by_dist(ax, record, lambda p: p["p"], dists, panel="stumps", alpha=0.2)
        ps = sorted({p["point"]["p"] for p in pts})
        bound = claim_bound(theorem, "upper-stump")
        ref = {k: v for k, v in pts[0]["point"].items()}
        bound_line(ax, ps, [bound({**ref, "p": q, "m": next(p["point"]["m"] for p in pts if p["point"]["p"] == q)})
                            for q in ps], "k", "our explicit n_PAP")
        _finish(ax, "dual VC dimension p (STUMP_p)", "private n_hat",
                f"stumps, alpha = 0.2:\n{exponent_text(verdict(record, 'scaling-dual-vc'))}", xbase=2)
    ax = axes[len(alphas) + 1]
    pts = select(record, panel="domain")
    if pts:
        _by_dist(ax, record, lambda p: p["T"], DISTRIBUTIONS, panel="domain")
        priv = sibling(out, "pap.base_priv")
        pp = [p for p in (priv or {}).get("points", []) if p["point"].get("learner") == "pmw" and "n_hat" in p]
        if pp:
            w = sorted(worst_case(pp, ("dist",)), key=lambda p: p["point"]["T"])
            w = [p for p in w if p["n_hat"]]
            ax.plot([p["point"]["T"] for p in w], [p["n_hat"] for p in w], "--", color="k",
                    label="private only, PMW over [T] (pap.base_priv, worst)")
        _finish(ax, "domain size T (m = 256)", "private n_hat",
                f"THR_T, alpha = 0.2:\n{exponent_text(verdict(record, 'flat-domain'))}", xbase=2)
    return save(fig, record, out)

