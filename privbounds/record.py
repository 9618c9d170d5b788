"""Typed result records: what ``<out>/results/<id>.json`` holds, for every theorem of every
paper (and a plugin's), as frozen dataclasses.

A record is read and validated in one place (``Record.parse``, called by
``results.load``): each field is checked against its declared type, nested records are
built, and a field the type does not know is an error naming it (a record written by
another version of privbounds is rerun, never half read). Figures, pages, findings,
``check`` and the command line read these attributes; no module looks a result up by
key. One function renders a claim's verdict (``verdict_text``) and one its fitted
exponent (``fit_text``).

The rows (one per evaluated sample size) stay plain mappings: they are a tidy table,
read as one (``Record.table``, pandas).
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Union

Point = dict  # a point's parameters: name -> value (a grid point is a mapping by nature)


class RecordShapeError(ValueError):
    """A field of a record is missing, unknown or of the wrong type (the message names it)."""


# --- the records --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Privacy:
    """The guarantee a point's learner declares, and how it was accounted."""

    epsilon: float | None  # None: a non-private learner drawn for comparison
    delta: float | None
    accounting: str = ""


@dataclass(frozen=True)
class PointResult:
    """One grid point: its parameters and, for a searched point, the measured n_hat with its
    interval (``n_high`` None: the target was not reached on the grid, an open interval;
    ``floor_reached``: the learner already succeeds at its smallest n)."""

    point: Point
    conf: float
    trials: int
    privacy: Privacy
    n_hat: int | None = None
    n_low: int | None = None
    n_high: int | None = None
    monotone: bool | None = None
    censored: bool = False
    n_floor: int | None = None
    floor_reached: bool = False

    @property
    def searched(self) -> bool:
        """Whether n_hat was searched at this point (not only fixed sample sizes measured)."""
        return self.monotone is not None


@dataclass(frozen=True)
class Fit:
    """A power law fitted to n_hat against one variable: the exponent and its interval."""

    exponent: float
    low: float
    high: float
    points: int
    method: str


@dataclass(frozen=True)
class Detail:
    """One point of a claim's judgement. Which fields are set depends on the claim's kind:
    a bound (``bound``, ``n_hat`` and its interval), a scaling fit (``x``, ``factor``), a
    success ceiling (``ceiling``, ``p_hat``), a mean bound (``statistic``, ``value``) or a
    privacy audit (``eps_hat``, ``budgets``); the slack and tightness of a bound point,
    and an exact value beside its Monte Carlo estimate (``exact``, ``mc_*``), where known."""

    label: str
    point: Point | None = None
    verdict: str | None = None
    n: int | None = None
    bound: float | None = None
    n_hat: float | None = None
    n_low: float | None = None
    n_high: float | None = None
    trials: int | None = None
    conf: float | None = None
    monotone: bool | None = None
    floor_reached: bool | None = None
    n_floor: int | None = None
    tightness: float | None = None
    tightness_low: float | None = None
    tightness_high: float | None = None
    slack: float | None = None
    slack_low: float | None = None
    slack_high: float | None = None
    x: float | None = None
    factor: float | None = None
    ceiling: float | None = None
    p_hat: float | None = None
    p_low: float | None = None
    p_high: float | None = None
    statistic: str | None = None
    value: float | None = None
    low: float | None = None
    high: float | None = None
    sd: float | None = None
    max: float | None = None
    exact: float | None = None
    exact_target: float | None = None
    mc_value: float | None = None
    mc_low: float | None = None
    mc_high: float | None = None
    mc_conf: float | None = None
    mc_agrees: bool | None = None
    # a privacy audit's instance and its estimate
    name: str | None = None
    learner: str | None = None
    neighbours: str | None = None
    event: str | None = None
    epsilon: float | None = None
    delta: float | None = None
    budgets: dict | None = None
    eps_hat: float | None = None
    eps_hat_doubled: float | None = None
    powered: bool | None = None
    ratio: float | None = None

    @property
    def has_exact(self) -> bool:
        """Whether the point has an exact value beside its Monte Carlo estimate (the exact
        n_hat itself may be None: not reached)."""
        return self.mc_agrees is not None


@dataclass(frozen=True)
class ClaimResult:
    """A claim of the theorem with its verdict and the points it was judged on. The fields
    after ``details`` belong to one kind of claim each (None elsewhere): a bound's
    ``comparison``; a scaling claim's fit; a mean bound's statistic; an audit's epsilons."""

    claim: str
    kind: str
    description: str
    bound_kind: str | None
    bound_source: str | None
    verdict: str
    details: tuple[Detail, ...] = ()
    bound_name: str | None = None
    comparison: bool | None = None
    conf: float | None = None
    reason: str | None = None
    statistic: str | None = None
    quantity: str | None = None
    upper: bool | None = None
    erratum: str | None = None
    corrected: str | None = None
    predicted: float | None = None
    tolerance: float | None = None
    competitors: dict | list | None = None
    variable: str | None = None
    direction: str | None = None
    divided_by: str | None = None
    points_used: int | None = None
    points_censored: int | None = None
    points_at_floor: int | None = None
    fit: Fit | None = None
    fit_raw: Fit | None = None
    finding: str | None = None
    bound_slack: tuple[float, ...] | None = None  # an upper exponent over the law, yet every point under the bound
    epsilon: float | None = None
    delta: float | None = None
    eps_hat: float | None = None
    eps_hat_doubled: float | None = None
    powered: bool | None = None
    ratio: float | None = None
    sources: tuple[str, ...] | None = None

    def detail(self, **point) -> Detail | None:
        """The detail at the point with these parameter values (None if there is none)."""
        return next((d for d in self.details
                     if d.point is not None and all(d.point.get(k) == v for k, v in point.items())), None)


@dataclass(frozen=True)
class ClaimSpec:
    """A claim as the theorem states it (the registry's claim, recorded with the result)."""

    id: str
    kind: str
    description: str
    bound_kind: str | None = None
    bound_source: str | None = None
    bound_name: str | None = None


@dataclass(frozen=True)
class AuditResult:
    """One privacy audit instance: the neighbouring datasets, the event and its counts per
    budget (the declared one and the doubled one)."""

    name: str
    learner: str
    neighbours: str
    event: str
    epsilon: float
    delta: float
    conf: float
    budgets: dict


@dataclass(frozen=True)
class Erratum:
    """A misprint of the paper on which no claim is made (registry.Erratum, as recorded)."""

    where: str
    printed: str
    corrected: str
    why: str


@dataclass(frozen=True)
class Engine:
    """What the run cost: rounds, blocks run and read from the store, their seconds, the
    Dask workers that ran them, numpy's warnings, and a block's mean seconds."""

    rounds: int
    blocks_run: int
    blocks_cached: int
    block_seconds: float
    workers: dict = field(default_factory=dict)
    block_mean: float | None = None
    notes: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Provenance:
    """Where the numbers come from: code version, command, seed, machine and packages;
    ``extra`` holds what a measured learner adds (its name, code and settings)."""

    code_version: str
    command: str
    seed: int
    wall_seconds: float
    fidelity: str = ""
    jobs: int | None = None
    backend: str = ""
    python: str = ""
    platform: str = ""
    packages: dict = field(default_factory=dict)
    finished: str = ""
    extra: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Record:
    """The result of one theorem at one fidelity (design.md, "Results on disk")."""

    id: str
    paper: str
    number: str
    title: str
    statement: str
    fidelity: str
    provenance: Provenance | None = None  # None only on a page of an entry that is not run
    status: str = "finished"
    reason: str = ""
    tested_by: tuple[str, ...] = ()
    errata: tuple[Erratum, ...] = ()
    unaudited: dict = field(default_factory=dict)
    claims: tuple[ClaimSpec, ...] = ()
    math: str = ""
    notes: str = ""
    overrides: dict = field(default_factory=dict)
    conf: float | None = None
    methods: str = ""
    points: tuple[PointResult, ...] = ()
    audits: tuple[AuditResult, ...] = ()
    verdicts: tuple[ClaimResult, ...] = ()
    engine: Engine | None = None
    rows: tuple[dict, ...] = ()
    error: str | None = None
    log: str | None = None

    @classmethod
    def parse(cls, data) -> Record:
        """The record of a JSON object; RecordShapeError names the first field that is wrong."""
        if not isinstance(data, dict):
            raise RecordShapeError(f"not a result record (a JSON object is expected, found {type(data).__name__})")
        prov = data.get("provenance")
        if isinstance(prov, dict):  # what a measured learner adds goes to ``extra``
            known = {f.name for f in dataclasses.fields(Provenance)}
            data = {**data, "provenance": {**{k: v for k, v in prov.items() if k in known},
                                           "extra": {k: v for k, v in prov.items() if k not in known}}}
        return _build(cls, data, "")

    def claim(self, claim_id: str) -> ClaimResult:
        """The verdict of one claim; KeyError names the claims there are."""
        for v in self.verdicts:
            if v.claim == claim_id:
                return v
        raise KeyError(f"{self.id} has no claim {claim_id!r} (it has {', '.join(v.claim for v in self.verdicts)})")

    def shown(self) -> tuple[ClaimResult, ...]:
        """The claims a figure shows: all but the privacy audits (a table on the page)."""
        return tuple(v for v in self.verdicts if v.kind != "privacy audit")

    def select(self, **kw) -> list[PointResult]:
        """The points whose parameters take these values."""
        return [p for p in self.points if all(p.point.get(k) == v for k, v in kw.items())]

    def table(self):
        """The rows as a pandas DataFrame (imported here: most readers never need it)."""
        import pandas as pd

        return pd.DataFrame(list(self.rows))

    def to_dict(self) -> dict:
        """The JSON object this record was read from (``provenance.extra`` merged back)."""
        out = dataclasses.asdict(self)
        prov = out["provenance"]
        if prov is not None:
            out["provenance"] = {**{k: v for k, v in prov.items() if k != "extra"}, **prov["extra"]}
        return out


# --- one rendering of a verdict and of a fit ---------------------------------------------------


def verdict_text(v: ClaimResult) -> str:
    """A claim's verdict as every page, figure and command prints it: ``claim: verdict``."""
    return f"{v.claim}: {v.verdict}"


def fit_text(v: ClaimResult, digits: int = 2) -> str:
    """A scaling claim's fitted exponent with its interval, the raw fit where the claim
    divides n_hat by a factor, and what the theorem allows (an upper bound allows anything
    below its exponent, a lower bound anything above); ``digits`` after the point (a
    figure's legend 2, the findings' evidence 3)."""
    f = v.fit
    if f is None:
        return "no fit"
    what = f"exponent of n_hat / ({v.divided_by})" if v.divided_by else "exponent"
    if v.variable:
        what += f" in {v.variable}"
    raw = v.fit_raw
    k = f".{digits}f"
    raw_text = f"; raw {raw.exponent:{k}} [{raw.low:{k}}, {raw.high:{k}}]" if raw else ""
    bound = {"upper": "at most", "lower": "at least"}.get(v.direction or "", "predicted")
    pred = f", {bound} {v.predicted:g}" if v.predicted is not None else ""
    return f"{what} {f.exponent:{k}} [{f.low:{k}}, {f.high:{k}}]{raw_text}{pred}"


def verdict_summary(claims, most: int = 6) -> str:
    """Claims grouped by verdict, in order of first appearance: ``confirmed: a, b; refuted: c``."""
    by: dict = {}
    for v in claims:
        by.setdefault(v.verdict, []).append(v.claim)
    parts = []
    for word, ids in by.items():
        shown = ", ".join(ids[:most]) + (f" and {len(ids) - most} more" if len(ids) > most else "")
        parts.append(f"{word}: {shown}")
    return "; ".join(parts)


# --- building and checking ----------------------------------------------------------------------


def parse(cls, data):
    """A record part (``ClaimResult``, ``Detail``, ...) from its JSON object, checked like a
    whole record (a test or a plugin builds one this way)."""
    return _build(cls, data, "")


@functools.cache
def _hints(cls) -> dict:
    return typing.get_type_hints(cls)


def _build(cls, data, where: str):
    """``cls`` from the mapping ``data``, every field checked against its type."""
    if not isinstance(data, dict):
        raise RecordShapeError(f"{where or cls.__name__} must be an object, found {type(data).__name__}")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise RecordShapeError(f"{_at(where, unknown[0])} is not a field of {cls.__name__}")
    kwargs = {}
    for name, f in fields.items():
        if name not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise RecordShapeError(f"{_at(where, name)} is missing")
            continue
        kwargs[name] = _value(_hints(cls)[name], data[name], _at(where, name))
    return cls(**kwargs)


def _at(where: str, name) -> str:
    return f"{where}.{name}" if where else str(name)


def _value(hint, value, where: str):
    """``value`` checked against ``hint`` (and built, for a nested record or a tuple)."""
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        args = typing.get_args(hint)
        if value is None and type(None) in args:
            return None
        errors, kinds = [], [a for a in args if a is not type(None)]
        for arg in kinds:
            try:
                return _value(arg, value, where)
            except RecordShapeError as e:
                errors.append(e)
        if len(kinds) == 1 and dataclasses.is_dataclass(kinds[0]) and isinstance(value, dict):
            raise errors[0]  # an optional part that is there: its error names the field inside it
        raise RecordShapeError(f"{where} must be {_describe(hint)}, found {_shown(value)}")
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise RecordShapeError(f"{where} must be a list, found {_shown(value)}")
        item = typing.get_args(hint)[0]
        return tuple(_value(item, x, f"{where}[{i}]") for i, x in enumerate(value))
    if dataclasses.is_dataclass(hint):
        return _build(hint, value, where)
    if hint is Any or _is(value, origin or hint):
        return value
    raise RecordShapeError(f"{where} must be {_describe(hint)}, found {_shown(value)}")


def _is(value, kind) -> bool:
    if kind is type(None):
        return value is None
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


_NAMES = {str: "a string", int: "an integer", float: "a number", bool: "true or false", dict: "an object",
          list: "a list", type(None): "null"}


def _describe(hint) -> str:
    args = typing.get_args(hint) if typing.get_origin(hint) in (Union, types.UnionType) else (hint,)
    return " or ".join(_NAMES.get(typing.get_origin(a) or a, getattr(a, "__name__", str(a))) for a in args)


def _shown(value) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text[:40]}{'...' if len(text) > 40 else ''}"
