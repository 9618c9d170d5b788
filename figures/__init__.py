"""Figures: a shared style (common.py), the plotter driven by claim kinds that every
theorem without a plotter of its own gets (generic.py), shared plotters
(curves.py, spec.py) and one subpackage per paper for its special figures. Importing this package loads no plotting
library; a plotter module is imported when it draws. A plotter is named "module:function"
under this package, or is a callable (a plugin's, defined in its own package)."""

from __future__ import annotations

import importlib


def call(spec, *args):
    """Call a plotter: a callable, or one named "module:function" under privbounds.figures."""
    if callable(spec):
        return spec(*args)
    module, fn = spec.split(":")
    return getattr(importlib.import_module(f"{__name__}.{module}"), fn)(*args)


def _headline_source(prefix: str):
    """Where a paper's headline figures say what they draw (``theorem_ids``, ``CAPTION``):
    the module of a "module:function" spec, the callable itself otherwise; None without."""
    from privbounds.registry import papers

    spec = papers()[prefix].figures
    if spec is None or callable(spec):
        return spec
    return importlib.import_module(f"{__name__}.{spec.split(':')[0]}")


def headline_ids(prefix: str) -> list[str]:
    """The theorems whose results a paper's headline figures draw (``theorem_ids``: a
    function returning them, or, on a callable, the collection itself)."""
    ids = getattr(_headline_source(prefix), "theorem_ids", ())
    return sorted(ids() if callable(ids) else ids)


def headline_caption(prefix: str) -> str:
    """What a paper's headline figures show, for its page (``CAPTION``)."""
    return getattr(_headline_source(prefix), "CAPTION", "")


def draw(theorem, record: dict, out) -> list:
    """The figures of one theorem, from its result record: the paths of the files written
    (PNG, SVG, drawing records, as ``common.Files`` asks). A theorem may
    draw several (``<id>.png`` and parts ``<id>-<part>.png``); parts an earlier version drew
    and this one does not are removed, so the report never shows a stale one."""
    from pathlib import Path

    from privbounds.figures.common import drawing

    with drawing():  # records of other theorems the figure draws count in its "fixed:" line
        paths = call(theorem.plotter or "generic:plot", theorem, record, out)
    kept = {Path(p).name for p in paths}
    for old in (Path(out) / "figures").glob(f"{theorem.id}-*.*"):
        if old.name.endswith((".png", ".svg", ".drawn.json")) and old.name not in kept:
            old.unlink(missing_ok=True)
    return paths
