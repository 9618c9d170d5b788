"""Colours of the figures of Kaplan, Mansour, Matias and Stemmer, "Differentially Private
Learning of Geometric Concepts" (ICML 2019): each learner's colour and marker from
``LEARNERS`` (this package), and a lighter or darker shade of a learner's colour for a
second series of the same learner (another target family, another concept class), so a
colour always names a learner."""

from __future__ import annotations

from privbounds.figures.common import learner_style


def style(learner: str) -> tuple:
    """(colour, marker) of a learner of this paper."""
    s = learner_style("kmms", learner)
    return s["color"], s["marker"]
