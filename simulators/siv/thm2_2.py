"""Sivakumar, "A Basic Overview of Private PAC Learning", Theorem 2.2: ERM learns
thresholds with O(1) samples ("roughly 10"), whatever the domain.

Thresholds on the grid X_b = {0, ..., 2^b - 1} for b = 4 .. 48 (the learner never
enumerates the domain), ERM = the middle of the consistent stretch
(``private_thresholds.erm_midpoint``), under two distributions:
- ``cluster``: Sivakumar's 4-point cluster at a uniform place, target its third point
  (only the second, third and fourth points are 1/4-accurate);
- ``uniform``: uniform on X_b, target uniform in {0, ..., 2^b}; err_D = |t - t*| / 2^b.
Errors are exact. ERM is not private and has no audit.
"""

from __future__ import annotations

import numpy as np

from privbounds.params import ALPHA, BETA, Interval, Options
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.shared.accuracy import within
from privbounds.simulators.shared.instances import threshold_cluster
from privbounds.simulators.shared.learners import chunks
from privbounds.simulators.siv.private_thresholds import cluster_error, erm_midpoint

DISTS = ("cluster", "uniform")


class SivThm22(Simulator):
    theorem_id = "siv.thm2_2"
    params = {
        "b": Interval(2, 60, "both", integer=True),
        "dist": Options(DISTS),
        "alpha": ALPHA,
        "beta": BETA,
    }
    _bs = {"smoke": [4, 16, 48], "quick": [4, 8, 16, 24, 32, 40, 48], "full": list(range(4, 61, 4))}

    def grid(self, fidelity, overrides):
        return expand({"b": self._bs[fidelity], "dist": list(DISTS), "alpha": [0.25], "beta": [0.25]},
                      overrides)

    def privacy(self, point):
        return {"epsilon": None, "delta": None, "accounting": "non-private ERM"}

    def n_range(self, point):
        return 1, 1 << 12

    def run_trials(self, point, n, trials, rng):
        b = point["b"]
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 4 * n):
            m = sl.stop - sl.start
            if point["dist"] == "cluster":
                inst = threshold_cluster(1 << b, m, 1, rng)
                counts = inst.sample_counts(n, rng)
                t = erm_midpoint(inst.support, counts, inst.support >= inst.targets, b)
                err = cluster_error(t, inst.support[:, 0])
            else:
                target = rng.integers(0, (1 << b) + 1, size=m)
                x = rng.integers(0, 1 << b, size=(m, n))
                t = erm_midpoint(x, np.ones(x.shape), x >= target[:, None], b)
                err = np.abs(t - target) / float(1 << b)
            ok[sl] = within(err, point["alpha"])
        return ok
