"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts",
Theorem 3.1 and Lemma 3.6: Algorithm 2 (Lemma 3.7) over a GENERIC sanitizer for C^xor
gives, for every finite C, a proper agnostic k-learner with
  pure eps-DP (BLR, Thm 2.18):        n = O~(k VC + VC log|X|),
  (eps, delta)-DP (PMW, Thm 2.19):    n = O~(sqrt(k) VC + log|C| sqrt(log|X|)).
The generic sanitizers are practical only at toy size, so both run on THRESH over
X = {0, ..., 7}: Thm 3.1 with the toy BLR of bns.thm2_18 (the synthetic database's points
form U), Lemma 3.6 with the PMW of bns.thm2_19 (the synthetic distribution rounded to a
database of ceil(8/alpha) rows). Constants are hidden in the paper: scaling claims only.
Instance: rows uniform on X, labels c_{t_j}(x) flipped with probability 0.1, uniform
targets; excess error of t is 0.8 |t - t_j| / |X|; success: every excess <= alpha.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from privbounds.bounds.bns import alg2_budget
from privbounds.bounds.tools import COMPOSITION_RULES
from privbounds.params import APPROX_DELTA, BETA, EPSILON_AT_MOST_1, Interval, Options
from privbounds.simulators.accuracy import within
from privbounds.simulators.bns.cor3_10 import NOISE, positives_in_bins
from privbounds.simulators.bns.thm2_18 import DOMAIN, SYNTH, blr_release, candidate_prefixes
from privbounds.simulators.bns.thm2_19 import threshold_queries
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.learners import chunks
from privbounds.simulators.pmw import pmw_sanitize
from privbounds.simulators.sanitize_learn import alg2_thresholds


def blr_support(hist, epsilon, rng):
    """Points of the synthetic database BLR releases (eps-DP)."""
    cand = candidate_prefixes()
    pick = blr_release(hist, epsilon, rng)
    return np.diff(cand[pick] * SYNTH, axis=1) > 0.5


def pmw_support(hist, alpha, epsilon, delta, rng):
    """Points of the PMW synthetic distribution (run at accuracy alpha) rounded to a
    database of ceil(8/alpha) rows."""
    synthetic = pmw_sanitize(hist, threshold_queries(hist.shape[1]), alpha, epsilon, delta, rng)[0]
    return np.round(synthetic * np.ceil(8 / alpha)) >= 1


class _GenericAlg2(Simulator):
    params = {
        "k": Interval("k", 1, 1 << 12, "both", integer=True),
        "rule": Options("rule", COMPOSITION_RULES),
        "alpha": Interval("alpha", 0.1, 0.5, "neither"),
        "epsilon": EPSILON_AT_MOST_1,
        "delta": APPROX_DELTA,
        "beta": BETA,
    }
    _ks = {"smoke": [1, 16], "quick": [1, 4, 16, 32, 64, 128, 256], "full": [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]}

    def grid(self, fidelity, overrides):
        return expand({"k": self._ks[fidelity], "rule": list(COMPOSITION_RULES), "alpha": [0.15], "epsilon": [1.0],
                       "delta": [1e-8], "beta": [0.1]}, overrides)

    def check_point(self, point):
        super().check_point(point)
        self.require_small_delta(point)

    def n_range(self, point):
        return 16, 1 << 22

    def run_trials(self, point, n, trials, rng):
        X, k, alpha = DOMAIN, point["k"], point["alpha"]
        e_san, d_san, eps0 = alg2_budget(point["epsilon"], k, point["rule"], point["delta"])
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 8 * (len(candidate_prefixes()) + k * (X + 2))):
            b = sl.stop - sl.start
            hist = rng.multinomial(n, np.full(X, 1.0 / X), size=b)
            C = np.concatenate([np.zeros((b, 1), np.int64), np.cumsum(hist, axis=1)], axis=1)
            targets = rng.integers(0, X + 1, size=(b, k))
            h = alg2_thresholds(hist, partial(positives_in_bins, C=C, targets=targets, X=X, rng=rng), e_san, 1.0,
                                eps0, rng, sanitize=self.sanitizer(alpha, e_san, d_san, rng))
            ok[sl] = np.all(within((1 - 2 * NOISE) * np.abs(h - targets) / X, alpha), axis=1)
        return ok


class BnsThm31(_GenericAlg2):
    theorem_id = "bns.thm3_1"

    def sanitizer(self, alpha, eps_san, delta_san, rng):
        return partial(blr_support, epsilon=eps_san, rng=rng)

    def privacy(self, point):
        if point["rule"] == "basic":
            return {"epsilon": point["epsilon"], "delta": 0.0,
                    "accounting": "BLR at eps/2 (pure) + k exponential mechanisms at eps/(2k): pure eps-DP"}
        return {"epsilon": point["epsilon"], "delta": point["delta"] / 2,
                "accounting": "BLR at eps/2 (pure) + k exponential mechanisms, (eps/2, delta/2) by advanced "
                              "composition"}


class BnsLem36(_GenericAlg2):
    theorem_id = "bns.lem3_6"

    def sanitizer(self, alpha, eps_san, delta_san, rng):
        # PMW run at accuracy 2 alpha: its cutoff of 4 ln|X| / (2 alpha / 3)^2 update rounds
        # is what a simulation pays below PMW's sample size, and at 8 points the rounded
        # synthetic database keeps every point anyway
        return partial(pmw_support, alpha=min(2 * alpha, 0.45), epsilon=eps_san, delta=delta_san, rng=rng)

    def n_range(self, point):
        return 256, 1 << 22

    def privacy(self, point):
        how = "k exponential mechanisms at eps/(2k)" if point["rule"] == "basic" else \
            "k exponential mechanisms (eps/2, delta/2) by advanced composition"
        return {"epsilon": point["epsilon"], "delta": point["delta"],
                "accounting": f"PMW at (eps/2, delta or delta/2) + {how}"}
