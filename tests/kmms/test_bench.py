"""Speed ratio of the Set Cover Learner (Kaplan, Mansour, Matias, Stemmer), reported, never
asserted as an absolute time (run with ``pytest -n 0 -m benchmark --benchmark-enable -p no:randomly
tests/kmms/test_bench.py``).

Rounds per second of ``run_setcover`` over a batch of trials (explicit Boolean samples as
atoms, LIT_d selection by the exponential mechanism) against the same learner written the
obvious way, one trial at a time with a Python loop over the 2d literals per round. Goal:
the batch >= 20x faster per trial. The loop is first checked to compute the same thing (the
argmax form, run for run)."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest

from privbounds.simulators.kmms.conjunctions import decoy_family, literal_selector
from privbounds.simulators.kmms.setcover import run_setcover

D, N, ROUNDS, K = 32, 200, 10, 2


def loop_learner(x, c1, c0, eta, rng, lap=4.0, shift=2.0):
    """One trial, the obvious way (per round a loop over the literals)."""
    d = x.shape[1]
    vals = np.concatenate([x, 1 - x], axis=1).astype(bool)
    c1, c0 = c1.astype(float).copy(), c0.astype(float).copy()
    out = []
    for _ in range(ROUNDS):
        b = c0.sum() + (rng.laplace(0, lap) if lap else 0.0) - shift
        q = np.empty(2 * d)
        for lit in range(2 * d):
            dele = ~vals[:, lit]
            q[lit] = min(c0[dele].sum() - b / K, -c1[dele].sum())
        lit = int(np.argmax(q)) if math.isinf(eta) else int(np.argmax(eta * q + rng.gumbel(size=2 * d)))
        out.append(lit)
        dele = ~vals[:, lit]
        c1[dele] = 0
        c0[dele] = 0
    return out


def _data(trials, seed):
    fam = decoy_family(D, K, 0.2)
    x, y = fam.sample_rows(N, trials, np.random.default_rng(seed))
    return x, (y == 1).astype(float), (y == 0).astype(float)


@pytest.mark.benchmark
def test_loop_agrees_with_the_batch():
    x, c1, c0 = _data(30, 1)
    run = run_setcover(c1, c0, K, ROUNDS, 0.0, 2.0, literal_selector(x, math.inf), np.random.default_rng(0))
    ref = [loop_learner(x[t], c1[t], c0[t], math.inf, np.random.default_rng(0), lap=0.0) for t in range(30)]
    np.testing.assert_array_equal(run.chosen, np.array(ref))


@pytest.mark.benchmark
def test_setcover_batch_vs_loop(benchmark):
    batch, loop_trials = 400, 20
    xb, c1b, c0b = _data(batch, 2)
    xl, c1l, c0l = _data(loop_trials, 3)
    t_loop = []

    def setup():
        t0 = time.perf_counter()
        rng = np.random.default_rng(5)
        for t in range(loop_trials):
            loop_learner(xl[t], c1l[t], c0l[t], 0.1, rng)
        t_loop.append(time.perf_counter() - t0)

    t_batch = []

    def target():
        t0 = time.perf_counter()
        run_setcover(c1b, c0b, K, ROUNDS, 4.0, 2.0, literal_selector(xb, 0.1), np.random.default_rng(6))
        t_batch.append(time.perf_counter() - t0)

    benchmark.pedantic(target, setup=setup, rounds=3, iterations=1, warmup_rounds=1)
    per_batch, per_loop = min(t_batch) / batch, min(t_loop) / loop_trials
    speedup = per_loop / per_batch
    benchmark.extra_info.update({"speedup": round(speedup, 2), "goal": ">= 20x",
                                 "rounds_per_s_batch": ROUNDS / per_batch, "rounds_per_s_loop": ROUNDS / per_loop})
    print(f"\nset-cover learner, batch of {batch} vs a loop over trials: {speedup:.1f}x (goal >= 20x); "
          f"{ROUNDS / per_batch:,.0f} vs {ROUNDS / per_loop:,.0f} trial-rounds per second")
    assert speedup > 1.0
