"""Kaplan, Mansour, Matias and Stemmer (ICML 2019), Claim 4.5: every region of Select
Halfplane's dual arrangement (clipped to the box [-2d^2, 2d^2]^2) has area >= d^-4/4.

What is measured is the smallest *region* (cell: trapezoids grouped by their labelling,
simulators/kmms/halfplanes.py), never a trapezoid (slab cuts make those arbitrarily thin).
Each curve row n asks "is the smallest region's area times 4 d^4 below n?" (relative
tolerance 1e-9 against float rounding). Points with ``bound=paper`` have the one row
n = 1 (the claim as printed); points with ``bound=ours`` start at n = 2d (our sharper
bound 1/(2 d^3)) and go on with rows that bracket the value for the figure.

- ``mode=grid``: the arrangement of all (d + 1)^2 grid points. Every sample's regions
  are unions of its cells, so its smallest cell is the smallest region over every
  possible sample on X_d^2: the row's answer is exact and deterministic (every trial
  computes the same arrangement, cached per d).
- ``mode=sample``: ``points`` distinct points of X_d^2 drawn uniformly, one arrangement
  per trial, for grids too large for the full arrangement (d = 64, 1024). The trials'
  arrangements are built together (``min_cell_areas``), in batches of about 2^20 array
  entries: a trial's own work is already arrays of m^3 entries, so larger batches only
  leave the cache (measured, 256 trials of m = 50: 1.1 s one by one, 1.4 s in batches
  of 16, 5.6 s in one batch).
"""

from __future__ import annotations

import numpy as np

from privbounds.params import Options, ParameterError
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.kmms.halfplane_common import GEOMETRY_FIDELITY, NEVER_LEVEL, specs
from privbounds.simulators.kmms.halfplanes import (
    distinct_points,
    grid_arrangement,
    min_cell_area,
    min_cell_areas,
)

RTOL = 1e-9
# brackets of the smallest area, in units of our bound 1/(2 d^3) (rows n = round(2d r))
GRID_RATIOS = (1.5, 2, 2.5, 3, 4, 6, 8)
SAMPLE_RATIOS = (16,)
BATCH_ENTRIES = 1 << 20  # trials per batch of sample-mode arrangements (module docstring)


def area_ratio(d: int, mode: str, points: int | None, trials: int, rng) -> np.ndarray:
    """(trials,): the smallest region's area times 4 d^4."""
    if mode == "grid":
        return np.full(trials, min_cell_area(grid_arrangement(d)) * 4.0 * d ** 4)
    xs, ys = distinct_points(d, points, rng, trials=trials)
    per_trial = points * (points * (points - 1) // 2 + 2 * points + 2)  # lines x slabs, at most
    step = max(1, BATCH_ENTRIES // per_trial)
    return np.concatenate([min_cell_areas(xs[i:i + step], ys[i:i + step], d)
                           for i in range(0, trials, step)]) * 4.0 * d ** 4


class KmmsClaim45(Simulator):
    theorem_id = "kmms.claim4_5"
    params = {**specs("mode", "d", "points", "level"), "bound": Options(("paper", "ours"))}
    fidelities = GEOMETRY_FIDELITY
    _grid_d = {"smoke": [2, 4], "quick": [2, 4, 8, 16], "full": [2, 4, 8, 16, 32]}
    _sample = {"smoke": ([64], [20]), "quick": ([64, 1024], [30]), "full": ([64, 1024], [20, 50])}

    def grid(self, fidelity, overrides):
        ds, ms = self._sample[fidelity]
        both = {"bound": ["paper", "ours"], "level": [NEVER_LEVEL]}
        pts = expand({"mode": ["grid"], "d": self._grid_d[fidelity], **both}, overrides)
        pts += [p for p in expand({"mode": ["sample"], "d": ds, "points": ms, **both}, overrides)
                if p["points"] <= (p["d"] + 1) ** 2]
        return pts

    def check_point(self, point):
        super().check_point(point)
        if point["mode"] == "sample":
            if "points" not in point:
                raise ParameterError("points must be given in sample mode (the sample's distinct points)")
            if point["points"] > (point["d"] + 1) ** 2:
                raise ParameterError(f"points must be at most (d + 1)^2 = {(point['d'] + 1) ** 2} on X_d^2 with "
                                     f"d = {point['d']}, got {point['points']}")
        elif point["d"] > 32:
            raise ParameterError(f"d must be at most 32 in grid mode (the full arrangement of (d + 1)^2 lines), "
                                 f"got {point['d']}")

    def privacy(self, point):
        return {"epsilon": None, "delta": None, "accounting": "geometry only: nothing is released"}

    def n_range(self, point):
        c = self.curve(point)
        return c[0], c[-1]

    def curve(self, point):
        d = point["d"]
        if point["bound"] == "paper":
            return [1]
        ratios = GRID_RATIOS if point["mode"] == "grid" else SAMPLE_RATIOS
        return [2 * d, *sorted({int(round(2 * d * r)) for r in ratios})]

    def run_trials(self, point, n, trials, rng):
        ratio = area_ratio(point["d"], point["mode"], point.get("points"), trials, rng)
        return ratio < n * (1 - RTOL)
