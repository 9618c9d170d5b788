"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts": the
instances of its k-learning simulators (and of its non-private baselines) as public families (see ``privbounds.instances``).
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
  probability 0.1. ``error`` is the excess error (1 - 2 x 0.1) P(h != c_t).
- ``noisy_thresholds`` (Corollary 3.10; Theorem 3.1 and Lemma 3.6 run it on X = {0..7},
  d = 3, since their generic sanitizers are affordable only there; Theorems 2.8 and 2.11,
  uniform convergence, run it too, but they measure no learner): agnostic THRESH_d, rows
  uniform on X_d, k targets t_j uniform in {0, ..., 2^d}, c_t(x) = 1[x >= t], every label
  flipped with probability 0.1; ``error`` is the excess error 0.8 P(h != c_t).
- ``tail_points`` (Theorem 3.13, Algorithm 5): POINT_d realizable, mass 0.15 on 4 points,
  0.025 on 8, and a uniform tail of mass 0.2 over X_d; a target is one of the 12 points
  with probability 1/2, else a uniform point of X_d. Scored by the sum over X_d (d <= 16).
- ``uniform_thresholds`` and ``heavy_points`` (Corollary 2.12 and Theorem 2.7: non-private
  ERM, the curve the private k-learners are set against; ``parities`` is their third
  class): THRESH_d with rows uniform on X_d and k uniform targets, noiseless; POINT_d with
  D uniform on 8 random points and every target one of them.

A point x of X_d becomes the feature x / (2^d - 1) (``parities``: its d bits). The
families whose support is all of X_d hold a trial's (2^d, k) labels, so 2^d k is capped.
"""

from __future__ import annotations

import numpy as np

from privbounds.instances.core import Draws, Family, Instance
from privbounds.params import Interval, ParameterError


def _parities(d: int, k: int) -> Instance:
    from privbounds.simulators.shared.concepts import make_class

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


def _line_labels(targets, X: int, k: int, op):
    """labels_of for a family whose support is all of X_d: trial i's (X, k) labels
    ``op(x, t_j)`` ((X,) for k = 1)."""
    def labels_of(i):
        lab = op(np.arange(X)[:, None], targets[i][None, :]).astype(np.int64)
        return lab if k > 1 else lab[:, 0]
    return labels_of


def _check_size(name: str, d: int, k: int, cap: int) -> None:
    # every trial's labels, and a predictor's answers, over the whole domain are (|X|, k)
    if (2 ** d) * k > cap:
        raise ParameterError(f"k: the instance {name} scores a predictor on all 2^d x k labels, at most "
                             f"2^{cap.bit_length() - 1}; got d = {d}, k = {k}")


def _noisy_thresholds(d: int, k: int) -> Instance:
    from privbounds.simulators.bns.cor3_10 import NOISE

    _check_size("noisy_thresholds", d, k, 1 << 20)
    X = 2 ** d

    def draw(n, trials, rng):
        support = np.broadcast_to(np.arange(X), (trials, X))
        probs = np.broadcast_to(np.full(X, 1.0 / X), (trials, X))
        counts = rng.multinomial(n, np.full(X, 1.0 / X), size=trials)
        targets = rng.integers(0, X + 1, size=(trials, k))
        labels_of = _line_labels(targets, X, k, np.greater_equal)
        # a trial's positives (how many of a point's rows carry label 1, per column) are drawn
        # when its sample is asked for, from a seed of its own: the same at every call, and
        # never all trials' (X, k) at once
        seeds = rng.integers(0, 2 ** 63, size=trials)

        def positives_of(i):
            clean = labels_of(i).reshape(X, k)
            return np.random.default_rng(seeds[i]).binomial(counts[i][:, None], np.where(clean, 1 - NOISE, NOISE))
        return Draws(inst, support, probs, None, counts, labels_of, positives_of=positives_of)
    inst = Instance("noisy_thresholds", {"d": d, "k": k}, X, draw, k=k, noise=NOISE)
    return inst


def _tail_points(d: int, k: int) -> Instance:
    from privbounds.simulators.bns.thm3_13 import MASSES, TAIL_MASS, draw_instance

    _check_size("tail_points", d, k, 1 << 22)
    X = 2 ** d

    def draw(n, trials, rng):
        # the simulator's own instance (12 support points and the targets; no rows: the counts
        # over X_d are drawn from the exact probabilities, never trials x n rows at once)
        heavy, _, targets = draw_instance(X, 0, k, trials, rng)
        probs = np.full((trials, X), TAIL_MASS / X)
        np.put_along_axis(probs, heavy, MASSES + TAIL_MASS / X, axis=1)  # the 12 points are distinct
        return np.broadcast_to(np.arange(X), (trials, X)), probs, None, _line_labels(targets, X, k, np.equal)
    return Instance("tail_points", {"d": d, "k": k}, X, draw, k=k)


def _uniform_thresholds(d: int, k: int) -> Instance:
    _check_size("uniform_thresholds", d, k, 1 << 22)
    X = 2 ** d

    def draw(n, trials, rng):
        targets = rng.integers(0, X + 1, size=(trials, k))
        return (np.broadcast_to(np.arange(X), (trials, X)), np.broadcast_to(np.full(X, 1.0 / X), (trials, X)),
                None, _line_labels(targets, X, k, np.greater_equal))
    return Instance("uniform_thresholds", {"d": d, "k": k}, X, draw, k=k)


def _heavy_points(d: int, k: int) -> Instance:
    from privbounds.simulators.bns.cor2_12 import heavy_points

    def draw(n, trials, rng):
        support, probs, targets = heavy_points(2 ** d, k, trials, rng)
        labels = (support[:, :, None] == targets[:, None, :]).astype(np.int64)
        return support, probs, labels if k > 1 else labels[:, :, 0]
    return Instance("heavy_points", {"d": d, "k": k}, 2 ** d, draw, k=k)


K = Interval(1, 4096, "both", integer=True)
# Corollary 2.12 and Theorem 2.7 (non-private ERM, the reference for the private k-learners)
BASELINE_DEFAULTS = {"alpha": 0.1, "beta": 0.25}
FAMILIES = [
    Family("parities", "PAR_d: k uniform target parities under the uniform distribution on {0,1}^d",
           {"d": Interval(2, 12, "both", integer=True), "k": Interval(1, 1024, "both", integer=True)},
           "bns.ex3_5", {}, _parities, {"alpha": 0.1, "beta": 0.1, "epsilon": 1.0}, axis=None,
           grid={"d": [4, 6, 8], "k": [1, 4]},
           # Theorem 3.12's Algorithm 4 is (eps, delta)-DP and exact (any alpha < 1/2 is the same event)
           also=("bns.thm3_12", "bns.cor2_12", "bns.thm2_7"),
           also_defaults={"bns.thm3_12": {"delta": 1e-6}, "bns.cor2_12": BASELINE_DEFAULTS,
                          "bns.thm2_7": BASELINE_DEFAULTS},
           also_points={"bns.cor2_12": {"class": "par"}, "bns.thm2_7": {"class": "par"}}),
    Family("noisy_points", "POINT_d, agnostic: 32 weighted support points, k targets, labels flipped with "
           "probability 0.1", {"d": Interval(6, 30, "both", integer=True),
                               "k": Interval(1, 1024, "both", integer=True)},
           "bns.cor3_9", {}, _noisy_points, {"alpha": 0.1, "beta": 0.1, "epsilon": 1.0, "delta": 1e-8},
           axis="rule", also=("bns.cor3_4", "bns.cor3_3"), grid={"d": [10], "k": [1, 4, 16]}),
    Family("noisy_thresholds", "THRESH_d, agnostic: rows uniform on X_d, k uniform targets, labels flipped with "
           "probability 0.1", {"d": Interval(2, 12, "both", integer=True), "k": K},
           "bns.cor3_10", {}, _noisy_thresholds, {"alpha": 0.1, "beta": 0.1, "epsilon": 1.0, "delta": 1e-8},
           axis="rule", grid={"d": [10], "k": [1, 4, 16]},
           # Theorem 3.1 and Lemma 3.6 run Algorithm 2 over generic sanitizers, affordable on X = {0..7} only
           also=("bns.thm3_1", "bns.lem3_6"),
           also_defaults={"bns.thm3_1": {"d": 3, "alpha": 0.15}, "bns.lem3_6": {"d": 3, "alpha": 0.15}}),
    Family("tail_points", "POINT_d: 12 weighted support points and a uniform tail of mass 0.2 over X_d, k targets",
           # Theorem 3.13 needs 2^d >= 48 (room for the 12 support points)
           {"d": Interval(6, 16, "both", integer=True), "k": K}, "bns.thm3_13", {}, _tail_points,
           {"alpha": 0.1, "beta": 0.1, "epsilon": 1.0, "delta": 1e-6}, axis=None, grid={"d": [10], "k": [1, 16, 256]}),
    Family("uniform_thresholds", "THRESH_d, realizable: rows uniform on X_d, k uniform targets",
           {"d": Interval(2, 16, "both", integer=True), "k": K}, "bns.cor2_12", {"class": "thresh"},
           _uniform_thresholds, {**BASELINE_DEFAULTS, "epsilon": 1.0}, axis=None, grid={"d": [10], "k": [1, 16, 256]},
           also=("bns.thm2_7",), also_points={"bns.thm2_7": {"class": "thresh"}}),
    Family("heavy_points", "POINT_d, realizable: 8 random points of mass 1/8 each, k targets among them",
           {"d": Interval(3, 16, "both", integer=True), "k": K}, "bns.cor2_12", {"class": "point"},
           _heavy_points, {**BASELINE_DEFAULTS, "epsilon": 1.0}, axis=None, grid={"d": [10], "k": [1, 16, 256]}),
]
