"""The figure style every figure keeps, in every paper: checks on the drawn artists.

Not tied to one paper. ``layout.problems`` (which every drawing records, and every
figure test reads) adds the lines these checks return, so a plotter that breaks a rule
fails its paper's figure tests. The rules, so that a reader takes a figure in at a glance:

- text is at least ``MIN_PX`` pixels tall when the report shows the figure ``REPORT_PX``
  wide (a narrower figure is shown at its own width, ``DPI`` dots per inch);
- one y-scale per figure, unless a panel says why (``own_scale``: the reason is written
  in the panel's title, so the reader sees it too);
- a colour means one thing in the whole figure: each drawn subject (a learner, or one
  setting of a learner; ``tag``) has one colour, and no two subjects share one; a legend
  label drawn in two colours is the same defect among untagged lines;
- no shaded region (anything filled but an interval band, ``tag(..., BAND)``) over a
  measured point;
- a bound line (dashed or dotted, no markers) is drawn under every measured curve of its
  panel, so that a measured curve under a bound stays visible;
- bounds that coincide take turns in one dash pattern (``interleave``), so none hides
  another;
- a line through a single point gets a marker (``mark_lone_points``), or it draws
  nothing;
- a setting fixed in the whole figure is said once, in the subtitle, not on every
  legend line;
- every legend entry has a visible handle (no text-only entries: what a panel says
  without a line goes in its title);
- censored points (open interval ends) are drawn only by ``common.band``, with the glyphs
  ``OPEN_ABOVE`` and ``OPEN_BELOW``, and no other marker uses those glyphs.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

import numpy as np
from matplotlib.collections import Collection, PolyCollection
from matplotlib.colors import to_hex
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

DPI = 120  # dots per inch every figure is saved with
REPORT_PX = 900  # width (px) at which text must stay readable
MIN_PX = 10.0
BAND = "band"  # the gid of an interval band (a fill that may lie over points)
SUBJECT = "subject:"  # the gid prefix of an artist drawn for one subject
PART = " | "  # "learner | setting": one setting of a learner, drawn in a shade of its colour
OPEN_ABOVE = "$\u2191$"  # an interval with no upper end: the target not reached on the grid
OPEN_BELOW = "$\u2193$"  # succeeds already at the smallest n run: n_hat is at most that n
OPEN = "open:"  # the gid prefix of censored markers ("open:above", "open:below")
SCALE_WHY = "_privbounds_scale_why"


def tag(artists, gid: str) -> None:
    """Mark what an artist stands for (``BAND``, ``SUBJECT + name``, ``OPEN + side``)."""
    for a in artists if isinstance(artists, (list, tuple)) else [artists]:
        if a is not None:
            a.set_gid(gid)


def own_scale(ax, scale: str, why: str, **kw) -> None:
    """Give one panel a y-scale other than its figure's (``kw``: the scale's options, such
    as symlog's ``linthresh``), and say why in its title."""
    ax.set_yscale(scale, **kw)
    setattr(ax, SCALE_WHY, why)
    title, size = ax.get_title(), ax.title.get_fontsize()
    ax.set_title(f"{title}\n({scale} y-scale: {why})" if title else f"({scale} y-scale: {why})", fontsize=size)


AUTO_WHY = "_privbounds_scale_auto"


def scale_reason(ax, why: str) -> None:
    """Why a panel that chose its own y-scale from its data (linear: the values span less
    than a decade, or reach 0) chose it; said in its title only if the figure's other
    panels chose another (``explain_scales``)."""
    setattr(ax, AUTO_WHY, why)


def explain_scales(fig) -> None:
    """Where a figure's panels ended with different y-scales, each panel that chose its
    scale from its data says why (``scale_reason``), in its title."""
    axes = [ax for ax in fig.axes if ax.get_visible() and _draws(ax)]
    if len({ax.get_yscale() for ax in axes}) > 1:
        for ax in axes:
            if getattr(ax, AUTO_WHY, "") and not getattr(ax, SCALE_WHY, ""):
                own_scale(ax, ax.get_yscale(), getattr(ax, AUTO_WHY))


def bounds_under(fig, z: float = 1.9) -> None:
    """Draw every bound line (dashed or dotted, no markers) of ``fig`` under the measured
    curves, wherever a plotter drew it (at the default zorder: one set on purpose stays)."""
    for ax in fig.axes:
        for line in ax.get_lines():
            if _is_bound(line) and line.get_zorder() == Line2D.zorder:
                line.set_zorder(z)


def _lone(line) -> bool:
    """A line drawn through one finite point, without a marker: it leaves no ink."""
    xy = np.asarray(line.get_xydata(), float)
    return (line.get_marker() in (None, "None", "", " ") and len(xy) > 0
            and int(np.isfinite(xy).all(axis=1).sum()) == 1)


def mark_lone_points(fig) -> None:
    """A line with a single point (a bound at the one setting measured) is drawn as a
    short bar, like the ceilings, so that it shows where its legend says it is."""
    for ax in fig.axes:
        for line in ax.get_lines():
            if _lone(line):
                line.set_marker("_")
                line.set_markersize(16)
                line.set_markeredgewidth(2)


DASH = 4.0  # points: each of k coinciding bounds draws one dash in k (``interleave``)


def _key(line) -> tuple | None:
    xy = np.asarray(line.get_xydata(), float)
    if not len(xy) or not np.isfinite(xy).all():
        return None
    return (len(xy), *np.round(np.log10(np.abs(xy.ravel()) + 1e-300), 6))


def _coinciding(ax) -> list[list]:
    """Groups of the panel's bound lines (in drawing order) that draw the same points in
    different colours: the last would hide the others."""
    groups = {}
    for line in ax.get_lines():
        if line.get_visible() and _is_bound(line) and (k := _key(line)) is not None:
            groups.setdefault(k, []).append(line)
    return [g for g in groups.values() if len({to_hex(ln.get_color()) for ln in g}) > 1]


def interleave(fig) -> None:
    """Bounds that coincide (two learners' bounds with the same value, say) take turns in
    one dash pattern, so that each colour shows along the shared line."""
    for ax in fig.axes:
        for group in _coinciding(ax):
            k = len(group)
            for i, line in enumerate(group):
                line.set_linestyle((i * DASH, (DASH, (k - 1) * DASH)))


def text_px(fig, points: float) -> float:
    """Height in pixels of ``points``-point text when the report shows ``fig``."""
    natural = fig.get_figwidth() * DPI
    return points / 72 * DPI * min(1.0, REPORT_PX / natural)


def problems(fig, axes) -> list[str]:
    """One line per broken style rule of ``fig`` (laid out), ``axes`` its visible panels."""
    return [*_small_text(fig), *_scales(axes), *_colours(fig, axes), *_regions(axes), *_bounds_on_top(axes),
            *_handles(fig, axes), *_open_markers(axes), *_hidden(axes), *_inkless(axes), *_repeated(fig, axes)]


SETTING = re.compile(r"\b([A-Za-z_][\w']*) ?= ?(-?[\w.+]+)")


def _repeated(fig, axes) -> list[str]:
    """A setting (``name = value``) on every legend line that names a setting, three lines
    or more: it is fixed in the figure and belongs once in its subtitle."""
    legends = [ax.get_legend() for ax in axes if ax.get_legend() is not None] + list(fig.legends)
    texts = [t.get_text().replace("\n", " ") for lg in legends for t in lg.get_texts()]
    named = [set(SETTING.findall(t)) for t in texts]
    named = [n for n in named if n]
    if len(named) < 3:
        return []
    every = set.intersection(*named)
    return [f"every legend line says {k} = {v}: say it once, in the subtitle" for k, v in sorted(every)]


def _inkless(axes) -> list[str]:
    return [f"{ln.get_label()[:40]!r} is one point without a marker: it draws nothing" for ax in axes
            for ln in ax.get_lines() if ln.get_visible() and not ln.get_label().startswith("_") and _lone(ln)]


def _hidden(axes) -> list[str]:
    """Bound lines that coincide in one dash pattern: all but the last are hidden."""
    out = []
    for ax in axes:
        for group in _coinciding(ax):
            # dashes that start at one offset overlap (``interleave`` gives each its own)
            if len({getattr(ln, "_dash_pattern", (0, None))[0] for ln in group}) < len(group):
                out.append(f"{len(group)} bounds coincide in {ax.get_title()[:30]!r} and hide each other "
                           f"({', '.join(repr(ln.get_label()[:25]) for ln in group)})")
    return out


def _small_text(fig) -> list[str]:
    out = []
    for text in fig.findobj(lambda a: hasattr(a, "get_text") and hasattr(a, "get_fontsize")):
        if text.get_visible() and text.get_text().strip():
            px = text_px(fig, text.get_fontsize())
            if px < MIN_PX - 1e-6:
                out.append(f"text {text.get_text()[:40]!r} is {px:.1f} px at {REPORT_PX} px wide "
                           f"(at least {MIN_PX:g})")
    return out


def _scales(axes) -> list[str]:
    """The panels that do not say why (``own_scale``) must share one y-scale (a panel that
    draws nothing, such as a scaling panel without a fit, has no scale to compare)."""
    plain = [ax for ax in axes if not getattr(ax, SCALE_WHY, "") and _draws(ax)]
    scales = Counter(ax.get_yscale() for ax in plain)
    if len(scales) <= 1:
        return []
    common = scales.most_common(1)[0][0]
    return [f"panel {ax.get_title()[:30]!r} has a {ax.get_yscale()} y-scale beside {common} panels, without "
            "saying why (own_scale)" for ax in plain if ax.get_yscale() != common]


def _draws(ax) -> bool:
    """Whether the panel draws any finite point of data."""
    for line in ax.get_lines():
        xy = np.asarray(line.get_xydata(), float)
        if xy.size and np.isfinite(xy).all(axis=1).any():
            return True
    return any(len(c.get_paths()) or len(c.get_offsets()) for c in ax.collections)


def _colour(artist) -> str | None:
    if isinstance(artist, Line2D):
        return to_hex(artist.get_color(), keep_alpha=False)
    if isinstance(artist, Collection):
        fc = artist.get_facecolor()
        ec = artist.get_edgecolor()
        c = fc if len(fc) and fc[0][3] > 0 else ec
        return to_hex(c[0], keep_alpha=False) if len(c) else None
    return None


def _colours(fig, axes) -> list[str]:
    by_subject, by_colour, by_label = defaultdict(set), defaultdict(set), defaultdict(set)
    for ax in axes:
        for a in [*ax.get_lines(), *ax.collections]:
            gid, colour = a.get_gid() or "", _colour(a)
            if colour is None or not a.get_visible():
                continue
            if gid.startswith(SUBJECT):
                name = gid[len(SUBJECT):]
                by_subject[name].add(colour)
                by_colour[colour].add(name)
            elif isinstance(a, Line2D) and not a.get_label().startswith("_"):
                by_label[a.get_label()].add(colour)
    out = [f"{name!r} is drawn in {len(cs)} colours" for name, cs in by_subject.items() if len(cs) > 1]
    out += [f"one colour ({c}) stands for {len(s)} things: {', '.join(sorted(map(repr, s)))[:120]}"
            for c, s in by_colour.items() if len(s) > 1]
    out += [f"the legend label {lab[:40]!r} is drawn in {len(cs)} colours" for lab, cs in by_label.items()
            if len(cs) > 1]
    return out


def _measured(ax) -> np.ndarray:
    """Display coordinates of the measured points of a panel: markers of lines and scatters
    (not the bands around them)."""
    pts = []
    for line in ax.get_lines():
        if line.get_visible() and line.get_marker() not in (None, "None", "", " ", ","):
            xy = np.asarray(line.get_xydata(), float)
            if xy.size:
                pts.append(line.get_transform().transform(xy))
    for coll in ax.collections:
        offs = np.asarray(coll.get_offsets(), float)
        if coll.get_visible() and not isinstance(coll, PolyCollection) and offs.size:
            pts.append(coll.get_offset_transform().transform(offs))
    xy = np.concatenate(pts) if pts else np.zeros((0, 2))
    return xy[np.isfinite(xy).all(axis=1)]


def _regions(axes) -> list[str]:
    out = []
    for ax in axes:
        fills = [c for c in ax.collections if isinstance(c, PolyCollection)] + \
            [p for p in ax.patches if isinstance(p, Patch)]
        points = _measured(ax)
        for f in fills:
            if not f.get_visible() or f.get_gid() == BAND or not len(points):
                continue
            paths = f.get_paths() if isinstance(f, Collection) else [f.get_path()]
            inside = np.zeros(len(points), bool)
            for path in paths:
                inside |= path.contains_points(points, transform=f.get_transform())
            if inside.any():
                out.append(f"a shaded region of {ax.get_title()[:30]!r} covers {int(inside.sum())} measured points")
    return out


def _is_bound(line) -> bool:
    return line.get_linestyle() in ("--", ":", "-.") and line.get_marker() in (None, "None", "", " ")


def _bounds_on_top(axes) -> list[str]:
    out = []
    for ax in axes:
        lines = [ln for ln in ax.get_lines() if ln.get_visible() and len(ln.get_xdata())]
        order = {id(ln): (ln.get_zorder(), i) for i, ln in enumerate(lines)}
        # measured: markers on a solid line or alone (a bound may carry hollow markers, dashed)
        measured = [ln for ln in lines if ln.get_marker() not in (None, "None", "", " ")
                    and ln.get_linestyle() in ("-", "None", "", " ")]
        for b in filter(_is_bound, lines):
            over = [m for m in measured if order[id(b)] > order[id(m)]]
            if over:
                out.append(f"the bound {b.get_label()[:30]!r} is drawn over the measured "
                           f"{over[0].get_label()[:30]!r} in {ax.get_title()[:30]!r}")
    return out


def _visible_handle(h) -> bool:
    if h is None or not h.get_visible() or (h.get_alpha() is not None and h.get_alpha() == 0):
        return False
    if isinstance(h, Line2D):
        line = h.get_linestyle() not in ("None", "", " ", "none") and h.get_linewidth() > 0
        mark = h.get_marker() not in (None, "None", "", " ", "none") and h.get_markersize() > 0
        return line or mark
    if isinstance(h, (Patch, Collection)):
        return _colour(h) is not None
    return True


def _handles(fig, axes) -> list[str]:
    legends = [ax.get_legend() for ax in axes if ax.get_legend() is not None] + list(fig.legends)
    out = []
    for lg in legends:
        for h, t in zip(lg.legend_handles, lg.get_texts()):
            if not _visible_handle(h):
                out.append(f"the legend entry {t.get_text()[:40]!r} has no visible line or marker")
    return out


def _open_markers(axes) -> list[str]:
    out = []
    for ax in axes:
        for a in [*ax.get_lines(), *ax.collections]:
            gid = a.get_gid() or ""
            marker = a.get_marker() if isinstance(a, Line2D) else None
            if marker in (OPEN_ABOVE, OPEN_BELOW) and not gid.startswith(OPEN):
                out.append(f"{a.get_label()[:30]!r} uses the censored-point glyph for something else")
    return out
