"""Wang, Lei and Fienberg, "Learning with Differential Privacy: Stability, Learnability
and the Sufficiency and Necessity of ERM Principle" (JMLR 2016): the instance of its
learning experiments that a user's learner can be run on, as a public family (see
``privbounds.instances``).

- ``pfin`` (Example 20 and Theorem 19; Lemmas 36 and 37, Corollary 9 and Theorem 7 run
  the same problem): P-fin, the M-bit class of thresholds on the grid of G = 2^M points
  x_j = (j + 1/2)/G (M = ``bits``), h_t(x_j) = 1 iff j >= t, t = 0..G. D puts its mass
  uniformly on the grid (``dist`` "uniform") or on the 4 grid points around the target
  ("cluster"); the target is the middle threshold t = G/2, and every label is flipped
  with probability 0.1 (agnostic). Every trial has this same D, as in the experiments
  (the theorems' rate is for every D; the experiments try these two); only the sample is
  random. A point's feature is x_j itself, in (0, 1); the target is x >= 1/2.

Scoring with label noise. ``Draws.error`` is the 0-1 risk
err_D(h) = P_{(x, y) ~ D}[h(x) != y] = sum_j p_j P(y != h(x_j) | x_j), exact over the
grid (the predictor is called once on the support's points), so it is never below the
noise, 0.1. ``Draws.excess`` is err_D(h) - R*, with R* = min_t err_D(h_t) the best
threshold's risk (``Draws.best``, 0.1 here, also the Bayes risk: the target is in the class
and the noise is below 1/2, so no predictor has a negative excess). The theorems' excess
risk, E R(h) - R*, is the mean of ``excess`` over the trials (and the learner's coins).
A sample is the experiments' own (finite.Problem.sample): a point drawn with both labels
is two entries of a counts sample (the same point, labels 1 and 0).

Not measurable: Example 20 and Theorem 19 bound the MEAN excess risk of Algorithm 1 at a
given n (a rate), not a sample size at which err_D(h) <= alpha with probability
1 - beta, so ``privbounds measure`` has no n_hat of the theorem's to set a learner's
beside (and with noisy labels err_D(h) <= alpha fails for every alpha < 0.1).
``measure`` refuses the family and says so; ``draw``, samples, features, ``error`` and
``excess`` work, for a learner's own tests.

Not public: the thresholds on [0, 1] of Proposition 12, Theorem 15 and Example 24. Their D
is continuous (uniform on an interval), and the exact err_D of a black-box predictor over
a continuous D has no closed form and no finite support to sum over (it has one for a
threshold predictor only), while an instance here never scores on a test sample.
Proposition 12's cluster datasets are, besides, not i.i.d. samples of a D (exactly half
of the points on each side of the window's centre) and its windows, down to 10^-40 wide,
are far below float64's resolution of a feature near 1/2 (the simulator works with
log-lengths).
"""

from __future__ import annotations

import numpy as np

from privbounds.instances.core import Draws, Family, Instance, predictions
from privbounds.params import Interval, Options, ParameterError


class AgnosticDraws(Draws):
    """``trials`` samples of a P-fin instance, whose labels are noisy. As in ``Draws``,
    ``support``, ``probs``, ``labels`` and ``counts`` are (B, 2m), over the cells (x, y) of
    the m grid points of positive mass: first every point with label 1, then every point
    with label 0, ``probs`` the cells' masses P(x, y), ``counts`` the sample's cells. So
    ``sample`` is ``Draws.sample`` (a point drawn with both labels is two entries of a
    counts sample), and ``error``, ``excess`` score a predictor once per point."""

    def __init__(self, instance: Instance, problem, pos: np.ndarray, neg: np.ndarray):
        points = np.flatnonzero(problem.p)  # the grid points of positive mass
        one = problem.p[points] * problem.label_one()[points]  # P(x_j, y = 1)
        zero = problem.p[points] - one  # P(x_j, y = 0)
        trials, m = pos.shape[0], points.size
        # D is the same in every trial: broadcast views, no copies
        super().__init__(instance, np.broadcast_to(np.concatenate([points, points]), (trials, 2 * m)),
                         np.broadcast_to(np.concatenate([one, zero]), (trials, 2 * m)),
                         np.broadcast_to(np.repeat(np.array([1, 0], np.int64), m), (trials, 2 * m)),
                         np.concatenate([pos[:, points], neg[:, points]], axis=1))
        self.problem, self.points, self._one, self._zero = problem, points, one, zero
        self.best = float(problem.risks().min())  # R*: the best threshold's err_D

    def column_errors(self, i: int, predict) -> np.ndarray:
        """err_D(h) = sum_j P(x_j, 1) [h(x_j) != 1] + P(x_j, 0) [h(x_j) != 0], exact: the
        predictor is called once on the m points (a randomised predictor is then one
        function of x, as a threshold learner's output is)."""
        if not 0 <= i < len(self):
            raise ParameterError(f"trial must be in [0, {len(self) - 1}], got {i!r}")
        got = predictions(predict, self.instance.features(self.points), 1)[:, 0]
        return np.array([self._one @ (got != 1) + self._zero @ (got != 0)])

    def excess(self, i: int, predict) -> float:
        """err_D(h) - R*, R* = min_t err_D(h_t) (``best``): the excess risk of trial i's
        predictor over the best in the class, exactly."""
        return self.error(i, predict) - self.best

    def excesses(self, predictors) -> np.ndarray:
        """The excess of one predictor per trial."""
        return np.array([self.excess(i, p) for i, p in enumerate(predictors)])


def _pfin(bits: int, dist: str) -> Instance:
    from privbounds.simulators.wlf.alg1_rates import problem_of

    if dist == "cluster" and bits < 2:
        # cluster_problem puts 1/4 on each of 4 grid points, and a 1-bit grid has 2
        raise ParameterError(f"bits must be at least 2 for dist='cluster' (its 4 grid points), got {bits!r}")
    problem = problem_of({"bits": bits, "dist": dist})  # the experiments' own D (noise 0.1)
    g = problem.size
    coords = ((np.arange(g) + 0.5) / g)[:, None]  # the paper's grid x_j = (j + 1/2)/G

    def draw(n, trials, rng):
        pos, neg = problem.sample(n, trials, rng)  # the label histograms the experiments draw
        return AgnosticDraws(inst, problem, pos, neg)
    inst = Instance("pfin", {"bits": bits, "dist": dist}, g, draw, coords)
    return inst


# the parameters of the theorem's simulator (alg1_rates.BITS, DIST; a test keeps them equal),
# declared here so that listing the families does not import the simulators
BITS = Interval("bits", 1, 16, "both", integer=True)
DIST = Options("dist", ("uniform", "cluster"))
FAMILIES = [
    Family(
        "pfin", "P-fin: thresholds on a grid of 2^bits points, uniform or 4-point cluster D, labels flipped w.p. 0.1",
        {"bits": BITS, "dist": DIST}, "wlf.ex20", {}, _pfin,
        # Example 20 has no alpha or beta, and its epsilon is the schedule eps(n) = sqrt((M + ln n)/n)
        defaults={}, axis="learner",
        measurable=("wlf.ex20 (like wlf.thm19) bounds the mean excess risk of Algorithm 1 at each n, not a sample "
                    "size at which err_D(h) <= alpha with probability 1 - beta, so there is no n_hat of the "
                    "theorem's to compare with (and with labels flipped w.p. 0.1 no predictor has err_D below 0.1); "
                    "score a learner with Draws.error and Draws.excess instead")),
]
