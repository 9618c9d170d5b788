"""Colours of the figures of Bassily et al., "Private Query Release Assisted by Public
Data" (ICML 2020): each learner's colour and marker from ``LEARNERS`` (this package),
and shades of one learner's colour for the several series one learner draws (one per
distribution, per number of stumps p, ...), so a colour always names a learner and the
series of one learner differ by shade and marker (readable in greyscale)."""

from __future__ import annotations

from privbounds.figures.common import learner_style
from privbounds.figures.common import shades as common_shades

SERIES_MARKS = "os^vDP"


def style(learner: str) -> tuple:
    """(colour, marker) of a learner of this paper."""
    s = learner_style("pap", learner)
    return s["color"], s["marker"]


def learner_color(learner: str):
    return style(learner)[0]


def shades(learner: str, n: int) -> list:
    """``n`` shades of the learner's colour, dark to light (the colour itself when n = 1)."""
    return common_shades(learner_color(learner), n)
