"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts": the
instances of its k-learning simulators as public families (see ``privbounds.instances``).
A trial has k target concepts, so a sample's labels are (n, k) and a predictor returns k
labels per point; it succeeds when every one of its k hypotheses is alpha-good.

- ``parities`` (Example 3.5 with Theorem 5.4; Theorem 3.12's Algorithm 4, which is
  (eps, delta)-DP and needs no more examples as k grows, runs the same distribution):
  x uniform on the Boolean cube {0,1}^d, k independent uniform target parities
  c_a(x) = <a, x> mod 2, noiseless labels. A point's features are its d bits. Two distinct
  parities disagree on half the cube, so for alpha < 1/2 success is exact recovery of all
  k targets (the event Theorem 5.4's packing bound is about).
- ``noisy_points`` (Corollary 3.9; Corollaries 3.3 and 3.4 run on the same instance):
  agnostic POINT_d. D puts mass 0.15 on 4 points, 0.025 on 8 and 0.01 on 20, placed at a
  random start with a random odd step in X_d = {0, ..., 2^d - 1}; each of the k targets is
  one of the 4 heavy points with probability 1/2, another support point with probability
  1/4, else a uniform point of X_d; every label of every column is flipped with
  probability 0.1. ``error`` is the excess error (1 - 2 x 0.1) P(h != c_t). A point x
  becomes the feature x / (2^d - 1).
"""

from __future__ import annotations

import numpy as np

from privbounds.instances.core import Draws, Family, Instance
from privbounds.params import Interval


def _parities(d: int, k: int) -> Instance:
    from privbounds.simulators.concepts import make_class

    cls = make_class("par", d)
    X = cls.domain_size

    def draw(n, trials, rng):
        # every trial has the whole cube, uniformly, as its support (views: no copies)
        support = np.broadcast_to(np.arange(X), (trials, X))
        probs = np.broadcast_to(np.full(X, 1.0 / X), (trials, X))
        targets = rng.integers(0, X, size=(trials, k))

        def labels_of(i):  # (X, k), (X,) for k = 1: per trial, since all trials' would be B x 2^d x k
            lab = cls.evaluate(targets[i][None, :], np.arange(X)[:, None]).astype(np.int64)
            return lab if k > 1 else lab[:, 0]
        return support, probs, None, labels_of
    return Instance("parities", {"d": d, "k": k}, X, draw, k=k, bits=d)


def _noisy_points(d: int, k: int) -> Instance:
    from privbounds.simulators.bns.cor3_9 import MASSES, NOISE, point_instance

    def draw(n, trials, rng):
        # the simulators' own instance (support, multinomial counts, binomial positives)
        support, counts, targets, positives = point_instance(d, n, k, trials, rng)

        def labels_of(i):  # the noiseless targets' labels on the support: (m, k)
            lab = (support[i][:, None] == targets[i][None, :]).astype(np.int64)
            return lab if k > 1 else lab[:, 0]
        probs = np.broadcast_to(MASSES, support.shape)
        return Draws(inst, support, probs, None, counts, labels_of, positives=positives.transpose(0, 2, 1))
    inst = Instance("noisy_points", {"d": d, "k": k}, 2 ** d, draw, k=k, noise=NOISE)
    return inst


FAMILIES = [
    Family("parities", "PAR_d: k uniform target parities under the uniform distribution on {0,1}^d",
           {"d": Interval("d", 2, 12, "both", integer=True), "k": Interval("k", 1, 1024, "both", integer=True)},
           "bns.ex3_5", {}, _parities, {"alpha": 0.1, "beta": 0.1, "epsilon": 1.0}, axis=None,
           grid={"d": [4, 6, 8], "k": [1, 4]},
           # Theorem 3.12's Algorithm 4 is (eps, delta)-DP and exact (any alpha < 1/2 is the same event)
           also=("bns.thm3_12",), also_defaults={"bns.thm3_12": {"delta": 1e-6}}),
    Family("noisy_points", "POINT_d, agnostic: 32 weighted support points, k targets, labels flipped with "
           "probability 0.1", {"d": Interval("d", 6, 30, "both", integer=True),
                               "k": Interval("k", 1, 1024, "both", integer=True)},
           "bns.cor3_9", {}, _noisy_points, {"alpha": 0.1, "beta": 0.1, "epsilon": 1.0, "delta": 1e-8},
           axis="rule", also=("bns.cor3_4", "bns.cor3_3"), grid={"d": [10], "k": [1, 4, 16]}),
]
