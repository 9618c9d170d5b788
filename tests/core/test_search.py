"""The n_hat search (engine/search.py) never reports an interval its own trials did not
bracket: a start that already succeeds sends it down (below the grid's start, to the
learner's smallest n) until a failure is seen, or says that the floor was reached."""

from pathlib import Path

import numpy as np
import pytest

from privbounds.reports.check import recompute_n_hat
from privbounds.simulators.engine.runner import run_points
from privbounds.simulators.engine.search import lattice_below
from privbounds.simulators.engine.simulator import Fidelity, Simulator
from privbounds.simulators.engine.stats import clopper_pearson, geometric_grid

FID = Fidelity(trials=40, block=20, steps=4)


class Step(Simulator):
    """Success is deterministic in n: every trial succeeds iff n >= n_star. ``n_range``
    starts at ``start``; ``floor`` is the smallest n the learner accepts (a smaller one
    raises, so a search that goes below it fails the theorem)."""

    theorem_id = "test.step"
    fidelities = {"smoke": FID}

    def __init__(self, n_star, start=1024, n_max=1 << 16, floor=1):
        self.n_star, self.start, self.n_max, self.floor = n_star, start, n_max, floor

    def grid(self, fidelity, overrides):
        return [{"beta": 0.2}]

    def n_range(self, point):
        return self.start, self.n_max

    def n_floor(self, point):
        return self.floor

    def privacy(self, point):
        return {"epsilon": None, "delta": None, "accounting": "synthetic step"}

    def run_trials(self, point, n, trials, rng):
        if n < self.floor:
            raise ValueError(f"n = {n} is below the learner's smallest n {self.floor}")
        return np.full(trials, n >= self.n_star) & (rng.random(trials) < 2)  # draws, like a learner


class Ramp(Step):
    """p(n) rises from 0 at n = 10 to 1 at 110, then sits at 1 - beta = 0.8 from the grid's start 1024 to 2048, and is 1 above."""

    def run_trials(self, point, n, trials, rng):
        p = np.clip((n - 10) / 100, 0, 1) if n < 1024 else (0.8 if n < 2048 else 1.0)
        return rng.random(trials) < p


# The scenarios, all run in one call of the engine (each call hashes the code of this module).
SCENARIOS = {
    "below-37": Step(37), "below-300": Step(300), "always": Step(1), "floor6": Step(1, start=200, floor=6),
    "floor6-just-above": Step(7, start=200, floor=6), "start-fails": Step(300, start=16, n_max=4096),
    "censored": Step(1 << 20, start=64, n_max=4096), "ambiguous": Ramp(0),
    "floor-above-start": Step(1, start=4, floor=8),
}


def run(sims: dict, cache: Path, **kw) -> dict:
    """name -> (the point's record, {n: (successes, trials)}) of one-point searches, or
    the error of a theorem that failed."""
    res = run_points({name: (sim, sim.grid("smoke", {})) for name, sim in sims.items()},
                     {name: FID for name in sims}, 0, cache, progress=False, **{"backend": "sequential", **kw})
    out = {}
    for name, r in res.items():
        if "error" in r:
            out[name] = r["error"]
            continue
        (point,) = r["points"]
        out[name] = point, {row["n"]: (row["successes"], row["trials"]) for row in r["rows"]}
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    return run(SCENARIOS, tmp_path_factory.mktemp("search") / "cache")


def lattice(sim) -> np.ndarray:
    """Every n the search may visit: the grid and its continuation below the start."""
    return np.union1d(lattice_below(sim.start, sim.floor, FID.steps),
                      geometric_grid(sim.start, sim.n_max, FID.steps))


def test_lattice_continues_the_grid_below_its_start_down_to_the_floor():
    below = lattice_below(1000, 3, 4)
    assert below.min() == 3 and below.max() < 1000 and np.all(np.diff(below) > 0)
    # the same ratio 2^(1/4) as the grid above: a halving of the start is a member
    assert {500, 250, 125} <= set(below.tolist())
    assert np.all(below[1:] / below[:-1] <= 2 ** 0.25 * 1.2)
    assert lattice_below(8, 8, 4).size == 0


@pytest.mark.parametrize("name", ["below-37", "below-300"])
def test_a_start_that_succeeds_sends_the_search_down_until_it_fails(runs, name):
    sim, (point, rows) = SCENARIOS[name], runs[name]
    ns = np.array(sorted(rows))
    fails = [n for n in ns if rows[n][0] == 0]
    assert ns.min() < sim.start and fails, "no failing n was tried"
    assert point["n_low"] <= sim.n_star <= point["n_high"] and point["n_hat"] == point["n_high"]
    assert not point["floor_reached"] and point["n_floor"] == 1
    # refined to the lattice's resolution: the interval's ends are neighbours on it
    grid = lattice(sim)
    i = np.searchsorted(grid, point["n_high"])
    assert grid[i] == point["n_high"] and grid[i - 1] == point["n_low"] - 1 == max(fails)
    # nothing was spent far below the crossing: the descent stopped at its first failure
    assert ns.min() == max(fails) and ns.min() * 2 >= sim.n_star


def test_a_learner_that_always_succeeds_reaches_the_floor_and_says_so(runs):
    point, rows = runs["always"]
    assert point["floor_reached"] and min(rows) == 1 == point["n_floor"]
    assert (point["n_hat"], point["n_low"], point["n_high"]) == (1, 1, 1)
    assert all(s == t for s, t in rows.values())


def test_the_descent_stops_at_the_simulators_smallest_n(runs):
    """A learner that cannot run below 6 rows: the search tries 6, not 1 (its run_trials
    raises below 6), and the record names 6 as the floor it reached."""
    point, rows = runs["floor6"]
    assert min(rows) == 6 and point["floor_reached"] and point["n_floor"] == 6
    assert (point["n_low"], point["n_high"]) == (6, 6)
    # a crossing just above the floor: the failure at the floor closes the bracket
    point, rows = runs["floor6-just-above"]
    assert not point["floor_reached"] and rows[6][0] == 0 and point["n_low"] == 7 <= point["n_high"]


def test_a_floor_above_the_start_ends_the_theorem_with_a_clear_error(runs):
    assert "n_floor 8 must lie in [1, 4]" in runs["floor-above-start"]


def test_a_start_that_fails_keeps_the_bracket_then_refine_path(runs):
    """The search without a descent: doublings from the start up to the first clear
    success, then every grid point between the last failure and it; nothing below the
    start."""
    sim, (point, rows) = SCENARIOS["start-fails"], runs["start-fails"]
    grid = geometric_grid(sim.start, sim.n_max, FID.steps)
    doublings = grid[::FID.steps]
    hi_bracket = doublings[np.argmax(doublings >= sim.n_star)]
    last_fail = doublings[doublings < sim.n_star].max()
    want = set(doublings[doublings <= hi_bracket]) | set(grid[(grid > last_fail) & (grid < hi_bracket)])
    assert set(rows) == want and min(rows) == sim.start
    assert point["n_high"] == grid[np.argmax(grid >= sim.n_star)] and not point["floor_reached"]


def test_a_censored_search_does_not_descend(runs):
    point, rows = runs["censored"]
    assert min(rows) == SCENARIOS["censored"].start
    assert point["n_high"] is None and point["censored"] and not point["floor_reached"]


def test_the_descent_is_the_same_for_any_backend(runs, tmp_path):
    names = ["below-37", "ambiguous", "floor6"]
    other = run({k: SCENARIOS[k] for k in names}, tmp_path, backend="threading", jobs=2)
    assert other == {k: runs[k] for k in names}


def test_the_check_recomputes_a_descended_interval_from_the_counts(runs):
    """reports/check.py's own recomputation (scipy's beta quantiles, not the engine's
    code) agrees with the record, the floor included."""
    for name, sim in SCENARIOS.items():
        if isinstance(runs[name], str):
            continue
        point, rows = runs[name]
        ns = sorted(rows)
        got = recompute_n_hat(ns, [rows[n][0] for n in ns], [rows[n][1] for n in ns],
                              1 - point["point"]["beta"], point["conf"], floor=sim.floor)
        assert got == (point["n_hat"], point["n_low"], point["n_high"]), name


def test_an_ambiguous_start_is_not_taken_for_a_bracket(runs):
    """The user's case (pap.thm3_1 stumps): the start's interval straddles 1 - beta
    (neither a failure nor a clear success); the search must still go down."""
    sim, (point, rows) = SCENARIOS["ambiguous"], runs["ambiguous"]
    s, t = rows[sim.start]
    lo, hi = clopper_pearson(s, t, point["conf"])
    assert lo < 0.8 <= hi  # the start is ambiguous at this seed
    ns = np.array(sorted(rows))
    _, up = clopper_pearson([rows[n][0] for n in ns], [rows[n][1] for n in ns], point["conf"])
    assert ns.min() < sim.start and up[0] < 0.8 and point["n_low"] == ns[0] + 1
    assert point["n_low"] <= point["n_hat"] <= point["n_high"] < sim.start


def test_a_figure_marks_a_search_that_succeeded_at_its_floor():
    import matplotlib

    matplotlib.use("Agg")
    from privbounds.figures.common import Band, band, new_figure

    fig, (ax,) = new_figure(1)
    pts = [Band(1, 1, 1, floor_reached=True), Band(40, 33, 48, floor_reached=False)]
    band(ax, [1, 2], pts, "C0", "measured")
    labels = ax.get_legend_handles_labels()[1]
    assert "measured: succeeds already at its smallest n, n = 1" in labels
