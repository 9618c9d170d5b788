"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts",
Proposition 2.20 with Algorithm 1: POINT_X has an (eps, delta)-DP sanitizer whose sample
size does not depend on |X|: n = O(ln(1/(alpha beta delta)) / (alpha eps)).

Experiment: n rows drawn from a Zipf(1.1) law over X = {0, ..., 2^d - 1} (heavy head,
long tail, so the sample holds counts of every size, from 1 to about n/8). Measured: the
largest error over all point queries, max_x |a_x - c_x| / n; success when it is <= alpha.
Two sanitizers: Algorithm 1 ("alg1"), and the pure eps-DP Laplace histogram over all of
X ("laplace"), whose error grows like ln|X| and shows what Algorithm 1 avoids.
"""

from __future__ import annotations

import numpy as np

from privbounds.params import APPROX_DELTA, BETA, EPSILON, Interval, Options
from privbounds.simulators.accuracy import within
from privbounds.simulators.engine.simulator import Simulator, sweeps
from privbounds.simulators.instances import zipf_sample
from privbounds.simulators.learners import chunks
from privbounds.simulators.sanitizers import laplace_histogram_error, point_sanitizer_error

ZIPF_EXPONENT = 1.1


class BnsProp220(Simulator):
    theorem_id = "bns.prop2_20"
    params = {
        "sanitizer": Options("sanitizer", ("alg1", "laplace")),
        "d": Interval("d", 1, 24, "both", integer=True),
        "alpha": Interval("alpha", 0, 0.5, "right"),
        "epsilon": EPSILON,
        "delta": APPROX_DELTA,
        "beta": BETA,
    }
    _ds = {"smoke": [4, 20], "quick": [4, 8, 12, 16, 20], "full": [4, 6, 8, 10, 12, 14, 16, 18, 20]}
    # alpha stays below the largest point mass of the Zipf law (0.12 at |X| = 2^20), or
    # releasing all zeros would already be alpha-accurate and the experiment says nothing
    _alphas = {"smoke": [0.1, 0.025], "quick": [0.1, 0.05, 0.025, 0.0125],
               "full": [0.1, 0.05, 0.025, 0.0125, 0.00625]}
    ALPHA_FOR_X = 0.05

    def grid(self, fidelity, overrides):
        base = {"epsilon": [1.0], "delta": [1e-6], "beta": [0.1]}
        return sweeps({"sanitizer": ["alg1", "laplace"], "d": self._ds[fidelity], "alpha": [self.ALPHA_FOR_X], **base},
                      {"sanitizer": ["alg1"], "d": [16], "alpha": self._alphas[fidelity], **base}, overrides,
                      ("d", "alpha"))

    def check_point(self, point):
        super().check_point(point)
        if point["sanitizer"] == "alg1":
            self.require_small_delta(point, " for Algorithm 1")

    def privacy(self, point):
        if point["sanitizer"] == "alg1":
            return {"epsilon": point["epsilon"], "delta": point["delta"],
                    "accounting": "Alg 1: Lap(2/eps) on non-zero counts, threshold 1 + (2/eps) ln(2/delta)"}
        return {"epsilon": point["epsilon"], "delta": 0.0,
                "accounting": "Laplace histogram: Lap(2/eps) on every count (L1 sensitivity 2)"}

    def n_range(self, point):
        return 2, 1 << 18

    def run_trials(self, point, n, trials, rng):
        X = 2 ** point["d"]
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 4 * n):
            x = zipf_sample(X, ZIPF_EXPONENT, (sl.stop - sl.start, n), rng)
            if point["sanitizer"] == "alg1":
                err = point_sanitizer_error(x, point["epsilon"], point["delta"], rng)
            else:
                err = laplace_histogram_error(x, X, point["epsilon"], rng)
            ok[sl] = within(err, point["alpha"])
        return ok
