"""Figures for Bassily et al., "Private Query Release Assisted by Public Data" (ICML 2020),
section 5 and Remark 2.9: the public requirement against 1/alpha with its private-only
counterpart (Theorem 5.1), the learner's violation rates (Lemma 5.3), the mixture
reduction (Lemma 5.4) and the synthetic-data checks (Remark 2.9).

Ceilings and bounds are the claims' own (``claim_bound``); reference curves that are not
claims (the conditional constant 1/(16 alpha), the public-only 1/alpha^2) are drawn in
grey and say so in the legend.
"""

from __future__ import annotations

import textwrap

import numpy as np

from privbounds.bounds import pap as pap_bounds
from privbounds.figures.common import (
    PALETTE,
    band,
    bound_label,
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
from privbounds.figures.pap.style import SERIES_MARKS, learner_color, shades, style
from privbounds.record import verdict_text
from privbounds.simulators.pap.query_classes import DISTRIBUTIONS

MARKS = "os^v"


def _rows(record, **kw):
    return sorted((r for r in record.rows if all(r.get(k) == v for k, v in kw.items())), key=lambda r: r["n"])


def _rate(ax, xs, rows, color, label, marker="o"):
    """Measured rates with their (pointwise 95%) Clopper-Pearson intervals as error bars."""
    p = np.array([r["p_hat"] for r in rows])
    lo = np.array([r["ci_low"] for r in rows])
    hi = np.array([r["ci_high"] for r in rows])
    ax.errorbar(xs, p, yerr=[p - lo, hi - p], fmt=marker + "-", color=color, label=label, capsize=3, markersize=5)


def thm5_1(theorem, record, out):
    fig, axes = new_figure(2, width=6.8, height=7.4)
    ax = axes[0]
    for i, (dist, color) in enumerate(zip(DISTRIBUTIONS, shades("public+private", len(DISTRIBUTIONS)))):
        pts = [p for p in select(record, dist=dist) if p.searched]
        if pts:
            band(ax, [1 / p.point["alpha"] for p in pts], pts, color, f"measured m_hat, {dist}",
                 SERIES_MARKS[i % len(SERIES_MARKS)])
    pts = record.points
    if pts:
        ref = pts[0].point
        xs = np.geomspace(min(1 / p.point["alpha"] for p in pts), max(1 / p.point["alpha"] for p in pts), 30)
        bound = claim_bound(theorem, "upper-public")
        bound_line(ax, xs, [bound({**ref, "alpha": 1 / x}) for x in xs], learner_color("public+private"),
                   bound_label(theorem, "upper-public", "our explicit m_cover(alpha/2, beta, 1) (upper-public)"))
        bound_line(ax, xs, [pap_bounds.m_public_lower_mixture(1 / x) for x in xs], "gray",
                   "1/(16 alpha): reconstructed constant of the lower bound\n(conditional, infinite domains only; "
                   "not a claim)", ":")
        bound_line(ax, xs, [pap_bounds.m_public_only(1 / x, ref["beta"], ref["T"] + 1) for x in xs],
                   learner_color("public-only"), "public only, 2 ln(2(T+1)/beta)/alpha^2 (slope 2; reference)", "-.")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("1 / alpha")
    ax.set_ylabel("public m_hat (exact D~: unlimited private data)")
    v = verdict(record, "scaling-alpha")
    ax.plot([], [], " ", label=f"fit: {exponent_text(v)}")
    ax.set_title("E1, THR_2^20: public requirement against 1/alpha\n"
                 f"{verdict_text(verdict(record, 'upper-public'))}; {verdict_text(v)}", fontsize=10)
    legend(ax)

    ax = axes[1]
    priv = sibling(out, "pap.base_priv")
    drawn = False
    for learner, name in (("pmw", "PMW over [T]"), ("tree", "binary tree")):
        pp = [p for p in (priv.points if priv else ()) if p.point.get("learner") == learner and p.n_hat]
        if pp:
            # the worst distribution at each T: its n_hat with its own interval (an open upper end
            # is drawn as an arrow)
            w = [max((p for p in pp if p.point["T"] == t), key=lambda p: p.n_hat)
                 for t in sorted({p.point["T"] for p in pp})]
            if w:
                color, marker = style(learner)
                band(ax, [p.point["T"] for p in w], w, color, f"{name}, worst distribution", marker)
                drawn = True
    if not drawn:
        ax.text(0.5, 0.5, "pap.base_priv has no results in this output folder:\nrun it to draw the private-only "
                "cost against T", ha="center", va="center", transform=ax.transAxes, fontsize=9)
    else:
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
    ax.set_xlabel("domain size T (no public data; from pap.base_priv)")
    ax.set_ylabel("private n_hat, alpha = 0.2")
    ax.set_title("E2: on a finite domain a private-only release exists; it grows with T\n"
                 "(the true private-only cost grows like log* T, invisible here)", fontsize=10)
    if drawn:
        legend(ax)
    return save(fig, record, out)


def _ceiling_panel(ax, theorem, record, claims, label_keys, title, color=None):
    """Each point's event rate (with its interval) against its claim's ceiling."""
    rows, labels, ceilings = [], [], []
    for cid in claims:
        v = verdict(record, cid)
        for d in v.details:
            rows.append(d)
            labels.append((f"{cid}: " if len(claims) > 1 else "") + ", ".join(str(d.point.get(k)) for k in label_keys))
            ceilings.append(d.ceiling)
    if not rows:
        ax.text(0.5, 0.5, "no curve rows in this run", ha="center", transform=ax.transAxes)
        return
    x = np.arange(len(rows))
    p = np.array([d.p_hat for d in rows])
    lo = np.array([d.p_low for d in rows])
    hi = np.array([d.p_high for d in rows])
    ax.errorbar(x, p, yerr=[p - lo, hi - p], fmt="o", color=color or PALETTE[0], capsize=4,
                label="measured rate (simultaneous interval of the claim)")
    ax.plot(x, ceilings, "_", color="k", markersize=22, markeredgewidth=2,
            label=bound_label(theorem, claims[0], "ceiling (beta)"))
    ax.set_xticks(x)
    ax.set_xticklabels(labels, rotation=35, ha="right", fontsize=8)
    # headroom above the data for the legend (below the axes it would collide with the
    # rotated point labels)
    ax.set_ylim(-0.01, max(0.2, float(np.max(ceilings)) * 1.3, float(np.max(hi)) * 1.5))
    ax.set_title(textwrap.fill(title, 75), fontsize=10)
    ax.legend(fontsize=9, loc="upper right", ncol=2)


def lem5_3(theorem, record, out):
    fig, (ax,) = new_figure(1, width=8.0, height=6.4)
    _ceiling_panel(ax, theorem, record, ["ceiling-excess-threshold", "ceiling-excess-interval"],
                   ("target", "dist", "alpha"),
                   "Lemma 5.3's learner on THR_4096: P[excess error > 3 alpha/4] at Algorithm 3's sizes")
    ax.set_ylabel("violation rate")
    return save(fig, record, out)


def lem5_4(theorem, record, out):
    fig, axes = new_figure(4, width=5.4, height=7.2)
    ms_all = sorted({r["n"] for r in record.rows})
    fine = np.unique(np.geomspace(2, max(ms_all or [2]), 60).round().astype(int))
    # (i) the public sampler
    ax = axes[0]
    for i, (measure, claim, name) in enumerate((("all_x0", "ceiling-all-x0", "all x0"),
                                                ("some_d", "ceiling-some-d", "some point of D"))):
        rows = _rows(record, measure=measure)
        if rows:
            _rate(ax, [r["n"] for r in rows], rows, PALETTE[i], f"measured P[{name}]", MARKS[i])
            bound = claim_bound(theorem, claim)
            bound_line(ax, [r["n"] for r in rows], [bound(r) for r in rows], PALETTE[i], f"ceiling ({claim})", ":")
    ax.plot(fine, pap_bounds.mixture_all_public_x0(fine), "-", color="k", linewidth=1, label="(1 - 1/m)^m, exact")
    ax.axhline(0.25, color="gray", linestyle="--", linewidth=1, label="1/4 (the lemma's step)")
    ax.axhline(np.exp(-1), color="gray", linestyle=":", linewidth=1, label="1/e")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("public size m (mixture weight 1/m on D)")
    ax.set_ylabel("probability")
    ax.set_title("(i) the public sample sees nothing of D", fontsize=10)
    legend(ax)
    # (ii) B on the mixture, against the ceiling
    ax = axes[1]
    excess = None
    for i, target in enumerate(("threshold-mid", "interval-mid")):
        rows = _rows(record, measure="learner", target=target)
        if not rows:
            continue
        excess = rows[0]["excess"]
        _rate(ax, [r["n"] for r in rows], rows, PALETTE[i], f"B's success at alpha' = {excess:g}, {target}", MARKS[i])
        bound = claim_bound(theorem, "ceiling-learner")
        bound_line(ax, [r["n"] for r in rows], [bound(r) for r in rows], PALETTE[i], f"ceiling, {target}", ":")
        e = _first_excess(target, rows[0]["T"])
        ax.axvline(e / excess, color=PALETTE[i], linewidth=1, alpha=0.6, label=f"m = E/alpha' = {e / excess:g}")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("public size m")
    ax.set_ylabel("P[B's excess on D_(1/m) <= alpha']")
    ax.set_title("(ii) Lemma 5.3's learner B on the mixture", fontsize=10)
    legend(ax)
    # (ii') the transferred guarantee grows linearly in m; P's excess does not move
    ax = axes[2]
    if excess is not None:
        ms = np.array(ms_all, float)
        ax.plot(ms, pap_bounds.mixture_excess_on_d(excess, ms), "-", color="k",
                label=f"transferred guarantee m alpha' (alpha' = {excess:g})")
        ax.axhline(1 / 16, color="gray", linestyle="--", label="1/16: below it P would contradict ALMM (infinite "
                   "Littlestone dimension only)")
        for i, target in enumerate(("threshold-mid", "interval-mid")):
            rows = _rows(record, measure="private_only", target=target)
            if not rows:
                continue
            e = _first_excess(target, rows[0]["T"])
            ax.axhline(e, color=PALETTE[i], linestyle=":", label=f"E = excess of h_0 on D, {target}")
            met = [r for r in rows if r["p_hat"] >= 0.5]
            miss = [r for r in rows if r["p_hat"] < 0.5]
            for group, face, what in ((met, PALETTE[i], "met"), (miss, "none", "missed")):
                if group:
                    ax.scatter([r["n"] for r in group], [excess * r["n"] for r in group], marker=MARKS[i],
                               s=110 if i == 0 else 35, facecolors=face, edgecolors=PALETTE[i], zorder=5 + i,
                               label=f"P {what} m alpha' in most trials, {target}")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
    ax.set_xlabel("public size m")
    ax.set_ylabel("excess error on D")
    ax.set_title("(ii') what the reduction transfers to P (no public data)", fontsize=10)
    legend(ax)
    # (iii) consumption
    ax = axes[3]
    rows = _rows(record, measure="consumed")
    if rows:
        _rate(ax, [r["n"] for r in rows], rows, PALETTE[2], "measured P[|K - n'/m| > 3 sqrt(n'/m)]")
        bound = claim_bound(theorem, "ceiling-consumed")
        bound_line(ax, [r["n"] for r in rows], [bound(r) for r in rows], "k", "Chernoff ceiling 2 exp(-3)")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("public size m")
    ax.set_ylabel("probability")
    ax.set_title("(iii) P consumes about n'/m real samples", fontsize=10)
    legend(ax)
    return save(fig, record, out)


def _first_excess(target, size):
    from privbounds.simulators.pap.learning import first_excess

    return first_excess(target, size)


def rem2_9(theorem, record, out):
    fig, (ax,) = new_figure(1, width=8.0, height=6.4)
    _ceiling_panel(ax, theorem, record, ["ceiling-lp", "ceiling-rounded"], ("measure", "source", "alpha", "dist"),
                   "Remark 2.9 on THR_64: P[G alpha-accurate and (LP value > alpha | rows' error > 3 alpha)]")
    ax.set_ylabel("event rate")
    return save(fig, record, out)
