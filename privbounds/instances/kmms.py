"""Kaplan, Mansour, Matias and Stemmer, "Differentially Private Learning of Geometric
Concepts" (ICML 2019): the instances of its simulators as public families (see
``privbounds.instances``).

- ``kgon`` (Theorem 4.7, the halfplane instances; a k-gon is an intersection of k
  halfplanes): a convex k-gon target on the grid X_d^2 = {0..d}^2 under the band
  distribution: a regular k-gon of radius 0.38 d, randomly rotated and shifted; P is 1/2
  uniform on the grid points inside and 1/2 on those outside within distance 0.15 d;
  c(p) = 1 inside. A grid point (x, y) becomes the features (x / d, y / d), of norm at
  most sqrt(2).
"""

from __future__ import annotations

import numpy as np

from privbounds.instances.core import Family, Instance
from privbounds.params import Interval


def _kgon(d: int, k: int) -> Instance:
    from privbounds.simulators.halfplanes import band_distribution, check_kgon_fits, grid_points

    check_kgon_fits(d, k)  # a grid too small for a k-gon is refused with the d it needs
    xs, ys = grid_points(d)
    coords = np.stack([xs, ys], axis=1) / d

    def draw(n, trials, rng):
        probs, inside = band_distribution(d, k, trials, rng)
        # the support is the grid points of positive mass (the band and the inside)
        m = int((probs > 0).sum(axis=1).max())
        order = np.argsort(probs <= 0, axis=1, kind="stable")[:, :m]
        p = np.take_along_axis(probs, order, axis=1)
        return order, p, np.take_along_axis(inside, order, axis=1).astype(np.int64)
    return Instance("kgon", {"d": d, "k": k}, xs.size, draw, coords)


GRID_D = Interval("d", 1, 32, "both", integer=True)  # kmms.thm4_7's domain mode: d <= 32
K = Interval("k", 3, None, "left", integer=True)
FAMILIES = [
    Family("kgon", "a convex k-gon on X_d^2 under the band distribution", {"d": GRID_D, "k": K},
           "kmms.thm4_7", {}, _kgon, {"alpha": 0.2, "beta": 0.1, "epsilon": 0.99, "delta": 1e-6},
           grid={"d": [8], "k": [3, 4]}),
]
