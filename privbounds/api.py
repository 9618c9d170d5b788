"""The Python API behind the CLI: run, figures, report, check, reproduce.

Every function validates all of its inputs before any work starts, so a bad option
costs nothing and leaves earlier results untouched.
"""

from __future__ import annotations

import contextlib
import functools
import sys
import time
import traceback
import warnings
from collections.abc import Sequence
from numbers import Integral
from pathlib import Path

from privbounds import plan
from privbounds.arguments import (  # noqa: F401  (resolve_ids, normalise_overrides, validate_common: used from here)
    _ids_arg,
    capped_jobs,
    check_memory,
    check_replacing,
    normalise_overrides,
    resolve_ids,
    validate_common,
)
from privbounds.claims import evaluate_claims
from privbounds.params import ParameterError, flag
from privbounds.provenance import code_version, provenance
from privbounds.registry import get
from privbounds.results import (
    DEFAULT_OUT,
    ResultError,
    check_writable,
    load,
    load_valid,
    no_results,
    results_dir,
    run_command,
    save,
    write_log,
)
from privbounds.simulators.engine.blockstore import DEFAULT_MAX_BYTES, legacy_cache
from privbounds.simulators.engine.pipeline import warning_line
from privbounds.simulators.engine.runner import run_points
from privbounds.simulators.engine.store import clean_temporary, locked

METHODS = (
    "Success: the theorem's accuracy goal, with errors computed exactly from the "
    "distribution. p(n): Clopper-Pearson intervals. n_hat: smallest grid n with "
    "p_hat >= 1 - beta; interval from the first n not excluded by the upper Clopper-Pearson "
    "end to the first n whose lower end reaches 1 - beta; a search whose start already "
    "succeeds halves n below it until an n fails or the learner's smallest n is reached "
    "(then recorded as floor_reached, and n_low is that n); at each n the first block is "
    "looked at alone, and when its interval at 5% of the search's error level already lies "
    "wholly above or below 1 - beta the n is decided on that block (its other blocks are not "
    "run); intervals are Bonferroni-adjusted over the theorem's n_hat searches, the looks "
    "included (simultaneous 95%). Exact n_hat, where p(n) has an "
    "exact form (nondecreasing in n): the smallest n with p(n) >= 1 - beta, by doubling and "
    "bisection; it decides the verdict, and the interval recomputed from the counts at joint "
    "99.9% over the claim's exact points must hold it. Ceilings: Clopper-Pearson, "
    "Bonferroni over the claim's points. Measured means (one real value per trial: an "
    "excess risk, a stability, a privacy loss): Student-t intervals, Bonferroni over the "
    "claim's points; a worst-case claim compares the largest value over every instance "
    "tried. Exponents: weighted least squares of log n_hat on log x, Student-t 95% interval.")


class TheoremsFailed(Exception):
    """Some theorems raised while running; the others finished and were written.
    ``failures`` maps theorem id -> (one-line message, path of the log with the traceback)."""

    def __init__(self, failures: dict, records: dict):
        self.failures, self.records = failures, records
        super().__init__(f"{len(failures)} theorem(s) failed: {', '.join(failures)}")


def run(ids=None, fidelity: str = "quick", jobs: int = 1, seed: int = 0, out=DEFAULT_OUT,
        backend: str = "loky", scheduler: str | None = None, overrides: dict | None = None,
        progress: bool = True, command: str | None = None, paper: str | None = None,
        use_cache: bool = True, cache_max: int = DEFAULT_MAX_BYTES, force_jobs: bool = False,
        force: bool = False) -> dict:
    """Run the simulators of ``ids`` (all runnable theorems by default; exact ids or shell
    patterns, optionally limited to ``paper``), evaluate every claim and write each theorem's
    ``results/<id>.json`` and ``.csv`` as soon as it finishes. Returns {id: result record};
    raises ``TheoremsFailed`` (after writing the others) when some theorems raised, each
    recorded as failed with its traceback's path; refuses ``overrides`` that would replace
    registered results in ``out``, unless ``force``."""
    if str(out).strip():
        from privbounds.learners import load_saved

        # learners measured into this folder are entries too (to say how to rerun them); this
        # also refuses an out that no folder can be named (results.folder_name)
        load_saved(out)
    ids = _selected(ids, paper)
    validate_common(fidelity, jobs, seed, backend)
    jobs = capped_jobs(jobs, backend, scheduler, force_jobs)
    overrides = normalise_overrides(overrides)
    work, fids = _work(ids, fidelity, overrides)
    if not scheduler:  # a remote cluster's workers have their own memory (not checked here)
        check_memory(work, fidelity, 1 if backend == "sequential" else jobs)
    if not str(out).strip():
        raise ParameterError(f"{flag('out')} must name a folder, got ''")
    check_replacing(Path(out), ids, fidelity, seed, overrides, force)  # before anything is written
    out = check_writable(out)
    if command is None:  # called from Python rather than the CLI
        command = (f"privbounds.run({ids!r}, fidelity={fidelity!r}, jobs={jobs}, seed={seed}, "
                   f"backend={backend!r}, overrides={overrides!r})")
    version = code_version()
    records, failures = {}, {}

    def done(tid: str, res: dict) -> None:
        thm = get(tid)
        prov = provenance(version, fidelity, seed, jobs, backend, res.get("wall_seconds", 0.0), command)
        extra = getattr(thm.simulator, "provenance", None)
        if callable(extra):  # a measured learner: which learner, its code's identity and settings
            prov.update(extra())
        head = {**thm.summary(), "math": thm.math, "notes": thm.notes, "fidelity": fidelity,
                "overrides": {k: v for k, v in overrides.items() if k in thm.simulator.params}}
        try:
            if "error" in res:
                raise _BlockError(res["error"])
            rows = [{"theorem": tid, **r, "seed": seed, "code_version": version} for r in res["rows"]]
            record = {**head, "status": "finished", "conf": res["conf"], "methods": METHODS,
                      "points": res["points"],
                      "audits": res.get("audits", []),
                      "verdicts": evaluate_claims(thm.claims, res["points"], res["rows"], res.get("audits", [])),
                      "engine": _engine(res, expected.get(tid, (None, None))[1]), "provenance": prov}
            records[tid] = save(out, tid, record, rows)
        except Exception as e:
            tb = e.text if isinstance(e, _BlockError) else traceback.format_exc()
            log = write_log(out, tid, f"{command}\n\n{tb}")
            message = tb.strip().splitlines()[-1]
            save(out, tid, {**head, "status": "failed", "error": message, "log": str(log),
                            "points": [], "verdicts": [], "provenance": prov}, [])
            failures[tid] = (message, log)

    with locked(out), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RuntimeWarning)  # numpy's overflow and invalid-value warnings
        clean_temporary(out)
        legacy = legacy_cache(out)
        if legacy:
            print(legacy, file=sys.stderr)
        expected = _last_seconds(out, ids, fidelity, overrides)
        # the scale model's costs, read before this run replaces them (a --set grid has none)
        known, started, slots = {} if overrides else plan.costs(ids, fidelity, out), time.perf_counter(), []
        run_points(work, fids, seed, out, jobs=jobs, backend=backend, scheduler=scheduler,
                   progress=progress, use_cache=use_cache, on_done=done, expected=expected,
                   cache_max=cache_max, on_start=functools.partial(_started, slots, work, fidelity))
        if slots:  # the workers came up: log what the run took beside what the model said
            plan.record_run(out, fidelity=fidelity, theorems=len(ids), workers=slots[0], backend=backend,
                            wall=time.perf_counter() - started, code_version=version, cached=_cached(records),
                            predicted=plan.predict("run", ids, known, slots[0]) if known else None)
    _say_notes(records, caught)
    if failures:
        raise TheoremsFailed(failures, records)
    return {tid: records[tid] for tid in ids}


def _cached(records: dict) -> int:
    """Blocks the run's finished theorems read from the store."""
    return sum(r.engine.blocks_cached for r in records.values() if r.engine)


def _engine(res: dict, last_mean: float | None) -> dict:
    """A record's ``engine``: the blocks run and read, their seconds, the Dask workers that ran
    them, the numpy warnings they raised, and a block's mean seconds (this run's, or for a
    run that read every block from the store, the last run's: the scale model's input)."""
    return {**{k: res[k] for k in ("rounds", "blocks_run", "blocks_cached", "block_seconds", "workers")},
            "block_mean": res["block_seconds"] / res["blocks_run"] if res["blocks_run"] else last_mean,
            "notes": res.get("notes", {})}


def _started(slots: list, work: dict, fidelity: str, backend) -> None:
    """Once the workers are up: keep their number for the run log, and on a Dask cluster
    whose workers declare their memory, refuse a point whose largest block would not fit in
    the smallest worker's share (this machine's was checked before)."""
    slots.append(backend.slots)
    if backend.memory:
        check_memory(work, fidelity, 1, total=backend.memory, where="the smallest Dask worker thread")


def _say_notes(records: dict, caught: list) -> None:
    """numpy's warnings as the run's own notes, one line each: those the blocks raised in their
    workers (recorded with each theorem, ``engine.notes``) and those raised here (claims,
    bounds, the threading backend's blocks); other warnings are shown as they came."""
    for tid, rec in records.items():
        for line, blocks in (rec.engine.notes if rec.engine else {}).items():
            print(f"privbounds: note: {tid}: {blocks} block{'s' if blocks != 1 else ''} warned {line}", file=sys.stderr)
    here: dict = {}
    for w in caught:
        if issubclass(w.category, RuntimeWarning):
            here[warning_line(w)] = here.get(warning_line(w), 0) + 1
        else:
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)
    for line, times in here.items():
        print(f"privbounds: note: {line}, {times} time{'s' if times != 1 else ''} in this process",
              file=sys.stderr)


def available(out) -> list[str]:
    """The theorems with results in ``out``, learners measured into it included (their
    descriptions are read and registered first: results.available lists registered ids)."""
    from privbounds import results
    from privbounds.learners import load_saved

    if results_dir(out).is_dir():
        load_saved(out)
    return results.available(out)


def _selected(ids, paper: str | None) -> list[str]:
    """The theorems a run selects, each runnable (a ``ParameterError`` names the first
    that is not)."""
    ids = _ids_arg(ids)
    named = set(ids or ())
    ids = resolve_ids(ids, paper)
    # a learner measured with privbounds.measure runs only when named (a default or
    # pattern selection is the registered theorems'); one read back from a folder, without
    # its learner object, cannot run at all (named, that is the error below)
    ids = [tid for tid in ids if tid in named or not getattr(get(tid).simulator, "measured", False)]
    if not ids:
        raise ParameterError("no theorem selected")
    for tid in ids:
        why = getattr(get(tid).simulator, "not_runnable", None)
        if why:
            raise ParameterError(why)
    return ids


def _work(ids: list[str], fidelity: str, overrides: dict) -> tuple[dict, dict]:
    """Each theorem's (simulator, points) and fidelity; an override that no selected
    theorem has is a ``ParameterError``."""
    work, fids = {}, {}
    for tid in ids:
        sim = get(tid).simulator
        own = {k: v for k, v in overrides.items() if k in sim.params}
        work[tid] = (sim, sim.points(fidelity, own))
        fids[tid] = sim.fidelity(fidelity)
    known = {k for tid in ids for k in get(tid).simulator.params}
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise ParameterError(f"{'--set' if flag('set') == '--set' else 'overrides key'} {unknown[0]} is not a "
                             f"parameter of {', '.join(ids)}; "
                             f"allowed: {', '.join(sorted(known))}")
    return work, fids


def _last_seconds(out: Path, ids, fidelity: str, overrides: dict) -> dict:
    """Theorem id -> (the seconds its blocks would take, the mean seconds a block), from
    the last run with the same fidelity and grid recorded in ``out`` (blocks that run read
    from the store counted at its mean block time), so that the longest start first and
    the bar can say how long is left; a theorem never run so there, or with no block
    computed, is absent."""
    seconds = {}
    for tid in ids:
        with contextlib.suppress(Exception):  # no record, or one of an older format: no estimate
            rec = load(out, tid)
            eng = rec.engine
            own = {k: v for k, v in overrides.items() if k in get(tid).simulator.params}
            mean = plan.block_mean(eng)
            if rec.fidelity == fidelity and rec.overrides == own and mean:
                seconds[tid] = (mean * (eng.blocks_run + eng.blocks_cached), mean)
    return seconds


class _BlockError(Exception):
    """A block raised in a worker; ``text`` is its traceback."""

    def __init__(self, text: str):
        self.text = text
        super().__init__(text.strip().splitlines()[-1] if text.strip() else "block failed")


def _plot_one(tid: str, rec: dict, out: Path, spec) -> list[Path] | str:
    """The theorem's figure files, or (for a record without what its figure reads, such as
    a hand-edited one) a one-line reason, which ``plot`` reports as a warning."""
    from privbounds.figures import draw
    from privbounds.figures.common import files

    try:
        with files(spec):  # set here: the context does not cross into joblib's workers
            return draw(get(tid), rec, out)
    except (KeyError, TypeError, IndexError, ValueError, NameError) as e:
        # NameError: a plotter's variable never set because the record had no point for it
        return f"{type(e).__name__}: {e}"


def plot(ids=None, out=DEFAULT_OUT, paper: str | None = None, jobs: int = 1,
         svg: bool = True, png: bool | Sequence[str] = True, record: bool = False) -> list[Path]:
    """Draw the figures (PNG, and SVG unless ``svg`` is false) of ``ids`` (exact ids or
    patterns), by default of every theorem that has results in ``out``; failed theorems
    have no figure. ``jobs`` theorems are drawn at once (joblib processes; each figure is
    independent). ``png``: name patterns of the figures to rasterise (the others are only
    laid out); ``record``: write what each figure drew as ``<name>.drawn.json``
    (privbounds.figures.drawn), for checks that read a drawing instead of drawing again."""
    from privbounds.figures.common import Files

    spec = Files(svg=bool(svg), png=png if isinstance(png, bool) else (png,) if isinstance(png, str) else tuple(png),
                 record=bool(record))
    out = Path(out)
    if isinstance(ids, str):
        ids = [ids]
    if isinstance(jobs, bool) or not isinstance(jobs, Integral) or jobs < 1:
        raise ParameterError(f"{flag('jobs')} must be an integer >= 1, got {jobs!r}")
    have, asked = available(out), list(ids or ())
    exact = set()
    if ids or paper:
        # a pattern or a paper means "those of them with results"; an exact id must have them
        exact = {i for i in ids or () if not any(c in i for c in "*?[")}
        ids = [i for i in resolve_ids(ids, paper) if i in have or i in exact]
    else:
        ids = have
    if not ids and not have:
        raise ParameterError(no_results(out, asked))
    if not ids:  # the folder holds results, of other theorems than those asked for
        shown = " ".join(asked + [f"--paper {paper}"] * bool(paper))
        raise ParameterError(f"no theorem selected by {shown} has results in {out}; make them with: "
                             f"{run_command(out, asked, paper)}")
    # all read before drawing any; an id asked for by name must be readable, one matched by
    # a pattern or the default is skipped with a warning when it is not
    results = {tid: load(out, tid) for tid in ids if tid in exact}
    results.update(load_valid(out, [tid for tid in ids if tid not in exact]))
    results = {tid: results[tid] for tid in ids if tid in results}
    if not results:
        raise ParameterError(f"no readable results in {out / 'results'}; run 'privbounds run --out {out}' first")
    check_writable(out, "figures")
    paths = []
    with locked(out):  # no run may clean up our temporary files while we write
        todo = [(tid, rec) for tid, rec in results.items() if rec.status != "failed"]
        if jobs > 1 and len(todo) > 1:
            from joblib import Parallel, delayed

            drawn = Parallel(n_jobs=jobs)(delayed(_plot_one)(tid, rec, out, spec) for tid, rec in todo)
        else:
            drawn = [_plot_one(tid, rec, out, spec) for tid, rec in todo]
        for (tid, _), ps in zip(todo, drawn):
            if isinstance(ps, str):
                from privbounds.messages import warn

                warn(f"no figure for {tid}: {out / 'results' / (tid + '.json')} lacks what its figure reads "
                     f"({ps}); rerun 'privbounds run {tid} --out {out}'")
            else:
                paths += ps
        from privbounds.figures.common import files

        with files(spec):
            paths += plot_papers({tid.split(".")[0] for tid in ids}, out)
    return paths


def plot_papers(papers, out=DEFAULT_OUT) -> list[Path]:
    """The figures that span a paper (the paper's ``figures``), from every result of that
    paper present in ``out``."""
    from privbounds.figures import call, headline_ids
    from privbounds.figures.common import drawn_without
    from privbounds.registry import papers as known

    paths = []
    for paper in sorted(papers):
        spec = known()[paper].figures
        if spec is None:
            continue
        records = load_valid(out, [tid for tid in available(out) if tid.split(".")[0] == paper])
        missing = [t for t in headline_ids(paper)
                   if t not in records or records[t].status == "failed"]
        with drawn_without(missing):  # each headline figure then names what it lacks
            paths += call(spec, records, out)
    return paths


def show(theorem_id: str, out=DEFAULT_OUT) -> dict:
    """What ``privbounds show`` prints: statement, claims with their bound functions, the
    files that implement the theorem and, if ``out`` has its results, its last verdicts."""
    thm = get(theorem_id)
    last = {}
    info = {**thm.summary(), "math": thm.math, "notes": thm.notes, "files": thm.files(), "uses": []}
    if thm.simulator is not None:
        from privbounds.registry import _source_path
        from privbounds.simulators.engine.store import closure

        parts = [m for m in closure(type(thm.simulator).__module__)
                 if m.startswith("privbounds.simulators.") and ".engine" not in m]
        info["uses"] = [f for f in map(_source_path, parts) if f not in info["files"]]
    rec = None
    if out is not None and theorem_id in available(out):
        try:
            rec = load(out, theorem_id)
        except ResultError as e:
            info["last_run"] = f"unreadable: {e}"
    if rec is not None:
        from privbounds.reports.findings import evidence

        last = {v.claim: (v.verdict, evidence(v)) for v in rec.verdicts}
        info["last_run"] = (f"{rec.status}, {rec.fidelity} fidelity, seed "
                            f"{rec.provenance.seed}, {rec.provenance.finished or 'time not recorded'}"
                            + (f": {rec.error} (traceback in {rec.log or 'no log recorded'})"
                               if rec.error else ""))
    from privbounds.notes import records_in, render

    # the registry's notes, their measured numbers quoted from the last run ("measured when run" before one)
    info["notes"] = render(thm.notes, rec, records_in(out) if out is not None else None)
    for c in info["claims"]:
        # the verdict with the numbers behind it: slack, exponent and direction, eps_hat
        c["last_verdict"], c["last_evidence"] = last.get(c["id"], (None, None))
    return info


def findings(out=DEFAULT_OUT) -> list[dict]:
    """Where theory and experiment part, from the results in ``out``: every claim not
    plainly confirmed, every bound looser than 10x everywhere, every reconstructed
    constant, every failed run (reports/findings.py), each in a line (``text``) and with
    its numbers as numbers (``numbers``)."""
    return [f.as_dict() for f in finding_records(out)]


def finding_records(out=DEFAULT_OUT) -> list:
    """``findings`` as typed records (reports.findings.Finding)."""
    from privbounds.reports.findings import collect

    if not available(out):
        raise ParameterError(no_results(out))
    return collect(out)


def report(out=DEFAULT_OUT) -> Path:
    from privbounds.reports.site import build

    out = Path(out)
    if not available(out):
        return build(out)  # says there are no results, touching nothing
    check_writable(out, "report", "report/figures", "report/data")
    with locked(out):
        return build(out)


def check(out=DEFAULT_OUT, baseline=None, update: bool = False, fidelity: str | None = None):
    from privbounds.reports.check import run_check

    available(out)  # learners measured into out are entries: read them before the check lists results
    return run_check(Path(out), baseline=baseline, update=update, fidelity=fidelity)


def reproduce(ids=None, fidelity="quick", jobs=1, seed=0, out=DEFAULT_OUT, backend="loky",
              scheduler=None, progress=True, command=None, paper=None, use_cache=True,
              cache_max=DEFAULT_MAX_BYTES, force_jobs=False, svg=True):
    """run + figures + report + check, stopping at the first failure."""
    run(ids, fidelity=fidelity, jobs=jobs, seed=seed, out=out, backend=backend, scheduler=scheduler,
        progress=progress, command=command, paper=paper, use_cache=use_cache, cache_max=cache_max,
        force_jobs=force_jobs)
    plot(ids, out, paper=paper, jobs=jobs, svg=svg)
    report(out)
    if fidelity == "smoke":  # no committed baseline: the check is skipped, as on the command line
        from privbounds.reports.check import Outcome

        return Outcome(0, ["check skipped: smoke fidelity has no baseline"])
    return check(out, fidelity=fidelity)
