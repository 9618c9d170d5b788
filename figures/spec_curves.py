"""Drawing a declared panel of measured curves (``figures.spec``): success rates under
a ceiling, means under a bound, several claims or groups in one panel, ceilings judged
at one n side by side, and a scaling fit, as the generic plotter draws them. Not tied
to one paper."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from matplotlib.ticker import NullFormatter

from privbounds.figures.common import (
    BOUND_Z,
    LEGEND_FONT,
    PALETTE,
    Band,
    band,
    bound_label,
    bound_line,
    claim_bound,
    fn_label,
    free_colour,
    interval_fill,
    legend,
    shades,
    sweep,
    wrap_title,
)
from privbounds.figures.spec_nhat import _along, _style
from privbounds.figures.spec_parts import Axis, Panel, _order, fill, legend_text
from privbounds.figures.style import SUBJECT, own_scale, tag
from privbounds.record import ClaimResult, Record, fit_text, verdict_text


def _claim_panel(ax, theorem, record: Record, panel: Panel) -> None:
    """A scaling fit, a success ceiling or a mean bound, drawn as the generic plotter does."""
    from privbounds.figures.curves import ceiling_panel, mean_panel

    if _curves_options(panel):
        _curves_panel(ax, theorem, record, panel)
        return
    v = record.claim(panel.claim)
    if panel.kind in ("ceiling", "mean") and (panel.merge or panel.where):
        v = replace(v, details=tuple(d for c in (panel.claim, *panel.merge) for d in record.claim(c).details
                                     if all(d.point.get(k) == val for k, val in panel.where.items())))
    xlabel = panel.x.label if panel.x is not None else "n"
    if panel.x is not None and panel.kind != "scaling" and panel.x.scale != "linear":
        ax.set_xscale("log", **({"base": 2} if panel.x.scale == "log2" else {}))
    if panel.kind == "scaling":
        scaling_panel(ax, v)
    elif panel.kind == "ceiling":
        ceiling_panel(ax, v, xlabel, bound_label(theorem, v.claim, "ceiling"))
    elif panel.kind == "mean":
        mean_panel(ax, v, xlabel, bound_label(theorem, v.claim, "bound"))
    else:
        raise ValueError(f"panel kind must be n_hat, scaling, ceiling or mean, got {panel.kind!r}")
    ax.set_title(fill(panel.title, {}) if panel.title else verdict_text(v), fontsize=10)


def _ceilings_panel(ax, theorem, record: Record, panel: Panel) -> None:
    """Success-ceiling claims judged at one n per setting: each point's rate with its
    simultaneous interval beside its ceiling, the settings side by side (an n axis would
    put them all at one x)."""
    import textwrap

    details = [(cid, d) for cid in panel.ceilings for d in record.claim(cid).details]
    if not details:
        ax.text(0.5, 0.5, "no ceiling points in this run", ha="center", transform=ax.transAxes)
        return
    x = np.arange(len(details))
    p = np.array([d.p_hat for _, d in details])
    lo, hi = np.array([d.p_low for _, d in details]), np.array([d.p_high for _, d in details])
    ceilings = [d.ceiling for _, d in details]
    ax.errorbar(x, p, yerr=[p - lo, hi - p], fmt="o", color=PALETTE[0], capsize=4,
                label="measured rate (simultaneous interval of the claim)")
    # each claim's own ceiling, marked where any of the claims' constants are ours
    marked = [bound_label(theorem, cid, "the claim's ceiling") for cid in panel.ceilings]
    ax.plot(x, ceilings, "_", color="k", markersize=22, markeredgewidth=2,
            label=max(marked, key=len))
    many = len(panel.ceilings) > 1
    ax.set_xticks(x, [(f"{cid}: " if many else "") + ", ".join(str(d.point.get(k)) for k in panel.labels)
                      for cid, d in details], rotation=35, ha="right", fontsize=LEGEND_FONT)
    # headroom above the data for the legend (below, it would collide with the rotated labels)
    ax.set_ylim(-0.01, max(0.2, float(np.max(ceilings)) * 1.3, float(np.max(hi)) * 1.5))
    ax.set_ylabel(panel.ylabel)
    ax.set_title(textwrap.fill(fill(panel.title, {}), 75), fontsize=10)
    if panel.why:
        own_scale(ax, ax.get_yscale(), panel.why)
    ax.legend(fontsize=LEGEND_FONT, loc="upper right", ncol=2)


BOUND_STYLES = ("--", ":", "-.", (0, (5, 1)))  # the bounds of a panel's claims, in order


def _curves_options(panel: Panel) -> bool:
    return panel.kind in ("mean", "ceiling") and bool(panel.group or panel.curves or panel.reduce or panel.rows)


def _matches(point, where: dict) -> bool:
    return point is not None and all(point.get(k) == v for k, v in where.items())


def _sources(panel: Panel, record: Record) -> list:
    """(claim or None, its details or rows matching the panel's ``where``, Rows or None)."""
    out = [(record.claim(c), [d for d in record.claim(c).details if _matches(d.point, panel.where)], None)
           for c in (panel.curves or ((panel.claim,) if panel.claim else ()))]
    return out + [(None, [r for r in record.rows if _matches(r, {**panel.where, **s.where})], s) for s in panel.rows]


def _expand_curves(panel: Panel, record: Record) -> list[Panel]:
    """A mean or ceiling panel once per value of ``each`` among its claims' details and rows."""
    keys = panel.each if isinstance(panel.each, tuple) else (panel.each,)  # a tuple: every combination
    points = [d.point if v is not None else d for v, ds, _ in _sources(panel, record) for d in ds]
    values = sorted({tuple(p.get(k) for k in keys) for p in points}, key=lambda t: tuple(map(_order, t)))
    return [replace(panel, each=None, where={**panel.where, **dict(zip(keys, t))}) for t in values]


def _curve(axis: Axis, kind: str, v, ds, rows) -> list[tuple]:
    """(x, value, low, high, bound, point) of a claim's details or of rows, sorted by x."""
    if rows is not None:
        top = rows.stat == "max"
        pts = [(r[rows.stat], None if top else r["ci_low"], None if top else r["ci_high"], None, r) for r in ds]
    elif kind == "ceiling":
        pts = [(d.p_hat, d.p_low, d.p_high, d.ceiling, d.point) for d in ds]
    else:
        top = v.statistic == "max"
        pts = [(d.value, None if top else d.low, None if top else d.high, d.bound, d.point) for d in ds]
    return sorted(((axis.value(p[-1]), *p) for p in pts), key=lambda t: t[0])


def _largest(curve: list[tuple]) -> list[tuple]:
    """At each x, the entry with the largest value (the worst over the parameters not drawn)."""
    best = {}
    for t in curve:
        if t[0] not in best or t[1] > best[t[0]][1]:
            best[t[0]] = t
    return [best[x] for x in sorted(best)]


def _group_styles(theorem, record: Record, panel: Panel, key) -> tuple[dict, dict]:
    """(colour, marker style) of each group of a curves panel: the figure's colour of the
    group, or a learner's own (shades of it for learners of one hue)."""
    every = {key(d.point) for c in (panel.curves or (panel.claim,)) if c for d in record.claim(c).details}
    every = sorted(every | {key(r) for s in panel.rows for r in record.rows if _matches(r, s.where)},
                   key=lambda k: tuple(map(_order, k)))
    # a group's colour is the figure's, from panel to panel (rows-only panels: by their labels)
    own = panel.group or tuple(r.label for r in panel.rows) or (panel.measured,)
    colour = {k: free_colour(i, (own, k)) for i, k in enumerate(every)}
    mark = {}
    if panel.group == ("learner",):  # curves of the paper's learners: in their own colours
        mark = {k: _style(theorem.id.split(".")[0], str(k[0]), i) for i, k in enumerate(every)}
        for col in {st["color"] for st in mark.values()}:  # learners of one hue (a base and its variant): shades
            ks = [k for k in every if mark[k]["color"] == col]
            mark.update({k: {**mark[k], "color": c2} for k, c2 in zip(ks, shades(col, 2 * len(ks) - 1))} if len(ks) > 1 else {})
        colour.update({k: st["color"] for k, st in mark.items()})
    return colour, mark


def _curves_panel(ax, theorem, record: Record, panel: Panel) -> None:
    """Mean-bound or success-ceiling claims and measured rows against the panel's axis: one
    colour per value of ``group`` (the same in every panel of the figure, its legend naming
    only the grouping parameters), each claim's bound in that colour and its own line style."""
    from privbounds.claims import combine

    axis, sources = panel.x or Axis("n", "n", "log"), _sources(panel, record)
    key = lambda p: tuple(p.get(k) for k in panel.group)  # noqa: E731
    colour, mark = _group_styles(theorem, record, panel, key)
    groups = sorted({key(p) for v, ds, _ in sources for p in (d.point if v else d for d in ds)},
                    key=lambda k: tuple(map(_order, k)))
    varying = {k for i, k in enumerate(panel.group) if len({g[i] for g in groups}) > 1}
    drawn, keyed, curves, first = set(), {}, [], None
    for i, (v, ds, rows) in enumerate(sources):
        for g in groups:
            c = _curve(axis, panel.kind, v, [d for d in ds if key(d.point if v else d) == g], rows)
            if c:
                curves.append((i, v, rows, g, _largest(c) if panel.reduce == "max" else c))
                first = first or c[0][-1]
    vals = [y for *_, c in curves for t in c for y in t[1:5] if y is not None and np.isfinite(y) and y > 0]
    log = panel.yscale == "log" and bool(vals)
    # the floor: a decade under the smallest positive measured value or upper end (a zero count's
    # band then rises from just under the data, not from 12 decades down), and at most 12
    # decades under the largest value (exact bounds reach 1e-270): what lies under it is drawn on it
    seen = [y for *_, c in curves for t in c for y in (t[1], t[3]) if y is not None and np.isfinite(y) and y > 0]
    floor = max(min(seen, default=0) / 10, max(vals) * 1e-12) if log else -np.inf
    clip = lambda ys: np.maximum(np.array([np.nan if y is None else y for y in ys], float), floor)  # noqa: E731
    several = len({cv[3] for cv in curves if cv[1] is not None} or groups) > 1  # the claims' curves, else rows'
    at = {}  # a claim's bound at each x: the same for every curve, it is drawn once, in black
    for i, v, _, _, c in curves:
        for t in c if v is not None else ():
            at.setdefault(i, {}).setdefault(t[0], set()).add(t[4])
    shared = {i for i, m in at.items() if len({cv[3] for cv in curves if cv[0] == i}) > 1
              and all(len(b) == 1 for b in m.values())}
    for i, v, rows, g, c in curves:
        x = np.array([t[0] for t in c], float) * (1 + panel.dodge * groups.index(g))
        # a grouping parameter that takes one value in the panel is said once, in its title
        name = ", ".join(f"{k}={val}" for k, val in zip(panel.group, g) if val is not None and k in varying)
        color = colour[g] if rows is None or rows.color is None else (
            PALETTE[rows.color] if isinstance(rows.color, int) else rows.color)
        what = rows.label if rows else panel.measured or (
            "measured" if panel.kind == "ceiling" else "largest measured" if v.statistic == "max" else "measured mean")
        label = legend_text(what, c[0][-1]) if "{" in what else what + (f", {name}" if several and name else "")
        full = ", ".join(f"{k}={val}" for k, val in zip(panel.group, g) if val is not None)
        subject = str(g[0]) if panel.group == ("learner",) else full or label  # its colour's meaning
        if not {(g, t[0], t[1]) for t in c} <= drawn:  # a claim's measured values drawn by another: once
            drawn |= {(g, t[0], t[1]) for t in c}
            if c[0][2] is not None:
                interval_fill(ax, x, clip(t[2] for t in c), clip(t[3] for t in c), color=color, alpha=0.22,
                                    linewidth=0)
            tag(ax.plot(x, clip(t[1] for t in c), color=color, linestyle=rows.style if rows else "-", markersize=4,
                        marker=rows.marker if rows else mark[g]["marker"] if panel.group == ("learner",)
                        else "os^v"[i % 4], label=label), SUBJECT + subject)
            if panel.marks:
                ax.axvline(float(claim_bound(theorem, panel.marks)(c[0][-1])), color=color, linestyle="--", linewidth=1)
        if v is not None and i not in shared:
            text = _bound_text(theorem, panel, i, v, c[0][-1])
            tag(ax.plot(x, clip(t[4] for t in c), linestyle=BOUND_STYLES[i % 4], color=color, linewidth=1.6,
                        label=None if several else text, zorder=BOUND_Z), SUBJECT + subject)
            if several:  # one key per claim, after the curves: its line style, in each curve's colour
                keyed[i] = text
    for i, text in keyed.items():
        ax.plot([], [], linestyle=BOUND_STYLES[i % 4], color="k", label=f"{text} (in each curve's colour)")
    for i, v, _, _, c in [next(cv for cv in curves if cv[0] == i) for i in sorted(shared)]:
        x = sorted(at[i])
        ax.plot(x, clip(next(iter(at[i][xx])) for xx in x), linestyle=BOUND_STYLES[i % 4], color="k",
                linewidth=1.6, zorder=BOUND_Z, label=_bound_text(theorem, panel, i, v, c[0][-1]))
    if panel.marks and curves:
        ax.plot([], [], "--", color="0.4", label=bound_label(theorem, panel.marks, "dashed: the lower bound at each "
                f"curve, same colour (claim {verdict_text(record.claim(panel.marks))})"))
    held = {k: groups[0][i] for i, k in enumerate(panel.group) if k not in varying and groups and groups[0][i] is not None
            and len({p.point.get(k) for p in record.points} | {r.get(k) for r in record.rows if k in r}) > 1}
    _curves_finish(ax, panel, axis, curves, first, floor, sources, combine, held)


def _bound_text(theorem, panel: Panel, i: int, v, point) -> str:
    text = panel.bound_texts[i] if i < len(panel.bound_texts) else "ceiling" if panel.kind == "ceiling" else "bound"
    return bound_label(theorem, v.claim, fill(text, point))


def _curves_finish(ax, panel: Panel, axis: Axis, curves, first, floor, sources, combine, held=None) -> None:
    """Lines, scales, labels and title of a ``_curves_panel``."""
    from privbounds.figures.ticks import measured_ticks

    xs = [t[0] for *_, c in curves for t in c]
    if first is not None:
        for line in panel.lines:
            grid, values = _along(axis, xs)
            bound_line(ax, grid, sweep(line, first, axis.param, values), line.color,
                       fn_label(line.fn, fill(line.label, first)), line.style)
    if axis.scale != "linear":
        ax.set_xscale("log", **({"base": 2} if axis.scale == "log2" else {}))
    why = panel.why
    if np.isfinite(floor):
        ax.set_yscale("log")
    elif panel.yscale == "log" and curves:  # drawn linear, and the panel says why
        why = "no positive value to draw on a log scale"
    if panel.ylim:
        ax.set_ylim(*panel.ylim)
    if axis.ticks == "measured" and xs:
        measured_ticks(ax, xs)
    ax.set_xlabel(axis.label or axis.param)
    claims = [v for v, _, rows in sources if v is not None]
    ylabel = panel.ylabel if panel.ylabel != Panel.ylabel else (
        claims[0].quantity if claims and claims[0].quantity else "probability of the bounded event"
        if panel.kind == "ceiling" else "measured value")
    low = any(y is not None and y < floor for *_, c in curves for t in c for y in t[1:2])
    ax.set_ylabel(ylabel + (f" (under {floor:.0e}: on the floor)" if low else ""))
    where = ", ".join(f"{k}={v}" for k, v in {**panel.where, **(held or {})}.items())
    verdicts = (f"{where}: " if where else "") + "; ".join(  # a title template's "{verdict}"
        f"{v.claim}: {_part_verdict(v, ds, combine)}" for v, ds, _ in sources if v is not None)
    ax.set_title(wrap_title(ax, fill(panel.title, {**(first or {}), "verdict": verdicts}) if panel.title
                            else verdicts), fontsize=9)
    if why:
        own_scale(ax, ax.get_yscale(), why)
    legend(ax)


def _part_verdict(v, ds, combine) -> str:
    """The verdict of the points a panel shows of a claim: the claim's own when it shows
    them all; else their points' verdicts combined, with the claim's own rule that a
    refuted printed form is an erratum (a point never carries it)."""
    if len(ds) == len(v.details):
        return v.verdict
    part = combine([d.verdict for d in ds])
    return "erratum" if part == "refuted" and v.verdict == "erratum" else part


def scaling_panel(ax, v: ClaimResult):
    """A scaling claim: n_hat (divided by the claim's factor, if any) against its
    variable, log-log, with the fitted power law and the predicted slope."""
    details = v.details
    if not details or v.fit is None:
        ax.text(0.5, 0.5, f"no fit: {v.reason or ''}", ha="center", transform=ax.transAxes, wrap=True)
        return
    x = np.array([d.x for d in details], float)
    f = np.array([d.factor for d in details], float)
    pts = [Band(d.n_hat / fi, d.n_low / fi, d.n_high / fi) for d, fi in zip(details, f)]
    band(ax, x, pts, PALETTE[0], fit_text(v))
    y = np.array([p.n_hat for p in pts], float)
    # the fitted power law through the points' geometric centre, and the predicted slope
    cx, cy = np.exp(np.mean(np.log(x))), np.exp(np.mean(np.log(y)))
    xx = np.geomspace(x.min(), x.max(), 30)
    ax.plot(xx, cy * (xx / cx) ** v.fit.exponent, "-", color="gray", linewidth=1, label="fitted power law")
    ax.plot(xx, cy * (xx / cx) ** v.predicted, ":", color="k", linewidth=1.4,
            label=f"predicted exponent {v.predicted:g}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    if x.max() / x.min() < 10:  # less than a decade: label the measured x values, not log minors
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xticks(sorted(set(x)), [f"{v:.3g}" for v in sorted(set(x))])
    ax.set_xlabel(v.variable)
    ax.set_ylabel(f"n_hat / ({v.divided_by})" if v.divided_by else "n_hat")
    legend(ax)
