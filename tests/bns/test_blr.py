"""BLR at toy size (Bun-Nissim-Stemmer Thm 2.18): its score has sensitivity 1 (exact
privacy loss on neighbours <= eps, and a planted doubled score is caught), the candidate
set is complete, and it is accurate at its explicit bound."""

import math

import numpy as np
import pytest

from privbounds.bounds.bns import n_blr_toy
from privbounds.simulators.bns.thm2_18 import SYNTH, BnsThm218, candidate_prefixes
from privbounds.simulators.engine.stats import clopper_pearson
from privbounds.simulators.shared.mechanisms import exponential_mechanism_probs


def test_candidates_are_every_histogram_of_the_synthetic_size():
    cand = candidate_prefixes()
    assert len(cand) == math.comb(SYNTH + 8 - 1, 8 - 1)
    assert np.all(cand[:, 0] == 0) and np.all(cand[:, -1] == 1)
    assert len({tuple(r) for r in cand}) == len(cand)


@pytest.mark.parametrize("scale,bug", [(1.0, False), (2.0, True)])
def test_blr_exact_privacy_on_neighbours(scale, bug):
    # every pair of neighbours (one row moved) of a 12-row database on 8 points
    rng = np.random.default_rng(90)
    cand = candidate_prefixes()
    eps, worst = 1.0, 0.0
    for _ in range(30):
        h = rng.multinomial(12, np.full(8, 1 / 8))
        a, b = rng.choice(np.flatnonzero(h)), rng.integers(8)
        h2 = h.copy()
        h2[a] -= 1
        h2[b] += 1
        probs = []
        for hh in (h, h2):
            truth = np.r_[0, np.cumsum(hh)] / 12
            score = -12 * np.abs(cand - truth).max(axis=1) * scale
            probs.append(exponential_mechanism_probs(score, eps))
        worst = max(worst, float(np.max(np.abs(np.log(probs[0] / probs[1])))))
    assert (worst > eps + 1e-9) == bug
    if not bug:
        assert worst > 0.5  # the bound is approached, so the check has power


def test_blr_accurate_at_its_bound():
    p = {"alpha": 0.2, "epsilon": 1.0, "beta": 0.1}
    n = int(math.ceil(n_blr_toy(0.2, 1.0, 0.1, len(candidate_prefixes()), SYNTH)))
    ok = BnsThm218().run_trials(p, n, 400, np.random.default_rng(91))
    assert clopper_pearson(int(ok.sum()), ok.size, 0.999)[0] >= 0.9
    assert BnsThm218().run_trials(p, 10, 400, np.random.default_rng(92)).mean() < 0.5


# --- the simulators' audit instances (engine/audit.py), as the engine runs them ------------

def run_audit_case(sim, name, seed):
    from privbounds.simulators.engine.audit import AUDIT_CONF, BUDGETS, epsilon_lower_bound
    case = next(c for c in sim.audits() if c.name == name)
    found = []
    for i, budget in enumerate(BUDGETS):
        a, b = case.run(budget, case.trials, np.random.default_rng(seed + i))
        found.append(epsilon_lower_bound(a, case.trials, b, case.trials, case.delta, AUDIT_CONF))
    return case, found


def test_blr_release_is_unchanged_by_computing_equal_rows_once():
    from privbounds.simulators.bns.thm2_18 import blr_release
    from privbounds.simulators.shared.mechanisms import exponential_mechanism
    rng = np.random.default_rng(93)
    hist = rng.multinomial(13, np.full(8, 1 / 8), size=12)
    hist[5] = hist[3]
    truth = np.concatenate([np.zeros((12, 1)), np.cumsum(hist, axis=1)], axis=1) / 13
    direct = -13 * np.abs(candidate_prefixes()[None] - truth[:, None]).max(axis=-1)
    a = exponential_mechanism(direct, 1.0, np.random.default_rng(94))
    assert np.array_equal(a, blr_release(hist, 1.0, np.random.default_rng(94)))


# blr-half (the same events at half the budget, 3.6 s) runs in the slow session
@pytest.mark.parametrize("name", ["blr", pytest.param("blr-half", marks=pytest.mark.slow)])
def test_blr_events_are_powered(name):
    from privbounds.simulators.bns.thm3_1 import BnsThm31
    case, (declared, doubled) = run_audit_case(BnsThm218() if name == "blr" else BnsThm31(), name, 95)
    assert declared <= case.epsilon < doubled


def test_alg2_blr_events_are_powered():
    from privbounds.simulators.bns.thm3_1 import BnsThm31
    case, (declared, doubled) = run_audit_case(BnsThm31(), "column-basic", 97)
    assert declared <= case.epsilon < doubled
