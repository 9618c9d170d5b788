"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts",
Example 3.5: the direct sum of the exponential-mechanism learner (Thm 2.22) k-learns
PAR_d with pure eps-DP from O_{alpha,beta}(k d / eps) rows; Thm 5.4 shows every pure-DP
k-learner for PAR_d needs (k d ln 2 + ln(1 - beta)) / eps, so the two sandwich n_hat.

Experiment: x uniform on {0,1}^d, k uniform target parities, noiseless labels (two
distinct parities disagree on half the cube, so for alpha < 1/2 success means exact
recovery, which is the event Thm 5.4 bounds). Per column, the exponential mechanism
with eps/k over all 2^d parities, whose errors come from one Walsh-Hadamard transform
of the column's signed histogram (``walsh.parity_errors``).
"""

from __future__ import annotations

import numpy as np

from privbounds.params import ALPHA_BELOW_HALF, BETA, EPSILON, Interval
from privbounds.simulators.concepts import make_class
from privbounds.simulators.engine.simulator import Simulator, sweeps
from privbounds.simulators.learners import chunks
from privbounds.simulators.mechanisms import exponential_mechanism
from privbounds.simulators.walsh import parity_errors


def expmech_parities(signed_hist, n, eps0, rng):
    """The exponential mechanism (Thm 2.22) over all 2^d parities on every column:
    signed_hist (B, k, 2^d) = rows labelled 0 minus rows labelled 1 at each x. Returns
    the chosen parities (B, k); eps0-DP per column (errors have sensitivity 1)."""
    return exponential_mechanism(-parity_errors(signed_hist, n), eps0, rng)


class BnsEx35(Simulator):
    theorem_id = "bns.ex3_5"
    params = {
        "d": Interval("d", 2, 12, "both", integer=True),
        "k": Interval("k", 1, 1024, "both", integer=True),
        "epsilon": EPSILON,
        "alpha": ALPHA_BELOW_HALF,
        "beta": BETA,
    }
    _ks = {"smoke": [1, 8], "quick": [1, 2, 4, 8, 16, 32, 64], "full": [1, 2, 4, 8, 16, 32, 64, 128]}
    _ds = {"smoke": [4, 8], "quick": [4, 5, 6, 7, 8, 9, 10, 11, 12], "full": [3, 4, 5, 6, 7, 8, 9, 10, 11, 12]}
    D_FOR_K, K_FOR_D = 8, 4

    def grid(self, fidelity, overrides):
        base = {"epsilon": [1.0], "alpha": [0.1], "beta": [0.1]}
        return sweeps({"d": [self.D_FOR_K], "k": self._ks[fidelity], **base},
                      {"d": self._ds[fidelity], "k": [self.K_FOR_D], **base}, overrides, ("d", "k"))

    def privacy(self, point):
        return {"epsilon": point["epsilon"], "delta": 0.0,
                "accounting": "basic composition of k exponential mechanisms over PAR_d, eps/k each"}

    def n_range(self, point):
        return 2, 1 << 20

    def run_trials(self, point, n, trials, rng):
        d, k = point["d"], point["k"]
        X = 2 ** d
        cls = make_class("par", d)
        eps0 = point["epsilon"] / k
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 4 * k * X):
            b = sl.stop - sl.start
            counts = rng.multinomial(n, np.full(X, 1.0 / X), size=b)          # (b, X)
            targets = rng.integers(0, X, size=(b, k))
            sign = np.where(cls.evaluate(targets[:, :, None], np.arange(X)), -1.0, 1.0)  # (b, k, X)
            h = expmech_parities(counts[:, None, :] * sign, n, eps0, rng)
            ok[sl] = np.all(h == targets, axis=1)
        return ok
