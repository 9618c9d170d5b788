"""Speed benchmarks, reported as ratios measured within one run.

What is measured (all with pytest-benchmark; run with
``pytest -n 0 -m benchmark --benchmark-enable -p no:randomly tests/core/test_bench.py``):

1. expmech vs Gumbel: trials per second of Sivakumar Thm 3.3's exponential-mechanism
   learner on THRESH_16, run over every hypothesis (``full_h_run_trials``), against the
   raw rate of drawing the same number of standard Gumbel variates (one per trial and
   hypothesis), the floor any Gumbel-max sampler over all of H has to pay. Goal:
   slowdown <= 3x. Also printed: the rate of the simulator itself, which samples the
   runs of equal error instead (the same distribution at a cost free of |H|).
2. Vectorised vs loop: the same simulator written the obvious way, one trial at a time
   (``loop_run_trials`` below, a plain and independent re-implementation), against the
   batched simulator, per trial. The loop is first checked to agree with the simulator
   on the success rate, so the comparison is between two correct programs.
   Goal: vectorised >= 20x faster.
3. End to end: ``privbounds.run`` at quick and at full fidelity with ``jobs=2`` against ``jobs=1``
   into fresh output folders; the results tables of the two runs must be identical
   (the engine's determinism promise: numbers do not depend on --jobs). Goal: >= 1.8x
   on 2 cores.

4. Tardos tracing against drawing the code; 5. PAP: offline PMW against matrix-vector
   products, and the paper's quick run against its 90 s budget (comments at each).

Why ratios: absolute times depend on the machine, its load and the BLAS/numpy build,
so they say little in CI. A ratio of two measurements taken in the same run, on the same
machine, interleaved round by round and summarised by the best round, cancels most of
that. Each test prints its ratio and the goal and stores both in
``benchmark.extra_info``; it asserts only a loose sanity floor far from the goal, so
that noise on a shared runner cannot fail it. Missing a goal shows in the printed line.
"""

from __future__ import annotations

import itertools
import math
import time

import numpy as np
import pandas as pd
import pytest

import privbounds
from privbounds.api import resolve_ids
from privbounds.simulators.pap.pmw_offline import WINDOW, DenseQueries, pmw
from privbounds.simulators.pap.pmw_sims import random_class
from privbounds.simulators.shared.concepts import make_class
from privbounds.simulators.shared.instances import threshold_cluster
from privbounds.simulators.shared.learners import chunks, expmech_learner
from privbounds.simulators.siv.thm3_3 import SivThm33

THRESH16 = {"class": "thresh", "d": 16, "epsilon": 1.0, "alpha": 0.25, "beta": 0.25,
            "learner": "expmech"}


def _paired(benchmark, subject, reference, rounds: int, warmup: int = 0):
    """Time ``subject`` (through the benchmark fixture) and ``reference`` (in the
    fixture's untimed setup) alternately, round by round, so that both see the same
    machine state. Returns (best subject seconds, best reference seconds, last subject
    result). Works with --benchmark-disable too (then there is one round)."""
    t_sub, t_ref, last = [], [], {}

    def setup():
        t0 = time.perf_counter()
        reference()
        t_ref.append(time.perf_counter() - t0)

    def target():
        t0 = time.perf_counter()
        last["value"] = subject()
        t_sub.append(time.perf_counter() - t0)

    benchmark.pedantic(target, setup=setup, rounds=rounds, iterations=1, warmup_rounds=warmup)
    return min(t_sub), min(t_ref), last["value"]


def _report(benchmark, name: str, ratio: float, goal: str, line: str, **extra) -> None:
    benchmark.extra_info.update({name: round(ratio, 3), "goal": goal, **extra})
    print(f"\n{line}")


# --- 1. exponential mechanism vs raw Gumbel draws ----------------------------------------

def full_h_run_trials(point: dict, n: int, trials: int, rng: np.random.Generator) -> np.ndarray:
    """The simulator's experiment with the exponential mechanism run over every one of
    the 2^d + 1 thresholds (one Gumbel variate per hypothesis), batched over trials:
    the form the 3x goal is about. The simulator itself samples the runs of equal error
    instead (same distribution, tested in test_privacy.py)."""
    cls = make_class("thresh", point["d"])
    ok = np.empty(trials, dtype=bool)
    for sl in chunks(trials, cls.size):
        inst = threshold_cluster(cls.domain_size, sl.stop - sl.start, 1, rng)
        counts = inst.sample_counts(n, rng)
        labels = cls.evaluate(inst.targets, inst.support)
        pos, neg = cls.histograms_from_counts(inst.support, counts, labels)
        h = expmech_learner(cls, pos, neg, point["epsilon"], rng)
        ok[sl] = np.all(cls.exact_error(h, inst.targets, inst.support, inst.probs) <= point["alpha"], axis=-1)
    return ok


@pytest.mark.benchmark
def test_expmech_vs_gumbel(benchmark):
    trials, n = 200, 64
    sim = SivThm33()
    per_trial = 2 ** THRESH16["d"] + 1  # |THRESH_16|: one Gumbel variate per hypothesis
    seeds = itertools.count()

    def full_h():
        return full_h_run_trials(THRESH16, n, trials, np.random.default_rng(next(seeds)))

    def gumbel():
        # Same number of variates, drawn in the same cache-sized chunks: the best case for
        # the raw draw, so the ratio is the learner's whole overhead.
        rng = np.random.default_rng(10_000 + next(seeds))
        for sl in chunks(trials, per_trial):
            rng.gumbel(size=(sl.stop - sl.start, per_trial))

    t_full, t_gum, ok = _paired(benchmark, full_h, gumbel, rounds=5, warmup=1)
    ratio = t_full / t_gum
    t0 = time.perf_counter()
    grouped = sim.run_trials(THRESH16, n, 20 * trials, np.random.default_rng(1))
    t_grouped = (time.perf_counter() - t0) / 20
    _report(benchmark, "slowdown", ratio, "<= 3x",
            f"expmech over all of H / raw gumbel slowdown: {ratio:.2f}x (goal <= 3x); "
            f"{trials / t_full:.0f} trials/s vs {trials / t_gum:.0f} Gumbel rows/s "
            f"({per_trial} variates each); the simulator's grouped sampler: "
            f"{trials / t_grouped:.0f} trials/s ({t_full / t_grouped:.0f}x the full-H learner)",
            trials_per_s=trials / t_full, gumbel_rows_per_s=trials / t_gum,
            grouped_trials_per_s=trials / t_grouped)
    assert ok.shape == (trials,) and ok.dtype == bool
    assert ok.mean() > 0.5 and grouped.mean() > 0.5  # n = 64 is above n_hat at d = 16
    assert ratio < 30, f"expmech/gumbel slowdown {ratio:.1f}x is far beyond the 3x goal"


# --- 2. vectorised simulator vs the obvious per-trial loop -------------------------------

def loop_run_trials(point: dict, n: int, trials: int, rng: np.random.Generator) -> np.ndarray:
    """Sivakumar Thm 3.3 on THRESH_d, one trial at a time, written without the package's
    helpers: 4-point cluster instance, n i.i.d. sample points, every threshold's error
    count, the exponential mechanism by softmax probabilities, exact error."""
    assert point["class"] == "thresh" and point["learner"] == "expmech"
    X = 2 ** point["d"]
    eps, alpha = point["epsilon"], point["alpha"]
    thresholds = np.arange(X + 1)  # c_t(x) = 1 iff x >= t
    ok = np.empty(trials, dtype=bool)
    for i in range(trials):
        # D uniform on p1 < p2 < p3 < p4 (consecutive) at a uniform place; target t* = p3.
        start = rng.integers(0, X - 3)
        support = start + np.arange(4)
        target = start + 2
        x = rng.choice(support, size=n)
        y = x >= target
        # errors[t] = number of sample rows c_t misclassifies
        errors = np.count_nonzero((x[None, :] >= thresholds[:, None]) != y[None, :], axis=1)
        # exponential mechanism, score -errors, sensitivity 1: P(t) ~ exp(-eps * errors / 2)
        logits = -0.5 * eps * errors
        p = np.exp(logits - logits.max())
        p /= p.sum()
        h = rng.choice(X + 1, p=p)
        err = np.mean((support >= h) != (support >= target))  # D uniform on the support
        ok[i] = err <= alpha + 1e-12
    return ok


@pytest.mark.benchmark
def test_loop_baseline_agrees():
    """The loop baseline is a fair comparison only if it computes the same thing:
    success rates at d = 10, n = 36 (p around 0.8) within 4 standard errors."""
    point = {**THRESH16, "d": 10}
    n, t_vec, t_loop = 36, 4000, 2000
    p_vec = SivThm33().run_trials(point, n, t_vec, np.random.default_rng(1)).mean()
    p_loop = loop_run_trials(point, n, t_loop, np.random.default_rng(2)).mean()
    se = math.sqrt(p_vec * (1 - p_vec) / t_vec + p_loop * (1 - p_loop) / t_loop)
    print(f"\nloop vs vectorised success at d=10, n={n}: {p_loop:.3f} vs {p_vec:.3f} "
          f"(diff {abs(p_loop - p_vec) / se:.1f} SE)")
    assert 0.5 < p_vec < 0.95, f"n={n} is not in the informative range (p={p_vec:.3f})"
    assert abs(p_loop - p_vec) <= 4 * se


@pytest.mark.benchmark
def test_vectorised_vs_loop(benchmark):
    vec_trials, loop_trials, n = 200, 20, 64
    sim = SivThm33()
    seeds = itertools.count()

    def vectorised():
        return sim.run_trials(THRESH16, n, vec_trials, np.random.default_rng(next(seeds)))

    def loop():
        return loop_run_trials(THRESH16, n, loop_trials, np.random.default_rng(10_000 + next(seeds)))

    t_loop, t_vec, ok = _paired(benchmark, loop, vectorised, rounds=3, warmup=1)
    per_loop, per_vec = t_loop / loop_trials, t_vec / vec_trials
    speedup = per_loop / per_vec
    _report(benchmark, "speedup", speedup, ">= 20x",
            f"vectorised/loop speedup: {speedup:.2f}x (goal >= 20x); "
            f"{1e3 * per_vec:.2f} ms/trial vs {1e3 * per_loop:.2f} ms/trial",
            ms_per_trial_vectorised=1e3 * per_vec, ms_per_trial_loop=1e3 * per_loop)
    assert ok.shape == (loop_trials,)
    assert speedup > 1.0, f"the vectorised simulator is slower than the plain loop ({speedup:.2f}x)"


# --- 3. end to end: --jobs 2 vs --jobs 1 ---------------------------------------------------

def _results_tables(out) -> dict[str, pd.DataFrame]:
    return {p.stem: pd.read_csv(p) for p in sorted((out / "results").glob("*.csv"))}


# The host's own two-process ratio: a fixed single-threaded numpy workload run once alone and
# then twice at the same time, in separate processes. On a shared machine two cores rarely
# give 2x; the jobs ratio means something only beside this one, measured in the same run.
_WORK = ("import numpy as np, time\n"
         "rng = np.random.default_rng(0); x = rng.random((200, 256)); t = time.perf_counter()\n"
         "for _ in range({reps}): x = np.sort(x + rng.laplace(size=x.shape), axis=1) * 0.5\n"
         "print(time.perf_counter() - t)")


def host_two_process_ratio(reps: int = 2000, rounds: int = 3) -> float:
    """Throughput of two independent processes over one (2.0 on two idle cores): the
    median of ``rounds`` alternations of one process alone and two together."""
    import os
    import statistics
    import subprocess
    import sys

    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    cmd = [sys.executable, "-c", _WORK.format(reps=reps)]
    alone, both = [], []
    for _ in range(rounds):
        alone.append(float(subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout))
        pair = [subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, text=True) for _ in range(2)]
        both.append(max(float(p.communicate()[0]) for p in pair))
    return 2 * statistics.median(alone) / statistics.median(both)


@pytest.mark.benchmark
@pytest.mark.parametrize("fidelity, paper", [("quick", None), ("quick", "siv"), ("full", None)])
def test_run_jobs2_vs_jobs1(benchmark, tmp_path, fidelity, paper):
    outs = {1: tmp_path / "jobs1", 2: tmp_path / "jobs2"}
    records = {}

    def run(jobs):
        records[jobs] = privbounds.run(fidelity=fidelity, jobs=jobs, seed=0, out=outs[jobs],
                                       progress=False, paper=paper)

    host = [host_two_process_ratio()]
    # jobs=1 first (untimed setup, timed by hand), then jobs=2 under the fixture
    t2, t1, _ = _paired(benchmark, lambda: run(2), lambda: run(1), rounds=1)
    host.append(host_two_process_ratio())
    ratio = t1 / t2
    _report(benchmark, "speedup", ratio, ">= 0.9 x the host's",
            f"run {fidelity} {paper or 'all papers'} jobs=2/jobs=1 speedup: {ratio:.2f}x; the host's own "
            f"two-process ratio {host[0]:.2f}x before, {host[1]:.2f}x after (goal: within 10% of it); "
            f"{t1:.1f} s vs {t2:.1f} s",
            seconds_jobs1=t1, seconds_jobs2=t2, host_before=host[0], host_after=host[1])

    # Determinism: the same tables, every column, whatever --jobs.
    tables = {j: _results_tables(outs[j]) for j in outs}
    assert tables[1] and sorted(tables[1]) == sorted(tables[2])
    for tid in tables[1]:
        pd.testing.assert_frame_equal(tables[1][tid], tables[2][tid], check_exact=True,
                                      obj=f"results/{tid}.csv")
        assert (outs[1] / "results" / f"{tid}.csv").read_bytes() == \
            (outs[2] / "results" / f"{tid}.csv").read_bytes()
        assert records[1][tid].points == records[2][tid].points  # n_hat and intervals
    assert ratio > 0.5, f"jobs=2 took {1 / ratio:.1f}x as long as jobs=1"


# --- 4. Tardos code: tracing against drawing the code -----------------------------------
# (BNS Prop 4.9, simulators/bns/tardos.py.) Codewords traced per second -- generate the code,
# forge a word (majority pirate, coalition of n/2), trace it -- against the raw rate of
# drawing the code alone (generate only), for n = 8, xi = 0.1 (k = 32,000 columns), on the
# same batch size. The ratio (traced rate / drawn rate) says how much the pirate and the
# tracer add on top of the unavoidable n x k Bernoulli draws. Goal: >= 0.4x (tracing at
# most ~1.5x the cost of drawing).

def _tardos_batch(trials: int, trace: bool, seed: int = 0):
    from privbounds.simulators.bns import tardos as td

    rng = np.random.default_rng(seed)
    n, xi = 8, 0.1
    p, cb = td.generate(n, td.code_length(n, xi), trials, rng)
    if not trace:
        return cb.shape[0]
    coalition = np.argsort(rng.random((trials, n)), axis=1) < n // 2
    accused = td.trace(cb, p, td.pirate(cb, coalition, "majority", rng), xi)
    return accused


@pytest.mark.benchmark
def test_tardos_trace_vs_generate(benchmark):
    trials = 28
    t_trace, t_gen, accused = _paired(benchmark, lambda: _tardos_batch(trials, True),
                                      lambda: _tardos_batch(trials, False), rounds=5, warmup=1)
    assert (accused != -1).all()                     # the work was real: every word traced
    traced, drawn = trials / t_trace, trials / t_gen
    ratio = traced / drawn
    _report(benchmark, "ratio", ratio, ">= 0.4x",
            f"Tardos n=8 k=32000: {traced:.0f} codewords traced/s vs {drawn:.0f} codes drawn/s: "
            f"ratio {ratio:.2f}x (goal >= 0.4x)",
            traced_per_second=traced, drawn_per_second=drawn)
    assert ratio > 0.05, f"tracing took {1 / ratio:.1f}x as long as drawing the code"


# --- 5. PAP (Bassily et al., query release with public data) -----------------------------
# (a) PMW against matrix-vector products: trials per second of the batched offline PMW
# (simulators/pap/pmw_offline.pmw, Algorithm 1) on a random 256 x 256 class, against one pass
# of the same (trials x N) @ (N x K) product answering every query on every trial's
# weights once. PMW cannot cost less than about one such pass per round (one window of
# queries per live trial), so the ratio is printed beside the realised number of rounds.
# Goal: ratio <= 3 x (rounds + 1). (b) The whole paper at quick fidelity with --jobs 2:
# the wall time as a share of the 90 s budget, printed, not asserted.

QUICK_BUDGET_S = 90.0


@pytest.mark.benchmark
def test_pmw_vs_matvec(benchmark):
    trials, size, n = 200, 256, 2_000_000
    m = random_class(size)
    q01 = (1.0 + m) / 2.0
    seeds = itertools.count()
    rounds = []

    def probs(rng):
        return rng.dirichlet(np.ones(size), size=trials)

    def run_pmw():
        rng = np.random.default_rng(next(seeds))
        p = probs(rng)
        counts = rng.multinomial(n, p)
        ans, updates, _ = pmw(DenseQueries(q01, trials), (counts / n) @ q01.T, n, 0.05, 1.0, 1e-10, rng)
        rounds.append(int(updates.max()) + -(-size // WINDOW))
        return ans, updates

    def matvec():
        p = probs(np.random.default_rng(10_000 + next(seeds)))
        return p @ q01.T

    t_pmw, t_mv, (ans, updates) = _paired(benchmark, run_pmw, matvec, rounds=3, warmup=1)
    ratio = t_pmw / t_mv
    r = max(rounds)
    _report(benchmark, "matvec_passes", ratio, f"<= 3 x (rounds + 1) = {3 * (r + 1)}",
            f"PMW {size}x{size}, {trials} trials: {trials / t_pmw:.0f} trials/s; one PMW run costs "
            f"{ratio:.1f} matrix-vector passes over {r} rounds (mean updates {updates.mean():.1f}); "
            f"goal <= {3 * (r + 1)}", trials_per_s=trials / t_pmw, rounds=r)
    assert ans.shape == (trials, size) and (updates >= 0).all()
    assert ratio < 30 * (r + 1), f"PMW costs {ratio:.0f} matrix-vector passes for {r} rounds"


@pytest.mark.benchmark
def test_pap_quick_wall(benchmark, tmp_path):
    ids = resolve_ids(None, "pap")
    t0 = time.perf_counter()
    records = benchmark.pedantic(lambda: privbounds.run(ids, fidelity="quick", jobs=2, seed=0,
                                                        out=tmp_path, progress=False),
                                 rounds=1, iterations=1)
    wall = time.perf_counter() - t0
    _report(benchmark, "share_of_budget", wall / QUICK_BUDGET_S, "<= 1",
            f"pap quick, --jobs 2: {wall:.1f} s for {len(records)} theorems = {wall / QUICK_BUDGET_S:.2f} "
            f"of the {QUICK_BUDGET_S:.0f} s budget", seconds=wall)
    assert records and all(r.get("status", "ok") != "failed" for r in records.values())


# --- 6. The block store: blocks written and read per second -----------------------------
# (simulators/engine/blockstore.py.) 20,000 blocks (a quick run of all theorems stores
# about 21,700) written in batches of 100 and read back in batches of 500, as the engine
# does, against bare sqlite3 inserting and selecting the same rows already encoded (no
# key text, digest, JSON or checksum): the floor for a store in one SQLite file. Goal:
# within 3x of the floor; the rates say how small the store's share of a run is (the
# quick run computes about 50 blocks a second on 2 cores).

def _store_keys(count: int):
    from privbounds.simulators.engine.blockstore import BlockKey

    return [BlockKey("search", f"p.t{i % 94}", f'{{"d":{i % 7}}}', 100 + i % 50, i, 1000, 0, "c0de")
            for i in range(count)]


@pytest.mark.benchmark
def test_block_store_rates_vs_bare_sqlite(benchmark, tmp_path):
    import sqlite3

    from privbounds.simulators.engine.blockstore import BlockStore

    keys = _store_keys(20_000)
    values = [(float(i), 0.5 * i, -1.0, 2.0) if i % 2 else i for i in range(len(keys))]
    rounds = itertools.count()

    def store_cycle():
        folder = tmp_path / f"store{next(rounds)}"
        folder.mkdir()
        t0 = time.perf_counter()
        with BlockStore(folder) as s:
            for i in range(0, len(keys), 100):
                s.put_many(list(zip(keys[i:i + 100], values[i:i + 100])))
            wrote = time.perf_counter() - t0
            found = {}
            for i in range(0, len(keys), 500):
                found.update(s.get_many(keys[i:i + 500]))
        assert len(found) == len(keys)
        return wrote, time.perf_counter() - t0 - wrote

    rows = [(k.digest(), repr(v)) for k, v in zip(keys, values)]

    def bare_cycle():
        db = sqlite3.connect(tmp_path / f"bare{next(rounds)}.sqlite")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE b (digest TEXT PRIMARY KEY, value TEXT)")
        for i in range(0, len(rows), 100):
            with db:
                db.executemany("INSERT OR REPLACE INTO b VALUES (?, ?)", rows[i:i + 100])
        for i in range(0, len(rows), 500):
            chunk = [r[0] for r in rows[i:i + 500]]
            db.execute(f"SELECT value FROM b WHERE digest IN ({','.join('?' * len(chunk))})", chunk).fetchall()
        db.close()

    t_store, t_bare, (wrote, read) = _paired(benchmark, store_cycle, bare_cycle, rounds=3)
    ratio = t_store / t_bare
    _report(benchmark, "store_over_bare", ratio, "<= 3x",
            f"block store: {len(keys) / wrote:,.0f} blocks/s written, {len(keys) / read:,.0f} read; "
            f"{ratio:.2f}x bare sqlite3 on the same rows (goal <= 3x)",
            writes_per_second=len(keys) / wrote, reads_per_second=len(keys) / read)
    assert ratio < 30, f"the store took {ratio:.1f}x bare sqlite3"
