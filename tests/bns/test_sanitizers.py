"""Sanitizers (Bun-Nissim-Stemmer Prop 2.20 / Alg 1; the Laplace histogram contrast):
privacy audits on neighbouring samples, each with a planted bug it must catch, accuracy
at the bound, and the exact-maximum shortcut of the Laplace histogram against brute force.
"""

import numpy as np
import pytest
from scipy import stats

from privbounds.bounds.bns import n_laplace_histogram, n_point_sanitizer
from privbounds.simulators.bns.prop2_20 import BnsProp220
from privbounds.simulators.bns.sanitizers import (
    group_counts,
    laplace_histogram_error,
    point_sanitizer,
    sanitizer_threshold,
)
from privbounds.simulators.engine.audit import epsilon_lower_bound
from privbounds.simulators.engine.stats import clopper_pearson

CONF = 0.999
M = 400_000


def buggy_sanitizer(counts, n, epsilon, delta, rng):
    """Threshold 1 + (1/eps) ln(2/delta) with noise Lap(2/eps): half the margin."""
    c = np.asarray(counts, float)
    noisy = c + rng.laplace(0, 2 / epsilon, c.shape)
    return np.where((c > 0) & (noisy >= 1 + np.log(2 / delta) / epsilon), np.clip(noisy, 0, n), 0.0)


@pytest.mark.parametrize("san,bug", [(point_sanitizer, False), (buggy_sanitizer, True)])
def test_alg1_delta_audit(san, bug):
    # D' moves one row to a fresh point x': its count goes 0 -> 1. On D it is released as
    # exactly 0, so P[a_x' != 0 on D'] is pure delta, and our accounting spends delta/4 on it.
    eps, delta = 1.0, 0.01
    out = san(np.ones(M), 100, eps, delta, np.random.default_rng(30))
    lo, hi = clopper_pearson(int(np.sum(out != 0)), M, CONF)
    assert (lo > delta / 4) == bug
    if not bug:
        assert lo <= delta / 4 <= hi  # attained exactly: P = (1/2) e^(-(tau - 1) eps / 2)


@pytest.mark.parametrize("scale,bug", [(1.0, False), (0.5, True)])
def test_alg1_epsilon_audit_on_a_nonzero_count(scale, bug):
    # counts 40 vs 41 (both non-zero): each affected count may cost eps/2
    eps, delta = 1.0, 1e-6
    rng = np.random.default_rng(31)
    tau = sanitizer_threshold(eps, delta)
    a = point_sanitizer(np.full(M, 40.0), 10_000, eps / scale, delta, rng)
    b = point_sanitizer(np.full(M, 41.0), 10_000, eps / scale, delta, rng)
    e = max(epsilon_lower_bound(int(ev(a).sum()), M, int(ev(b).sum()), M, 0.0, CONF)
            for ev in (lambda o: o > 42.0, lambda o: o < 39.0))
    assert tau < 39  # the events avoid the suppression threshold
    assert (e > eps / 2) == bug


def test_alg1_never_releases_zero_counts_and_ignores_the_domain():
    rng = np.random.default_rng(32)
    x = rng.integers(0, 2 ** 30, size=(50, 200))  # a domain of a billion points costs nothing
    trial, value, counts = group_counts(x)
    assert counts.sum() == 50 * 200 and np.all(np.bincount(trial) <= 200)
    a = point_sanitizer(counts, 200, 1.0, 1e-6, rng)
    assert np.all(a[counts == 0] == 0)


def test_alg1_accurate_at_its_bound():
    p = {"sanitizer": "alg1", "d": 16, "alpha": 0.05, "epsilon": 1.0, "delta": 1e-6, "beta": 0.1}
    n = int(np.ceil(n_point_sanitizer(p["alpha"], p["epsilon"], p["delta"], p["beta"])))
    ok = BnsProp220().run_trials(p, n, 1000, np.random.default_rng(33))
    lo, _ = clopper_pearson(int(ok.sum()), ok.size, CONF)
    assert lo >= 1 - p["beta"]


def test_alg1_fails_below_its_threshold():
    # alpha n = 5, far under tau = 30: the heavy Zipf points are suppressed, error > alpha
    p = {"sanitizer": "alg1", "d": 16, "alpha": 0.05, "epsilon": 1.0, "delta": 1e-6, "beta": 0.1}
    ok = BnsProp220().run_trials(p, 100, 400, np.random.default_rng(34))
    assert ok.mean() < 0.05


def test_laplace_histogram_accurate_at_its_bound():
    p = {"sanitizer": "laplace", "d": 20, "alpha": 0.05, "epsilon": 1.0, "delta": 1e-6, "beta": 0.1}
    n = int(np.ceil(n_laplace_histogram(p["alpha"], p["epsilon"], 2 ** 20, p["beta"])))
    ok = BnsProp220().run_trials(p, n, 1000, np.random.default_rng(35))
    lo, _ = clopper_pearson(int(ok.sum()), ok.size, CONF)
    assert lo >= 1 - p["beta"]


def test_laplace_histogram_error_matches_brute_force():
    # the maximum over the zero counts is drawn by inversion; compare with drawing all |X|
    rng = np.random.default_rng(36)
    X, n, B = 512, 40, 4000
    x = rng.integers(0, 64, size=(B, n))
    fast = laplace_histogram_error(x, X, 1.0, rng)
    hist = np.stack([np.bincount(r, minlength=X) for r in x])
    a = np.clip(hist + rng.laplace(0, 2.0, hist.shape), 0, n)
    slow = np.abs(a - hist).max(axis=1) / n
    assert stats.ks_2samp(fast, slow).pvalue > 1e-3


# --- the substitute threshold sanitizer (binary tree) --------------------------------------

@pytest.mark.parametrize("scale_factor,bug", [(1.0, False), (0.5, True)])
def test_tree_nodes_epsilon_audit(scale_factor, bug):
    # |X| = 4: D' moves one row from point 0 to point 3, changing four node counts by one.
    # The event "every changed node lands on D's side" attains the privacy loss exactly:
    # P_D = 1/16, P_D' = e^(-eps)/16.
    from privbounds.simulators.bns.sanitizers import tree_nodes
    eps = 1.0
    d = np.tile([5, 5, 5, 5], (M, 1))
    d2 = np.tile([4, 5, 5, 6], (M, 1))
    rng = np.random.default_rng(37)

    def event(h):
        lv0, lv1 = tree_nodes(h, eps / scale_factor, rng)
        return (lv0[:, 0] >= 5) & (lv0[:, 3] <= 5) & (lv1[:, 0] >= 10) & (lv1[:, 1] <= 10)
    a, b = event(d), event(d2)
    e = epsilon_lower_bound(int(a.sum()), M, int(b.sum()), M, 0.0, CONF)
    assert (e > eps) == bug
    if not bug:
        assert e > 0.8  # the event is (nearly) worst case, so the audit is tight


def test_tree_prefix_counts_are_unbiased_sums_of_nodes():
    from privbounds.simulators.bns.sanitizers import tree_prefix_counts
    rng = np.random.default_rng(38)
    hist = rng.integers(0, 5, size=(3, 16))
    exact = np.concatenate([np.zeros((3, 1)), np.cumsum(hist, axis=1)], axis=1)
    np.testing.assert_allclose(tree_prefix_counts(hist, 1e9, rng), exact, atol=1e-6)  # no noise
    noisy = tree_prefix_counts(np.tile(hist[0], (20000, 1)), 1.0, rng)
    assert np.all(np.abs(noisy.mean(axis=0) - exact[0]) < 1.5)
    # a prefix sums popcount(m) nodes of variance 2 (2L/eps)^2 = 128 at L = 4
    var = noisy.var(axis=0)
    pop = np.array([bin(m).count("1") for m in range(16)] + [0])
    np.testing.assert_allclose(var[1:16], 128 * pop[1:16], rtol=0.06)


def test_threshold_sanitizer_support_is_small_and_accurate():
    from privbounds.simulators.bns.sanitizers import threshold_sanitizer
    rng = np.random.default_rng(39)
    n, X = 20000, 256
    hist = rng.multinomial(n, np.full(X, 1 / X), size=50)
    F, supp = threshold_sanitizer(hist, 1.0, 0.01 * n, rng)
    exact = np.concatenate([np.zeros((50, 1)), np.cumsum(hist, axis=1)], axis=1)
    assert np.all(supp.sum(axis=1) <= 100)                       # at most n / step points
    assert np.all(np.diff(F, axis=1) >= 0)
    assert np.abs(F - exact).max() / n < 0.03


def test_alg2_thresholds_accurate_at_its_bound_and_fails_below():
    from privbounds.bounds.bns import n_alg2_thresholds
    from privbounds.simulators.bns.cor3_10 import BnsCor310
    p = {"d": 10, "k": 16, "rule": "advanced", "alpha": 0.1, "epsilon": 1.0, "delta": 1e-8, "beta": 0.1}
    n = int(np.ceil(n_alg2_thresholds(16, "advanced", 0.1, 1.0, 1e-8, 0.1, 1024)))
    ok = BnsCor310().run_trials(p, n, 200, np.random.default_rng(40))
    lo, _ = clopper_pearson(int(ok.sum()), ok.size, CONF)
    assert lo >= 1 - p["beta"]
    assert BnsCor310().run_trials(p, 1000, 200, np.random.default_rng(41)).mean() < 0.05


# --- the simulators' audit instances (engine/audit.py), as the engine runs them ------------
#
# Each instance must stay <= its declared epsilon as declared and be powered: with its
# budget doubled, eps_hat > epsilon, at the trials the case declares (fixed seeds).

def run_audit_case(sim, name, seed):
    from privbounds.simulators.engine.audit import AUDIT_CONF, BUDGETS
    case = next(c for c in sim.audits() if c.name == name)
    found = []
    for i, budget in enumerate(BUDGETS):
        hits_d, hits_d2 = case.run(budget, case.trials, np.random.default_rng(seed + i))
        found.append(epsilon_lower_bound(hits_d, case.trials, hits_d2, case.trials, case.delta, AUDIT_CONF))
    return case, found


@pytest.mark.parametrize("name", ["alg1-epsilon", "alg1-advanced"])
def test_alg1_epsilon_events_are_powered(name):
    from privbounds.simulators.bns.cor3_9 import BnsCor39
    sim = BnsProp220() if name == "alg1-epsilon" else BnsCor39()
    case, (declared, doubled) = run_audit_case(sim, name, 60)
    assert declared <= case.epsilon < doubled
    assert declared > 0.9 * case.epsilon  # the event attains the loss eps exactly


def test_alg1_delta_events_stay_below_delta_and_catch_a_low_threshold(monkeypatch):
    import privbounds.simulators.bns.prop2_20 as mod
    case = next(c for c in BnsProp220().audits() if c.name == "alg1-delta")
    for budget in (1.0, 2.0):  # P[E on D'] = delta/4 whatever eps: no power by construction
        a, b = case.events(budget, case.trials, np.random.default_rng(61), **case.spec)
        assert a.sum() == 0 and clopper_pearson(int(b.sum()), b.size, CONF)[0] <= case.delta / 4
        assert epsilon_lower_bound(int(a.sum()), a.size, int(b.sum()), b.size, case.delta, CONF) == -np.inf
    monkeypatch.setattr(mod, "point_sanitizer", buggy_sanitizer)  # half the threshold's margin
    a, b = case.events(1.0, case.trials, np.random.default_rng(62), **case.spec)
    assert epsilon_lower_bound(int(a.sum()), a.size, int(b.sum()), b.size, case.delta, CONF) > case.epsilon


@pytest.mark.parametrize("name", ["tree", "tree-advanced"])
def test_tree_events_are_powered(name):
    from privbounds.simulators.bns.cor3_10 import BnsCor310
    from privbounds.simulators.bns.prop2_21 import BnsProp221
    sim = BnsProp221() if name == "tree" else BnsCor310()
    case, (declared, doubled) = run_audit_case(sim, name, 63)
    assert declared <= 0.75 * case.epsilon < case.epsilon < doubled  # prefix counts show 3/4 of eps


@pytest.mark.parametrize("name", ["alg2-basic", "column-advanced"])
def test_alg2_tree_events_are_powered(name):
    from privbounds.simulators.bns.cor3_10 import BnsCor310
    case, (declared, doubled) = run_audit_case(BnsCor310(), name, 64)
    assert declared <= case.epsilon < doubled
