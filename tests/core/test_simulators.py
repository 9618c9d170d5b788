"""Common checks over every registered simulator (in the manner of scikit-learn's
``parametrize_with_checks``): the interface contract the engine relies on."""

import importlib
import json

import numpy as np
import pytest

from privbounds.claims import Ceiling, MeanBound, PrivacyAudit
from privbounds.registry import theorems
from privbounds.simulators.engine.simulator import FIDELITIES, point_key

RUNNABLE = [t for t in theorems() if t.runnable]


@pytest.mark.parametrize("thm", RUNNABLE, ids=lambda t: t.id)
def test_run_trials_returns_one_value_per_trial_and_is_deterministic(thm):
    """A boolean success per trial, or for a simulator that measures a mean, one finite
    real value per trial (and then fixed sample sizes: no n_hat search)."""
    sim = thm.simulator
    p = sim.points("smoke")[0]
    n = sim.curve(p)[0] if sim.curve(p) else sim.n_range(p)[0]
    out = sim.run_trials(p, n, 5, np.random.default_rng(1))
    assert isinstance(out, np.ndarray) and out.shape == (5,)
    if sim.measure == "mean":
        assert out.dtype.kind in "fiu" and np.all(np.isfinite(out))
        assert all(sim.curve(q) for q in sim.points("smoke")), "a mean needs fixed sample sizes"
    else:
        assert sim.measure == "success" and out.dtype == bool
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
        if isinstance(c, PrivacyAudit):  # judged on its own instance, not on the grid
            continue
        if isinstance(c, (Ceiling, MeanBound)):  # judged on curve rows: the point with its n
            rows = [{**p, "n": n} for p in pts if sim.curve(p) for n in sim.curve(p)[:1]]
            assert any(c.select(r) for r in rows), f"{c.id} selects no curve row at {fidelity}"
        else:
            assert any(c.select(p) for p in pts if sim.curve(p) is None), \
                f"{c.id} selects no searched point at {fidelity}"


@pytest.mark.parametrize("thm", RUNNABLE, ids=lambda t: t.id)
def test_experiment_is_the_engines_column(thm):
    """Result rows carry the engine's own ``experiment`` column ("search" or "curve"), which
    overwrites a point parameter of that name: a simulator may use it only with the same
    meaning, or its rows would merge points that differ only there."""
    sim = thm.simulator
    for f in FIDELITIES:
        for p in sim.points(f):
            if "experiment" in p:
                assert p["experiment"] == ("mean" if sim.measure == "mean" else "curve" if sim.curve(p)
                                           else "search"), \
                    f"{thm.id}: parameter 'experiment'={p['experiment']!r} collides with the rows' column"


@pytest.mark.parametrize("thm", RUNNABLE, ids=lambda t: t.id)
def test_every_private_learner_is_audited_or_says_why_not(thm):
    """A simulator whose points declare an epsilon runs a private learner: it has audit
    instances, or names in ``unaudited`` what has none and why."""
    sim = thm.simulator
    private = [p for f in FIDELITIES for p in sim.points(f) if sim.privacy(p)["epsilon"] is not None]
    cases = sim.audits()
    if private:
        assert cases or sim.unaudited, f"{thm.id} runs a private learner without an audit or a reason"
    names = [c.name for c in cases]
    assert len(names) == len(set(names)), f"{thm.id}: audit names repeat"
    for c in cases:
        assert c.epsilon > 0 and 0 <= c.delta < 1 and c.trials >= 1000
        assert c.learner and c.neighbours and c.event
        # the engine sends the events function to workers by reference
        assert getattr(importlib.import_module(c.events.__module__), c.events.__name__) is c.events
        json.dumps(c.spec)
    for what, why in sim.unaudited.items():
        assert what and len(why) > 40, f"{thm.id}: say why {what!r} has no powered audit"


@pytest.mark.parametrize("thm", [t for t in RUNNABLE if t.simulator.audits()], ids=lambda t: t.id)
def test_audit_events_have_the_declared_shape_and_are_seeded(thm):
    for c in thm.simulator.audits():
        a = c.run(1.0, 64, np.random.default_rng(5))
        b = c.run(1.0, 64, np.random.default_rng(5))
        assert a == b and all(0 <= h <= 64 for h in a)
