"""Figures: a shared style (common.py), the plotter driven by claim kinds that every
theorem without a plotter of its own gets (generic.py), shared plotters (simple.py,
curves.py) and one subpackage per paper for its special figures. Importing this package loads no plotting
library; a plotter module is imported when it draws."""

from __future__ import annotations

import importlib


def call(spec: str, *args):
    """Call a plotter named "module:function" under privbounds.figures."""
    module, fn = spec.split(":")
    return getattr(importlib.import_module(f"{__name__}.{module}"), fn)(*args)


def headline_ids(prefix: str) -> list[str]:
    """The theorems whose results a paper's headline figures draw."""
    from privbounds.registry import papers

    spec = papers()[prefix].figures
    if spec is None:
        return []
    module = importlib.import_module(f"{__name__}.{spec.split(':')[0]}")
    return sorted(getattr(module, "theorem_ids", set)())


def headline_caption(prefix: str) -> str:
    """What a paper's headline figures show, for its page (the module's ``CAPTION``)."""
    from privbounds.registry import papers

    spec = papers()[prefix].figures
    if spec is None:
        return ""
    return getattr(importlib.import_module(f"{__name__}.{spec.split(':')[0]}"), "CAPTION", "")


def draw(theorem, record: dict, out) -> list:
    """The figures of one theorem, from its result record: PNG and SVG paths. A theorem may
    draw several (``<id>.png`` and parts ``<id>-<part>.png``); parts an earlier version drew
    and this one does not are removed, so the report never shows a stale one."""
    from pathlib import Path

    from privbounds.figures.common import drawing

    with drawing():  # records of other theorems the figure draws count in its "fixed:" line
        paths = call(theorem.plotter or "generic:plot", theorem, record, out)
    kept = {Path(p).name for p in paths}
    for old in (Path(out) / "figures").glob(f"{theorem.id}-*.*"):
        if old.suffix in (".png", ".svg") and old.name not in kept:
            old.unlink(missing_ok=True)
    return paths
