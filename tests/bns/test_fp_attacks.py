"""Tests of the fingerprinting attacks (Bun-Nissim-Stemmer Thm 4.3, Rem 4.4, Cor 4.6 with
Boneh-Shaw; Thm 4.7, Rem 4.8, Cor 4.10, Prop 4.11 with Tardos): bound functions, the
learners' per-column laws (exact privacy on neighbouring databases, with a planted
bug), the attack's outcome on a non-private learner, accuracy, refusals, determinism."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from privbounds.bounds import bns, tools
from privbounds.params import ParameterError
from privbounds.simulators.bns import fingerprint, tardos
from privbounds.simulators.bns.fp_agnostic import (
    BnsCor410,
    BnsProp411,
    BnsRem48,
    BnsThm47,
    _point_law_counts,
    parity_hypotheses,
    point_hypotheses,
    weight_law,
)
from privbounds.simulators.bns.fp_thresh import BnsCor46, BnsRem44, BnsThm43, column_hypotheses, middle_user

EPS0 = 0.05


# --- bound functions ---------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 5, 8, 13])
def test_code_lengths_match_the_codes(n):
    xi = float(bns.fp_security(n, 1.0))
    assert bns.bs_code_length(n, xi) == (n - 1) * fingerprint.block_length(n, xi)
    assert bns.tardos_code_length(n, xi) == tardos.code_length(n, xi)


def test_thresh_lower_bound_grows_like_cube_root_of_k():
    ks = np.array([2.0 ** e for e in range(24, 34, 3)])
    n = bns.n_lb_thresh_users(ks, 1.0, 1e-9, 0.1)
    slope = np.polyfit(np.log(ks), np.log(n), 1)[0]
    assert 0.28 < slope < 0.36                      # 1/3 up to the ln k in the code length
    asym = bns.n_lb_thresh_asymptotic(ks)
    assert np.all(np.abs(n / asym - 1) < 0.25)


def test_agnostic_lower_bound_grows_like_square_root_of_k():
    ks = np.array([2.0 ** e for e in range(16, 24, 2)])
    n = bns.n_lb_agnostic_users(ks, 1.0, 1e-9, 0.1)
    slope = np.polyfit(np.log(ks), np.log(n), 1)[0]
    assert 0.42 < slope < 0.52
    assert np.all(np.diff(n) >= 0)


def test_lower_bounds_are_largest_codes_that_fit():
    for k in (300, 5000, 70000):
        n = int(bns.n_lb_thresh_users(k, 1.0, 1e-7, 0.1))
        assert bns.bs_code_length(n, bns.fp_security(n, 1.0)) <= k < bns.bs_code_length(n + 1, bns.fp_security(n + 1, 1.0))
    assert bns.n_lb_thresh_users(30, 1.0, 1e-7, 0.1) == 1 and bns.rows_lb_thresh(30, 0.1, 1.0, 1e-7, 0.1) == 0


def test_condition_fails_for_large_beta():
    # 1 - xi - n(e xi + delta) is about 5/6 < 2 e beta once beta > 0.153
    xi = bns.fp_security(8, 1.0)
    assert bns.bs_condition(8, 1.0, 1e-7, 0.1, xi) and not bns.bs_condition(8, 1.0, 1e-7, 0.2, xi)
    assert bns.rows_lb_code(8, 0.1, 1.0, 1e-7, 0.2) == 0 and bns.rows_lb_code(8, 0.1, 1.0, 1e-7, 0.1) == 35
    assert bns.rows_lb_tardos_code(4, 0.1, 1.0, 1e-7, 0.1) == 40


def test_bound_functions_refuse_bad_input():
    with pytest.raises(ValueError, match="xi"):
        bns.bs_code_length(4, 1.5)
    with pytest.raises(ValueError, match="alpha"):
        bns.rows_lb_thresh(1000, 0.0, 1.0, 1e-7, 0.1)


# --- per-column laws: exact privacy on neighbours ------------------------------------

def _thresh_neighbours(users, rows):
    full = np.ones(users, bool)
    for i in range(1, users + 1):
        s = full.copy()
        s[i - 1] = False
        yield (full, rows - users), (s, rows - users + 1)


@pytest.mark.parametrize("users,rows", [(4, 4), (4, 200), (8, 40)])
def test_thresh_column_law_is_eps0_dp_on_neighbours(users, rows):
    """Replacing one coded row by a junk row changes every threshold's error by at most
    1, so each output's probability moves by at most e^eps0 (exact, no sampling)."""
    for (a, ja), (b, jb) in _thresh_neighbours(users, rows):
        la = column_hypotheses(users, a, ja, rows, 0.1, "directsum-advanced", EPS0)[0]
        lb = column_hypotheses(users, b, jb, rows, 0.1, "directsum-advanced", EPS0)[0]
        assert np.allclose(la.sum(axis=1), 1) and np.allclose(lb.sum(axis=1), 1)
        assert np.all(la <= np.exp(EPS0) * lb + 1e-12) and np.all(lb <= np.exp(EPS0) * la + 1e-12)


def test_planted_bug_breaks_the_column_audit():
    """A learner that forgets to split its budget (runs each column at 4 eps0 while
    declaring eps0) violates the ratio: the audit above can fail."""
    users, rows = 4, 12
    (a, ja), (b, jb) = next(iter(_thresh_neighbours(users, rows)))
    la = column_hypotheses(users, a, ja, rows, 0.1, "directsum-advanced", 4 * EPS0)[0]
    lb = column_hypotheses(users, b, jb, rows, 0.1, "directsum-advanced", 4 * EPS0)[0]
    assert np.any(la > np.exp(EPS0) * lb + 1e-12) or np.any(lb > np.exp(EPS0) * la + 1e-12)


def test_point_column_law_is_eps0_dp_on_neighbours():
    w = np.arange(5)
    for rows in (4, 50, 400):
        full = point_hypotheses(w, 4, rows - 4, rows, 0.1, "directsum-advanced", EPS0)[0]
        # the replaced member held a 1 (w - 1 ones among 3) or a 0 (w ones among 3)
        one = point_hypotheses(np.maximum(w - 1, 0), 3, rows - 3, rows, 0.1, "directsum-advanced", EPS0)[0]
        zero = point_hypotheses(np.minimum(w, 3), 3, rows - 3, rows, 0.1, "directsum-advanced", EPS0)[0]
        for other, sel in ((one, w >= 1), (zero, w <= 3)):
            assert np.all(full[sel] <= np.exp(EPS0) * other[sel] + 1e-12)
            assert np.all(other[sel] <= np.exp(EPS0) * full[sel] + 1e-12)


def test_parity_column_law_is_eps0_dp_on_neighbours():
    law = parity_hypotheses(2, 0.2, "directsum-advanced", EPS0)[0]    # 16 patterns over 4 rows
    for pat in range(16):
        for i in range(4):
            nb = pat & ~(1 << i)                                      # user i + 1's labels set to 0
            assert np.all(law[pat] <= np.exp(EPS0) * law[nb] + 1e-12)


def test_weight_law_matches_tardos_biases():
    rng = np.random.default_rng(3)
    for users in (3, 6):
        w = rng.binomial(users, tardos.biases(users, 100_000, 1, rng)[0])
        counts = np.bincount(w, minlength=users + 1)
        assert stats.chisquare(counts, weight_law(users) * counts.sum()).pvalue > 1e-3


# --- the attacks ---------------------------------------------------------------------

def _point(sim, **kw):
    pts = [p for p in sim.points("quick") if all(p[k] == v for k, v in kw.items())]
    assert pts, kw
    return pts[0]


def test_thresh_attack_catches_erm_and_not_the_private_learner():
    sim, rng = BnsThm43(), np.random.default_rng(0)
    erm = _point(sim, users=8, learner="erm", event="accused-middle")
    assert sim.run_trials(erm, 8, 300, rng).all()                     # accused on D ...
    framed = _point(sim, users=8, learner="erm", event="framed-middle")
    assert not sim.run_trials(framed, 8, 300, rng).any()              # ... never on D_-i*
    priv = _point(sim, users=8, learner="directsum-advanced", event="accused-middle")
    assert sim.run_trials(priv, 64, 300, rng).mean() < 0.05
    assert middle_user(8) == 4


def test_thresh_private_learner_accuracy_on_either_side():
    sim, rng = BnsThm43(), np.random.default_rng(1)
    p = _point(sim, users=4, learner="directsum-advanced", event="accurate")
    assert sim.run_trials(p, 4, 200, rng).mean() == 0                 # 4 rows, 603 columns: hopeless
    assert sim.run_trials(p, 1 << 16, 200, rng).mean() > 0.95         # far above its N*


def test_agnostic_attack_catches_erm():
    sim, rng = BnsThm47(), np.random.default_rng(2)
    assert sim.run_trials(_point(sim, learner="erm", event="traced"), 3, 100, rng).all()
    assert not sim.run_trials(_point(sim, learner="erm", event="framed"), 3, 100, rng).any()
    assert not sim.run_trials(_point(sim, learner="directsum-advanced", event="traced"), 3, 100, rng).any()


def test_agnostic_accuracy_exact_path_matches_column_draws():
    """The Bernoulli shortcut for POINT accuracy equals drawing every column."""
    sim = BnsRem48()
    p = dict(_point(sim, alpha=0.1), k=tardos.code_length(4, float(bns.fp_security(4, 1.0))))
    rows = 2500
    eps0 = tools.per_concept_epsilon(1.0, p["k"], "advanced", p["delta"])
    fast = sim.run_trials(p, rows, 4000, np.random.default_rng(4)).mean()
    law = _point_law_counts(np.arange(5), 4, rows - 4, rows, 0.1, "directsum-advanced", eps0)
    rng = np.random.default_rng(5)
    w = rng.binomial(4, tardos.biases(4, p["k"], 400, rng))
    u = rng.random(w.shape)
    slow = (u < (law[:, 2] + law[:, 3])[w]).all(axis=1).mean()
    assert 0.05 < fast < 0.95
    assert abs(fast - slow) < 4 * np.sqrt(fast * (1 - fast) / 400) + 0.02


def test_parity_attack_runs_and_erm_is_traced():
    sim, rng = BnsProp411(), np.random.default_rng(6)
    assert sim.run_trials(_point(sim, learner="erm", event="traced"), 4, 50, rng).all()
    assert not sim.run_trials(_point(sim, learner="erm", event="framed"), 4, 50, rng).any()


@pytest.mark.parametrize("sim", [BnsThm43(), BnsThm47()])
def test_same_seed_same_numbers(sim):
    p = sim.points("quick")[0]
    a = sim.run_trials(p, sim.curve(p)[1], 64, np.random.default_rng(7))
    b = sim.run_trials(p, sim.curve(p)[1], 64, np.random.default_rng(7))
    assert np.array_equal(a, b)


# --- refusals ------------------------------------------------------------------------

def test_refusals():
    with pytest.raises(ParameterError, match="k must be >= the Boneh-Shaw code length"):
        BnsThm43().check_point({**BnsThm43().points("quick")[0], "k": 100})
    with pytest.raises(ParameterError, match="users"):
        BnsRem44().points("quick", {"users": [2]})
    with pytest.raises(ParameterError, match="delta"):
        BnsRem44().points("quick", {"delta": [0.01]})
    with pytest.raises(ParameterError, match="power of 2|2, 4 or 8"):
        BnsProp411().points("quick", {"users": [3]})
    with pytest.raises(ParameterError, match="alpha must be < 1/4"):
        BnsProp411().check_point({**BnsProp411().points("quick")[0], "alpha": 0.3})
    with pytest.raises(ParameterError, match="k must reach"):
        BnsCor46().points("quick", {"k": [64]})
    with pytest.raises(ParameterError, match="k must reach"):
        BnsCor410().points("quick", {"k": [1000]})


def test_alg2_mirror_mapping_recovers_the_code_with_a_large_budget(monkeypatch):
    """With an enormous budget Algorithm 2 returns each column's true threshold, so its
    pirate word is the exact labelling: the tracer accuses the middle user, and every
    hypothesis is accurate. Checks the mirrored domain and the column order. (No padding:
    the sanitizer rounds to multiples of alpha N / 8, which must stay below one row.)"""
    from privbounds.simulators.bns import fp_thresh as bns_fp_thresh
    from privbounds.simulators.bns.fp_thresh import alg2_word
    monkeypatch.setattr(bns_fp_thresh.bounds, "alg2_budget", lambda *a: (1e3, 0.0, 1e3))
    users = 6
    xi = float(bns.fp_security(users, 1.0))
    d = fingerprint.block_length(users, xi)
    rng = np.random.default_rng(8)
    weights, accurate = alg2_word(users, np.ones(users, bool), 0, users, 0.1, d, 5, 1.0, 1e-7,
                                  (users - 1) * d + 5, 20, rng)
    assert accurate.all()
    assert np.array_equal(weights, np.tile((np.arange(1, users) >= users / 2) * d, (20, 1)))
    assert (fingerprint.trace(weights, d, xi) == middle_user(users)).all()


def test_alg2_learner_is_accurate_with_enough_rows():
    sim, rng = BnsThm43(), np.random.default_rng(9)
    p = _point(sim, users=4, learner="alg2-tree-advanced", event="accurate")
    assert sim.run_trials(p, 1 << 16, 100, rng).mean() > 0.95
    assert sim.run_trials(p, 16, 100, rng).mean() == 0


def test_tardos_completeness_is_weaker_than_xi_below_four_users():
    for n in (2, 3):
        xi = float(bns.fp_security(n, 1.0))
        assert bns.tardos_completeness(n, xi) == pytest.approx((xi / n) ** (n / 4)) and (xi / n) ** (n / 4) > xi
    for n in (4, 8):
        assert bns.tardos_completeness(n, 0.01) == 0.01


@pytest.mark.parametrize("users", [4, 5, 8])
def test_accurate_words_are_feasible_on_both_end_neighbours(users):
    """Rounding over the coalition's points: while alpha N < (n - 1)/2 every accurate
    threshold copies a marked column's bit (type 1 on D_-1 is all 0, type n - 1 on D_-n
    all 1). Rounding over all n points would not (the absent user's point is free)."""
    alpha = 0.1
    rows = int(np.ceil((users - 1) / (2 * alpha))) - 1
    for absent, m, marked in ((1, 1, 0), (users, users - 1, 1)):
        members = np.ones(users, bool)
        members[absent - 1] = False
        probs, cat = column_hypotheses(users, members, rows - users + 1, rows, alpha, "erm", None)
        accurate = cat[m] >= 2
        assert accurate.any() and np.all(cat[m][accurate] % 2 == marked)


@pytest.mark.parametrize("users", [3, 5, 7, 8])
def test_erm_is_accused_at_the_middle_user_for_odd_and_even_n(users):
    sim, rng = BnsThm43(), np.random.default_rng(10)
    p = sim.points("quick", {"users": [users], "learner": ["erm"], "event": ["accused-middle"]})[0]
    assert sim.run_trials(p, users, 50, rng).all()
    assert 2 <= middle_user(users) <= users - 1


def test_overrides_reach_every_point():
    for sim in (BnsThm43(), BnsRem44(), BnsCor46(), BnsThm47(), BnsRem48(), BnsCor410(), BnsProp411()):
        pts = sim.points("quick", {"epsilon": [0.5], "delta": [1e-8]})
        assert pts and all(p["epsilon"] == 0.5 and p["delta"] == 1e-8 for p in pts), sim.theorem_id
    with pytest.raises(ParameterError, match="users cannot be set"):
        BnsCor46().points("quick", {"users": [4]})


# --- audit instances (engine/audit.py): the declared budget holds, a doubled one is caught ---

def _audit(sim, name, seed):
    """eps_hat of the simulator's audit ``name`` at its declared trials, as declared and
    with the budget doubled."""
    from privbounds.simulators.engine.audit import AUDIT_CONF, epsilon_lower_bound
    case = next(c for c in sim.audits() if c.name == name)
    e = {}
    for budget in (1.0, 2.0):
        a, b = case.run(budget, case.trials, np.random.default_rng(seed + int(budget)))
        e[budget] = epsilon_lower_bound(a, case.trials, b, case.trials, case.delta, AUDIT_CONF)
    return case, e


def test_thresh_column_events_powered_and_within_the_declared_budget():
    case, e = _audit(BnsThm43(), "column-advanced", 100)
    assert e[1.0] <= case.epsilon < e[2.0]


def test_alg2_tree_sanitizer_events_powered_and_within_the_declared_budget():
    case, e = _audit(BnsThm43(), "alg2-sanitizer", 102)
    assert e[1.0] <= case.epsilon < e[2.0]


def test_point_column_events_powered_and_within_the_declared_budget():
    case, e = _audit(BnsThm47(), "column-advanced", 104)
    assert e[1.0] <= case.epsilon < e[2.0]


def test_fp_audits_are_shared_and_parity_says_why_it_has_none():
    names = {type(s).__name__: [c.name for c in s.audits()] for s in (BnsRem44(), BnsCor46(), BnsRem48(), BnsCor410())}
    assert all(v == ["column-advanced"] for v in names.values())
    assert BnsProp411().audits() == [] and BnsProp411().unaudited
