"""The parts a declared figure is made of (``figures.spec``): its axis, the series of
measured points, the lines and claims drawn beside them, the panels; and the templates
their texts are written in. Not tied to one paper; nothing here draws."""

from __future__ import annotations

import string
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field

import numpy as np

from privbounds.figures.context import scoped

SMOOTH = 40  # points of a bound curve swept between the measured ones


@dataclass(frozen=True)
class Axis:
    """The x axis: the parameter ``param`` or a value computed from the point (``of``),
    with ``inverse`` giving the parameter at an axis value (so that a bound is swept
    smoothly along the axis); ``scale`` "log2", "log" or "linear"; ``ticks`` "measured"
    labels the measured values (an axis shorter than a decade)."""

    param: str
    label: str = ""
    scale: str = "log2"
    of: Callable[[dict], float] | None = None
    inverse: Callable[[np.ndarray], np.ndarray] | None = None
    ticks: str = "measured"

    def value(self, point: dict) -> float:
        return self.of(point) if self.of is not None else point[self.param]


def domain(param: str = "d", label: str = "domain size |X|") -> Axis:
    """|X| = 2^d on a log2 axis, for a parameter d = log2|X|."""
    return Axis(param, label, "log2", of=lambda p: 2.0 ** p[param], inverse=np.log2)


def inverse(param: str = "alpha", label: str = "1 / alpha") -> Axis:
    """1/alpha (or 1/eps) on a log2 axis, the measured values labelled."""
    return Axis(param, label, "log2", of=lambda p: 1 / p[param], inverse=lambda x: 1 / x)


@dataclass(frozen=True)
class Series:
    """Points of one learner: those matching ``where`` (and the panel's ``where``), drawn
    in the style of ``learner`` (a name in the paper's ``LEARNERS``; None: the next
    palette colour), labelled ``label`` plus the fitted exponent of the scaling claim
    ``fit``; ``bound``: a claim whose bound is drawn in the same colour, labelled
    ``bound_text`` with the claim's verdict. ``each``: one such series per value of that
    parameter; ``of``: draw the points that claim judged. Every text is a template over
    the series' first point."""

    where: dict = field(default_factory=dict)
    learner: str | None = None
    label: str = "n_hat"
    fit: str | None = None
    bound: str | None = None
    bound_text: str = "bound"
    smooth: bool = True
    each: str | None = None
    bound_marker: bool = False
    least: int = 1  # fewer points: not drawn (a value of ``each`` measured at one setting only)
    of: str | None = None  # the points this claim judged (its details), not every point of the record


@dataclass(frozen=True)
class Line:
    """A curve for scale or contrast, not judged in this figure: the bound function ``fn``
    (of ``privbounds.bounds``) at ``args(point)``, swept along the axis from the panel's
    first point; its label is marked where ``fn``'s constants are our reconstruction."""

    fn: Callable
    args: Callable[[dict], tuple]
    label: str
    color: str = "k"
    style: str = ":"

    def __call__(self, point: dict) -> float:
        return float(self.fn(*self.args(point)))


@dataclass(frozen=True)
class Slope:
    """A power law x^exponent through the measured point of largest x among the points
    matching ``where`` (grey): a guide to read a measured slope against, not a bound."""

    where: dict
    exponent: float
    label: str
    style: str | tuple = "-."


@dataclass(frozen=True)
class ClaimLine:
    """A claim's bound drawn on its own, not as a learner's (a lower bound for every
    learner), swept along the axis from the panel's first point, labelled with its verdict."""

    claim: str
    text: str
    color: str = "k"
    style: str = "-"


@dataclass(frozen=True)
class Reference:
    """Another theorem's measured learner, from its record in the same output folder
    (drawn when that theorem was run): points matching ``where``, in ``learner``'s style."""

    theorem: str
    where: dict
    learner: str
    label: str
    worst: str | None = None  # keep, at each setting of the others, the worst over this parameter
    # the other theorem's scaling claim (its fit in the label) and upper/lower claim (its
    # bound swept along the axis in the learner's colour, labelled ``bound_text``)
    fit: str | None = None
    bound: str | None = None
    bound_text: str = "bound"


@dataclass(frozen=True)
class Rows:
    """A measured quantity no claim judges, for context in a "mean" or "ceiling" panel: the
    record's rows matching ``where`` (and the panel's), their ``stat`` ("mean" with its
    interval band; "max" without), per value of the panel's ``group``; ``color`` a palette
    index or colour (None: the group's colour)."""

    where: dict
    label: str
    stat: str = "mean"
    color: int | str | None = None
    marker: str = "o"
    style: str = "-"


@dataclass(frozen=True)
class Panel:
    """One panel. ``kind`` "n_hat" draws ``series``, ``lines`` and ``references`` against
    ``x``; "scaling", "ceiling" and "mean" draw the claim ``claim`` as the generic plotter
    does; "ceilings" the points of the claims ``ceilings`` side by side. ``each``: one
    panel per value of that parameter."""

    x: Axis | None = None
    series: tuple[Series, ...] = ()
    lines: tuple[Line, ...] = ()
    claims: tuple[ClaimLine, ...] = ()
    slopes: tuple[Slope, ...] = ()
    references: tuple[Reference, ...] = ()
    where: dict = field(default_factory=dict)
    title: str = ""
    ylabel: str = "n_hat (simultaneous 95% band)"
    yscale: str = "log"
    # why this panel's y-scale differs from the rest of its figure (said in its title); a
    # figure keeps one y-scale otherwise (figures/style.py)
    why: str = ""
    kind: str = "n_hat"
    claim: str | None = None
    each: str | None = None
    # a scaling claim's fit under the panel's title, when several series share one fit
    fits: tuple[str, ...] = ()
    # kind "ceilings": every point of these success-ceiling claims side by side (a claim
    # judged at one n per setting), each named by its ``labels`` parameters
    ceilings: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    # kinds "ceiling" and "mean": further claims of the kind in this panel (their groups beside
    # the first's), the details of all restricted to ``where``; ``x`` gives label and scale
    merge: tuple[str, ...] = ()
    # kinds "ceiling" and "mean" drawn by ``_curves_panel`` when any of these is set: a curve
    # per value of ``group`` (one colour each in the whole figure; the legend names only
    # these parameters), several claims on one axis (``curves``, the measured values drawn
    # once, the bounds told apart by line style, labelled ``bound_texts``), ``reduce`` "max"
    # (the largest value at each x: the worst over the parameters not drawn), ``rows`` no
    # claim judges; ``x`` any parameter, ``lines`` as in an "n_hat" panel
    group: tuple[str, ...] = ()
    curves: tuple[str, ...] = ()
    reduce: str | None = None
    rows: tuple[Rows, ...] = ()
    measured: str = ""
    bound_texts: tuple[str, ...] = ()
    ylim: tuple | None = None
    dodge: float = 0.0  # the k-th curve's measured x times 1 + k dodge: coinciding intervals side by side
    # a claim whose bound at each curve's first point is a vertical dashed line in the curve's
    # colour (where a lower bound on n puts the curve's rise)
    marks: str | None = None


def _order(v):
    return (0, v, "") if isinstance(v, (int, float)) else (1, 0, str(v))


class _Fill(string.Formatter):
    """str.format with "!u" for upper case ("{class!u}": THRESH), and a name the point does
    not have kept as written."""

    def get_value(self, key, args, kwargs):
        return kwargs[key] if key in kwargs else _Kept(str(key))

    def convert_field(self, value, conversion):
        if isinstance(value, _Kept):
            return value
        return str(value).upper() if conversion == "u" else super().convert_field(value, conversion)

    def format_field(self, value, format_spec):
        # a name the point lacks, with its format ("{delta:g}"), stays as written
        if isinstance(value, _Kept):
            return "{" + value.key + (":" + format_spec if format_spec else "") + "}"
        return super().format_field(value, format_spec)


@dataclass(frozen=True)
class _Kept:
    key: str


def fill(template: str, point: dict) -> str:
    """A label or title template filled from a point ("{alpha}", "{class!u}_{d}")."""
    return _Fill().vformat(template, (), point)


_HELD: ContextVar[frozenset] = ContextVar("privbounds_held", default=frozenset())


def held(names):
    """While one figure is drawn: the parameters its record holds fixed (its subtitle
    states them once; ``legend_text`` leaves them out of the legend)."""
    return scoped(_HELD, frozenset(names))


def legend_text(template: str, point: dict) -> str:
    """A legend label: ``fill``, without the comma-separated parts that only name
    parameters the figure's record holds fixed ("N* of X, n = {users} users" reads "N* of
    X" when every point has the same users)."""
    names = _HELD.get()
    if names:
        parts = template.split(", ")
        keep = [p for p in parts if not ((fs := {f for _, f, _, _ in string.Formatter().parse(p) if f}) and fs <= names)]
        template = ", ".join(keep) or template
    return fill(template, point)
