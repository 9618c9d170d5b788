"""Figure for Sivakumar, Lemma 3.2 (the exponential mechanism's utility tail): for each
shape of score vector, the measured P[gap >= 2 Delta (ln|H| + a)/eps] against a, one
curve per epsilon with its simultaneous Clopper-Pearson band, under the lemma's e^(-a)."""

from __future__ import annotations

import numpy as np

from privbounds.figures.common import PALETTE, bound_label, interval_fill, legend, new_figure, save

FLOOR = 1e-4  # a measured 0 is drawn at the floor (log axis); its band's top is the evidence


def plot(theorem, record, out):
    """Bespoke: a survival function of the utility gap (P[gap >= threshold] against a,
    one curve per epsilon down to a floor on a log axis, under the one e^(-a) they share),
    where the one plotter's ceiling panel draws against n with a ceiling per curve."""
    from privbounds.simulators.siv.lem3_2 import A_STEP

    verdicts = [v for v in record.verdicts if v.kind == "success ceiling"]
    fig, axes = new_figure(len(verdicts) or 1, height=5.4)
    for ax, v in zip(axes, verdicts):
        groups = {}
        for d in v.details:
            groups.setdefault(d.point["epsilon"], []).append(d)
        for i, (eps, ds) in enumerate(sorted(groups.items())):
            ds = sorted(ds, key=lambda d: d.n)
            a = np.array([d.n for d in ds], float) * A_STEP
            color = PALETTE[i % len(PALETTE)]
            interval_fill(ax, a, [max(d.p_low, FLOOR) for d in ds], [max(d.p_high, FLOOR) for d in ds],
                            color=color, alpha=0.25, linewidth=0)
            ax.plot(a, [max(d.p_hat, FLOOR) for d in ds], "o-", color=color, markersize=3.5,
                    label=f"measured, eps = {eps:g}")
        ds = sorted(v.details, key=lambda d: d.n)
        if ds:
            a = np.array(sorted({d.n for d in ds}), float) * A_STEP
            ax.plot(a, np.exp(-a), "k--", label=bound_label(theorem, v.claim, "Lemma 3.2: e^(-a)"))
        ax.set_yscale("log")
        ax.set_ylim(FLOOR / 2, 1.5)
        ax.set_xlabel("a (gap threshold 2 Delta (ln|H| + a) / eps)")
        ax.set_ylabel("P[gap >= threshold] (0 drawn at 1e-4)")
        ax.set_title(f"{v.claim.removeprefix('ceiling-')} scores: {v.verdict}", fontsize=10)
        legend(ax)
    return save(fig, record, out, intervals="ceilings")
