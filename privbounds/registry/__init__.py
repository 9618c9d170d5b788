"""The registry: the one list of theorems that the CLI, engine, figures, report and check
iterate over.

Each paper is a module (or a subpackage, when one module would grow too long) of this
package. It declares itself with ``PAPER = Paper(...)`` and each of its theorems with an
``@entry("<paper>.<id>")`` builder that returns a ``Theorem``. Papers are discovered by
walking this package, not listed by hand, and a builder runs only when its theorem is
first asked for (``get`` builds one; ``theorems`` builds all), so ``privbounds show ID``
imports one simulator, not all of them.

A separate package adds papers through the entry-point group ``privbounds.plugins``
(``PLUGIN_GROUP``): each entry point names a module, imported like a paper module here
(its ``@entry`` builders and its ``PAPER``), or a callable, called with no arguments,
that registers through ``entry`` and ``add_paper``. Plugins load after the built-in
papers, in the order of their entry-point names, and come after them in the registry.
"""

from __future__ import annotations

import difflib
import fnmatch
import importlib
import inspect
import pkgutil
import re
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from privbounds.params import ParameterError

SIMULATED, BOUND_ONLY, SUMMARY = "simulated", "bound-only", "summary"
PLUGIN_GROUP = "privbounds.plugins"
NO_PLUGINS = "PRIVBOUNDS_NO_PLUGINS"
KINDS = ("paper", "learners")


@dataclass(frozen=True)
class Paper:
    """One source paper: the id prefix of its theorems, its citation, (optionally) the
    figures drawn over several of its theorems ("module:function" under
    privbounds.figures, or a callable with the same signature, called with every available
    result of the paper; the report's page for the paper opens with them), and
    (optionally, for a plugin's paper) the folder of its baselines, ``<fidelity>.json``
    (None: ``reports/baselines/<prefix>/``)."""

    prefix: str
    title: str
    figures: str | Callable | None = None
    baselines: str | Path | None = None
    # "paper": a source paper; "learners": learners that are not a theorem's algorithm (other
    # libraries' in the gallery, a user's measured ones), listed under their own heading
    kind: str = "paper"

    def __post_init__(self):
        if self.kind not in KINDS:  # another word would leave the paper off the report's index
            raise ValueError(f"Paper kind must be one of {', '.join(KINDS)}, got {self.kind!r} ({self.title})")


class ErratumError(ValueError):
    """An erratum record with an empty field (one line; ``get`` adds the theorem's id)."""


@dataclass(frozen=True)
class Erratum:
    """A misprint in the paper on which no claim is made: where it is, the form as printed,
    the form the paper's own argument gives (the one our bounds and simulators use), and
    which step of that argument gives it. A misprint that a claim tests instead is a claim
    marked ``erratum`` (privbounds.claims)."""

    where: str
    printed: str
    corrected: str
    why: str

    def __post_init__(self):
        # a record that leaves out a field would put an unsupported correction on the pages, and
        # show, findings and the page print each field on one line
        for name in ERRATUM_FIELDS:
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip() or "\n" in value:
                raise ErratumError(f"erratum at {self.where if isinstance(self.where, str) else '?'!r}: {name} "
                                   f"must be one non-empty line of text, got {value!r}")

    def line(self) -> str:
        """The erratum in one line, as ``privbounds show`` and the findings print it."""
        return f"{self.where}: printed {self.printed}; corrected {self.corrected}; why: {self.why}"


ERRATUM_FIELDS = ("where", "printed", "corrected", "why")


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
    # "module:function" under privbounds.figures, or a callable (theorem, record, out) -> paths;
    # None: the generic plotter
    plotter: str | Callable | None = None
    claims: list = field(default_factory=list)
    notes: str = ""
    status: str = SIMULATED
    reason: str = ""
    tested_by: tuple = ()
    # misprints of the paper in this result with no claim on the printed form
    errata: tuple[Erratum, ...] = ()

    @property
    def prefix(self) -> str:
        return self.id.split(".")[0]

    @property
    def runnable(self) -> bool:
        return self.status == SIMULATED

    def files(self) -> list[str]:
        """Source files that implement this theorem, relative to the repository root:
        its registry module, simulator, plotter and bound modules."""
        mods = [_ENTRIES[self.id][0]]
        if self.simulator is not None:
            mods.append(type(self.simulator).__module__)
        if self.runnable:  # an entry without a simulator has no figure either
            plotter = self.plotter or "generic:plot"
            mods.append(plotter.__module__ if callable(plotter)
                        else f"privbounds.figures.{plotter.split(':')[0]}")
        for c in self.claims:
            fn = getattr(getattr(c, "bound", None), "fn", None)
            if fn is not None:
                mods.append(fn.__module__)
        return [_source_path(m) for m in dict.fromkeys(mods)]

    def summary(self) -> dict:
        return {"id": self.id, "paper": self.paper, "number": self.number, "title": self.title,
                "statement": self.statement, "status": self.status, "reason": self.reason,
                "tested_by": list(self.tested_by), "errata": [asdict(e) for e in self.errata],
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
        # "allowed" in words, "limits" as numbers for a program (a plugin's own spec may have none)
        return [{"name": name, "allowed": spec.describe(),
                 "limits": spec.limits() if hasattr(spec, "limits") else {},
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
            raise RuntimeError(f"theorem id {theorem_id} is registered twice: by {_ENTRIES[theorem_id][0]} "
                               f"and by {builder.__module__}")
        _ENTRIES[theorem_id] = (builder.__module__, builder)
        return builder
    return register


def add_paper(paper: Paper) -> None:
    """Register ``paper``: how a plugin's callable declares its paper (a module's ``PAPER``
    is registered by discovery). Registering the same paper again does nothing; a prefix
    another paper holds is refused."""
    if not isinstance(paper, Paper):
        raise TypeError(f"add_paper takes a Paper, got {type(paper).__name__}")
    if not paper.prefix or "." in paper.prefix:  # ids are "<prefix>.<rest>"
        raise ValueError(f"paper prefix must be non-empty and without '.', got {paper.prefix!r} ({paper.title})")
    old = _PAPERS.get(paper.prefix)
    if old is not None and old != paper:
        raise RuntimeError(f"paper prefix {paper.prefix!r} of {paper.title!r} is already taken by {old.title!r}")
    _PAPERS[paper.prefix] = paper


def _discover() -> None:
    global _DISCOVERED
    if _DISCOVERED:
        return
    for info in pkgutil.walk_packages(__path__, prefix=f"{__name__}."):
        mod = importlib.import_module(info.name)
        paper = getattr(mod, "PAPER", None)
        if isinstance(paper, Paper):
            add_paper(paper)
    # set before the plugins load, so that a plugin calling ids() or papers() does not recurse
    _DISCOVERED = True
    _load_plugins()


def _load_plugins() -> None:
    """Every entry point of ``PLUGIN_GROUP``, by name. One that fails is rolled back and
    named in one warning line; the built-in papers and the other plugins still work.
    ``PRIVBOUNDS_NO_PLUGINS=1`` in the environment loads none (the built-in papers alone:
    what the default test suite and a baseline of the built-in papers see)."""
    import os
    from importlib.metadata import entry_points

    from privbounds.messages import warn

    if os.environ.get(NO_PLUGINS, "") not in ("", "0"):
        return

    builtin = set(_PAPERS)
    for ep in sorted(entry_points(group=PLUGIN_GROUP), key=lambda e: (e.name, e.value)):
        entries, papers_before = dict(_ENTRIES), dict(_PAPERS)
        try:
            _load_plugin(ep, builtin, set(entries))
        except Exception as e:  # a plugin's error must not stop the built-in papers
            # a half-loaded plugin would leave theorems without a paper: drop all it registered
            _ENTRIES.clear()
            _ENTRIES.update(entries)
            _PAPERS.clear()
            _PAPERS.update(papers_before)
            msg = (str(e).strip().splitlines() or [""])[0]
            warn(f"plugin {ep.name} ({ep.value}) not loaded: {type(e).__name__}: {msg}")


def _load_plugin(ep, builtin: set, before: set) -> None:
    obj = ep.load()
    if inspect.ismodule(obj):
        paper = getattr(obj, "PAPER", None)
        if isinstance(paper, Paper):
            add_paper(paper)
    elif callable(obj):
        obj()
    else:
        raise TypeError(f"the entry point names a {type(obj).__name__}, neither a module nor a callable")
    for tid in [t for t in _ENTRIES if t not in before]:
        prefix = tid.split(".")[0]
        if prefix in builtin:  # a built-in paper's theorems are its own files' business
            raise RuntimeError(f"theorem id {tid} is under the built-in paper {prefix}")
        if prefix not in _PAPERS:
            raise RuntimeError(f"theorem id {tid} has no paper: declare PAPER = Paper({prefix!r}, ...) "
                               "in the module or call add_paper")


def _sort_key(theorem_id: str):
    """Papers in discovery order, then theorems by their number (thm2_7 before thm2_11)."""
    prefix, _, rest = theorem_id.partition(".")
    nums = [int(x) for x in re.findall(r"\d+", rest)]
    return (list(_PAPERS).index(prefix) if prefix in _PAPERS else len(_PAPERS), nums, rest)


def ids() -> list[str]:
    """Every registered id, without building any theorem."""
    _discover()
    return sorted(_ENTRIES, key=_sort_key)


def module_of(theorem_id: str) -> str:
    """The module that registered ``theorem_id`` (its ``@entry`` builder's): a built-in
    paper's under privbounds.registry, a plugin's in its own package."""
    _discover()
    if theorem_id not in _ENTRIES:
        raise ParameterError(f"unknown theorem id {theorem_id!r}{_did_you_mean(theorem_id, ids())}; "
                             "see 'privbounds list' for the known ids")
    return _ENTRIES[theorem_id][0]


def papers() -> dict[str, Paper]:
    _discover()
    return dict(_PAPERS)


def get(theorem_id: str) -> Theorem:
    _discover()
    if theorem_id not in _ENTRIES:
        raise ParameterError(f"unknown theorem id {theorem_id!r}{_did_you_mean(theorem_id, ids())}; "
                             "see 'privbounds list' for the known ids")
    if theorem_id not in _BUILT:
        try:
            thm = _ENTRIES[theorem_id][1]()
        except ErratumError as e:  # made inside the builder: say which theorem it belongs to
            raise ErratumError(f"theorem {theorem_id}: {e}") from None
        if thm.id not in (None, theorem_id):
            raise RuntimeError(f"builder registered as {theorem_id} returned {thm.id}")
        _check_errata(theorem_id, thm.errata)
        thm.id = theorem_id
        thm.paper = thm.paper or _PAPERS[theorem_id.split(".")[0]].title
        # every learner the simulator runs is audited: one claim per audit instance
        from privbounds.claims import audit_claims

        thm.claims = [*thm.claims, *audit_claims(thm.simulator)]
        _BUILT[theorem_id] = thm
    return _BUILT[theorem_id]


def _check_errata(theorem_id: str, errata) -> None:
    """Refuse errata that are not a tuple of ``Erratum`` records (an Erratum refuses an
    empty field itself, when it is made)."""
    if not isinstance(errata, tuple) or not all(isinstance(e, Erratum) for e in errata):
        got = type(errata).__name__ if not isinstance(errata, tuple) else \
            next(type(e).__name__ for e in errata if not isinstance(e, Erratum))
        raise TypeError(f"theorem {theorem_id}: errata must be a tuple of Erratum records, got {got}")


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
            near = _did_you_mean(pat, known)
            if any(c in pat for c in "*?["):
                raise ParameterError(f"no theorem id matches {pat!r}{where}{near}; see 'privbounds list'")
            raise ParameterError(f"unknown theorem id {pat!r}{where}{near}; see 'privbounds list'")
        hits |= matched
    return [i for i in chosen if i in hits]


def _did_you_mean(name: str, known) -> str:
    """`` (did you mean a, b or c?)`` with the known ids closest to a mistyped one ('' if
    none is close): 'siv.thm33' is one keystroke from 'siv.thm3_3'."""
    near = difflib.get_close_matches(name, list(known), n=3)
    if not near:
        return ""
    return f" (did you mean {near[0] if len(near) == 1 else ', '.join(near[:-1]) + ' or ' + near[-1]}?)"


def _source_path(module: str) -> str:
    """A module's file relative to the repository root (the package-dir mapping)."""
    mod = sys.modules.get(module) or importlib.import_module(module)
    path = inspect.getsourcefile(mod) or ""
    root = Path(importlib.import_module("privbounds").__file__).resolve().parent.parent
    try:
        return str(Path(path).resolve().relative_to(root))
    except ValueError:
        return path


def replace_entry(theorem_id: str, builder: Callable[[], Theorem], paper: Paper) -> None:
    """Register (or re-register) an entry made at run time, with its paper: a learner
    measured with ``privbounds.measure`` (privbounds/learners.py), whose description may
    change between two measurements in one process."""
    _discover()
    prefix = theorem_id.split(".")[0]
    old = _PAPERS.get(prefix)
    if old is not None and old.title != paper.title:
        raise RuntimeError(f"paper prefix {prefix!r} of {paper.title!r} is already taken by {old.title!r}")
    _PAPERS[prefix] = paper
    _ENTRIES[theorem_id] = (builder.__module__, builder)
    _BUILT.pop(theorem_id, None)
