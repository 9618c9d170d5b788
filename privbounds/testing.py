"""The common checks every registered theorem passes, built-in or from a plugin (in the
manner of scikit-learn's ``check_estimator`` / ``parametrize_with_checks``).

Not tied to one paper: the built-in suite (tests/core/test_simulators.py,
tests/core/test_registry.py) and a plugin's own tests call the same functions, so a paper
in its own package is held to exactly the contract the engine, the claims and ``check``
rely on. Three groups:

- a simulator (``SIMULATOR_CHECKS``): every parameter declared with a finite range and
  refusing values outside it by name, grid points unique, valid, canonical and JSON,
  ``n_range`` sane, privacy declared as (epsilon, delta, accounting) with an audit (and
  its noise sources) or a reason, the same seed giving the same trials and the trials
  drawn from the generator given, one value per trial for any block size, a memory
  estimate (if any) finite, every claim's bound callable at the points it selects;
- a claim set (``CLAIM_CHECKS``): each claim's bound a tagged function of a bounds module,
  kinds and ids valid, errata and scaling directions well formed, every verdict
  computable on a tiny fake measurement (``fake_measurement``);
- a paper (``PAPER_CHECKS``): ids under its prefix and unique, every theorem simulated or
  saying why not, a quick baseline holding every simulated theorem with its claims.

``check_paper(prefix)`` runs them all and raises an AssertionError naming the check and
the theorem; ``parametrize_with_checks(prefix or ids)`` gives one pytest case per check.
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from privbounds import registry
from privbounds.claims import (
    DIRECTIONS,
    VERDICTS,
    BoundClaim,
    BoundRef,
    Ceiling,
    MeanBound,
    PrivacyAudit,
    Scaling,
    evaluate_claims,
)
from privbounds.fakes import fake_measurement
from privbounds.params import Interval, ParameterError
from privbounds.simulators.engine.simulator import FIDELITIES, point_key

CLAIM_KINDS = ("upper bound", "lower bound", "success ceiling", "mean bound", "scaling", "privacy audit")
BOUND_KINDS = ("exact", "up to constants", "asymptotic")
# no run of the engine reaches beyond this n (a search's cap of 2^30 is the largest registered)
N_CAP = 1 << 40
# a result of a paper as a claim's text names it ("Theorem 5.1", "Lemma 3.7", "section 1.1")
RESULT = re.compile(r"\b(?:Theorem|Thm|Lemma|Lem|Corollary|Cor|Proposition|Prop|Observation|Obs|Example|Ex|"
                    r"Remark|Rem|Claim|section)\s+\d+(?:\.\d+)*", re.IGNORECASE)


@dataclass(frozen=True)
class Check:
    """One common check applied to one target (a theorem id, or a paper's prefix)."""

    name: str
    target: str
    fn: Callable

    @property
    def id(self) -> str:
        return f"{self.target}-{self.name}"

    def __call__(self) -> None:
        obj = self.target if self.fn in PAPER_CHECKS else registry.get(self.target)
        try:
            self.fn(obj)
        except AssertionError as e:  # one message that says which check and which theorem
            raise AssertionError(f"check {self.name} failed for {self.target}: {e}") from None


# --- a simulator ------------------------------------------------------------------------------

def _sim(thm):
    assert thm.simulator is not None, "a simulated theorem has no simulator"
    assert thm.simulator.theorem_id == thm.id, f"simulator.theorem_id is {thm.simulator.theorem_id!r}"
    return thm.simulator


def check_params_finite(thm) -> None:
    """No value a user may give makes a run's memory or time unbounded or its arithmetic
    overflow: every interval has both ends, and a real one that starts at 0 a positive floor."""
    for name, spec in _sim(thm).params.items():
        assert spec.name == name, f"parameter {name!r} is declared under the name {spec.name!r}"
        if isinstance(spec, Interval):
            assert spec.low is not None and spec.high is not None, \
                f"parameter {name} has an infinite range: {spec.describe()}"
            assert spec.integer or spec.low > 0 or spec.floor, f"parameter {name} has no floor: {spec.describe()}"


def check_params_refuse_bad_values(thm) -> None:
    """Every value just outside a parameter's range is refused by name, before any work."""
    sim = _sim(thm)
    for name, spec in sim.params.items():
        for bad in spec.bad_values():
            try:
                sim.points("smoke", {name: [bad]})
            except ParameterError as e:
                assert str(e).startswith(f"{name} must be"), f"--set {name}={bad!r} is refused as: {e}"
            else:
                raise AssertionError(f"--set {name}={bad!r} is accepted, outside {spec.describe()}")


def check_grid(thm) -> None:
    """Each fidelity's points: some, unique, valid (they pass ``points``), canonical, JSON."""
    sim = _sim(thm)
    for fid in FIDELITIES:
        pts = sim.points(fid)
        assert pts, f"no grid points at {fid}"
        keys = [point_key(p) for p in pts]
        assert len(set(keys)) == len(keys), f"duplicate grid points at {fid}"
        for p in pts:
            assert sim.canonical(p) == p, f"point {point_key(p)} is not canonical"
            json.dumps(p)  # a point must be JSON (it keys seeds and the cache)


def check_n_range(thm) -> None:
    """1 <= n_floor <= the search's start <= its cap < N_CAP, integers; a curve's sizes
    non-negative integers below N_CAP."""
    sim = _sim(thm)
    for fid in FIDELITIES:
        for p in sim.points(fid):
            lo, hi = sim.n_range(p)
            assert all(isinstance(x, (int, np.integer)) for x in (lo, hi)), f"n_range {lo, hi} is not integers"
            assert 1 <= lo <= hi < N_CAP, f"n_range {lo, hi} at {point_key(p)}"
            curve = sim.curve(p)
            if curve is None:
                assert 1 <= sim.n_floor(p) <= lo, f"n_floor {sim.n_floor(p)} not in [1, {lo}] at {point_key(p)}"
            else:
                # n is what the simulator makes of it (an index of parts in bns.prop3_11's curve: 0, 1, 2)
                assert curve and all(isinstance(n, (int, np.integer)) and 0 <= n < N_CAP for n in curve), \
                    f"curve {curve} at {point_key(p)}"


def _first(sim, point) -> int:
    """The first sample size the engine runs at a point."""
    curve = sim.curve(point)
    return int(curve[0]) if curve else int(sim.n_range(point)[0])


def check_run_trials(thm) -> None:
    """One value per trial for any block size (a boolean success, or one finite real for
    a simulator that measures a mean, which then has fixed sample sizes), the same seed
    gives the same values, and no value comes from a global generator."""
    sim = _sim(thm)
    p = sim.points("smoke")[0]
    n = _first(sim, p)
    before = _global_states()
    for trials in (1, 5):
        out = sim.run_trials(p, n, trials, np.random.default_rng(1))
        assert isinstance(out, np.ndarray) and out.shape == (trials,), \
            f"run_trials(trials={trials}) returned {type(out).__name__} of shape {np.shape(out)}"
    if sim.measure == "mean":
        assert out.dtype.kind in "fiu" and np.all(np.isfinite(out)), "a mean's trials must be finite reals"
        assert all(sim.curve(q) for q in sim.points("smoke")), "a mean needs fixed sample sizes"
    else:
        assert sim.measure == "success", f"measure must be 'success' or 'mean', got {sim.measure!r}"
        assert out.dtype == bool, f"run_trials returned {out.dtype}, not bool"
    again = sim.run_trials(p, n, 5, np.random.default_rng(1))
    assert np.array_equal(out, again), "the same seed gave different trials: randomness not from rng"
    # booleans at one n can agree by chance; a draw from a global generator cannot hide
    assert _global_states() == before, "run_trials draws from numpy's or Python's global generator, not from rng"


def _global_states() -> tuple:
    """The states of numpy's legacy global generator and of Python's ``random``."""
    import random

    kind, keys, pos, has_gauss, cached = np.random.get_state()
    return kind, keys.tobytes(), pos, has_gauss, cached, random.getstate()


def check_uses_rng(thm) -> None:
    """The trials draw from the generator the engine gives (else every block, whatever its
    seed, repeats one sample): at some smoke point a block advances it."""
    sim = _sim(thm)
    for p in sim.points("smoke"):
        rng = np.random.default_rng(2)
        state = rng.bit_generator.state
        sim.run_trials(p, _first(sim, p), 3, rng)
        if rng.bit_generator.state != state:
            return
    raise AssertionError("run_trials never draws from its rng at any smoke point: it ignores its seed")


def check_memory(thm) -> None:
    """A memory estimate, where the simulator gives one, is a finite positive number of bytes."""
    sim = _sim(thm)
    for fid in FIDELITIES:
        for p in sim.points(fid):
            m = sim.block_memory(p, fid)
            assert m is None or (np.isfinite(m) and m > 0), f"memory estimate {m!r} at {point_key(p)} ({fid})"


def check_experiment_column(thm) -> None:
    """The rows' own ``experiment`` column overwrites a point parameter of that name: a
    simulator may use it only with the same meaning."""
    sim = _sim(thm)
    for fid in FIDELITIES:
        for p in sim.points(fid):
            if "experiment" in p:
                want = "mean" if sim.measure == "mean" else "curve" if sim.curve(p) else "search"
                assert p["experiment"] == want, f"parameter 'experiment'={p['experiment']!r} collides with the rows'"


def check_privacy(thm) -> None:
    """Every point declares (epsilon, delta, accounting); a private learner has audit
    instances (each with unique noise sources at call sites that exist) or says in
    ``unaudited`` why not."""
    sim = _sim(thm)
    private = False
    for fid in FIDELITIES:
        for p in sim.points(fid):
            priv = sim.privacy(p)
            assert set(priv) == {"epsilon", "delta", "accounting"} and priv["accounting"], f"privacy {priv}"
            if priv["epsilon"] is not None:
                private = True
                assert priv["epsilon"] > 0 and 0 <= priv["delta"] < 1, f"privacy {priv} at {point_key(p)}"
    cases = sim.audits()
    assert not private or cases or sim.unaudited, "runs a private learner without an audit or a reason"
    assert len({c.name for c in cases}) == len(cases), "audit names repeat"
    for c in cases:
        assert c.epsilon > 0 and 0 <= c.delta < 1 and c.trials >= 1000, f"audit {c.name}: budget or trials"
        assert c.learner and c.neighbours and c.event, f"audit {c.name}: learner, neighbours and event"
        # the engine sends the events function to workers by reference
        assert getattr(importlib.import_module(c.events.__module__), c.events.__name__, None) is c.events, \
            f"audit {c.name}: events is not a module-level function"
        json.dumps(c.spec)
        _check_sources(c)
    for what, why in sim.unaudited.items():
        assert what and len(why) > 40, f"say why {what!r} has no powered audit"


def _check_sources(case) -> None:
    names = [s.name for s in case.noise_sources]
    assert len(names) == len(set(names)), f"audit {case.name}: noise source names repeat"
    for s in case.noise_sources:
        mod, attr = s.site.split(":")
        assert hasattr(importlib.import_module(mod), attr), f"audit {case.name}: no site {s.site}"
        if s.arg is not None:
            assert s.arg in inspect.signature(getattr(importlib.import_module(mod), attr)).parameters, \
                f"audit {case.name}: {s.site} takes no argument {s.arg!r}"


def check_audits_seeded(thm) -> None:
    """Each audit instance returns counts within its trials, the same for the same seed."""
    for c in _sim(thm).audits():
        a = c.run(1.0, 64, np.random.default_rng(5))
        b = c.run(1.0, 64, np.random.default_rng(5))
        assert a == b and all(0 <= h <= 64 for h in a), f"audit {c.name}: {a} then {b}"


def _curve_rows(sim, pts) -> list[dict]:
    return [{**p, "n": int(n)} for p in pts if sim.curve(p) for n in sim.curve(p)]


def check_claims_select(thm) -> None:
    """Every claim selects at least one point of every fidelity, of the kind it judges, and
    its bound evaluates there to a number (not NaN)."""
    sim = _sim(thm)
    for fid in FIDELITIES:
        pts = sim.points(fid)
        for c in thm.claims:
            if isinstance(c, PrivacyAudit):  # judged on its own instance, not on the grid
                continue
            curves = isinstance(c, (Ceiling, MeanBound))  # judged on curve rows: the point with its n
            chosen = [r for r in (_curve_rows(sim, pts) if curves else [p for p in pts if sim.curve(p) is None])
                      if c.select(r)]
            assert chosen, f"claim {c.id} selects no {'curve row' if curves else 'searched point'} at {fid}"
            ref = getattr(c, "bound", None)
            if isinstance(ref, BoundRef) and fid != "full":  # the full grids only repeat them, larger
                for r in chosen:
                    v = ref(r)
                    assert not np.isnan(v), f"claim {c.id}: bound {ref.name} is NaN at {point_key(r)}"


SIMULATOR_CHECKS = (check_params_finite, check_params_refuse_bad_values, check_grid, check_n_range,
                    check_run_trials, check_uses_rng, check_memory, check_experiment_column, check_privacy,
                    check_audits_seeded, check_claims_select)


# --- a claim set ------------------------------------------------------------------------------

def _bounds_module_ok(thm, module: str) -> bool:
    """A built-in paper's bounds live in privbounds.bounds; a plugin's in a module named
    ``bounds`` (or under a package of that name) of the plugin's own package."""
    if module.startswith("privbounds.bounds."):
        return True
    home = registry.module_of(thm.id).split(".")[0]
    parts = module.split(".")
    return home != "privbounds" and parts[0] == home and "bounds" in parts[1:]


def check_claim_bounds(thm) -> None:
    """Each bound or ceiling is ``use(<bounds function>, ...)``: a function of a bounds
    module, tagged with its kind and source (``privbounds.bounds._meta.bound``)."""
    for c in thm.claims:
        if isinstance(c, (BoundClaim, Ceiling, MeanBound)):
            assert isinstance(c.bound, BoundRef), f"claim {c.id}: bound is not use(<bounds function>, ...)"
            fn = c.bound.fn
            assert _bounds_module_ok(thm, fn.__module__), \
                f"claim {c.id}: bound {c.bound.name} is not in a bounds module of its paper's package"
            assert getattr(fn, "kind", None) in BOUND_KINDS and getattr(fn, "source", None), \
                f"claim {c.id}: bound {c.bound.name} is not tagged with @bound(kind, source)"


def check_claim_kinds(thm) -> None:
    """Claim ids unique and non-empty, kinds from the vocabulary, errata beside the claim on
    the corrected form, a scaling claim one-sided unless it names the two results that
    make it tight."""
    ids = [c.id for c in thm.claims]
    assert all(ids) and len(ids) == len(set(ids)), f"claim ids empty or repeated: {ids}"
    by_id = {c.id: c for c in thm.claims}
    for c in thm.claims:
        assert c.kind in CLAIM_KINDS, f"claim {c.id}: kind {c.kind!r} is not one of {', '.join(CLAIM_KINDS)}"
        assert c.description, f"claim {c.id} has no description"
        assert bool(c.erratum) == bool(c.corrected), f"claim {c.id}: erratum and corrected go together"
        if c.erratum:
            assert c.corrected in by_id and c.corrected != c.id, f"claim {c.id}: no claim {c.corrected!r}"
            assert not by_id[c.corrected].erratum, f"claim {c.corrected} is itself an erratum"
        if isinstance(c, Scaling):
            assert c.direction in DIRECTIONS, f"claim {c.id}: direction {c.direction!r}"
            if c.direction == "tight":
                cited = {" ".join(m.lower().split()) for m in RESULT.findall(c.description)}
                assert len(cited) >= 2, f"claim {c.id}: a tight claim names both results, found {sorted(cited)}"


def check_claims_verdicts(thm) -> None:
    """Every claim reaches a verdict of the vocabulary on a tiny fake measurement, in a
    form the typed record reads back (what a run writes is what every command reads)."""
    from privbounds.record import ClaimResult, RecordShapeError, parse
    from privbounds.results import _jsonable

    points, rows, audits = fake_measurement(_sim(thm))
    for v in json.loads(json.dumps(evaluate_claims(thm.claims, points, rows, audits), default=_jsonable)):
        assert v["verdict"] in VERDICTS, f"claim {v['claim']}: verdict {v['verdict']!r} is not of the vocabulary"
        try:
            parse(ClaimResult, v)
        except RecordShapeError as e:
            raise AssertionError(f"claim {v['claim']}: its verdict record does not read back: {e}") from None


def check_notes(thm) -> None:
    """The notes' placeholders name the theorem's claims and parameters, and no measured
    number is typed as prose (privbounds/notes.py)."""
    from privbounds.notes import bare_numbers, problems

    assert not problems(thm), f"notes: {'; '.join(problems(thm))}"
    assert not bare_numbers(thm.notes), f"notes type measured numbers: {bare_numbers(thm.notes)}"


CLAIM_CHECKS = (check_claim_bounds, check_claim_kinds, check_claims_verdicts, check_notes)


# --- a paper ----------------------------------------------------------------------------------

def _paper(prefix: str):
    papers = registry.papers()
    assert prefix in papers, f"no paper {prefix!r} is registered (known: {', '.join(papers)})"
    return papers[prefix], [registry.get(i) for i in registry.ids() if i.split(".")[0] == prefix]


def check_paper_ids(prefix: str) -> None:
    """Ids are ``<prefix>.<name>`` (a name of letters, digits and _), unique, each with a
    number, a title and a statement."""
    _, thms = _paper(prefix)
    assert thms, "the paper registers no theorem"
    ids = [t.id for t in thms]
    assert len(ids) == len(set(ids)), "theorem ids repeat"
    for t in thms:
        assert re.fullmatch(rf"{re.escape(prefix)}\.[a-z0-9_]+", t.id), f"{t.id}: an id is <prefix>.<name>"
        assert t.number and t.title and t.statement, f"{t.id}: number, title and statement must be given"


def check_paper_entries(prefix: str) -> None:
    """Every theorem is simulated, or says why not and which entries test it."""
    _, thms = _paper(prefix)
    for t in thms:
        assert t.status in (registry.SIMULATED, registry.BOUND_ONLY, registry.SUMMARY), f"{t.id}: status {t.status}"
        if t.runnable:
            assert t.simulator is not None, f"{t.id}: simulated, without a simulator"
            continue
        assert t.reason and t.simulator is None and not t.claims, f"{t.id}: not simulated, and no reason given"
        if t.status == registry.SUMMARY:
            assert t.tested_by, f"{t.id}: a summary names the entries that measure it"
        for other in t.tested_by:
            assert registry.get(other).runnable, f"{t.id}: tested_by names {other}, which is not simulated"


def check_paper_baselines(prefix: str) -> None:
    """The quick baseline (what CI checks) holds every simulated theorem with its claims."""
    from privbounds.reports.baseline import baseline_path, read_baseline

    paper, thms = _paper(prefix)
    if paper.kind != "paper":  # measured learners keep their baselines in their --out
        return
    path = baseline_path(prefix, "quick")
    make = (f"make it with 'privbounds run --paper {prefix} --fidelity quick --jobs 2 --out OUT' then "
            f"'privbounds check --update --out OUT'")
    assert path.is_file(), f"no quick baseline at {path}; {make}"
    held = read_baseline(path)["theorems"]
    for t in thms:
        if t.runnable:
            assert t.id in held, f"{t.id}: not in the quick baseline {path}; {make}"
            assert set(held[t.id]["claims"]) == {c.id for c in t.claims}, \
                f"{t.id}: the quick baseline {path} holds other claims than the theorem's; {make}"


PAPER_CHECKS = (check_paper_ids, check_paper_entries, check_paper_baselines)


# --- running them ------------------------------------------------------------------------------

def _targets(ids_or_paper) -> tuple[list[str], list[str]]:
    """(paper prefixes, theorem ids): a prefix names a whole paper; an id or shell pattern
    (with a '.') names theorems, and the papers they belong to are not checked as papers."""
    items = [ids_or_paper] if isinstance(ids_or_paper, str) else list(ids_or_paper)
    prefixes = [i for i in items if "." not in i]
    for p in prefixes:
        _paper(p)
    ids = registry.select([i for i in items if "." in i]) if any("." in i for i in items) else []
    ids += [i for i in registry.ids() if i.split(".")[0] in prefixes and i not in ids]
    return prefixes, ids


def checks(ids_or_paper) -> Iterator[Check]:
    """Every common check of a paper (its prefix), or of theorems (ids or patterns): the
    paper's own, then each theorem's simulator and claim checks (a theorem that is not
    simulated has only its claim checks, and no claims)."""
    prefixes, ids = _targets(ids_or_paper)
    for p in prefixes:
        for fn in PAPER_CHECKS:
            yield Check(fn.__name__, p, fn)
    for tid in ids:
        own = SIMULATOR_CHECKS + CLAIM_CHECKS if registry.get(tid).runnable else CLAIM_CHECKS[:2]
        for fn in own:
            yield Check(fn.__name__, tid, fn)


def parametrize_with_checks(ids_or_paper):
    """A pytest decorator with one case per check, ``check``, to call:

        @parametrize_with_checks("mypaper")
        def test_common(check):
            check()
    """
    import pytest

    cases = list(checks(ids_or_paper))
    return pytest.mark.parametrize("check", [pytest.param(c, id=c.id) for c in cases])


def check_theorem(theorem_id: str) -> None:
    """Every check of one theorem; an AssertionError names the first that fails."""
    for c in checks([theorem_id]):
        c()


def check_paper(prefix: str) -> None:
    """Every check of a paper and of each of its theorems; an AssertionError names the
    first that fails and the theorem (or paper) it failed for."""
    for c in checks(prefix):
        c()
