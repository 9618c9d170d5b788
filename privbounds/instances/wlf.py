"""Wang, Lei and Fienberg, "Learning with Differential Privacy: Stability, Learnability
and the Sufficiency and Necessity of ERM Principle" (JMLR 2016): the instance of its
learning experiments that a user's learner can be run on, as a public family (see
``privbounds.instances``).

- ``pfin`` (Example 20 and Theorem 19; Lemmas 36 and 37, Corollary 9 and Theorem 7 run
  the same problem): P-fin, the M-bit class of thresholds on the grid of G = 2^M points
  x_j = (j + 1/2)/G (M = ``bits``), h_t(x_j) = 1 iff j >= t, t = 0..G. D puts its mass
  uniformly on the grid (``dist`` "uniform") or on the 4 grid points around the target
  ("cluster"); the target is the middle threshold t = G/2, and every label is flipped
  with probability 0.1 (an agnostic family, ``Instance.noise``). Every trial has this same
  D, as in the experiments (the theorems' rate is for every D; the experiments try these
  two); only the sample is random, drawn by the experiments' own sampler. A point's
  feature is x_j itself, in (0, 1); the target is x >= 1/2.

Scoring with label noise, as for every agnostic family: ``Draws.error`` is the excess
risk err_D(h) - R* = (1 - 2 x 0.1) P_D(h != target), exactly, where R* = 0.1 is the best
threshold's risk (the target's) and also the Bayes risk, so no predictor has a negative
excess; ``Draws.risk`` is err_D(h) = P[h(x) != y] itself. The theorems' excess risk,
E R(h) - R*, is the mean of ``error`` over the trials (and the learner's coins).

Not measurable: Example 20 and Theorem 19 bound the MEAN excess risk of Algorithm 1 at a
given n (a rate), not a sample size at which the excess is <= alpha with probability
1 - beta, so ``privbounds measure`` has no n_hat of the theorem's to set a learner's
beside. ``measure`` refuses the family and says so; ``draw``, samples, features, ``error``
and ``risk`` work, for a learner's own tests.

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

from privbounds.instances.core import Draws, Family, Instance
from privbounds.params import Interval, Options, ParameterError


def _pfin(bits: int, dist: str) -> Instance:
    from privbounds.simulators.wlf.alg1_rates import problem_of

    if dist == "cluster" and bits < 2:
        # cluster_problem puts 1/4 on each of 4 grid points, and a 1-bit grid has 2
        raise ParameterError(f"bits must be at least 2 for dist='cluster' (its 4 grid points), got {bits!r}")
    problem = problem_of({"bits": bits, "dist": dist})  # the experiments' own D (noise 0.1)
    g = problem.size
    coords = ((np.arange(g) + 0.5) / g)[:, None]  # the paper's grid x_j = (j + 1/2)/G
    points = np.flatnonzero(problem.p)  # the support: the grid points of positive mass
    target = (points >= problem.target).astype(np.int64)

    def draw(n, trials, rng):
        pos, neg = problem.sample(n, trials, rng)  # the label histograms the experiments draw
        # D is the same in every trial: broadcast views, no copies
        def shared(a):
            return np.broadcast_to(a, (trials, points.size))
        return Draws(inst, shared(points), shared(problem.p[points]), shared(target),
                     (pos + neg)[:, points], positives=pos[:, points, None])
    inst = Instance("pfin", {"bits": bits, "dist": dist}, g, draw, coords, noise=problem.noise)
    return inst


# the parameters of the theorem's simulator (alg1_rates.BITS, DIST; a test keeps them equal),
# declared here so that listing the families does not import the simulators
BITS = Interval(1, 16, "both", integer=True)
DIST = Options(("uniform", "cluster"))
FAMILIES = [
    Family(
        "pfin", "P-fin: thresholds on a grid of 2^bits points, uniform or 4-point cluster D, labels flipped w.p. 0.1",
        {"bits": BITS, "dist": DIST}, "wlf.ex20", {}, _pfin,
        # Example 20 has no alpha or beta, and its epsilon is the schedule eps(n) = sqrt((M + ln n)/n)
        defaults={}, axis="learner", grid={"bits": [4, 8], "dist": ["uniform"]},
        measurable=("wlf.ex20 (like wlf.thm19) bounds the mean excess risk of Algorithm 1 at each n, not a sample "
                    "size at which the excess risk is <= alpha with probability 1 - beta, so there is no n_hat of "
                    "the theorem's to compare with; score a learner with Draws.error (the excess risk) instead")),
]
