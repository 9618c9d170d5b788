"""The Laplace mean of Bernoulli rows (privbounds' example plugin paper), thm1 (laplace.thm1): the simulator. The template's experiment, to replace by
your theorem's: n rows drawn i.i.d. Bernoulli(p), their mean released with the Laplace
mechanism, (count + Lap(1/epsilon)) / n (epsilon-DP: one row moves the count by at most
1). A trial succeeds when the released mean is within alpha of p; n_hat is the smallest n
at which a fraction 1 - beta of the trials succeed.

The count of n Bernoulli(p) rows is drawn as one Binomial(n, p) number per trial, which
has exactly its distribution: a block of any size costs O(trials), whatever n.
"""

from __future__ import annotations

import numpy as np

from privbounds.params import BETA, EPSILON, Interval
from privbounds.registry import entry
from privbounds.simulators.engine.audit import AuditCase, NoiseSource, noise_sources
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.shared.mechanisms import laplace_mechanism

# every parameter has a finite range (privbounds.testing.check_params_finite): alpha below
# 0.01 would ask for n beyond the search's cap
ALPHA = Interval("alpha", 0.01, 0.5, "both")
P = Interval("p", 0, 1, "both")
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

    def grid(self, fidelity, overrides):
        return expand({"epsilon": self._eps[fidelity], "alpha": [0.1], "beta": [0.1], "p": [0.5]}, overrides)

    def privacy(self, point):
        return {"epsilon": point["epsilon"], "delta": 0.0, "accounting": "Laplace mechanism on the count"}

    def audits(self):
        return [AuditCase("count-laplace", "the Laplace mean", "n = 10 rows of 0 against one row of 1",
                          "released mean > 1/n", 1.0, 0.0, audit_events, {"epsilon": 1.0})]

    def n_range(self, point):
        return 4, N_CAP

    def run_trials(self, point, n, trials, rng):
        counts = rng.binomial(n, point["p"], size=trials)
        return np.abs(estimate(counts, n, point["epsilon"], rng) - point["p"]) <= point["alpha"]


@entry("laplace.thm1")
def _thm1():
    from privbounds.claims import UpperBound, use
    from privbounds.registry import Theorem
    from privbounds_laplace.bounds import n_thm1
    from privbounds_laplace.thm1 import Thm1

    return Theorem(
        number="thm1", title="A private mean to accuracy alpha (template: replace by your theorem)",
        statement=("The Laplace mean (count + Lap(1/epsilon)) / n of n i.i.d. Bernoulli(p) rows is within alpha "
                   "of p with probability at least 1 - beta once n >= max(2 ln(4/beta) / alpha^2, "
                   "2 ln(2/beta) / (alpha epsilon))."),
        math="n_hat <= max(2 ln(4/beta) / alpha^2, 2 ln(2/beta) / (alpha epsilon))",
        simulator=Thm1(),
        plotter=None,  # None: the generic plotter (privbounds/figures/generic.py), one panel per claim
        claims=[UpperBound("upper", "n_hat <= max(2 ln(4/beta) / alpha^2, 2 ln(2/beta) / (alpha epsilon))",
                           lambda p: True, ("alpha", "epsilon"), bound=use(n_thm1))],
        notes="Hoeffding's inequality for the mean and the Laplace tail for the noise, each at beta / 2.")
