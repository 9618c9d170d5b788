"""Sivakumar, "A Basic Overview of Private PAC Learning", Theorem 2.1: the first
consistent hypothesis (in a fixed order of a finite class H) PAC-learns H with
n = O(log|H|) samples.

Instance where the union bound is nearly tight: H = ALL_k, every one of the 2^k Boolean
functions on k points, D uniform on the k points, H ordered by decreasing number of ones
and target f = 0, the worst target for that order (for another target the first
consistent hypothesis errs only on the unseen points where f is 0). The first consistent hypothesis is then 1 on every point the sample
missed, so err_D = (unseen points) / k, about e^(-n/k): n_hat is near k ln(1/alpha),
linear in ln|H| = k ln 2, at about half of the bound (ln|H| + ln(1/beta)) / alpha.
Errors are exact. ERM is not private and has no audit.
"""

from __future__ import annotations

import numpy as np

from privbounds.params import ALPHA, BETA, Interval
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.shared.accuracy import within
from privbounds.simulators.shared.learners import chunks


def first_consistent_all_functions(seen, target):
    """The first hypothesis of ALL_k, ordered by decreasing number of ones (ties in any
    fixed order), that agrees with the target on the seen points: (B, k) booleans. With
    the target 0 it is 1 exactly on the unseen points; for another target it is the
    hypothesis of largest weight among the consistent ones."""
    seen = np.asarray(seen, bool)
    return np.where(seen, np.asarray(target, bool), True)


class SivThm21(Simulator):
    theorem_id = "siv.thm2_1"
    params = {
        "k": Interval(2, 1000, "both", integer=True),  # |H| = 2^k stays a finite float
        "alpha": ALPHA,
        "beta": BETA,
    }
    _ks = {"smoke": [4, 16, 64], "quick": [4, 8, 16, 32, 64, 128, 256],
           "full": [4, 8, 16, 32, 64, 128, 256, 512, 1000]}

    def grid(self, fidelity, overrides):
        return expand({"k": self._ks[fidelity], "alpha": [0.25], "beta": [0.25]}, overrides)

    def privacy(self, point):
        return {"epsilon": None, "delta": None, "accounting": "non-private ERM"}

    def n_range(self, point):
        return 1, 1 << 16

    def run_trials(self, point, n, trials, rng):
        k = point["k"]
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, k):
            b = sl.stop - sl.start
            counts = rng.multinomial(n, np.full(k, 1.0 / k), size=b)  # the sample's multiset
            target = np.zeros((b, k), dtype=bool)
            h = first_consistent_all_functions(counts > 0, target)
            err = (h != target).mean(axis=1)  # D uniform on the k points: exact
            ok[sl] = within(err, point["alpha"])
        return ok
