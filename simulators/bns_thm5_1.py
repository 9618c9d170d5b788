"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts",
Theorem 5.1 (packing): every eps-DP k-learner for a class with two concepts that
disagree at a point x0 needs n >= (k ln 2 + ln(1 - beta)) / eps rows; on the packing
instance its success probability is at most e^(eps n) / 2^k.

Experiment: exactly the proof's instance. POINT_d with x0 = 0; a label vector b is drawn
uniformly from {0,1}^k and the database is n copies of (x0, b). Under the point mass at
x0 a hypothesis has error 0 or 1, so success means h_j(x0) = b_j for every j. The
learners are every pure-DP k-learner we have for points: the direct sum of the
exponential-mechanism learner with basic composition (eps / k per concept) over
POINT_d for each d in the grid (d = 1 is the two-concept class). Two kinds of points:
an n_hat search per k, and a success curve p(n) at fixed n where the ceiling is below 1.
"""

from __future__ import annotations

import numpy as np

from privbounds.params import BETA, EPSILON, Interval, Options

from .base import Simulator, expand
from .concepts import make_class
from .learners import chunks, expmech_learner_grouped

# "nosplit" (eps per concept, no composition) is a planted privacy bug for tests; it is
# runnable but not offered to users and never part of a registered grid.
PURE_LEARNERS = ("directsum-basic",)


class BnsThm51(Simulator):
    theorem_id = "bns.thm5_1"
    version = "2"
    params = {
        "d": Interval("d", 1, 12, "both", integer=True),
        "k": Interval("k", 1, 4096, "both", integer=True),
        "epsilon": EPSILON,
        "beta": BETA,
        "learner": Options("learner", PURE_LEARNERS),
        # k of the success curves; their trials grow like 2^k, hence the small range
        "curve_k": Interval("curve_k", 1, 10, "both", integer=True),
    }
    _ks = {"smoke": [1, 4, 16], "quick": [1, 2, 4, 8, 16, 32, 64],
           "full": [1, 2, 4, 8, 16, 32, 64, 128, 256]}
    # curves cost trials proportional to 2^k (see trials_factor), so they stop at k = 8
    _curve_ks = {"smoke": [4], "quick": [4, 8], "full": [4, 8]}
    CURVE_EPSILON = 0.25  # small eps spreads the informative range n < k ln2 / eps

    def grid(self, fidelity, overrides):
        search_over = {k: v for k, v in overrides.items() if k != "curve_k"}
        pts = expand({"experiment": ["search"], "d": [1, 4], "k": self._ks[fidelity],
                      "epsilon": [1.0], "beta": [0.1], "learner": list(PURE_LEARNERS)},
                     search_over)
        curve_over = {k: v for k, v in overrides.items() if k not in ("k", "epsilon", "curve_k")}
        pts += expand({"experiment": ["curve"], "d": [1, 4],
                       "k": overrides.get("curve_k", self._curve_ks[fidelity]),
                       "epsilon": [self.CURVE_EPSILON], "beta": [0.1],
                       "learner": list(PURE_LEARNERS)}, curve_over)
        return pts

    def check_point(self, point):
        super().check_point(point)
        # curve points carry their k under "k"; validate it against curve_k's range
        if point.get("experiment") == "curve":
            self.params["curve_k"].validate(point["k"])

    def curve(self, point):
        if point.get("experiment") != "curve":
            return None
        # every n at which the ceiling e^(eps n) / 2^k is still below 1
        top = int(np.floor(point["k"] * np.log(2) / point["epsilon"]))
        return list(range(1, max(1, top) + 1))

    def trials_factor(self, point):
        # p(n) is about 2^-k near n = 0, where the ceiling is only ~20% above it; trials
        # proportional to 2^k keep the interval's relative width (about 8% at quick
        # fidelity, Bonferroni-adjusted) the same for every k.
        return 4 * 2 ** point["k"] if point.get("experiment") == "curve" else 1

    def privacy(self, point):
        return {"epsilon": point["epsilon"], "delta": 0.0,
                "accounting": "basic composition of k exponential mechanisms, eps / k each"}

    def n_range(self, point):
        return 1, 1 << 15

    def run_trials(self, point, n, trials, rng):
        cls = make_class("point", point["d"])
        k = point["k"]
        eps0 = point["epsilon"] if point["learner"] == "nosplit" else point["epsilon"] / k
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, k * 4):
            b = sl.stop - sl.start
            bits = rng.integers(0, 2, size=(b, k)).astype(bool)
            support = np.zeros((b, 1), dtype=np.int64)  # x0 = 0
            counts = np.full((b, 1), n)
            h = expmech_learner_grouped(cls, support, counts, bits[:, None, :], eps0, rng)  # (b, k)
            ok[sl] = np.all((h == 0) == bits, axis=-1)
        return ok
