"""Wang, Lei and Fienberg, "Learning with Differential Privacy" (JMLR 2016), Lemma 38
(Dwork et al. 2015b, Thm 7, the transfer theorem): an eps-DP mechanism that outputs a
function phi: Z -> [0, 1], run on n >= 12 log(4/beta)/tau^2 points with eps < tau/2, has
P[|E_D phi - (1/n) sum_Z phi| >= tau] <= beta.

The lemma's worth is for functions chosen adaptively from a rich class, where a
non-private choice overfits; on a class of small capacity (thresholds) every phi
generalises and the lemma could not fail. So the mechanism here picks a SUBSET query:
Z = a domain of N = 2^bits points, D uniform on it, and the mechanism outputs
phi = 1_S for a set S chosen by the exponential mechanism with the utility
u(S) = (1/n) sum_i 1{z_i in S} - |S|/(2N), "sets the sample likes more than their size
says". Replacing one row moves two counts by 1, so u has sensitivity 1/n, and
exp(eps u(S) / (2/n)) factorises over the points: x is in S independently with
probability sigmoid(eps (c_x - n/(2N)) / 2), c_x the count of x in Z. The non-private
maximiser takes every x with c_x > n/(2N): at n < 2N that is the sample's support, for
which mean_Z phi = 1 and E_D phi = |support|/N, a gap of 1 - |support|/N >= tau (the
contrast drawn in the figure; it has no claim, being that far from beta on every sample).

Measured at n = ceil(12 log(4/beta)/tau^2) (5259, 1315, 585 for tau = 0.1, 0.2, 0.3,
beta = 0.05) on N = 2^14 points, at eps = tau/2 - 0.01 < tau/2: each trial draws Z
(multinomial counts) and one S, and records 1{|E_D phi - mean_Z phi| >= tau}; the mean is
the lemma's probability.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

from privbounds.bounds import wlf as wlf_bounds
from privbounds.params import BETA, Interval, Options, ParameterError
from privbounds.simulators.engine.audit import AuditCase, NoiseSource, noise_sources
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.wlf.alg1_rates import FIDELITIES

TAU = Interval(0, 1, "neither")
MARGIN = 0.01  # eps = tau/2 - MARGIN, strictly below the lemma's tau/2


def mechanism_epsilon(tau: float) -> float:
    return tau / 2.0 - MARGIN


def inclusion_probability(counts, n: int, size: int, epsilon) -> np.ndarray:
    """P(x in S) for each point: the exponential mechanism over subsets with utility
    (1/n) sum_i 1{z_i in S} - |S|/(2N) and sensitivity 1/n factorises into independent
    coordinates with logit eps (c_x - n/(2N)) / 2."""
    return expit(np.asarray(epsilon, float) * (np.asarray(counts, float) - n / (2.0 * size)) / 2.0)


def gap_exceeds(counts, chosen, n: int, size: int, tau: float) -> np.ndarray:
    """1{|E_D phi - mean_Z phi| >= tau} for phi = 1_S, D uniform on the N points."""
    true_mean = chosen.sum(axis=-1) / size
    sample_mean = np.sum(np.where(chosen, counts, 0), axis=-1) / n
    return (np.abs(true_mean - sample_mean) >= tau).astype(float)


@noise_sources(NoiseSource("subset-expmech", "expmech",
                           "privbounds.simulators.wlf.generalisation_tail:inclusion_probability", param="epsilon",
                           arg="epsilon", what="exponential mechanism over subsets, logit eps (c_x - n/(2N)) / 2"))
def subset_events(budget, trials, rng, epsilon=1.0):
    """Audit events of the subset mechanism (``AuditCase.events``) on N = 4 points, n = 16:
    D has counts (1, 2, 7, 6) on points (a, b, c, d), D' moves a's row to b: (0, 3, 7, 6).
    Event "a in S and b not in S": each coordinate's logit moves by eps/2, the event takes
    both. Exact log-ratio at eps = 1: 0.62 (declared 1); with the budget doubled: 1.43."""
    size, n = 4, 16
    eps = epsilon * budget
    out = []
    for counts in (np.array([1, 2, 7, 6]), np.array([0, 3, 7, 6])):
        p = inclusion_probability(counts, n, size, eps)
        chosen = rng.random((trials, size)) < p
        out.append(chosen[:, 0] & ~chosen[:, 1])
    return out[0], out[1]


class Lem38(Simulator):
    """Lemma 38 against tau (n fixed by tau and beta), on an adaptive subset query."""

    theorem_id = "wlf.lem38"
    measure = "mean"
    fidelities = FIDELITIES
    params = {"tau": TAU, "beta": BETA, "learner": Options(("subset", "subset_argmax")),
              "bits": Interval(4, 18, "both", integer=True)}

    def grid(self, fidelity, overrides):
        taus = [0.3] if fidelity == "smoke" else [0.1, 0.2, 0.3]
        return expand({"learner": ["subset", "subset_argmax"], "bits": [14], "tau": taus, "beta": [0.05]},
                      overrides)

    def check_point(self, point):
        super().check_point(point)
        if point["tau"] <= 2 * MARGIN:
            raise ParameterError(f"tau must be > {2 * MARGIN:g} (the mechanism runs at eps = tau/2 - "
                                 f"{MARGIN:g}), got {point['tau']!r}")

    def curve(self, point):
        return [int(wlf_bounds.lem38_sample_size(point["tau"], point["beta"]))]

    def privacy(self, point):
        if point["learner"] == "subset_argmax":
            return {"epsilon": None, "delta": None, "accounting": "non-private (the maximising subset)"}
        return {"epsilon": mechanism_epsilon(point["tau"]), "delta": 0.0,
                "accounting": f"exponential mechanism over subsets, utility of sensitivity 1/n, at eps = "
                              f"tau/2 - {MARGIN:g} < tau/2"}

    def audits(self):
        return [AuditCase("subset", "the subset mechanism at eps = 1 (N = 4 points, n = 16)",
                          "counts (1, 2, 7, 6) versus (0, 3, 7, 6): one row moved from a to b",
                          "a in S and b not in S", 1.0, 0.0, subset_events, {"epsilon": 1.0}, trials=200_000)]

    def run_trials(self, point, n, trials, rng):
        n, trials, size = int(n), int(trials), 1 << point["bits"]
        counts = rng.multinomial(n, np.full(size, 1.0 / size), size=trials)
        if point["learner"] == "subset_argmax":
            chosen = counts > n / (2.0 * size)
        else:
            chosen = rng.random((trials, size)) < inclusion_probability(counts, n, size, mechanism_epsilon(point["tau"]))
        return gap_exceeds(counts, chosen, n, size, point["tau"])
