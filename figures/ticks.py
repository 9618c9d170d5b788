"""Tick labels of log axes as plain text, for every figure of every paper.

Not tied to one paper. Matplotlib labels a log axis with mathtext ("$\\mathdefault{2^{4}}$"),
and its mathtext parser keeps only the last 50 (string, size) pairs: a report's figures use
more, so nearly every label was parsed again, about 17 ms each, a fifth of the time it took
to lay out the report's figures. ``plain_log_ticks(fig)`` gives every log axis of a figure
the same labels written with Unicode superscripts ("2⁴", "3×10²", "10⁻¹"), which the
default font draws as ordinary text; a label it cannot write that way (a fractional
exponent, a TeX setting) stays as matplotlib wrote it.
"""

from __future__ import annotations

import re

from matplotlib.ticker import LogFormatterSciNotation

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
