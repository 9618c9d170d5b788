"""The figure style rules (figures/style.py) catch what they claim to: each defect planted
in an otherwise clean figure is reported by ``layout.problems`` (which every drawing
records and every figure test reads), and the clean figure passes."""

import numpy as np
import pytest

from privbounds.figures import style
from privbounds.figures.common import PALETTE, Band, band, bound_line, legend, new_figure, save_named
from privbounds.figures.layout import problems

X = np.array([1, 2, 4, 8, 16])


def _clean():
    fig, axes = new_figure(2)
    for ax in axes:
        band(ax, X, [Band(10 * v, 8 * v, 12 * v) for v in X], PALETTE[0], "learner A", subject="A")
        bound_line(ax, X, 20 * X, PALETTE[0], "bound of A", subject="A")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title("a panel")
    return fig, axes


def _laid_out(fig, axes):
    for ax in axes:
        legend(ax)
    fig.tight_layout()
    return problems(fig)


def test_the_clean_figure_passes():
    assert _laid_out(*_clean()) == []


def test_a_panel_that_says_why_may_keep_its_own_scale():
    fig, axes = _clean()
    style.own_scale(axes[1], "linear", "a probability")
    assert "linear y-scale: a probability" in axes[1].get_title()
    assert _laid_out(fig, axes) == []


def _plant(defect, fig, axes):
    ax = axes[0]
    if defect == "mixed scales":
        ax.set_yscale("linear")
    elif defect == "one colour, two subjects":
        band(axes[1], X, [Band(5 * v, 4 * v, 6 * v) for v in X], PALETTE[0], "learner B", marker="s", subject="B")
    elif defect == "one subject, two colours":
        band(axes[1], X, [Band(5 * v, 4 * v, 6 * v) for v in X], PALETTE[1], "learner A again", subject="A")
    elif defect == "one label, two colours":
        ax.plot(X, 3 * X, "-o", color=PALETTE[2], label="same words")
        axes[1].plot(X, 3 * X, "-o", color=PALETTE[3], label="same words")
    elif defect == "region over points":
        ax.axhspan(50, 200, color="grey", alpha=0.2)  # holds the measured points at x = 8, 16
    elif defect == "bound over measured":
        ax.plot(X, 10 * X, "--", color="k", label="a bound on top", zorder=3)
    elif defect == "legend entry without handle":
        ax.plot([], [], " ", label="fit: a text-only entry")
    elif defect == "censored glyph misused":
        ax.plot(X, 30 * X, linestyle="", marker=style.OPEN_ABOVE, color="k", label="not censored")
    elif defect == "one point, no marker":
        ax.plot([4.0], [50.0], "--", color=PALETTE[6], label="a bound at one setting")
    elif defect == "coinciding bounds":
        ax.plot(X, 20 * X, "--", color=PALETTE[5], label="another learner's bound, the same values")
    elif defect == "small legend on a wide figure":
        fig.set_figwidth(11.25)
        ax.plot(X, 3 * X, "-o", color=PALETTE[4], label="small")
        ax.legend(fontsize=8, loc="upper left")


@pytest.mark.parametrize("defect, expected", [
    ("mixed scales", "without saying why"),
    ("one colour, two subjects", "stands for 2 things"),
    ("one subject, two colours", "is drawn in 2 colours"),
    ("one label, two colours", "legend label 'same words' is drawn in 2 colours"),
    ("region over points", "shaded region"),
    ("bound over measured", "is drawn over the measured"),
    ("legend entry without handle", "no visible line or marker"),
    ("censored glyph misused", "censored-point glyph"),
    ("small legend on a wide figure", "px at 900 px wide"),
    ("coinciding bounds", "hide each other"),
    ("one point, no marker", "draws nothing"),
])
def test_each_planted_defect_is_reported(defect, expected):
    fig, axes = _clean()
    _plant(defect, fig, axes)
    found = problems(fig) if defect == "small legend on a wide figure" else _laid_out(fig, axes)
    assert any(expected in p for p in found), (defect, found)


def test_bands_and_censored_points_are_not_defects():
    fig, axes = _clean()
    pts = [Band(None, 10 * v, None) for v in X[:2]] + [Band(10 * v, 8 * v, 12 * v) for v in X[2:]]
    band(axes[1], X, pts, PALETTE[0], "learner A", subject="A")
    glyphs = {c.get_gid() for c in axes[1].collections}
    assert "open:above" in glyphs and style.BAND in glyphs
    assert _laid_out(fig, axes) == []


def test_saving_puts_every_bound_under_the_measured_curves(tmp_path):
    fig, axes = _clean()
    line = axes[0].plot(X, 15 * X, "--", color="k", label="a bound drawn last")[0]
    assert line.get_zorder() == 2
    save_named(fig, "t", "title", tmp_path)
    assert line.get_zorder() < 2 and not [p for p in problems(fig) if "drawn over" in p]


def test_saving_interleaves_coinciding_bounds(tmp_path):
    fig, axes = _clean()
    other = axes[0].plot(X, 20 * X, "--", color=PALETTE[5], label="another learner's bound, the same values")[0]
    save_named(fig, "t", "title", tmp_path)
    mine = [ln for ln in axes[0].get_lines() if ln.get_label() == "bound of A"][0]
    assert mine._dash_pattern[0] != other._dash_pattern[0]  # offset dashes: both colours show
    assert not [p for p in problems(fig) if "hide each other" in p]


def test_saving_marks_a_line_of_one_point(tmp_path):
    fig, axes = _clean()
    lone = axes[0].plot([4.0], [50.0], "--", color=PALETTE[6], label="a bound at one setting")[0]
    save_named(fig, "t", "title", tmp_path)
    assert lone.get_marker() == "_" and not [p for p in problems(fig) if "draws nothing" in p]


def test_text_size_is_judged_at_the_report_width():
    fig, _ = new_figure(2)
    assert fig.get_figwidth() <= 11.25
    assert style.text_px(fig, 9) >= style.MIN_PX - 1e-9  # the legends' size passes at the widest figure
