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

Privacy audits (engine/audit.py). The whole learners have no powered instance
(``unaudited``); their parts are audited, each at its own budget and through the code
``run_trials`` runs:
- the sanitizer: BLR at eps/2 = 0.5 on the instance of bns.thm2_18 (Thm 3.1; each BLR
  run scores 6435 candidates, so it affords 6000 trials); one update round of PMW on the
  instance of bns.thm2_19 (Lemma 3.6);
- the exponential mechanism: the whole learner at k = 1 on neighbours that differ in one
  label only, on which the sanitizer sees the same rows and the mechanism is all the
  loss (eps0 = eps/2 = 0.5 under basic composition, column-basic; 0.0798 under advanced
  composition, column-advanced, Lemma 3.6 only: it needs 8 x 10^5 trials, which BLR
  cannot afford). 10^4 rows at each point of X = {0, ..., 7}, half labelled 1; D'
  relabels one row at 0 from 0 to 1. Both sanitizers keep all 8 points (BLR's best
  synthetic database has one row at each; PMW, whose noise is small at n = 80000,
  rarely updates the uniform start), so the candidates are the thresholds 0..8, all of
  the same error; the flip lowers the score of every t > 0 by 2. E = {h = 0}: P[E] = 1/9
  on D and e^eps0 / (8 + e^eps0) on D' (loss 0.43 at eps0 = 0.5, 0.83 doubled; 0.071 and
  0.141 at eps0 = 0.0798).
"""

from __future__ import annotations

from functools import partial

import numpy as np

from privbounds.bounds.bns import alg2_budget
from privbounds.bounds.tools import COMPOSITION_RULES
from privbounds.params import APPROX_DELTA, BETA, EPSILON_AT_MOST_1, Interval, Options
from privbounds.simulators.bns.cor3_10 import NOISE, alg2_thresholds_neighbours, positives_in_bins
from privbounds.simulators.bns.pmw import pmw_parameters, pmw_sanitize
from privbounds.simulators.bns.sanitize_learn import alg2_thresholds
from privbounds.simulators.bns.thm2_18 import (
    DOMAIN,
    SYNTH,
    BnsThm218,
    blr_events,
    blr_release,
    candidate_prefixes,
)
from privbounds.simulators.bns.thm2_19 import (
    PMW_ROUND_UNCAUGHT,
    BnsThm219,
    below_audit,
    pmw_round_events,
    round_epsilon,
    threshold_queries,
)
from privbounds.simulators.engine.audit import AuditCase, NoiseSource, noise_sources
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.shared.accuracy import within
from privbounds.simulators.shared.learners import chunks


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


@noise_sources(NoiseSource("columns", "expmech", "privbounds.simulators.bns.cor3_10:alg2_thresholds",
                           param="epsilon", arg="eps0",
                           what="Alg 2's exponential mechanism, at eps0"))
def alg2_blr_events(budget, trials, rng, **spec):
    """Algorithm 2 over BLR, as ``BnsThm31.run_trials`` runs it (``alg2_thresholds_neighbours``)."""
    return alg2_thresholds_neighbours(budget, trials, rng, sanitizer=BnsThm31().sanitizer,
                                      per_trial=2 * len(candidate_prefixes()), **spec)


@noise_sources(NoiseSource("columns", "expmech", "privbounds.simulators.bns.cor3_10:alg2_thresholds",
                           param="epsilon", arg="eps0",
                           what="Alg 2's exponential mechanism, at eps0"))
def alg2_pmw_events(budget, trials, rng, **spec):
    """Algorithm 2 over PMW, as ``BnsLem36.run_trials`` runs it (``alg2_thresholds_neighbours``)."""
    return alg2_thresholds_neighbours(budget, trials, rng, sanitizer=BnsLem36().sanitizer,
                                      per_trial=64 * (DOMAIN + 1), **spec)


# the column instances: 10^4 rows at each of the 8 points, half labelled 1; one label at 0 flipped 0 -> 1
COLUMN = {"epsilon": 1.0, "delta": 1e-8, "alpha": 0.15, "counts": [10_000] * DOMAIN, "positives": [5_000] * DOMAIN,
          "move": [0, 0, 0, 1], "event": [0]}
COLUMN_NEIGHBOURS = ("10^4 rows at each point of X = {0, ..., 7} (half labelled 1) versus one label at 0 changed "
                     "from 0 to 1 (the sanitizer sees the same rows)")


class _GenericAlg2(Simulator):
    params = {
        "k": Interval(1, 1 << 12, "both", integer=True),
        "rule": Options(COMPOSITION_RULES),
        "alpha": Interval(0.1, 0.5, "neither"),
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

    def elements_per_trial(self, k: int) -> int:
        """What one trial of ``run_trials`` counts against ``CHUNK_ELEMENTS`` (a chunk holds
        CHUNK_ELEMENTS // this many trials): the width k (|X| + 2) of the k columns' bin
        arrays. PMW's own arrays, 2 |X| + 2 wide a trial, are left out, so that a quick or
        full block (200 or 250 trials, k <= 512) runs as one chunk: PMW's cost is its
        sequential rounds, paid once a chunk. A call of many more trials can hold several
        times the cap, tens of megabytes."""
        return k * (DOMAIN + 2)

    def run_trials(self, point, n, trials, rng):
        X, k, alpha = DOMAIN, point["k"], point["alpha"]
        e_san, d_san, eps0 = alg2_budget(point["epsilon"], k, point["rule"], point["delta"])
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, self.elements_per_trial(k)):
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

    def audits(self):
        return [
            AuditCase("blr-half", "the sanitizer: BLR at eps/2 = 0.5",
                      "16 rows (7, 2, 0, 4, 2, 0, 0, 1) on the points 0..7 versus the row at 7 moved to 0",
                      "the released S is strictly closer to D' than to D in worst prefix error", 0.5, 0.0,
                      blr_events, {"epsilon": 0.5, "hist": list(BnsThm218.AUDIT_HIST),
                                   "move": list(BnsThm218.AUDIT_MOVE)}, trials=6_000),
            AuditCase("column-basic", "the exponential mechanism: Algorithm 2 over BLR, k = 1, basic composition "
                      "(eps = 1), eps0 = 0.5", COLUMN_NEIGHBOURS, "h = 0", 0.5, 0.0, alg2_blr_events,
                      {**COLUMN, "rule": "basic"}, trials=6_000),
        ]

    unaudited = {
        "Algorithm 2 over BLR as a whole (basic and advanced)": (
            "no instance has power: each trial runs BLR over 6435 candidates (about 100 microseconds), so an "
            "audit affords about 6000 trials, and a search over small samples on the 8 points (hill climbing, "
            "with BLR's support distribution and the mechanism in closed form) finds at k = 1, basic "
            "composition, at most eps_hat 0.65 at the doubled budget with 6000 trials, under eps = 1. Its parts "
            "are audited (privacy-blr-half, privacy-column-basic)."),
        "the advanced learner's exponential mechanism": (
            "at k = 1, eps = 1, delta = 1e-8 it runs at eps0 = 0.080, whose doubled loss shows only with about "
            "10^6 trials (bns.cor3_10 and bns.lem3_6 audit the same mechanism code there, over cheaper "
            "sanitizers), some 300 s of BLR here; the basic learner's mechanism (privacy-column-basic) runs the "
            "same code at eps0 = 0.5."),
    }

    def sanitizer(self, alpha, eps_san, delta_san, rng):
        return partial(blr_support, epsilon=eps_san, rng=rng)

    def elements_per_trial(self, k: int) -> int:
        # BLR scores every one of the 6435 candidate databases of every trial
        return 8 * (len(candidate_prefixes()) + k * (DOMAIN + 2))

    def privacy(self, point):
        if point["rule"] == "basic":
            return {"epsilon": point["epsilon"], "delta": 0.0,
                    "accounting": "BLR at eps/2 (pure) + k exponential mechanisms at eps/(2k): pure eps-DP"}
        return {"epsilon": point["epsilon"], "delta": point["delta"] / 2,
                "accounting": "BLR at eps/2 (pure) + k exponential mechanisms, (eps/2, delta/2) by advanced "
                              "composition"}


class BnsLem36(_GenericAlg2):
    theorem_id = "bns.lem3_6"

    def audits(self):
        a = BnsThm219.AUDIT_ROUND
        eps = round_epsilon(pmw_parameters(sum(a["hist"]), len(a["hist"]), len(a["hist"]) + 1, a["alpha"],
                                           a["epsilon"], a["delta"]))
        eps0 = alg2_budget(1.0, 1, "advanced", 1e-8)[2]
        return [
            AuditCase("pmw-round", f"the sanitizer's unit: one update round of PMW (cutoff 1), eps_AT + eps_L = "
                      f"{eps:.3f} (instance of bns.thm2_19)",
                      "160 rows (1, 0, 18, 20, 20, 101, 0, 0) on the points 0..7 versus the row at 0 moved to 7",
                      "the update raised the prefix [0, 6)", eps, 0.0, pmw_round_events, dict(a), trials=600_000,
                      uncaught=PMW_ROUND_UNCAUGHT),
            below_audit(),
            AuditCase("column-basic", "the exponential mechanism: Algorithm 2 over PMW, k = 1, basic composition "
                      "(eps = 1), eps0 = 0.5", COLUMN_NEIGHBOURS, "h = 0", 0.5, 0.0, alg2_pmw_events,
                      {**COLUMN, "rule": "basic"}, trials=200_000),
            AuditCase("column-advanced", f"the exponential mechanism: Algorithm 2 over PMW, k = 1, advanced "
                      f"composition (eps = 1, delta = 1e-8), eps0 = {eps0:.4f}", COLUMN_NEIGHBOURS, "h = 0", eps0,
                      0.0, alg2_pmw_events, {**COLUMN, "rule": "advanced"}, trials=800_000),
        ]

    unaudited = {
        "Algorithm 2 over PMW as a whole (basic and advanced)": (
            "no instance has power: at k = 1 under basic composition the doubled mechanism may lose at most "
            "2 eps0 = eps, so the doubled whole shows more than eps only through PMW's share, and PMW has no "
            "powered instance (bns.thm2_19): its eps/2 is spread over c = ceil(4 ln|X| / a^2) rounds, 832 at "
            "|X| = 8 and the sanitizer's accuracy 2 alpha = 0.3, each eps_AT = 0.0013 at eps/2 = 0.5. Under "
            "advanced composition the mechanism's share is smaller still (eps0 = 0.080). Its parts are audited "
            "(privacy-pmw-round, privacy-column-basic, privacy-column-advanced)."),
    }

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
