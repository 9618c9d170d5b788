"""Algorithm 2 (Bun-Nissim-Stemmer Lemma 3.7) over the point sanitizer: privacy audit on
neighbouring samples (with a planted bug it must catch), accuracy at the explicit bound,
and the hypothesis set it builds from the sanitized support."""

import numpy as np
import pytest

from privbounds.bounds.bns import alg2_budget, n_alg2_points
from privbounds.simulators.bns.cor3_9 import BnsCor39, BnsThm223
from privbounds.simulators.bns.sanitize_learn import alg2_points
from privbounds.simulators.engine.audit import epsilon_lower_bound
from privbounds.simulators.engine.stats import clopper_pearson

CONF = 0.999
M = 200_000


@pytest.mark.parametrize("factor,bug", [(1.0, False), (2.0, True)])
def test_alg2_audit_on_a_label_change(factor, bug):
    # three points with 200 rows each (all survive the sanitizer); D' flips one label at
    # point 5, so only the error counts of column 0 move, by one. The sanitizer sees the
    # same unlabelled rows, so the exponential mechanism's eps0 is the whole loss.
    eps0 = 0.5
    support = np.array([[5, 9, 2]])
    counts = np.array([[200, 200, 200]])
    pos_d = np.array([[[100, 100, 100]]])
    pos_d2 = np.array([[[101, 100, 100]]])
    rng = np.random.default_rng(50)
    out = []
    for pos in (pos_d, pos_d2):
        h = alg2_points(np.repeat(support, M, 0), np.repeat(counts, M, 0), np.repeat(pos, M, 0), 600,
                        1.0, 1e-6, eps0 * factor, rng)[:, 0]
        out.append(h)
    e = max(epsilon_lower_bound(int(np.sum(out[0] == v)), M, int(np.sum(out[1] == v)), M, 0.0, CONF)
            for v in (5, 9, 2))
    assert (e > eps0) == bug


def test_alg2_without_survivors_answers_zero_on_u():
    # 3 rows: every count is below Alg 1's threshold, U is empty, the only candidate is
    # the smallest point outside U (0), which acts as "0 on all of U"
    support = np.array([[4, 7, 1]])
    h = alg2_points(support, np.array([[1, 1, 1]]), np.ones((1, 2, 3), int), 3, 1.0, 1e-6, 1.0,
                    np.random.default_rng(51))
    assert h.tolist() == [[0, 0]]


@pytest.mark.parametrize("rule", ["basic", "advanced"])
def test_alg2_accurate_at_its_bound(rule):
    p = {"d": 10, "k": 16, "rule": rule, "alpha": 0.1, "epsilon": 1.0, "delta": 1e-8, "beta": 0.1}
    n = int(np.ceil(n_alg2_points(p["k"], rule, p["alpha"], p["epsilon"], p["delta"], p["beta"])))
    ok = BnsCor39().run_trials(p, n, 400, np.random.default_rng(52))
    lo, _ = clopper_pearson(int(ok.sum()), ok.size, CONF)
    assert lo >= 1 - p["beta"]


def test_alg2_fails_with_too_few_rows():
    p = {"d": 10, "k": 16, "rule": "basic", "alpha": 0.1, "epsilon": 1.0, "delta": 1e-8, "beta": 0.1}
    assert BnsCor39().run_trials(p, 500, 400, np.random.default_rng(53)).mean() < 0.05


def test_alg2_budget_spends_exactly_epsilon():
    from privbounds.bounds.tools import advanced_composition_epsilon
    e_san, d_san, eps0 = alg2_budget(1.0, 64, "basic", 1e-8)
    assert e_san + 64 * eps0 == pytest.approx(1.0) and d_san == 1e-8
    e_san, d_san, eps0 = alg2_budget(1.0, 64, "advanced", 1e-8)
    assert e_san + advanced_composition_epsilon(eps0, 64, 0.5e-8) == pytest.approx(1.0)
    assert d_san == 0.5e-8


def test_thm2_23_refuses_delta_above_one_over_n():
    from privbounds.params import ParameterError
    with pytest.raises(ParameterError, match="delta"):
        BnsThm223().points("quick", {"delta": [1e-3]})


# --- the simulators' audit instances (engine/audit.py), as the engine runs them ------------

@pytest.mark.parametrize("sim,name", [(BnsCor39, "alg2-basic"), (BnsThm223, "alg2-basic"),
                                      (BnsCor39, "column-advanced")])
def test_alg2_points_events_are_powered(sim, name):
    # as declared eps_hat <= eps; with the budget doubled eps_hat > eps, at the case's trials
    from privbounds.simulators.engine.audit import AUDIT_CONF, BUDGETS
    case = next(c for c in sim().audits() if c.name == name)
    found = []
    for i, budget in enumerate(BUDGETS):
        a, b = case.run(budget, case.trials, np.random.default_rng(54 + i))
        found.append(epsilon_lower_bound(a, case.trials, b, case.trials, case.delta, AUDIT_CONF))
    assert found[0] <= case.epsilon < found[1]
