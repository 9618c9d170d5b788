"""Probability curves under a ceiling (Ceiling claims): the measured probability of the
bounded event against the curve variable, with its simultaneous Clopper-Pearson
intervals, and the ceiling. Not tied to one paper: the generic plotter draws ceiling
claims with ``ceiling_panel``, and a paper's plotter can call ``plot_ceilings`` with its
own axis label."""

from __future__ import annotations

import numpy as np

from privbounds.figures.common import PALETTE, bound_label, legend, new_figure, save


def ceiling_panel(ax, v: dict, xlabel: str = "n", ceiling_text: str = "ceiling") -> None:
    """One success-ceiling claim: per group, the measured probability with its
    (Bonferroni-adjusted) Clopper-Pearson band, and the ceiling dashed in the same colour."""
    groups = {}
    for d in v["details"]:
        groups.setdefault(d["label"].rsplit(", n=", 1)[0], []).append(d)
    for i, (label, ds) in enumerate(sorted(groups.items())):
        ds = sorted(ds, key=lambda d: d["n"])
        x = np.array([d["n"] for d in ds], float)
        color = PALETTE[i % len(PALETTE)]
        ax.fill_between(x, [d["p_low"] for d in ds], [d["p_high"] for d in ds], color=color, alpha=0.25,
                        linewidth=0)
        ax.plot(x, [max(d["p_hat"], 1e-12) for d in ds], "o-", color=color, markersize=4,
                label=f"measured, {label}")
        ax.plot(x, [d["ceiling"] for d in ds], "--", color=color, label=f"{ceiling_text}, {label}")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("probability of the bounded event")
    legend(ax, sort=True)


def plot_ceilings(theorem, record, out, xlabel="n", xlog=False, claims=None):

    verdicts = [v for v in record["verdicts"] if v["kind"] == "success ceiling"
                and (claims is None or v["claim"] in claims)]
    fig, axes = new_figure(len(verdicts) or 1, height=6.8)
    for ax, v in zip(axes, verdicts):
        ceiling_panel(ax, v, xlabel, bound_label(theorem, v["claim"], "ceiling"))
        if xlog:
            ax.set_xscale("log", base=2)
        ax.set_title(f"{v['claim']}: {v['verdict']}", fontsize=10)
    return save(fig, record, out, intervals="ceilings")
