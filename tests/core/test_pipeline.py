"""The pipelined engine's parts (simulators/engine/pipeline.py): the order blocks go to the
workers in, and blocks combined in block order whatever order they come back in."""

from __future__ import annotations

import numpy as np

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
