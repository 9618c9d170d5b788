"""Speed of the exact slab sampler of Select Halfplane (simulators/kmms/halfplanes.py), as a
ratio measured within one run (see tests/core/test_bench.py for why ratios): continuous
draws per second of ``Arrangement.sample_in_cells`` (a region by its weight, a trapezoid
of it by area, a uniform point in the trapezoid by the inverse CDF of its linear height)
in sample mode, against the raw rate of numpy uniform draws of the same count (the
sampler consumes three uniforms per draw). Goal: slowdown <= 100x (a search over the regions and one over the trapezoids per draw). Only a loose sanity
floor is asserted; the ratio is printed and stored in ``benchmark.extra_info``.

Run with ``pytest -n 0 -m benchmark --benchmark-enable -p no:randomly tests/kmms/test_bench_halfplanes.py``.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from privbounds.simulators.kmms.halfplanes import Arrangement, distinct_points
from privbounds.simulators.kmms.select_halfplane import exact_cell_probabilities

pytestmark = pytest.mark.benchmark

DRAWS = 200_000


def _best(fn, rounds=5):
    best = np.inf
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def test_slab_sampler_draws_per_second_against_raw_uniforms(benchmark):
    rng = np.random.default_rng(0)
    d = 64
    xs, ys = distinct_points(d, 50, rng)
    arr = Arrangement.build(xs, ys, d)
    p = exact_cell_probabilities(arr, rng.integers(-5, 1, 2 * arr.n_cells).astype(float), 0.5)
    cdf = np.cumsum(p)

    def sampler():
        choice = np.minimum(np.searchsorted(cdf, rng.random(DRAWS) * cdf[-1]), p.size - 1)
        return arr.sample_in_cells(choice, rng)

    def raw():
        return rng.random(DRAWS)

    sampler()  # warm the arrangement's cached orders
    t_raw = _best(raw)
    out = benchmark(sampler)
    t_sampler = _best(sampler)
    ratio = t_sampler / t_raw
    benchmark.extra_info.update({"slowdown_vs_uniform": ratio, "goal": 100.0,
                                 "draws_per_second": DRAWS / t_sampler, "uniforms_per_second": DRAWS / t_raw})
    print(f"\nslab sampler: {DRAWS / t_sampler:,.0f} draws/s, raw uniforms {DRAWS / t_raw:,.0f}/s, "
          f"slowdown {ratio:.1f}x (goal <= 100x)")
    assert out[0].shape == (DRAWS,)
    assert ratio < 2000  # sanity floor only
