"""Kaplan, Mansour, Matias and Stemmer, "Differentially Private Learning of Geometric
Concepts" (ICML 2019), Example 3.3: the Set Cover Learner with every round a stand-alone
eps0-DP step and the rounds composed learns CONJ_{k,d} from n = Theta(k^1.5 log d /
(alpha eps)) examples (advanced composition; basic composition gives k^2). Theorem 3.5
improves this by the sqrt(k) factor.

Experiment (searched size n; success: true error <= alpha, exact): the decoy family at
d = 512 (the points of kmms.thm3_5's k-sweep), k = 1, 2, 4, 8, 16, with the composition
baseline under advanced and under basic composition (bounds/kmms.py,
``composition_parameters``: eps0 per round, Lap(2/eps0) on |S0|, density exp(eps0 q / 4),
T' = ceil(2k ln(4/alpha)) rounds). Claim 3.1's exact per-run inequality is checked in every
run. Privacy: each round is an eps0-DP step of the same code as the SAFE learner's (its
Laplace count and its exponential mechanism are audited under kmms.thm2_4 and
kmms.prop2_5); the composed whole has no instance with power (listed as unaudited).
"""

from __future__ import annotations

from privbounds.simulators.engine.simulator import expand
from privbounds.simulators.kmms import setcover_common as common


class KmmsEx33(common.SetCoverSimulator):
    theorem_id = "kmms.ex3_3"
    learners = ("advanced", "basic")
    unaudited = {
        "the composition baseline as a whole": (
            "no instance has power: its T' rounds share eps by composition (at k = 1, T' = 6: basic eps0 = "
            "eps/6, advanced smaller still), and an event of a whole run shows at most a few rounds' loss, far "
            "below eps even with the budget doubled (the point, in docs/verdicts.md, about advanced-composition direct "
            "sums). Its two mechanisms are the SAFE learner's code, audited under kmms.thm2_4 (Laplace) and "
            "kmms.prop2_5 (exponential mechanism)."),
    }
    _k = {"smoke": [1, 4], "quick": [1, 2, 4, 8, 16], "full": [1, 2, 4, 8, 16]}

    def grid(self, fidelity, overrides):
        return expand({"family": ["decoy"], "form": ["conj"], "learner": ["advanced", "basic"], "d": [512],
                       "k": self._k[fidelity], "alpha": [0.2], "beta": [0.1], "epsilon": [common.EPS],
                       "delta": [common.DELTA]}, overrides)
