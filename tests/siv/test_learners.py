"""Unit tests of the Sivakumar learners and mechanisms (simulators/siv/private_thresholds.py,
simulators/siv/*): exact distributions against brute force, Monte Carlo against closed
forms, privacy by exact ratios on tiny inputs, and planted bugs that the audits catch."""

import itertools
import math

import numpy as np
import pytest
from scipy.special import log_softmax
from scipy.stats import norm

from privbounds.bounds.sivakumar import binary_search_sigma, gdp_delta, gdp_mu
from privbounds.simulators.engine.audit import AUDIT_CONF, epsilon_lower_bound
from privbounds.simulators.shared.mechanisms import exponential_mechanism
from privbounds.simulators.siv import lem3_2, thm2_1, thm3_4, thm3_5
from privbounds.simulators.siv.private_thresholds import (
    binary_search,
    cluster_error,
    erm_midpoint,
    interval_sampler,
    interval_sampler_probs,
)


def _full_softmax(x, y, b, eps):
    """The exponential mechanism over every threshold of the 2^b grid, enumerated."""
    t = np.arange(2 ** b + 1)
    errors = ((x[None, :] >= t[:, None]) != y[None, :]).sum(axis=1)
    return np.exp(log_softmax(-eps * errors / 2.0))


def test_interval_sampler_is_the_exponential_mechanism_over_all_thresholds():
    rng = np.random.default_rng(0)
    b, eps = 4, 0.7
    x = np.array([3, 3, 7, 9, 12])
    y = np.array([0, 1, 0, 1, 1], bool)
    full = _full_softmax(x, y, b, eps)
    runs, starts, sizes = interval_sampler_probs(x[None], np.ones((1, 5)), y[None], b, eps)
    per_t = np.zeros(2 ** b + 1)
    for p, s, z in zip(runs[0], starts[0], sizes[0]):
        if z:
            per_t[s:s + z] = p / z
    assert per_t == pytest.approx(full, abs=1e-12)
    draws = interval_sampler(np.broadcast_to(x, (200_000, 5)), np.ones((200_000, 5)),
                             np.broadcast_to(y, (200_000, 5)), b, eps, rng)
    freq = np.bincount(draws, minlength=2 ** b + 1) / draws.size
    assert np.abs(freq - full).max() < 0.006


def test_interval_sampler_works_in_log_space_on_huge_grids():
    rng = np.random.default_rng(1)
    b = 60
    support = np.array([[5, 6, 7, 8]], dtype=np.int64).repeat(1000, axis=0)
    counts = np.full((1000, 4), 400.0)
    labels = np.broadcast_to(np.arange(4) >= 2, (1000, 4))
    t = interval_sampler(support, counts, labels, b, 1.0, rng)
    assert np.all(t == 7)  # 1600 rows: every other run is exp(-100) times less likely, times <= 2^60
    t = interval_sampler(support, np.zeros((1000, 4)), labels, b, 1.0, rng)
    assert t.min() >= 0 and t.max() <= 2 ** 60 and np.unique(t).size > 990  # uniform over 2^60 + 1


def test_the_exponential_mechanisms_mode_is_an_erm():
    """The sign pitfall of the notes: the weight is exp(+eps score / 2), so the most likely
    output has the best score (the fewest errors); the printed sign would pick the worst."""
    rng = np.random.default_rng(2)
    for shape in lem3_2.SHAPES:
        s = lem3_2.scores(shape, 256, 1, rng)[0]
        probs = np.exp(log_softmax(s / 2.0))
        assert s[np.argmax(probs)] == s.max()
        picks = exponential_mechanism(np.broadcast_to(s, (2000, 256)), 50.0, rng)
        assert np.all(s[picks] == s.max())
    x = np.array([1, 2, 9, 10])
    y = np.array([0, 0, 1, 1], bool)
    full = _full_softmax(x, y, 4, 1.0)
    errors = ((x[None, :] >= np.arange(17)[:, None]) != y[None, :]).sum(axis=1)
    assert errors[np.argmax(full)] == 0


@pytest.mark.parametrize("shape", lem3_2.SHAPES)
def test_lemma_3_2_monte_carlo_tail_agrees_with_the_exact_tail(shape):
    rng = np.random.default_rng(3)
    sim = lem3_2.SivLem32()
    for eps, n in ((1.0, 4), (1.0, 9), (0.5, 2), (2.0, 6)):
        a = lem3_2.A_STEP * n
        trials = 40_000
        hits = sim.run_trials({"shape": shape, "epsilon": eps, "size": 256}, n, trials, rng)
        if shape == "random":  # the exact tail averaged over fresh random vectors
            exact = lem3_2.tail_probability(lem3_2.scores(shape, 256, 20_000, rng), a, eps).mean()
        else:
            exact = float(lem3_2.tail_probability(lem3_2.scores(shape, 256, 1, rng), a, eps)[0])
        sd = math.sqrt(max(exact * (1 - exact), 1e-6) / trials)
        assert abs(hits.mean() - exact) < 5 * sd + 2e-3, (shape, eps, n, hits.mean(), exact)
        assert exact <= math.exp(-a)


def test_lemma_3_2_is_nearly_tight_for_one_winner():
    exact = float(lem3_2.tail_probability(lem3_2.scores("one-best", 256, 1, None), 2.25, 1.0)[0])
    assert exact == pytest.approx(255 * math.exp(-8) / (1 + 255 * math.exp(-8)))
    assert 0.7 < exact / math.exp(-2.25) < 1


def test_first_consistent_erm_on_all_functions_matches_brute_force():
    k = 4
    order = sorted(itertools.product([0, 1], repeat=k), key=lambda h: -sum(h))  # decreasing weight
    rng = np.random.default_rng(4)
    for _ in range(50):
        seen = rng.random(k) < 0.5
        target = rng.random(k) < 0.5
        first = next(h for h in order if all(h[i] == target[i] for i in range(k) if seen[i]))
        got = thm2_1.first_consistent_all_functions(seen[None], target[None])[0]
        assert sum(got) == sum(first)  # the largest consistent weight (ties broken by the order)
        if not target.any():
            assert tuple(got.astype(int)) == first


def test_midpoint_erm_is_consistent():
    rng = np.random.default_rng(5)
    b = 40
    target = rng.integers(0, 2 ** b + 1, size=500)
    x = rng.integers(0, 2 ** b, size=(500, 30))
    y = x >= target[:, None]
    t = erm_midpoint(x, np.ones(x.shape), y, b)
    assert np.all((x >= t[:, None]) == y)
    start = np.array([10, 10, 10])
    assert list(cluster_error(np.array([11, 12, 14]), start)) == [0.25, 0.0, 0.5]


def _binary_search_exact(rows, b, sigma):
    """Exact output distribution of ``binary_search`` (enumerating its decisions)."""
    def D(t):
        return sum(1 for x, y in rows if y == 0 and x >= t) - sum(1 for x, y in rows if y == 1 and x < t)

    def g(lo):
        return sum((1 if y == 0 else -1) for x, y in rows if x == lo)
    out = {}

    def rec(lo, hi, p):
        if hi - lo == 1:
            ph = norm.cdf(g(lo) / sigma)
            out[hi] = out.get(hi, 0) + p * ph
            out[lo] = out.get(lo, 0) + p * (1 - ph)
            return
        mid = (lo + hi) // 2
        pr = norm.cdf(D(mid) / sigma)
        rec(mid, hi, p * pr)
        rec(lo, mid, p * (1 - pr))
    rec(0, 2 ** b, 1.0)
    return np.array([out.get(t, 0.0) for t in range(2 ** b + 1)])


def test_binary_search_samples_its_exact_distribution():
    rng = np.random.default_rng(6)
    rows = [(0, 0), (1, 0), (2, 1), (2, 1), (3, 1)]
    sigma = 1.5
    exact = _binary_search_exact(rows, 2, sigma)
    x = np.array([[r[0] for r in rows]] * 200_000)
    y = np.array([[r[1] for r in rows]] * 200_000, bool)
    freq = np.bincount(binary_search(x, np.ones(x.shape), y, 2, sigma, rng), minlength=5) / 200_000
    assert np.abs(freq - exact).max() < 0.005


def _worst_delta(p, q, eps):
    """sup over events E of P[E] - e^eps Q[E], in both directions."""
    return max(np.clip(p - math.exp(eps) * q, 0, None).sum(), np.clip(q - math.exp(eps) * p, 0, None).sum())


def test_binary_search_is_private_on_every_tiny_neighbouring_pair():
    """Exact output distributions on X_2 for every database of 3 rows and every neighbour
    (one row replaced): the (eps, delta) inequality holds on every event; with the noise
    divided by 4 (a planted bug) it fails somewhere, so the check has power. (Halving the
    noise is not enough here: the output reveals orthants of the Gaussian answers, not the
    likelihood ratio, so tiny inputs lose less than the accounting allows.)"""
    eps, delta, b = 1.0, 1e-3, 2
    sigma = float(binary_search_sigma(b, eps, delta))
    rows_all = [(x, y) for x in range(4) for y in (0, 1)]
    worst, worst_doubled = 0.0, 0.0
    sig2 = sigma / 4
    exact = {}  # the output's law depends on the multiset of rows only: each one computed once

    def law(rows, s):
        key = (tuple(sorted(rows)), s)
        if key not in exact:
            exact[key] = _binary_search_exact(rows, b, s)
        return exact[key]
    for db in itertools.combinations_with_replacement(rows_all, 3):
        for i, new in itertools.product(range(3), rows_all):
            nb = list(db)
            nb[i] = new
            worst = max(worst, _worst_delta(law(db, sigma), law(nb, sigma), eps))
            worst_doubled = max(worst_doubled, _worst_delta(law(db, sig2), law(nb, sig2), eps))
    assert worst <= delta
    assert worst_doubled > delta


def test_gdp_accounting():
    mu = gdp_mu(1.0, 1e-6)
    assert gdp_delta(1.0, mu) == pytest.approx(1e-6, rel=1e-9)
    assert gdp_mu(2.0, 1e-6) > mu
    assert float(binary_search_sigma(3, 1.0, 1e-6)) == pytest.approx(4 / mu)


def test_binary_search_learns_with_small_noise():
    rng = np.random.default_rng(7)
    support = np.array([[100, 101, 102, 103]] * 200)
    t = binary_search(support, np.full((200, 4), 50.0), support >= 102, 40, 1.0, rng)
    assert np.all(t == 102)


def _audit_eps(events, budget, trials, seed, delta=0.0, **spec):
    a, b = events(budget, trials, np.random.default_rng(seed), **spec)
    return epsilon_lower_bound(int(a.sum()), trials, int(b.sum()), trials, delta, AUDIT_CONF)


def test_a_doubled_epsilon_interval_sampler_fails_its_audit():
    """The planted bug: the sampler run at twice its declared epsilon."""
    spec = {"b": 4, "x0": 3, "epsilon": 1.0}
    assert _audit_eps(thm3_4.pure_events, 1.0, 100_000, 8, **spec) <= 1.0
    assert _audit_eps(thm3_4.pure_events, 2.0, 100_000, 8, **spec) > 1.0


def test_the_subsampled_learner_audit_catches_a_doubled_budget():
    spec = {"b": 6, "m": 9, "n": 1, "epsilon": 2.0}
    declared = 6 * 2.0 / 9
    assert _audit_eps(thm3_5.subsample_events, 1.0, 200_000, 9, **spec) <= declared
    assert _audit_eps(thm3_5.subsample_events, 2.0, 200_000, 9, **spec) > declared


def test_the_subsampled_learner_is_accurate_on_its_database_at_9n():
    rng = np.random.default_rng(10)
    sim = thm3_5.SivThm35()
    p = {"b": 8, "spread": "skewed", "epsilon": 1.0, "alpha": 0.25, "beta": 0.25}
    assert sim.run_trials(p, 9 * 200, 400, rng).mean() > 0.95
    assert sim.run_trials(p, 9 * 4, 400, rng).mean() < 0.2


def test_interval_sampler_reaches_every_residue_on_huge_grids():
    """Past 2^53 a float draw of the member of a run would only reach every 2^(b-53)-th
    threshold, so neighbouring datasets (runs starting elsewhere) would output disjoint
    sets: the member is an exact integer draw."""
    import numpy as np

    from privbounds.simulators.siv.private_thresholds import interval_sampler

    rng = np.random.default_rng(0)
    t = interval_sampler(np.full((4000, 1), 5), np.ones((4000, 1)), np.zeros((4000, 1), bool), 60, 1.0, rng)
    assert len(np.unique(t % 128)) == 128
