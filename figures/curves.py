"""Curves against a bound: probabilities under a ceiling (Ceiling claims), with their
simultaneous Clopper-Pearson intervals, and measured means against a bound curve
(MeanBound claims), with their simultaneous Student-t intervals, or the largest value
measured for a worst-case claim. Not tied to one paper: the generic plotter draws these
claims with ``ceiling_panel`` and ``mean_panel``, and a paper's plotter can call them
(or ``plot_ceilings``) with its own axis label."""

from __future__ import annotations

import numpy as np

from privbounds.figures.common import (
    bound_label,
    free_colour,
    interval_fill,
    legend,
    new_figure,
    save,
)
from privbounds.figures.style import scale_reason
from privbounds.record import ClaimResult, verdict_text


def _shared_parts(groups: dict) -> tuple[dict, str]:
    """Groups keyed by labels such as "epsilon=0.5, inner_n=20": the settings every group
    shares leave the labels and are said once, in the legend's title."""
    labels = [str(k).split(", ") for k in groups if k]
    if len(labels) < 2 or len(labels) != len(groups):
        return groups, ""
    common = [p for p in labels[0] if all(p in parts for parts in labels[1:])]
    if not common:
        return groups, ""
    short = {k: ", ".join(p for p in str(k).split(", ") if p not in common) for k in groups}
    if len(set(short.values())) < len(groups):
        return groups, ""
    return {short[k]: ds for k, ds in groups.items()}, "all: " + ", ".join(common)


def ceiling_panel(ax, v: ClaimResult, xlabel: str = "n", ceiling_text: str = "ceiling") -> None:
    """One success-ceiling claim: per group, the measured probability with its
    (Bonferroni-adjusted) Clopper-Pearson band, and the ceiling dashed in the same colour."""
    groups = {}
    for d in v.details:
        groups.setdefault(d.label.rsplit(", n=", 1)[0], []).append(d)
    # a zero count is drawn on a floor a decade under the smallest positive rate or upper
    # end, so that its interval [0, high] rises from just under the data, not from 1e-12
    seen = [y for d in v.details for y in (d.p_hat, d.p_high) if y is not None and y > 0]
    floor = min(seen, default=1e-12) / 10
    groups, common = _shared_parts(groups)
    for i, (label, ds) in enumerate(sorted(groups.items())):
        ds = sorted(ds, key=lambda d: d.n)
        x = np.array([d.n for d in ds], float)
        color = free_colour(i, ("group", label))  # one colour per setting in the figure, none a learner's
        interval_fill(ax, x, [max(d.p_low, floor) for d in ds], [max(d.p_high, floor) for d in ds], color=color,
                      alpha=0.25)
        ax.plot(x, [max(d.p_hat, floor) for d in ds], "o-", color=color, markersize=4,
                label=f"measured, {label}")
        ax.plot(x, [d.ceiling for d in ds], "--", color=color, label=f"{ceiling_text}, {label}")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    low = any(d.p_hat is not None and d.p_hat < floor for d in v.details)
    ax.set_ylabel("probability of the bounded event" + (f"\n(0 drawn at {floor:.0e})" if low else ""))
    legend(ax, sort=True, title=common)
    legend(ax, sort=True)


def plot_ceilings(theorem, record, out, xlabel="n", xlog=False, claims=None):

    verdicts = [v for v in record.verdicts if v.kind == "success ceiling"
                and (claims is None or v.claim in claims)]
    fig, axes = new_figure(len(verdicts) or 1, height=6.8)
    for ax, v in zip(axes, verdicts):
        ceiling_panel(ax, v, xlabel, bound_label(theorem, v.claim, "ceiling"))
        if xlog:
            ax.set_xscale("log", base=2)
        ax.set_title(verdict_text(v), fontsize=10)
    return save(fig, record, out, intervals="ceilings")


def mean_panel(ax, v: ClaimResult, xlabel: str = "n", bound_text: str = "bound", ylabel: str | None = None,
               group_key=None) -> None:
    """One mean-bound claim: per group (its label without n, or ``group_key(detail)``), the
    measured mean with its simultaneous band (or the largest value, for a worst-case
    claim) and the bound dashed in the same colour; log-log when the values allow."""
    groups = {}
    for d in v.details:
        key = group_key(d) if group_key else d.label.rsplit(", n=", 1)[0]
        groups.setdefault(key, []).append(d)
    worst = v.statistic == "max"
    what = "largest measured" if worst else "measured mean"
    groups, common = _shared_parts(groups)
    vals = [y for d in v.details for y in (d.value, d.low, d.bound) if np.isfinite(y)]
    log = bool(vals) and min(vals) > 0 and max(vals) / min(vals) > 20
    # exact values can be as small as 1e-270: on a log axis keep 12 decades under the top,
    # and draw anything smaller on the floor (said in the axis label)
    floor = max(vals) * 1e-12 if log else -np.inf
    clipped = log and min(vals) < floor
    for i, (label, ds) in enumerate(sorted(groups.items(), key=lambda g: str(g[0]))):
        ds = sorted(ds, key=lambda d: d.n)
        x = np.array([d.n for d in ds], float)
        color = free_colour(i, ("group", label))  # one colour per setting in the figure, none a learner's
        suffix = f", {label}" if label else ""
        if not worst:
            interval_fill(ax, x, np.maximum([d.low for d in ds], floor), np.maximum([d.high for d in ds], floor),
                            color=color, alpha=0.22, linewidth=0)
        ax.plot(x, np.maximum([d.value for d in ds], floor), "o-" if not worst else "s-", color=color,
                markersize=4, label=f"{what}{suffix}")
        ax.plot(x, [d.bound for d in ds], "--", color=color, label=f"{bound_text}{suffix}")
    if log:
        ax.set_yscale("log")
    elif vals:  # said in the title where the figure's other panels are log (style.explain_scales)
        scale_reason(ax, "a value <= 0" if min(vals) <= 0 else "the values span less than a factor of 20")
    xs = [d.n for d in v.details]
    if xs and min(xs) > 0 and max(xs) / min(xs) >= 8:
        ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel((ylabel or (v.quantity or "measured value")) + (f" (under {floor:.0e}: on the floor)"
                                                                       if clipped else ""))
    legend(ax, sort=True, title=common)
