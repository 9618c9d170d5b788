"""Kaplan, Mansour, Matias and Stemmer, "Differentially Private Learning of Geometric
Concepts" (ICML 2019), Theorem 3.2: with a selection procedure that is lambda-good with
probability >= 1 - beta/(4k log(2/alpha)) per call, the Set Cover Learner is an (alpha,
beta)-PAC learner for C contained in H^(AND k) with n = Theta((k log(1/alpha)/alpha)
(VC(H) log k + lambda + (1/eps) log((k/beta) log(1/alpha)))).

Experiment (searched size n; success: true error <= alpha, exact): H = LIT_d, d = 64, the
decoy family, k = 1, 2, 4, 8, with two selection procedures:
- ``setcover``: the exponential mechanism (SAFE constants), lambda = ln(4dT'/beta)/eta;
- ``argmax``: the non-private sanity baseline, exact b_j = |S0| (Delta = 0) and the argmax
  (lambda = 0): it must satisfy n_32 with lambda = 0 and Delta = 0.
and, at k = 4, eps = 0.125 .. 0.99 for the exponential mechanism: the 1/eps of the bound's
lambda and Delta terms. Claim 3.1's exact per-run inequality is checked in every run
(with lambda = 0 and Delta = 0 for the argmax baseline).
"""

from __future__ import annotations

from privbounds.simulators.engine.simulator import expand
from privbounds.simulators.kmms import setcover_common as common


class KmmsThm32(common.SetCoverSimulator):
    theorem_id = "kmms.thm3_2"
    learners = ("setcover", "argmax")
    unaudited = {"the Set Cover Learner (SAFE)": common.WHOLE_AUDIT_ELSEWHERE}
    _grid = {"smoke": {"k": [1, 4], "eps": [0.25, 0.99]},
             "quick": {"k": [1, 2, 4, 8], "eps": [0.125, 0.25, 0.5, 0.99]},
             "full": {"k": [1, 2, 4, 8], "eps": [0.0625, 0.125, 0.25, 0.5, 0.99]}}

    def grid(self, fidelity, overrides):
        g = self._grid[fidelity]
        base = {"family": ["decoy"], "form": ["conj"], "d": [64], "alpha": [0.2], "beta": [0.1],
                "delta": [common.DELTA]}
        pts = expand({**base, "learner": ["setcover", "argmax"], "k": g["k"], "epsilon": [common.EPS]}, overrides)
        pts += [p for p in expand({**base, "learner": ["setcover"], "k": [4], "epsilon": g["eps"]}, overrides)
                if p not in pts]
        return pts
