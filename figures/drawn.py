"""What a drawing recorded: a summary of one saved figure's artists, for every paper's
figures (the theorem figures and the papers' headline figures alike).

``save_named`` writes it beside the image as ``<name>.drawn.json`` when the drawing is
asked to record (``privbounds.plot(record=True)``): the figure's title, each panel's
title, scales, lines (label, colour, marker, style, data), the y values of its bands and
markers, its legend's entries and font size, the figure's own texts (a partial
headline's note), and the readability problems that
``layout.problems`` finds. Checks of a figure then read what was drawn, once, instead of
drawing it again; with ``png`` restricted to a few figures, the others are laid out and
recorded but never rasterised (rasterising is about 40% of drawing a figure).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from matplotlib.colors import to_hex

SUFFIX = ".drawn.json"


def _floats(values) -> list:
    """JSON numbers (None for NaN and infinities, which JSON cannot hold)."""
    out = []
    for v in values:
        try:
            f = float(v)
        except (TypeError, ValueError):
            out.append(None)
            continue
        out.append(f if math.isfinite(f) else None)
    return out


def _line(ln) -> dict:
    return {"label": ln.get_label(), "color": to_hex(ln.get_color(), keep_alpha=False),
            "marker": str(ln.get_marker()), "linestyle": str(ln.get_linestyle()), "visible": ln.get_visible(),
            "x": _floats(ln.get_xdata()), "y": _floats(ln.get_ydata())}


def _collection_y(coll) -> list:
    """The y values a collection draws: its paths' vertices (a band's edges) and its
    offsets (scatter markers)."""
    ys = []
    for path in coll.get_paths():
        ys += _floats(path.vertices[:, 1])
    offsets = coll.get_offsets()
    if len(offsets):
        ys += _floats(offsets[:, 1])
    return ys


def _axes(ax) -> dict:
    legend = ax.get_legend()
    entries = [t.get_text() for t in legend.get_texts()] if legend is not None else []
    size = legend.get_texts()[0].get_fontsize() if entries else None
    return {"title": ax.get_title(), "xscale": ax.get_xscale(), "yscale": ax.get_yscale(),
            "lines": [_line(ln) for ln in ax.get_lines()],
            "collections_y": [y for c in ax.collections for y in _collection_y(c)],
            "legend": entries, "legend_fontsize": size}


def summary(fig) -> dict:
    """The record of a laid-out figure (see the module docstring)."""
    from privbounds.figures.layout import problems

    title = fig._suptitle.get_text() if fig._suptitle is not None else ""
    axes = [ax for ax in fig.axes if ax.get_visible()]
    return {"title": title, "texts": [t.get_text() for t in fig.texts], "width_in": fig.get_figwidth(),
            "height_in": fig.get_figheight(), "axes": [_axes(ax) for ax in axes], "problems": problems(fig)}


def write(path: Path, record: dict) -> Path:
    """Write ``record`` atomically to ``path``."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(record))
    tmp.replace(path)
    return path


def load(folder, name: str) -> dict:
    """The record of the figure ``name`` in ``folder`` (an output's ``figures/``)."""
    return json.loads((Path(folder) / f"{name}{SUFFIX}").read_text())


def records(folder, theorem_id: str) -> dict[str, dict]:
    """Every record of one theorem's figures: ``<id>`` and its parts ``<id>-<part>``."""
    folder = Path(folder)
    names = [theorem_id] + sorted(p.name[:-len(SUFFIX)] for p in folder.glob(f"{theorem_id}-*{SUFFIX}"))
    return {n: load(folder, n) for n in names if (folder / f"{n}{SUFFIX}").is_file()}
