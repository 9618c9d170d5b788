"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts": the
instances of its k-learning simulators as public families (see ``privbounds.instances``).
A trial has k target concepts, so a sample's labels are (n, k) and a predictor returns k
labels per point; it succeeds when every one of its k hypotheses is alpha-good.

- ``parities`` (Example 3.5 with Theorem 5.4; Theorem 3.12 runs the same distribution):
  x uniform on the Boolean cube {0,1}^d, k independent uniform target parities
  c_a(x) = <a, x> mod 2, noiseless labels. A point's features are its d bits. Two distinct
  parities disagree on half the cube, so for alpha < 1/2 success is exact recovery of all
  k targets (the event Theorem 5.4's packing bound is about).
"""

from __future__ import annotations

import numpy as np

from privbounds.instances.core import Family, Instance
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

        def labels_of(i):  # (X, k): computed per trial, since all trials' would be B x 2^d x k
            return cls.evaluate(targets[i][None, :], np.arange(X)[:, None]).astype(np.int64)
        return support, probs, None, labels_of
    return Instance("parities", {"d": d, "k": k}, X, draw, k=k, bits=d)


FAMILIES = [
    Family("parities", "PAR_d: k uniform target parities under the uniform distribution on {0,1}^d",
           {"d": Interval("d", 2, 12, "both", integer=True), "k": Interval("k", 1, 1024, "both", integer=True)},
           "bns.ex3_5", {}, _parities, {"alpha": 0.1, "beta": 0.1, "epsilon": 1.0}, axis=None),
]
