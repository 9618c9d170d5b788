"""Shared parameters of the experiments for Bassily et al., "Private Query Release Assisted
by Public Data" (ICML 2020): the parameter specs, the family of distributions each
worst-case claim runs over, the fidelity levels of the release experiments, and
``PublicSampleSimulator``, the entries whose searched size is a public sample alone.

Privacy defaults: eps = 1 and delta = 1e-10, below 1/n for every n the searches reach
(n <= 2^30): the paper's algorithms are (eps, delta)-DP for delta < 1/n only in the
meaningful sense, and a delta at or above 1/n is refused as bad input.
"""

from __future__ import annotations

import numpy as np

from privbounds.params import ALPHA, APPROX_DELTA, BETA, EPS_MIN, Interval, Options, ParameterError, named
from privbounds.simulators.engine.simulator import DEFAULT_FIDELITY, Fidelity, Simulator
from privbounds.simulators.pap.query_classes import DISTRIBUTIONS, line_distribution, sample_points

STUMP_DISTRIBUTIONS = ("zero", "random", "skewed")  # mu = 0; mu ~ U[-1, 1]; |mu| = 0.8, random signs
N_MAX = 1 << 30
M_MAX = 1 << 17  # public sample sizes: 10x the largest the grids use (12,566), arrays of trials x m
DELTA = 1e-10
EPS_PMW = Interval(EPS_MIN, 1, "both")  # PMW's accounting assumes eps <= 1

SPECS = named({
    "alpha": ALPHA, "beta": BETA, "epsilon": EPS_PMW, "delta": APPROX_DELTA,
    # T: the largest domain the grids use (2^16); at 2^16 four trials of PMW already take a minute
    "T": Interval(2, 1 << 16, "both", integer=True),
    "p": Interval(1, 1000, "both", integer=True),  # the bounds hold 2^p as a double
    "m": Interval(0, M_MAX, "both", integer=True),
    "radius": Interval(0, 1, "neither"),
    "dist": Options(DISTRIBUTIONS + STUMP_DISTRIBUTIONS),
})

# Release experiments spend most of their time in PMW rounds: fewer trials per n than the
# default, fine steps only at full fidelity. Quick runs its 200 trials as two blocks, so
# that an n whose first block already decides it skips the second (the engine's look,
# search.py): two blocks of 100 took 0.49-1.07x the time of one of 200 (pap.lem2_7,
# pap.thm3_1, pap.base_priv at a middle point), and a quarter to a third of their quick
# searches' work is at n far enough from the crossing for 100 trials to decide.
RELEASE_FIDELITY = {
    "smoke": Fidelity(trials=40, block=40, steps=1, audit=0.25),
    "quick": Fidelity(trials=200, block=100, steps=4, audit=1.0),
    "full": Fidelity(trials=500, block=250, steps=4, audit=2.0),
}
CHEAP_FIDELITY = DEFAULT_FIDELITY


def search_start(bound: float, shift: int = 9) -> int:
    """Where an n_hat search starts: 2^shift below an explicit bound of the point (at
    least 16). Far below the crossing every comparison of PMW is a "top" and a run costs up
    to one round per query, so the search does not start at n = 1. A search that passes
    at its start halves n until it sees a failure (the engine's descent), which costs
    rounds, so a start set too high shows in the results as n's below it (and the tests
    check that no quick-fidelity point starts passing)."""
    return max(16, int(bound) >> shift)


def specs(*names) -> dict:
    return {k: SPECS[k] for k in names}


def line_probs(point: dict, trials: int, rng: np.random.Generator) -> np.ndarray:
    """The point's distribution on [T] for each trial (Dirichlet: a fresh draw per trial)."""
    if point["dist"] not in DISTRIBUTIONS:
        raise ParameterError(f"dist must be one of {', '.join(DISTRIBUTIONS)} for a class on the line, "
                             f"got {point['dist']!r}")
    return line_distribution(point["dist"], point["T"], rng, trials)


def stump_means(point: dict, trials: int, rng: np.random.Generator) -> np.ndarray:
    """(trials, p) coordinate means of the point's product distribution on {+-1}^p."""
    p, name = point["p"], point["dist"]
    if name == "zero":
        return np.zeros((trials, p))
    if name == "random":
        return rng.uniform(-1.0, 1.0, (trials, p))
    if name == "skewed":
        return 0.8 * rng.choice((-1.0, 1.0), (trials, p))
    raise ParameterError(f"dist must be one of {', '.join(STUMP_DISTRIBUTIONS)} for stumps, got {name!r}")


def check_dist(point: dict) -> None:
    line = "T" in point
    allowed = DISTRIBUTIONS if line else STUMP_DISTRIBUTIONS
    if point["dist"] not in allowed:
        raise ParameterError(f"dist must be one of {', '.join(allowed)} for "
                             f"{'a class on the line' if line else 'stumps'}, got {point['dist']!r}")


class PublicSampleSimulator(Simulator):
    """An entry whose searched size is the public sample alone (the public-only baseline,
    pap.base_pub; the cover of Lemma 3.3, pap.lem3_3): no private row, no privacy spent.
    A trial draws a distribution of the point's family, then m public points from it, and
    succeeds when ``public_error`` is at most the point's ``tolerance`` parameter."""

    tolerance = "alpha"

    def public_error(self, point: dict, public: np.ndarray, probs: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def privacy(self, point):
        return {"epsilon": None, "delta": None, "accounting": "public data only: no privacy spent"}

    def n_range(self, point):
        return 2, 1 << 16

    def run_trials(self, point, n, trials, rng):
        probs = line_probs(point, trials, rng)
        return self.public_error(point, sample_points(probs, n, rng), probs) <= point[self.tolerance]
