"""Decision stumps of Bassily et al., "Private Query Release Assisted by Public Data"
(ICML 2020), section 4: Definition 4.1 by brute force, the stump releases of
``simulators/pap/stump_release.py`` (binomial shortcut, Gaussian noise, combination weights),
the frontier and baseline simulators' inputs and their privacy audit instance.

Statistical tests run at a false-alarm level of 1e-3 each (stated per test), and each
is shown to reject a planted wrong variant."""

import math

import numpy as np
import pytest
from scipy import stats

from privbounds.bounds.pap import gauss_sigma
from privbounds.params import ParameterError
from privbounds.simulators.pap import tracer
from privbounds.simulators.pap.base_stumps import (
    COMBO_M,
    COMBO_THRESHOLD,
    GAUSS_THRESHOLD,
    STUMP_AUDIT,
    PapBaseStumps,
)
from privbounds.simulators.pap.query_classes import dual_vc_dimension, query_matrix, vc_dimension
from privbounds.simulators.pap.stump_release import (
    combo_events,
    combo_release,
    combo_weight,
    gauss_release,
    random_means,
    sample_sums,
)
from privbounds.simulators.pap.stumps_frontier import PapThm42

LEVEL = 1e-3


# --- Definition 4.1 --------------------------------------------------------------------

@pytest.mark.parametrize("p", range(1, 9))
def test_stump_dimensions_by_brute_force(p):
    """STUMP_p over {+-1}^p: VC dimension floor(log2 p), dual VC dimension p."""
    m = query_matrix("stump", p)
    assert m.shape == (p, 2 ** p)
    assert vc_dimension(m) == int(math.floor(math.log2(p)))
    assert dual_vc_dimension(m) == p


# --- the binomial shortcut is the row mean, in law -----------------------------------------

def _gof_pvalue(sums, size, q):
    """Chi-square goodness of fit of +-1 sums (2 Bin(size, q) - size) to the exact law, cells
    with expected count < 5 pooled into their neighbours."""
    k = ((np.asarray(sums) + size) / 2).astype(int)
    pmf = stats.binom.pmf(np.arange(size + 1), size, q)
    obs = np.bincount(k, minlength=size + 1).astype(float)
    exp = pmf * len(k)
    keep = exp >= 5
    obs_c = np.append(obs[keep], obs[~keep].sum())
    exp_c = np.append(exp[keep], exp[~keep].sum())
    if exp_c[-1] < 5:       # fold the pooled tail into the last kept cell
        obs_c[-2] += obs_c[-1]
        exp_c[-2] += exp_c[-1]
        obs_c, exp_c = obs_c[:-1], exp_c[:-1]
    return stats.chisquare(obs_c, exp_c * obs_c.sum() / exp_c.sum()).pvalue


MU = np.array([0.0, 2 * 40000 / 2 ** 16 - 1, 2 * 6000 / 2 ** 16 - 1])  # on the grid of random_means


@pytest.mark.parametrize("size", [7, 40])
def test_binomial_shortcut_and_rows_have_the_exact_law(size):
    """Both ways of getting a coordinate sum (the shortcut 2 Bin(n, q) - n and the sum of
    n rows drawn as the tracer draws them) fit the exact binomial law (each p-value >= 1e-3:
    a false alarm in 1e-3 of runs per coordinate and method)."""
    rng = np.random.default_rng(11)
    trials = 20_000
    mu = np.broadcast_to(MU, (trials, MU.size))
    shortcut = sample_sums(size, mu, rng)
    rows = tracer.row_sums(tracer.sample_bits(np.ascontiguousarray(mu), size, rng))
    for j, q in enumerate((1 + MU) / 2):
        assert _gof_pvalue(shortcut[:, j], size, q) >= LEVEL
        assert _gof_pvalue(rows[:, j], size, q) >= LEVEL


def test_the_goodness_of_fit_test_catches_a_shifted_law():
    """The same test rejects rows whose +1 probability is off by 0.02."""
    rng = np.random.default_rng(12)
    sums = 2.0 * rng.binomial(40, 0.52, 20_000) - 40
    assert _gof_pvalue(sums, 40, 0.5) < LEVEL


def test_random_means_lie_on_the_grid_and_are_uniform():
    rng = np.random.default_rng(13)
    mu = random_means(200, 100, rng)
    k = (1 + mu) / 2 * 2 ** 16
    assert np.all(k == np.rint(k)) and mu.min() > -1 and mu.max() < 1
    assert stats.kstest(mu.ravel(), stats.uniform(-1, 2).cdf).pvalue >= LEVEL


# --- noise and weights -----------------------------------------------------------------------

def test_gauss_sigma_is_the_gaussian_mechanism_scale():
    # l2-sensitivity 2 sqrt(p)/n, sigma = sensitivity sqrt(2 ln(1.25/delta)) / eps
    assert float(gauss_sigma(200, 9, 0.5, 1e-5)) == pytest.approx(2 * 3 / 200 * math.sqrt(2 * math.log(1.25e5)) / 0.5)


def gauss_variance_interval(seed: int) -> tuple[float, float]:
    """Chi-square interval at 1e-3 for the residual variance of the Gaussian release at
    n = 100,000, p = 4 (far from the clip), from 50,000 releases."""
    n, p, trials = 100_000, 4, 50_000
    resid = gauss_release(np.zeros((trials, p)), n, 1.0, 1e-6, np.random.default_rng(seed)).ravel()
    df = resid.size - 1
    lo, hi = (df * resid.var(ddof=1) / stats.chi2.ppf(q, df) for q in (1 - LEVEL / 2, LEVEL / 2))
    return lo, hi


def test_gauss_release_adds_noise_of_that_scale():
    """Residual sd of the Gaussian release (far from the clip) equals gauss_sigma: the
    sample variance's chi-square interval at 1e-3 holds it, and excludes 0.95 sigma."""
    s = float(gauss_sigma(100_000, 4, 1.0, 1e-6))  # bounds.pap's formula, not the release's call site
    lo, hi = gauss_variance_interval(14)
    assert lo <= s ** 2 <= hi
    assert not lo <= (0.95 * s) ** 2 <= hi


def test_gauss_release_with_its_noise_halved_fails_the_scale_check():
    """The same check catches s halved at the release's own call site
    (``stump_release.gauss_sigma``, weakened as the mutation harness does). The privacy
    audits catch it too, at their 4 x 10^6 trials per side: halving s is the doubled
    budget exactly, (1, 7.7e-4)-DP instead of (1, 1e-6) (``base_stumps.audit_case``)."""
    from privbounds.simulators.engine.mutations import weakened

    s = float(gauss_sigma(100_000, 4, 1.0, 1e-6))
    source = combo_events.noise_sources[0]
    with weakened(source) as calls:
        lo, hi = gauss_variance_interval(14)
    assert calls[0] == 1 and not lo <= s ** 2 <= hi and lo <= (s / 2) ** 2 <= hi


def test_combo_weight_is_inverse_variance():
    s = 0.01
    v_priv, v_pub = 1 / 400 + s * s, 1 / 100
    w = combo_weight(400, 100, s)
    assert w == pytest.approx(v_priv / (v_priv + v_pub))
    # the combination's variance w^2 v_pub + (1 - w)^2 v_priv is the smallest over all weights
    var = lambda x: x * x * v_pub + (1 - x) ** 2 * v_priv  # noqa: E731
    assert var(w) == pytest.approx(1 / (1 / v_priv + 1 / v_pub))
    assert all(var(w) <= var(x) for x in np.linspace(0, 1, 101))
    assert combo_weight(400, 0, s) == 0.0 and combo_weight(0, 100, s) == 1.0


def test_combo_release_combines_and_clips():
    rng = np.random.default_rng(15)
    n, m, p, trials = 50_000, 200, 3, 40_000
    priv, pub = np.full((trials, p), 0.2), np.full((trials, p), -0.4)
    s = float(gauss_sigma(n, p, 1.0, 1e-6))
    w = combo_weight(n, m, s)
    g = combo_release(priv, pub, n, m, 1.0, 1e-6, rng)
    resid = (g - (w * pub + (1 - w) * priv)) / ((1 - w) * s)
    assert abs(resid.mean()) < 4 / math.sqrt(resid.size) and resid.std() == pytest.approx(1, abs=0.02)
    # no public rows: the Gaussian release alone; clipping keeps answers in [-1, 1]
    big = combo_release(np.full((100, p), 0.99), None, 2, 0, 1.0, 1e-6, rng)
    assert big.min() >= -1 and big.max() <= 1


# --- the privacy audit instance -----------------------------------------------------------------

@pytest.mark.parametrize("m, threshold", [(0, GAUSS_THRESHOLD), (COMBO_M, COMBO_THRESHOLD)])
def test_audit_event_probabilities_match_the_gaussian_computation(m, threshold):
    """The event sum_j G_j > t of the audit has, on D and D', the normal tail probabilities
    of the derivation (two-sided binomial tests at 1e-3), at the declared and doubled budgets."""
    a = STUMP_AUDIT
    rng = np.random.default_rng(16)
    trials = 200_000
    for budget in (1.0, 2.0):
        s = float(gauss_sigma(a["n"], a["p"], a["epsilon"] * budget, a["delta"]))
        w = combo_weight(a["n"], m, s)
        sd = (1 - w) * s * math.sqrt(a["p"])
        shift = (1 - w) * a["p"] * 2 / a["n"]
        hits = combo_events(budget, trials, rng, a["n"], m, a["p"], a["epsilon"], a["delta"], threshold)
        for h, centre in zip(hits, (0.0, shift)):
            prob = stats.norm.sf((threshold - centre) / sd)
            assert stats.binomtest(int(h.sum()), trials, prob).pvalue >= LEVEL


# --- parameters ------------------------------------------------------------------------------------

@pytest.mark.parametrize("sim, override, message", [
    (PapThm42(), {"m": [-1]}, r"^m must be an integer in \[0, 131072\], got -1"),
    (PapThm42(), {"alpha": [1.5]}, r"^alpha must be a number in \[0.0001, 1\), got 1.5"),
    (PapThm42(), {"p": [64]}, r"^p must be >= 1/alpha\^2 = 100 for Theorem 4.2"),
    (PapThm42(), {"delta": [1e-4]}, r"^delta must be < 1/n \(n up to \d+\)"),
    (PapThm42(), {"epsilon": [2.0]}, r"^epsilon must be a number in \[0.001, 1\]"),
    (PapThm42(), {"dist": ["gaussian"]}, r"^dist must be one of zero, random"),
    (PapBaseStumps(), {"mechanism": ["laplace"]}, r"^mechanism must be one of gauss, public"),
    (PapBaseStumps(), {"p": [0]}, r"^p must be an integer in \[1, 65536\]"),
])
def test_bad_input_names_the_parameter(sim, override, message):
    with pytest.raises(ParameterError, match=message):
        sim.points("quick", override)


def test_no_public_data_is_a_legal_point():
    pts = PapThm42().points("quick", {"m": [0]})
    assert pts and all(p["m"] == 0 for p in pts)


def test_frontier_success_moves_from_failure_to_success():
    """At a tenth of the private-only bound the release fails; at the bound it succeeds."""
    sim = PapThm42()
    point = {"p": 128, "m": 25, "dist": "random", "alpha": 0.1, "beta": 0.1, "epsilon": 1.0, "delta": 1e-6}
    lo, hi = sim.n_range(point)
    bound = (hi - 1) / 4
    assert sim.run_trials(point, int(bound / 10), 200, np.random.default_rng(1)).mean() < 0.05
    assert sim.run_trials(point, int(bound), 200, np.random.default_rng(2)).mean() > 0.95
