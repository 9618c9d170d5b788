"""Wang, Lei and Fienberg, "Learning with Differential Privacy" (JMLR 2016): Examples 16
and 17, the problem Z = [0, 1], H = the finite subsets of [0, 1], loss 1{z not in h}.

- Example 16 (the simulator): the support-ERM (output the set of observed points) on a
  distribution with at most N atoms has risk = the missing mass sum_j p_j 1{atom j
  unseen}, exact per dataset (the sample enters as multinomial counts on the atoms). Its
  expectation is sum_j p_j (1 - p_j)^n <= N / (e n) <= N / n.
- Example 17 (``ex17_row``, checked by a unit test; the entry is bound-only): D = uniform
  on [0, 1] (continuous). A finite set has probability 0, so every h has R(h) = 1 = R*,
  while the empirical risk of "output Z" is 0. The four values (R, R_hat, AERM gap,
  generalisation gap) of the empty set and of "output Z" from a drawn sample: membership
  of each z_i in h, and D's mass of h (0 for a finite set).
"""

from __future__ import annotations

import numpy as np

from privbounds.params import Interval, Options
from privbounds.simulators.engine.simulator import Fidelity, Simulator

FIDELITIES = {"smoke": Fidelity(trials=40, block=40, steps=1, audit=0.25),
              "quick": Fidelity(trials=300, block=300, steps=1, audit=1.0),
              "full": Fidelity(trials=2000, block=500, steps=1, audit=2.0)}


def atom_masses(dist: str, support: int, zipf: float = 1.1) -> np.ndarray:
    """Uniform, or Zipf(zipf) (p_j proportional to j^-zipf), on ``support`` atoms."""
    if dist == "uniform":
        return np.full(support, 1.0 / support)
    w = np.arange(1, support + 1, dtype=float) ** -zipf
    return w / w.sum()


def missing_mass(p: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Risk of the support-ERM: the mass of the atoms with count 0 (each row of counts)."""
    return (counts == 0) @ p


def expected_missing_mass(row: dict) -> float:
    """The support-ERM's expected risk in closed form, sum_j p_j (1 - p_j)^n, at a row (the
    point with its n): the exact value the Monte Carlo mean estimates. (1 - p)^n is taken
    as exp(n log1p(-p)), which keeps every digit where p is small and n large."""
    p = atom_masses(row["dist"], row["support"])
    return float(p @ np.exp(row["n"] * np.log1p(-p)))


def support_erm_risk(p: np.ndarray, n: int, trials: int, rng: np.random.Generator) -> np.ndarray:
    """Exact risk of the support-ERM on ``trials`` samples of n points from the atoms p."""
    return missing_mass(p, rng.multinomial(n, p, size=trials))


class WlfEx16(Simulator):
    """Ex 16: missing mass of the support-ERM against N/n and N/(e n); the 3n-atom impossibility."""

    theorem_id = "wlf.ex16"
    measure = "mean"
    fidelities = FIDELITIES
    params = {"support": Interval(1, 1 << 20, "both", integer=True),
              "dist": Options(("uniform", "zipf")),
              "learner": Options(("support_erm",))}

    def grid(self, fidelity, overrides):
        sizes = overrides.get("support", [10, 100, 1000] if fidelity != "smoke" else [10, 100])
        return [{"learner": "support_erm", "dist": d, "support": s} for d in overrides.get("dist", ("uniform", "zipf"))
                for s in sizes]

    def curve(self, point):
        s = point["support"]
        return sorted({max(1, int(round(s * r))) for r in (0.25, 0.5, 1, 2, 4, 16, 100)})

    def privacy(self, point):
        return {"epsilon": None, "delta": None, "accounting": "non-private (outputs the observed points)"}

    def trials_factor(self, point):
        # at n = 100 N the missing mass is almost always exactly 0, and trials that all give
        # one value only bound the mean by about ln(2m/0.05)/trials (engine.stats.mean_interval):
        # 8 x the trials resolve the smallest bound of the grid, N/(e n) = 0.0037
        return 8

    def run_trials(self, point, n, trials, rng):
        return support_erm_risk(atom_masses(point["dist"], point["support"]), n, trials, rng)


def ex17_row(learner: str, quantity: str, z: np.ndarray) -> np.ndarray:
    """One of Ex 17's quantities for each sample (rows of z, drawn from U[0, 1]).

    h is the empty set or the set of the sample's points. R(h) = 1 - D(h), and D(h) = 0 for
    every finite h under a continuous D; R_hat(h, Z) = share of the z_i not in h; the best
    empirical risk R_hat* = 0 (h = Z)."""
    trials, n = z.shape
    if learner == "empty":
        inside = np.zeros((trials, n), bool)
    else:  # h = Z: every z_i is in h (checked as membership, not assumed)
        shift = 2.0 * np.arange(trials)[:, None]  # rows apart, so one sorted array holds every h
        h = (np.sort(z, axis=1) + shift).ravel()
        q = (z + shift).ravel()
        pos = np.clip(np.searchsorted(h, q), 0, h.size - 1)
        inside = (h[pos] == q).reshape(trials, n)
    mass = np.zeros(trials)  # D(h): a finite set has Lebesgue measure 0
    risk = 1.0 - mass
    emp = 1.0 - inside.mean(axis=1)
    best = np.zeros(trials)  # R_hat(Z, Z) = 0
    values = {"risk": risk, "empirical_risk": emp, "aerm_gap": emp - best, "generalisation_gap": risk - emp}
    return values[quantity]
