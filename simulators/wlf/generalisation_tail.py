"""Wang, Lei and Fienberg, "Learning with Differential Privacy" (JMLR 2016), Lemma 38
(Dwork et al. 2015b, Thm 7, the transfer theorem): an eps-DP mechanism that outputs a
function phi: Z -> [0, 1], run on n >= 12 log(4/beta)/tau^2 points with eps < tau/2, has
P[|E_D phi - (1/n) sum_Z phi| >= tau] <= beta.

Measured at n = ceil(12 log(4/beta)/tau^2) for tau = 0.1, 0.2, 0.3 and beta = 0.05:

- Algorithm 1 on P-fin (M = 8, x uniform, label noise 0.1), phi = loss(h, .), at nominal
  eps = tau - 0.02 with the paper's Delta q = 2/n, i.e. realised eps = tau/2 - 0.01 <
  tau/2. Per dataset Z the value is P_{h ~ A(Z)}[|R(h) - R_hat(h, Z)| >= tau], exact over
  h, so the mean over datasets is the lemma's probability;
- the non-private contrast (cheap and exact): the support learner of Example 16 on the
  M = 16 grid, phi(z) = 1{z not among the observed points}, whose empirical mean is 0 and
  whose true mean is the missing mass; per dataset the value is the indicator
  1{missing mass >= tau}.
"""

from __future__ import annotations

import numpy as np

from privbounds.bounds import wlf as wlf_bounds
from privbounds.params import BETA, Interval, Options, ParameterError
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.wlf import finite
from privbounds.simulators.wlf.alg1_rates import FIDELITIES, NOISE, alg1_case

TAU = Interval("tau", 0, 1, "neither")
MARGIN = 0.01  # realised eps = tau/2 - MARGIN, strictly below the lemma's tau/2


def nominal_epsilon(tau: float) -> float:
    """Algorithm 1's nominal eps: twice the realised tau/2 - 0.01 (Delta q = 2/n)."""
    return 2.0 * (tau / 2.0 - MARGIN)


def alg1_tail(problem: finite.Problem, pos, neg, n: int, eps: float, tau: float) -> np.ndarray:
    """P_{h ~ A(Z)}[|R(h) - R_hat(h, Z)| >= tau] for each dataset, exact over h."""
    errors = finite.error_counts(pos, neg)
    p = np.exp(finite.alg1_log_probs(errors, n, eps))
    far = np.abs(problem.risks() - errors / n) >= tau
    return np.sum(np.where(far, p, 0.0), axis=-1)


def support_tail(bits: int, n: int, trials: int, tau: float, rng: np.random.Generator) -> np.ndarray:
    """1{missing mass >= tau} for the support learner on the 2^bits grid with both labels
    (x uniform, label noise 0.1): phi = 1{z unseen} has empirical mean 0 and true mean the
    mass of the cells never observed."""
    problem = finite.uniform_problem(bits, NOISE)
    x = rng.integers(0, problem.size, size=(trials, n))
    one = problem.label_one()[x]
    y = rng.random((trials, n)) < one
    cell = np.sort(2 * x + (~y), axis=1)  # cell 2j: (x_j, 1); 2j + 1: (x_j, 0)
    mass = np.where(cell % 2 == 0, problem.label_one()[cell // 2], 1 - problem.label_one()[cell // 2]) / problem.size
    first = np.concatenate([np.ones((trials, 1), bool), cell[:, 1:] != cell[:, :-1]], axis=1)
    missing = 1.0 - np.sum(np.where(first, mass, 0.0), axis=1)
    return (missing >= tau).astype(float)


class Lem38(Simulator):
    """Lemma 38 against tau (n fixed by tau and beta)."""

    theorem_id = "wlf.lem38"
    measure = "mean"
    fidelities = FIDELITIES
    params = {"tau": TAU, "beta": BETA, "learner": Options("learner", ("alg1", "support_erm")),
              "bits": Interval("bits", 1, 16, "both", integer=True)}

    def grid(self, fidelity, overrides):
        taus = [0.3] if fidelity == "smoke" else [0.1, 0.2, 0.3]
        pts = expand({"learner": ["alg1"], "bits": [8], "tau": taus, "beta": [0.05]}, overrides)
        pts += expand({"learner": ["support_erm"], "bits": [16], "tau": taus, "beta": [0.05]}, overrides)
        return pts

    def check_point(self, point):
        super().check_point(point)
        if point["learner"] == "alg1" and point["tau"] <= 2 * MARGIN:
            raise ParameterError(f"tau must be > {2 * MARGIN:g} (Algorithm 1 runs at realised eps = tau/2 - "
                                 f"{MARGIN:g}), got {point['tau']!r}")

    def curve(self, point):
        return [int(wlf_bounds.lem38_sample_size(point["tau"], point["beta"]))]

    def privacy(self, point):
        if point["learner"] == "support_erm":
            return {"epsilon": None, "delta": None, "accounting": "non-private (outputs the observed points)"}
        return {"epsilon": point["tau"] / 2 - MARGIN, "delta": 0.0,
                "accounting": f"Algorithm 1 at nominal eps = tau - {2 * MARGIN:g} with Delta q = 2/n: "
                              f"realised tau/2 - {MARGIN:g} < tau/2"}

    def audits(self):
        return [alg1_case()]

    def run_trials(self, point, n, trials, rng):
        n, trials = int(n), int(trials)
        if point["learner"] == "support_erm":
            return support_tail(point["bits"], n, trials, point["tau"], rng)
        problem = finite.uniform_problem(point["bits"], NOISE)
        pos, neg = problem.sample(n, trials, rng)
        return alg1_tail(problem, pos, neg, n, nominal_epsilon(point["tau"]), point["tau"])
