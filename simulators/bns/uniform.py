"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts",
Theorems 2.8 and 2.11 (generalization for k-learners): with
n >= (50 VC / alpha^2) ln(k / (alpha beta)) rows, the empirical error of every concept of a
class of VC dimension VC is within alpha of its true error, for all k label columns at
once with probability >= 1 - beta (Thm 2.8 per column with beta/k, and the union bound of
Thm 2.11: an empirical k-learner is then a PAC k-learner, and k enters only via ln k).

Experiment: THRESH over |X| = 2^d (VC = 1), x uniform, column j labelled by c_{t_j}
with label noise 0.1 (agnostic), t_j uniform. For every threshold t the true error is
0.1 + 0.8 |t - t_j| / |X|; the empirical error is computed exactly from the sample's
per-point label counts. Success: sup over the k columns and all |X| + 1 thresholds of
|err_S - err_P| <= alpha.
"""

from __future__ import annotations

import numpy as np

from privbounds.params import ALPHA_BELOW_HALF, BETA, Interval
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.shared.accuracy import within
from privbounds.simulators.shared.learners import chunks

NOISE = 0.1


class UniformConvergence(Simulator):
    params = {
        "d": Interval(1, 12, "both", integer=True),
        "k": Interval(1, 1 << 12, "both", integer=True),
        "alpha": ALPHA_BELOW_HALF,
        "beta": BETA,
    }

    def privacy(self, point):
        return {"epsilon": None, "delta": None, "accounting": "not a private algorithm (a statistical statement)"}

    def n_range(self, point):
        return 4, 1 << 22

    def run_trials(self, point, n, trials, rng):
        X, k = 2 ** point["d"], point["k"]
        t_grid = np.arange(X + 1)
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 6 * k * (X + 1)):
            b = sl.stop - sl.start
            counts = rng.multinomial(n, np.full(X, 1.0 / X), size=b)                 # (b, X)
            targets = rng.integers(0, X + 1, size=(b, k))
            above = np.arange(X)[None, None, :] >= targets[:, :, None]               # clean label 1
            pos = rng.binomial(np.broadcast_to(counts[:, None, :], above.shape), np.where(above, 1 - NOISE, NOISE))
            neg = counts[:, None, :] - pos
            zero = np.zeros((b, k, 1))
            pos_below = np.concatenate([zero, np.cumsum(pos, axis=-1)], axis=-1)      # x < t, label 1
            neg_above = neg.sum(axis=-1, keepdims=True) - np.concatenate([zero, np.cumsum(neg, axis=-1)], axis=-1)
            err_s = (pos_below + neg_above) / n
            err_p = NOISE + (1 - 2 * NOISE) * np.abs(t_grid[None, None, :] - targets[:, :, None]) / X
            ok[sl] = within(np.abs(err_s - err_p).max(axis=(1, 2)), point["alpha"])
        return ok


class BnsThm28(UniformConvergence):
    theorem_id = "bns.thm2_8"
    _alphas = {"smoke": [0.2, 0.1], "quick": [0.2, 0.14, 0.1, 0.07, 0.05],
               "full": [0.2, 0.14, 0.1, 0.07, 0.05, 0.035, 0.025]}

    def grid(self, fidelity, overrides):
        return expand({"d": [8], "k": [1], "alpha": self._alphas[fidelity], "beta": [0.1]}, overrides)


class BnsThm211(UniformConvergence):
    theorem_id = "bns.thm2_11"
    _ks = {"smoke": [1, 16], "quick": [1, 4, 16, 64, 256], "full": [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]}

    def grid(self, fidelity, overrides):
        return expand({"d": [6], "k": self._ks[fidelity], "alpha": [0.1], "beta": [0.1]}, overrides)
