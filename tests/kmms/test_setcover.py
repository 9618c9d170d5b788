"""The Set Cover Learner (simulators/kmms/setcover.py) of Kaplan, Mansour, Matias, Stemmer:
against a plain per-trial reference, its exponential mechanism against the exact
softmax, Claim 3.1's check, the disjunctive form against De Morgan, and bad input."""

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from privbounds.params import ParameterError
from privbounds.simulators.kmms.conjunctions import decoy_family, literal_selector
from privbounds.simulators.kmms.setcover import (
    Claim31Violation,
    SetCoverRun,
    literal_parameters,
    run_setcover,
    safe_parameters,
)


def _reference(x, c1, c0, k, rounds, shift, mode):
    """The learner written the obvious way for one trial: argmax (first of ties), no noise."""
    d = x.shape[1]
    vals = np.concatenate([x, 1 - x], axis=1).astype(bool)  # literal values per row
    c1, c0 = c1.astype(float).copy(), c0.astype(float).copy()
    chosen = []
    for _ in range(rounds):
        size = c0.sum() if mode == "and" else c1.sum()
        thr = (size - shift) / k
        best, arg = -math.inf, 0
        for lit in range(2 * d):
            dele = ~vals[:, lit] if mode == "and" else vals[:, lit]
            p, n = c1[dele].sum(), c0[dele].sum()
            q = min(n - thr, -p) if mode == "and" else min(p - thr, -n)
            if q > best:
                best, arg = q, lit
        chosen.append(arg)
        dele = ~vals[:, arg] if mode == "and" else vals[:, arg]
        c1[dele] = 0
        c0[dele] = 0
    return chosen


def _sample(rng, trials, atoms, d):
    x = rng.integers(0, 2, size=(trials, atoms, d)).astype(np.uint8)
    lab = rng.integers(0, 2, size=(trials, atoms))
    cnt = rng.integers(1, 4, size=(trials, atoms))
    return x, cnt * lab, cnt * (1 - lab)


@pytest.mark.parametrize("mode", ["and", "or"])
def test_batched_learner_equals_a_plain_loop(mode):
    rng = np.random.default_rng(0)
    x, c1, c0 = _sample(rng, 40, 12, 4)
    for shift in (0.0, 3.0):
        run = run_setcover(c1, c0, 2, 5, 0.0, shift, literal_selector(x, math.inf, mode), rng, mode=mode,
                           check=False)
        ref = [_reference(x[t], c1[t], c0[t], 2, 5, shift, mode) for t in range(40)]
        np.testing.assert_array_equal(run.chosen, np.array(ref))


def test_callers_arrays_are_not_modified():
    rng = np.random.default_rng(1)
    x, c1, c0 = _sample(rng, 5, 6, 3)
    a, b = c1.copy(), c0.copy()
    run_setcover(c1, c0, 1, 3, 2.0, 1.0, literal_selector(x, 0.5), rng, check=False)
    np.testing.assert_array_equal(a, c1)
    np.testing.assert_array_equal(b, c0)


def test_first_selection_follows_the_exact_softmax():
    """Without noise b_1 is fixed, so the first pick has the law exp(eta q) / Z exactly."""
    rng = np.random.default_rng(2)
    x1, c11, c01 = _sample(rng, 1, 8, 3)
    trials, eta, k, shift = 40_000, 0.4, 2, 1.0
    x = np.broadcast_to(x1, (trials, *x1.shape[1:]))
    c1, c0 = np.broadcast_to(c11, (trials, 8)), np.broadcast_to(c01, (trials, 8))
    run = run_setcover(c1, c0, k, 1, 0.0, shift, literal_selector(x, eta), rng, check=False)
    vals = np.concatenate([x1[0], 1 - x1[0]], axis=1).astype(bool)
    thr = (c01.sum() - shift) / k
    q = np.array([min(c01[0][~vals[:, j]].sum() - thr, -c11[0][~vals[:, j]].sum()) for j in range(6)])
    p = np.exp(eta * (q - q.max()))
    p /= p.sum()
    obs = np.bincount(run.chosen[:, 0], minlength=6)
    keep = p * trials >= 5
    chi = stats.chisquare(obs[keep], p[keep] * trials * obs[keep].sum() / (p[keep] * trials).sum())
    assert chi.pvalue > 1e-3
    np.testing.assert_allclose(run.q_max[:, 0], q.max())


def test_or_mode_is_the_and_mode_on_the_de_morgan_image():
    rng = np.random.default_rng(3)
    x, c1, c0 = _sample(rng, 200, 10, 4)
    a = run_setcover(c1, c0, 2, 6, 3.0, 2.0, literal_selector(x, 0.7, "or"), np.random.default_rng(9), mode="or")
    b = run_setcover(c0, c1, 2, 6, 3.0, 2.0, literal_selector(1 - x, 0.7, "and"), np.random.default_rng(9))
    np.testing.assert_array_equal(a.chosen, b.chosen)
    np.testing.assert_allclose(a.errors, b.errors)


def test_claim31_exact_form_holds_in_real_runs_and_a_planted_violation_raises():
    fam = decoy_family(8, 2, 0.2)
    rng = np.random.default_rng(4)
    x, y = fam.sample_rows(300, 200, rng)
    p = safe_parameters(2, 0.2, 0.1, 0.9, 1e-3)
    run = run_setcover((y == 1).astype(float), (y == 0).astype(float), 2, p["rounds"], p["lap_scale"], p["shift"],
                       literal_selector(x, p["eta"]), rng)  # checks Claim 3.1 in every run
    assert run.claim31_holds().all()
    bad = SetCoverRun("and", 2, 3, 1.0, 0.5, np.zeros((1, 3), int), np.zeros((1, 3)), np.zeros((1, 3)),
                      np.zeros((1, 3)), np.zeros((1, 3)), np.array([10.0]), np.array([100.0]))
    with pytest.raises(Claim31Violation, match="Claim 3.1 violated"):
        bad.check()
    noisy = SetCoverRun("and", 2, 3, 1.0, 0.5, np.zeros((1, 3), int), np.full((1, 3), 2.0), np.zeros((1, 3)),
                        np.zeros((1, 3)), np.zeros((1, 3)), np.array([10.0]), np.array([100.0]))
    noisy.check()  # outside the event max|w_j| <= Delta the claim says nothing


def test_parameters_follow_their_readings():
    s = safe_parameters(4, 0.1, 0.1, 0.5, 1e-6)
    t = math.ceil(8 * math.log(20))
    assert s["rounds"] == t and s["lap_scale"] == pytest.approx(2 * t / 0.5)
    assert s["shift"] == pytest.approx(2 * t / 0.5 * math.log(4 * t / 0.1))
    assert s["eta"] == pytest.approx(0.5 / (4 * math.log(math.e / 1e-6)))
    lit = literal_parameters(4, 0.1, 0.1, 0.5, 1e-6)
    assert lit["lap_scale"] == pytest.approx(t / 0.5) and lit["shift"] == pytest.approx(t / 0.5 * math.log(t / 0.1))


@pytest.mark.parametrize("kw, name", [({"epsilon": 1.0}, "epsilon"), ({"delta": 0.4}, "delta"), ({"k": 0}, "k"),
                                      ({"alpha": 1.0}, "alpha"), ({"beta": 0.0}, "beta")])
def test_bad_parameters_are_one_clear_line(kw, name):
    args = {"k": 2, "alpha": 0.2, "beta": 0.1, "epsilon": 0.5, "delta": 1e-3, **kw}
    with pytest.raises(ParameterError, match=rf"^{name} must be"):
        safe_parameters(**args)


def test_selector_mode_mismatch_is_refused():
    x = np.zeros((1, 2, 2), dtype=np.uint8)
    with pytest.raises(ParameterError, match="^mode must"):
        run_setcover(np.ones((1, 2)), np.ones((1, 2)), 1, 1, 0.0, 0.0, literal_selector(x, 1.0, "or"),
                     np.random.default_rng(0), mode="and")


def test_whole_learner_audit_instances_are_what_their_docstring_says():
    """The audited tiny instances differ in exactly one example and keep |S0|."""
    from privbounds.simulators.kmms.claim3_4 import instance

    for kind in ("neg", "pos"):
        (a1, a0), (b1, b0) = instance(kind)
        assert np.abs(a1 - b1).sum() + np.abs(a0 - b0).sum() == 2
        assert a0.sum() == b0.sum() and a1.sum() == b1.sum()
    assert list(itertools.product((0, 1), repeat=3))[3] == (0, 1, 1)
