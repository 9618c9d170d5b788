"""Bassily et al., "Private Query Release Assisted by Public Data" (ICML 2020), Lemma 5.4
(Alon, Bassily, Moran 2019, Thm 4.1): a PAP learner for a class of infinite Littlestone
dimension needs Omega(1/alpha) public samples, alpha its excess error.

The reduction (our reconstruction; pap_learning): a point x0 with a label y0 on which
every hypothesis agrees (thresholds on [T]: x0 = T appended on the right, y0 = -1, the
class {h_t : t <= T}); the mixture D_lambda = (1 - lambda)(x0, y0) + lambda D with
lambda = 1/m for a learner B with m public samples. Under D_lambda B's public sample is
all x0 with probability (1 - 1/m)^m >= 1/4; then B sees nothing of D but its private
sample, which a learner P WITHOUT public data can simulate from real samples of D (each
draw (x0, y0) with probability 1 - 1/m, else the next unused real sample, about n'/m
consumed). Every h agrees with (x0, y0), so err_{D_lambda}(h) = lambda err_D(h) and an
excess alpha' of B on D_lambda is an excess m alpha' of P on D.

B is Lemma 5.3's learner (Algorithm 3 on the loss class, argmin) at alpha = 0.2 with our
explicit private size n' for its cover sizes. Measures, at m = 2 .. 128 (256 at full; each point's
curve has the single n = m, the public size):
- ``all_x0`` / ``some_d``: the public sample of m draws from the mixture is all x0 / holds
  a point of D (sampled as the reduction does, one coin per draw), 25x the trials;
- ``consumed``: P's private sample uses K real samples, K ~ Binomial(n', 1/m); the event
  is |K - n'/m| > 3 sqrt(n'/m) (4x the trials);
- ``learner``: B on D_lambda, success = excess error on D_lambda <= alpha' (0.01);
- ``private_only``: P on D, success = excess error on D <= m alpha' (the guarantee the
  reduction transfers).
Fixed distributions so that the excess E of the first hypothesis h_0 is exact: x uniform
on [256], labels from [0, T/2) (E = 0.4) or [T/4, 3T/4) (E = 0.2) with 10% noise. Given
an all-x0 public sample our B's cover is {h_0}, so P outputs h_0: B fails at excess
alpha' whenever the public sample is all x0 and E > m alpha', and its success
probability is at most 1 - (1 - 1/m)^m there.

Privacy: B is audited under pap.lem5_3 (the same code); P's output is h_0 whatever its
private sample, so no event on it can show a loss (``unaudited``).
"""

from __future__ import annotations

import math

import numpy as np

from privbounds.bounds.pap import n_pmw_offline
from privbounds.params import ALPHA, Interval, Options
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.pap.common import DELTA, M_MAX, specs
from privbounds.simulators.pap.learning import (
    labelled_line,
    learn_thresholds,
    mixture_consumed,
    mixture_extend,
    mixture_private_counts,
    mixture_public,
    threshold_losses,
)
from privbounds.simulators.shared.accuracy import within

SIZE = 1 << 8  # the mixture mechanics do not depend on T (cells <= m + 2); small T keeps the histograms cheap
LEARNER_ALPHA = 0.2
EXCESS = 0.01  # alpha', the excess at which B is judged on the mixture
# of the two-sided all-x0 check: 25x trials (10,000 at quick) put the Bonferroni interval's half-width
# near 0.014, so a correct sampler straddles the tolerance with probability about 1e-3 per
# point, and one whose weight on D is 1/(m + 1) instead of 1/m is refuted for m <= 4
TOLERANCE = 0.03
Z = 3.0  # deviation of the consumed count, in standard units sqrt(n'/m)
MEASURES = ("all_x0", "some_d", "consumed", "learner", "private_only")
FACTORS = {"all_x0": 25, "some_d": 25, "consumed": 4, "learner": 1, "private_only": 1}
MS = {"smoke": [2, 8, 64], "quick": [2, 4, 8, 16, 32, 64, 128],
      "full": [2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256]}


def private_size(point) -> int:
    """n': our explicit PMW size for B's release at (alpha, beta) on the mixture's loss
    class (K <= m + 1 members, N <= 2(m + 2) cells on [T + 1])."""
    m, a, b = point["m"], point["alpha"], point["beta"]
    return int(n_pmw_offline(a / 2, b / 2, point["epsilon"], point["delta"], 2 * (m + 2), m + 1))


class PapLem54(Simulator):
    theorem_id = "pap.lem5_4"
    params = {"measure": Options(MEASURES), "target": Options(("threshold-mid", "interval-mid")),
              "m": Interval(1, M_MAX, "both", integer=True),
              "excess": Interval(0, 1, "neither"), "alpha": ALPHA,
              **specs("T", "beta", "epsilon", "delta")}
    unaudited = {
        "B, Lemma 5.3's learner, on the mixture": (
            "the same code as pap.lem5_3, whose release round is audited there (privacy-learner-round); here it "
            "only runs on other inputs."),
        "P, the mixture learner without public data": (
            "its output is the first hypothesis h_0 whatever its private sample (an all-x0 public sample leaves "
            "a one-member cover), so no event on it can show any privacy loss. Each real sample enters B's private "
            "sample at most once, so P is (eps, delta)-DP in the real samples as B is in its own."),
    }

    def grid(self, fidelity, overrides):
        base = {"T": [SIZE], "alpha": [LEARNER_ALPHA], "beta": [0.1], "epsilon": [1.0], "delta": [DELTA],
                "m": MS[fidelity]}
        pts = expand({"measure": ["all_x0", "some_d", "consumed"], **base}, overrides)
        pts += expand({"measure": ["learner", "private_only"], "target": ["threshold-mid", "interval-mid"],
                       "excess": [EXCESS], **base}, overrides)
        return pts

    def check_point(self, point):
        super().check_point(point)
        self.require_small_delta(point, " (n' is our explicit private size for B)")

    def privacy(self, point):
        if point["measure"] in ("learner", "private_only"):
            return {"epsilon": point["epsilon"], "delta": point["delta"],
                    "accounting": "B: Algorithm 3 on the loss class (PMW, advanced composition) + argmin; P: B on "
                                  "a private sample using each real sample at most once"}
        return {"epsilon": None, "delta": None, "accounting": "the reduction's sampling only: nothing is released"}

    def n_range(self, point):
        hi = max(point["m"], private_size(point))  # delta must stay below 1/n' as well
        return point["m"], hi

    def curve(self, point):
        return [point["m"]]

    def trials_factor(self, point):
        return FACTORS[point["measure"]]

    def run_trials(self, point, n, trials, rng):
        m, size, measure = n, point["T"], point["measure"]
        px = np.full((1, size), 1.0 / size)
        if measure in ("all_x0", "some_d"):
            all_x0 = (mixture_public(m, px, trials, rng) == size).all(axis=1)
            return all_x0 if measure == "all_x0" else ~all_x0
        n_prime = private_size(point)
        if measure == "consumed":
            mean = n_prime / m
            return np.abs(mixture_consumed(n_prime, m, trials, rng) - mean) > Z * math.sqrt(mean)
        pos, neg = labelled_line(point["target"], px, 1, rng)
        pos_l, neg_l = mixture_extend(pos, neg, m)
        args = (n_prime, point["alpha"], point["beta"], point["epsilon"], point["delta"], rng)
        if measure == "learner":  # B on D_lambda, with a public sample drawn from the mixture
            res = learn_thresholds(mixture_public(m, px, trials, rng), pos_l, neg_l, *args, t_max=size)
            err = threshold_losses(pos_l, neg_l)[:, : size + 1]  # the class: t <= T
            excess = err[0, res["t_hat"]] - err.min()
            return within(excess, point["excess"])
        # P: B with the public sample all x0 and the simulated private sample; judged on D
        counts, _ = mixture_private_counts(n_prime, m, pos, neg, trials, rng)
        res = learn_thresholds(np.full((trials, m), size), pos_l, neg_l, *args, t_max=size, private_counts=counts)
        err = threshold_losses(pos, neg)[0]
        return within(err[res["t_hat"]] - err.min(), m * point["excess"])
