"""Bassily et al., "Private Query Release Assisted by Public Data" (ICML 2020), the
public-only baseline of the abstract and section 1: without private data, releasing a
class of VC dimension d needs about d/alpha^2 public samples (uniform convergence).

Experiment: THR_4096 answered by the public empirical means (pap.alg_pubonly: it ignores
the private sample, so it is trivially private). m_hat(alpha) = the smallest public
sample size with worst-case error 2 sup_t |F_m(t) - F(t)| <= alpha (exact, +-1 scale)
with probability >= 1 - beta, over the family uniform / geometric / Dirichlet. The
searched size is m. Its m_hat is the vertical line of the frontier of Theorem 3.1.
"""

from __future__ import annotations

from privbounds.simulators.engine.simulator import expand
from privbounds.simulators.pap.common import PublicSampleSimulator, specs
from privbounds.simulators.pap.query_classes import DISTRIBUTIONS
from privbounds.simulators.pap.release import public_only_thresholds


class PapBasePub(PublicSampleSimulator):
    theorem_id = "pap.base_pub"
    params = specs("T", "alpha", "beta", "dist")
    _alphas = {"smoke": [0.4, 0.2], "quick": [0.4, 0.3, 0.2, 0.15, 0.1],
               "full": [0.4, 0.3, 0.2, 0.15, 0.1, 0.05]}

    def grid(self, fidelity, overrides):
        return expand({"T": [4096], "alpha": self._alphas[fidelity], "beta": [0.1],
                       "dist": list(DISTRIBUTIONS)}, overrides)

    def public_error(self, point, public, probs):
        return public_only_thresholds(public, probs)
