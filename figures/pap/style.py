"""Colours of the figures of Bassily et al., "Private Query Release Assisted by Public
Data" (ICML 2020): each learner's colour and marker from ``LEARNERS`` (this package),
and tones of one learner's colour for the several series one learner draws (one per
distribution, per number of stumps p, ...), so a colour always names a learner and the
series of one learner differ by tone and marker (readable in greyscale).

The tones are fixed per setting (``setting_style``): a distribution, or a value of p,
keeps its tone and marker in every panel of a figure, and none is the learner's own
colour, which its bound and its worst case keep (so a dashed bound never reads as the
bound of one distribution only). Tones differ in lightness and slightly in hue (a dark,
a bright and a light tone, not three near-identical shades)."""

from __future__ import annotations

import colorsys

from matplotlib.colors import to_rgb

from privbounds.figures.common import learner_style

SERIES_MARKS = "os^vDP"
# (hue shift, lightness, saturation factor) of the k-th tone of a learner's colour: dark,
# bright, light; then a second family turned toward violet, for a second parameter drawn in
# the same figure (``FIRST``), so that no tone names two settings in one figure
TONES = ((0.0, 0.2, 1.0), (0.05, 0.46, 1.0), (-0.04, 0.6, 0.8),
         (0.13, 0.22, 0.9), (0.13, 0.45, 0.85), (0.11, 0.66, 0.7))
# the first tone of each parameter's settings: the figures that draw two parameters of one
# learner (thm3_1: distributions and mu vectors; thm4_2: p and m alpha^2; the headline:
# distributions and p) give them different families
FIRST = {"dist": 0, "mu": 3, "p": 3, "m_alpha2": 0}
# the distributions of the threshold experiments and the stumps' mean vectors mu, in the
# order the declared figures draw them (sorted): each keeps one tone and marker per learner
THR_DISTS = ("dirichlet", "geometric", "uniform")
STUMP_DISTS = ("random", "skewed", "zero")


def style(learner: str) -> tuple:
    """(colour, marker) of a learner of this paper."""
    s = learner_style("pap", learner)
    return s["color"], s["marker"]


def learner_color(learner: str):
    return style(learner)[0]


def tone(color, k: int) -> tuple:
    """The k-th tone of ``color`` (``TONES``), never ``color`` itself."""
    h, _, s = colorsys.rgb_to_hls(*to_rgb(color))
    dh, light, sat = TONES[k % len(TONES)]
    return colorsys.hls_to_rgb((h + dh) % 1.0, light, s * sat)


def tones(learner: str, n: int) -> list:
    """``n`` tones of the learner's colour, darkest first, none the colour itself."""
    return [tone(learner_color(learner), k) for k in range(n)]


def setting_style(learner: str, settings, value, param: str = "dist") -> tuple:
    """(colour, marker, subject) of one setting ``value`` of the parameter ``param`` among
    ``settings`` (all the values a figure draws, in a fixed order) of a learner: the same
    in every panel, in the tone family of its parameter (``FIRST``)."""
    k = list(settings).index(value)
    first = FIRST.get(param, 0)
    return (tone(learner_color(learner), first + k), SERIES_MARKS[k % len(SERIES_MARKS)],
            f"{learner} | {param} = {value}")
