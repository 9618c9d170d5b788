"""figures/ticks.py: log-axis tick labels written as plain text, the same labels as
matplotlib's own formatter chooses."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.ticker import ScalarFormatter  # noqa: E402

from privbounds.figures.ticks import PlainLogFormatter, plain, plain_log_ticks  # noqa: E402


@pytest.mark.parametrize("label, text", [
    (r"$\mathdefault{10^{-2}}$", "10⁻²"),
    (r"$\mathdefault{2^{14}}$", "2¹⁴"),
    (r"$\mathdefault{3\times10^{2}}$", "3×10²"),
    (r"$\mathdefault{-10^{3}}$", "−10³"),
    (r"$\mathdefault{0}$", "0"),
    ("", ""),
    (r"$\mathdefault{2^{1.50}}$", r"$\mathdefault{2^{1.50}}$"),  # a fractional exponent: left as it was
    (r"$\alpha$", r"$\alpha$"),
])
def test_plain_writes_mathtext_log_labels_with_superscripts(label, text):
    assert plain(label) == text


def _shown(axis) -> list:
    """(location, label) of every major and minor tick: the minor formatter labels only some."""
    return [(t.get_loc(), t.label1.get_text()) for t in axis.get_major_ticks() + axis.get_minor_ticks()]


def test_a_log_axis_gets_the_labels_matplotlib_chose_as_plain_text():
    fig, (ax, other) = plt.subplots(1, 2)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.plot([1, 2**10], [3e1, 2e2])  # under a decade of y: matplotlib labels some minor ticks
    other.plot([0, 1], [0, 1])
    fig.canvas.draw()
    before = {axis: _shown(axis) for axis in (ax.xaxis, ax.yaxis)}
    plain_log_ticks(fig)
    fig.canvas.draw()
    for axis in (ax.xaxis, ax.yaxis):
        assert isinstance(axis.get_major_formatter(), PlainLogFormatter)
        assert isinstance(axis.get_minor_formatter(), PlainLogFormatter)
        labels = [t.get_text() for t in axis.get_ticklabels()]
        assert labels and not any("$" in s for s in labels)
        assert any("$" in s for _, s in before[axis])  # matplotlib's own labels were mathtext
        assert [(loc, plain(s)) for loc, s in before[axis]] == _shown(axis)
    assert isinstance(other.xaxis.get_major_formatter(), ScalarFormatter)  # a linear axis is left alone
    plt.close(fig)


def test_a_formatter_a_plotter_chose_is_left_alone():
    fig, ax = plt.subplots()
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(plt.FuncFormatter(lambda x, pos: f"{x:g}"))
    plain_log_ticks(fig)
    assert type(ax.yaxis.get_major_formatter()) is plt.FuncFormatter
    assert type(ax.yaxis.get_minor_formatter()) is PlainLogFormatter
    plt.close(fig)
