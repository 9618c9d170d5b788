"""The pipelined engine: every theorem's points advance as soon as their own blocks return.

Not tied to one paper: it runs the searches, curves and privacy audits of all five papers'
simulators (and of a user's own), block by block, and stores each block's value in the
keyed block store (blockstore.py).

There is no barrier across theorems or points. A point asks for its next sample sizes
(``PointRun.requests``) as soon as every block of its previous request has returned, so a
one-round theorem finishes in the first minutes while a long search goes on. A search's
request runs the first block of each n alone and asks for the others only when that block
does not settle the n (``PointRun.settled``, search.py). A point's
search only reads the counts of its own blocks, each block's seed comes from its identity,
and the blocks of one request are combined in block order once all have returned, so
the numbers are the same bit for bit whatever the order of completion, the workers or the
backend. Blocks are submitted in order of their theorem's rank (the longest theorems of the
last run first, so the slowest does not start last), and at most ``2 x workers`` are in
flight, so a rank still decides what runs next.

Only this process reads and writes the store: workers compute and return.
"""

from __future__ import annotations

import concurrent.futures as cf
import heapq
import math
import time
import traceback
import warnings
from dataclasses import dataclass, field
from typing import NamedTuple

from privbounds.simulators.engine.audit import AUDIT_BLOCK, BUDGETS
from privbounds.simulators.engine.blockstore import BlockKey, BlockStore
from privbounds.simulators.engine.search import PointRun
from privbounds.simulators.engine.stats import combine_moments

FLUSH_EVERY = 2.0  # seconds between commits of finished blocks to the store
FLUSH_BLOCKS = 256  # ... or this many blocks, whichever comes first
HEALTH_EVERY = 5.0  # seconds without a returned block between checks that the executor lives
REQUEUE = 3  # times one block the executor cancelled while it still answers is queued again
REQUEUE_WAIT = 1.0  # seconds to wait before the k-th time, times k: a reconnecting client needs a moment


class Outcome(NamedTuple):
    """What a worker sends back for one block: its value (None when it raised), the
    traceback (None when it did not), its seconds, the Dask worker that ran it ("" elsewhere)
    and the warnings the block raised (numpy's overflow and invalid-value warnings, as one
    line each: ``warning_line``), which the run reports as notes instead of the workers
    printing them on the terminal."""

    value: object
    error: str | None
    seconds: float
    worker: str
    notes: tuple = ()


def warning_line(w: warnings.WarningMessage) -> str:
    """One caught warning as a note: its kind, text and where (path from the package)."""
    where = str(w.filename).replace("\\", "/")
    for root in ("/privbounds/", "/simulators/", "/bounds/", "/figures/", "/reports/", "/site-packages/"):
        if root in where:
            where = root.strip("/") + "/" + where.rsplit(root, 1)[1]
            break
    return f"{w.category.__name__}: {w.message} ({where}:{w.lineno})"


@dataclass(frozen=True)
class Task:
    """One block to compute: the function and its arguments, its store key, and where its
    value goes (a point's request for ``n``, or an audit instance at a budget)."""

    fn: object
    args: tuple
    key: BlockKey
    theorem: str
    rank: int
    run: PointRun | None  # None for an audit block
    n: int  # the sample size (0 for an audit block)
    block: int
    size: int
    audit: tuple | None = None  # (instance name, budget)


@dataclass
class Request:
    """The blocks of one request of one point at one n, kept until all have returned.
    ``rest``: the sizes of the blocks asked for only if the first one does not settle the n
    (a search's look at its first block, ``PointRun.settled``)."""

    expected: int
    values: dict = field(default_factory=dict)  # block index -> value
    rest: list = field(default_factory=list)


class StoreWriter:
    """Buffers finished blocks and commits them in batches: a kill loses at most the last
    couple of seconds of blocks."""

    def __init__(self, store: BlockStore | None):
        self.store, self.buffer, self.last = store, [], time.monotonic()

    def add(self, key: BlockKey, value) -> None:
        if self.store is None:
            return
        self.buffer.append((key, value))
        if len(self.buffer) >= FLUSH_BLOCKS or time.monotonic() - self.last > FLUSH_EVERY:
            self.flush()

    def flush(self) -> None:
        if self.store is not None and self.buffer:
            self.store.put_many(self.buffer)
        self.buffer, self.last = [], time.monotonic()


class Pending:
    """Blocks waiting for a worker. Pops alternate between the two ends of the theorems'
    order: the longest theorems' blocks (they start at once, so the run does not end with
    one long search alone) and the shortest ones' (so theorems finish from the first
    minutes on); within a theorem, blocks go in the order they were planned."""

    def __init__(self):
        self.first, self.last, self.taken, self.seq, self.turn = [], [], set(), 0, 0

    def push(self, task: Task) -> None:
        self.seq += 1
        heapq.heappush(self.first, (task.rank, self.seq, task))
        heapq.heappush(self.last, (-task.rank, self.seq, task))

    def pop(self) -> Task:
        self.turn ^= 1
        heap = self.first if self.turn else self.last
        while True:
            _, seq, task = heapq.heappop(heap)
            if seq not in self.taken:
                self.taken.add(seq)
                return task

    def __len__(self) -> int:
        return self.seq - len(self.taken)


def submit_all(executor, pending: Pending, inflight: dict, limit: int, skip, run_one) -> None:
    """Fill the workers up to ``limit`` blocks in flight, skipping blocks of theorems that
    have already failed."""
    while pending and len(inflight) < limit:
        task = pending.pop()
        if skip(task.theorem):
            continue
        inflight[executor.submit(run_one, task.fn, task.args)] = task


class ExecutorLost(RuntimeError):
    """The executor cancelled a block the engine did not cancel: a Dask cluster whose
    scheduler is gone cancels every block in flight."""


def completed(inflight: dict, watch=None, requeue=None):
    """Wait for at least one block in flight; yield (task, Outcome).
    ``watch(idle_seconds, inflight, started)`` is called every ``HEALTH_EVERY`` seconds while nothing
    returns: it may say so, or raise ExecutorLost (a Dask client whose scheduler is gone
    may leave its futures pending for ever). A block the executor cancelled is handed to
    ``requeue(task)``, which queues it again and says True while the executor still
    answers (a client that lost its scheduler for a moment cancels what was in flight),
    and otherwise ends the run (ExecutorLost)."""
    started = time.perf_counter()
    while True:
        done, _ = cf.wait(list(inflight), timeout=HEALTH_EVERY if watch else None, return_when=cf.FIRST_COMPLETED)
        if done:
            break
        watch(time.perf_counter() - started, inflight, started)
    # finished blocks first: one the cluster cancelled ends the run, and must not take
    # finished ones with it
    for f in sorted(done, key=lambda f: f.cancelled()):
        task = inflight.pop(f)
        try:
            yield task, f.result()
        except cf.CancelledError:  # the engine cancels nothing while it waits
            if requeue is not None and requeue(task):
                continue
            raise ExecutorLost(f"block n={task.n} #{task.block} of {task.theorem} was cancelled") from None
        except Exception:  # the worker itself was lost (not the block: it returns errors)
            yield task, Outcome(None, f"the worker running it failed:\n{traceback.format_exc()}", 0.0, "")


def combine(run: PointRun, n: int, values: dict, sizes: dict) -> None:
    """Add one finished request's blocks to the point, in block order (a mean's moments
    combine in floating point, where order matters)."""
    for b in sorted(values):
        if run.measure == "mean":
            run.done_ns[n] = combine_moments(run.done_ns.get(n), (*values[b], sizes[b]))
        else:
            s, t = run.done_ns.get(n, (0, 0))
            run.done_ns[n] = (s + values[b], t + sizes[b])


class SyncExecutor:
    """The 'sequential' backend: each block runs when submitted, in this process."""

    def submit(self, fn, *args):
        f = cf.Future()
        try:
            f.set_result(fn(*args))
        except BaseException as e:  # noqa: BLE001 - handed to the caller through the future
            f.set_exception(e)
        return f

    def shutdown(self, wait=True):
        pass


def valid_value(task: Task, value) -> bool:
    """A stored value is used only if it is what its block returns: a pair of event counts
    in [0, size] (an audit block), the finite moments of a mean block (min <= mean <= max,
    0 <= M2 <= size (max - min)^2 / 4), or successes in [0, size]."""
    def count(v) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= task.size

    if task.audit is not None:
        return isinstance(value, tuple) and len(value) == 2 and all(map(count, value))
    if task.run.measure == "mean":
        return moments_ok(value, task.size)
    return count(value)


def moments_ok(v, size: int) -> bool:
    """(mean, M2, min, max) of ``size`` values: finite, min <= mean <= max, and M2 between
    0 and the most that values in [min, max] allow, size (max - min)^2 / 4."""
    if not (isinstance(v, tuple) and len(v) == 4 and all(isinstance(x, float) and math.isfinite(x) for x in v)):
        return False
    mean, m2, lo, hi = v
    return lo <= mean <= hi and 0 <= m2 <= size * (hi - lo) ** 2 / 4 * (1 + 1e-9) + 1e-12


def block_sizes(trials: int, block: int) -> list[int]:
    """The sizes of the blocks of ``trials`` trials in blocks of at most ``block``."""
    return [min(block, trials - b * block) for b in range(-(-trials // block))]


def request_sizes(sim, fid, point: dict) -> list[int]:
    """The blocks of one request of ``point``: a point that asks for more trials gets
    bigger blocks, not more of them."""
    factor = sim.trials_factor(point)
    return block_sizes(fid.trials * factor, fid.block * factor)


@dataclass
class TheoremWork:
    """One theorem's share of a run, as the runner set it up. ``search_block(run, n, b,
    size)`` and ``audit_block(name, budget, b, size)`` give a block's (function, arguments,
    store key)."""

    sim: object
    fid: object
    runs: list
    cases: list
    conf: float
    rank: int
    search_block: object
    audit_block: object
    audits: dict = field(default_factory=dict)  # (name, budget) -> (hits on D, on D', trials)
    # workers: the blocks each worker ran (a Dask worker's address, or host and process id)
    # notes: each warning line its blocks raised -> the number of blocks that raised it
    stats: dict = field(default_factory=lambda: {"blocks_run": 0, "blocks_cached": 0, "rounds": 0,
                                                  "block_seconds": 0.0, "workers": {}, "notes": {}})


class Engine:
    """Runs the blocks of several theorems to completion through one executor.
    ``finish(tid)`` is called once per theorem, as soon as its last block has returned (or
    at its first error, recorded in ``errors``)."""

    def __init__(self, theorems: dict, store: BlockStore | None, bar, finish, errors: dict):
        self.th, self.store, self.bar, self.finish, self.errors = theorems, store, bar, finish, errors
        self.writer = StoreWriter(store)
        self.pending = Pending()
        self.requests: dict = {}  # (id(run), n) -> Request
        self.open: dict = {}  # id(run) -> its requests not yet complete
        self.depth: dict = {}  # id(run) -> requests it has made
        self.left = {tid: 0 for tid in theorems}  # open requests and audit blocks not returned
        self.done: set = set()
        self.replan: list = []  # (tid, run) whose requests have all returned
        self.requeued: dict = {}  # task key -> times the executor cancelled it and it was queued again
        self.health = None

    def run(self, executor, limit: int, run_one, watch=None) -> None:
        """``run_one(fn, args)`` runs one block in a worker and returns its Outcome; ``watch`` looks at the executor while no block returns
        (``completed``)."""
        inflight: dict = {}
        self.health = getattr(watch, "health", None)
        try:
            for tid in sorted(self.th, key=lambda t: self.th[t].rank):
                self._start(tid)
            self._drain()
            while self.pending or inflight:
                submit_all(executor, self.pending, inflight, limit() if callable(limit) else limit,
                           self.done.__contains__, run_one)
                if not inflight:
                    continue
                for task, out in completed(inflight, watch, self._requeue):
                    self._returned(task, out)
                self._drain()
        finally:
            for f in inflight:
                f.cancel()
            self.writer.flush()
        for tid in self.th:  # theorems with nothing left (e.g. no points at all)
            self._end(tid)

    def _requeue(self, task: Task) -> bool:
        """Queue a block the executor cancelled again, at most ``REQUEUE`` times, while its
        health says it still answers (a Dask client back from a brief disconnection); a
        backend with no health to ask (loky, threads) never cancels, so it is never asked."""
        if self.health is None or self.health()[0] or self.requeued.get(task.key, 0) >= REQUEUE:
            return False
        self.requeued[task.key] = self.requeued.get(task.key, 0) + 1
        time.sleep(REQUEUE_WAIT * self.requeued[task.key])
        self.pending.push(task)
        return True

    def _start(self, tid: str) -> None:
        w = self.th[tid]
        if tid in self.errors:
            return self._end(tid)
        tasks = []
        for case in w.cases:
            total = max(1, int(round(case.trials * w.fid.audit)))
            for budget in BUDGETS:
                for b, size in enumerate(block_sizes(total, AUDIT_BLOCK)):
                    fn, args, key = w.audit_block(case.name, budget, b, size)
                    tasks.append(Task(fn, args, key, tid, w.rank, None, 0, b, size, (case.name, budget)))
        self.left[tid] += len(tasks)
        self.replan += [(tid, run) for run in w.runs]  # first: stored audit blocks must not end it
        self._queue(tasks)

    def _drain(self) -> None:
        """Ask every point whose requests have all returned for its next ones (blocks found
        in the store complete requests at once, so this goes on until nothing moves)."""
        while self.replan:
            tid, run = self.replan.pop()
            if tid in self.done:
                continue
            try:
                ns = run.requests(self.th[tid].conf)
                if ns:
                    self._plan(tid, run, ns)
            except Exception:
                self.errors.setdefault(tid, f"planning its next sample sizes:\n{traceback.format_exc()}")
            self._end(tid)

    def _plan(self, tid: str, run: PointRun, ns: list[int]) -> None:
        w = self.th[tid]
        sizes = request_sizes(w.sim, w.fid, run.point)
        self.depth[id(run)] = self.depth.get(id(run), 0) + 1
        w.stats["rounds"] = max(w.stats["rounds"], self.depth[id(run)])
        tasks = []
        ns = list(dict.fromkeys(map(int, ns)))  # one request per n: a repeat would reuse its seeds
        first = sizes[:1] if run.staged else sizes  # a search looks at its first block alone
        for n in ns:
            self.requests[(id(run), n)] = Request(len(first), rest=sizes[len(first):])
            tasks += self._blocks(tid, run, n, first)
        self.open[id(run)] = self.open.get(id(run), 0) + len(ns)
        self.left[tid] += len(ns)
        self._queue(tasks)

    def _queue(self, tasks: list[Task]) -> None:
        """Deliver the blocks the store already has (valid values only); queue the others."""
        found = self.store.get_many([t.key for t in tasks]) if self.store is not None and tasks else {}
        for t in tasks:
            value = found.get(t.key)
            if value is not None and valid_value(t, value):
                self.th[t.theorem].stats["blocks_cached"] += 1
                self.bar.block(t.theorem, cached=True)
                self._deliver(t, value)
            else:
                if value is not None and self.store is not None:
                    self.store.bad.append(f"{t.theorem} block {t.block} at n = {t.n}: holds "
                                          f"{str(value)[:40]!r}, not the block's value")
                self.pending.push(t)

    def _returned(self, task: Task, out: Outcome) -> None:
        w, value, err = self.th[task.theorem], out.value, out.error
        w.stats["blocks_run"] += 1
        w.stats["block_seconds"] += out.seconds
        if out.worker:  # a Dask worker's address (no name for local processes)
            w.stats["workers"][out.worker] = w.stats["workers"].get(out.worker, 0) + 1
        for note in out.notes:
            w.stats["notes"][note] = w.stats["notes"].get(note, 0) + 1
        self.bar.block(task.theorem)
        if task.theorem in self.done:
            return
        if err is not None:
            what = (f"audit {task.audit[0]} at budget x{task.audit[1]:g}, block #{task.block}" if task.audit
                    else f"block n={task.n} #{task.block} of point {task.run.key}")
            self.errors.setdefault(task.theorem, f"{what}:\n{err}")
            return self._end(task.theorem)
        self.writer.add(task.key, value)
        self._deliver(task, value)

    def _deliver(self, task: Task, value) -> None:
        tid, w = task.theorem, self.th[task.theorem]
        if task.audit is not None:
            ha, hb, t = w.audits.get(task.audit, (0, 0, 0))
            w.audits[task.audit] = (ha + value[0], hb + value[1], t + task.size)
        else:
            req = self.requests[(id(task.run), task.n)]
            req.values[task.block] = (value, task.size)
            if len(req.values) < req.expected:
                return
            if req.rest and not task.run.settled(*req.values[0], w.conf):
                return self._rest(task, req)
            del self.requests[(id(task.run), task.n)]
            combine(task.run, task.n, {b: v for b, (v, _) in req.values.items()},
                    {b: size for b, (_, size) in req.values.items()})
            self.open[id(task.run)] -= 1
            if self.open[id(task.run)] == 0:
                self.replan.append((tid, task.run))
        self.left[tid] -= 1
        self._end(tid)

    def _blocks(self, tid: str, run: PointRun, n: int, sizes: list, start: int = 0) -> list[Task]:
        """The tasks of blocks ``start``, ``start + 1``, ... of ``run`` at ``n``."""
        w = self.th[tid]
        return [Task(*w.search_block(run, n, b, size), tid, w.rank, run, n, b, size)
                for b, size in enumerate(sizes, start)]

    def _rest(self, task: Task, req: Request) -> None:
        """Ask for the other blocks of an n that its first block did not settle."""
        sizes, start = req.rest, req.expected
        req.rest, req.expected = [], req.expected + len(sizes)
        self._queue(self._blocks(task.theorem, task.run, task.n, sizes, start))

    def _end(self, tid: str) -> None:
        """Finish a theorem that failed, or that has nothing open and nothing to replan."""
        if tid in self.done:
            return
        if tid not in self.errors:
            if self.left[tid] > 0 or any(t == tid for t, _ in self.replan):
                return
        self.done.add(tid)
        self.finish(tid)
