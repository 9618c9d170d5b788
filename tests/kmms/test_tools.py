"""Section 2 of Kaplan, Mansour, Matias, Stemmer (Observation 2.2) and the search starts
of the set-cover experiments."""

import itertools
import math

import numpy as np
import pytest

from privbounds.bounds.kmms import vc_k_fold
from privbounds.simulators.kmms import setcover_common as common


def _vc(table):
    """VC dimension of a class given as a (hypotheses, points) 0/1 table, by brute force."""
    pts = table.shape[1]
    best = 0
    for size in range(1, pts + 1):
        if not any(len({tuple(r) for r in table[:, list(s)]}) == 2 ** size
                   for s in itertools.combinations(range(pts), size)):
            break
        best = size
    return best


def _conj_table(d, k, mode):
    pts = np.array(list(itertools.product((0, 1), repeat=d)), dtype=bool)
    lits = np.concatenate([pts, ~pts], axis=1).T  # (2d literals, points)
    rows = set()
    for j in range(0, k + 1):
        for combo in itertools.combinations(range(2 * d), j):
            if mode == "and":
                v = np.logical_and.reduce(lits[list(combo)]) if combo else np.ones(len(pts), bool)
            else:
                v = np.logical_or.reduce(lits[list(combo)]) if combo else np.zeros(len(pts), bool)
            rows.add(tuple(v.tolist()))
    return np.array(sorted(rows), dtype=np.uint8)


@pytest.mark.parametrize("d, k", [(3, 1), (3, 2), (4, 2), (4, 3)])
@pytest.mark.parametrize("mode", ["and", "or"])
def test_vc_of_k_fold_literals_is_below_observation_2_2(d, k, mode):
    base = _vc(_conj_table(d, 1, mode))
    vc = _vc(_conj_table(d, k, mode))
    assert base >= 1 and vc <= vc_k_fold(base, k)


def test_no_quick_search_starts_at_or_above_its_bound():
    """A search must start below the explicit bound (and the non-private ones at 2)."""
    from privbounds.registry import get

    for tid in ("kmms.thm3_5", "kmms.ex3_3", "kmms.thm3_2", "kmms.claim3_4"):
        sim = get(tid).simulator
        for p in sim.points("quick"):
            lo, hi = sim.n_range(p)
            if p["learner"] not in ("nonprivate", "argmax"):
                assert lo < common.bound(p) / 64 and hi == common.N_MAX
            else:
                assert lo == 2
    assert math.isfinite(common.bound({"learner": "argmax", "alpha": 0.2, "beta": 0.1, "epsilon": 0.5,
                                       "delta": 1e-8, "k": 2, "d": 8}))
