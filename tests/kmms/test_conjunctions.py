"""Conjunctions and disjunctions (simulators/kmms/conjunctions.py) for Kaplan, Mansour, Matias,
Stemmer: Example 2.3, the closed-form error against enumeration, the exact count state
against the learner on explicit rows, and Section 1.1's classical learner."""

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from privbounds.params import ParameterError
from privbounds.simulators.kmms.conjunctions import (
    LiteralProductState,
    classical_learner,
    classical_learner_rows,
    complement,
    decoy_family,
    hypothesis_values,
    literal_selector,
    literal_values,
    nearmiss_family,
    run_family,
)
from privbounds.simulators.kmms.setcover import run_setcover, setcover_rounds


def _cube(d):
    return np.array(list(itertools.product((0, 1), repeat=d)), dtype=np.uint8)


def _mass(fam, pts):
    """P(x, type) by enumeration: (types, points)."""
    z = fam.z[:, None, :]
    p = np.where(pts[None] == 0, z, 1 - z).prod(axis=2)
    return fam.probs[:, None] * p


@pytest.mark.parametrize("make", [lambda: decoy_family(5, 2, 0.2), lambda: nearmiss_family(5, 2),
                                  lambda: complement(decoy_family(5, 2, 0.3)), lambda: decoy_family(4, 1, 0.5)])
def test_exact_error_equals_enumeration(make):
    fam = make()
    pts = _cube(fam.d)
    mass = _mass(fam, pts)
    assert mass.sum() == pytest.approx(1.0)
    rng = np.random.default_rng(0)
    chosen = rng.integers(0, 2 * fam.d, size=(60, 3))
    x = np.broadcast_to(pts, (60, *pts.shape))
    h = hypothesis_values(x, chosen, fam.d, fam.mode)  # (60, points)
    wrong = h[:, None, :] != (fam.labels[None, :, None] == 1)
    np.testing.assert_allclose(fam.exact_error(chosen), (wrong * mass[None]).sum(axis=(1, 2)), atol=1e-12)


def test_targets_are_ands_and_ors_of_literals_example_2_3():
    d, rng = 5, np.random.default_rng(1)
    pts = _cube(d)
    x = np.broadcast_to(pts, (1, *pts.shape))
    for k in range(0, 4):
        lits = rng.choice(2 * d, size=k, replace=False)
        vals = [literal_values(x, np.array([lit]), d)[0] for lit in lits]
        and_ = np.logical_and.reduce(vals) if k else np.ones(len(pts), bool)
        or_ = np.logical_or.reduce(vals) if k else np.zeros(len(pts), bool)
        ch = np.array([lits]) if k else np.zeros((1, 0), int)
        np.testing.assert_array_equal(hypothesis_values(x, ch, d, "and")[0], and_)
        np.testing.assert_array_equal(hypothesis_values(x, ch, d, "or")[0], or_)
    fam = decoy_family(d, 2, 0.2)
    lab = (fam.labels == 1)[:, None]
    ok = np.where(_mass(fam, pts) > 0, hypothesis_values(x, np.array([fam.target]), d, "and")[0][None] == lab, True)
    assert ok.all()  # the family is labelled by its target AND v_1 ... v_k


def _chosen_sets(chosen):
    return [tuple(sorted(set(r))) for r in chosen.tolist()]


@pytest.mark.parametrize("mode", ["and", "or"])
def test_count_state_is_the_learner_on_rows_in_distribution(mode):
    """Two-sample chi-square on the set of chosen literals and a KS test on the errors: the
    exact count state (hypergeometric thinning by pools) against the learner on explicit
    rows, same family and parameters."""
    fam = decoy_family(6, 2, 0.4)
    if mode == "or":
        fam = complement(fam)
    n, trials, k, rounds, b, shift, eta = 40, 4000, 2, 4, 3.0, 2.0, 0.3
    rng = np.random.default_rng(5)
    run_c, err_c = run_family(fam, n, trials, rng, k, rounds, b, shift, eta)
    x, y = fam.sample_rows(n, trials, rng)
    run_r = run_setcover((y == 1).astype(float), (y == 0).astype(float), k, rounds, b, shift,
                         literal_selector(x, eta, mode), rng, mode=mode)
    err_r = fam.exact_error(run_r.chosen)
    a, c = _chosen_sets(run_c.chosen), _chosen_sets(run_r.chosen)
    cats = sorted(set(a) | set(c))
    table = np.array([[a.count(s) for s in cats], [c.count(s) for s in cats]])
    table = table[:, table.sum(axis=0) >= 10]
    assert stats.chi2_contingency(table).pvalue > 1e-3
    assert stats.ks_2samp(err_c, err_r).pvalue > 1e-3
    np.testing.assert_allclose(np.mean(run_c.errors), np.mean(run_r.errors), rtol=0.15)


def test_count_state_pools_are_per_label_and_bit_law():
    st = LiteralProductState(decoy_family(64, 8, 0.2), 1000, 3, np.random.default_rng(0), "and")
    assert st.G == 2  # positives and the other negatives, whatever k is
    assert (st.A.sum(axis=1) == 1000).all()


def test_classical_learner_agrees_with_rows_and_is_consistent():
    fam = decoy_family(6, 2, 0.4)
    rng = np.random.default_rng(7)
    x, y = fam.sample_rows(30, 3000, rng)
    picks = classical_learner_rows(x, y)
    for xt, yt, pk in zip(x[:200], y[:200], picks[:200]):
        h = np.ones(len(yt), bool)
        for lit in pk:
            h &= literal_values(xt[None], np.array([lit]), fam.d)[0]
        assert (h[yt == 1]).all()  # consistent with every positive
    err_rows = np.array([fam.exact_error(np.array([p if p else [0]]))[0] if p else
                         fam.exact_error(np.zeros((1, 0), int))[0] for p in picks])
    _, err_counts = classical_learner(fam, 30, 3000, rng)
    assert stats.ks_2samp(err_rows, err_counts).pvalue > 1e-3


def test_bad_sizes_are_one_clear_line():
    with pytest.raises(ParameterError, match="^k must be at most d"):
        decoy_family(3, 4, 0.2)
    with pytest.raises(ParameterError, match="^d must be"):
        nearmiss_family(0, 1)


def test_claim31_holds_on_the_count_state():
    fam = decoy_family(32, 4, 0.2)
    state = LiteralProductState(fam, 3000, 200, np.random.default_rng(2), "and", eta=0.05)
    run = setcover_rounds(state, 4, 19, 30.0, 30.0 * math.log(4 * 19 / 0.1), np.random.default_rng(3))
    assert run.claim31_holds().all()
