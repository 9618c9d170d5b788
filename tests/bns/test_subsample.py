"""Subsampling (Bun-Nissim-Stemmer Lemma 2.25, Theorem 2.24): the exact neighbour
probability behind the Lemma 2.25 ceiling, a refutation the ceiling must make of a
mechanism that is not amplified, and the subsampled Algorithm 5 as an empirical learner."""

import math

import numpy as np

from privbounds.bounds.bns import n_empirical_alg5, subsampled_epsilon
from privbounds.simulators.bns.subsample import BnsLem225, BnsThm224
from privbounds.simulators.engine.stats import clopper_pearson

CONF = 0.999


def test_neighbour_tail_is_exact():
    p = {"epsilon": 1.0, "inner_n": 20}
    m, M = 80, 400_000
    rng = np.random.default_rng(80)
    out = rng.binomial(20, (m / 2 - 1) / m, size=M) + rng.laplace(0, 1.0, size=M)
    lo, hi = clopper_pearson(int(np.sum(out > BnsLem225.tau(p, m))), M, CONF)
    assert lo <= BnsLem225.neighbour_tail(p, m) <= hi


def test_ceiling_catches_a_mechanism_without_subsampling():
    # run the count on all m rows (no secrecy of the sample): the D-vs-D' ratio is then
    # e^eps, far above e^(6 eps n / m) for m = 20 n, so the measured frequency under D
    # must exceed the lemma's ceiling
    p = {"epsilon": 1.0, "inner_n": 20}
    m, M = 400, 200_000
    rng = np.random.default_rng(81)
    # D: one row at 0 decides the count (m rows, threshold at 0.5); D': none
    out_d = 1 + rng.laplace(0, 1.0, size=M)
    tau = 3.0
    p_d2 = 0.5 * math.exp(-tau)                      # P[Lap(1) > tau]
    ceiling = math.exp(subsampled_epsilon(p["epsilon"], p["inner_n"], m)) * p_d2
    lo, _ = clopper_pearson(int(np.sum(out_d > tau)), M, CONF)
    assert lo > ceiling


def test_subsampled_alg5_is_an_empirical_learner_at_its_bound():
    p = {"d": 16, "k": 64, "alpha": 0.1, "epsilon": 1.0, "delta": 1e-6, "beta": 0.1}
    m = int(math.ceil(n_empirical_alg5(0.1, 1.0, 1e-6, 0.1)))
    ok = BnsThm224().run_trials(p, m, 100, np.random.default_rng(82))
    lo, _ = clopper_pearson(int(ok.sum()), ok.size, CONF)
    assert lo >= 0.9
    assert BnsThm224().run_trials(p, 9 * 300, 200, np.random.default_rng(83)).mean() < 0.05


# --- audit instances (the inner mechanisms, at their own budgets) ----------------------------

def _audit(sim, name, seed):
    from privbounds.simulators.engine.audit import AUDIT_CONF, epsilon_lower_bound
    case = next(c for c in sim.audits() if c.name == name)
    e = {}
    for budget in (1.0, 2.0):
        a, b = case.run(budget, case.trials, np.random.default_rng(seed + int(budget)))
        e[budget] = epsilon_lower_bound(a, case.trials, b, case.trials, case.delta, AUDIT_CONF)
    return case, e


def test_lem2_25_inner_count_audit_is_powered_and_within_its_budget():
    case, e = _audit(BnsLem225(), "inner-count", 84)
    assert e[1.0] <= case.epsilon < e[2.0]


def test_lem2_25_run_trials_draws_the_laplace_count_as_before():
    # run_trials now calls mechanisms.laplace_mechanism (the function the audit runs): same draws
    p, m, M = {"epsilon": 1.0, "inner_n": 20}, 80, 1000
    rng = np.random.default_rng(85)
    count = rng.binomial(20, 0.5, size=M)
    expect = count + rng.laplace(0.0, 1.0, size=M) > BnsLem225.tau(p, m)
    np.testing.assert_array_equal(BnsLem225().run_trials(p, m, M, np.random.default_rng(85)), expect)


def test_thm2_24_alg5_heavy_set_events_audit_is_powered_and_within_its_budget():
    case, e = _audit(BnsThm224(), "alg5-heavy-set", 86)
    assert e[1.0] <= case.epsilon < e[2.0]


def test_thm2_24_alg5_point_events_same_top_audit_is_powered_and_within_its_budget():
    case, e = _audit(BnsThm224(), "alg5-adist-same-top", 87)
    assert e[1.0] <= case.epsilon < e[2.0]
