"""Tick labels of log axes as plain text, for every figure of every paper.

Not tied to one paper. Matplotlib labels a log axis with mathtext ("$\\mathdefault{2^{4}}$"),
and its mathtext parser keeps only the last 50 (string, size) pairs: a report's figures use
more, so nearly every label was parsed again, about 17 ms each, a fifth of the time it took
to lay out the report's figures. ``plain_log_ticks(fig)`` gives every log axis of a figure
the same labels written with Unicode superscripts ("2⁴", "3×10²", "10⁻¹"), which the
default font draws as ordinary text; a label it cannot write that way (a fractional
exponent, a TeX setting) stays as matplotlib wrote it. ``measured_ticks`` labels the
measured values themselves on an axis too short for the default ticks.
"""

from __future__ import annotations

import re

import numpy as np
from matplotlib.ticker import FixedLocator, FuncFormatter, LogFormatterSciNotation, NullFormatter

_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_MATHTEXT = re.compile(r"\$\\mathdefault\{(-?)(?:([0-9.]+)\\times)?([0-9.]+)(?:\^\{(-?[0-9]+)\})?\}\$")


def plain(label: str) -> str:
    """A mathtext log label as plain text ("$\\mathdefault{10^{-2}}$" -> "10⁻²"), or the
    label unchanged when it has any other form."""
    match = _MATHTEXT.fullmatch(label)
    if match is None:
        return label
    sign, coeff, base, exponent = match.groups()
    text = ("−" if sign else "") + (f"{coeff}×" if coeff else "") + base
    return text + (exponent.translate(_SUPERSCRIPT) if exponent is not None else "")


class PlainLogFormatter(LogFormatterSciNotation):
    """matplotlib's log formatter (which labels it chooses is unchanged), written by ``plain``."""

    def __call__(self, x, pos=None):
        return plain(super().__call__(x, pos))


def _plain(formatter) -> PlainLogFormatter | None:
    """``formatter`` as a ``PlainLogFormatter`` with all of its settings (base, which labels
    it writes, its linear threshold), or None if it is not matplotlib's default log one."""
    if type(formatter) is not LogFormatterSciNotation:
        return None
    plain_one = PlainLogFormatter.__new__(PlainLogFormatter)
    plain_one.__dict__.update(formatter.__dict__)
    return plain_one


def plain_log_ticks(fig) -> None:
    """Swap the default log formatters of every axis of ``fig`` for ``PlainLogFormatter``
    with the same settings; formatters a plotter chose itself are left alone."""
    for axis in (axis for ax in fig.axes for axis in (ax.xaxis, ax.yaxis)):
        major, minor = _plain(axis.get_major_formatter()), _plain(axis.get_minor_formatter())
        if major is not None:
            axis.set_major_formatter(major)
        if minor is not None:
            axis.set_minor_formatter(minor)


def measured_ticks(ax, values, axis: str = "x") -> None:
    """Label the measured values themselves when the axis spans less than a decade or its
    default locator would leave a single labelled tick (e.g. 1/alpha from 2.5 to 5)."""
    vals = np.unique(np.asarray([v for v in values if v is not None], float))
    vals = vals[np.isfinite(vals)]
    if vals.size < 2:
        return
    a = ax.xaxis if axis == "x" else ax.yaxis
    lo, hi = vals.min(), vals.max()
    log = a.get_scale() in ("log", "symlog")
    if log and lo > 0:
        shown = [t for t in a.get_major_locator().tick_values(lo, hi) if lo * 0.999 <= t <= hi * 1.001]
        short = hi / lo < 10 or len(shown) < 2
    else:
        short = False
    if not short:
        return
    if vals.size > 8:  # keep the labels apart: every other value, ends kept
        vals = np.unique(np.r_[vals[::2], vals[-1]])
    a.set_major_locator(FixedLocator(vals))
    a.set_major_formatter(FuncFormatter(lambda v, _: f"{v:.3g}"))
    a.set_minor_formatter(NullFormatter())
