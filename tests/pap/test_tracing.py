"""The robust tracing attacker (``simulators/pap/tracer.py``) and the experiment of Theorem 4.3
of Bassily et al., "Private Query Release Assisted by Public Data" (ICML 2020)
(``simulators/pap/tracing.py``): soundness against arbitrary releases, completeness on
exact marginals, the one-row shortcut against scoring the whole sample, inputs.

Statistical tests run at a false-alarm level of 1e-3 each, and the soundness test is shown
to reject a planted wrong threshold."""

import math

import numpy as np
import pytest
from scipy import stats

from privbounds.params import ParameterError
from privbounds.simulators.pap import tracer
from privbounds.simulators.pap import tracing as experiment
from privbounds.simulators.pap.stump_release import random_means
from privbounds.simulators.pap.tracing import PapThm43, count_threshold, sample_accusations

LEVEL = 1e-3
RHO = 0.05  # large enough that a test of "FPR <= rho" has power at a few 10^5 verdicts


def _releases(kind, mu, rng):
    """Releases chosen without looking at the rows they will be tested on."""
    if kind == "signs":          # the worst case for Hoeffding: |G_j - mu_j| equal, random signs
        return mu + 0.3 * rng.choice((-1.0, 1.0), mu.shape)
    if kind == "towards-zero":   # a shrunk release (always on the same side of mu)
        return 0.5 * mu
    if kind == "sign-of-mu":     # a rounded release
        return np.sign(mu)
    return mu + rng.normal(0, 0.05, mu.shape)


def _false_positives(release_kind, p, rho, rng, trials=400, fresh=500, mu=None, wrong=1.0):
    mu = random_means(trials, p, rng) if mu is None else np.broadcast_to(mu, (trials, p)).copy()
    g = _releases(release_kind, mu, rng)
    bits = tracer.sample_bits(mu, fresh, rng)
    s = tracer.scores(bits, mu, g)
    return int(np.sum(s > wrong * tracer.threshold(g, mu, rho)[:, None])), trials * fresh


@pytest.mark.parametrize("kind", ["signs", "towards-zero", "sign-of-mu", "noise"])
@pytest.mark.parametrize("zero_means", [False, True])
def test_fresh_rows_are_accused_at_most_rho(kind, zero_means):
    """Soundness for any release: the accusation rate of rows independent of G stays at or
    below rho (one-sided binomial test at 1e-3 over 2 x 10^5 verdicts)."""
    rng = np.random.default_rng(21)
    hits, total = _false_positives(kind, 256, RHO, rng, mu=np.zeros(256) if zero_means else None)
    assert stats.binomtest(hits, total, RHO, alternative="greater").pvalue >= LEVEL


def test_soundness_test_catches_a_halved_threshold():
    """With the threshold halved the same test rejects (mu = 0, equal |G_j - mu_j|: the score
    is nearly normal with sd ||G - mu||, so the rate is about P[Z > 1.22] = 0.11 > rho)."""
    rng = np.random.default_rng(22)
    hits, total = _false_positives("signs", 256, RHO, rng, mu=np.zeros(256), wrong=0.5)
    assert stats.binomtest(hits, total, RHO, alternative="greater").pvalue < LEVEL


def test_exact_marginals_of_a_small_sample_are_traced():
    """Completeness on exact marginals: p = 4096, N = 50 rows, rho = 1e-3: the mean of a
    member's score, sum_j (1 - mu_j^2)/N ~ 55, is three times the threshold ~ 0.16 sqrt(4096)
    x 3.7, so nearly every row is accused."""
    rng = np.random.default_rng(23)
    point = {"mechanism": "full", "p": 4096, "pub": 0.0, "alpha": 0.25, "rho": 1e-3, "epsilon": 1.0, "delta": 1e-6}
    acc = sample_accusations(point, 50, 40, rng)
    assert np.median(acc.sum(axis=1)) >= 45 and acc.mean() >= 0.85


def test_large_samples_are_not_traced():
    """The other side: at N = 2000 rows and p = 256 the signal p/N is far below the
    threshold and almost nobody is accused (at most the false-positive rate's share)."""
    rng = np.random.default_rng(24)
    point = {"mechanism": "full", "p": 256, "pub": 0.0, "alpha": 0.25, "rho": 1e-3, "epsilon": 1.0, "delta": 1e-6}
    assert sample_accusations(point, 2000, 10, rng).mean() < 0.01


@pytest.mark.parametrize("mechanism", ["full", "sub", "round", "pub", "combo"])
def test_one_row_shortcut_matches_scoring_the_whole_sample(mechanism):
    """The accusation rate of the first private row (and of the first public row) computed
    with the binomial shortcut equals the rate of that row when the whole sample is drawn
    and scored (two-proportion test, two-sided at 1e-3)."""
    point = {"mechanism": mechanism, "p": 256, "pub": 0.5, "alpha": 0.25, "rho": 1e-3, "fresh": 100,
             "epsilon": 1.0, "delta": 1e-6}
    total, trials = 16, 3000
    whole = sample_accusations(point, total, trials, np.random.default_rng(25))
    n, _ = experiment.split(point, total)
    for event, col in (("member", 0), ("public", n)):
        short = experiment._row_event({**point, "event": event}, total, trials, np.random.default_rng(26))
        a, b = int(whole[:, col].sum()), int(short.sum())
        table = np.array([[a, trials - a], [b, trials - b]])
        if a + b in (0, 2 * trials):
            continue  # identical, degenerate
        assert stats.fisher_exact(table).pvalue >= LEVEL, (event, a, b)


def test_fp_event_is_the_union_of_fresh_accusations():
    """P[some of f fresh rows accused] <= 1 - (1 - rho)^f holds for the experiment's event
    at a large rho (one-sided binomial test at 1e-3)."""
    point = {"mechanism": "full", "p": 256, "pub": 0.5, "alpha": 0.25, "rho": 0.05, "fresh": 10,
             "epsilon": 1.0, "delta": 1e-6, "event": "fp"}
    hits = experiment._row_event(point, 64, 4000, np.random.default_rng(27))
    ceiling = 1 - (1 - 0.05) ** 10
    assert stats.binomtest(int(hits.sum()), hits.size, ceiling, alternative="greater").pvalue >= LEVEL


def test_count_threshold_and_subsample_size():
    point = {"alpha": 0.25, "kappa0": 0.5}
    assert count_threshold(point) == 8 and experiment.subsample_size(point) == 16
    assert count_threshold({"alpha": 0.1, "kappa0": 0.5}) == 50


def test_rounded_release_is_alpha_accurate_against_the_sample():
    rng = np.random.default_rng(28)
    point = {"mechanism": "round", "alpha": 0.25}
    s = 2.0 * rng.binomial(37, 0.3, (50, 64)) - 37
    g = experiment.release(point, s, np.zeros_like(s), None, 37, 0, rng)
    assert np.max(np.abs(g - s / 37)) <= 0.25 + 1e-12
    assert set(np.unique(g)) <= {-1.0, -0.5, 0.0, 0.5, 1.0}


@pytest.mark.parametrize("override, message", [
    ({"rho": [0.0]}, r"^rho must be a number in \[1e-12, 1\)"),
    ({"pub": [1.0]}, r"^pub must be 0 or a number in \[1e-12, 1\)"),
    ({"mechanism": ["laplace"]}, r"^mechanism must be one of full, sub, round, pub, combo"),
    ({"kappa0": [0.0]}, r"^kappa0 must be a number in \[1e-12, 64\]"),
])
def test_bad_input_names_the_parameter(override, message):
    with pytest.raises(ParameterError, match=message):
        PapThm43().points("quick", override)


def test_public_only_mechanism_needs_public_rows():
    with pytest.raises(ParameterError, match=r"^pub must be > 0 for the public-only mechanism"):
        PapThm43().points("quick", {"pub": [0.0], "mechanism": ["pub"]})


def test_threshold_is_the_hoeffding_one():
    mu = np.zeros((1, 4))
    g = np.array([[0.3, -0.4, 0.0, 0.0]])
    assert float(tracer.threshold(g, mu, 0.01)[0]) == pytest.approx(0.5 * math.sqrt(2 * math.log(100)))
