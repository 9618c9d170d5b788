"""Common checks over every registered simulator (in the manner of scikit-learn's
``parametrize_with_checks``): the interface contract the engine relies on."""

import json

import numpy as np
import pytest

from privbounds.claims import Ceiling
from privbounds.registry import theorems
from privbounds.simulators.engine.simulator import FIDELITIES, point_key

RUNNABLE = [t for t in theorems() if t.runnable]


@pytest.mark.parametrize("thm", RUNNABLE, ids=lambda t: t.id)
def test_run_trials_returns_one_boolean_per_trial_and_is_deterministic(thm):
    sim = thm.simulator
    p = sim.points("smoke")[0]
    n = sim.curve(p)[0] if sim.curve(p) else sim.n_range(p)[0]
    out = sim.run_trials(p, n, 5, np.random.default_rng(1))
    assert isinstance(out, np.ndarray) and out.shape == (5,) and out.dtype == bool
    again = sim.run_trials(p, n, 5, np.random.default_rng(1))
    np.testing.assert_array_equal(out, again)


@pytest.mark.parametrize("thm", RUNNABLE, ids=lambda t: t.id)
@pytest.mark.parametrize("fidelity", FIDELITIES)
def test_grid_points_are_unique_valid_canonical_and_private(thm, fidelity):
    sim = thm.simulator
    pts = sim.points(fidelity)
    assert pts, "no grid points"
    keys = [point_key(p) for p in pts]
    assert len(set(keys)) == len(keys), "duplicate grid points"
    for p in pts:
        assert sim.canonical(p) == p and point_key(sim.canonical(p)) == point_key(p)
        json.dumps(p)  # a point must be JSON (it keys seeds and the cache)
        lo, hi = sim.n_range(p)
        assert 1 <= lo <= hi
        priv = sim.privacy(p)
        assert set(priv) == {"epsilon", "delta", "accounting"} and priv["accounting"]
        if priv["epsilon"] is not None:
            assert priv["epsilon"] > 0 and 0 <= priv["delta"] < 1


@pytest.mark.parametrize("thm", RUNNABLE, ids=lambda t: t.id)
@pytest.mark.parametrize("fidelity", FIDELITIES)
def test_every_claim_selects_at_least_one_point(thm, fidelity):
    sim = thm.simulator
    pts = sim.points(fidelity)
    for c in thm.claims:
        if isinstance(c, Ceiling):  # judged on curve rows: the point with its n
            rows = [{**p, "n": n} for p in pts if sim.curve(p) for n in sim.curve(p)[:1]]
            assert any(c.select(r) for r in rows), f"{c.id} selects no curve row at {fidelity}"
        else:
            assert any(c.select(p) for p in pts if sim.curve(p) is None), \
                f"{c.id} selects no searched point at {fidelity}"
