"""Figure of Bun, Nissim and Stemmer, "Simultaneous Private Learning of Multiple
Concepts", Lemma 5.3: failure probability of rounding to the nearest parity against the
fraction of corrupted points, random and worst-case corruption, with the 1/4 threshold
(left); n_hat of an improper pure-DP parity learner and of its rounding over Thm 5.4
(right; claims lower-thm5_4-histogram and lower-thm5_4-histogram-rounded, one bound).
Remark 5.2 and Theorem 5.4 are declared for the one plotter (specs_lower.py).
"""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import FormatStrFormatter

from privbounds.figures.bns.style import claim_label, style
from privbounds.figures.common import (
    PALETTE,
    band,
    bound_line,
    claim_bound,
    interval_fill,
    legend,
    new_figure,
    save,
    select,
    sweep,
    verdict,
)
from privbounds.figures.style import own_scale
from privbounds.record import verdict_text
from privbounds.results import load_rows

MARKERS = "osD^v"


def _loglog(ax, xlabel, ylabel, title, base=2):
    ax.set_xscale("log", base=base)
    ax.set_yscale("log")
    if base == 10:  # narrow ranges: label the minor ticks plainly (7, 8, 9 rather than 7x10^0)
        ax.xaxis.set_minor_formatter(FormatStrFormatter("%g"))
        ax.xaxis.set_major_formatter(FormatStrFormatter("%g"))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    legend(ax)


def plot_lem5_3(theorem, record, out):
    """Bespoke: the rounding failure against the corrupted fraction m / 2^d, read from the results
    rows of every corruption level (the claim's details hold m only), with the 1/4 threshold."""
    fig, (ax1, ax2) = new_figure(2, height=7.0)
    rows = load_rows(out, record.id)
    curves = rows[rows["experiment"] == "curve"]
    v = verdict(record, "ceiling-rounding")
    for i, ((corr, d), g) in enumerate(curves.groupby(["corruption", "d"])):
        g = g.sort_values("n")
        f = g["n"] / 2.0 ** d
        color = PALETTE[i % len(PALETTE)]
        interval_fill(ax1, f, g["ci_low"], g["ci_high"], color=color, alpha=0.12, linewidth=0)
        ax1.plot(f, g["p_hat"], "-", marker=MARKERS[i % len(MARKERS)], color=color, markersize=4,
                 label=f"{corr} corruption, d = {int(d)} ({int(g['trials'].iloc[0])} trials per point)")
    ax1.axvline(0.25, color="k", linestyle="--", linewidth=1.2, label="f = 1/4: below it rounding is exact")
    ax1.axhline(1e-3, color="gray", linestyle=":", linewidth=1.2, label="ceiling 1e-3 claimed for f < 1/4")
    ax1.set_ylim(0, 1.2)
    ax1.set_xlabel("fraction of corrupted points f = m / 2^d")
    ax1.set_ylabel("P(rounding misses the target)")
    ax1.set_title(f"rounding a corrupted parity; ceiling: {v.verdict}", fontsize=10)
    own_scale(ax1, "symlog", "a probability, exactly 0 below f = 1/4", linthresh=1e-3)
    legend(ax1)
    for learner, name in (("histogram", "noisy-sign histogram"), ("histogram-rounded", "noisy-sign histogram, rounded")):
        pts = select(record, experiment="search", learner=learner)
        if not pts:
            continue
        label = "improper noisy-sign histogram, all errors <= alpha" if learner == "histogram" \
            else "the same rounded to parities, all exact"
        st = style(name)
        band(ax2, [p.point["k"] for p in pts], pts, st["color"], label, st["marker"])
    pts = select(record, experiment="search")
    if pts:
        p0 = pts[0].point
        ks = np.geomspace(1, max(p.point["k"] for p in pts), 40)
        # both learners' claims (lower-thm5_4-histogram, -histogram-rounded) share this bound
        lb = sweep(claim_bound(theorem, "lower-thm5_4-histogram"), p0, "k", ks)
        bound_line(ax2, ks, np.maximum(lb, 1), "k",
                   claim_label(theorem, record, "lower-thm5_4-histogram",
                               "Thm 5.4 lower bound (k d ln2 + ln(1 - beta))/eps, both learners; also claim "
                               f"{verdict_text(verdict(record, 'lower-thm5_4-histogram-rounded'))}"), "-")
        _loglog(ax2, "number of concepts k", "n_hat",
                f"PAR_{p0['d']}, pure eps = {p0['epsilon']}, alpha = {p0['alpha']}, beta = {p0['beta']}")
    return save(fig, record, out)
