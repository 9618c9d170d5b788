"""Wang-Lei-Fienberg subsampling, privacy-to-stability and boosting experiments: the
definitions' checkers against brute force, the exact mixtures against enumeration, the
bounds pinned to hand-computed numbers, bad input refused, and planted bugs caught."""

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from privbounds.bounds import wlf as B
from privbounds.claims import CONFIRMED, REFUTED, MeanBound
from privbounds.params import ParameterError
from privbounds.simulators.engine.audit import epsilon_lower_bound
from privbounds.simulators.wlf import count_mechanisms as cm
from privbounds.simulators.wlf import finite
from privbounds.simulators.wlf import subsample as sub
from privbounds.simulators.wlf.boosting import WlfThm25, boost, parts, selection_events
from privbounds.simulators.wlf.finite import point_losses as finite_point_losses
from privbounds.simulators.wlf.privacy_stability import WlfLem8, WlfLem30, alg1_replacements

# --- Definitions 2, 6, 27 -----------------------------------------------------------------------


def _events_brute(p, q, eps):
    """max over every event S of P(S) - e^eps Q(S), both orders (Definition 27 literally)."""
    best = 0.0
    for r in range(len(p) + 1):
        for S in itertools.combinations(range(len(p)), r):
            S = list(S)
            best = max(best, p[S].sum() - math.exp(eps) * q[S].sum(), q[S].sum() - math.exp(eps) * p[S].sum())
    return best


def test_definition_checkers_match_their_definitions_on_randomised_response():
    e = 0.8
    p = np.array([math.exp(e), 1.0]) / (1 + math.exp(e))
    q = p[::-1]
    assert cm.pure_epsilon(np.log(p), np.log(q)) == pytest.approx(e)
    assert cm.tv(p, q) == pytest.approx(np.tanh(e / 2)) == pytest.approx(float(B.pure_dp_tv(e)))
    rng = np.random.default_rng(0)
    for _ in range(5):
        a, b = rng.dirichlet(np.ones(5)), rng.dirichlet(np.ones(5))
        for eps in (0.0, 0.3, 1.0):
            assert cm.approx_delta(a, b, eps) == pytest.approx(_events_brute(a, b, eps), abs=1e-12)
        # Definition 6 over every 0-1 loss of the output (each event is a loss) is the TV
        L = np.array(list(itertools.product([0, 1], repeat=5)), float).T
        assert cm.ro_stability(a, b, L) == pytest.approx(cm.tv(a, b))
    assert cm.pure_epsilon([0.0, -np.inf], [0.0, -np.inf]) == 0.0
    assert cm.pure_epsilon([0.0, -1.0], [0.0, -np.inf]) == np.inf


def test_bad_input_is_refused_with_one_line():
    for bad in (0.0, -0.1, 1.5):
        with pytest.raises(ParameterError, match="gamma must be a number in \\[1e-12, 1\\]") as e:
            cm.check_rate(bad)
        assert "\n" not in str(e.value)
    with pytest.raises(ParameterError, match="gamma must be at least"):
        sub.subsample_size(20, 0.01)
    with pytest.raises(ParameterError, match="loss must be in \\[0, 1\\]"):
        cm.ro_stability([0.5, 0.5], [0.4, 0.6], np.array([[0.0], [1.5]]))
    for sim in (sub.WlfLem34(), sub.WlfLem31()):
        with pytest.raises(ParameterError, match="gamma"):
            sim.points("quick", {"gamma": [1.2]})
        with pytest.raises(ParameterError, match="gamma"):
            sim.points("quick", {"gamma": [0.001]})  # no row of the smallest n drawn
    with pytest.raises(ParameterError, match="epsilon"):
        sub.WlfLem34().points("quick", {"epsilon": [0]})


# --- exact mixtures against enumeration ---------------------------------------------------------


def _enumerate_subsets(n, k, m):
    """The law of the count of ones among m of n rows, by listing every subset."""
    rows = np.array([1] * k + [0] * (n - k))
    counts = np.zeros(m + 1)
    for S in itertools.combinations(range(n), m):
        counts[rows[list(S)].sum()] += 1
    return counts / counts.sum()


@pytest.mark.parametrize("n, k, m", [(6, 0, 2), (7, 3, 3), (8, 8, 5)])
def test_hypergeometric_mixing_matches_enumeration(n, k, m):
    w = _enumerate_subsets(n, k, m)
    assert np.exp(cm.hypergeom_logpmf(n, [k], m)[0]) == pytest.approx(w, abs=1e-12)
    eps = 0.9
    o = np.arange(-1, m + 2)
    brute = np.array([np.sum(w * np.exp(cm.geometric_logpmf(x - np.arange(m + 1), eps))) for x in o])
    assert np.exp(cm.subsampled_geometric_logpmf(n, [k], m, eps)[0]) == pytest.approx(brute, rel=1e-12)
    j, kern = cm.discrete_gaussian_pmf(1.5)
    out = np.zeros(m + kern.size)
    for c, wc in enumerate(w):
        out[c: c + kern.size] += wc * kern
    assert cm.subsampled_gaussian_pmf(n, [k], m, 1.5)[0] == pytest.approx(out, abs=1e-15)


def test_geometric_window_holds_the_whole_privacy_loss_and_the_tv():
    n, m, eps = 9, 4, 1.3
    k = np.arange(n)
    wide = 40  # outputs -40..m+40 by direct summation
    o = np.arange(-wide, m + wide + 1)
    w = np.exp(cm.hypergeom_logpmf(n, k, m))
    w2 = np.exp(cm.hypergeom_logpmf(n, k + 1, m))
    G = np.exp(cm.geometric_logpmf(o[None, :] - np.arange(m + 1)[:, None], eps))
    p, q = w @ G, w2 @ G
    assert cm.subsampled_geometric_loss(n, k, m, eps) == pytest.approx(np.max(np.abs(np.log(p / q)), axis=1))
    lp, lq = cm.subsampled_geometric_logpmf(n, k, m, eps), cm.subsampled_geometric_logpmf(n, k + 1, m, eps)
    assert cm.geometric_mixture_tv(lp, lq, eps) == pytest.approx(cm.tv(p, q), abs=1e-12)


def test_subsampled_geometric_reaches_the_tight_amplification_at_the_extreme_pair():
    for g, eps in ((0.01, 4.0), (0.1, 1.0), (0.5, 2.0)):
        n = 100
        loss = cm.subsampled_geometric_loss(n, np.arange(n), sub.subsample_size(n, g), eps)
        assert loss.max() == pytest.approx(float(B.subsample_tight_epsilon(g, eps)), rel=1e-10)
        assert loss.max() <= B.lem34_exact_form(g, eps) <= B.lem34_bound(g, eps)


def test_lemma_30_minimised_over_the_profile_is_the_tv():
    for s in (0.5, 2.0):
        e, d = cm.gaussian_profile_minimum(s)
        assert e == 0.0 and d == pytest.approx(float(cm.gaussian_delta(s, 0.0)))
        _, kern = cm.discrete_gaussian_pmf(s)
        tv = cm.tv(np.r_[kern, 0], np.r_[0, kern])
        assert B.lem30_stability(e, d) == pytest.approx(tv)
        e5 = cm.gaussian_epsilon_at(s, 1e-5)
        assert cm.gaussian_delta(s, e5) <= 1e-5 < cm.gaussian_delta(s, e5 * 0.99)


# --- bounds pinned -------------------------------------------------------------------------------


def test_bounds_pinned_to_hand_computed_values():
    e = math.e
    assert B.lem34_bound(0.1, 1.0) == pytest.approx(0.2 * (e - 1 / e))  # 0.47008
    assert B.lem34_exact_form(0.1, 1.0) == pytest.approx(math.log(1.1718281828) - math.log(1 - 0.1 * (1 - 1 / e)))
    assert B.subsample_tight_epsilon(0.5, 1.0) == pytest.approx(math.log(1 + 0.5 * (e - 1)))  # 0.62011
    assert B.lem4_privacy(16, 1.0) == pytest.approx(0.5 * (e - 1 / e))
    assert B.lem4_privacy_exact_form(16, 1.0) == pytest.approx(float(B.lem34_exact_form(0.25, 1.0)))
    assert B.lem29_exact(50) == pytest.approx(7 / 50) and B.lem29_bound(64) == pytest.approx(1 / 8)
    assert B.lem31_epsilon(0.1, 1.0) == pytest.approx(math.log(1 + 0.1 * e * (e - 1)))
    assert B.lem31_delta(0.1, 1.0, 0.01) == pytest.approx(0.1 * e * 0.01)
    assert B.thm32_epsilon(100, 1.0) == pytest.approx(float(B.lem31_epsilon(0.1, 1.0)))
    assert B.lem8_stability(1.0) == pytest.approx(e - 1) and B.lem8_stability_linear(0.5) == 1.0
    assert B.prop33_threshold_direct(10, 1.0) == pytest.approx(-10 / math.log(10) - 1)
    assert B.prop33_packing_delta(10, 1.0) == pytest.approx(math.log10(0.4 * math.exp(-9) / 10))
    # Theorem 25 at n = 2^20, delta = 0.01: a = 6, m = 149796
    n, b = 1 << 20, 0.01
    a, m = 6, (1 << 20) // 7
    assert parts(n, b) == (a, m)
    eps_m = math.sqrt((6 + math.log(m)) / m)
    xi = 4 * (math.log(65) + 1) / (eps_m * m) + math.sqrt(math.log(65) / (2 * m))
    eps_v = (math.log(300) + 1) / 1024
    want = (e * xi + 2 * math.sqrt(7 * math.log(2 * 6 / (b / 3)) / (2 * n))
            + 8 * (math.log(300) + math.log(6)) * 7 / (eps_v * n))
    assert B.thm25_excess_bound(n, b, 6) == pytest.approx(want)  # 0.1161
    assert B.thm25_failure(n, b, 6) == b and B.thm25_failure(64, b, 6) == 1.0


# --- learners against brute force ---------------------------------------------------------------


def test_alg1_replacements_match_datasets_built_by_hand():
    bits, n, eps = 2, 3, 1.7
    rng = np.random.default_rng(3)
    prob = finite.uniform_problem(bits)
    pos, neg = prob.sample(n, 4, rng)
    st, loss = alg1_replacements(pos, neg, n, eps, np.random.default_rng(9))
    # the same rows by hand: the u-th row of each dataset, replaced by every point in turn
    u = np.random.default_rng(9).integers(0, n, size=4)
    g = 1 << bits
    L = finite_point_losses(1 << bits)
    for t in range(4):
        rows = np.repeat(np.arange(2 * g), np.r_[pos[t], neg[t]])
        cell = rows[u[t]]
        logp = finite.alg1_log_probs(finite.error_counts(pos[t:t + 1], neg[t:t + 1]), n, eps)[0]
        best_st = best_loss = 0.0
        for new in range(2 * g):
            c = np.r_[pos[t], neg[t]].copy()
            c[cell] -= 1
            c[new] += 1
            logq = finite.alg1_log_probs(finite.error_counts(c[None, :g], c[None, g:]), n, eps)[0]
            diff = np.exp(logp) - np.exp(logq)
            best_st = max(best_st, np.max(np.abs(L @ diff)))
            best_loss = max(best_loss, np.max(np.abs(logp - logq)))
        assert st[t] == pytest.approx(best_st) and loss[t] == pytest.approx(best_loss)
        assert best_loss <= eps / 2 + 1e-12  # Delta q = 2/n: realised eps/2


def test_subsample_histograms_keep_m_rows_and_are_hypergeometric():
    rng = np.random.default_rng(4)
    pos = np.tile([5, 0, 3], (20000, 1))
    neg = np.tile([0, 2, 0], (20000, 1))
    sp, sn = sub.subsample_histograms(pos, neg, 4, rng)
    assert np.all(sp.sum(1) + sn.sum(1) == 4) and np.all(sp <= pos) and np.all(sn <= neg)
    # the first cell holds 5 of 10 rows: Hypergeom(10, 5, 4)
    freq = np.bincount(sp[:, 0], minlength=5) / 20000
    assert freq == pytest.approx(stats.hypergeom.pmf(np.arange(5), 10, 5, 4), abs=0.01)
    with pytest.raises(ParameterError, match="subset size m"):
        sub.subsample_histograms(pos[:2], neg[:2], 11, rng)


def test_boosting_picks_a_candidate_and_its_selection_has_the_stated_ratio():
    prob = finite.uniform_problem(3)
    h = boost(prob, 2000, 0.1, 50, np.random.default_rng(5))
    assert h.shape == (50,) and np.all((0 <= h) & (h <= prob.size))
    for budget, want in ((1.0, 0.620), (2.0, 1.434)):
        p = 1 / (1 + math.exp(2 * budget / 2))
        assert math.log(0.5 / p) == pytest.approx(want, abs=1e-3)
    a, b = selection_events(1.0, 200_000, np.random.default_rng(6))
    assert a.mean() == pytest.approx(1 / (1 + math.e), abs=0.005) and b.mean() == pytest.approx(0.5, abs=0.005)
    assert WlfThm25().trials_factor({"beta": 0.01}) == 4


# --- planted bugs --------------------------------------------------------------------------------


def test_a_doubled_epsilon_fails_the_subsampled_audits():
    for case in sub.WlfLem34().audits() + sub.WlfLem31().audits() + WlfLem8().audits() + WlfLem30().audits():
        hits = case.run(2.0, case.trials, np.random.default_rng(7))  # the bug: twice the budget
        assert epsilon_lower_bound(hits[0], case.trials, hits[1], case.trials, case.delta, 0.999) > case.epsilon
        ok = case.run(1.0, case.trials, np.random.default_rng(8))
        assert epsilon_lower_bound(ok[0], case.trials, ok[1], case.trials, case.delta, 0.999) <= case.epsilon


def test_a_wrong_amplification_formula_is_refuted():
    sim = sub.WlfLem34()
    p = {"learner": "geometric", "epsilon": 1.0, "gamma": 0.1}
    vals = sim.run_trials(p, 100, 50, np.random.default_rng(1))
    row = {"experiment": "mean", **p, "n": 100, "mean": vals.mean(), "sd": vals.std(ddof=1), "trials": 50,
           "max": vals.max(), "min": vals.min()}
    right = MeanBound("r", "t", lambda q: True, bound=lambda q: float(B.subsample_tight_epsilon(q["gamma"], q["epsilon"])),
                      statistic="max", value_range=(0, None))
    # a plausible slip: gamma (e^eps - 1) without the log overstates nothing, but
    # gamma eps (linear in eps) understates the loss and must be caught
    wrong = MeanBound("w", "t", lambda q: True, bound=lambda q: q["gamma"] * q["epsilon"], statistic="max",
                      value_range=(0, None))
    assert right.evaluate([], [row])["verdict"] == CONFIRMED
    assert wrong.evaluate([], [row])["verdict"] == REFUTED


def test_lemma_29s_delta_is_attained_by_the_count():
    # the changed row is drawn with probability m/n (without replacement): the count's TV
    # on the pair (0 ones, 1 one) is exactly m/n, so the bound cannot be improved
    n = 64
    m = sub.sqrt_size(n)
    vals = sub.WlfLem29().run_trials({"learner": "subsample"}, n, 10, np.random.default_rng(2))
    assert vals.max() == pytest.approx(m / n) and np.all(vals <= m / n + 1e-12)
