"""Kaplan, Mansour, Matias and Stemmer (ICML 2019), Lemma 4.6: if some f in HALFPLANE_d
has q(f) >= nu, Select Halfplane (density exp(eta q)) outputs f' with q(f') >= nu -
(8/eta) ln(2d/beta) with probability >= 1 - beta.

One trial is one call of Select Halfplane (the exact sampler of simulators/kmms/halfplanes.py)
with the quality of Set Cover Learner's first round, q = min(#h_0(S0) - |S0|/k,
-#h_0(S1)), and nu = max q computed exactly over every region. The recorded event of the
curve row n is "the selection gap max q - q(f') exceeds n": the rows trace the gap's
survival function (at fractions of the lemma's slack, where the ceilings are >= 1), and at
the gaps where the lemma's bound solved for beta (2d exp(-eta n / 8)) or our sharper
64 d^7 exp(-eta n) equals 0.5, 0.2 and 0.1 each is the ceiling of its claim (smaller
levels need more trials than a row gets); ``rows`` (survival, paper, ours) says which
set of rows a point runs. One block shares one sample S, so rows (each
one block at quick fidelity) see different S: the survival function is read per row.

- ``mode=grid`` (domain mode, d <= 32): S is ``examples`` draws from the band distribution
  of a random convex k-gon (kmms.dist_band), as counts on the grid; the trials of one
  block share one S (the lemma holds for every S), so a block is a batch of selections.
- ``mode=sample``: ``points`` distinct points of X_d^2 drawn uniformly, labelled by a
  random convex k-gon, each once: the paper's own arrangement of the sample's lines, for
  grids too large for domain mode (d = 64, 1024). One S per block, as above.
"""

from __future__ import annotations

import math

import numpy as np

from privbounds.params import Interval, Options, ParameterError
from privbounds.simulators.engine.simulator import expand
from privbounds.simulators.kmms.alg_selecthalfplane import SelectHalfplaneCurve
from privbounds.simulators.kmms.halfplane_common import GEOMETRY_FIDELITY, specs
from privbounds.simulators.kmms.halfplanes import Arrangement, distinct_points, grid_arrangement
from privbounds.simulators.kmms.kgons import band_distribution, check_kgon_fits, kgon_inside, kgon_targets
from privbounds.simulators.kmms.select_halfplane import SelectHalfplane

# the survival function's rows: fractions of the lemma's slack at beta = 0.1 (ceilings >= 1 there)
FRACTIONS = (1 / 64, 1 / 32, 1 / 16, 1 / 8, 1 / 4)
REFERENCE_BETA = 0.1
# the ceilings' rows: where each ceiling equals these levels (a smaller level needs more trials
# than a row gets to be confirmed)
LEVELS = (0.5, 0.2, 0.1)


def lemma_slack(eta: float, d: int, beta: float = REFERENCE_BETA) -> float:
    """(8/eta) ln(2d/beta): where Lemma 4.6's ceiling 2d exp(-eta t/8) equals beta."""
    return 8.0 / eta * math.log(2 * d / beta)


def our_slack(eta: float, d: int, beta: float) -> float:
    """(1/eta) ln(64 d^7/beta): where our ceiling 64 d^7 exp(-eta t) equals beta."""
    return (math.log(64.0 / beta) + 7 * math.log(d)) / eta


def ceiling_rows(point, which: str) -> list[int]:
    """The gaps at which the lemma's ceiling (``paper``) or ours equals 0.5, 0.2, 0.1 (the
    smallest integers at or past them): the rows each ceiling claim is judged on."""
    slack = lemma_slack if which == "paper" else our_slack
    return [int(math.ceil(slack(point["eta"], point["d"], b))) for b in LEVELS]


def first_round_instance(point, rng):
    """(arrangement, c1, c0): the sample S of one block as counts on the arrangement's lines."""
    d, k = point["d"], point["k"]
    if point["mode"] == "grid":
        probs, inside = band_distribution(d, k, 1, rng)
        counts = rng.multinomial(point["examples"], probs[0]).astype(float)
        return grid_arrangement(d), counts * inside[0], counts * ~inside[0]
    xs, ys = distinct_points(d, point["points"], rng)
    _, hp = kgon_targets(d, k, 1, rng)
    inside = kgon_inside(hp, xs, ys)[0]
    return Arrangement.build(xs, ys, d), inside.astype(float), (~inside).astype(float)


def selection_gaps(point, trials, rng) -> np.ndarray:
    arr, c1, c0 = first_round_instance(point, rng)
    sel = SelectHalfplane(arr, point["eta"])
    thr = c0.sum() / point["k"]
    _, _, q_chosen, q_max = sel(np.broadcast_to(c1, (trials, c1.size)), np.broadcast_to(c0, (trials, c0.size)),
                                np.full(trials, thr), rng)
    return q_max - q_chosen


class KmmsLem46(SelectHalfplaneCurve):
    theorem_id = "kmms.lem4_6"
    accounting = "one call of Select Halfplane, density exp(eta q): 2 eta-DP"
    params = {**specs("mode", "d", "points", "eta", "k"), "rows": Options(("survival", "paper", "ours")),
              "examples": Interval(1, 1 << 24, "both", integer=True)}
    fidelities = GEOMETRY_FIDELITY
    _grid_d = {"smoke": [8], "quick": [8, 16], "full": [8, 16]}
    _etas = {"smoke": [0.2], "quick": [0.05, 0.2, 1.0], "full": [0.05, 0.2, 1.0]}
    _sample_d = {"smoke": [64], "quick": [64, 1024], "full": [64, 1024]}
    _points = {"smoke": [30], "quick": [50], "full": [50, 100]}

    # one block shares one sample S (the lemma holds for every S): a block's trials are one
    # cluster, so counts at another seed (another S) are not comparable by Fisher's test
    shared_instance = True

    def grid(self, fidelity, overrides):
        rows = {"rows": ["survival", "paper", "ours"]}
        pts = expand({"mode": ["grid"], "d": self._grid_d[fidelity], "k": [4], "examples": [2000],
                      "eta": self._etas[fidelity], **rows}, overrides)
        pts += expand({"mode": ["sample"], "d": self._sample_d[fidelity], "k": [4],
                       "points": self._points[fidelity], "eta": self._etas[fidelity], **rows}, overrides)
        return pts

    def check_point(self, point):
        super().check_point(point)
        if point["d"] <= 64:  # above, the target's edges are long in grid units (and the check costly)
            check_kgon_fits(point["d"], point["k"])
        if point["mode"] == "grid":
            if "examples" not in point:
                raise ParameterError("examples must be given in grid mode (the size of the sample S)")
            if point["d"] > 32:
                raise ParameterError(f"d must be at most 32 in grid mode, got {point['d']}")
        elif "points" not in point:
            raise ParameterError("points must be given in sample mode (the distinct points of S)")

    def curve(self, point):
        if point["rows"] != "survival":
            return ceiling_rows(point, point["rows"])
        return sorted({max(1, int(round(f * lemma_slack(point["eta"], point["d"])))) for f in FRACTIONS})

    def run_trials(self, point, n, trials, rng):
        return selection_gaps(point, trials, rng) > n
