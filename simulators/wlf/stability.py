"""Wang, Lei and Fienberg, "Learning with Differential Privacy" (JMLR 2016): replace-one
stability and the consistency chain of Corollary 9 (privacy + universal AERM =>
consistency, rate xi(n) + e^eps - 1) and Theorem 35 (xi1-stable + xi2-AERM => consistent
with rate xi1 + xi2), measured on Algorithm 1 over P-fin (finite.py).

Per trial: a dataset Z ~ D^n, one of its points z_i (at random), a fresh z' ~ D, and every
replacement value v of z_i (the 2G grid points with both labels). Exact over h:

- ``stability``: max over v of sup_z |E_{A(Z)} loss(h, z) - E_{A(Z^(i->v))} loss(h, z)|
  (finite.ro_stability): the worst neighbour of Z at position i. Compared with statistic
  "max" (a supremum over every neighbouring pair tried) with Lemma 8's e^eps - 1 and 2 eps
  at the realised eps (Delta q = 2/n makes Algorithm 1 eps/2-DP);
- Theorem 35's second step as a mean against 0: ``er_minus_gg_minus_ag`` = ER(Z) - GG(Z) -
  AG(Z) with R* replaced by R_hat(h*, Z) (its unbiased estimate, E R_hat(h*, Z) = R*, the
  proof's first equality), i.e. R_hat*(Z) - R_hat(h*, Z) <= 0: with R* itself the mean,
  E R_hat*(Z) - R*, is within 1e-3 of 0 on P-fin and 200 datasets cannot sign it;
- ``excess_risk``, ``aerm_gap``, ``gen_gap`` (its first step, |E GG| <= the stability, is
  checked against Lemma 8's bound and drawn against the largest stability measured; a
  per-dataset GG(Z) - ST(Z, Z') is too noisy at large n to separate from 0: GG(Z)
  fluctuates like n^-1/2 while its mean and the stability are O(eps/n)-small);
- ``symmetrised_gap``: E_{A(Z)} loss(h, z') - E_{A(Z^(i->z'))} loss(h, z'), the replace-one
  form of the generalisation gap in the proof (its mean is E GG exactly, and each value is
  at most ST(Z, Z^(i->z')) in absolute value).
"""

from __future__ import annotations

import numpy as np

from privbounds.params import Options
from privbounds.simulators.wlf import finite
from privbounds.simulators.wlf.alg1_rates import (
    Alg1Mean,
    epsilon_of,
    measure,
    problem_of,
    schedule_points,
)

STABILITY_QUANTITIES = ("stability", "er_minus_gg_minus_ag", "symmetrised_gap")
QUANTITIES = STABILITY_QUANTITIES + ("excess_risk", "aerm_gap", "gen_gap")


def _cells(problem: finite.Problem) -> np.ndarray:
    """The 2G cells' probabilities: (x_j, 1) for j < G, then (x_j, 0)."""
    one = problem.p * problem.label_one()
    return np.concatenate([one, problem.p - one])


def stability_quantities(problem: finite.Problem, pos, neg, n: int, eps: float,
                         rng: np.random.Generator) -> dict:
    """The module docstring's quantities for one batch of datasets (label histograms)."""
    trials, size = pos.shape
    cell = finite.replaced_cell(np.concatenate([pos, neg], axis=1), rng.random(trials) * n)  # z_i
    cells = _cells(problem)
    fresh = rng.choice(2 * size, size=trials, p=cells / cells.sum())  # z' ~ D
    errors = finite.error_counts(pos, neg)
    logp = finite.alg1_log_probs(errors, n, eps)
    q = finite.excess_quantities(problem, errors, logp, n)
    worst = np.zeros(trials)
    sym = np.zeros(trials)
    table = finite.point_losses(size)
    for v, lp in finite.replacements(pos, neg, cell, n, eps):
        worst = np.maximum(worst, finite.ro_stability(logp, lp))
        d = (np.exp(logp) - np.exp(lp)) @ table[v]
        sym = np.where(fresh == v, d, sym)
    gg = q["generalisation_gap"]
    risk = problem.risks()
    best = int(np.argmin(risk))
    # ER - GG - AG with R* -> R_hat(h*, Z) is R_hat*(Z) - R_hat(h*, Z) identically; taken from
    # the integer counts, so that rounding of the three exact means cannot push it above 0
    step = (errors.min(axis=1) - errors[:, best]) / n
    return {"stability": worst, "er_minus_gg_minus_ag": step,
            "symmetrised_gap": sym, "excess_risk": q["excess_risk"], "aerm_gap": q["aerm_gap"], "gen_gap": gg}


def stability_measure(point: dict, n: int, trials: int, rng: np.random.Generator) -> np.ndarray:
    if point["quantity"] not in STABILITY_QUANTITIES:
        return measure(point, n, trials, rng)
    problem = problem_of(point)
    pos, neg = problem.sample(n, trials, rng)
    return stability_quantities(problem, pos, neg, n, epsilon_of(point, n), rng)[point["quantity"]]


class _StabilityMean(Alg1Mean):
    params = {**Alg1Mean.params, "quantity": Options(QUANTITIES)}
    # the quantities that compare the learner on every replacement of one row: a table over
    # pairs of the 2^bits points
    PAIRWISE = ("stability", "symmetrised_gap", "er_minus_gg_minus_ag")

    def memory(self, point, n, trials):
        """About 18 bytes per pair of domain points (4^bits) for the quantities over every
        replacement of one row, whatever the trials (tracemalloc's peak at n = 200: 18.3 MiB at
        bits = 10, 289 MiB at 12 with 4 and with 16 trials, 1,154 MiB at 13); the others are small."""
        return 20 * 4 ** point["bits"] if point["quantity"] in self.PAIRWISE else None

    def run_trials(self, point, n, trials, rng):
        return stability_measure(point, int(n), int(trials), rng)


class Thm35(_StabilityMean):
    """Theorem 35 on Algorithm 1 (M = 4, both distributions, eps(n) and eps = 0.5)."""

    theorem_id = "wlf.thm35"

    def axes(self, fidelity, base, overrides):
        axes = {**base, "learner": ["alg1"], "regulariser": ["none"], "bits": [4], "dist": ["uniform", "cluster"],
                "quantity": list(QUANTITIES)}
        return schedule_points(axes, [0.5], overrides)


class Cor9(_StabilityMean):
    """Corollary 9 on Algorithm 1: excess risk against xi(n) + e^eps - 1 (M = 4, 8, 16;
    eps(n) and eps = 0.1, 0.5), and the replace-one stability against e^eps - 1, 2 eps
    (M = 4; eps(n) and eps = 0.1, 0.5, 1)."""

    theorem_id = "wlf.cor9"

    def axes(self, fidelity, base, overrides):
        dists = ["uniform", "cluster"]
        er = {**base, "learner": ["alg1"], "regulariser": ["none"], "bits": [4, 8, 16], "dist": dists,
              "quantity": ["excess_risk"]}
        st = {**er, "bits": [4], "quantity": ["stability"]}
        fixed_st = [0.5] if fidelity == "smoke" else [0.1, 0.5, 1.0]
        pts = schedule_points(er, [0.1, 0.5] if fidelity != "smoke" else [0.5], overrides)
        pts += schedule_points(st, fixed_st, overrides)
        return [p for i, p in enumerate(pts) if p not in pts[:i]]
