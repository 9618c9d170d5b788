"""Figures for Kaplan, Mansour, Matias and Stemmer, "Differentially Private Learning of
Geometric Concepts" (ICML 2019), section 4: the convex k-gon learner against k and d
(Theorem 4.7), the smallest region of the dual arrangement (Claim 4.5), the selection
gap's survival function (Lemma 4.6) and the privacy checks of Select Halfplane.

``draw_kgon(ax, record)`` draws n_hat against k for the private learner and both
baselines, with interval bands, over the explicit bound n_47; the paper's headline
figure calls it with the result record of kmms.thm4_7.
"""

from __future__ import annotations

import numpy as np

from privbounds.bounds import kmms as kmms_bounds
from privbounds.figures.common import (
    PALETTE,
    band,
    bound_label,
    bound_line,
    claim_bound,
    exponent_text,
    fn_label,
    legend,
    new_figure,
    save,
    select,
    sweep,
    verdict,
)
from privbounds.figures.kmms.style import style
from privbounds.record import Record, verdict_text

NAMES = {"private": "Set Cover Learner + Select Halfplane (private)", "greedy": "non-private greedy cover",
         "hull": "convex hull of the positives (non-private)"}
MARKS = "os^vD"
# the learner of each record value in the paper's LEARNERS table
STYLE = {"private": "setcover", "greedy": "greedy", "hull": "hull"}


def _rows(record, **kw):
    return sorted((r for r in record.rows if all(r.get(k) == v for k, v in kw.items())), key=lambda r: r["n"])


def _searched(record, **kw):
    return [p for p in select(record, **kw) if p.n_hat is not None or p.n_low is not None]


def _against(ax, record, axis, fixed, theorem=None):
    """n_hat of each learner against ``axis`` at the ``fixed`` parameters, with the claims'
    bounds swept over the same axis."""
    from privbounds.registry import get

    theorem = theorem or get("kmms.thm4_7")
    ref = None
    for learner in ("private", "greedy", "hull"):
        pts = _searched(record, learner=learner, **fixed)
        if not pts:
            continue
        ref = ref or pts[0].point
        color, marker = style(STYLE[learner])
        band(ax, [p.point[axis] for p in pts], pts, color, NAMES[learner], marker)
        xs = sorted(p.point[axis] for p in pts)
        if learner == "private":
            bound_line(ax, xs, sweep(claim_bound(theorem, "upper"), pts[0].point, axis, xs), color,
                       bound_label(theorem, "upper", "n_47, our explicit bound (SAFE; upper claim)"))
            lit = [kmms_bounds.n_kgon(**{**{k: pts[0].point[k] for k in ("alpha", "beta", "epsilon", "delta", "k",
                                                                               "d")}, axis: x}, reading="literal")
                   for x in xs]
            bound_line(ax, xs, lit, "gray", fn_label(kmms_bounds.n_kgon,
                                                    "n_32 at the paper-literal constants (reference, not a claim)"),
                       ":")
        if learner == "greedy":
            bound_line(ax, xs, sweep(claim_bound(theorem, "upper-greedy"), pts[0].point, axis, xs), color,
                       bound_label(theorem, "upper-greedy", "n_32 with lambda = Delta = 0 (upper-greedy claim)"))
    ax.set_yscale("log")
    return ref


def draw_kgon(ax, record: Record) -> None:
    """n_hat against k at d = 8 (every learner, interval bands) over n_47 (the kmms.thm4_7 record)."""
    d = 8 if select(record, d=8) else min(p.point["d"] for p in record.points)
    _against(ax, record, "k", {"d": d})
    ax.set_xscale("log")
    ks = sorted({p.point["k"] for p in select(record, d=d)})
    ax.set_xticks(ks, [str(k) for k in ks])
    ax.minorticks_off()
    ax.set_xlabel("edges k of the convex polygon")
    ax.set_ylabel("n_hat (examples)")
    ax.set_title(f"Convex k-gons on X_{d}^2 (band distribution)\n" + _verdicts(ax, record, "scaling-k"),
                 fontsize=10)
    legend(ax)


def _verdicts(ax, record, scaling: str) -> str:
    """The title's verdicts of the claims the panel draws; the fit's numbers go to the
    legend (too long for a title)."""
    out = []
    for c in ("upper", "upper-greedy", scaling):
        try:
            v = verdict(record, c)
        except KeyError:
            continue
        out.append(verdict_text(v))
        if c == scaling:
            ax.plot([], [], " ", label=f"fit (private): {exponent_text(v)}")
    return "; ".join(out)


def thm4_7(theorem, record, out):
    fig, axes = new_figure(2, width=6.6, height=7.2)
    draw_kgon(axes[0], record)
    ax = axes[1]
    _against(ax, record, "d", {"k": 4}, theorem)
    ds = sorted({p.point["d"] for p in select(record, k=4)})
    ax.set_xscale("log")
    ax.set_xticks(ds, [str(d) for d in ds])
    ax.minorticks_off()
    ax.set_xlabel("grid size d (X_d^2 = {0..d}^2)")
    ax.set_ylabel("n_hat (examples)")
    ax.set_title("k = 4 against d\n" + _verdicts(ax, record, "scaling-d"), fontsize=10)
    legend(ax)
    return save(fig, record, out)


def _rate(ax, xs, rows, color, label, marker="o"):
    p = np.array([r["p_hat"] for r in rows])
    lo = np.array([r["ci_low"] for r in rows])
    hi = np.array([r["ci_high"] for r in rows])
    ax.errorbar(xs, p, yerr=[p - lo, hi - p], fmt=marker + "-", color=color, label=label, capsize=3, markersize=5)


def claim4_5(theorem, record, out):
    fig, axes = new_figure(2, width=6.6, height=6.6)
    ax = axes[0]
    level = None
    for j, (mode, name) in enumerate((("grid", "full grid (every sample)"), ("sample", "random samples"))):
        for i, (which, unit) in enumerate((("paper", "d^-4/4"), ("ours", "1/(2d^3)"))):
            rows = [r for r in _rows(record, mode=mode, bound=which) if r["n"] == (1 if which == "paper" else 2 * r["d"])]
            if not rows:
                continue
            rows = sorted(rows, key=lambda r: (r["d"], r.get("points") or 0))
            xs = np.arange(len(rows)) + 0.1 * i + 0.3 * j
            _rate(ax, xs, rows, PALETTE[2 * j + i], f"{name}: P[a region < {unit}]", MARKS[2 * j + i])
            level = rows[0]["level"]
    if level is not None:
        ax.axhline(kmms_bounds.never_ceiling(level), color="k", ls="--", label=f"ceiling {level:g} (the claim: 0)")
    ax.set_xlabel("point (grid: d = 2, 4, ...; then samples by d, points)")
    ax.set_ylabel("violation rate")
    ax.set_title("Claim 4.5: violations of both bounds", fontsize=9)
    legend(ax)

    ax = axes[1]
    for j, mode in enumerate(("grid", "sample")):
        ds = sorted({r["d"] for r in _rows(record, mode=mode, bound="ours")})
        for d in ds:
            for m in sorted({r.get("points") for r in _rows(record, mode=mode, d=d)}, key=lambda v: v or 0):
                rows = [r for r in _rows(record, mode=mode, d=d, bound="ours") if r.get("points") == m]
                # event "smallest area x 4d^4 < n": all trials agree in grid mode; the bracket of the value
                below = [r["n"] for r in rows if r["p_hat"] <= 0.5]
                above = [r["n"] for r in rows if r["p_hat"] > 0.5]
                lo = max(below) if below else None
                hi = min(above) if above else None
                unit = 2.0 * d  # area x 4d^4 / 2d = area x 2d^3
                y = (lo or hi) / unit
                label = f"{'full grid' if mode == 'grid' else f'samples of {m} points'}: median bracket"
                ax.plot([d], [y], MARKS[j], color=PALETTE[j], label=label if d == ds[0] else None)
                if lo is not None and hi is not None:
                    ax.vlines(d, lo / unit, hi / unit, color=PALETTE[j])
                elif hi is None and lo is not None:
                    ax.annotate("", (d, lo / unit * 1.6), (d, lo / unit), arrowprops={"arrowstyle": "->",
                                                                                      "color": PALETTE[j]})
    dd = np.geomspace(2, max(r["d"] for r in record.rows), 40)
    ax.plot(dd, [kmms_bounds.region_area_ours(d) * 2 * d ** 3 for d in dd], "k--", label="ours: 1/(2d^3)")
    ax.plot(dd, [kmms_bounds.region_area_paper(d) * 2 * d ** 3 for d in dd], "k:", label="Claim 4.5: d^-4/4")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("d")
    ax.set_ylabel("smallest region's area x 2 d^3")
    ax.set_title("Smallest region (brackets from the threshold rows)", fontsize=9)
    legend(ax)
    return save(fig, record, out)


def lem4_6(theorem, record, out):
    fig, axes = new_figure(2, width=6.6, height=7.0)
    for ax, mode in zip(axes, ("grid", "sample")):
        combos = sorted({(r["d"], r["eta"], r.get("points")) for r in _rows(record, mode=mode)},
                        key=lambda c: (c[0], c[1], c[2] or 0))
        for i, (d, eta, m) in enumerate(combos):
            rows = [r for r in _rows(record, mode=mode, d=d, eta=eta) if r.get("points") == m]
            xs = np.array([r["n"] * eta for r in rows])
            _rate(ax, xs, rows, PALETTE[i % 10], f"d = {d}, eta = {eta:g}" + (f", {m} points" if m else ""),
                  MARKS[i % 5])
        for j, d in enumerate(sorted({c[0] for c in combos})):
            t = np.linspace(0, max(r["n"] * r["eta"] for r in _rows(record, mode=mode)), 100)
            ax.plot(t, kmms_bounds.selection_gap_ceiling(t, 1.0, d), "--", color="k", alpha=0.5 + 0.5 * j / 2,
                    label=bound_label(theorem, "ceiling-gap", f"Lemma 4.6, d = {d}: 2d exp(-eta t/8)"))
            ax.plot(t, kmms_bounds.selection_gap_ceiling_ours(t, 1.0, d), ":", color="k", alpha=0.5 + 0.5 * j / 2,
                    label=bound_label(theorem, "ceiling-gap-ours", f"ours, d = {d}: 64 d^7 exp(-eta t)"))
        ax.set_yscale("symlog", linthresh=1e-3)
        ax.set_ylim(-1e-4, 1.2)
        ax.set_xlabel("eta x gap threshold t")
        ax.set_ylabel("P[max q - q(f') > t]")
        ax.set_title(f"{'Domain mode (band sample, full grid)' if mode == 'grid' else 'Sample mode'}", fontsize=9)
        legend(ax)
    return save(fig, record, out)


def selecthalfplane(theorem, record, out):
    fig, axes = new_figure(2, width=6.2, height=6.0)
    ax = axes[0]
    combos = sorted({(r["d"], r["eta"]) for r in record.rows})
    for i, (d, eta) in enumerate(combos):
        rows = _rows(record, d=d, eta=eta)
        _rate(ax, [r["n"] + 0.2 * i for r in rows], rows, PALETTE[i % 10], f"d = {d}, eta = {eta:g}", MARKS[i % 5])
    if record.rows:
        ax.axhline(kmms_bounds.never_ceiling(record.rows[0]["level"]), color="k", ls="--",
                   label="ceiling (the claim: never)")
    ax.set_xlabel("|S| (examples)")
    ax.set_ylabel("P[sup |ln p_S - ln p_S'| > 2 eta]")
    ax.set_title("Exact density ratio on random neighbours", fontsize=9)
    legend(ax)
    ax = axes[1]
    for a in record.audits:
        v = next((v for v in record.verdicts if v.claim == f"privacy-{a.name}"), None)
        if v is None:
            continue
        vals = [v.eps_hat, v.eps_hat_doubled]
        ax.bar([0, 1], [x if x is not None else 0 for x in vals], color=[PALETTE[0], PALETTE[3]])
        ax.axhline(a.epsilon, color="k", ls="--", label=f"declared epsilon 2 eta = {a.epsilon:g}")
        ax.set_xticks([0, 1], ["as declared", "budget doubled"])
        ax.set_title(f"Audit {a.name}: eps_hat ({v.verdict})", fontsize=9)
    ax.set_ylabel("empirical epsilon lower bound")
    legend(ax)
    return save(fig, record, out)
