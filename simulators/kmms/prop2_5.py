"""Kaplan, Mansour, Matias and Stemmer, "Differentially Private Learning of Geometric
Concepts" (ICML 2019), Proposition 2.5 (the exponential mechanism, McSherry-Talwar) as the
Set Cover Learner uses it: choosing h with probability proportional to exp(eps q(h)/2)
for a sensitivity-1 quality is eps-DP, and Pr[q(h) <= max_f q(f) - lambda] <= |H|
exp(-eps lambda / 2).

Curve (the engine's "n" is the gap lambda; success := the output's quality is at least
lambda below the best): the first round of the Set Cover Learner over LIT_64 (|H| = 128)
on 2000 examples of the decoy family (k = 4, SAFE threshold b_1 / k), the selection at
eps = 1 (density exp(q/2)), against |H| exp(-eps lambda / 2). The selection is the
learner's own (setcover.pick, i.e. the project's exponential mechanism). Audit: that
mechanism on 11 candidates whose scores all move by 1 (the first up, the others down),
at eps = 1.
"""

from __future__ import annotations

from privbounds.params import EPSILON, Interval
from privbounds.simulators.engine.audit import AuditCase
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.kmms.conjunctions import LiteralProductState, decoy_family
from privbounds.simulators.kmms.setcover import safe_parameters
from privbounds.simulators.kmms.setcover_common import FIDELITY
from privbounds.simulators.shared.audits import expmech_events
from privbounds.simulators.shared.mechanisms import laplace_mechanism

GAPS = [12, 14, 16, 18, 20]  # the ceiling from 0.32 down to 0.006 (below that 2000 trials cannot confirm)


class KmmsProp25(Simulator):
    theorem_id = "kmms.prop2_5"
    params = {"epsilon": EPSILON, "d": Interval(4, 1024, "both", integer=True),
              "k": Interval(1, 4, "both", integer=True), "m": Interval(1, 1 << 20, "both", integer=True)}
    fidelities = FIDELITY

    def grid(self, fidelity, overrides):
        return expand({"epsilon": [1.0], "d": [64], "k": [4], "m": [2000]}, overrides)

    def curve(self, point):
        return list(GAPS)

    def target(self, point):
        return 1.0

    def trials_factor(self, point):
        return 20

    def privacy(self, point):
        return {"epsilon": point["epsilon"], "delta": 0.0,
                "accounting": "exponential mechanism exp(eps q / 2), q of sensitivity 1 given b_j"}

    def audits(self):
        return [AuditCase("expmech", "the exponential mechanism at eps = 1 (setcover.pick's sampler)",
                          "scores of 11 candidates, all moved by 1: the first up, the others down",
                          "the first candidate is chosen", 1.0, 0.0, expmech_events,
                          {"epsilon": 1.0, "candidates": 10}, trials=200_000)]

    def run_trials(self, point, n, trials, rng):
        if point["k"] > point["d"]:
            raise ValueError("k must be at most d")
        fam = decoy_family(point["d"], point["k"], 0.2)
        state = LiteralProductState(fam, point["m"], trials, rng, "and", eta=point["epsilon"] / 2)
        p = safe_parameters(point["k"], 0.1, 0.1, 0.99, 1e-8)
        size = state.cover_size()
        b = laplace_mechanism(size, 1.0, 1.0 / p["lap_scale"], rng) - p["shift"]
        _, q_chosen, q_max = state.select(b / point["k"], rng)
        return q_chosen <= q_max - float(n)
