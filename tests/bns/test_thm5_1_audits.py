"""Privacy audits of Theorem 5.1's learners (Bun-Nissim-Stemmer, packing lower bound):
each instance of ``BnsThm51.audits`` at its declared trials stays within its declared
epsilon and is powered (a doubled budget is caught), and the planted bug "nosplit"
is refuted by its audit. Joint confidence 0.999 per eps_hat (engine/audit.py); fixed
seeds."""

from __future__ import annotations

import numpy as np
import pytest

from privbounds.simulators.bns.thm5_1 import BnsThm51
from privbounds.simulators.engine.audit import AUDIT_CONF, epsilon_lower_bound


def _audit(name, seed, budgets=(1.0, 2.0)):
    case = next(c for c in BnsThm51().audits() if c.name == name)
    e = {}
    for budget in budgets:
        a, b = case.run(budget, case.trials, np.random.default_rng(seed + int(budget)))
        e[budget] = epsilon_lower_bound(a, case.trials, b, case.trials, case.delta, AUDIT_CONF)
    return case, e


@pytest.mark.parametrize("name, seed", [("directsum-point", 110), ("directsum-thresh", 112),
                                        ("hash-directsum", 114)])
def test_direct_sum_audits_powered_and_within_the_declared_budget(name, seed):
    case, e = _audit(name, seed)
    assert e[1.0] <= case.epsilon < e[2.0]


def test_alg2_label_events_powered_and_within_the_declared_budget():
    case, e = _audit("alg2-labels", 116)
    assert case.epsilon == 0.5 and e[1.0] <= case.epsilon < e[2.0]


def test_alg2_tree_sanitizer_events_powered_and_within_the_declared_budget():
    case, e = _audit("alg2-sanitizer", 118)
    assert e[1.0] <= case.epsilon < e[2.0]


def test_planted_bug_is_refuted_by_its_audit():
    """"nosplit" (eps per column instead of eps / k) on the instance of directsum-point:
    declared eps = 1, it leaks about 2 eps, and the audit says so."""
    import dataclasses

    from privbounds.simulators.bns.thm5_1 import column_epsilon

    case = next(c for c in BnsThm51().audits() if c.name == "directsum-point")
    bug = dataclasses.replace(case, spec={**case.spec, "eps0": column_epsilon("nosplit", 1.0, 2)})
    a, b = bug.run(1.0, bug.trials, np.random.default_rng(120))
    assert epsilon_lower_bound(a, bug.trials, b, bug.trials, bug.delta, AUDIT_CONF) > bug.epsilon

