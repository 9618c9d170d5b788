"""Drawing a declared panel of n_hat (``figures.spec``): each series's band in its
learner's style, its claim's bound swept between the measured points, other theorems'
learners, lines for scale, slope guides, and the axes. Not tied to one paper."""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import replace

import numpy as np

from privbounds.figures.common import (
    BOUND_Z,
    MARKERS,
    NONPRIVATE,
    band,
    bound_label,
    bound_line,
    claim_bound,
    fn_label,
    free_colour,
    learner_style,
    legend,
    shades,
    sibling,
    sweep,
    wrap_title,
)
from privbounds.figures.context import scoped
from privbounds.figures.spec_parts import (
    SMOOTH,
    Axis,
    Panel,
    Reference,
    Series,
    Slope,
    _order,
    fill,
    legend_text,
)
from privbounds.figures.style import PART, SUBJECT, own_scale, tag
from privbounds.record import Record, fit_text, verdict_text


def nhat_panel(ax, theorem, record: Record, panel: Panel, out) -> None:
    """A panel of kind "n_hat" (see ``Panel``)."""
    paper = theorem.id.split(".")[0]
    drawn = [(s, pts) for spec in panel.series for s in _series(spec, panel, record)
             if len(pts := _points(record, panel, s)) >= max(1, s.least)]
    styles = _styles(paper, [fill(s.learner, pts[0].point) if s.learner else None for s, pts in drawn],
                     [legend_text(s.label, pts[0].point) for s, pts in drawn])
    xs, first = [], drawn[0][1][0].point if drawn else None
    for (series, pts), style in zip(drawn, styles):
        xs += _draw_series(ax, theorem, record, panel.x, series, pts, style)
    for ref in panel.references:
        xs += _draw_reference(ax, paper, panel.x, ref, out)
    if first is not None and xs and (panel.lines or panel.claims):
        grid, values = _along(panel.x, xs)
        for line in panel.lines:
            bound_line(ax, grid, sweep(line, first, panel.x.param, values), _color(paper, line.color),
                       fn_label(line.fn, fill(line.label, first)), line.style)
        for c in panel.claims:
            text = bound_label(theorem, c.claim, f"{fill(c.text, first)} (claim {verdict_text(record.claim(c.claim))})")
            bound_line(ax, grid, sweep(claim_bound(theorem, c.claim), first, panel.x.param, values),
                       _color(paper, c.color), text, c.style)
    for slope in panel.slopes:
        _draw_slope(ax, record, panel, slope)
    # a fit has no line of its own: it goes under the panel's title, not into the legend
    fits = [f"fit: {fit_text(record.claim(fill(f, first or {})))}" for f in panel.fits]
    _finish(ax, panel, xs, first or {}, fits)


def _draw_slope(ax, record: Record, panel: Panel, slope: Slope) -> None:
    """The guide x^exponent through the last measured point of ``slope.where``, from x = 1."""
    pts = [p for p in record.select(**panel.where, **slope.where) if p.n_hat]
    if not pts:
        return
    top = max(pts, key=lambda p: panel.x.value(p.point))
    x_top = panel.x.value(top.point)
    xx = np.geomspace(1, x_top, 30)
    ax.plot(xx, top.n_hat * (xx / x_top) ** slope.exponent, linestyle=slope.style, color="gray",
            label=fill(slope.label, top.point))


def _points(record: Record, panel: Panel, series: Series) -> list:
    """A series' points: the record's that match, or those its claim judged (``of``)."""
    if series.of is None:
        return record.select(**panel.where, **series.where)
    want = {**panel.where, **series.where}
    return [d for d in record.claim(series.of).details
            if d.point is not None and all(d.point.get(k) == v for k, v in want.items())]


def _series(spec: Series, panel: Panel, record: Record) -> list[Series]:
    """The series, once per value of its ``each`` parameter among the panel's points."""
    if spec.each is None:
        return [spec]
    values = sorted({p.point.get(spec.each) for p in record.select(**panel.where, **spec.where)}, key=_order)
    return [replace(spec, each=None, where={**spec.where, spec.each: v}) for v in values]


def _style(paper: str, learner: str | None, i: int, label: str | None = None) -> dict:
    """The learner's colour and marker in its paper, else the figure's colour of the
    series' label (``free_colour``)."""
    if learner is not None:
        try:
            return learner_style(paper, learner)
        except (KeyError, ImportError, AttributeError):
            pass
    return {"color": free_colour(i, label), "marker": MARKERS[i % len(MARKERS)]}


def _color(paper: str, color: str):
    """A colour, or the colour of a learner the paper's ``LEARNERS`` names."""
    try:
        return learner_style(paper, color)["color"]
    except (KeyError, ImportError, AttributeError):
        return color


_PLAN: ContextVar[dict | None] = ContextVar("privbounds_shade_plan", default=None)


def shade_plan(record: Record, panels) -> dict:
    """For each learner drawn as several series in one panel: the labels of those series
    across the whole figure, in order, so that a label keeps its shade from panel to panel
    (``_styles``), and no shade names two settings."""
    plan = {}
    for panel in panels:
        if panel.kind != "n_hat":
            continue
        drawn = [(s, pts) for spec in panel.series for s in _series(spec, panel, record)
                 if len(pts := _points(record, panel, s)) >= max(1, s.least)]
        names = [fill(s.learner, pts[0].point) if s.learner else None for s, pts in drawn]
        for (s, pts), name in zip(drawn, names):
            label = legend_text(s.label, pts[0].point)
            if name is not None and names.count(name) > 1 and label not in plan.setdefault(name, []):
                plan[name].append(label)
    return plan


def planned(plan: dict):
    """While one figure is drawn: its ``shade_plan``."""
    return scoped(_PLAN, plan)


def _styles(paper: str, learners: list, labels=None) -> list[dict]:
    """A style per series: its learner's (a learner drawn once in a panel stands for the
    learner, in its colour in the whole paper); several series of one learner in a panel
    keep the learner's hue in ``shades`` of it, each with its own marker (apart in
    greyscale too), one shade per label in the whole figure (``shade_plan``)."""
    labels = labels or [None] * len(learners)
    out = [{**_style(paper, name, i, label), "subject": name} for i, (name, label) in enumerate(zip(learners, labels))]
    plan = _PLAN.get() or {}
    for name in {n for n in learners if n is not None and learners.count(n) > 1}:
        where = [i for i, n in enumerate(learners) if n == name]
        base = out[where[0]]
        markers = [base["marker"]] + [m for m in MARKERS if m != base["marker"]]
        order = plan.get(name) or [labels[i] if labels[i] is not None else j for j, i in enumerate(where)]
        tones = shades(base["color"], len(order))
        for j, i in enumerate(where):
            k = order.index(labels[i]) if labels[i] is not None and labels[i] in order else j
            out[i] = {"color": tones[k % len(tones)], "marker": markers[k % len(markers)], "learner": name}
    return out


def _draw_series(ax, theorem, record: Record, axis: Axis, series: Series, pts, style: dict) -> list[float]:
    """A series' band (with its fitted exponent) and its claim's bound in the same colour."""
    p0 = pts[0].point
    xs = [axis.value(p.point) for p in pts]
    label = base = legend_text(series.label, p0)
    if series.fit:
        v = record.claim(fill(series.fit, p0))
        label += f" ({fit_text(v)})"
    # one colour in the whole figure: a learner's, or (shades of it) one setting's
    subject = style.get("subject") or PART.join(filter(None, [style.get("learner"), base]))
    band(ax, xs, pts, style["color"], label, style["marker"], subject=subject)
    if series.bound:
        cid = fill(series.bound, p0)
        text = bound_label(theorem, cid, f"{legend_text(series.bound_text, p0)} (claim {verdict_text(record.claim(cid))})")
        bound = claim_bound(theorem, cid)
        if series.smooth:
            grid, values = _along(axis, xs)
            ys = sweep(bound, p0, axis.param, values)
        else:
            grid, ys = xs, [float(bound(p.point)) for p in pts]
        ys = np.where(np.asarray(ys, float) > 0, ys, np.nan)  # a bound n <= 0 says nothing (and log axes drop it)
        # the learner's marker hollow along its bound keeps two learners' coinciding bounds apart
        marker = {"marker": style["marker"], "markerfacecolor": "none", "markevery": max(1, len(grid) // 5)} \
            if series.bound_marker else {}
        order = np.argsort(grid)
        drawn = ax.plot(np.asarray(grid)[order], np.asarray(ys)[order], "--", color=style["color"], label=text,
                        linewidth=1.6, zorder=BOUND_Z, **marker)
        tag(drawn, SUBJECT + subject)
    return xs


def _along(axis: Axis, xs) -> tuple[np.ndarray, np.ndarray]:
    """Axis values between the smallest and largest measured one, and the parameter at
    each (integers where the parameter is an integer on the measured points)."""
    if axis.of is not None and axis.inverse is None:  # a parameter cannot be read back off such an axis
        raise ValueError(f"axis {axis.label or axis.param!r} computes its value with `of` but has no `inverse`: "
                         "a bound or line cannot be swept along it (give `inverse`, or `smooth=False`)")
    lo, hi = min(xs), max(xs)
    grid = np.geomspace(lo, hi, SMOOTH) if axis.scale != "linear" and lo > 0 else np.linspace(lo, hi, SMOOTH)
    values = axis.inverse(grid) if axis.inverse is not None else grid
    if axis.of is None and all(float(x).is_integer() for x in xs):
        values = np.unique(np.round(values)).astype(int)  # a bound may refuse d = 10.0
        grid = values
    return grid, values


def worst_points(points, over="dist") -> list:
    """One point per setting of the parameters other than ``over`` (a name or names): the
    worst, with its interval and censoring as the claims judge it
    (``privbounds.claims.worst_case``); a censored worst keeps the largest lower end of its
    group, drawn as an arrow up."""
    from privbounds.claims import worst_case

    over = (over,) if isinstance(over, str) else tuple(over)
    lent = [{"point": p.point, "n_hat": p.n_hat, "n_low": p.n_low, "n_high": p.n_high,
             "floor_reached": p.floor_reached, "of": p} for p in points]
    out = []
    for w in worst_case(lent, over):
        low = w["n_low"]
        if w["n_hat"] is None:  # censored: the worst is at least the largest lower end
            key = {k: v for k, v in w["point"].items() if k not in over}
            lows = [p.n_low for p in points if p.n_low and all(p.point.get(k) == v for k, v in key.items())]
            low = max(lows, default=None)
        out.append(replace(w["of"], n_hat=w["n_hat"], n_low=low, n_high=w["n_high"],
                           floor_reached=bool(w["floor_reached"])))
    return out


def _draw_reference(ax, paper: str, axis: Axis, ref: Reference, out) -> list[float]:
    """Another theorem's learner from its record in ``out`` (nothing when it was not run)."""
    other = sibling(out, ref.theorem)
    pts = other.select(**ref.where) if other is not None else []
    if ref.worst and pts:
        pts = worst_points(pts, ref.worst)
    if not pts:
        return []
    try:
        st = learner_style(paper, ref.learner)
    except (KeyError, ImportError, AttributeError):
        st = {"color": NONPRIVATE, "marker": "x"}
    xs = [axis.value(p.point) for p in pts]
    fit = f" ({fit_text(other.claim(ref.fit))})" if ref.fit else ""
    subject = fill(ref.label, pts[0].point)
    band(ax, xs, pts, st["color"], subject + fit, st["marker"], subject=subject)
    if ref.bound:
        from privbounds.registry import get

        thm = get(ref.theorem)
        text = f"{fill(ref.bound_text, pts[0].point)} ({ref.theorem} claim {verdict_text(other.claim(ref.bound))})"
        grid, values = _along(axis, xs)
        bound_line(ax, grid, sweep(claim_bound(thm, ref.bound), pts[0].point, axis.param, values), st["color"],
                   bound_label(thm, ref.bound, text), subject=subject)
    return xs


def _finish(ax, panel: Panel, xs, point: dict, notes=()) -> None:
    from privbounds.figures.ticks import measured_ticks

    axis = panel.x
    if axis.scale == "log2":
        ax.set_xscale("log", base=2)
    elif axis.scale == "log":
        ax.set_xscale("log")
    if panel.yscale != "linear":
        ax.set_yscale(panel.yscale)
    if axis.ticks == "measured" and xs:  # only where the default ticks would leave the axis bare
        measured_ticks(ax, xs)
    ax.set_xlabel(axis.label or axis.param)
    ax.set_ylabel(panel.ylabel)
    title = "\n".join([fill(panel.title, point)] * bool(panel.title) + list(notes))
    if title:
        ax.set_title(wrap_title(ax, title), fontsize=10)
    if panel.why:
        own_scale(ax, ax.get_yscale(), panel.why)
    legend(ax)
