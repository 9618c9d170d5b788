"""The readability check every figure passes (figures/layout.py) catches what it claims
to: each defect planted in an otherwise clean figure is reported, and the clean figure
and the shared style pass."""

import numpy as np
import pytest

from privbounds.figures.common import Band, band, bound_line, legend, new_figure
from privbounds.figures.layout import problems


def _clean(ncols=1):
    fig, axes = new_figure(ncols)
    x = np.array([1, 2, 4, 8, 16])
    for ax in axes:
        pts = [Band(10 * v, 8 * v, 12 * v) for v in x]
        band(ax, x, pts, "C0", "measured")
        bound_line(ax, x, 20 * x, "C0", "bound")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title("a panel")
        legend(ax)
    fig.tight_layout()
    return fig, axes


def test_the_shared_style_passes():
    for ncols in (1, 2, 3, 5):  # more than two panels wrap onto rows
        fig, axes = _clean(ncols)
        assert fig.get_figwidth() <= 13 and not problems(fig), problems(fig)


@pytest.mark.parametrize("defect, expected", [
    ("wide", "wide"),
    ("tiny text", "px at 900 px wide"),
    ("legend over data", "covers"),
    ("wide title", "wider than the figure"),
    ("legend over another panel", "covers the panel"),
    ("legend over the axis label", "axis label"),
    ("figure title over a panel title", "figure's title covers"),
    ("panel too small", "at least 2"),
])
def test_each_planted_defect_is_reported(defect, expected):
    fig, axes = _clean(2)
    ax = axes[0]
    if defect == "wide":
        fig.set_figwidth(20)
    elif defect == "tiny text":
        ax.set_xlabel("tiny", fontsize=6)
    elif defect == "legend over data":
        ax.legend(loc="center", fontsize=9)  # inside the panel, over the middle of the curves
    elif defect == "wide title":
        ax.set_title("a title far too long for its panel " * 6)
    elif defect == "legend over another panel":
        ax.legend(loc="center left", bbox_to_anchor=(0.9, 0.5), fontsize=9)
    elif defect == "legend over the axis label":
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.02), fontsize=9)
    elif defect == "figure title over a panel title":
        fig.suptitle("a figure title\nof three\nlines", y=1.0)
        fig.subplots_adjust(top=0.97)
    elif defect == "panel too small":
        fig.set_figheight(2.2)
    found = problems(fig)
    assert any(expected in p for p in found), (defect, found)


def test_importing_the_figure_packages_and_their_learner_tables_loads_no_plotting_library():
    """``privbounds list``, ``run`` and the registry read the packages' LEARNERS tables
    without paying for matplotlib and seaborn."""
    import subprocess
    import sys

    code = ("import sys, privbounds.figures, privbounds.figures.bns, privbounds.figures.pap, "
            "privbounds.figures.kmms, privbounds.figures.siv; print('matplotlib' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "False"
