"""The Laplace mean of Bernoulli rows (privbounds' example plugin paper)

laplace.thm1: n rows drawn i.i.d. Bernoulli(p), their mean released with the Laplace
mechanism, (count + Lap(1/epsilon)) / n, which is epsilon-DP (one row moves the count by at
most 1). A trial succeeds when the released mean is within alpha of p; n_hat is the
smallest n from which a fraction 1 - beta of the trials succeed. The claims hold n_hat
between ln(1/beta) / (alpha epsilon) (Anderson's inequality) and max(2 ln(4/beta) /
alpha^2, 2 ln(2/beta) / (alpha epsilon)) (Hoeffding and the Laplace tail), bounds.py.

The count of n Bernoulli(p) rows is drawn as one Binomial(n, p) number per trial, which
has exactly its distribution: a block of any size costs O(trials), whatever n. The
mechanism is audited on the count's worst neighbours (``audit_events``), its one noise
source declared at the call site ``laplace_mechanism`` of this module.
"""

from __future__ import annotations

import numpy as np

from privbounds.params import BETA, EPSILON, Interval
from privbounds.registry import entry
from privbounds.simulators.engine.audit import AuditCase, NoiseSource, noise_sources
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.shared.accuracy import within
from privbounds.simulators.shared.mechanisms import laplace_mechanism

# every parameter has a finite range (privbounds.testing.check_params_finite): alpha below
# 0.01 would ask for n beyond the search's cap
ALPHA = Interval(0.01, 0.5, "both")  # named by its key in params
P = Interval(0, 1, "both")
N_CAP = 1 << 24


def estimate(counts, n: int, epsilon: float, rng: np.random.Generator) -> np.ndarray:
    """The released mean of each trial: (count + Lap(1/epsilon)) / n."""
    return laplace_mechanism(counts, 1.0, epsilon, rng) / n


@noise_sources(NoiseSource("count-laplace", "laplace", "privbounds_laplace.thm1:laplace_mechanism", param="epsilon",
                           arg="epsilon", what="Lap(1/epsilon) on the count of ones"))
def audit_events(budget, trials, rng, epsilon, n=10):
    """D: n rows of 0, D': one row of 1; E = {released mean > 1/n}: on D' it has
    probability 1/2, on D e^(-epsilon)/2, the ratio e^epsilon (a tight audit)."""
    on_d = estimate(np.zeros(trials), n, epsilon * budget, rng)
    on_d2 = estimate(np.ones(trials), n, epsilon * budget, rng)
    return on_d > 1 / n, on_d2 > 1 / n


class Thm1(Simulator):
    theorem_id = "laplace.thm1"
    params = {"epsilon": EPSILON, "alpha": ALPHA, "beta": BETA, "p": P}
    _eps = {"smoke": [0.5, 2.0], "quick": [0.25, 0.5, 1.0, 2.0], "full": [0.125, 0.25, 0.5, 1.0, 2.0, 4.0]}
    # p = 1/2: the largest variance, where the sampling error matters most; p = 0.02: nearly
    # no sampling error, so n_hat is the noise's alone and the lower bound is nearly met
    _p = {"smoke": [0.5], "quick": [0.02, 0.5], "full": [0.02, 0.1, 0.5]}

    def grid(self, fidelity, overrides):
        return expand({"epsilon": self._eps[fidelity], "alpha": [0.1], "beta": [0.1], "p": self._p[fidelity]},
                      overrides)

    def privacy(self, point):
        return {"epsilon": point["epsilon"], "delta": 0.0, "accounting": "Laplace mechanism on the count"}

    def audits(self):
        return [AuditCase("count-laplace", "the Laplace mean", "n = 10 rows of 0 against one row of 1",
                          "released mean > 1/n", 1.0, 0.0, audit_events, {"epsilon": 1.0})]

    def n_range(self, point):
        return 4, N_CAP

    def run_trials(self, point, n, trials, rng):
        counts = rng.binomial(n, point["p"], size=trials)
        return within(np.abs(estimate(counts, n, point["epsilon"], rng) - point["p"]), point["alpha"])


STATEMENT = ("The Laplace mean (count + Lap(1/epsilon)) / n of n i.i.d. Bernoulli(p) rows is within alpha of "
             "p with probability at least 1 - beta once n >= max(2 ln(4/beta) / alpha^2, 2 ln(2/beta) / "
             "(alpha epsilon)), and with probability below 1 - beta for every n < ln(1/beta) / (alpha epsilon), "
             "whatever p.")


@entry("laplace.thm1")
def _thm1():
    from privbounds.claims import LowerBound, UpperBound, use
    from privbounds.registry import Theorem
    from privbounds_laplace.bounds import n_lower, n_upper
    from privbounds_laplace.thm1 import Thm1

    return Theorem(
        number="Theorem 1", title="Releasing a Bernoulli mean to accuracy alpha with the Laplace mechanism",
        statement=STATEMENT,
        math="ln(1/beta) / (alpha eps) <= n_hat <= max(2 ln(4/beta) / alpha^2, 2 ln(2/beta) / (alpha eps))",
        simulator=Thm1(),
        plotter=None,  # None: the generic plotter (privbounds/figures/generic.py), one panel per claim
        claims=[UpperBound("upper", "n_hat <= max(2 ln(4/beta) / alpha^2, 2 ln(2/beta) / (alpha epsilon)) "
                                    "(Hoeffding and the Laplace tail, each at beta / 2)",
                           lambda p: True, ("p", "epsilon"), bound=use(n_upper)),
                LowerBound("lower", "n_hat >= ln(1/beta) / (alpha epsilon) (Anderson's inequality: the noise "
                                    "alone, centred, is the best case)",
                           lambda p: True, ("p", "epsilon"), bound=use(n_lower))],
        notes=("The upper bound pays for the sampling error and the noise separately (a union bound), so it is "
               "loosest where both matter; at p = 0.02 the sampling error nearly vanishes and n_hat approaches "
               "the noise's own requirement, the lower bound."))
