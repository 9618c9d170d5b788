"""Every search can descend to its floor (simulators/engine/search.py): when a search's
first n already succeeds the engine halves n below the grid's start, down to the
simulator's ``n_floor``. So every simulator must run at that floor: two trials at
``n_floor`` of every smoke point of every registered search must return their booleans,
not raise (a learner that cannot run below some n must say so in ``n_floor``)."""

import numpy as np
import pytest

from privbounds.registry import theorems


def _search_points():
    out = []
    for thm in theorems():
        sim = thm.simulator
        if sim is None or getattr(sim, "measure", "success") != "success":
            continue
        seen = set()
        for p in sim.points("smoke"):
            if sim.curve(p) is not None or (sim.delegate(p) or sim) is not sim:
                continue
            floor = sim.n_floor(p)
            key = (type(sim).__name__, floor, tuple(sorted((k, str(v)) for k, v in p.items() if k != "alpha")))
            if key not in seen:
                seen.add(key)
                out.append(pytest.param(sim, p, floor, id=f"{thm.id}-{len(seen)}"))
    return out


@pytest.mark.parametrize("sim, point, floor", _search_points())
def test_every_search_runs_at_its_floor(sim, point, floor):
    lo = sim.n_range(point)[0]
    assert 1 <= floor <= lo
    ok = np.asarray(sim.run_trials(point, floor, 2, np.random.default_rng(0)))
    assert ok.shape == (2,) and ok.dtype == bool
