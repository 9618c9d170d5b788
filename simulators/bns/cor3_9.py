"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts",
Corollary 3.9 (and its k = 1 case, Theorem 2.23): POINT_X can be agnostically and
properly k-learned by Algorithm 2 over the point sanitizer (Alg 1) with a sample size
independent of |X|: about k / eps rows under basic composition, about
sqrt(k ln(1/delta)) / eps under advanced composition (the same algorithm, two
accountings; never pure, because Algorithm 1 is not).

Experiment (the catalog's, with a finite support so that every point that can win is
simulated): P puts mass 0.15 on 4 points, 0.025 on 8 and 0.01 on 20 (32 points placed
anywhere in X); labels of column j are c_{t_j}(x) flipped with probability eta = 0.1.
A target t_j is one of the 4 heavy points with probability 1/2 (so
that even k = 1 needs data: the all-zero answer fails), another support point with
probability 1/4, and a uniform point of X (mass 0 unless it hits the support) otherwise. For every
column the best point concept is t_j with error eta, and any other u has excess error
(1 - 2 eta)(P(t_j) + P(u)), which is what success (all k excesses <= alpha) uses.
The sample enters as its counts at the 32 points (multinomial) and the positives of
every column at each (binomial): exactly the distribution of the statistics Algorithm 2
reads, so n up to millions costs nothing extra.
"""

from __future__ import annotations

import numpy as np

from privbounds.bounds.bns import alg2_budget
from privbounds.bounds.tools import COMPOSITION_RULES
from privbounds.params import ALPHA_BELOW_HALF, APPROX_DELTA, BETA, EPSILON_AT_MOST_4, Interval, Options
from privbounds.simulators.accuracy import within
from privbounds.simulators.engine.simulator import Simulator, expand, sweeps
from privbounds.simulators.learners import chunks
from privbounds.simulators.sanitize_learn import alg2_points

# delta well below 1/n for every n searched (up to 2^22): approximate privacy with
# delta >= 1/n would allow publishing a row
DELTA = 1e-8
N_HEAVY = 4
MASSES = np.r_[np.full(N_HEAVY, 0.15), np.full(8, 0.025), np.full(20, 0.01)]
NOISE = 0.1


def point_instance(d: int, n: int, k: int, b: int, rng: np.random.Generator):
    """(support, counts, targets, positives) for b trials of the agnostic POINT instance."""
    X, m = 2 ** d, MASSES.size
    start = rng.integers(0, X, size=(b, 1))
    step = 2 * rng.integers(0, X // 2, size=(b, 1)) + 1    # odd step: distinct points mod 2^d
    support = (start + step * np.arange(m)) % X
    counts = rng.multinomial(n, MASSES, size=b)
    u = rng.random((b, k))
    slot = np.where(u < 0.5, rng.integers(0, N_HEAVY, size=(b, k)), rng.integers(N_HEAVY, m, size=(b, k)))
    targets = np.where(u < 0.75, np.take_along_axis(support, slot, axis=1), rng.integers(0, X, size=(b, k)))
    p_one = np.where(support[:, None, :] == targets[:, :, None], 1 - NOISE, NOISE)
    positives = rng.binomial(np.broadcast_to(counts[:, None, :], p_one.shape), p_one)
    return support, counts, targets, positives


def excess_error(h, targets, support):
    """err_P(c_h) - min_u err_P(c_u) for every column: 0 if h = t, else
    (1 - 2 eta)(P(t) + P(h))."""
    def mass(x):
        return np.sum(np.where(support[:, None, :] == x[:, :, None], MASSES, 0.0), axis=-1)
    return np.where(h == targets, 0.0, (1 - 2 * NOISE) * (mass(targets) + mass(h)))


class Alg2PointsSimulator(Simulator):
    """Algorithm 2 with Algorithm 1 on the agnostic POINT instance; subclasses choose
    the grid (Cor 3.9: k; Thm 2.23: k = 1 and eps)."""

    params = {
        "d": Interval("d", 6, 30, "both", integer=True),
        "k": Interval("k", 1, 1 << 14, "both", integer=True),
        "rule": Options("rule", COMPOSITION_RULES),
        "alpha": ALPHA_BELOW_HALF,
        "epsilon": EPSILON_AT_MOST_4,
        "delta": APPROX_DELTA,
        "beta": BETA,
    }

    def check_point(self, point):
        super().check_point(point)
        self.require_small_delta(point, " for Algorithm 1")

    def privacy(self, point):
        e_san, d_san, eps0 = alg2_budget(point["epsilon"], point["k"], point["rule"], point["delta"])
        how = ("basic composition: Alg 1 at (eps/2, delta), k exponential mechanisms at eps/(2k)"
               if point["rule"] == "basic" else
               "Alg 1 at (eps/2, delta/2); k exponential mechanisms at eps0 = "
               f"{eps0:.3g}, (eps/2, delta/2)-DP together by advanced composition")
        return {"epsilon": point["epsilon"], "delta": point["delta"], "accounting": how}

    def n_range(self, point):
        return 8, 1 << 22

    def run_trials(self, point, n, trials, rng):
        k = point["k"]
        e_san, d_san, eps0 = alg2_budget(point["epsilon"], k, point["rule"], point["delta"])
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 4 * k * (MASSES.size + 1)):
            b = sl.stop - sl.start
            support, counts, targets, positives = point_instance(point["d"], n, k, b, rng)
            h = alg2_points(support, counts, positives, n, e_san, d_san, eps0, rng)
            ok[sl] = np.all(within(excess_error(h, targets, support), point["alpha"]), axis=1)
        return ok


class BnsCor39(Alg2PointsSimulator):
    theorem_id = "bns.cor3_9"
    _ks = {"smoke": [1, 16, 64], "quick": [1, 4, 16, 32, 64, 128, 256],
           "full": [1, 2, 4, 8, 16, 32, 64, 128, 256]}
    _ds = {"smoke": [8, 20], "quick": [6, 10, 14, 18, 22], "full": [6, 8, 10, 12, 14, 16, 18, 20, 22]}
    K_FOR_X = 16

    def grid(self, fidelity, overrides):
        base = {"alpha": [0.1], "epsilon": [1.0], "delta": [DELTA], "beta": [0.1]}
        return sweeps({"d": [10], "k": self._ks[fidelity], "rule": list(COMPOSITION_RULES), **base},
                      {"d": self._ds[fidelity], "k": [self.K_FOR_X], "rule": ["basic"], **base}, overrides, ("d", "k"))


class BnsThm223(Alg2PointsSimulator):
    """Theorem 2.23 is Algorithm 2 with k = 1 (the catalog: "run Alg 2 with k = 1")."""

    theorem_id = "bns.thm2_23"
    _eps = {"smoke": [1.0, 0.25], "quick": [2.0, 1.0, 0.5, 0.25, 0.125],
            "full": [4.0, 2.0, 1.0, 0.5, 0.25, 0.125, 0.0625]}

    def grid(self, fidelity, overrides):
        return expand({"d": [10], "k": [1], "rule": ["basic"], "alpha": [0.1], "epsilon": self._eps[fidelity],
                       "delta": [DELTA], "beta": [0.1]}, overrides)


class BnsLem37(Alg2PointsSimulator):
    """Lemma 3.7 (Algorithm 2 with a generic sanitizer) through its point instance: the
    explicit three-event bound against n_hat at several accuracies, both accountings."""

    theorem_id = "bns.lem3_7"
    # alpha < 0.12 = (1 - 2 eta) 0.15: above it, answering "no point" is already accurate
    _alphas = {"smoke": [0.1, 0.05], "quick": [0.1, 0.07, 0.05, 0.035], "full": [0.1, 0.085, 0.07, 0.06, 0.05, 0.035]}

    def grid(self, fidelity, overrides):
        return expand({"d": [10], "k": [16], "rule": list(COMPOSITION_RULES), "alpha": self._alphas[fidelity],
                       "epsilon": [1.0], "delta": [DELTA], "beta": [0.1]}, overrides)
