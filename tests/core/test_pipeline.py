"""The pipelined engine's parts (simulators/engine/pipeline.py): the order blocks go to the
workers in, and blocks combined in block order whatever order they come back in."""

from __future__ import annotations

import json

import numpy as np
import pytest

from privbounds.simulators.engine.pipeline import Pending, Request, Task, combine
from privbounds.simulators.engine.search import PointRun
from privbounds.simulators.engine.stats import combine_moments


def _task(rank: int, block: int) -> Task:
    return Task(None, (), None, f"t{rank}", rank, None, 0, block, 1)


def test_pending_blocks_alternate_the_longest_and_the_shortest_theorems():
    q = Pending()
    for rank in (0, 1, 2):
        for b in range(2):
            q.push(_task(rank, b))
    order = [(t.rank, t.block) for t in (q.pop() for _ in range(len(q)))]
    assert order == [(0, 0), (2, 0), (0, 1), (2, 1), (1, 0), (1, 1)]
    assert len(q) == 0


def test_a_means_blocks_combine_in_block_order_whatever_order_they_return_in():
    rng = np.random.default_rng(1)
    values = {b: (float(m), float(v), -1.0, 2.0) for b, (m, v) in enumerate(rng.random((6, 2)))}
    sizes = {b: 10 + b for b in values}
    ref = None
    for b in range(6):
        ref = combine_moments(ref, (*values[b], sizes[b]))
    for perm in (list(range(6)), [5, 3, 1, 0, 2, 4]):
        run = PointRun("t", {}, 0.9, np.array([10]), [10], 1, measure="mean")
        req = Request(6)
        for b in perm:  # the order in which they came back
            req.values[b] = values[b]
        combine(run, 10, req.values, sizes)
        assert run.done_ns[10] == ref  # bit for bit


def test_a_curve_that_names_an_n_twice_runs_it_once():
    run = PointRun("t", {}, 1.0, np.array([1]), [26, 30, 26], 1)
    assert run.requests(0.95) == [26, 30]


def test_the_time_left_counts_blocks_in_the_last_runs_seconds(monkeypatch):
    from privbounds.simulators.engine import runner

    clock = [100.0]
    monkeypatch.setattr(runner.time, "perf_counter", lambda: clock[0])
    bar = runner.Progress(False, 2, {"a": (60.0, 2.0), "b": (40.0, 4.0)})
    assert bar.eta() is None  # nothing computed yet
    bar.block("a", cached=True)  # read from the store: 2 s of last time's 100 s done
    clock[0] = 110.0
    for _ in range(5):  # 20 s of last time's in 10 s (however long they took now)
        bar.block("b")
    assert bar.eta() == pytest.approx((100 - 2 - 20) / 2)
    for _ in range(30):  # more blocks than last time: never "nothing left"
        bar.block("b")
    assert bar.eta() == pytest.approx(1.0 / 14)
    assert runner.Progress(False, 3, None).eta() is None


def test_the_last_runs_seconds_come_from_records_of_the_same_fidelity(tmp_path):
    import privbounds
    from privbounds.api import _last_seconds

    privbounds.run(["siv.thm2_1"], fidelity="smoke", out=tmp_path, progress=False)
    eng = json.loads((tmp_path / "results" / "siv.thm2_1.json").read_text())["engine"]
    seconds = _last_seconds(tmp_path, ["siv.thm2_1", "siv.thm2_2"], "smoke", {})
    assert set(seconds) == {"siv.thm2_1"}
    total, mean = seconds["siv.thm2_1"]
    assert total > 0 and total == pytest.approx(eng["block_seconds"])  # every block computed, none stored
    assert mean == pytest.approx(total / eng["blocks_run"])
    assert _last_seconds(tmp_path, ["siv.thm2_1"], "quick", {}) == {}  # another fidelity
    assert _last_seconds(tmp_path, ["siv.thm2_1"], "smoke", {"k": [3]}) == {}  # another grid


def test_the_bar_redraws_while_no_theorem_finishes(monkeypatch, capsys):
    """In a log (not a terminal) the bar redraws every 10 s while blocks come back, even
    when no theorem finishes for minutes (tqdm's update(0) had stopped redrawing)."""
    from privbounds.simulators.engine import runner

    clock = [0.0]
    monkeypatch.setattr(runner.time, "perf_counter", lambda: clock[0])
    bar = runner.Progress(True, 2)
    for _ in range(30):
        clock[0] += 11.0  # one block every 11 s, over 5 minutes
        bar.block("slow.thm")
    err = capsys.readouterr().err
    assert all(f"{n} blocks" in err for n in (1, 10, 20, 30)), err[-400:]
    bar.close()


def test_a_wait_with_nothing_returning_is_watched_and_a_lost_executor_ends_it(monkeypatch):
    import concurrent.futures as cf

    from privbounds.simulators.engine import pipeline

    monkeypatch.setattr(pipeline, "HEALTH_EVERY", 0.01)
    idle = []

    def watch(seconds, inflight, started):
        idle.append(seconds)
        if len(idle) == 3:
            raise pipeline.ExecutorLost("the Dask client is closed")

    with pytest.raises(pipeline.ExecutorLost, match="closed"):
        list(pipeline.completed({cf.Future(): _task(0, 0)}, watch))  # a block that never returns
    assert len(idle) == 3 and idle == sorted(idle) and idle[0] > 0
    cancelled = cf.Future()
    cancelled.cancel()  # what a Dask cluster does to every block in flight when its scheduler is gone
    cancelled.set_running_or_notify_cancel()
    with pytest.raises(pipeline.ExecutorLost, match="was cancelled"):
        list(pipeline.completed({cancelled: _task(0, 0)}, watch))


def test_a_stalled_run_says_so_once_per_stall_with_its_workers(monkeypatch):
    from privbounds.simulators.engine import progress, runner

    monkeypatch.setattr(progress, "STALL_AFTER", 60.0)
    said, health = [], [(None, "; the scheduler has no workers left: start one with dask worker tcp://h:1")]
    watch = runner.Watch(lambda: health[0], said.append)
    inflight = {object(): _task(0, 0), object(): _task(1, 0)}
    for idle in (5.0, 59.0, 61.0, 65.0, 300.0):  # one wait, one stall
        watch(idle, inflight, 1000.0)
    assert said == ["no block has returned for 61 s (2 in flight, of t0, t1); the scheduler has no workers "
                    "left: start one with dask worker tcp://h:1; still waiting"]
    watch(70.0, inflight, 2000.0)  # a block returned, then nothing for 70 s: a new stall
    assert len(said) == 2
    health[0] = ("the Dask client is closed", "")
    with pytest.raises(runner.ExecutorLost, match="closed"):
        watch(1.0, inflight, 2000.0)
    runner.Watch(None, said.append)(1e6, inflight, 3000.0)  # no health to ask (loky): only the stall is said
    assert len(said) == 3


def test_blocks_cancelled_by_a_cluster_that_still_answers_are_run_again_with_the_same_numbers(monkeypatch):
    """A Dask client that lost its scheduler for a moment and reconnected has cancelled what
    was in flight: those blocks are queued again (three times at most each), not the run
    ended, and the numbers are those of a run that saw no cancellation."""
    import concurrent.futures as cf
    import contextlib

    from privbounds.registry import get
    from privbounds.simulators.engine import pipeline, runner

    monkeypatch.setattr(pipeline, "REQUEUE_WAIT", 0.0)  # no pause between the tries here
    sim = get("siv.thm3_3").simulator
    work, fid = {"siv.thm3_3": (sim, sim.points("smoke"))}, {"siv.thm3_3": sim.fidelity("smoke")}
    plain = runner.run_points(work, fid, 0, None, backend="sequential", progress=False, use_cache=False)

    class Flaky(pipeline.SyncExecutor):
        def __init__(self, every):
            self.calls, self.every = 0, every

        def submit(self, fn, *args):
            self.calls += 1
            if self.calls % self.every == 0:  # every few blocks: cancelled, as a disconnection does
                f = cf.Future()
                f.cancel()
                f.set_running_or_notify_cancel()
                return f
            return super().submit(fn, *args)

    health = [(None, "")]

    @contextlib.contextmanager
    def flaky(backend, jobs, scheduler):
        yield runner.Backend(Flaky(3), 1, health=lambda: health[0])

    monkeypatch.setattr(runner, "_executor", flaky)
    again = runner.run_points(work, fid, 0, None, backend="sequential", progress=False, use_cache=False)
    assert again["siv.thm3_3"]["rows"] == plain["siv.thm3_3"]["rows"]
    health[0] = ("the Dask client is closed", "")  # a cluster that no longer answers: the run ends
    with pytest.raises(runner.ClusterLost, match="was lost mid-run"):
        runner.run_points(work, fid, 0, None, backend="sequential", progress=False, use_cache=False)
    health[0] = (None, "")

    @contextlib.contextmanager
    def always(backend, jobs, scheduler):  # a block cancelled every time: three more tries, then the end
        yield runner.Backend(Flaky(1), 1, health=lambda: health[0])

    monkeypatch.setattr(runner, "_executor", always)
    with pytest.raises(runner.ClusterLost):
        runner.run_points(work, fid, 0, None, backend="sequential", progress=False, use_cache=False)
