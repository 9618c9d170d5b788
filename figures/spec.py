"""The one plotter with options: a theorem's figure declared, not programmed.

Not tied to one paper. A ``Figure`` is a list of ``Panel``s; a panel puts the measured
n_hat of one or more ``Series`` (points selected by their parameters, each in its
learner's colour and marker, with the fitted exponent of a scaling claim in its label)
against one ``Axis`` (a parameter, or a function of it such as |X| = 2^d or 1/alpha),
over the bound of a claim drawn dashed in the series' colour and swept smoothly between
the measured points. ``Line``s add a bound for scale or contrast that is not judged in
this figure; ``Reference``s add another theorem's measured learner from the same output
folder. A panel can repeat over the values of a parameter (``each``), and a series too
(one per composition rule, say); labels and titles are templates filled from the
panel's first point ("alpha = {alpha}"). Panels of a scaling fit, of a success ceiling
or of a mean bound reuse the generic plotter's drawing of those claims.

Censored points (an open interval: the target not reached on the grid) are arrows up,
points that succeed at the learner's smallest n arrows down (``common.band``), in every
figure alike. A ``Figure`` is a plotter: the registry names it like a function
("bns.specs:thm3_12").
"""

from __future__ import annotations

import string
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from privbounds.figures.common import (
    NONPRIVATE,
    PALETTE,
    band,
    bound_label,
    bound_line,
    claim_bound,
    fn_label,
    learner_style,
    legend,
    new_figure,
    save,
    sibling,
    sweep,
)
from privbounds.record import Record, fit_text, verdict_text

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
    ticks: str = "auto"

    def value(self, point: dict) -> float:
        return self.of(point) if self.of is not None else point[self.param]


def domain(param: str = "d", label: str = "domain size |X|") -> Axis:
    """|X| = 2^d on a log2 axis, for a parameter d = log2|X|."""
    return Axis(param, label, "log2", of=lambda p: 2.0 ** p[param], inverse=np.log2)


def inverse(param: str = "alpha", label: str = "1 / alpha") -> Axis:
    """1/alpha (or 1/eps) on a log2 axis, the measured values labelled."""
    return Axis(param, label, "log2", of=lambda p: 1 / p[param], inverse=lambda x: 1 / x, ticks="measured")


@dataclass(frozen=True)
class Series:
    """Points of one learner: those matching ``where`` (and the panel's ``where``), drawn
    in the style of ``learner`` (a name in the paper's ``LEARNERS``; None: the next
    palette colour), labelled ``label`` plus the fitted exponent of the scaling claim
    ``fit``; ``bound``: a claim whose bound is drawn in the same colour, labelled
    ``bound_text`` with the claim's verdict. ``each``: one such series per value of that
    parameter. Every text is a template over the series' first point."""

    where: dict = field(default_factory=dict)
    learner: str | None = None
    label: str = "n_hat"
    fit: str | None = None
    bound: str | None = None
    bound_text: str = "bound"
    smooth: bool = True
    each: str | None = None


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
class Reference:
    """Another theorem's measured learner, from its record in the same output folder
    (drawn when that theorem was run): points matching ``where``, in ``learner``'s style."""

    theorem: str
    where: dict
    learner: str
    label: str


@dataclass(frozen=True)
class Panel:
    """One panel. ``kind`` "n_hat" draws ``series``, ``lines`` and ``references`` against
    ``x``; "scaling", "ceiling" and "mean" draw the claim ``claim`` as the generic plotter
    does. ``each``: one panel per value of that parameter."""

    x: Axis | None = None
    series: tuple[Series, ...] = ()
    lines: tuple[Line, ...] = ()
    references: tuple[Reference, ...] = ()
    where: dict = field(default_factory=dict)
    title: str = ""
    ylabel: str = "n_hat (simultaneous 95% band)"
    yscale: str = "log"
    kind: str = "n_hat"
    claim: str | None = None
    each: str | None = None


@dataclass(frozen=True)
class Figure:
    """A theorem's figure: its panels, size per panel, which intervals its bands are
    (``common.INTERVALS``) and what it shows (after the title). Called as a plotter."""

    panels: tuple[Panel, ...]
    width: float = 6.4
    height: float = 7.0
    intervals: str = "n_hat"
    what: str = ""

    def __call__(self, theorem, record: Record, out):
        panels = [p for panel in self.panels for p in _expand(panel, record)]
        fig, axes = new_figure(max(1, len(panels)), width=self.width, height=self.height)
        for ax, panel in zip(axes, panels):
            draw_panel(ax, theorem, record, panel, out)
        return save(fig, record, out, intervals=self.intervals, what=self.what)


def _expand(panel: Panel, record: Record) -> list[Panel]:
    """The panel, once per value of its ``each`` parameter among the points it selects."""
    if panel.each is None:
        return [panel]
    values = sorted({p.point.get(panel.each) for p in record.select(**panel.where)}, key=_order)
    return [replace(panel, each=None, where={**panel.where, panel.each: v}) for v in values]


def _order(v):
    return (0, v, "") if isinstance(v, (int, float)) else (1, 0, str(v))


def fill(template: str, point: dict) -> str:
    """A label or title template filled from a point ("{alpha}"); a name the point does
    not have stays as written."""
    class Keep(dict):
        def __missing__(self, key):
            return "{" + key + "}"
    return string.Formatter().vformat(template, (), Keep(point))


def draw_panel(ax, theorem, record: Record, panel: Panel, out) -> None:
    """One panel of a ``Figure`` (see ``Panel``)."""
    if panel.kind != "n_hat":
        _claim_panel(ax, theorem, record, panel)
        return
    paper = theorem.id.split(".")[0]
    xs, first = [], None
    for i, series in enumerate(s for spec in panel.series for s in _series(spec, panel, record)):
        pts = record.select(**panel.where, **series.where)
        if not pts:
            continue
        first = first or pts[0].point
        xs += _draw_series(ax, theorem, record, panel.x, series, pts, _style(paper, series.learner, i))
    for ref in panel.references:
        xs += _draw_reference(ax, paper, panel.x, ref, out)
    if first is not None:
        for line in panel.lines:
            grid, values = _along(panel.x, xs)
            bound_line(ax, grid, sweep(line, first, panel.x.param, values), line.color,
                       fn_label(line.fn, fill(line.label, first)), line.style)
    _finish(ax, panel, xs, first or {})


def _series(spec: Series, panel: Panel, record: Record) -> list[Series]:
    """The series, once per value of its ``each`` parameter among the panel's points."""
    if spec.each is None:
        return [spec]
    values = sorted({p.point.get(spec.each) for p in record.select(**panel.where, **spec.where)}, key=_order)
    return [replace(spec, each=None, where={**spec.where, spec.each: v}) for v in values]


def _style(paper: str, learner: str | None, i: int) -> dict:
    """The learner's colour and marker in its paper, else the i-th palette colour."""
    if learner is not None:
        try:
            return learner_style(paper, learner)
        except (KeyError, ImportError, AttributeError):
            pass
    return {"color": PALETTE[i % len(PALETTE)], "marker": "os^vD"[i % 5]}


def _draw_series(ax, theorem, record: Record, axis: Axis, series: Series, pts, style: dict) -> list[float]:
    """A series' band (with its fitted exponent) and its claim's bound in the same colour."""
    p0 = pts[0].point
    if series.learner is not None:
        style = _style(theorem.id.split(".")[0], fill(series.learner, p0), 0) if "{" in series.learner else style
    xs = [axis.value(p.point) for p in pts]
    label = fill(series.label, p0)
    if series.fit:
        v = record.claim(fill(series.fit, p0))
        label += f" ({fit_text(v)})"
    band(ax, xs, pts, style["color"], label, style["marker"])
    if series.bound:
        cid = fill(series.bound, p0)
        text = bound_label(theorem, cid, f"{fill(series.bound_text, p0)} (claim {verdict_text(record.claim(cid))})")
        bound = claim_bound(theorem, cid)
        if series.smooth:
            grid, values = _along(axis, xs)
            bound_line(ax, grid, sweep(bound, p0, axis.param, values), style["color"], text)
        else:
            bound_line(ax, xs, [float(bound(p.point)) for p in pts], style["color"], text)
    return xs


def _along(axis: Axis, xs) -> tuple[np.ndarray, np.ndarray]:
    """Axis values between the smallest and largest measured one, and the parameter at
    each (integers where the parameter is an integer on the measured points)."""
    lo, hi = min(xs), max(xs)
    grid = np.geomspace(lo, hi, SMOOTH) if axis.scale != "linear" and lo > 0 else np.linspace(lo, hi, SMOOTH)
    values = axis.inverse(grid) if axis.inverse is not None else grid
    if axis.of is None and all(float(x).is_integer() for x in xs):
        values = np.unique(np.round(values))
        grid = values
    return grid, values


def _draw_reference(ax, paper: str, axis: Axis, ref: Reference, out) -> list[float]:
    """Another theorem's learner from its record in ``out`` (nothing when it was not run)."""
    other = sibling(out, ref.theorem)
    pts = other.select(**ref.where) if other is not None else []
    if not pts:
        return []
    try:
        st = learner_style(paper, ref.learner)
    except (KeyError, ImportError, AttributeError):
        st = {"color": NONPRIVATE, "marker": "x"}
    xs = [axis.value(p.point) for p in pts]
    band(ax, xs, pts, st["color"], fill(ref.label, pts[0].point), st["marker"])
    return xs


def _finish(ax, panel: Panel, xs, point: dict) -> None:
    from privbounds.figures.ticks import measured_ticks

    axis = panel.x
    if axis.scale == "log2":
        ax.set_xscale("log", base=2)
    elif axis.scale == "log":
        ax.set_xscale("log")
    if panel.yscale != "linear":
        ax.set_yscale(panel.yscale)
    if axis.ticks == "measured" and xs:
        measured_ticks(ax, xs)
    ax.set_xlabel(axis.label or axis.param)
    ax.set_ylabel(panel.ylabel)
    if panel.title:
        ax.set_title(fill(panel.title, point), fontsize=10)
    legend(ax)


def _claim_panel(ax, theorem, record: Record, panel: Panel) -> None:
    """A scaling fit, a success ceiling or a mean bound, drawn as the generic plotter does."""
    from privbounds.figures.curves import ceiling_panel, mean_panel
    from privbounds.figures.generic import scaling_panel

    v = record.claim(panel.claim)
    xlabel = panel.x.label if panel.x is not None else "n"
    if panel.kind == "scaling":
        scaling_panel(ax, v)
    elif panel.kind == "ceiling":
        ceiling_panel(ax, v, xlabel, bound_label(theorem, v.claim, "ceiling"))
    elif panel.kind == "mean":
        mean_panel(ax, v, xlabel, bound_label(theorem, v.claim, "bound"))
    else:
        raise ValueError(f"panel kind must be n_hat, scaling, ceiling or mean, got {panel.kind!r}")
    ax.set_title(fill(panel.title, {}) if panel.title else verdict_text(v), fontsize=10)
