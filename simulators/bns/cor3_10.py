"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts",
Corollary 3.10: THRESH_X can be agnostically and properly k-learned by Algorithm 2 over
a threshold sanitizer; with advanced accounting n = O~(2^(O(log* |X|)) + sqrt(k)). The
matching lower bound (Cor 4.6) only grows like k^(1/3): the paper leaves the gap open.

We run Algorithm 2 over the catalog's SUBSTITUTE sanitizer (the binary-tree histogram of
bns.prop2_21), so the k-free term is polylog |X| here; the k-dependence, which is what
the corollary is about, is unchanged. Instance: THRESH over |X| = 2^10, rows uniform on
X, labels c_{t_j}(x) flipped with probability 0.1, targets t_j uniform in {0, ..., |X|}.
The best threshold of column j is t_j (error 0.1) and any t has excess error
0.8 |t - t_j| / |X|; success: every excess <= alpha. Labels are drawn as the positives
of every column in the bins Algorithm 2 asks about (binomials, given the rows' exact
histogram), which is the distribution of the statistics it reads.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from privbounds.bounds.bns import alg2_budget
from privbounds.bounds.tools import COMPOSITION_RULES
from privbounds.params import ALPHA_BELOW_HALF, APPROX_DELTA, BETA, EPSILON_AT_MOST_4, Interval, Options
from privbounds.simulators.accuracy import within
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.learners import chunks
from privbounds.simulators.sanitize_learn import alg2_thresholds

NOISE = 0.1


def positives_in_bins(edges, C, targets, X, rng):
    """Positive labels of every column in the bins [0, e_0), ..., [e_S, X): the rows of a
    bin on x < t_j carry label 1 with probability NOISE, those on x >= t_j with 1 - NOISE.
    C (B, X + 1) cumulative row counts, targets (B, k)."""
    b = C.shape[0]
    lo = np.concatenate([np.zeros((b, 1), int), edges], axis=1)[:, None, :]   # (b, 1, S + 2)
    hi = np.concatenate([edges, np.full((b, 1), X)], axis=1)[:, None, :]
    cut = np.clip(targets[:, :, None], lo, hi)                                # (b, k, S + 2)
    Cb = C[:, None, :]
    left = np.take_along_axis(Cb, cut, axis=2) - np.take_along_axis(Cb, lo, axis=2)
    right = np.take_along_axis(Cb, hi, axis=2) - np.take_along_axis(Cb, cut, axis=2)
    return rng.binomial(left, NOISE) + rng.binomial(right, 1 - NOISE)


class BnsCor310(Simulator):
    theorem_id = "bns.cor3_10"
    params = {
        "d": Interval("d", 2, 12, "both", integer=True),
        "k": Interval("k", 1, 1 << 12, "both", integer=True),
        "rule": Options("rule", COMPOSITION_RULES),
        "alpha": ALPHA_BELOW_HALF,
        "epsilon": EPSILON_AT_MOST_4,
        "delta": APPROX_DELTA,
        "beta": BETA,
    }
    _ks = {"smoke": [1, 16], "quick": [1, 4, 16, 32, 64, 128],
           "full": [1, 2, 4, 8, 16, 32, 64, 128, 256]}

    def grid(self, fidelity, overrides):
        return expand({"d": [10], "k": self._ks[fidelity], "rule": list(COMPOSITION_RULES), "alpha": [0.1],
                       "epsilon": [1.0], "delta": [1e-8], "beta": [0.1]}, overrides)

    def check_point(self, point):
        super().check_point(point)
        if point["rule"] == "advanced":
            self.require_small_delta(point)

    def privacy(self, point):
        if point["rule"] == "basic":
            return {"epsilon": point["epsilon"], "delta": 0.0,
                    "accounting": "basic composition: tree sanitizer at eps/2 (pure), k exponential "
                                  "mechanisms at eps/(2k)"}
        return {"epsilon": point["epsilon"], "delta": point["delta"] / 2,
                "accounting": "tree sanitizer at eps/2 (pure); k exponential mechanisms (eps/2, delta/2)-DP "
                              "by advanced composition"}

    def n_range(self, point):
        return 8, 1 << 22

    def run_trials(self, point, n, trials, rng):
        X, k, alpha = 2 ** point["d"], point["k"], point["alpha"]
        e_san, _, eps0 = alg2_budget(point["epsilon"], k, point["rule"], point["delta"])
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 8 * (X + k * int(8 / alpha + 2))):
            b = sl.stop - sl.start
            hist = rng.multinomial(n, np.full(X, 1.0 / X), size=b)
            C = np.concatenate([np.zeros((b, 1), np.int64), np.cumsum(hist, axis=1)], axis=1)
            targets = rng.integers(0, X + 1, size=(b, k))

            h = alg2_thresholds(hist, partial(positives_in_bins, C=C, targets=targets, X=X, rng=rng), e_san, alpha * n / 8, eps0, rng)
            excess = (1 - 2 * NOISE) * np.abs(h - targets) / X
            ok[sl] = np.all(within(excess, alpha), axis=1)
        return ok
