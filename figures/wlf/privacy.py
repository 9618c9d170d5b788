"""Wang, Lei and Fienberg, "Learning with Differential Privacy": Proposition 33's figure
(the sqrt(n)-subsample's accuracy and (0, delta~(n))-privacy, and part (ii)'s thresholds).
The other subsampling, privacy-to-stability and boosting results (Lemmas 4, 8, 29, 30, 31,
34; Theorem 25) are declared in ``specs``."""

from __future__ import annotations

import numpy as np

from privbounds.bounds import wlf as B
from privbounds.figures.common import PALETTE, interval_fill, learner_style, legend, new_figure, save
from privbounds.figures.style import own_scale


def _worst_by(ds, x):
    """The largest measured value and its bound at each x (over the other axes, e.g. n)."""
    best = {}
    for d in ds:
        k = x(d.point)
        if k not in best or d.value > best[k].value:
            best[k] = d
    xs = sorted(best)
    return np.array(xs, float), np.array([best[k].value for k in xs]), np.array([best[k].bound for k in xs])


def prop33(theorem, record, out):
    """Proposition 33: (i) the mean excess risk of ERM on floor(sqrt n) rows under its rate, and
    the largest exact TV under delta~(n) = n^-1/2; (ii) the thresholds on delta drawn, not
    measured. Bespoke because part (ii) draws log10 of bounds that underflow a float
    (exp(-eps n^2)/n) and no measured point anchors, which the one plotter does not do."""
    fig, axes = new_figure(3, width=6.2, height=5.2)
    st = learner_style("wlf", "subsample")
    ax = axes[0]
    ds = sorted(record.claim("rate").details, key=lambda d: d.n)
    x = np.array([d.n for d in ds], float)
    interval_fill(ax, x, [max(d.low, 1e-6) for d in ds], [d.high for d in ds], color=st["color"], alpha=0.25,
                        linewidth=0)
    ax.plot(x, [max(d.value, 1e-6) for d in ds], "-", color=st["color"], marker=st["marker"],
            label="ERM on floor(sqrt n) rows: mean excess risk")
    ax.plot(x, [d.bound for d in ds], "--", color=st["color"], label="sqrt(2 log(2|H|)/floor(sqrt n)) (ours)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n")
    ax.set_ylabel("excess risk")
    ax.set_title("(i) accuracy at delta~(n) = n^-1/2", fontsize=10)
    legend(ax)
    ax = axes[1]
    xs, y, b = _worst_by(record.claim("privacy").details, lambda p: p["n"])
    ax.plot(xs, y, "o", color=st["color"], markersize=7, label="largest exact TV over the pairs tried")
    ax.plot(xs, b, "--", color="black", label="delta~(n) = n^-1/2")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n")
    ax.set_ylabel("delta at eps = 0 (TV)")
    ax.set_title("(i) privacy: (0, delta~(n))-DP", fontsize=10)
    legend(ax)
    ax = axes[2]
    n = np.arange(10, 101)
    ax.plot(n, -np.log10(n), "-", color="grey", label="1/n (part (i) needs delta~ above this order)")
    ax.plot(n, B.prop33_threshold_direct(n, 1.0), "--", color=PALETTE[0], label="exp(-eps n)/n (direct argument)")
    ax.plot(n, B.prop33_packing_delta(n, 1.0), ":", color=PALETTE[1],
            label="0.4 e^(-eps (n-1))/n (packing step, corrected)")
    ax.plot(n, B.prop33_threshold(n, 1.0), "-.", color=PALETTE[2], label="exp(-eps n^2)/n (part (ii) as stated)")
    ax.set_xlabel("n")
    ax.set_ylabel("log10 delta")
    ax.set_title("(ii) drawn, not measured (eps = 1)", fontsize=10)
    own_scale(ax, "linear", "log10 of deltas that underflow a float")
    legend(ax)
    return save(fig, record, out, intervals="means")
