"""Figures for Bassily et al., "Private Query Release Assisted by Public Data" (ICML 2020),
section 3: Theorem 3.1's public/private frontier with its stumps and domain-size panels.
Its baselines, Lemma 3.3 and Lemma 2.7 are declared for the one plotter (``specs.py``).

``frontier_panel`` draws the frontier (the smallest private n at each public m, with
intervals, over the explicit bound's curve, with the public-only and private-only
baselines) on a given Axes; the paper's opening figure (paper.py) reuses it. Baselines
are drawn from the baseline theorems' results when they were run (their measured m_hat
and n_hat), else from their explicit bounds only, and the legend says which. Each
distribution keeps one tone and marker of Algorithm 3's colour in every panel
(``style.setting_style``); the colour itself is its worst case's and its bound's.
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
    wrap_title,
)
from privbounds.figures.pap.style import STUMP_DISTS, THR_DISTS, learner_color, setting_style, style
from privbounds.figures.spec_nhat import worst_points as worst
from privbounds.figures.style import SUBJECT, tag
from privbounds.record import fit_text, verdict_text

PAP = "public+private"
FLOOR = "#8b0000"  # the cover floor: a boundary on the public size, not a learner


def _by_dist(ax, record, x_of, dists, label, learner=PAP, **where):
    """One series per distribution, each in its tone and marker of the learner's colour
    (the same in every panel of the figure: ``setting_style``); ``label`` a template over
    the distribution ("{dist}")."""
    for dist in dists:
        pts = [p for p in select(record, dist=dist, **where) if p.searched]
        if pts:
            color, marker, subject = setting_style(learner, dists, dist, "mu" if dists == STUMP_DISTS else "dist")
            band(ax, [x_of(p.point) for p in pts], pts, color, label.format(dist=dist), marker, subject=subject)


def _fit(record, claim) -> str:
    """The claim's verdict and fitted exponent, for a panel's title (a fit has no line of
    its own to show in a legend)."""
    v = verdict(record, claim)
    return f"{verdict_text(v)}; fit: {fit_text(v)}"


def _finish(ax, xlabel, ylabel, title, xbase=10):
    ax.set_xscale("log", base=xbase)
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(wrap_title(ax, title), fontsize=10)
    legend(ax)


def _line(ax, subject, *, v=None, h=None, **kw):
    """A vertical (``v``) or horizontal (``h``) line across the panel, tagged with what it
    stands for (``style.tag``)."""
    drawn = ax.axvline(v, **kw) if v is not None else ax.axhline(h, **kw)
    tag(drawn, SUBJECT + subject)


def _cover_floor(ax, pts) -> None:
    """The public sizes at which no distribution reached its target with any private n on
    the grid, as a boundary (a dash-dotted line between the last such m and the next
    measured one), a note left of it pointing at them: a shaded region would cover the points
    measured beside them."""
    by_m = {}
    for p in pts:
        by_m.setdefault(p.point["m"], []).append(p)
    floor = [m for m, group in by_m.items() if all(not p.n_hat for p in group)]
    if not floor:
        return
    top = max(floor)
    reached = max((p.n_low or 0) for p in by_m[top])
    later = sorted(m for m in by_m if m > top)
    edge = float(np.sqrt(top * later[0])) if later else top * 1.3
    ax.axvline(edge, color=FLOOR, linestyle="-.", linewidth=1.5,
               label=f"cover floor: for m <= {top} no n <= {reached:.3g} suffices (any distribution)")
    ax.annotate("\u2190 cover floor", xy=(edge, 0.04), xycoords=ax.get_xaxis_transform(), xytext=(-4, 0),
                textcoords="offset points", ha="right", va="bottom", fontsize=9, color=FLOOR)


def _public_only(ax, out, ref, alpha) -> None:
    """The public-only baseline: its measured m_hat (pap.base_pub) and its bound."""
    color = learner_color("public-only")
    pub = sibling(out, "pap.base_pub")
    pub_pts = [p for p in (pub.points if pub else ()) if p.point.get("alpha") == alpha and p.n_hat]
    if pub_pts:
        w = max(p.n_hat for p in pub_pts)
        _line(ax, "public-only", v=w, color=color, linewidth=2,
              label=f"public only: measured m_hat = {w} (pap.base_pub)")
    m_only = float(pap_bounds.m_public_only(alpha, ref["beta"], ref["T"] + 1))
    _line(ax, "public-only", v=m_only, color=color, linestyle="--", linewidth=1.2,
          label=f"public only: bound 2 ln(2(T+1)/beta)/alpha^2 = {m_only:.0f}")


def _private_only(ax, out, ref, alpha) -> None:
    """The private-only baselines: PMW's and the tree's measured n_hat (pap.base_priv, at
    this T when it was run there) and PMW's bound."""
    from privbounds.registry import get

    priv = sibling(out, "pap.base_priv")
    for learner, style_ in (("pmw", "-"), ("tree", "-.")):
        pp = [p for p in (priv.points if priv else ()) if p.point.get("T") == ref["T"]
              and p.point.get("alpha") == alpha and p.point.get("learner") == learner and p.searched]
        w = worst(pp)[0] if pp else None
        if w is not None and w.n_hat:
            _line(ax, learner, h=w.n_hat, color=learner_color(learner), linestyle=style_, linewidth=2,
                  label=f"private only ({'PMW over [T]' if learner == 'pmw' else 'binary tree'}): measured "
                        f"n_hat = {w.n_hat:.3g} (pap.base_priv)")
    n_priv = float(pap_bounds.n_pmw_offline(alpha, ref["beta"], ref["epsilon"], ref["delta"], ref["T"], ref["T"] + 1))
    _line(ax, "pmw", h=n_priv, color=learner_color("pmw"), linestyle="--", linewidth=1.2,
          label=bound_label(get("pap.base_priv"), "upper-pmw", f"private only: PMW bound n_PMW = {n_priv:.3g}"))


def frontier_panel(ax, theorem, record, out, alpha: float = 0.2) -> None:
    """Theorem 3.1's frontier on THR_4096 at ``alpha``: measured private n_hat per public m
    (each distribution, and the worst as a thick line), the explicit bound where the
    theorem applies, and the two baselines, each learner in its colour (``LEARNERS``)."""
    pts = [p for p in select(record, panel="frontier", alpha=alpha) if p.searched]
    if not pts:
        ax.text(0.5, 0.5, "no frontier points in this run", ha="center", transform=ax.transAxes)
        return
    ref = pts[0].point
    pap_color = learner_color(PAP)
    _by_dist(ax, record, lambda p: p["m"], THR_DISTS, "public + private (Alg 3), {dist}", panel="frontier", alpha=alpha)
    worst_m = sorted(worst(pts), key=lambda p: p.point["m"])
    fin = [p for p in worst_m if p.n_hat]
    if fin:
        drawn = ax.plot([p.point["m"] for p in fin], [p.n_hat for p in fin], "-", color=pap_color, linewidth=4,
                        alpha=0.4, zorder=1.5, label="worst distribution (the claim's n_hat)")
        tag(drawn, SUBJECT + PAP)
    _cover_floor(ax, pts)
    m_pub = float(pap_bounds.m_pap_public(alpha, ref["beta"], 1))
    ms = np.geomspace(m_pub, max(p.point["m"] for p in pts) * 1.5, 20)
    bound = claim_bound(theorem, "upper-thr")
    bound_line(ax, ms, [bound({**ref, "m": int(m)}) for m in ms], pap_color,
               bound_label(theorem, "upper-thr", "our explicit n_PAP (upper-thr; applies for m >= m_PAP)"),
               subject=PAP)
    ax.axvline(m_pub, color="k", linestyle=":", linewidth=1.2, label=f"m_PAP = {m_pub:.0f} (explicit public bound)")
    _public_only(ax, out, ref, alpha)
    _private_only(ax, out, ref, alpha)
    claim = next((v for v in record.verdicts if v.claim == "upper-thr"), None)
    _finish(ax, "public sample size m", "private n_hat (success >= 1 - beta)",
            f"THR_{ref['T']}, alpha = {alpha}, beta = {ref['beta']:g}, eps = {ref['epsilon']:g}, "
            f"delta = {ref['delta']:g}" + (f"\n{verdict_text(claim)}" if claim else ""), xbase=2)


def _stumps_panel(ax, theorem, record) -> None:
    """Algorithm 3 on decision stumps against the dual VC dimension p, with its bound."""
    pts = select(record, panel="stumps", alpha=0.2)
    if not pts:
        return
    _by_dist(ax, record, lambda p: p["p"], STUMP_DISTS, "public + private, mu {dist}", panel="stumps", alpha=0.2)
    ps = sorted({p.point["p"] for p in pts})
    bound = claim_bound(theorem, "upper-stump")
    ref = dict(pts[0].point)
    bound_line(ax, ps, [bound({**ref, "p": q, "m": next(p.point["m"] for p in pts if p.point["p"] == q)})
                        for q in ps], learner_color(PAP),
               bound_label(theorem, "upper-stump", "our explicit n_PAP (upper-stump)"), subject=PAP)
    title = [f"stumps, alpha = 0.2; {verdict_text(verdict(record, 'upper-stump'))}",
             _fit(record, "scaling-dual-vc")]
    if any(v.claim == "scaling-dual-vc-law" for v in record.verdicts):  # older records lack it
        title.append(_fit(record, "scaling-dual-vc-law"))
    _finish(ax, "dual VC dimension p (STUMP_p)", "private n_hat", "\n".join(title), xbase=2)


def _domain_panel(ax, record, out) -> None:
    """Algorithm 3's n_hat against the domain size T, beside PMW over [T] (pap.base_priv)."""
    if not select(record, panel="domain"):
        return
    _by_dist(ax, record, lambda p: p["T"], THR_DISTS, "public + private, {dist}", panel="domain")
    priv = sibling(out, "pap.base_priv")
    pp = [p for p in (priv.points if priv else ()) if p.point.get("learner") == "pmw" and p.searched]
    w = [p for p in sorted(worst(pp), key=lambda p: p.point["T"]) if p.n_hat] if pp else []
    if w:
        color, marker = style("pmw")
        drawn = ax.plot([p.point["T"] for p in w], [p.n_hat for p in w], "-", marker=marker, color=color,
                        markerfacecolor="none", label="private only, PMW over [T] (pap.base_priv, worst)")
        tag(drawn, SUBJECT + "pmw")
    _finish(ax, "domain size T (m = 256)", "private n_hat", f"THR_T, alpha = 0.2\n{_fit(record, 'flat-domain')}",
            xbase=2)


def thm3_1(theorem, record, out):
    """Bespoke: another theorem's measured n_hat (pap.base_priv, pap.base_pub) is drawn as a
    line across the public-size axis it was not measured on, and the worst distribution as
    the thick line the claim judges, which the one plotter's series and references cannot."""
    alphas = sorted({p.point["alpha"] for p in select(record, panel="frontier")}, reverse=True) or [0.2]
    fig, axes = new_figure(len(alphas) + 2, width=6.4, height=9.0)
    for ax, a in zip(axes, alphas):
        frontier_panel(ax, theorem, record, out, a)
    _stumps_panel(axes[len(alphas)], theorem, record)
    _domain_panel(axes[len(alphas) + 1], record, out)
    return save(fig, record, out)
