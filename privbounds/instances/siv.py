"""Sivakumar, "A Basic Overview of Private PAC Learning", Theorem 3.3: the instances its
simulator runs the exponential-mechanism learner on, as public families (see
``privbounds.instances``).

- ``thresholds``: THRESH_d under the 4-point cluster (class "thresh"): D uniform on four
  consecutive points p1 < p2 < p3 < p4 of X_d = {0, ..., 2^d - 1} at a uniform place,
  target c(x) = 1 iff x >= p3; a predictor is alpha-good for alpha = 1/4 iff it errs on at
  most one of the four points.
- ``points``: POINT_d with mass 1/2 on the target x* and 1/2 on a decoy (class "point");
  target c(x) = 1 iff x = x*.

Features: x becomes the single feature x / (2^d - 1), in [0, 1] (so a library that needs
a bound on the data's norm gets 1).
"""

from __future__ import annotations

import numpy as np

from privbounds.instances.core import Family, Instance
from privbounds.params import Interval


def _thresholds(d: int) -> Instance:
    from privbounds.simulators.concepts import make_class
    from privbounds.simulators.instances import threshold_cluster

    cls = make_class("thresh", d)

    def draw(n, trials, rng):
        inst = threshold_cluster(cls.domain_size, trials, 1, rng)
        return inst.support, inst.probs, cls.evaluate(inst.targets, inst.support).astype(np.int64)
    return Instance("thresholds", {"d": d}, cls.domain_size, draw)


def _points(d: int) -> Instance:
    from privbounds.simulators.concepts import make_class
    from privbounds.simulators.instances import point_pair

    cls = make_class("point", d)

    def draw(n, trials, rng):
        inst = point_pair(cls.domain_size, trials, rng)
        return inst.support, inst.probs, cls.evaluate(inst.targets, inst.support).astype(np.int64)
    return Instance("points", {"d": d}, cls.domain_size, draw)


D = Interval("d", 2, 20, "both", integer=True)
FAMILIES = [
    Family("thresholds", "THRESH_d under Sivakumar's 4-point cluster (target p3)", {"d": D},
           "siv.thm3_3", {"class": "thresh"}, _thresholds),
    Family("points", "POINT_d, mass 1/2 on the target and 1/2 on a decoy", {"d": D},
           "siv.thm3_3", {"class": "point"}, _points),
]
