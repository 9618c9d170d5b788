"""Walsh-Hadamard error counts and the pure-DP direct sum over PAR_d (Bun-Nissim-Stemmer
Example 3.5): exact errors against brute force, a privacy audit with a planted bug, and
accuracy where the theorem promises it (and the packing bound where it forbids it)."""

import numpy as np
import pytest

from privbounds.bounds.bns import n_parity_direct_sum, parity_packing_lower_bound
from privbounds.simulators.bns.ex3_5 import BnsEx35, expmech_parities
from privbounds.simulators.bns.walsh import parity_errors, wht
from privbounds.simulators.engine.audit import epsilon_lower_bound
from privbounds.simulators.engine.stats import clopper_pearson
from privbounds.simulators.shared.concepts import make_class

CONF = 0.999


def test_wht_is_its_own_inverse_up_to_size():
    v = np.random.default_rng(60).normal(size=(3, 64))
    np.testing.assert_allclose(wht(wht(v)) / 64, v, atol=1e-9)


def test_parity_errors_match_brute_force_on_noisy_labels():
    rng = np.random.default_rng(61)
    d, n = 5, 70
    cls = make_class("par", d)
    x = rng.integers(0, 32, size=n)
    y = rng.random(n) < 0.4                      # arbitrary (agnostic) labels
    s = np.zeros(32)
    np.add.at(s, x, np.where(y, -1.0, 1.0))
    brute = np.array([(cls.evaluate(a, x) != y).sum() for a in range(32)])
    np.testing.assert_array_equal(parity_errors(s, n), brute)


@pytest.mark.parametrize("split,bug", [(True, False), (False, True)])
def test_direct_sum_parities_audit(split, bug):
    # d = 2, k = 2; D' replaces one row (x and both labels). Instance and event found by
    # searching small databases for the largest exact privacy loss of the buggy learner
    # (exponential_mechanism_probs): log-ratio 1.48 for the event "column 0 outputs parity
    # 0 and column 1 parity 1" without the budget split, at most eps with it.
    eps, k, M = 1.0, 2, 400_000
    x_d = np.array([2, 2, 3, 2, 3, 2])
    y_d = np.array([[1, 1], [0, 0], [0, 1], [1, 1], [0, 1], [1, 1]], bool)
    x_d2, y_d2 = x_d.copy(), y_d.copy()
    x_d2[1], y_d2[1] = 1, [1, 0]

    def signed(x, y):
        s = np.zeros((k, 4))
        for j in range(k):
            np.add.at(s[j], x, np.where(y[:, j], -1.0, 1.0))
        return np.broadcast_to(s, (M, k, 4))
    rng = np.random.default_rng(62)
    eps0 = eps / k if split else eps
    a = expmech_parities(signed(x_d, y_d), len(x_d), eps0, rng)
    b = expmech_parities(signed(x_d2, y_d2), len(x_d), eps0, rng)
    ev = lambda h: (h[:, 0] == 0) & (h[:, 1] == 1)
    e = epsilon_lower_bound(int(ev(a).sum()), M, int(ev(b).sum()), M, 0.0, CONF)
    assert (e > eps) == bug


def test_direct_sum_parities_accurate_at_the_bound():
    p = {"d": 8, "k": 16, "epsilon": 1.0, "alpha": 0.1, "beta": 0.1}
    n = int(np.ceil(n_parity_direct_sum(16, 8, 1.0, 0.1, 0.1)))
    ok = BnsEx35().run_trials(p, n, 200, np.random.default_rng(63))
    lo, _ = clopper_pearson(int(ok.sum()), ok.size, CONF)
    assert lo >= 0.9


def test_direct_sum_parities_fails_below_the_packing_bound():
    # Thm 5.4: below (k d ln 2 + ln(1 - beta))/eps no pure learner reaches 1 - beta
    p = {"d": 8, "k": 16, "epsilon": 1.0, "alpha": 0.1, "beta": 0.1}
    n = int(parity_packing_lower_bound(16, 8, 1.0, 0.1))
    ok = BnsEx35().run_trials(p, n, 400, np.random.default_rng(64))
    _, hi = clopper_pearson(int(ok.sum()), ok.size, CONF)
    assert hi < 0.9


@pytest.mark.parametrize("sim", ["ex3_5", "thm5_4"])
def test_parity_columns_events_audit_is_powered_and_within_the_declared_budget(sim):
    from privbounds.simulators.bns.packing import BnsThm54
    from privbounds.simulators.engine.audit import AUDIT_CONF
    case = next(c for c in (BnsEx35() if sim == "ex3_5" else BnsThm54()).audits() if c.name == "direct-sum")
    e = {}
    for budget in (1.0, 2.0):
        a, b = case.run(budget, case.trials, np.random.default_rng(65 + int(budget)))
        e[budget] = epsilon_lower_bound(a, case.trials, b, case.trials, case.delta, AUDIT_CONF)
    assert e[1.0] <= case.epsilon < e[2.0]


def test_parity_columns_events_match_the_exact_distribution():
    # one column's probability of "labels x0 with 1" against exponential_mechanism_probs
    from privbounds.simulators.bns.ex3_5 import parity_columns_events
    from privbounds.simulators.shared.mechanisms import exponential_mechanism_probs
    M = 200_000
    a, b = parity_columns_events(2.0, M, np.random.default_rng(66), 1.0, 2, 1, 3, 4)
    for hits, relabelled in ((a, 0), (b, 1)):
        s = np.zeros(4)
        s[3] = 4 - 2 * relabelled
        p = exponential_mechanism_probs(-parity_errors(s, 4), 2.0)[[1, 2]].sum()
        lo, hi = clopper_pearson(int(hits.sum()), M, CONF)
        assert lo <= p <= hi
