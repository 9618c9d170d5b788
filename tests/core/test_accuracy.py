"""Accuracy: every learner succeeds where its theorem says it does, and the packing
ceiling catches a learner that breaks its privacy budget.

Each check runs the registered simulator at the bound's n and requires the lower
Clopper-Pearson end (99%) of the success rate to reach 1 - beta. The bounds are loose
(tightness 0.1-0.4 at quick fidelity), so these have a wide margin, but they fail if a
learner is broken (e.g. scores with the wrong sign, or errors computed wrongly).
"""

import math

import numpy as np
import pytest

from privbounds.bounds import bns
from privbounds.bounds import sivakumar as siv
from privbounds.claims import REFUTED, Ceiling, use
from privbounds.simulators.bns.obs3_2 import BnsObs32
from privbounds.simulators.bns.thm5_1 import BnsThm51
from privbounds.simulators.engine.stats import clopper_pearson
from privbounds.simulators.siv.thm3_3 import SivThm33

TRIALS = 2000


def success_low(sim, point, n, seed=0):
    ok = sim.run_trials(point, int(math.ceil(n)), TRIALS, np.random.default_rng(seed))
    return clopper_pearson(ok.sum(), ok.size, 0.99)[0], ok.mean()


@pytest.mark.parametrize("cls, h", [("thresh", 2 ** 8 + 1), ("point", 2 ** 8)])
@pytest.mark.parametrize("eps", [0.5, 1.0])
def test_expmech_learner_accurate_at_its_bound(cls, h, eps):
    p = {"class": cls, "d": 8, "epsilon": eps, "alpha": 0.25, "beta": 0.25, "learner": "expmech"}
    low, _ = success_low(SivThm33(), p, siv.n_expmech_learner(h, eps))
    assert low >= 0.75


def test_expmech_learner_fails_with_few_samples():
    # the experiment can fail: at n = 4 on 2^12 thresholds the learner is mostly wrong
    p = {"class": "thresh", "d": 12, "epsilon": 1.0, "alpha": 0.25, "beta": 0.25, "learner": "expmech"}
    _, rate = success_low(SivThm33(), p, 4)
    assert rate < 0.2


@pytest.mark.parametrize("cls, bound", [("thresh", siv.n_erm_threshold()),
                                        ("point", siv.n_erm_finite(2 ** 12))])
def test_erm_accurate_at_its_bound(cls, bound):
    p = {"class": cls, "d": 12, "epsilon": 1.0, "alpha": 0.25, "beta": 0.25, "learner": "erm"}
    low, _ = success_low(SivThm33(), p, bound)
    assert low >= 0.75


@pytest.mark.parametrize("rule, k", [("basic", 4), ("advanced", 16)])
def test_direct_sum_accurate_at_its_bound(rule, k):
    p = {"class": "thresh", "d": 8, "k": k, "epsilon": 1.0, "delta": 1e-6, "alpha": 0.25,
         "beta": 0.25, "rule": rule}
    n = bns.n_direct_sum(257, 1.0, k, rule, 1e-6, 0.25, 0.25)
    low, _ = success_low(BnsObs32(), p, n)
    assert low >= 0.75


def test_packing_learner_accurate_at_the_direct_sum_bound():
    p = {"experiment": "search", "d": 4, "k": 8, "epsilon": 1.0, "beta": 0.1, "learner": "directsum-basic"}
    n = bns.n_direct_sum(16, 1.0, 8, "basic", None, 0.25, 0.1)
    low, _ = success_low(BnsThm51(), p, n)
    assert low >= 0.9


def curve_rows(learner, k=8, trials=40_000):
    sim = BnsThm51()
    p = {"experiment": "curve", "d": 1, "k": k, "epsilon": 0.25, "beta": 0.1, "learner": learner}
    rows = []
    for n in sim.curve(p):
        ok = sim.run_trials(p, n, trials, np.random.default_rng(n))
        rows.append({**p, "n": n, "successes": int(ok.sum()), "trials": trials,
                     "p_hat": ok.mean(), "ci_low": 0, "ci_high": 1})
    return rows


def test_ceiling_refutes_a_learner_without_budget_split():
    claim = Ceiling("c", "", lambda p: p["experiment"] == "curve", ("k",),
                    bound=use(bns.packing_success_ceiling))
    assert claim.evaluate([], curve_rows("nosplit"))["verdict"] == REFUTED
    assert claim.evaluate([], curve_rows("directsum-basic"))["verdict"] != REFUTED


def test_fast_threshold_erm_equals_the_histogram_erm():
    from privbounds.simulators.bns.cor2_12 import erm_thresholds_uniform
    from privbounds.simulators.shared.concepts import make_class
    from privbounds.simulators.shared.learners import erm_middle_consistent
    rng = np.random.default_rng(21)
    cls = make_class("thresh", 6)
    for n in (0, 1, 5, 40):
        x = np.sort(rng.integers(0, 64, size=(30, n)), axis=1)
        t = rng.integers(0, 65, size=(30, 3))
        y = x[:, :, None] >= t[:, None, :]
        fast = erm_thresholds_uniform(x, t, 64)
        slow = erm_middle_consistent(cls, *cls._histograms(x, y))
        np.testing.assert_array_equal(fast, slow)
        err = cls.exact_error(fast, t, np.tile(np.arange(64), (30, 1)), np.full((30, 64), 1 / 64))
        np.testing.assert_allclose(err, np.abs(fast - t) / 64)


@pytest.mark.parametrize("k", [1, 64])
def test_nonprivate_k_learner_accurate_at_its_bound(k):
    from privbounds.simulators.bns.cor2_12 import BnsCor212
    p = {"class": "thresh", "d": 10, "k": k, "alpha": 0.25, "beta": 0.25}
    low, _ = success_low(BnsCor212(), p, bns.n_nonprivate_k_learner(1, k))
    assert low >= 0.75
    _, rate = success_low(BnsCor212(), p, 0 if k == 1 else 2)
    assert rate < 0.75  # and it fails with too few rows


@pytest.mark.parametrize("name", ["point", "thresh"])
def test_grouped_erm_equals_the_histogram_erm(name):
    from privbounds.simulators.shared.concepts import make_class
    from privbounds.simulators.shared.learners import erm_first_consistent, erm_first_consistent_grouped
    rng = np.random.default_rng(22)
    cls = make_class(name, 5)
    support = np.stack([rng.choice(32, size=4, replace=False) for _ in range(40)])
    counts = rng.integers(0, 3, size=(40, 4))
    targets = rng.integers(0, cls.size, size=(40, 3))
    labels = cls.evaluate(targets[:, None, :], support[:, :, None])
    fast = erm_first_consistent_grouped(cls, support, counts, labels)
    slow = erm_first_consistent(cls, *cls.histograms_from_counts(support, counts, labels))
    np.testing.assert_array_equal(fast, slow)
