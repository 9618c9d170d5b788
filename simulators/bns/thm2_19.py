"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts",
Theorem 2.19 (Hardt and Rothblum's private multiplicative weights): every finite query
class C over a finite X has an (eps, delta)-DP (alpha, beta)-accurate sanitizer from
about log|C| sqrt(log|X|) sqrt(log(1/delta)) / (alpha^2 eps) rows.

Experiment: the PMW sanitizer of ``simulators/pmw.py`` (Dwork-Roth's online MW via
NumericSparse, run over the query class as a stream) releasing all |X| + 1 threshold
(prefix) queries of a sample uniform on X = {0, ..., 2^d - 1}. Success: the largest
error over the queries of the released synthetic distribution is <= alpha. Domains up to
2^7 points here: below its sample size PMW runs up to its cutoff of ~4 ln|X| / a^2 update
rounds, which is what a simulation pays for (the mechanism allows 2^12).
"""

from __future__ import annotations

import numpy as np

from privbounds.params import ALPHA_BELOW_HALF, APPROX_DELTA, BETA, EPSILON_AT_MOST_1, Interval
from privbounds.simulators.accuracy import within
from privbounds.simulators.engine.simulator import Simulator, sweeps
from privbounds.simulators.learners import chunks
from privbounds.simulators.pmw import pmw_sanitize


def threshold_queries(domain_size: int) -> np.ndarray:
    """The prefix queries 1[x < m] for m = 0..|X| as a boolean matrix (|X| + 1, |X|)."""
    return np.arange(domain_size)[None, :] < np.arange(domain_size + 1)[:, None]


class BnsThm219(Simulator):
    theorem_id = "bns.thm2_19"
    params = {
        "d": Interval("d", 1, 12, "both", integer=True),
        "alpha": ALPHA_BELOW_HALF,
        "epsilon": EPSILON_AT_MOST_1,
        "delta": APPROX_DELTA,
        "beta": BETA,
    }
    _alphas = {"smoke": [0.4, 0.3], "quick": [0.4, 0.3, 0.25, 0.2], "full": [0.4, 0.35, 0.3, 0.25, 0.2, 0.15]}
    _ds = {"smoke": [2, 4], "quick": [2, 3, 4, 5, 6], "full": [2, 3, 4, 5, 6, 7]}
    D_FOR_ALPHA, ALPHA_FOR_D = 4, 0.3

    def grid(self, fidelity, overrides):
        base = {"epsilon": [1.0], "delta": [1e-6], "beta": [0.1]}
        return sweeps({"d": [self.D_FOR_ALPHA], "alpha": self._alphas[fidelity], **base},
                      {"d": self._ds[fidelity], "alpha": [self.ALPHA_FOR_D], **base}, overrides, ("d", "alpha"))

    def check_point(self, point):
        super().check_point(point)
        self.require_small_delta(point)

    def privacy(self, point):
        return {"epsilon": point["epsilon"], "delta": point["delta"],
                "accounting": "PMW (Dwork-Roth online MW via NumericSparse), advanced composition inside"}

    def n_range(self, point):
        return 64, 1 << 19

    def run_trials(self, point, n, trials, rng):
        X = 2 ** point["d"]
        Q = threshold_queries(X)
        truth = Q.astype(float)
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 64 * X):
            b = sl.stop - sl.start
            # 0.6 on one random point, 0.4 uniform: far from the uniform start of MW, so
            # the sanitizer has to learn (a uniform sample is answered well with no update)
            spike = np.eye(X)[rng.integers(0, X, size=b)]
            hist = np.stack([rng.multinomial(n, 0.6 * s + 0.4 / X) for s in spike])
            res = pmw_sanitize(hist, Q, point["alpha"], point["epsilon"], point["delta"], rng)
            true_answers = hist @ truth.T / n
            ok[sl] = within(np.abs(res[1] - true_answers).max(axis=1), point["alpha"])
        return ok
