"""Privacy: every mechanism and learner is audited on neighbouring inputs.

Each audit computes a Clopper-Pearson lower bound on epsilon (simulators/audit.py) and
checks it (a) stays at or below the claimed epsilon for the correct unit and (b) exceeds
it for a planted bug (halved noise / a dropped factor 2 / no budget split), so the audit
is shown to have power. Each audit is at joint confidence 0.999 (false-alarm rate
<= 0.1% per test); the planted bugs are detected with a wide margin at these sample
sizes. Seeds are fixed, so the outcome is reproducible.
"""

import numpy as np
import pytest
from scipy import stats

from privbounds.bounds.tools import per_concept_epsilon
from privbounds.simulators.engine.audit import epsilon_lower_bound
from privbounds.simulators.shared.concepts import make_class
from privbounds.simulators.shared.learners import expmech_learner
from privbounds.simulators.shared.mechanisms import (
    exponential_mechanism,
    exponential_mechanism_probs,
    laplace_mechanism,
)

CONF = 0.999
M = 400_000


def audit(sample_a, sample_b, event, delta=0.0):
    a, b = event(sample_a), event(sample_b)
    return epsilon_lower_bound(int(a.sum()), a.size, int(b.sum()), b.size, delta, CONF)


# --- Laplace -------------------------------------------------------------------------

def laplace_audit(eps_used, eps_claimed=1.0):
    rng = np.random.default_rng(10)
    out_d = laplace_mechanism(np.zeros(M), 1.0, eps_used, rng)
    out_d2 = laplace_mechanism(np.ones(M), 1.0, eps_used, rng)
    return audit(out_d, out_d2, lambda o: o > 1.0)  # event chosen before sampling


def test_laplace_audit_stays_below_epsilon():
    e = laplace_audit(1.0)
    assert 0.9 < e <= 1.0  # tight: this event attains the ratio e^eps


def test_laplace_audit_catches_halved_noise():
    assert laplace_audit(2.0) > 1.0  # Lap(1/(2 eps)): the bug the audit must catch


# --- Exponential mechanism --------------------------------------------------------------

def expmech_scores(m=10):
    # sensitivity-1 neighbours: every score moves by exactly 1
    u = np.zeros(m + 1)
    u2 = -np.ones(m + 1)
    u2[0] = 1.0
    return u, u2


def expmech_audit(eps_used):
    rng = np.random.default_rng(11)
    u, u2 = expmech_scores()
    a = exponential_mechanism(np.broadcast_to(u, (M, u.size)), eps_used, rng)
    b = exponential_mechanism(np.broadcast_to(u2, (M, u.size)), eps_used, rng)
    return audit(a, b, lambda o: o == 0)


def test_expmech_audit_stays_below_epsilon():
    assert expmech_audit(1.0) <= 1.0


def test_expmech_audit_catches_missing_factor_two():
    assert expmech_audit(2.0) > 1.0  # exp(eps * u) instead of exp(eps * u / 2)


def test_expmech_sampler_matches_its_exact_distribution():
    rng = np.random.default_rng(12)
    scores = np.array([0.0, -1, -2, -5, -5, 3])
    p = exponential_mechanism_probs(scores, 0.7)
    draws = exponential_mechanism(np.broadcast_to(scores, (200_000, 6)), 0.7, rng)
    counts = np.bincount(draws, minlength=6)
    assert stats.chisquare(counts, p * counts.sum()).pvalue > 1e-3
    # and the exact distribution's log-ratio on neighbours is within epsilon
    u, u2 = expmech_scores()
    lr = np.abs(np.log(exponential_mechanism_probs(u, 1.0)) - np.log(exponential_mechanism_probs(u2, 1.0)))
    assert lr.max() <= 1.0 + 1e-12


def test_expmech_never_overflows_on_large_scores():
    rng = np.random.default_rng(13)
    out = exponential_mechanism(np.array([[-1e6, -1e6 + 50.0]]), 1.0, rng)
    assert out[0] == 1
    assert np.all(np.isfinite(exponential_mechanism_probs(np.array([-1e6, 0.0]), 1.0)))


# --- Learners --------------------------------------------------------------------------

def neighbouring_threshold_databases():
    """Two databases of 6 rows over THRESH_3 differing in one row's label."""
    cls = make_class("thresh", 3)
    x = np.array([[1, 2, 3, 5, 6, 6]])
    y = x >= 4
    y2 = y.copy()
    y2[0, 2] = True  # row 3 flips to positive
    return cls, cls._histograms(x, y), cls._histograms(x, y2)


def test_expmech_learner_exact_privacy_on_neighbours():
    cls, (p1, n1), (p2, n2) = neighbouring_threshold_databases()
    s1 = -cls.errors_from_histograms(p1, n1)[0, 0]
    s2 = -cls.errors_from_histograms(p2, n2)[0, 0]
    lr = np.abs(np.log(exponential_mechanism_probs(s1, 1.0)) - np.log(exponential_mechanism_probs(s2, 1.0)))
    assert lr.max() <= 1.0 + 1e-12
    assert np.argmax(exponential_mechanism_probs(s1, 1.0)) == 4  # the mode is the ERM


def direct_sum_audit(k, eps_per_concept, delta=0.0, reveal=None, reps=200_000):
    """Neighbouring databases: one row (x0, b) versus (x0, not b) on the two-concept
    class, so every one of the k columns changes; event: at least ``reveal`` (default
    all k) of the output's columns reveal not-b."""
    rng = np.random.default_rng(14)
    cls = make_class("point", 1)
    b = np.zeros((1, 1, k), dtype=bool)
    support = np.zeros((1, 1), dtype=np.int64)
    counts = np.ones((1, 1))
    pa, na = cls.histograms_from_counts(support, counts, b)
    pb, nb = cls.histograms_from_counts(support, counts, ~b)
    out_a = expmech_learner(cls, np.repeat(pa, reps, 0), np.repeat(na, reps, 0), eps_per_concept, rng)
    out_b = expmech_learner(cls, np.repeat(pb, reps, 0), np.repeat(nb, reps, 0), eps_per_concept, rng)
    need = k if reveal is None else reveal
    reveals_not_b = lambda h: np.sum(h == 0, axis=-1) >= need  # h_j = c_{x0}: label 1  # noqa: E731
    return audit(out_a, out_b, reveals_not_b, delta)


def test_direct_sum_basic_composition_is_eps_dp():
    assert direct_sum_audit(4, per_concept_epsilon(1.0, 4, "basic")) <= 1.0


def test_direct_sum_audit_catches_missing_budget_split():
    assert direct_sum_audit(4, 1.0) > 1.0  # eps per concept: 4 eps in total


def test_direct_sum_advanced_composition_audit_with_delta():
    delta = 1e-6
    e0 = per_concept_epsilon(1.0, 16, "advanced", delta)
    # "at least 13 of 16 columns flip" has a large likelihood ratio and is not rare
    assert direct_sum_audit(16, e0, delta=delta, reveal=13, reps=400_000) <= 1.0
    # budget split as if k were 4: privacy loss 1.3 on this event
    assert direct_sum_audit(16, 1.0 / 4, delta=delta, reveal=13, reps=400_000) > 1.0


def test_audit_helper_direction_and_delta():
    assert epsilon_lower_bound(500, 1000, 50, 1000, 0.0, 0.95) == pytest.approx(
        epsilon_lower_bound(50, 1000, 500, 1000, 0.0, 0.95))
    assert epsilon_lower_bound(500, 1000, 50, 1000, 0.3) < epsilon_lower_bound(500, 1000, 50, 1000, 0.0)
    assert epsilon_lower_bound(0, 10, 0, 10) == -np.inf


# --- The grouped sampler: the same distribution, so the same privacy ---------------------

@pytest.mark.parametrize("name", ["thresh", "point"])
def test_grouped_expmech_learner_has_the_exact_distribution(name):
    """expmech_learner_grouped must be the exponential mechanism over every hypothesis:
    chi-square of its draws against the exact softmax over the whole class."""
    from privbounds.simulators.shared.learners import expmech_learner_grouped
    rng = np.random.default_rng(15)
    cls = make_class(name, 4)
    support = np.array([[9, 2, 5]])
    counts = np.array([[3, 4, 2]])
    labels = np.array([[[True, False], [False, False], [True, True]]])
    pos, neg = cls.histograms_from_counts(support, counts, labels)
    exact = exponential_mechanism_probs(-cls.errors_from_histograms(pos, neg)[0], 0.8)  # (k, |H|)
    reps = 200_000
    h = expmech_learner_grouped(cls, np.repeat(support, reps, 0), np.repeat(counts, reps, 0),
                                np.repeat(labels, reps, 0), 0.8, rng)
    for j in range(2):
        c = np.bincount(h[:, j], minlength=cls.size)
        assert stats.chisquare(c, exact[j] * reps).pvalue > 1e-3


def test_grouped_direct_sum_audit():
    """The direct-sum audit above, through the grouped sampler the simulators use."""
    from privbounds.simulators.shared.learners import expmech_learner_grouped
    rng = np.random.default_rng(16)
    cls = make_class("point", 1)
    k, reps = 4, 200_000
    support = np.zeros((reps, 1), dtype=np.int64)
    counts = np.ones((reps, 1))
    b = np.zeros((reps, 1, k), dtype=bool)
    flipped = lambda h: np.all(h == 0, axis=-1)  # noqa: E731
    for eps0, ok in ((per_concept_epsilon(1.0, k, "basic"), True), (1.0, False)):
        a = expmech_learner_grouped(cls, support, counts, b, eps0, rng)
        c = expmech_learner_grouped(cls, support, counts, ~b, eps0, rng)
        assert (audit(a, c, flipped) <= 1.0) == ok
