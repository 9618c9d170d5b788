"""Instances as a public API: the hard distributions and targets that the registered
simulators use, for a learner written outside privbounds.

A *family* (``get("thresholds")``) at fixed parameters (``family.make(d=8)``) is an
``Instance``. It draws samples (``draw``: a batch of independent trials, each a random
instance of the family and an i.i.d. sample from it, as counts on the instance's support),
maps domain points to the feature vectors a learner sees (``features``), and scores a
learner's predict function exactly over the distribution (``error``: err_D(h) summed
over the support, no test sample). One trial of a batch is handed to a learner as a
``Sample``, either as rows (X, y in a random order, what most libraries take) or as
counts over the support (a sufficient statistic, for learners that prefer it).

Families (each names the registered theorem whose instance it is):

- ``thresholds``: Sivakumar's 4-point cluster for THRESH_d (siv.thm3_3, class "thresh"):
  D uniform on four consecutive points p1 < p2 < p3 < p4 of X_d = {0, ..., 2^d - 1} at a
  uniform place, target c(x) = 1 iff x >= p3; a predictor is alpha-good for alpha = 1/4
  iff it errs on at most one of the four points.
- ``points``: POINT_d with mass 1/2 on the target x* and 1/2 on a decoy (siv.thm3_3,
  class "point"); target c(x) = 1 iff x = x*.

- ``kgon``: a convex k-gon target on the grid X_d^2 = {0..d}^2 under the band
  distribution (kmms.thm4_7: the halfplane instances of Kaplan, Mansour, Matias and
  Stemmer, a k-gon being an intersection of k halfplanes): a regular k-gon of radius
  0.38 d, randomly rotated and shifted; P is 1/2 uniform on the grid points inside and 1/2
  on those outside within distance 0.15 d; c(p) = 1 inside.

Features: a point x of X_d becomes the single feature x / (2^d - 1), in [0, 1] (so a
library that needs a bound on the data's norm gets 1); a grid point (x, y) of X_d^2
becomes (x / d, y / d), of norm at most sqrt(2).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from privbounds.params import Interval, ParameterError


@dataclass
class Sample:
    """One trial's sample. ``form`` "rows": X (n, f) features and y (n,) 0/1 labels in a
    uniformly random order, and ``points`` (n,) the domain points. ``form`` "counts": the
    distinct points drawn, ``support`` (m,) domain points, ``features`` (m, f), ``labels``
    (m,) and ``counts`` (m,) >= 1, how often each was drawn (sum n). (Under ``privbounds
    audit`` a learner's dataset has no domain points: ``points`` and ``support`` are None.)"""

    form: str
    n: int
    X: np.ndarray | None = None
    y: np.ndarray | None = None
    points: np.ndarray | None = None
    support: np.ndarray | None = None
    features: np.ndarray | None = None
    labels: np.ndarray | None = None
    counts: np.ndarray | None = None


@dataclass
class Draws:
    """``trials`` independent trials: support (B, m) domain points, probs (B, m) their
    probabilities, labels (B, m) the target's labels there, counts (B, m) the sample."""

    instance: Instance
    support: np.ndarray
    probs: np.ndarray
    labels: np.ndarray
    counts: np.ndarray

    def __len__(self) -> int:
        return self.support.shape[0]

    def sample(self, i: int, form: str = "rows", rng: np.random.Generator | None = None) -> Sample:
        """Trial i's sample as rows (shuffled with ``rng``, required for rows) or counts."""
        feats = self.instance.features(self.support[i])
        if form == "counts":
            # the points drawn at least once: a point never drawn, and its label, are not data
            seen = self.counts[i] > 0
            return Sample("counts", int(self.counts[i].sum()), support=self.support[i][seen], features=feats[seen],
                          labels=self.labels[i][seen].astype(np.int64), counts=self.counts[i][seen])
        if form != "rows":
            raise ParameterError(f"form must be 'rows' or 'counts', got {form!r}")
        if rng is None:
            raise ParameterError("rows need a random generator (rng) to shuffle their order")
        idx = rng.permutation(np.repeat(np.arange(self.support.shape[1]), self.counts[i]))
        return Sample("rows", int(idx.size), X=feats[idx], y=self.labels[i][idx].astype(np.int64),
                      points=self.support[i][idx])

    def errors(self, predictors) -> np.ndarray:
        """err_D of one predictor per trial, exactly: the probability mass of the support
        points it labels differently from the target."""
        return np.array([self.instance.error(p, self.support[i], self.probs[i], self.labels[i])
                         for i, p in enumerate(predictors)])


@dataclass
class Instance:
    """A family at fixed parameters; see the module docstring. Domain points are integers:
    the points of X_d, or the indices of the grid points of X_d^2 (row-major in x)."""

    family: str
    params: dict
    domain_size: int
    _draw: object = field(repr=False)
    # domain point index -> feature vector, for domains that are not a line (the k-gon's grid)
    _coords: np.ndarray | None = field(default=None, repr=False)

    @property
    def n_features(self) -> int:
        return 1 if self._coords is None else self._coords.shape[1]

    def features(self, points) -> np.ndarray:
        """Domain points (any shape) to features (..., f): x / (|X| - 1) in [0, 1] on a line,
        (x / d, y / d) on the grid X_d^2 (points are then indices of the grid's points)."""
        if self._coords is not None:
            return self._coords[np.asarray(points, dtype=np.int64)]
        x = np.asarray(points, dtype=float)
        return (x / max(self.domain_size - 1, 1))[..., None]

    def draw(self, n: int, trials: int, rng: np.random.Generator) -> Draws:
        """``trials`` random instances and an i.i.d. sample of size ``n`` from each."""
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ParameterError(f"n must be an integer >= 1, got {n!r}")
        support, probs, labels = self._draw(trials, rng)
        return Draws(self, support, probs, labels, rng.multinomial(int(n), probs))

    def error(self, predict, support, probs, labels) -> float:
        """err_D(h) for one trial's distribution (support, probs) and target labels, with
        h given as ``predict(features) -> labels`` or an object with ``.predict``."""
        f = getattr(predict, "predict", predict)
        raw = np.asarray(f(self.features(support)))
        if raw.shape not in ((len(labels),), (len(labels), 1)):
            raise ParameterError(f"the predictor must return one label per point, shape ({len(labels)},); it "
                                 f"returned shape {raw.shape} for {len(labels)} points")
        got = raw.reshape(-1)
        return float(np.sum(np.asarray(probs) * (got.astype(np.int64) != np.asarray(labels))))


def _thresholds(d: int) -> Instance:
    from privbounds.simulators.concepts import make_class
    from privbounds.simulators.instances import threshold_cluster

    cls = make_class("thresh", d)

    def draw(trials, rng):
        inst = threshold_cluster(cls.domain_size, trials, 1, rng)
        return inst.support, inst.probs, cls.evaluate(inst.targets, inst.support).astype(np.int64)
    return Instance("thresholds", {"d": d}, cls.domain_size, draw)


def _points(d: int) -> Instance:
    from privbounds.simulators.concepts import make_class
    from privbounds.simulators.instances import point_pair

    cls = make_class("point", d)

    def draw(trials, rng):
        inst = point_pair(cls.domain_size, trials, rng)
        return inst.support, inst.probs, cls.evaluate(inst.targets, inst.support).astype(np.int64)
    return Instance("points", {"d": d}, cls.domain_size, draw)


def _kgon(d: int, k: int) -> Instance:
    from privbounds.simulators.halfplanes import band_distribution, check_kgon_fits, grid_points

    check_kgon_fits(d, k)  # a grid too small for a k-gon is refused with the d it needs
    xs, ys = grid_points(d)
    coords = np.stack([xs, ys], axis=1) / d

    def draw(trials, rng):
        probs, inside = band_distribution(d, k, trials, rng)
        # the support is the grid points of positive mass (the band and the inside)
        m = int((probs > 0).sum(axis=1).max())
        order = np.argsort(probs <= 0, axis=1, kind="stable")[:, :m]
        p = np.take_along_axis(probs, order, axis=1)
        return order, p, np.take_along_axis(inside, order, axis=1).astype(np.int64)
    return Instance("kgon", {"d": d, "k": k}, xs.size, draw, coords)


@dataclass(frozen=True)
class Family:
    """A registered instance family: its parameters, the theorem whose instance it is and
    that theorem's parameter values that select it."""

    name: str
    description: str
    params: dict
    theorem: str
    theorem_point: dict
    build: object = field(repr=False)
    # the theorem's values of the parameters a measurement does not sweep (alpha, beta, and
    # epsilon and delta for the theorem's own learners)
    defaults: dict = field(default_factory=lambda: {"alpha": 0.25, "beta": 0.25, "epsilon": 1.0})

    def make(self, **params) -> Instance:
        unknown = sorted(set(params) - set(self.params))
        if unknown:
            raise ParameterError(f"unknown parameter {unknown[0]!r} of instance {self.name}; "
                                 f"allowed: {', '.join(self.params)}")
        missing = [k for k in self.params if k not in params]
        if missing:
            raise ParameterError(f"instance {self.name} needs {missing[0]}")
        for k, v in params.items():
            self.params[k].validate(v)
        return self.build(**params)


D = Interval("d", 2, 20, "both", integer=True)
GRID_D = Interval("d", 1, 32, "both", integer=True)  # kmms.thm4_7's domain mode: d <= 32
K = Interval("k", 3, None, "left", integer=True)
FAMILIES = {
    "thresholds": Family("thresholds", "THRESH_d under Sivakumar's 4-point cluster (target p3)", {"d": D},
                         "siv.thm3_3", {"class": "thresh"}, _thresholds),
    "points": Family("points", "POINT_d, mass 1/2 on the target and 1/2 on a decoy", {"d": D},
                     "siv.thm3_3", {"class": "point"}, _points),
    "kgon": Family("kgon", "a convex k-gon on X_d^2 under the band distribution", {"d": GRID_D, "k": K},
                   "kmms.thm4_7", {}, _kgon, {"alpha": 0.2, "beta": 0.1, "epsilon": 0.99, "delta": 1e-6}),
}


def get(name: str) -> Family:
    if name not in FAMILIES:
        raise ParameterError(f"instance must be one of {', '.join(FAMILIES)}, got {name!r}")
    return FAMILIES[name]


def families() -> dict:
    return dict(FAMILIES)
