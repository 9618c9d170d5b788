"""Tests of section 5 and Remark 2.9 of Bassily et al., "Private Query Release Assisted by
Public Data" (ICML 2020): Algorithm 3 with the exact D~ (Theorem 5.1), Lemma 5.3's learner,
Lemma 5.4's mixture and the synthetic-data LP of Remark 2.9 (simulators/pap/learning.py),
with planted wrong variants so that each statistical check is seen to fail when it should."""

import numpy as np
import pytest
from scipy import stats

import privbounds
from privbounds.params import ParameterError
from privbounds.simulators.pap.learning import (
    cover_error_line,
    exact_release_thresholds,
    first_excess,
    gap_radius,
    labelled_line,
    learn,
    learn_thresholds,
    line_cdf,
    line_quantile,
    mixture_consumed,
    mixture_extend,
    mixture_private_counts,
    mixture_public,
    round_synthetic,
    synthetic_lp,
    threshold_losses,
)
from privbounds.simulators.pap.query_classes import (
    DISTRIBUTIONS,
    line_distribution,
    query_matrix,
    sample_points,
    threshold_answers,
)
from privbounds.simulators.pap.release import (
    cover,
    release_thresholds,
    threshold_cover_radius,
    threshold_error,
)

# --- Theorem 5.1: Algorithm 3 with the exact D~ -----------------------------------------------


@pytest.mark.parametrize("dist", DISTRIBUTIONS)
@pytest.mark.parametrize("m", [0, 1, 5, 40])
def test_exact_release_error_is_twice_the_cover_radius(dist, m):
    rng = np.random.default_rng(m)
    size, trials = 24, 30
    probs = line_distribution(dist, size, rng, trials)
    public = sample_points(probs, m, rng) if m else np.zeros((trials, 0), dtype=np.int64)
    g = exact_release_thresholds(public, probs)
    err = threshold_error(g, probs)
    np.testing.assert_allclose(err, 2 * threshold_cover_radius(public, probs), atol=1e-12)
    # the generic path: the real cover (one member per pattern, first in H's order) answered with E_D
    matrix = query_matrix("thr", size)
    for i in range(trials):
        members, assign = cover(matrix, public[i])
        generic = (matrix[members] @ probs[i])[assign]
        np.testing.assert_allclose(g[i], generic, atol=1e-12)


@pytest.mark.parametrize("dist", ["uniform", "geometric"])
def test_closed_forms_equal_the_explicit_vectors(dist):
    rng = np.random.default_rng(3)
    for size in (16, 4096):
        probs = line_distribution(dist, size, rng)[0]
        cdf = np.concatenate([[0.0], np.cumsum(probs)])
        np.testing.assert_allclose(line_cdf(dist, size, np.arange(size + 1)), cdf, atol=1e-12)
        u = rng.random(20000)
        explicit = np.minimum(np.searchsorted(np.cumsum(probs), u, side="right"), size - 1)
        # u within rounding of an atom's edge may fall either side; elsewhere the quantiles agree
        near = np.min(np.abs(u[:, None] - cdf[None, :]), axis=1) < 1e-12
        assert np.array_equal(line_quantile(dist, size, u)[~near], explicit[~near])
        pts = line_quantile(dist, size, rng.random((50, 7)))
        np.testing.assert_allclose(gap_radius(pts, lambda x, size=size: line_cdf(dist, size, x)),
                                   threshold_cover_radius(pts, np.broadcast_to(probs, (50, size)).copy()), atol=1e-12)


def _dirichlet_brute(size, m, trials, rng):
    probs = line_distribution("dirichlet", size, rng, trials)
    return 2 * threshold_cover_radius(sample_points(probs, m, rng), probs)


def _dirichlet_wrong(size, m, trials, rng):
    """A planted bug: the range of k uniforms drawn as Beta(k, 2) instead of Beta(k - 1, 2)."""
    v = np.sort(rng.random((trials, m)), axis=1)
    spacing = np.diff(np.concatenate([np.zeros((trials, 1)), v, np.ones((trials, 1))], axis=1), axis=1)
    k = rng.multinomial(size - 1, spacing).astype(float)
    b = np.ones_like(k)
    b[:, 1:-1] = 2.0
    ok = k >= 1
    return 2 * np.where(ok, spacing * rng.beta(np.where(ok, k, 1.0), b), 0.0).max(axis=1)


def test_fast_dirichlet_error_has_the_law_of_the_explicit_construction():
    rng = np.random.default_rng(11)
    n = 20000
    brute = _dirichlet_brute(16, 5, n, rng)
    assert stats.ks_2samp(brute, cover_error_line("dirichlet", 16, 5, n, rng)).pvalue > 1e-3
    assert stats.ks_2samp(brute, _dirichlet_wrong(16, 5, n, rng)).pvalue < 1e-6  # the test has teeth


def test_cover_error_inputs():
    rng = np.random.default_rng(0)
    np.testing.assert_array_equal(cover_error_line("uniform", 64, 0, 4, rng), 2.0)  # m = 0 is legal
    with pytest.raises(ParameterError, match=r"^m \(public sample size\) must be >= 0"):
        cover_error_line("uniform", 64, -1, 4, rng)
    with pytest.raises(ParameterError, match=r"^dist must be one of"):
        cover_error_line("zero", 64, 3, 4, rng)


# --- Lemma 5.3: the learner --------------------------------------------------------------------


def _labelled(size, rng):
    px = rng.dirichlet(np.ones(size))[None, :]
    return labelled_line("interval", px, 1, rng)


def _excess_checks(choose):
    """Over random small instances: the learner's excess error against 2a + r with the realised
    release accuracy a on the cover's members and the realised cover radius r. ``choose``
    maps (released errors over H, cover members) to the chosen row."""
    size = 12
    matrix = query_matrix("thr", size)
    worst = []
    for seed in range(40):
        rng = np.random.default_rng(seed)
        pos, neg = _labelled(size, rng)
        px = pos + neg
        public = sample_points(px, int(rng.integers(0, 6)), rng)[0]
        n = 10**6
        counts = rng.multinomial(n, np.concatenate([neg[0], pos[0]])).reshape(2, size)
        _, err_hat, _ = learn(counts, public, matrix, 0.2, 0.1, 1.0, 1e-9, rng)
        members, assign = cover(matrix, public)
        err = threshold_losses(pos, neg)[0]  # row t of THR is h_t
        a = np.abs(err_hat[members] - err[members]).max()
        r = threshold_cover_radius(public[None, :], px)[0]
        h = choose(err_hat, members)
        worst.append(err[h] - err.min() - (2 * a + r))
    return np.array(worst)


def test_learner_excess_is_within_2a_plus_r_on_small_exact_instances():
    assert (_excess_checks(lambda e, members: members[np.argmin(e[members])]) <= 1e-12).all()
    # the generic learner itself
    rng = np.random.default_rng(1)
    pos, neg = _labelled(12, rng)
    counts = rng.multinomial(500, np.concatenate([neg[0], pos[0]])).reshape(2, 12)
    h, err_hat, info = learn(counts, [1, 4, 9], query_matrix("thr", 12), 0.5, 0.1, 1.0, 1e-6, rng)
    members, _ = cover(query_matrix("thr", 12), [1, 4, 9])
    assert h in members and err_hat[h] == err_hat.min() and info["K"] == 4


def test_a_learner_taking_the_argmax_breaks_the_bound():
    assert (_excess_checks(lambda e, members: members[np.argmax(e[members])]) > 1e-6).any()


def test_batched_learner_loss_queries_and_errors_are_exact():
    rng = np.random.default_rng(4)
    size, trials = 10, 25
    px = line_distribution("dirichlet", size, rng, trials)
    pos, neg = labelled_line("threshold", px, trials, rng)
    public = sample_points(px, 4, rng)
    res = learn_thresholds(public, pos, neg, 10**6, 0.5, 0.1, 1.0, 1e-9, rng)
    err = threshold_losses(pos, neg)
    for i in range(trials):
        ok = res["valid"][i]
        t = res["member_t"][i][ok]
        members, _ = cover(query_matrix("thr", size), public[i])
        assert np.array_equal(t, members)  # the members are the cover's thresholds
        np.testing.assert_allclose(res["member_err"][i][ok], err[i][t], atol=1e-12)
        # the complement ranges answer 1 - loss on the exact masses
        q, w = res["queries"], res["masses"][i]
        pre = np.concatenate([[0.0], np.cumsum(w)])
        comp = pre[q.hi[i][ok]] - pre[q.lo[i][ok]]
        np.testing.assert_allclose(1 - comp, err[i][t], atol=1e-12)
    assert np.all(np.isin(res["t_hat"], np.arange(size + 1)))
    chosen = np.take_along_axis(res["member_err"], res["j_hat"][:, None], axis=1)[:, 0]
    np.testing.assert_allclose(chosen, np.take_along_axis(err, res["t_hat"][:, None], axis=1)[:, 0])


def test_learner_bad_inputs():
    rng = np.random.default_rng(0)
    matrix = query_matrix("thr", 8)
    counts = np.zeros((2, 8), dtype=int)
    counts[1, 2] = 6
    learn(counts, [], matrix, 0.5, 0.1, 1.0, 1e-3, rng)  # m = 0 is legal
    with pytest.raises(ParameterError, match=r"^n \(private sample size\) must be >= 1"):
        learn(np.zeros((2, 8)), [1], matrix, 0.5, 0.1, 1.0, 1e-3, rng)
    for bad in (0.0, 1.0, 1.5):
        with pytest.raises(ParameterError, match=r"^alpha must be in \(0, 1\)"):
            learn(counts, [1], matrix, bad, 0.1, 1.0, 1e-3, rng)
    with pytest.raises(ParameterError, match=r"^delta must be < 1/n"):
        learn(counts, [1], matrix, 0.5, 0.1, 1.0, 0.2, rng)
    with pytest.raises(ParameterError, match=r"^public_points must lie in the private data's domain 0\.\.7"):
        learn(counts, [8], matrix, 0.5, 0.1, 1.0, 1e-3, rng)
    with pytest.raises(ParameterError, match=r"^private_counts must be a labelled histogram of shape \(2, 8\)"):
        learn(np.ones(16), [1], matrix, 0.5, 0.1, 1.0, 1e-3, rng)
    pos = neg = np.full((1, 8), 1 / 16)
    with pytest.raises(ParameterError, match=r"^public points must lie in the private data's domain 0\.\.7"):
        learn_thresholds(np.full((3, 2), 9), pos, neg, 100, 0.5, 0.1, 1.0, 1e-3, rng)
    with pytest.raises(ParameterError, match=r"^n \(private sample size\) must be >= 1"):
        learn_thresholds(np.ones((3, 2), dtype=np.int64), pos, neg, 0, 0.5, 0.1, 1.0, 1e-3, rng)
    with pytest.raises(ParameterError, match=r"^alpha must be in \(0, 1\)"):
        learn_thresholds(np.ones((3, 2), dtype=np.int64), pos, neg, 100, 1.0, 0.1, 1.0, 1e-3, rng)
    with pytest.raises(ParameterError, match=r"^delta must be < 1/n"):
        learn_thresholds(np.ones((3, 2), dtype=np.int64), pos, neg, 100, 0.5, 0.1, 1.0, 0.01, rng)
    with pytest.raises(ParameterError, match=r"^private_counts must have shape \(trials, 2, 8\)"):
        learn_thresholds(np.ones((3, 2), dtype=np.int64), pos, neg, 6, 0.5, 0.1, 1.0, 1e-3, rng,
                         private_counts=np.zeros((3, 2, 9)))
    learn_thresholds(np.zeros((3, 0), dtype=np.int64), pos, neg, 100, 0.5, 0.1, 1.0, 1e-3, rng)  # m = 0


# --- Lemma 5.4: the mixture --------------------------------------------------------------------


@pytest.mark.parametrize("m", [1, 2, 5, 30])
def test_public_sample_is_all_x0_with_probability_one_minus_one_over_m_to_the_m(m):
    rng = np.random.default_rng(m)
    px = np.full((1, 32), 1 / 32)
    trials = 40000
    hits = int((mixture_public(m, px, trials, rng) == 32).all(axis=1).sum())
    exact = (1 - 1 / m) ** m
    if m == 1:
        assert hits == 0
        return
    assert stats.binomtest(hits, trials, exact).pvalue > 1e-3
    assert exact >= 0.25  # the lemma's step, from m = 2 on
    # a planted bug (weight 2/m on D instead of 1/m) is caught
    wrong = int((rng.random((trials, m)) >= 2 / m).all(axis=1).sum()) if m > 2 else 0
    assert stats.binomtest(wrong, trials, exact).pvalue < 1e-6


def test_mixture_scales_every_excess_by_lambda_and_x0_agrees_with_the_class():
    rng = np.random.default_rng(2)
    px = rng.dirichlet(np.ones(20))[None, :]
    pos, neg = labelled_line("interval", px, 1, rng)
    for m in (2, 7, 64):
        pos_l, neg_l = mixture_extend(pos, neg, m)
        assert pos_l.sum() + neg_l.sum() == pytest.approx(1.0)
        err_l = threshold_losses(pos_l, neg_l)[0, :21]  # the class: t <= T
        err = threshold_losses(pos, neg)[0]
        np.testing.assert_allclose(err_l, err / m, atol=1e-15)  # every h_t (t <= T) is right on (x0, -1)
        np.testing.assert_allclose(err_l - err_l.min(), (err - err.min()) / m, atol=1e-15)


def test_private_only_learner_outputs_the_first_hypothesis_and_consumes_a_1_over_m_fraction():
    rng = np.random.default_rng(5)
    size, m, n_prime, trials = 32, 8, 40000, 50
    px = np.full((1, size), 1 / size)
    pos, neg = labelled_line("threshold-mid", px, 1, rng)
    pos_l, neg_l = mixture_extend(pos, neg, m)
    counts, used = mixture_private_counts(n_prime, m, pos, neg, trials, rng)
    assert np.all(counts.sum(axis=(1, 2)) == n_prime) and np.all(counts[:, :, :size].sum(axis=(1, 2)) == used)
    assert np.all(counts[:, 1, size] == 0)  # x0 carries the label -1 only
    res = learn_thresholds(np.full((trials, m), size), pos_l, neg_l, n_prime, 0.2, 0.1, 1.0, 1e-9, rng,
                           t_max=size, private_counts=counts)
    assert np.all(res["t_hat"] == 0) and res["valid"].sum(axis=1).max() == 1
    k = mixture_consumed(n_prime, m, 200000, rng)
    assert abs(k.mean() / n_prime - 1 / m) < 1e-3
    assert first_excess("threshold-mid", size) == pytest.approx(0.4)
    assert first_excess("interval-mid", size) == pytest.approx(0.2)


def test_mixture_bad_inputs():
    rng = np.random.default_rng(0)
    px = np.full((1, 8), 1 / 8)
    for bad in (0, -1):
        with pytest.raises(ParameterError, match=r"^m \(public sample size of the mixture"):
            mixture_public(bad, px, 3, rng)
    with pytest.raises(ParameterError, match=r"^n \(private sample size\) must be >= 1"):
        mixture_consumed(0, 4, 3, rng)
    sim = privbounds.get("pap.lem5_4").simulator
    with pytest.raises(ParameterError, match=r"^m must be an integer in \[1, 131072\]"):
        sim.points("smoke", {"m": [0]})
    with pytest.raises(ParameterError, match=r"^delta must be < 1/n"):
        sim.points("smoke", {"delta": [0.5]})


# --- Remark 2.9: synthetic data -------------------------------------------------------------------


def test_lp_value_is_at_most_the_error_of_an_accurate_structure():
    rng = np.random.default_rng(6)
    size, alpha = 16, 0.2
    matrix = query_matrix("thr", size)
    probs = line_distribution("dirichlet", size, rng, 30)
    truth = threshold_answers(probs)
    # Algorithm 3's outputs and adversarial alpha-accurate structures
    g_alg3 = release_thresholds(sample_points(probs, 200, rng), probs, 10**7, alpha, 0.1, 1.0, 1e-9, rng)[0]
    g_adv = np.clip(truth + alpha * rng.uniform(-1, 1, truth.shape), -1, 1)
    for g in (g_alg3, g_adv):
        err = threshold_error(g, probs)
        for i in range(len(g)):
            w, t = synthetic_lp(g[i], matrix)
            assert w.min() >= 0 and w.sum() == pytest.approx(1.0)
            assert t <= err[i] + 1e-9  # D is feasible with t = err(G; D)
            assert np.abs(g[i] - matrix @ w).max() == pytest.approx(t, abs=1e-7)
            if err[i] <= alpha:
                assert t <= alpha + 1e-9
    w, t = synthetic_lp(truth[0], matrix)  # an exact G is fitted exactly
    assert t == pytest.approx(0.0, abs=1e-9)
    np.testing.assert_allclose(w, probs[0], atol=1e-7)


def test_batched_lp_solves_every_trial_and_its_weights_attain_the_value():
    rng = np.random.default_rng(7)
    matrix = query_matrix("thr", 16)
    truth = threshold_answers(line_distribution("dirichlet", 16, rng, 12))
    g = np.clip(truth + 0.2 * rng.uniform(-1, 1, truth.shape), -1, 1)
    w, t = synthetic_lp(g, matrix)
    assert w.shape == (12, 16) and t.shape == (12,)
    np.testing.assert_allclose(t, [synthetic_lp(row, matrix)[1] for row in g], atol=1e-9)
    np.testing.assert_allclose(np.abs(g - w @ matrix.T).max(axis=1), t, atol=1e-7)
    assert (w >= 0).all() and np.allclose(w.sum(axis=1), 1.0)


def test_rounded_rows_have_error_at_most_3_alpha_and_a_wrong_row_count_fails():
    rng = np.random.default_rng(8)
    size, alpha, beta = 16, 0.2, 0.1
    matrix = query_matrix("thr", size)
    probs = line_distribution("dirichlet", size, rng, 200)
    truth = threshold_answers(probs)
    g = np.clip(truth + alpha * rng.uniform(-1, 1, truth.shape), -1, 1)
    rows = int(np.ceil(2 * np.log(2 * (size + 1) / beta) / alpha**2))
    good, few = [], []
    for i in range(len(g)):
        w, _ = synthetic_lp(g[i], matrix)
        for k, out in ((rows, good), (3, few)):
            s = matrix @ (round_synthetic(w, k, rng) / k)
            out.append(np.abs(s - truth[i]).max() > 3 * alpha)
    assert np.mean(good) <= beta
    assert np.mean(few) > beta  # three rows are far too few: the check can fail
