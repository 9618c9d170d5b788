"""Subsampling in Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple
Concepts":

- Lemma 2.25 (secrecy of the sample, from Bun-Nissim-Stemmer-Vadhan 2015): if A is
  (eps, delta)-DP on n rows, eps <= 1 and m >= 2n, then "draw n of the m rows uniformly
  with replacement and run A" is (eps~, delta~)-DP with eps~ = 6 eps n / m and
  delta~ = exp(6 eps n / m)(4n / m) delta (the catalog's RECONSTRUCTED constants).
  Measured on A = the Laplace count of the rows equal to 0 (eps-DP, delta = 0):
  D has m/2 such rows, its neighbour D' one fewer; for the upper-tail event
  E = {output > tau} the frequency under D must stay under e^(eps~) P_D'(E), computed
  exactly (binomial mixture of Laplace tails). Curve over m.
- Theorem 2.24 (PAC k-learner => empirical k-learner): running a PAC k-learner on n rows
  drawn with replacement from a database of m = 9n rows makes it an empirical k-learner
  (accurate on the database itself). Measured with Algorithm 5 (Thm 3.13) on databases
  drawn from the instance of bns.thm3_13; success: every hypothesis has empirical error
  <= alpha on the m rows. n_hat is the smallest database size m that works.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from privbounds.params import BETA, EPSILON_AT_MOST_1, Interval
from privbounds.simulators.accuracy import within
from privbounds.simulators.bns.thm3_13 import HEAVY_MASS, draw_instance, heavy_targets, target_keys
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.learners import chunks
from privbounds.simulators.stability import alg5_points


class BnsLem225(Simulator):
    theorem_id = "bns.lem2_25"
    params = {
        "epsilon": EPSILON_AT_MOST_1,
        "inner_n": Interval("inner_n", 1, 1000, "both", integer=True),
    }

    def grid(self, fidelity, overrides):
        return expand({"epsilon": [1.0, 0.5], "inner_n": [20]}, overrides)

    def curve(self, point):
        return [r * point["inner_n"] for r in (2, 4, 6, 9, 20)]

    def trials_factor(self, point):
        # at m = 20 n the ceiling is only about 1.1 times the measured probability
        return 40

    def target(self, point):
        return 1.0

    def privacy(self, point):
        return {"epsilon": point["epsilon"], "delta": 0.0,
                "accounting": "Laplace count (eps-DP on its n rows), run on n rows subsampled from m"}

    @staticmethod
    def tau(point, m):
        return point["inner_n"] / 2 + 4.0

    @staticmethod
    def neighbour_tail(point, m):
        """P_D'[output > tau] exactly: D' has m/2 - 1 rows equal to 0."""
        n, eps = point["inner_n"], point["epsilon"]
        j = np.arange(n + 1)
        w = stats.binom.pmf(j, n, (m / 2 - 1) / m)
        return float(np.sum(w * stats.laplace.sf(BnsLem225.tau(point, m) - j, scale=1 / eps)))

    def run_trials(self, point, n, trials, rng):
        m = int(n)
        count = rng.binomial(point["inner_n"], (m // 2) / m, size=trials)     # rows of D sampled that are 0
        out = count + rng.laplace(0.0, 1.0 / point["epsilon"], size=trials)
        return out > self.tau(point, m)


class BnsThm224(Simulator):
    theorem_id = "bns.thm2_24"
    params = {
        "d": Interval("d", 5, 30, "both", integer=True),
        "k": Interval("k", 1, 1 << 12, "both", integer=True),
        "alpha": Interval("alpha", HEAVY_MASS / 4, HEAVY_MASS, "neither"),
        "epsilon": EPSILON_AT_MOST_1,
        "delta": Interval("delta", 0, 1e-6, "both"),
        "beta": BETA,
    }
    _ks = {"smoke": [1, 64], "quick": [1, 16, 256, 4096], "full": [1, 4, 16, 64, 256, 1024, 4096]}
    RATIO = 9

    def grid(self, fidelity, overrides):
        return expand({"d": [16], "k": self._ks[fidelity], "alpha": [0.1], "epsilon": [1.0], "delta": [1e-6],
                       "beta": [0.1]}, overrides)

    def privacy(self, point):
        e, dl = point["epsilon"], point["delta"]
        return {"epsilon": e, "delta": dl,
                "accounting": "Alg 5 at (eps, delta) on m/9 subsampled rows: (2/3 eps, "
                              "e^(2 eps/3) (4/9) delta)-DP on the m rows by Lemma 2.25"}

    def n_range(self, point):
        return self.RATIO * 8, 1 << 18

    def run_trials(self, point, n, trials, rng):
        m, k, X, alpha = int(n), point["k"], 2 ** point["d"], point["alpha"]
        inner = m // self.RATIO
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 4 * (m + k)):
            b = sl.stop - sl.start
            _, db, targets = draw_instance(X, m, k, b, rng)                           # the database D
            x = np.take_along_axis(db, rng.integers(0, m, size=(b, inner)), axis=1)  # n rows with replacement
            released, (ht, hx, hrow) = alg5_points(x, target_keys(x, targets, X), alpha, point["epsilon"],
                                                   point["delta"], rng)
            covered = heavy_targets(ht, x[ht, hrow], targets, X)
            tc = np.arange(b)[:, None] * X + targets
            # empirical error on D of h_j: 0 if the target's point is heavy (h_j = that point),
            # else h_j = 0 errs on the rows of D at t_j
            flat = np.sort((np.arange(b)[:, None] * X + db).ravel())
            cnt = np.searchsorted(flat, tc, side="right") - np.searchsorted(flat, tc, side="left")
            emp = np.where(covered, 0.0, cnt / m)
            ok[sl] = released & np.all(within(emp, alpha), axis=1)
        return ok
