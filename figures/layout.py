"""Whether a drawn figure can be read at the report's width: what the figure tests check
on every figure of every paper, so that a plotter cannot hide its data behind its own
legend or shrink its text below reading size.

Not tied to one paper. ``problems(fig)`` lays the figure out without rendering it and
returns one line per defect (empty when the figure is readable):

- wider than ``MAX_WIDTH`` inches (the report shrinks it, and its text with it);
- a legend that leaves the figure, covers another panel, a title, its panel's axis label
  or tick labels, or a drawn point of its own panel (a legend inside the axes is fine in
  an empty corner);
- a panel title wider than the figure, two titles overlapping, or the figure's title over
  a panel, its title or a legend;
- a panel whose data area is under ``MIN_PANEL`` inches tall or wide;
- and every rule of the figure style (figures/style.py: text size at the report's width,
  one y-scale, one meaning per colour, no region over points, bounds under measured
  curves, visible legend handles, one way of drawing censored points).
"""

from __future__ import annotations

import numpy as np

from privbounds.figures import style

# 11.25 in at 120 dpi shown 900 px wide keeps 9-point legends at 10 px (figures/style.py)
MAX_WIDTH = 11.25
MIN_PANEL = 2.0
SLACK = 2.0  # pixels: antialiasing and rounding


def _overlap(a, b) -> float:
    """Area of the intersection of two display-space boxes."""
    w = min(a.x1, b.x1) - max(a.x0, b.x0)
    h = min(a.y1, b.y1) - max(a.y0, b.y0)
    return max(w, 0.0) * max(h, 0.0)


def _data_points(ax) -> np.ndarray:
    """Display coordinates of what the axes draw (line vertices and points along their
    segments, scatter offsets, the edges of shaded bands), clipped to the axes' box."""
    pts = []
    for line in ax.get_lines():
        if not line.get_visible():
            continue
        xy = np.asarray(line.get_xydata(), float)
        if xy.size:
            d = line.get_transform().transform(xy)
            pts.append(d)
            if len(d) > 1 and line.get_linestyle() not in ("None", "", " "):
                # points along each segment too: a legend may cover a line between markers
                t = np.linspace(0, 1, 12)[1:-1, None, None]
                pts.append((d[:-1] + t * (d[1:] - d[:-1])).reshape(-1, 2))
    for coll in ax.collections:
        if not coll.get_visible():
            continue
        offs = np.asarray(coll.get_offsets(), float)
        if offs.size and len(offs) > 0 and np.isfinite(offs).all():
            pts.append(coll.get_offset_transform().transform(offs))
        for path in coll.get_paths():
            v = np.asarray(path.vertices, float)
            if v.size:
                pts.append(coll.get_transform().transform(v))
    if not pts:
        return np.zeros((0, 2))
    xy = np.concatenate(pts)
    xy = xy[np.isfinite(xy).all(axis=1)]
    box = ax.bbox
    inside = (xy[:, 0] >= box.x0) & (xy[:, 0] <= box.x1) & (xy[:, 1] >= box.y0) & (xy[:, 1] <= box.y1)
    return xy[inside]


def problems(fig) -> list[str]:
    """One line per readability defect of ``fig`` (see the module docstring)."""
    out = []
    dpi = fig.dpi
    if fig.get_figwidth() > MAX_WIDTH + 1e-9:
        out.append(f"figure is {fig.get_figwidth():.1f} in wide (at most {MAX_WIDTH:g})")
    if not hasattr(fig.canvas, "get_renderer"):  # a closed figure: lay it out on a fresh Agg canvas
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig)
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    fbox = fig.bbox
    axes = [ax for ax in fig.axes if ax.get_visible()]
    legends = [(ax, ax.get_legend()) for ax in axes if ax.get_legend() is not None]
    legends += [(None, lg) for lg in fig.legends]
    for owner, lg in legends:
        box = lg.get_window_extent(renderer)
        name = f"legend of {owner.get_title()[:30]!r}" if owner is not None else "figure legend"
        if box.x0 < fbox.x0 - SLACK or box.x1 > fbox.x1 + SLACK or box.y0 < fbox.y0 - SLACK \
                or box.y1 > fbox.y1 + SLACK:
            out.append(f"{name} leaves the figure")
        for ax in axes:
            if _overlap(box, ax.bbox) <= SLACK * SLACK:
                continue
            if ax is not owner:
                out.append(f"{name} covers the panel {ax.get_title()[:30]!r}")
                continue
            xy = _data_points(ax)
            hit = ((xy[:, 0] > box.x0 + SLACK) & (xy[:, 0] < box.x1 - SLACK)
                   & (xy[:, 1] > box.y0 + SLACK) & (xy[:, 1] < box.y1 - SLACK))
            if hit.any():
                out.append(f"{name} covers {int(hit.sum())} drawn points of its panel")
    titles = []
    for ax in axes:
        for t in (ax.title, getattr(ax, "_left_title", None), getattr(ax, "_right_title", None)):
            if t is not None and t.get_visible() and t.get_text().strip():
                b = t.get_window_extent(renderer)
                titles.append((t.get_text(), b))
                if b.x0 < fbox.x0 - SLACK or b.x1 > fbox.x1 + SLACK:
                    out.append(f"title {t.get_text()[:40]!r} is wider than the figure")
        h, w = ax.bbox.height / dpi, ax.bbox.width / dpi
        if h < MIN_PANEL or w < MIN_PANEL:
            out.append(f"panel {ax.get_title()[:30]!r} is {w:.1f} x {h:.1f} in (at least {MIN_PANEL:g} each way)")
    for _owner, lg in legends:
        box = lg.get_window_extent(renderer)
        for text, b in titles:
            if _overlap(box, b) > SLACK * SLACK:
                out.append(f"a legend covers the title {text[:30]!r}")
    for owner, lg in legends:
        if owner is None:
            continue
        box = lg.get_window_extent(renderer)
        labels = [owner.xaxis.label, *owner.get_xticklabels()]
        if any(t.get_visible() and t.get_text().strip() and _overlap(box, t.get_window_extent(renderer))
               > SLACK * SLACK for t in labels):
            out.append(f"legend of {owner.get_title()[:30]!r} covers its axis label or tick labels")
    for i in range(len(titles)):
        for j in range(i + 1, len(titles)):
            if _overlap(titles[i][1], titles[j][1]) > SLACK * SLACK:
                out.append(f"titles {titles[i][0][:30]!r} and {titles[j][0][:30]!r} overlap")
    if fig._suptitle is not None and fig._suptitle.get_text().strip():
        b = fig._suptitle.get_window_extent(renderer)
        if b.x0 < fbox.x0 - SLACK or b.x1 > fbox.x1 + SLACK:
            out.append("the figure's title is wider than the figure")
        for text, tb in titles:
            if _overlap(b, tb) > SLACK * SLACK:
                out.append(f"the figure's title covers the panel title {text[:30]!r}")
        for ax in axes:
            if _overlap(b, ax.bbox) > SLACK * SLACK:
                out.append(f"the figure's title covers the panel {ax.get_title()[:30]!r}")
        for _owner, lg in legends:
            if _overlap(b, lg.get_window_extent(renderer)) > SLACK * SLACK:
                out.append("the figure's title covers a legend")
    return out + style.problems(fig, axes)
