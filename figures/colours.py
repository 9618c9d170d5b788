"""Colours of every figure: the colour-blind palette, each paper's learners in their own
colour and marker (``learner_style``), shades of a learner's colour for several settings
of it, and the colours one figure hands out to curves that are not learners
(``reserved``, ``free_colour``), so that a colour means one thing in a figure.

Not tied to one paper (each paper's figure package lists its ``LEARNERS``).
"""

from __future__ import annotations

from contextvars import ContextVar

import numpy as np
import seaborn as sns
from matplotlib.colors import to_hex, to_rgb

from privbounds.figures.context import scoped

PALETTE = sns.color_palette("colorblind")
# Non-private learners and their bounds: near-black, never a palette colour, so they stand
# apart from every private curve (and in greyscale).
NONPRIVATE = "0.15"
MARKERS = "os^vDP*Xh<>"
# the palette in the order curves that are not learners get it: each next colour far from
# the ones before (blue, green, orange, purple, ...; the two oranges and the pale yellow late)
APART = [PALETTE[i] for i in (0, 2, 1, 4, 9, 5, 3, 7, 6, 8)]


def learner_style(paper: str, learner: str) -> dict:
    """Colour and marker of a learner, the same in every figure of its paper: each paper's
    figure package lists its learners in ``LEARNERS`` (name -> palette index, colour or
    "nonprivate"; marker). Keyword arguments for ``ax.plot``; the bound of the learner is
    drawn dashed in the same colour (``bound_line``)."""
    import importlib

    table = importlib.import_module(f"privbounds.figures.{paper}").LEARNERS
    if learner not in table:
        raise KeyError(f"learner {learner!r} has no style in privbounds.figures.{paper}.LEARNERS")
    color, marker = table[learner]
    if color == "nonprivate":  # the tables name it, so that importing them loads no plotting library
        color = NONPRIVATE
    return {"color": PALETTE[color] if isinstance(color, int) else color, "marker": marker}


_RESERVED: ContextVar[dict | None] = ContextVar("privbounds_reserved_colours", default=None)


def reserved(colours):
    """While drawing one figure: the colours its learners own; ``free_colour`` hands out
    the others, one per subject for the whole figure, so that a curve that is not a
    learner never wears a learner's colour and keeps its colour from panel to panel."""
    return scoped(_RESERVED, {"taken": {to_hex(c) for c in colours}, "given": {}})


def free_colour(i: int, subject=None):
    """The colour of ``subject`` in the figure being drawn (the next palette colour no
    learner owns and no other subject has, the first time it is asked for); outside a
    figure's ``reserved``, or without a subject, the i-th palette colour."""
    state = _RESERVED.get()
    if state is None:
        return APART[i % len(APART)]
    if subject is not None and subject in state["given"]:
        return state["given"][subject]
    used = state["taken"] | {to_hex(c) for c in state["given"].values()}
    free = [c for c in APART if to_hex(c) not in used] or [c for c in APART if to_hex(c) not in state["taken"]]
    colour = (free or PALETTE)[0 if subject is not None else i % len(free or PALETTE)]
    if subject is not None:
        state["given"][subject] = colour
    return colour


def learners_colours(paper: str, names) -> list:
    """The colours of the named learners of ``paper`` (names without a style are skipped)."""
    out = []
    for name in names:
        try:
            out.append(learner_style(paper, str(name))["color"])
        except (KeyError, ImportError, AttributeError):
            pass
    return out


def shade(color, t: float) -> tuple:
    """``color`` mixed with white (t > 0) or black (t < 0) by |t|."""

    c = np.array(to_rgb(color))
    return tuple(c + ((np.ones(3) if t > 0 else np.zeros(3)) - c) * abs(t))


def shades(color, n: int) -> list:
    """``n`` variants of one colour, darkest first: several series of one learner in a
    panel (one per alpha, per distribution, ...) keep the learner's hue and differ in
    lightness (and, drawn with different markers, stay apart in greyscale)."""

    c = np.array(to_rgb(color))
    if n <= 1:
        return [tuple(c)]
    if c.mean() < 0.3:  # near-black (a non-private learner): lighter greys only
        return [tuple(c + (1 - c) * f) for f in np.linspace(0, 0.55, n)]
    # never the learner's own colour (an odd count would put it in the middle): that one
    # is its bound's, and a setting's colour must differ from it
    return [shade(c, f) for f in np.linspace(-0.45, 0.45, n + n % 2)[:n]]
