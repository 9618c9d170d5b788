"""Sivakumar, "A Basic Overview of Private PAC Learning", Theorems 3.3 and 3.4: the
instances their simulators run the private learners on, as public families (see
``privbounds.instances``).

- ``thresholds``: THRESH_d under the 4-point cluster (class "thresh"): D uniform on four
  consecutive points p1 < p2 < p3 < p4 of X_d = {0, ..., 2^d - 1} at a uniform place,
  target c(x) = 1 iff x >= p3; a predictor is alpha-good for alpha = 1/4 iff it errs on at
  most one of the four points.
- ``points``: POINT_d with mass 1/2 on the target x* and 1/2 on a decoy (class "point");
  target c(x) = 1 iff x = x*.
- ``cluster_thresholds`` (Theorem 3.4, a finite shadow of the impossibility on [0, 1]; its
  learners are the pure exponential mechanism, a private binary search and Theorem 2.2's
  midpoint ERM, whose cluster instance this is too): the same cluster on grids of 2^b
  points, b up to 48 (the parameter is the theorem's b).

Features: x becomes the single feature x / (|X| - 1), in [0, 1] (so a library that needs
a bound on the data's norm gets 1).
"""

from __future__ import annotations

import numpy as np

from privbounds.instances.core import Family, Instance
from privbounds.params import Interval


def _thresholds(d: int, name: str = "thresholds", key: str = "d") -> Instance:
    from privbounds.simulators.shared.instances import threshold_cluster

    def draw(n, trials, rng):
        inst = threshold_cluster(2 ** d, trials, 1, rng)
        return inst.support, inst.probs, (inst.support >= inst.targets).astype(np.int64)  # c(x) = 1[x >= p3]
    return Instance(name, {key: d}, 2 ** d, draw)


def _cluster_thresholds(b: int) -> Instance:
    return _thresholds(b, "cluster_thresholds", "b")


def _points(d: int) -> Instance:
    from privbounds.simulators.shared.concepts import make_class
    from privbounds.simulators.shared.instances import point_pair

    cls = make_class("point", d)

    def draw(n, trials, rng):
        inst = point_pair(cls.domain_size, trials, rng)
        return inst.support, inst.probs, cls.evaluate(inst.targets, inst.support).astype(np.int64)
    return Instance("points", {"d": d}, cls.domain_size, draw)


D = Interval(2, 20, "both", integer=True)
# 2^48 grid points still have distinct features x / (2^b - 1) in float64 (53-bit mantissa)
B = Interval(2, 48, "both", integer=True)
FAMILIES = [
    Family("thresholds", "THRESH_d under Sivakumar's 4-point cluster (target p3)", {"d": D},
           "siv.thm3_3", {"class": "thresh"}, _thresholds),
    Family("points", "POINT_d, mass 1/2 on the target and 1/2 on a decoy", {"d": D},
           "siv.thm3_3", {"class": "point"}, _points),
    # Theorem 3.4's finite shadow: the same cluster on grids of up to 2^48 points, beside its
    # pure and approximate private learners and Theorem 2.2's midpoint ERM
    Family("cluster_thresholds", "THRESH_b under the 4-point cluster on grids of 2^b points (up to 2^48)",
           {"b": B}, "siv.thm3_4", {}, _cluster_thresholds,
           {"alpha": 0.25, "beta": 0.25, "epsilon": 1.0, "delta": 1e-6}, grid={"b": [4, 16, 32, 48]}),
]
