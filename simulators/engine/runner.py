"""The Monte Carlo engine: seeded blocks, parallel and cached, and the n_hat search.

Design (design.md, "Engine"):

- A *block* is ``size`` trials of one simulator at one parameter point and one n. Its
  generator comes from ``SeedSequence`` keyed by (root seed, theorem id, parameter
  point, n, block index), so a block's numbers do not depend on which worker runs it,
  on the backend, or on the order; the search only looks at block results, so n_hat is
  identical for any ``--jobs``.
- Blocks run in loky processes by default (joblib's reusable executor), threads, this
  process alone, or a Dask cluster, and each finished block is stored in the keyed block
  store (blockstore.py, ``<out>/blocks.sqlite``) by this process only: a run stopped by
  Ctrl-C or a kill keeps every committed block and the next run picks them up. A block's
  key holds the hash of the code that computes it (``store.code_hash``), so a change to a
  simulator or to anything of ours it imports recomputes its blocks instead of reusing
  stale ones, and a digest of the simulator object itself (``simulator_digest``: its
  settings, and for a class defined in a script or notebook its code and the globals it
  uses), taken in the parent process. Workers receive the simulator by value (loky's
  cloudpickle) but never hash it, so a simulator defined in ``__main__`` runs with
  ``jobs > 1``.
- Every block runs with the numerical libraries' thread pools (BLAS, OpenMP) limited to
  one thread (threadpoolctl): the parallelism is over blocks, and a learner that calls
  a threaded library would otherwise oversubscribe the cores.
- A theorem is reported (``on_done``) as soon as its last point finishes, so its results
  can be written while the others still run; an exception in one of its blocks is caught
  in the worker, ends that theorem only, and is reported with its traceback.
- A simulator with ``measure = "mean"`` returns one real value per trial instead of a
  success (an excess risk, a stability, a privacy loss): a block then holds the
  summary (mean, sum of squared deviations, min, max) of its values, blocks combine
  exactly (Chan et al.'s pairwise update), and the point's curve rows carry the mean
  with a Student-t interval (``stats.mean_interval``) and the extremes.
- Privacy audits (engine/audit.py) start with the searches: each instance of
  ``Simulator.audits`` as declared and with its budget doubled, in seeded, stored blocks
  keyed like the others (plus the hash of the module of its events).
- The n_hat search is adaptive (search.py): evaluate the geometric grid at doublings
  until the lower Clopper-Pearson end reaches 1 - beta; when nothing below that point
  clearly failed, halve n below the grid's start until something does or the learner's
  smallest n is reached; then fill in every grid point between the last clear failure
  and the success. Each point advances as soon as its own blocks are back (pipeline.py):
  no point or theorem waits for another.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import inspect
import os
import sys
import time
import traceback
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from joblib import hash as joblib_hash
from joblib.externals.loky.process_executor import ProcessPoolExecutor
from threadpoolctl import ThreadpoolController, threadpool_limits

from privbounds.params import ParameterError
from privbounds.simulators.engine.audit import AUDIT_CONF, BUDGETS
from privbounds.simulators.engine.blocks import block_seed, run_audit_block, run_block  # noqa: F401  (block_seed: imported from here by callers)
from privbounds.simulators.engine.blockstore import DEFAULT_MAX_BYTES, BlockKey, BlockStore
from privbounds.simulators.engine.cluster import (
    Capacity,
    ClusterLost,
    client_health,
    dask_client,
    mismatch,
    worker_name,
    workers,
)
from privbounds.simulators.engine.pipeline import (
    Engine,
    ExecutorLost,
    Outcome,
    SyncExecutor,
    TheoremWork,
    request_sizes,
    warning_line,
)
from privbounds.simulators.engine.progress import Progress, Watch
from privbounds.simulators.engine.search import PointRun, point_run, search_conf
from privbounds.simulators.engine.simulator import point_key  # noqa: F401  (imported from here by callers)
from privbounds.simulators.engine.stats import clopper_pearson, mean_interval
from privbounds.simulators.engine.store import code_hash

BACKENDS = ("loky", "threading", "sequential", "dask")
FAMILY_CONF = 0.95  # simultaneous level of the intervals over one theorem's points
WORKER_IDLE = 10  # seconds an idle loky worker waits for work before it exits


def simulator_digest(sim) -> str:
    """What the cache key holds of a simulator object, computed in the parent process:
    joblib's hash of the object (its class by name and its attributes: a learner's
    settings), and for a class defined in ``__main__`` (a script or a notebook, whose
    file ``store.code_hash`` may not see) its code and the values of the globals its
    methods read (``_main_code``); for a simulator with a ``code_identity()`` (a measured
    learner, privbounds/learners.py), what that returns."""
    state = getattr(sim, "digest_state", None)  # a simulator may say what of it to hash
    parts = [joblib_hash(state() if state is not None else sim)]
    identity = getattr(sim, "code_identity", None)
    if identity is not None:  # a measured learner: its own module's source, its library's version
        parts.append(identity())
    for cls in type(sim).__mro__:
        if cls.__module__ == "__main__":
            parts.append(_main_code(cls))
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]


def _main_code(cls) -> str:
    """A class (or function) from ``__main__``: its methods' bytecode and constants, and joblib's hash of
    every global they name (a setting kept outside the object: ``RATE = 0.9``); a global
    that is a module, class or function counts by its name and, for one from ``__main__``,
    its own code. Deterministic across processes (pickling a class by value is not: it
    carries a per-process tracking id)."""
    h = hashlib.sha256()
    seen: set = set()

    def code(co, glb):
        h.update(co.co_code + repr(co.co_names).encode())
        for c in co.co_consts:
            if hasattr(c, "co_code"):
                code(c, glb)
            elif isinstance(c, frozenset):  # its order follows the per-process string hash seed
                h.update(repr(sorted(map(repr, c))).encode())
            else:
                h.update(repr(c).encode())
        for name in co.co_names:
            if name in glb and name not in seen:
                seen.add(name)
                v = glb[name]
                h.update(name.encode())
                if getattr(v, "__module__", None) == "__main__" and hasattr(v, "__code__"):
                    code(v.__code__, glb)
                elif not (inspect.ismodule(v) or inspect.isclass(v) or callable(v)):
                    h.update(joblib_hash(v).encode())

    if inspect.isfunction(cls):  # a factory function from __main__
        code(cls.__code__, cls.__globals__)
        return h.hexdigest()
    for name, attr in sorted(vars(cls).items()):
        fn = getattr(attr, "__func__", attr)  # staticmethod, classmethod
        fn = getattr(fn, "fget", fn)  # property
        if hasattr(fn, "__code__"):
            h.update(name.encode())
            code(fn.__code__, fn.__globals__)
        elif not name.startswith("__"):
            h.update(name.encode() + joblib_hash(attr).encode())
    return h.hexdigest()


@dataclass(frozen=True)
class Backend:
    """What the engine needs of a backend: its executor, how many blocks to keep in
    flight, the function that runs one block there, and ``health()`` (None, or why the
    executor is gone and a word on its workers: progress.Watch)."""

    executor: object
    limit: int | object  # or a function giving it now (a cluster whose workers come and go)
    run_one: object = None
    health: object = None
    slots: int = 1  # blocks that run at once (worker threads): what the scale model divides by
    memory: int = 0  # bytes one block may use on the smallest worker (0: not known, or this machine)


@contextlib.contextmanager
def _executor(backend: str, jobs: int, scheduler: str | None):
    """The Backend: a loky process pool of the run's own (its idle workers exit after a few
    seconds, so none outlives a killed run for long), threads, this process alone, or a
    Dask cluster through its concurrent.futures face."""
    if backend not in BACKENDS:
        raise ParameterError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if backend == "dask":
        with dask_client(jobs, scheduler, say=lambda line: print(f"privbounds: {line}", file=sys.stderr)) as (
                client, mine):
            threads = sum(client.nthreads().values()) or jobs
            per_thread = [w.memory // max(1, w.threads) for w in workers(client) if w.memory]
            yield Backend(client.get_executor(pure=False), Capacity(client), functools.partial(_checked, mine),
                          lambda: client_health(client, scheduler), threads, min(per_thread, default=0))
    elif backend == "threading":
        # The blocks run in threads of this process, whose BLAS (OpenBLAS) thread pool is one
        # for the process: threadpoolctl lets only one thread control it, and a block that
        # restored its limit on ending would lift it for the blocks still running. So this
        # thread holds BLAS at one thread for the whole run; every block still limits its
        # own thread's OpenMP (a per-thread limit) in ``_one_thread``.
        with threadpool_limits(limits=1), ThreadPoolExecutor(max_workers=jobs) as ex:
            _THREADING["on"] = True  # blocks share this process's warning filters: run catches them
            try:
                yield Backend(ex, 2 * jobs, slots=jobs)
            finally:
                _THREADING["on"] = False
    elif backend == "sequential" or jobs == 1:
        yield Backend(SyncExecutor(), 1)
    else:
        # A pool of our own, not loky's process-wide reusable one: joblib's Parallel (the
        # figures' --jobs) takes that one over and expects attributes of its own making.
        # Its workers exit when idle for WORKER_IDLE s (so none outlives a killed run for
        # long); one that does so as a block is queued is replaced and the block runs, but
        # loky warns of "a memory leak" on the terminal: not ours to show.
        warnings.filterwarnings("ignore", message="A worker stopped while some jobs were given to the executor",
                                category=UserWarning, module=r"joblib\.externals\.loky\.process_executor")
        pool = ProcessPoolExecutor(max_workers=jobs, timeout=WORKER_IDLE, initializer=_die_with_parent,
                                   initargs=(os.getpid(),))
        try:
            yield Backend(pool, 2 * jobs, slots=jobs)
        finally:
            pool.shutdown(wait=False, kill_workers=True)  # nothing of ours is left running


def _die_with_parent(parent: int) -> None:
    """A worker's first act: ask the kernel (Linux) to kill it when the run that started it
    dies, so that a run killed with SIGKILL leaves no worker computing a block nobody will
    read (without it a worker finished its block, then idled out: alive 8 s and more after
    a killed run in a measured case, 43 s once).
    Elsewhere the idle timeout alone ends orphans."""
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        with contextlib.suppress(Exception):  # never a reason for the pool to fail
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the run died before the request was made
        os._exit(0)


def run_points(work: dict, fidelity: dict, seed: int, cache_dir, jobs: int = 1,
               backend: str = "loky", scheduler: str | None = None,
               progress: bool = True, use_cache: bool = True, on_done=None,
               expected: dict | None = None, cache_max: int = DEFAULT_MAX_BYTES, on_start=None) -> dict:
    """Run every parameter point of several theorems to completion (pipeline.py).

    ``work`` maps theorem id -> (simulator, list of points); ``fidelity`` maps theorem
    id -> Fidelity. Returns theorem id -> dict with the evaluated rows, per-point
    results and the statistics used (conf level, block counts, wall time), or
    ``{"error": traceback}`` for a theorem one of whose blocks raised. ``on_done(tid,
    result)`` is called with the same dict as soon as a theorem has finished.
    ``cache_dir`` holds the block store; ``use_cache=False`` neither reads nor writes it.
    ``expected`` (theorem id -> (seconds its blocks took last time, mean seconds a
    block)) starts the longest first, the others following in the order given, and gives
    the progress bar its time left. ``on_start(backend)`` is called once the workers are
    up and before any block, with the Backend (the blocks that run at once, the memory of
    one on the smallest worker).
    """
    errors: dict[str, str] = {}
    theorems = _setup(work, fidelity, int(seed), errors, expected or {})
    started = time.perf_counter()
    # time left only when the last run timed every theorem of this one
    timed = expected and all(expected.get(t, (0.0,))[0] > 0 for t in theorems)
    bar = Progress(progress, len(theorems), {t: expected[t] for t in theorems} if timed else None)
    out: dict[str, dict] = {}

    def finish(tid):
        w = theorems[tid]
        out[tid] = ({"error": errors[tid]} if tid in errors else
                    _collect(w.runs, w.conf, time.perf_counter() - started, w.stats, w.cases, w.audits))
        bar.theorem_done(tid)
        if on_done is not None:
            on_done(tid, out[tid])

    store = None
    if use_cache:
        Path(cache_dir).mkdir(parents=True, exist_ok=True)
        store = BlockStore(Path(cache_dir), cache_max)
    health = None
    try:
        with _executor(backend, jobs, scheduler) as be:
            health = be.health
            if on_start is not None:
                on_start(be)
            Engine(theorems, store, bar, finish, errors).run(be.executor, be.limit, be.run_one or _timed,
                                                             Watch(health, bar.say))
    except Exception as e:
        # a block cancelled by the cluster, or a client that closed between two blocks
        if isinstance(e, ParameterError) or (not isinstance(e, ExecutorLost)
                                             and not (health is not None and health()[0])):
            raise  # a refused input (on_start) or our own error, not a lost cluster
        store_held = store.info().blocks if store is not None else 0
        ended = sum(1 for r in out.values() if "error" not in r)
        raise ClusterLost(f"the Dask scheduler {scheduler or 'of the local cluster'} was lost mid-run; "
                          f"{ended} theorem{'s' if ended != 1 else ''} finished"
                          + (f", and the store {store.path} holds {store_held} blocks" if store is not None
                             else "; nothing was kept (--no-cache)"), resumable=store is not None) from None
    finally:
        bar.close()
        if store is not None:
            if store.bad:
                print(f"privbounds: warning: {len(store.bad)} stored block{'s' if len(store.bad) > 1 else ''} in "
                      f"{store.path} could not be used ({store.bad[0]}{', ...' if len(store.bad) > 1 else ''}); "
                      "recomputed", file=sys.stderr)
            store.close()
    return out


def _setup(work: dict, fidelity: dict, seed: int, errors: dict, expected: dict) -> dict:
    """Each theorem's points, audit instances, confidence level and block makers. A
    simulator whose own methods raise here ends its theorem, not the run."""
    memo: dict = {}  # one read of each source file per run
    delegated: dict = {}
    order = sorted(work, key=lambda t: -float(expected.get(t, (0.0,))[0]))  # stable: ties keep the given order
    theorems = {}
    for tid, (sim, points) in work.items():
        fid, runs, cases, code, acode, looks = fidelity[tid], [], [], "?", "?", False
        try:
            code = f"{code_hash(type(sim).__module__, memo)}-{simulator_digest(sim)}"
        except Exception:  # an unhashable simulator ends its theorem, not the run
            errors[tid] = f"hashing its simulator for the cache:\n{traceback.format_exc()}"
        try:
            cases = list(sim.audits())
            # an audit's key also holds the code of its events' modules
            mods = sorted({c.events.__module__ for c in cases})
            acode = hashlib.sha256("|".join([code, *(code_hash(m, memo) for m in mods)]).encode()).hexdigest()[:16]
            measure = getattr(sim, "measure", "success")
            for p in points:
                if measure == "mean" and sim.curve(p) is None:
                    raise ValueError(f"{tid}: a simulator that measures a mean needs fixed sample sizes "
                                     "(curve(point)), not an n_hat search")
                runs.append(point_run(sim, tid, p, fid, measure))
            looks = any(r.staged and len(request_sizes(sim, fid, r.point)) > 1 for r in runs)
        except Exception:
            errors[tid] = f"setting up its points:\n{traceback.format_exc()}"
        m = max(1, sum(1 for r in runs if r.curve is None))
        theorems[tid] = TheoremWork(
            sim, fid, runs, cases, search_conf(FAMILY_CONF, m, looks),  # Bonferroni over the theorem's searches
            order.index(tid), _search_maker(tid, sim, seed, code, memo, delegated),
            _audit_maker(tid, sim, seed, acode))
    return theorems


def _search_maker(tid: str, sim, seed: int, own: str, memo: dict, delegated: dict):
    """(function, arguments, store key) of a search or curve block of ``tid``. The code
    part of the key is the simulator's, or for a point it hands to another simulator
    (``Simulator.delegate``) its own module's and that one's."""
    def code_of(point) -> str:
        other = getattr(sim, "delegate", lambda p: None)(point)
        if other is None:
            return own
        k = (type(sim).__module__, id(other))
        if k not in delegated:  # the object is kept with its code, so its id is not reused
            delegated[k] = (other, f"{code_hash(type(sim).__module__, memo)}>"
                                   f"{code_hash(type(other).__module__, memo)}-{simulator_digest(other)}")
        return delegated[k][1]

    def make(run: PointRun, n: int, b: int, size: int):
        code = code_of(run.point)
        return (run_block, (sim, tid, run.key, n, b, size, seed, code),
                BlockKey("search", tid, run.key, n, b, size, seed, code))
    return make


def _audit_maker(tid: str, sim, seed: int, code: str):
    """(function, arguments, store key) of an audit block of ``tid``."""
    def make(name: str, budget: float, b: int, size: int):
        return (run_audit_block, (sim, tid, name, budget, b, size, seed, code),
                BlockKey("audit", tid, f"{name}:{float(budget)!r}", 0, b, size, seed, code))
    return make


def _collect(rs: list[PointRun], conf: float, wall: float, stats: dict, cases=(), audits=None,
             fid=None) -> dict:
    rows = []
    for r in rs:
        if r.measure == "mean":
            rows += _mean_rows(r)
            continue
        ns = sorted(r.done_ns)
        s = np.array([r.done_ns[n][0] for n in ns])
        t = np.array([r.done_ns[n][1] for n in ns])
        lo, hi = clopper_pearson(s, t, conf)
        for n, si, ti, lo_i, hi_i in zip(ns, s, t, lo, hi):
            rows.append({**r.point, "n": int(n), "trials": int(ti), "successes": int(si),
                         "p_hat": float(si / ti), "ci_low": float(lo_i), "ci_high": float(hi_i),
                         "conf": conf, "experiment": "curve" if r.curve else "search"})
    measured = []
    for case in cases:
        runs_ = {}
        for budget in BUDGETS:
            ha, hb, t = audits[(case.name, budget)]
            runs_[f"{budget:g}"] = {"hits_d": int(ha), "hits_d_prime": int(hb), "trials": int(t)}
        measured.append({**case.describe(), "conf": AUDIT_CONF, "budgets": runs_})
    return {"rows": rows, "points": [r.result(conf) for r in rs], "conf": conf, "audits": measured,
            "wall_seconds": wall, **stats}


MEAN_CONF = 0.95  # the per-point interval of a measured mean in the table (claims use their own)


def _mean_rows(r: PointRun) -> list[dict]:
    """Curve rows of a point that measures a mean: its value at each n with a Student-t
    interval, the standard deviation and the extremes of the trials' values."""
    rows = []
    for n in sorted(r.done_ns):
        mean, m2, vmin, vmax, t = r.done_ns[n]
        sd = float(np.sqrt(m2 / (t - 1))) if t > 1 else 0.0
        lo, hi = mean_interval(mean, sd, t, MEAN_CONF, (vmin, vmax) if sd > 0 else (None, None))
        rows.append({**r.point, "n": int(n), "trials": int(t), "mean": float(mean), "sd": sd,
                     "ci_low": float(lo), "ci_high": float(hi), "min": float(vmin), "max": float(vmax),
                     "conf": MEAN_CONF, "experiment": "mean"})
    return rows


_THREADING = {"on": False}  # blocks run in threads of this process (the threading backend)
_THREADPOOLS: dict = {}  # this process's thread-pool controller and the modules it was made with


def _one_thread():
    """``threadpoolctl.threadpool_limits(limits=1)`` (restored on exit) with the controller
    kept between blocks: making one lists the loaded libraries (threadpoolctl reads
    /proc/self/maps, a few milliseconds, as much as a small block), and libraries arrive
    by import, so it is made again only when ``sys.modules`` has changed since (which
    modules, not how many: a test that removes modules and imports others leaves the count
    unchanged). As before, a library first imported inside a block is limited from the
    next block on. With the threading backend ``_backend`` holds BLAS's process-wide limit
    for the whole run, and this limits each block's own thread."""
    loaded = hash(tuple(sys.modules))
    if _THREADPOOLS.get("modules") != loaded:
        _THREADPOOLS.update(controller=ThreadpoolController(), modules=loaded)
    return _THREADPOOLS["controller"].limit(limits=1)


def _checked(mine, fn, args):
    """``_timed`` on a Dask worker that first compares its environment with the client's
    ``mine`` (once per process): a worker that joined after the check and differs runs
    nothing, and its block returns the difference as its error."""
    why = mismatch(mine)
    if why:
        return Outcome(None, f"{why}: install the client's privbounds, numpy, scipy and Python there", 0.0,
                       worker_name())
    return _timed(fn, args)


def _timed(fn, args):
    """The block's Outcome: its value, or the traceback when it raised (an error is returned
    rather than raised, so one theorem's bug does not stop the others; KeyboardInterrupt and
    SystemExit still propagate), its seconds, the Dask worker that ran it, and the warnings
    it raised. The warnings are caught here where the block runs alone in its process; in
    threads (the threading backend), whose warning filters are the process's, ``run``
    catches them around the whole run instead."""
    t0 = time.perf_counter()
    alone = not _THREADING["on"]
    try:
        with _one_thread(), (warnings.catch_warnings(record=True) if alone else contextlib.nullcontext()) as caught:
            if alone:  # numpy's floating-point warnings; others keep the process's filters
                warnings.simplefilter("always", RuntimeWarning)
            value = fn(*args)
        return Outcome(value, None, time.perf_counter() - t0, worker_name(), _notes(caught))
    except Exception:
        return Outcome(None, traceback.format_exc(), time.perf_counter() - t0, worker_name())


def _notes(caught) -> tuple:
    """The distinct warning lines of one block."""
    return tuple(dict.fromkeys(warning_line(w) for w in caught or () if issubclass(w.category, RuntimeWarning)))
