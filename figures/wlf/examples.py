"""Wang, Lei and Fienberg, "Learning with Differential Privacy": Proposition 12's figure
(Alg 1's AERM gap on cluster datasets against ln(1/w), its worst case over w, and a smooth
D). Example 22 is declared in ``specs``; other results of this theme use the generic plotter."""

from __future__ import annotations

import numpy as np

from privbounds.figures.common import PALETTE, bound_label, legend, new_figure, save
from privbounds.figures.curves import mean_panel
from privbounds.figures.style import own_scale


def plot_prop12(theorem, record, out):
    """Proposition 12: per eps, the AERM gap on clusters of width w against ln(1/w) under any
    eps-DP floor, then the worst case over w and a smooth D (``curves.mean_panel``). Bespoke
    because each n's curve marks where its gap switches (eps n/8 - ln n), a vertical line the
    one plotter does not draw."""
    floor = record.claim("lower-dp-floor")
    eps_values = sorted({d.point["epsilon"] for d in floor.details})
    fig, axes = new_figure(len(eps_values) + 2, width=6.0, height=6.0)
    for ax, eps in zip(axes, eps_values):
        ds = [d for d in floor.details if d.point["epsilon"] == eps]
        for i, n in enumerate(sorted({d.n for d in ds})):
            row = sorted((d for d in ds if d.n == n), key=lambda d: d.point["log10_inv_w"])
            x = np.array([d.point["log10_inv_w"] for d in row]) * np.log(10.0)
            color = PALETTE[i % len(PALETTE)]
            ax.plot(x, [d.value for d in row], "o-", color=color, markersize=4, label=f"measured mean, n={n}")
            ax.plot(x, [d.bound for d in row], "--", color=color,
                    label=bound_label(theorem, "lower-dp-floor", f"any eps-DP floor, n={n}"))
            ax.axvline(eps * n / 8.0 - np.log(n), color=color, linestyle=":", linewidth=1)
        ax.set_xlabel("ln(1/w) (dotted: eps n/8 - ln n, where the gap switches)")
        ax.set_ylabel("AERM gap of Alg 1 on a cluster of width w")
        ax.set_title(f"cluster datasets, eps = {eps:g}: {floor.verdict}", fontsize=10)
        legend(ax, ncol=2)
    worst = record.claim("lower-worst-case")
    mean_panel(axes[-2], worst, "n", bound_label(theorem, "lower-worst-case", "level forced by the proof"))
    axes[-2].set_ylim(0, 0.55)
    axes[-2].set_title(f"worst case over w in [1e-40, 0.1]: {worst.verdict}", fontsize=10)
    smooth = record.claim("upper-smooth-aerm")
    mean_panel(axes[-1], smooth, "n", bound_label(theorem, "upper-smooth-aerm", "AERM bound"),
               ylabel="AERM gap, x uniform on [0, 1]")
    axes[-1].set_title(f"smooth D: {smooth.verdict}", fontsize=10)
    own_scale(axes[-1], "log", "the gap falls over decades")
    return save(fig, record, out, intervals="means")
