"""Benchmark 7: the hot simulators against their floor (``nox -s bench``).

The fifteen theorems that took two thirds of a quick run's block time (bns.lem3_6,
pap.thm3_1, kmms.thm3_5, ...) are each timed on one quick block (200 trials) at a middle
point of their quick grid, at the n where their search starts, against the random draws
that block makes: every call to the generator is recorded during the block and replayed,
with the same arguments, on a fresh generator. Those draws are work any implementation
of the same algorithm, drawing the same noise, has to do, so their time is a floor (a low
one: the array passes the algorithm must make come on top of it). The ratio block / floor
is printed with the goal of 3x: a simulator at or under it is within 3x of its floor; one
over it either still has overhead to remove or spends its time on array passes, which
this floor does not count (the printed share says which).

As in test_bench.py's benchmarks, only a sanity floor is asserted: a block cannot be
faster than its own draws (ratio >= 1), which fails if the replay makes draws the block
did not (a draw recorded twice).
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from privbounds.registry import get

HOT = ["bns.lem3_6", "pap.thm3_1", "kmms.thm3_5", "bns.thm3_1", "kmms.thm4_7", "bns.thm2_19", "bns.cor3_10",
       "pap.base_priv", "bns.cor3_3", "bns.cor3_9", "kmms.thm5_1", "bns.thm5_1", "pap.lem2_7", "bns.cor3_4",
       "kmms.ex3_3"]
GOAL = 3.0
_SKIP = {"bit_generator", "spawn", "__init__"}


def _copy(x):
    return np.array(x, copy=True) if isinstance(x, np.ndarray) else x


class _Recording(np.random.Generator):
    """A generator that records every draw (method, arguments) before making it: the
    stream is that of an ordinary generator with the same seed."""

    def __init__(self, seed):
        super().__init__(np.random.PCG64(seed))
        self.calls = []
        self.depth = 0  # choice, permutation, ... draw through other methods: record the outer call only


def _recorder(name):
    def draw(self, *args, **kwargs):
        if not self.depth:
            self.calls.append((name, tuple(_copy(a) for a in args), {k: _copy(v) for k, v in kwargs.items()}))
        self.depth += 1
        try:
            return getattr(np.random.Generator, name)(self, *args, **kwargs)
        finally:
            self.depth -= 1
    return draw


for _name in dir(np.random.Generator):
    if not _name.startswith("_") and _name not in _SKIP and callable(getattr(np.random.Generator, _name)):
        setattr(_Recording, _name, _recorder(_name))


def _replay(calls, seed) -> float:
    g = np.random.Generator(np.random.PCG64(seed))
    start = time.perf_counter()
    for name, args, kwargs in calls:
        getattr(g, name)(*args, **kwargs)
    return time.perf_counter() - start


@pytest.mark.benchmark
@pytest.mark.parametrize("tid", HOT)
def test_hot_simulator_against_its_floor(benchmark, tid):
    sim = get(tid).simulator
    points = sim.points("quick", {})
    point = points[len(points) // 2]
    n = int(sim.n_range(point)[0])
    rec = _Recording(7)
    sim.run_trials(point, n, 200, rec)  # the draws of the block (and a warm-up)
    blocks, floors = [], []

    def replay():  # the fixture's untimed setup: the floor, measured beside each block
        floors.append(_replay(rec.calls, 7))

    def block():
        start = time.perf_counter()
        sim.run_trials(point, n, 200, np.random.Generator(np.random.PCG64(7)))
        blocks.append(time.perf_counter() - start)

    benchmark.pedantic(block, setup=replay, rounds=3, iterations=1)
    ratio = min(blocks) / min(floors)
    benchmark.extra_info.update({"block_s": round(min(blocks), 4), "floor_s": round(min(floors), 4),
                                 "ratio": round(ratio, 2), "goal": GOAL, "draw_calls": len(rec.calls)})
    print(f"\n[floor] {tid}: one quick block {min(blocks) * 1e3:.1f} ms, its {len(rec.calls)} draws "
          f"{min(floors) * 1e3:.1f} ms: {ratio:.2f}x its floor (goal <= {GOAL:g}x; the draws are "
          f"{100 / ratio:.0f}% of the block)")
    assert ratio >= 1.0
