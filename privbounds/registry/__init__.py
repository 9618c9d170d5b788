"""The registry: the one list of theorems that the CLI, engine, figures, report and check
iterate over.

Each paper is a module (or a subpackage, when one module would grow too long) of this
package. It declares itself with ``PAPER = Paper(...)`` and each of its theorems with an
``@entry("<paper>.<id>")`` builder that returns a ``Theorem``. Papers are discovered by
walking this package, not listed by hand, and a builder runs only when its theorem is
first asked for (``get`` builds one; ``theorems`` builds all), so ``privbounds show ID``
imports one simulator, not all of them.
"""

from __future__ import annotations

import fnmatch
import importlib
import inspect
import pkgutil
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from privbounds.params import ParameterError

SIMULATED, BOUND_ONLY, SUMMARY = "simulated", "bound-only", "summary"


@dataclass(frozen=True)
class Paper:
    """One source paper: the id prefix of its theorems, its citation, and (optionally) the
    figures drawn over several of its theorems ("module:function" under
    privbounds.figures, called with every available result of the paper; the report's page
    for the paper opens with them)."""

    prefix: str
    title: str
    figures: str | None = None


@dataclass
class Theorem:
    """One numbered result. ``status`` is ``simulated`` (a simulator measures it), or
    ``bound-only`` / ``summary`` (no experiment of its own: ``reason`` says why and
    ``tested_by`` names the entries that test it)."""

    number: str
    title: str
    statement: str
    math: str
    id: str | None = None  # filled from the @entry id
    paper: str | None = None  # filled from the paper's PAPER
    simulator: object = None
    plotter: str | None = None  # "module:function" under privbounds.figures; None: the generic plotter
    claims: list = field(default_factory=list)
    notes: str = ""
    status: str = SIMULATED
    reason: str = ""
    tested_by: tuple = ()

    @property
    def prefix(self) -> str:
        return self.id.split(".")[0]

    @property
    def runnable(self) -> bool:
        return self.status == SIMULATED

    def plot(self, result: dict, out_dir):
        from privbounds.figures import draw

        return draw(self, result, out_dir)

    def files(self) -> list[str]:
        """Source files that implement this theorem, relative to the repository root:
        its registry module, simulator, plotter and bound modules."""
        mods = [_ENTRIES[self.id][0]]
        if self.simulator is not None:
            mods.append(type(self.simulator).__module__)
        if self.runnable:  # an entry without a simulator has no figure either
            mods.append(f"privbounds.figures.{(self.plotter or 'generic:plot').split(':')[0]}")
        for c in self.claims:
            fn = getattr(getattr(c, "bound", None), "fn", None)
            if fn is not None:
                mods.append(fn.__module__)
        return [_source_path(m) for m in dict.fromkeys(mods)]

    def summary(self) -> dict:
        return {"id": self.id, "paper": self.paper, "number": self.number, "title": self.title,
                "statement": self.statement, "status": self.status, "reason": self.reason,
                "tested_by": list(self.tested_by),
                "unaudited": dict(getattr(self.simulator, "unaudited", {}) or {}),
                "claims": [c.summary() for c in self.claims]}

    def parameters(self) -> list[dict]:
        """Each simulator parameter with what it allows and the values its registered grid
        takes at each fidelity (what ``--set NAME=...`` replaces)."""
        sim = self.simulator
        if sim is None:
            return []
        grids = {}
        for fid in sim.fidelities:
            for p in sim.points(fid):
                for k, v in p.items():
                    grids.setdefault(k, {}).setdefault(fid, set()).add(v)

        def order(vals):
            return sorted(vals, key=lambda v: (isinstance(v, str), v if not isinstance(v, str) else 0, str(v)))
        return [{"name": name, "allowed": spec.describe(),
                 "grid": {fid: order(vals) for fid, vals in grids.get(name, {}).items()}}
                for name, spec in sim.params.items()]


# id -> (module name, builder); filled by @entry when the paper modules are imported
_ENTRIES: dict[str, tuple[str, Callable[[], Theorem]]] = {}
_BUILT: dict[str, Theorem] = {}
_PAPERS: dict[str, Paper] = {}
_DISCOVERED = False


def entry(theorem_id: str):
    """Register the decorated builder as the theorem ``theorem_id``."""

    def register(builder):
        if theorem_id in _ENTRIES and _ENTRIES[theorem_id][1] is not builder:
            raise RuntimeError(f"theorem id {theorem_id} is registered twice")
        _ENTRIES[theorem_id] = (builder.__module__, builder)
        return builder
    return register


def _discover() -> None:
    global _DISCOVERED
    if _DISCOVERED:
        return
    for info in pkgutil.walk_packages(__path__, prefix=f"{__name__}."):
        mod = importlib.import_module(info.name)
        paper = getattr(mod, "PAPER", None)
        if isinstance(paper, Paper):
            _PAPERS[paper.prefix] = paper
    _DISCOVERED = True


def _sort_key(theorem_id: str):
    """Papers in discovery order, then theorems by their number (thm2_7 before thm2_11)."""
    prefix, _, rest = theorem_id.partition(".")
    nums = [int(x) for x in re.findall(r"\d+", rest)]
    return (list(_PAPERS).index(prefix) if prefix in _PAPERS else len(_PAPERS), nums, rest)


def ids() -> list[str]:
    """Every registered id, without building any theorem."""
    _discover()
    return sorted(_ENTRIES, key=_sort_key)


def papers() -> dict[str, Paper]:
    _discover()
    return dict(_PAPERS)


def get(theorem_id: str) -> Theorem:
    _discover()
    if theorem_id not in _ENTRIES:
        raise ParameterError(f"unknown theorem id {theorem_id!r}; see 'privbounds list' for the known ids")
    if theorem_id not in _BUILT:
        thm = _ENTRIES[theorem_id][1]()
        if thm.id not in (None, theorem_id):
            raise RuntimeError(f"builder registered as {theorem_id} returned {thm.id}")
        thm.id = theorem_id
        thm.paper = thm.paper or _PAPERS[theorem_id.split(".")[0]].title
        # every learner the simulator runs is audited: one claim per audit instance
        from privbounds.claims import audit_claims

        thm.claims = [*thm.claims, *audit_claims(thm.simulator)]
        _BUILT[theorem_id] = thm
    return _BUILT[theorem_id]


def theorems() -> list[Theorem]:
    """Every registered theorem, papers in discovery order, theorems by number."""
    return [get(i) for i in ids()]


def select(patterns=None, paper: str | None = None) -> list[str]:
    """Ids matching any of ``patterns`` (exact ids or shell patterns such as 'bns.cor3_*')
    and, if given, of ``paper``; all ids when neither is given. Order: registry order."""
    known = ids()
    if paper is not None and paper not in papers():
        raise ParameterError(f"--paper must be one of {', '.join(papers())}, got {paper!r}")
    chosen = [i for i in known if paper is None or i.split(".")[0] == paper]
    if not patterns:
        return chosen
    hits = set()
    for pat in patterns:
        matched = {i for i in chosen if fnmatch.fnmatchcase(i, pat)}
        if not matched:
            where = f" in paper {paper}" if paper else ""
            if any(c in pat for c in "*?["):
                raise ParameterError(f"no theorem id matches {pat!r}{where}; see 'privbounds list'")
            raise ParameterError(f"unknown theorem id {pat!r}{where}; see 'privbounds list'")
        hits |= matched
    return [i for i in chosen if i in hits]


def _source_path(module: str) -> str:
    """A module's file relative to the repository root (the package-dir mapping)."""
    mod = sys.modules.get(module) or importlib.import_module(module)
    path = inspect.getsourcefile(mod) or ""
    from pathlib import Path

    root = Path(importlib.import_module("privbounds").__file__).resolve().parent.parent
    try:
        return str(Path(path).resolve().relative_to(root))
    except ValueError:
        return path
