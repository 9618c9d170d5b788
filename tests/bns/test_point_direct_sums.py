"""Direct sums over POINT_X (Bun-Nissim-Stemmer Cor 3.4, and Cor 3.3 with the hashing
substitute): the grouped samplers have exactly the distribution of the exponential
mechanism over every hypothesis, so their privacy is the mechanism's (audited, with
planted bugs, in test_privacy.py); and accuracy where the theorems promise it."""

import numpy as np
import pytest
from scipy import stats

from privbounds.bounds.bns import n_direct_sum_agnostic
from privbounds.simulators.bns.cor3_4 import BnsCor33, BnsCor34, BnsThm222, direct_sum_points, hash_learner
from privbounds.simulators.engine.stats import clopper_pearson
from privbounds.simulators.shared.mechanisms import exponential_mechanism_probs

CONF = 0.999


def test_grouped_point_sampler_matches_the_full_mechanism():
    # X = 16, support 3 points: the full mechanism over 16 point concepts, where the 13
    # outside the support all have error P_j, against the grouped sampler
    rng = np.random.default_rng(70)
    counts = np.array([[5, 3, 2]])
    pos = np.array([[[4, 1, 0]]])
    err_support = counts - 2 * pos[:, 0]                      # minus the common P_j
    full = exponential_mechanism_probs(-np.r_[err_support[0], np.zeros(13)], 0.7)
    expected = np.r_[full[:3], full[3:].sum()]
    M = 200_000
    slot = direct_sum_points(np.array([[0, 1, 2]]).repeat(M, 0), counts.repeat(M, 0), pos.repeat(M, 0), 16, 0.7, rng)
    observed = np.bincount(slot.ravel(), minlength=4)
    assert stats.chisquare(observed, expected * M).pvalue > 1e-3


def test_hash_learner_matches_the_full_mechanism_for_a_fixed_hash():
    # every trial draws its own hash; among the trials with the most frequent hash
    # pattern, the grouped sampler's choices must follow the mechanism over all
    # M buckets plus the constant 0 computed from that hash
    n_b, M = 3, 120_000
    counts = np.array([[6, 4, 3]])
    pos = np.array([[[5, 0, 3]]])
    g, choice = hash_learner(counts.repeat(M, 0), pos.repeat(M, 0), n_b, 1.0, np.random.default_rng(71))
    code = g[:, 0] @ np.array([1, n_b, n_b * n_b])
    top = np.bincount(code).argmax()
    rows = code == top
    gh = g[rows][0, 0]
    e = counts[0] - 2.0 * pos[0, 0]
    bucket_err = np.array([e[gh == b].sum() for b in range(n_b)] + [0.0])   # + constant 0
    full = exponential_mechanism_probs(-bucket_err, 1.0)
    occupied = sorted(set(gh.tolist()))
    expected = np.array([full[b] for b in occupied] + [1 - sum(full[b] for b in occupied)])
    ch = choice[rows, 0]
    picked = np.where(ch == 3, -1, gh[np.minimum(ch, 2)])
    observed = [np.sum(picked == b) for b in occupied] + [np.sum(picked == -1)]
    assert stats.chisquare(observed, expected * picked.size).pvalue > 1e-3


def test_point_direct_sum_accurate_at_its_bound():
    p = {"d": 10, "k": 16, "rule": "basic", "alpha": 0.1, "epsilon": 1.0, "delta": 1e-8, "beta": 0.1}
    n = int(np.ceil(n_direct_sum_agnostic(2 ** 10, 16, "basic", 0.1, 1.0, 1e-8, 0.1)))
    ok = BnsCor34().run_trials(p, n, 400, np.random.default_rng(72))
    assert clopper_pearson(int(ok.sum()), ok.size, CONF)[0] >= 0.9
    assert BnsCor34().run_trials(p, 2000, 400, np.random.default_rng(73)).mean() < 0.05


def test_hash_learner_accurate_with_enough_rows_and_not_below_packing():
    p = {"d": 16, "k": 16, "rule": "basic", "alpha": 0.1, "epsilon": 1.0, "delta": 1e-8, "beta": 0.1}
    ok = BnsCor33().run_trials(p, 100_000, 400, np.random.default_rng(74))
    assert clopper_pearson(int(ok.sum()), ok.size, CONF)[0] >= 0.9
    # below Thm 5.1's (k ln 2 + ln(1 - beta))/eps = 11 rows no pure learner can succeed
    assert BnsCor33().run_trials(p, 11, 400, np.random.default_rng(75)).mean() < 0.9


def test_cor3_3_refuses_advanced_accounting():
    from privbounds.params import ParameterError
    with pytest.raises(ParameterError, match="rule"):
        BnsCor33().points("quick", {"rule": ["advanced"]})


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


@pytest.mark.parametrize("sim, name", [(BnsThm222(), "expmech"), (BnsCor34(), "basic"),
                                       (BnsCor34(), "column-advanced")])
def test_point_columns_events_powered_and_within_the_declared_budget(sim, name):
    case, e = _audit(sim, name, 80)
    assert e[1.0] <= case.epsilon < e[2.0]


def test_hash_columns_events_powered_and_within_the_declared_budget():
    case, e = _audit(BnsCor33(), "hash-basic", 82)
    assert e[1.0] <= case.epsilon < e[2.0]
