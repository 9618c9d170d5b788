"""Kaplan, Mansour, Matias and Stemmer, "Differentially Private Learning of Geometric
Concepts" (ICML 2019), Theorem 2.4 (the Laplace mechanism, Dwork et al. 2006) as the Set
Cover Learner uses it: |S0| + Lap(b_L) is (1/b_L)-DP, and T draws stay within the shift
Delta = b_L ln(4T/beta) (SAFE) or b_L ln(T/beta) (paper-literal) except with probability
beta/4 (resp. beta): Claim 3.1's event.

Curve (the engine's "n" is the number of draws T = 4, 16, 64 (256 at full); success := the event the
ceiling bounds): P[max_{j <= T} |w_j| > Delta] against T exp(-Delta/b_L), the union of the
exact tails exp(-Delta/b_L). The union is nearly tight (the true probability is
1 - (1 - beta'/T)^T, within beta'^2/2 of the ceiling beta'), so the curve needs many trials
(``trials_factor``) and a ceiling of 0.1: SAFE at beta = 0.4 (ceiling beta/4 = 0.1),
paper-literal at beta = 0.1. At T = 1 the ceiling is the exact tail, an equality no
sample can confirm, so the curve starts at T = 4. The draws are
the project's Laplace mechanism (simulators/shared/mechanisms.py), the same call as the
learner's. Audit: that mechanism on a count of 0 versus 1 at eps = 1/b_L = 0.5.
"""

from __future__ import annotations

import math

import numpy as np

from privbounds.params import BETA, Interval, Options
from privbounds.simulators.engine.audit import AuditCase
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.kmms.setcover_common import FIDELITY
from privbounds.simulators.shared.audits import laplace_events
from privbounds.simulators.shared.mechanisms import laplace_mechanism

DRAWS_MAX = {"smoke": 16, "quick": 64, "full": 256}


def shift_ratio(reading: str, draws: int, beta: float) -> float:
    """Delta / b_L: ln(4T/beta) (SAFE) or ln(T/beta) (paper-literal)."""
    return math.log((4.0 if reading == "safe" else 1.0) * draws / beta)


class KmmsThm24(Simulator):
    theorem_id = "kmms.thm2_4"
    params = {"reading": Options(("safe", "literal")), "beta": BETA,
              "draws_max": Interval(1, 4096, "both", integer=True)}
    fidelities = FIDELITY

    def grid(self, fidelity, overrides):
        # beta = 0.4 for SAFE puts its ceiling at 0.1 too: at beta/4 = 0.025 the union of the tails is within
        # (beta/4)^2 / 2 of the truth, which no affordable number of trials can separate from the ceiling
        return (expand({"reading": ["safe"], "beta": [0.4], "draws_max": [DRAWS_MAX[fidelity]]}, overrides)
                + expand({"reading": ["literal"], "beta": [0.1], "draws_max": [DRAWS_MAX[fidelity]]}, overrides))

    def curve(self, point):
        """T = 4, 16, ... up to draws_max (at T = 1 the ceiling is the exact tail: an equality)."""
        return [4 ** i for i in range(1, int(np.log(point["draws_max"]) / np.log(4) + 1e-9) + 1)]

    def target(self, point):
        return 1.0

    def trials_factor(self, point):
        return 2000

    def privacy(self, point):
        return {"epsilon": 0.5, "delta": 0.0,
                "accounting": "the Laplace count |S0| + Lap(b_L), (1/b_L)-DP; audited at b_L = 2"}

    def audits(self):
        return [AuditCase("laplace-count", "the Set Cover Learner's Laplace count at b_L = 2 (eps = 1/b_L = 0.5)",
                          "|S0| = 0 versus 1 (sensitivity 1)", "output > 1", 0.5, 0.0, laplace_events,
                          {"epsilon": 0.5}, trials=200_000)]

    def run_trials(self, point, n, trials, rng):
        ratio = shift_ratio(point["reading"], int(n), point["beta"])
        out = np.empty(trials, dtype=bool)
        step = max(1, (1 << 20) // int(n))
        for s in range(0, trials, step):
            b = min(step, trials - s)
            w = laplace_mechanism(np.zeros((b, int(n))), 1.0, 1.0, rng)  # b_L = 1: Delta / b_L = ratio
            out[s:s + b] = np.abs(w).max(axis=1) > ratio
        return out
