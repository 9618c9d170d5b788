"""Figures of Kaplan, Mansour, Matias and Stemmer, "Differentially Private Learning of
Geometric Concepts" (ICML 2019), section 4, that the one plotter (``figures.spec``, see
specs.py) cannot draw: the smallest region of the dual arrangement (Claim 4.5) and the
selection gap's survival function (Lemma 4.6), both read from the results tables' rows.
"""

from __future__ import annotations

import numpy as np

from privbounds.bounds import kmms as kmms_bounds
from privbounds.figures.common import PALETTE, bound_label, legend, new_figure, save
from privbounds.figures.style import own_scale

MARKS = "os^vD"


def _rows(record, **kw):
    return sorted((r for r in record.rows if all(r.get(k) == v for k, v in kw.items())), key=lambda r: r["n"])


def _rate(ax, xs, rows, color, label, marker="o"):
    p = np.array([r["p_hat"] for r in rows])
    lo = np.array([r["ci_low"] for r in rows])
    hi = np.array([r["ci_high"] for r in rows])
    ax.errorbar(xs, p, yerr=[p - lo, hi - p], fmt=marker + "-", color=color, label=label, capsize=3, markersize=5)


def claim4_5(theorem, record, out):
    """Bespoke: the right panel brackets each smallest region's area from threshold rows of the
    results table, which no claim's details hold."""
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
    ax.set_xlabel("d")
    ax.set_ylabel("smallest region's area x 2 d^3")
    ax.set_title("Smallest region (brackets from the threshold rows)", fontsize=9)
    own_scale(ax, "log", "areas over decades")
    legend(ax)
    return save(fig, record, out)


def lem4_6(theorem, record, out):
    """Bespoke: a survival function P[gap > t] over every threshold t of the results rows, of
    which the claims judge only three."""
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
