"""Algorithm 1 and its consistency chain (Wang-Lei-Fienberg section 4, Cor 9, Thm 7, Thm 35,
Lem 10, Lem 36-38): exact quantities against brute force on tiny inputs, the two exact
routes against each other, the audits (with a planted doubled eps caught), the printed
Lemma 37 failing its claim, Definitions 1 and 5's checkers, and bad input."""

import itertools

import numpy as np
import pytest
from scipy.special import logsumexp

from privbounds.bounds import wlf as wb
from privbounds.claims import CONFIRMED, REFUTED, MeanBound, use
from privbounds.figures.wlf.alg1 import learnability_check
from privbounds.params import ParameterError
from privbounds.simulators.engine.audit import epsilon_lower_bound
from privbounds.simulators.wlf import alg1_rates as A
from privbounds.simulators.wlf import always_aerm as L10
from privbounds.simulators.wlf import finite as F
from privbounds.simulators.wlf import generalisation_tail as L38
from privbounds.simulators.wlf import stability as S


def _hist(positions, pos, neg, size):
    P = np.zeros((positions.shape[0], size), int)
    N = np.zeros_like(P)
    for b in range(positions.shape[0]):
        np.add.at(P[b], positions[b], pos[b])
        np.add.at(N[b], positions[b], neg[b])
    return P, N


@pytest.mark.parametrize("bits, dist, n", [(4, "uniform", 50), (6, "uniform", 20), (6, "cluster", 30),
                                           (8, "uniform", 1000), (3, "cluster", 7)])
def test_run_route_equals_full_route(bits, dist, n):
    problem = A.problem_of({"bits": bits, "dist": dist})
    x, pos, neg = A.draw_runs(problem, n, 6, np.random.default_rng(bits + n))
    full = A.full_quantities(problem, *_hist(x, pos, neg, problem.size), n, 0.3)
    runs = A.run_quantities(problem, x, pos, neg, n, 0.3)
    for k in runs:
        np.testing.assert_allclose(runs[k], full[k], atol=1e-12)


def test_full_quantities_against_brute_force_with_a_regulariser():
    """Tiny P-fin: Algorithm 1 on F = R_hat + g written out hypothesis by hypothesis."""
    problem = F.uniform_problem(2, 0.1)
    pos, neg = np.array([[1, 0, 2, 1]]), np.array([[0, 1, 0, 1]])
    n, eps = 6, 0.7
    g = A.regulariser({"regulariser": "sqrt"}, n, problem.size)
    got = A.full_quantities(problem, pos, neg, n, eps, g)
    xs = [0] * 1 + [2] * 2 + [3] * 1 + [1] * 1 + [3] * 1
    ys = [1, 1, 1, 1, 0, 0]
    emp = np.array([np.mean([int((x >= t) != y) for x, y in zip(xs, ys)]) for t in range(5)])
    f = emp + g
    logw = -eps * n * f / 4  # exp(eps q / (2 * 2/n))
    p = np.exp(logw - logsumexp(logw))
    risk = problem.risks()
    assert got["excess_risk"][0] == pytest.approx(p @ risk - risk.min())
    assert got["aerm_gap"][0] == pytest.approx(p @ emp - emp.min())
    assert got["generalisation_gap"][0] == pytest.approx(p @ (risk - emp))
    assert got["utility_gap"][0] == pytest.approx(p @ (f - f.min()))
    t = A.tail_t(n, eps, 5)
    gap = f - f.min()
    bound = 5 / np.sum(gap <= t) * np.exp(-eps * n * t / 4)
    assert got["tail"][0] == pytest.approx(p[gap > 2 * t].sum() / bound)


def test_tail_ratio_against_eq_18_written_out():
    """A tail that is not empty: five hypotheses with gaps 0, 0.1, 0.5, 2, 3 at a t of 0.2
    (through the ratio's own t, n = 40, eps = 1, K = 5: t = 4(2 ln 40 + ln 5)/40)."""
    n, eps, k = 40, 1.0, 5
    t = A.tail_t(n, eps, k)
    gap = np.array([[0.0, 0.5 * t, 1.5 * t, 2.5 * t, 4 * t]])
    logw = -eps * n * gap / 4
    logp = logw - logsumexp(logw)
    tail = np.exp(logp[0, 3:]).sum()
    bound = k / 2 * np.exp(-eps * n * t / 4)  # S_t holds the first two
    got = A.tail_ratio(logp, gap, np.ones_like(gap), n, eps, k)
    assert got[0] == pytest.approx(tail / bound) and 0 < got[0] <= 1


def test_privacy_loss_is_the_brute_force_maximum_and_at_most_eps_over_delta_q():
    problem = F.uniform_problem(2, 0.1)
    pos, neg = np.array([[2, 0, 1, 0]]), np.array([[0, 1, 0, 1]])
    n, eps = 5, 1.3
    got = A.privacy_loss(problem, pos, neg, n, eps, None, np.random.default_rng(0))[0]
    counts = np.concatenate([pos, neg], axis=1)[0]
    rng = np.random.default_rng(0)
    cell = int(np.argmax(np.cumsum(counts) > rng.random(1)[0] * n))  # the same replaced point
    base = F.alg1_log_probs(F.error_counts(pos, neg), n, eps)[0]
    best = 0.0
    for new in range(8):
        c = counts.copy()
        c[cell] -= 1
        c[new] += 1
        lp = F.alg1_log_probs(F.error_counts(c[None, :4], c[None, 4:]), n, eps)[0]
        best = max(best, np.max(np.abs(lp - base)))
    assert got == pytest.approx(best)
    assert got <= eps / 2 + 1e-12  # Delta q = 2/n: eps/2-DP


def test_stability_is_the_brute_force_supremum_over_test_points():
    problem = F.uniform_problem(2, 0.1)
    rng = np.random.default_rng(3)
    pos, neg = problem.sample(9, 4, rng)
    logp = F.alg1_log_probs(F.error_counts(pos, neg), 9, 0.8)
    assert np.allclose(F.ro_stability(logp, logp), 0)  # same data: zero stability
    table = F.point_losses(4)
    other = F.alg1_log_probs(F.error_counts(pos[::-1], neg[::-1]), 9, 0.8)
    brute = np.max(np.abs((np.exp(logp) - np.exp(other)) @ table.T), axis=1)
    np.testing.assert_allclose(F.ro_stability(logp, other), brute, atol=1e-12)


def test_symmetrised_gap_is_an_unbiased_low_variance_generalisation_gap_and_at_most_stability():
    problem = A.problem_of({"bits": 4, "dist": "uniform"})
    rng = np.random.default_rng(4)
    pos, neg = problem.sample(50, 4000, rng)
    q = S.stability_quantities(problem, pos, neg, 50, 0.4, rng)
    gg, sym = q["gen_gap"], q["symmetrised_gap"]
    se = np.hypot(gg.std(), sym.std()) / np.sqrt(gg.size)
    assert abs(gg.mean() - sym.mean()) < 4 * se
    assert sym.std() < gg.std()
    assert np.all(q["er_minus_gg_minus_ag"] <= 0)
    assert np.all(q["stability"] <= np.expm1(0.2) + 1e-12)  # realised eps/2


def test_subsampled_gap_mean_matches_exact_enumeration_of_subsets():
    """n = 9, m = 3: the mean over random subsets against all C(9, 3) subsets."""
    point = {"dataset": "noisy_cluster", "bits": 2, "epsilon": 1.0}
    pos, neg = L10.designed_dataset("noisy_cluster", 2, 9)
    rows = [(x, 1) for x in range(4) for _ in range(pos[x])] + [(x, 0) for x in range(4) for _ in range(neg[x])]
    full_emp = F.error_counts(pos, neg) / 9
    exact = []
    for sub in itertools.combinations(range(9), 3):
        h = np.zeros(8, int)
        for i in sub:
            x, y = rows[i]
            h[x if y else 4 + x] += 1
        exact.append(L10._gaps(h[None], full_emp, 3, 1.0, 4)[0])
    got = L10.gap_values(point, 9, 20000, np.random.default_rng(0))["subsampled_gap"]
    assert got.mean() == pytest.approx(np.mean(exact), abs=4 * got.std() / np.sqrt(got.size) + 1e-9)


def test_designed_datasets_have_n_points_and_the_cluster_has_a_unique_perfect_threshold():
    for name in L10.DATASETS:
        pos, neg = L10.designed_dataset(name, 4, 101)
        assert pos.sum() + neg.sum() == 101
    errors = F.error_counts(*L10.designed_dataset("cluster", 4, 100))
    assert errors.min() == 0 and np.flatnonzero(errors == 0).tolist() == [8]
    with pytest.raises(ValueError, match="dataset"):
        L10.designed_dataset("nope", 4, 10)


def test_always_aerm_gap_is_the_maximum_over_the_family():
    assert L10.always_aerm_gap({"spread": 0.1, "cluster": 0.4, "opposed": 0.3}) == ("cluster", 0.4)
    with pytest.raises(ValueError, match="empty"):
        L10.always_aerm_gap({})


def test_learnability_check_takes_the_worst_distribution():
    assert learnability_check({"uniform": 0.02, "cluster": 0.3}, 0.5) == ("cluster", 0.3, True)
    assert learnability_check({"uniform": 0.02, "cluster": 0.3}, 0.1)[2] is False


def _exact_event_log_ratio(budget, **kw):
    """The subsampled audit's event probabilities, exactly."""
    spec = {"bits": 1, "n": 9, "j": 1, "label": 0, "epsilon": 3.0, "k": 1, **kw}
    g, m = 1 << spec["bits"], L10.subsample_size(spec["n"])
    pos, neg = np.zeros((2, g), int), np.zeros((2, g), int)
    neg[0, 1], neg[1, 1], pos[1, 1] = m, m - 1, 1
    p = np.exp(F.alg1_log_probs(F.error_counts(pos, neg), m, spec["epsilon"] * budget))
    a = p[0, : spec["k"] + 1].sum()
    gam = m / spec["n"]
    b = (1 - gam) * a + gam * p[1, : spec["k"] + 1].sum()
    return abs(np.log(b / a))


def test_subsampled_audit_is_exact_as_its_docstring_says_and_powered():
    assert _exact_event_log_ratio(1.0) == pytest.approx(0.468, abs=2e-3)
    assert _exact_event_log_ratio(2.0) == pytest.approx(1.686, abs=2e-3)
    case = L10.Lem10().audits()[0]
    assert case.epsilon == pytest.approx(1.0701, abs=1e-3)
    rng = np.random.default_rng(0)
    a, b = case.run(1.0, 60_000, rng)
    assert epsilon_lower_bound(a, 60_000, b, 60_000, 0, 0.999) <= case.epsilon
    a, b = case.run(2.0, 60_000, rng)
    assert epsilon_lower_bound(a, 60_000, b, 60_000, 0, 0.999) > case.epsilon


def test_planted_doubled_epsilon_fails_the_alg1_audit():
    """Algorithm 1 run at twice its declared budget (nominal 4 for a declared realised 1)."""
    case = A.alg1_case()
    a, b = case.run(2.0, 60_000, np.random.default_rng(1))
    assert epsilon_lower_bound(a, 60_000, b, 60_000, 0, 0.999) > case.epsilon


def test_printed_lemma37_fails_its_claim_where_the_corrected_one_holds():
    row = {"experiment": "mean", "n": 3200, "mean": 0.05, "sd": 0.02, "trials": 200, "max": 0.1, "min": 0.0,
           "bits": 16, "epsilon": 0.5, "schedule": "fixed"}
    h = lambda p: (1 << p["bits"]) + 1  # noqa: E731
    good = MeanBound("c", "corrected", lambda p: True, bound=use(wb.alg1_aerm_rate, h_size=h))
    bad = MeanBound("p", "printed", lambda p: True, bound=use(wb.alg1_aerm_rate_printed, h_size=h))
    assert good.evaluate([], [row])["verdict"] == CONFIRMED
    assert bad.evaluate([], [row])["verdict"] == REFUTED
    assert wb.alg1_aerm_rate_printed(50, 0.5, 65537) < 0 < wb.alg1_aerm_rate(50, 0.5, 65537)


def test_lem38_subset_mechanism_generalises_and_a_planted_eps_is_caught():
    """At eps < tau/2 the private subset query's gap stays under tau; its non-private
    maximiser (the sample's support) overfits; a sampler with eps 50 times too large does
    too, so the claim can fail."""
    rng = np.random.default_rng(0)
    size, n, tau = 1 << 14, 585, 0.3
    counts = rng.multinomial(n, np.full(size, 1.0 / size), size=100)
    ok = L38.gap_exceeds(counts, rng.random(counts.shape) < L38.inclusion_probability(
        counts, n, size, L38.mechanism_epsilon(tau)), n, size, tau)
    assert ok.mean() == 0.0
    assert L38.gap_exceeds(counts, counts > n / (2 * size), n, size, tau).mean() == 1.0
    bug = rng.random(counts.shape) < L38.inclusion_probability(counts, n, size, 50 * L38.mechanism_epsilon(tau))
    assert L38.gap_exceeds(counts, bug, n, size, tau).mean() > 0.9


def test_lem38_subset_mechanism_is_the_exponential_mechanism_over_subsets():
    """Brute force on N = 3 points: P(S) proportional to exp(eps n u(S)/2) over all 8 subsets
    equals the product of the independent inclusion probabilities."""
    import itertools

    counts, n, size, eps = np.array([2, 0, 3]), 5, 3, 0.8
    sets = list(itertools.product([0, 1], repeat=size))
    u = np.array([np.dot(s, counts) / n - sum(s) / (2 * size) for s in sets])
    w = np.exp(eps * n * u / 2)
    p = L38.inclusion_probability(counts, n, size, eps)
    prod = np.array([np.prod(np.where(np.array(s) == 1, p, 1 - p)) for s in sets])
    np.testing.assert_allclose(w / w.sum(), prod, rtol=1e-12)

def test_bad_input_is_refused_with_the_parameter_named():
    with pytest.raises(ValueError, match="epsilon"):
        F.alg1_log_probs(np.zeros((1, 3)), 5, 0.0)
    sim = A.Thm19()
    with pytest.raises(ParameterError, match="epsilon"):
        sim.points("quick", {"epsilon": [0.0]})
    with pytest.raises(ParameterError, match="epsilon"):
        sim.points("quick", {"epsilon": [1.5]})  # Theorem 19 needs eps <= 1
    with pytest.raises(ParameterError, match="epsilon must be given"):
        sim.check_point({"bits": 8, "dist": "uniform", "schedule": "fixed", "regulariser": "none",
                         "quantity": "excess_risk", "learner": "alg1", "n_max": 200, "n_ratio": 4})
    with pytest.raises(ParameterError, match="tau"):
        L38.Lem38().points("quick", {"tau": [0.01]})
    with pytest.raises(ParameterError, match="dataset"):
        L10.Lem10().points("quick", {"dataset": ["random"]})


def test_user_epsilon_replaces_the_schedule():
    pts = A.Ex20().points("quick", {"epsilon": [0.3]})
    assert pts and all(p["schedule"] == "fixed" and p["epsilon"] == 0.3 for p in pts)

