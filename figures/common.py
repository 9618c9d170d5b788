"""Shared drawing helpers: the measured n_hat with its interval band over a bound.

Not tied to one paper. Uses the non-interactive Agg backend so that figures can be
drawn on machines without a display (CI, worker nodes).
"""

from __future__ import annotations

import fnmatch
import textwrap
import warnings
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import seaborn as sns  # noqa: E402

from privbounds.figures.context import scoped
from privbounds.figures.layout import MAX_WIDTH  # noqa: E402
from privbounds.figures.style import (  # noqa: E402
    BAND,
    DPI,
    OPEN,
    OPEN_ABOVE,
    OPEN_BELOW,
    SUBJECT,
    bounds_under,
    explain_scales,
    interleave,
    mark_lone_points,
    tag,
)
from privbounds.figures.ticks import plain_log_ticks  # noqa: E402
from privbounds.record import ClaimResult, PointResult, Record, verdict_summary  # noqa: E402

sns.set_theme(style="whitegrid", context="notebook")
# re-exported: the plotters take the palette and the learners' styles from here
from privbounds.figures.colours import (  # noqa: E402, F401
    MARKERS,
    NONPRIVATE,
    PALETTE,
    free_colour,
    learner_style,
    learners_colours,
    reserved,
    shade,
    shades,
)

# The report shows figures at most about 1100 px wide; a figure wider than MAX_WIDTH inches
# (at the DPI it is saved with) would be shrunk until its legends are unreadable, so
# panels wrap onto rows of at most MAX_COLS.
MAX_COLS = 2
BOUND_Z = 1.9  # bounds under measured lines (zorder 2), over the interval bands (1)


def new_figure(ncols: int = 1, width: float = 6.4, height: float = 4.6):
    """``ncols`` panels, at most ``MAX_COLS`` to a row (more wrap onto further rows); the
    axes in reading order. Unused cells of the last row are hidden."""
    cols = min(ncols, MAX_COLS)
    rows = -(-ncols // cols)
    width = min(width, MAX_WIDTH / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False)
    flat = [ax for row in axes for ax in row]
    for ax in flat[ncols:]:
        ax.set_visible(False)
        fig.delaxes(ax)
    return fig, flat[:ncols]


def fn_label(fn, text: str) -> str:
    """A legend label for a line drawn from a bound function of ``privbounds.bounds``,
    marked when its constants are our reconstruction rather than the paper's (the same
    tag the report's badges read)."""
    from privbounds.bounds._meta import origin

    if fn is not None and origin(getattr(fn, "source", "")) == "reconstructed":
        return f"{text} [reconstructed constants]"
    return text


def bound_label(theorem, claim_id: str, text: str) -> str:
    """A legend label for the bound of one of the theorem's claims (``fn_label``)."""
    return fn_label(getattr(claim_bound(theorem, claim_id), "fn", None), text)


class Band(NamedTuple):
    """An n_hat with its interval, for a band a plotter computes itself (divided by a
    factor, say); a record's ``PointResult`` and ``Detail`` have the same fields."""

    n_hat: float | None
    n_low: float | None
    n_high: float | None
    floor_reached: bool | None = False


def band(ax, x, points, color, label, marker="o", subject: str | None = None):
    """n_hat markers with the interval as a light shaded band (light enough that
    overlapping bands stay readable); an open upper end (target never reached on the
    grid) is drawn as an arrow up (``style.OPEN_ABOVE``), and a search that succeeded down
    to the smallest n the learner runs at (``floor_reached``: n_hat is at most that n, not
    a crossing) as an arrow down: the one way every figure draws censored points, which
    the report's key explains. ``points``: records' points or details, or ``Band``s;
    ``subject``: what the series stands for (``style.tag``), so that the figure's checks
    can tell that its colour means one thing."""
    x = np.asarray(x, float)
    order = np.argsort(x)
    x = x[order]
    pts = [points[i] for i in order]
    nh = np.array([p.n_hat if p.n_hat is not None else np.nan for p in pts], float)
    lo = np.array([p.n_low if p.n_low is not None else np.nan for p in pts], float)
    hi = np.array([p.n_high if p.n_high is not None else np.nan for p in pts], float)
    interval_fill(ax, x, lo, np.where(np.isnan(hi), lo, hi), color=color, alpha=0.18)
    # hollow markers for the second series so that coinciding curves stay visible
    face = "none" if marker != "o" else color
    drawn = ax.plot(x, nh, "-", marker=marker, color=color, label=label, markersize=6, markerfacecolor=face)
    if subject is not None:
        tag(drawn, SUBJECT + subject)
    _open_ends(ax, x, lo, np.isnan(hi) & ~np.isnan(lo), OPEN_ABOVE, color, f"{label}: not reached by")
    at_floor = np.array([bool(p.floor_reached) for p in pts]) & ~np.isnan(lo)
    _open_ends(ax, x, lo, at_floor, OPEN_BELOW, color, f"{label}: succeeds already at its smallest n,")


def interval_fill(ax, x, low, high, **kw):
    """An interval band (a measurement's confidence interval), the one kind of shaded area
    a figure may draw over measured points (``style.BAND``)."""
    fill = ax.fill_between(x, low, high, **{"linewidth": 0, **kw})
    tag(fill, BAND)
    return fill


def _open_ends(ax, x, lo, where, glyph: str, color, text: str) -> None:
    """Censored points at their known end ``lo``: one glyph for an open upper end, one for
    success at the smallest n, in the series' colour."""
    if not where.any():
        return
    ends = sorted({int(v) for v in lo[where]})
    at = f"n = {ends[0]}" if len(ends) == 1 else f"n = {ends[0]} to {ends[-1]}"
    dots = ax.scatter(x[where], lo[where], marker=glyph, s=90, color=color, zorder=5, label=f"{text} {at}")
    tag(dots, OPEN + ("above" if glyph == OPEN_ABOVE else "below"))


def bound_line(ax, x, y, color, label, style="--", subject: str | None = None):
    """A bound along x, dashed, under every measured curve (zorder below a line's 2), so
    that a measured curve lying on its bound stays visible."""
    order = np.argsort(x)
    drawn = ax.plot(np.asarray(x)[order], np.asarray(y)[order], style, color=color, label=label, linewidth=1.6,
                    zorder=BOUND_Z)
    if subject is not None:
        tag(drawn, SUBJECT + subject)


LEGEND_FONT = 9


def legend(ax, sort: bool = False, ncol: int = 1, title: str = ""):
    """Legend below the axes, so it never hides the data (optionally sorted by label);
    each label wrapped to the width of the panel's cell, since a legend wider than its
    cell would leave the figure; ``save`` makes the figure tall enough for it."""
    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return
    if sort:
        labels, handles = zip(*sorted(zip(labels, handles), key=lambda t: t[0]))
    spec = ax.get_subplotspec()
    ncols = spec.get_gridspec().ncols if spec is not None else 1
    chars = max(40 // ncol, int(ax.figure.get_figwidth() / ncols / ncol * 9.5))
    labels = ["\n".join(textwrap.fill(part, chars, subsequent_indent="  ") for part in t.split("\n"))
              for t in labels]
    lg = ax.legend(handles, labels, fontsize=LEGEND_FONT, loc="upper center", bbox_to_anchor=(0.5, -0.14),
                   ncol=ncol, frameon=False, title=title or None, title_fontsize=LEGEND_FONT)
    lg._privbounds_below = True  # ``save`` moves it to just under the axis label


def wrap_title(ax, title: str, size: float = 10) -> str:
    """``title`` wrapped, line by line, to the width of its panel's cell."""
    spec = ax.get_subplotspec()
    ncols = spec.get_gridspec().ncols if spec is not None else 1
    chars = max(30, int(ax.figure.get_figwidth() / ncols * 115 / size))
    return "\n".join(textwrap.fill(line, chars) for line in title.split("\n"))


def _place_legends(fig) -> None:
    """Put each legend drawn by ``legend`` just under its axes' tick labels and axis label
    (a fixed offset in axes fraction would overlap them on a short panel)."""
    renderer = fig.canvas.get_renderer()
    for ax in fig.axes:
        lg = ax.get_legend()
        if lg is None or not getattr(lg, "_privbounds_below", False) or ax.bbox.height <= 0:
            continue
        try:  # the x axis's tick labels and label: all that lies under the axes
            box = ax.xaxis.get_tightbbox(renderer)
        except ValueError:  # e.g. a log axis with nothing drawn: leave the legend where it is
            continue
        low = min(box.y0, ax.bbox.y0) if box is not None else ax.bbox.y0
        pad = 4 * fig.dpi / 72
        lg.set_bbox_to_anchor((0.5, (low - pad - ax.bbox.y0) / ax.bbox.height), transform=ax.transAxes)


def claim_bound(theorem, claim_id: str):
    """The bound of one of the theorem's own claims (a ``claims.BoundRef``): figures draw
    it rather than restating the formula, so the figure shows exactly what was judged."""
    for c in theorem.claims:
        if c.id == claim_id:
            return c.bound
    raise KeyError(f"{theorem.id} has no claim {claim_id!r}")


def sweep(bound, point: dict, axis: str, values) -> np.ndarray:
    """A bound along one parameter: ``bound`` at ``point`` with ``axis`` set to each value
    (e.g. a smooth curve over k between the measured points)."""
    return np.array([bound({**point, axis: v.item() if hasattr(v, "item") else v}) for v in values], float)


def select(record: Record, **kw) -> list[PointResult]:
    """The record's points whose parameters take these values (``Record.select``)."""
    return record.select(**kw)


def verdict(record: Record, claim: str) -> ClaimResult:
    """One claim's result (``Record.claim``)."""
    return record.claim(claim)




INTERVALS = {
    "n_hat": "bands: simultaneous 95% intervals of n_hat",
    "rates": "bands: 95% Clopper-Pearson intervals of each rate",
    "ceilings": "bands: simultaneous 95% Clopper-Pearson intervals",
    "means": "bands: simultaneous 95% Student-t intervals of each mean; worst cases drawn as the largest value",
    "pointwise means": "bands: 95% Student-t intervals of each mean",
    "mixed": "bands: simultaneous 95% intervals of what each panel measures (n_hat, a probability or a mean)",
}


def fixed_names(record: Record) -> dict:
    """The parameters every point of the record shares (not lists or dicts), with their value."""
    points = [p.point for p in record.points]
    if not points:
        return {}
    return {k: v for k, v in points[0].items()
            if not isinstance(v, (list, dict)) and all(p.get(k) == v for p in points)}


def _setting(key, value) -> str:
    return f"{key} = {value:g}" if isinstance(value, float) else f"{key} = {value}"


def fixed_parameters(record: Record, also=()) -> str:
    """The parameters every point of the record (and of ``also``, other theorems' records
    the figure draws) shares, and the trials per evaluated sample size: the settings a
    reader needs to read the figure. A parameter the record holds fixed but another drawn
    record does not is named with the record's id (legends leave it out: ``legend_text``)."""
    records = [record, *[r for r in also if r]]
    mine = fixed_names(record)
    shared = [_setting(k, v) for k, v in mine.items()
              if all(p.point.get(k) == v for r in records[1:] for p in r.points)]
    shared += [f"{_setting(k, v)} ({record.id})" for k, v in mine.items()
               if not all(p.point.get(k) == v for r in records[1:] for p in r.points)]
    trials = sorted({int(row["trials"]) for r in records for row in r.rows if row.get("trials")})
    if trials:
        shared.append(f"{trials[0]} trials per evaluated n" if len(trials) == 1
                      else f"{trials[0]} to {trials[-1]} trials per evaluated n")
    return ", ".join(shared)


def verdict_line(record: Record) -> str:
    """Each claim the figure can show (not the privacy audits, which the page lists) with
    its verdict."""
    return verdict_summary(record.shown())


def save(fig, record: Record, out, part: str | None = None, intervals: str = "n_hat",
         what: str = "", also=()) -> list[Path]:
    """Save a theorem's figure (``part``: one of several, ``<id>-<part>``) with the standard
    title: the theorem, fidelity, seed and any custom grid, which intervals the bands are,
    the parameters every point drawn shares (``also``: the records of other theorems the
    figure draws), and the claims' verdicts."""
    from privbounds.results import overrides_text

    custom = f"; custom grid {overrides_text(record)}" if record.overrides else ""
    lines = [f"{record.id}: {record.title}" + (f" ({what})" if what else ""),
             f"{record.fidelity} fidelity, seed {record.provenance.seed}{custom}; {INTERVALS[intervals]}"]
    fixed = fixed_parameters(record, [*also, *(_SIBLINGS.get() or [])])
    if fixed:
        lines.append(f"fixed: {fixed}")
    verdicts = verdict_line(record)
    if verdicts:
        lines.append(f"verdicts: {verdicts}")
    name = record.id if part is None else f"{record.id}-{part}"
    return save_named(fig, name, "\n".join(lines), out)


_MISSING: ContextVar[tuple] = ContextVar("privbounds_headline_missing", default=())


def drawn_without(theorem_ids):
    """While drawing a paper's headline figures: the theorems they draw from that have no
    results here; ``save_named`` writes their names on the figure."""
    return scoped(_MISSING, tuple(theorem_ids))


@dataclass(frozen=True)
class Files:
    """Which files a drawing writes. ``svg``: the SVG beside each PNG (it costs about as
    much as the PNG to render; the report links it only where it exists). ``png``: True
    (every figure), False, or name patterns (fnmatch) of the figures to rasterise; the
    others are laid out (and recorded) but not rendered, and an old PNG of theirs is
    removed. ``record``: write each figure's ``<name>.drawn.json`` (figures/drawn.py)."""

    svg: bool = True
    png: bool | tuple = True
    record: bool = False

    def renders(self, name: str) -> bool:
        if isinstance(self.png, bool):
            return self.png
        return any(fnmatch.fnmatchcase(name, pattern) for pattern in self.png)


_FILES: ContextVar[Files | None] = ContextVar("privbounds_files", default=None)  # None: Files()


def files(spec: Files):
    """While drawing: which files ``save_named`` writes (see ``Files``)."""
    return scoped(_FILES, spec)


def save_named(fig, name: str, title: str, out) -> list[Path]:
    """Write ``<out>/figures/<name>.png``, ``.svg`` and ``.drawn.json`` atomically, as the
    drawing's ``Files`` asks; a file not redrawn is removed, so that the report never links
    a stale one. The title
    is wrapped to the figure's width, and the figure grows until every panel keeps room
    for its data beside its legend."""
    width = fig.get_figwidth()
    wrapped = "\n".join(textwrap.fill(line, max(40, int(width * 13.5))) for line in title.split("\n"))
    fig.suptitle(wrapped, fontsize=10)
    missing = _MISSING.get()
    bottom = 0.0
    if missing:
        shown = ", ".join(missing[:6]) + (f" and {len(missing) - 6} more" if len(missing) > 6 else "")
        fig.text(0.5, 0.005, textwrap.fill(f"Partial: drawn without {shown} (no results in this folder; run "
                                           "them to complete the figure)", int(width * 13)),
                 ha="center", va="bottom", fontsize=9, color="#8b0000")
        bottom = 0.035
    plain_log_ticks(fig)  # before any layout: every tick label is measured as it is drawn
    bounds_under(fig)
    explain_scales(fig)
    interleave(fig)
    mark_lone_points(fig)
    _fit(fig, bottom)
    # The layout is final. tight_layout leaves a placeholder layout engine on the figure,
    # for which savefig would draw the whole figure once more before each real draw (a
    # layout pass with rendering switched off, which changes nothing here); without an
    # engine each file costs one draw. The rc settings are pinned so that None means "no
    # engine" whatever a user's matplotlibrc says.
    with matplotlib.rc_context({"figure.autolayout": False, "figure.constrained_layout.use": False}):
        fig.set_layout_engine(None)
    folder = Path(out) / "figures"
    folder.mkdir(parents=True, exist_ok=True)
    spec = _FILES.get() or Files()
    exts = ("png", "svg") if spec.svg else ("png",)
    if not spec.renders(name):
        exts = ()
    for ext in ("png", "svg"):
        if ext not in exts:  # a file not redrawn would be stale
            (folder / f"{name}.{ext}").unlink(missing_ok=True)
    from privbounds.figures import drawn

    paths = []
    record = folder / f"{name}{drawn.SUFFIX}"
    record.unlink(missing_ok=True)  # written last: a record always describes the files beside it
    for ext in exts:
        path = folder / f"{name}.{ext}"
        tmp = path.with_name(f".{path.name}.tmp")
        fig.savefig(tmp, format=ext, dpi=DPI)
        tmp.replace(path)
        paths.append(path)
    if spec.record:
        paths.append(drawn.write(record, drawn.summary(fig)))
    plt.close(fig)
    return paths


PANEL_HEIGHT = 2.6  # inches: the smallest data area a panel keeps, however long its legend


def _fit(fig, bottom: float) -> None:
    """tight_layout with each legend under its axis label, growing the figure's height
    where legends below the axes would squeeze a panel's data area under ``PANEL_HEIGHT``
    inches or hang off the bottom of the figure."""
    for _ in range(6):
        _layout(fig, bottom)
        axes = [ax for ax in fig.axes if ax.get_visible() and ax.get_label() != "<colorbar>"]
        if not axes:
            return
        smallest = min(ax.get_position().height for ax in axes) * fig.get_figheight()
        renderer = fig.canvas.get_renderer()
        lows = [ax.get_legend().get_window_extent(renderer).y0 for ax in axes if ax.get_legend() is not None]
        overflow = max([0.0] + [-y / fig.dpi for y in lows]) + (0.05 if lows and min(lows) < 2 else 0.0)
        if smallest >= PANEL_HEIGHT and overflow <= 0:
            return
        rows = len({round(ax.get_position().y0, 3) for ax in axes})
        fig.set_figheight(fig.get_figheight() + max(rows * (PANEL_HEIGHT - smallest), overflow, 0.0) + 0.2)
    _layout(fig, bottom)  # the last growth is laid out too


def _layout(fig, bottom: float) -> None:
    """tight_layout below the figure's title, with the legends placed under their axes
    before (so the layout makes room for them) and after (the axes have moved)."""
    renderer = fig.canvas.get_renderer()
    top = 1.0
    if fig._suptitle is not None and fig._suptitle.get_text():
        # tight_layout leaves no room for a title of several lines: keep the panels under it
        top = 1 - (fig._suptitle.get_window_extent(renderer).height + 6) / fig.bbox.height
    _place_legends(fig)
    with warnings.catch_warnings():
        # a figure still too short for its legends: ``_fit`` grows it and lays it out again
        warnings.filterwarnings("ignore", message="Tight layout not applied")
        fig.tight_layout(rect=(0, bottom, 1, top))
    _place_legends(fig)  # the axes moved: the legends follow (``_fit`` checks they still fit)


_SIBLINGS: ContextVar[list | None] = ContextVar("privbounds_siblings", default=None)


def drawing():
    """While one theorem's figures are drawn: the records ``sibling`` loads are collected,
    so that ``save`` states only the parameters every drawn record shares."""
    return scoped(_SIBLINGS, [])


def sibling(out, theorem_id: str) -> Record | None:
    """Another theorem's result record in the same output folder, or None if it was not run
    (a figure that draws a baseline from another theorem uses it when present)."""
    from privbounds.params import ParameterError
    from privbounds.results import load

    try:
        rec = load(out, theorem_id)
    except (ParameterError, OSError, ValueError):
        return None
    loaded = _SIBLINGS.get()
    if loaded is not None:
        loaded.append(rec)
    return rec
