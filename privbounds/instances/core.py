"""Instances as a public API (the shared part): what a family, an instance, a batch of
trials and a learner's sample are. The families themselves live beside this module, one
file per paper (``siv``, ``bns``, ``kmms``, ``wlf``); ``privbounds.instances`` lists them.

A *family* (``get("thresholds")``) at fixed parameters (``family.make(d=8)``) is an
``Instance``. It draws a batch of independent trials (``draw``: each a random instance of
the family and an i.i.d. sample from it), maps domain points to the feature vectors a
learner sees (``features``), and scores a learner's predictor exactly over the
distribution (``Draws.error``: err_D(h) in closed form or summed over the support, never
on a test sample). One trial of a batch is handed to a learner as a ``Sample``, either as
rows (X, y in a random order, what most libraries take) or as counts of the distinct
points drawn (a sufficient statistic, for learners that prefer it).

An *agnostic* family (``Instance.noise`` = eta > 0) flips every label independently with
probability eta: a point's rows may disagree, so a counts sample gives ``positives`` (how
many of a point's rows carry label 1, per concept) and no ``labels``; and ``error`` is the
excess error err_D(h) - min_c err_D(c) = (1 - 2 eta) P_D(h != c*), exactly, the quantity
an agnostic learner's alpha bounds (c*, the noiseless target, is the best concept).

An instance with k > 1 target concepts (``Instance.k``: the k-learning of Bun, Nissim and
Stemmer) labels every point with k labels: ``y`` is (n, k), a predictor returns (m, k)
labels, ``Draws.column_errors`` gives the k errors, and ``Draws.error`` the largest (a
k-learner succeeds when every one of its k hypotheses is alpha-good).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from privbounds.params import ParameterError, named

# the labels of one trial's rows sample with k concepts, n k at most (8 bytes each, and as
# many random keys again to place an agnostic point's positives among its rows)
ROW_LABELS_MAX = 1 << 26


@dataclass
class Sample:
    """One trial's sample. ``form`` "rows": X (n, f) features and y (n,) 0/1 labels ((n, k)
    for k concepts) in a uniformly random order, and ``points`` (n,) the domain points.
    ``form`` "counts": the distinct points drawn, ``support`` (m,) domain points,
    ``features`` (m, f), ``labels`` (m,) or (m, k) (None for an agnostic family, whose
    rows at one point may disagree), ``counts`` (m,) >= 1, how often each was drawn (sum
    n), and ``positives`` (m,) or (m, k), how many of those rows carry label 1. ``points`` and ``support`` are None where a domain point is its
    feature vector (the Boolean cube of conjunctions), and under ``privbounds audit``."""

    form: str
    n: int
    X: np.ndarray | None = None
    y: np.ndarray | None = None
    points: np.ndarray | None = None
    support: np.ndarray | None = None
    features: np.ndarray | None = None
    labels: np.ndarray | None = None
    counts: np.ndarray | None = None
    positives: np.ndarray | None = None


def predictions(predict, X, k: int) -> np.ndarray:
    """A predictor's labels on the feature rows X, as an (m, k) int array; a one-line
    error naming the shape it returned otherwise."""
    f = getattr(predict, "predict", predict)
    if not callable(f):
        raise ParameterError(f"a predictor must be a function of the features or have .predict, got "
                             f"{type(predict).__name__}")
    raw = np.asarray(f(X))
    m = len(X)
    want = ((m,), (m, 1)) if k == 1 else ((m, k),)
    if raw.shape not in want:
        raise ParameterError(f"the predictor must return {'one label' if k == 1 else f'{k} labels'} per point, "
                             f"shape {want[0]}; it returned shape {raw.shape} for {m} points")
    try:
        return raw.reshape(m, k).astype(np.int64)
    except (TypeError, ValueError):
        raise ParameterError(f"the predictor must return 0/1 labels, got values of type {raw.dtype}") from None


def check_form(form: str, rng) -> None:
    if form not in ("rows", "counts"):
        raise ParameterError(f"form must be 'rows' or 'counts', got {form!r}")
    if form == "rows" and rng is None:
        raise ParameterError("rows need a random generator (rng) to shuffle their order")


class TrialsBase:
    """What every batch of trials offers beyond ``__len__``, ``sample(i, form, rng)`` and
    ``column_errors(i, predict)`` (which a family's own kind of draws defines)."""

    instance: Instance

    def _trial(self, i) -> int:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < len(self):
            raise ParameterError(f"trial must be in [0, {len(self) - 1}], got {i!r}")
        return int(i)

    def error(self, i: int, predict) -> float:
        """err_D of trial i's predictor (for k concepts, of its worst hypothesis)."""
        return float(np.max(self.column_errors(i, predict)))

    def errors(self, predictors) -> np.ndarray:
        """err_D of one predictor per trial (the worst of its k hypotheses)."""
        predictors = list(predictors)
        if len(predictors) != len(self):
            raise ParameterError(f"errors needs one predictor per trial ({len(self)}), got {len(predictors)}")
        return np.array([self.error(i, p) for i, p in enumerate(predictors)])

    def risk(self, i: int, predict) -> float:
        """The 0-1 risk P_(x, y)~D[h(x) != y] of trial i's predictor (its worst hypothesis):
        ``error`` for a noiseless family; eta + ``error`` for an agnostic one, since
        err_D(h) = eta + (1 - 2 eta) P(h != c) when every label flips with probability eta."""
        return self.instance.noise + self.error(i, predict)


class Draws(TrialsBase):
    """``trials`` independent trials of an instance on a finite support: ``support`` (B, m)
    domain points, ``probs`` (B, m) their probabilities, ``labels`` (B, m) the target's
    labels there ((B, m, k) for k concepts; the noiseless target's for an agnostic family),
    ``counts`` (B, m) the sample, and for an agnostic family ``positives`` (B, m, k), how
    many of a point's rows carry label 1 in each column. A family whose labels are cheaper
    computed per trial passes ``labels_of`` (i -> (m,) or (m, k)), and an agnostic one whose
    positives are too large to hold for every trial ``positives_of`` (i -> (m, k), the same
    array at every call)."""

    def __init__(self, instance: Instance, support, probs, labels, counts, labels_of=None, positives=None,
                 positives_of=None):
        self.instance, self.support, self.probs, self.counts = instance, support, probs, counts
        self._labels, self._labels_of, self.positives = labels, labels_of, positives
        self._positives_of = positives_of

    @property
    def labels(self) -> np.ndarray:
        if self._labels is None:
            self._labels = np.stack([self._labels_of(i) for i in range(len(self))])
        return self._labels

    def labels_at(self, i: int) -> np.ndarray:
        return self._labels_of(i) if self._labels is None else self._labels[i]

    def __len__(self) -> int:
        return self.support.shape[0]

    def sample(self, i: int, form: str = "rows", rng: np.random.Generator | None = None) -> Sample:
        """Trial i's sample as rows (shuffled with ``rng``, required for rows) or counts."""
        i = self._trial(i)
        check_form(form, rng)
        if form == "rows":
            self.instance.check_rows(int(self.counts[i].sum()))
        feats = self.instance.features(self.support[i])
        counts, k = self.counts[i], self.instance.k
        if self.positives is None and self._positives_of is None:
            labels = np.asarray(self.labels_at(i)).astype(np.int64)
            positives = counts.reshape(-1, *([1] * (labels.ndim - 1))) * labels
        else:
            pos = self.positives[i] if self.positives is not None else self._positives_of(i)
            labels, positives = None, pos.reshape(len(counts), -1)[:, :k].reshape(
                (len(counts), k) if k > 1 else (len(counts),))
        if form == "counts":
            # the points drawn at least once: a point never drawn, and its label, are not data
            seen = counts > 0
            return Sample("counts", int(counts.sum()), support=self.support[i][seen], features=feats[seen],
                          labels=None if labels is None else labels[seen], counts=counts[seen],
                          positives=positives[seen])
        by_point = np.repeat(np.arange(self.support.shape[1]), counts)  # rows grouped by point
        if labels is not None:
            y = labels[by_point]
        else:
            # each column's positives at a point go to a uniformly random subset of its rows:
            # rank the rows of every point by a random key, label 1 the first positives of them
            pos = positives.reshape(len(counts), -1)
            order = np.argsort(by_point[:, None] + rng.random((by_point.size, pos.shape[1])), axis=0)
            start = np.concatenate([[0], np.cumsum(counts)[:-1]])
            rank = np.empty_like(order)
            np.put_along_axis(rank, order, np.arange(by_point.size)[:, None], axis=0)
            y = (rank - start[by_point][:, None] < pos[by_point]).astype(np.int64).reshape(
                (by_point.size, k) if k > 1 else (by_point.size,))
        shuffle = rng.permutation(by_point.size)
        return Sample("rows", int(by_point.size), X=feats[by_point[shuffle]], y=y[shuffle],
                      points=self.support[i][by_point[shuffle]])

    def column_errors(self, i: int, predict) -> np.ndarray:
        """err_D of each of the k hypotheses of trial i's predictor, exactly: the mass of
        the support points it labels differently from the target (times 1 - 2 eta, the
        excess error, for an agnostic family)."""
        i = self._trial(i)
        return self.instance.column_errors(predict, self.support[i], self.probs[i], self.labels_at(i))


@dataclass
class Instance:
    """A family at fixed parameters; see the module docstring. Domain points are integers:
    the points of X_d, the indices of the grid points of X_d^2 (row-major in x), or the
    points of {0,1}^d read as binary numbers (bit j is feature j)."""

    family: str
    params: dict
    domain_size: int
    _draw: object = field(repr=False)
    # domain point index -> feature vector, for domains that are not a line (the k-gon's grid)
    _coords: np.ndarray | None = field(default=None, repr=False)
    k: int = 1  # target concepts per trial
    noise: float = 0.0  # eta > 0: an agnostic family, every label flipped with probability eta
    bits: int = 0  # > 0: the domain is {0,1}^bits and a point's features are its bits
    # the largest n a trial's sample may have, where it is held as rows in either form
    # (conjunctions: n d bytes); a measurement's search stops there. None: any (``rows_n_max``)
    n_max: int | None = None

    @property
    def rows_n_max(self) -> int | None:
        """The largest n of a rows sample: ``n_max``, and with k concepts n k labels at most
        (a counts sample holds the points drawn only, and has no such cap)."""
        if self.n_max is None and self.k > 1:
            return ROW_LABELS_MAX // self.k
        return self.n_max

    @property
    def n_features(self) -> int:
        if self.bits:
            return self.bits
        return 1 if self._coords is None else self._coords.shape[1]

    def features(self, points) -> np.ndarray:
        """Domain points (any shape) to features (..., f): x / (|X| - 1) in [0, 1] on a line,
        (x / d, y / d) on the grid X_d^2 (points are then indices of the grid's points), the
        d bits (0/1) of a point of {0,1}^d."""
        if self.bits:
            p = np.asarray(points, dtype=np.int64)
            return ((p[..., None] >> np.arange(self.bits)) & 1).astype(np.uint8)
        if self._coords is not None:
            return self._coords[np.asarray(points, dtype=np.int64)]
        x = np.asarray(points, dtype=float)
        return (x / max(self.domain_size - 1, 1))[..., None]

    def draw(self, n: int, trials: int, rng: np.random.Generator):
        """``trials`` random instances and an i.i.d. sample of size ``n`` from each."""
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ParameterError(f"n must be an integer >= 1, got {n!r}")
        if isinstance(trials, bool) or not isinstance(trials, (int, np.integer)) or trials < 1:
            raise ParameterError(f"trials must be an integer >= 1, got {trials!r}")
        if not isinstance(rng, np.random.Generator):
            raise ParameterError(f"rng must be a numpy Generator (np.random.default_rng(seed)), got {rng!r}")
        if self.n_max is not None and n > self.n_max:
            raise ParameterError(f"n must be at most {self.n_max} for {self.family} at {self._where()} (a sample "
                                 f"is held whole as rows of {self.n_features} bits), got {n}")
        out = self._draw(int(n), int(trials), rng)
        if not isinstance(out, tuple):  # a family with its own kind of draws (agnostic, rows)
            return out
        support, probs, labels, *lazy = out
        return Draws(self, support, probs, labels, rng.multinomial(int(n), probs), *lazy)

    def _where(self) -> str:
        return ", ".join(f"{k} = {v}" for k, v in self.params.items())

    def check_rows(self, n: int) -> None:
        """A one-line error when a rows sample of size n would be too large to hold."""
        cap = self.rows_n_max
        if cap is not None and n > cap:
            raise ParameterError(f"n must be at most {cap} for a rows sample of {self.family} at {self._where()} "
                                 f"(it holds n x k = {self.k} labels; a counts sample has no such cap), got {n}")

    def column_errors(self, predict, support, probs, labels) -> np.ndarray:
        """err_D of each of the k hypotheses of a predictor (``predict(features) -> labels``
        or an object with ``.predict``) on one trial's distribution (support, probs) and
        target labels ((m,) or (m, k))."""
        got = predictions(predict, self.features(support), self.k)
        want = np.asarray(labels).reshape(len(got), self.k)
        return (1 - 2 * self.noise) * (np.asarray(probs, dtype=float) @ (got != want))

    def error(self, predict, support, probs, labels) -> float:
        """err_D(h) for one trial (see ``column_errors``); the worst hypothesis for k > 1."""
        return float(np.max(self.column_errors(predict, support, probs, labels)))


@dataclass(frozen=True)
class Family:
    """A registered instance family: its parameters, the theorem whose instance it is and
    that theorem's parameter values that select it.

    ``axis`` names the theorem's parameter that chooses among its learners ("learner"), or
    is None when the theorem runs one learner and has no such parameter (the theorem's
    learners that its conditions refuse at a measurement's grid are not run beside it);
    ``measurable`` is '' when ``privbounds measure`` can compare a learner with the
    theorem, else why not. A measurement may compare with ``theorem`` or any of ``also``."""

    name: str
    description: str
    params: dict
    theorem: str
    theorem_point: dict
    build: object = field(repr=False)
    # the theorem's values of the parameters a measurement does not sweep (alpha, beta, and
    # epsilon and delta for the theorem's own learners); ``make`` takes them for a parameter
    # of the family left out (the decoys of ``conjunctions`` are tuned to alpha)
    defaults: dict = field(default_factory=lambda: {"alpha": 0.25, "beta": 0.25, "epsilon": 1.0})
    axis: str | None = "learner"
    measurable: str = ""
    also: tuple = ()  # other theorems whose simulators run this instance (``compare_to``)
    # {theorem of ``also``: its values unlike ``defaults``}; a parameter of the family that such
    # a theorem does not take (bns.thm3_1 runs on X = 2^3 only: d) is pinned to its value here
    also_defaults: dict = field(default_factory=dict)
    # {theorem of ``also``: its parameter values that select this instance, in place of
    # ``theorem_point`` (bns.cor2_12 runs three classes: {"class": "par"} for parities)}
    also_points: dict = field(default_factory=dict)
    grid: dict = field(default_factory=lambda: {"d": [4, 8, 12]})  # what ``measure`` sweeps by default

    def __post_init__(self):
        # the params dict's keys name its specs, as a simulator's (privbounds.params.named)
        object.__setattr__(self, "params", named(self.params))

    def defaults_for(self, theorem: str) -> dict:
        """The values ``theorem`` (this family's, or one of ``also``) runs at."""
        return {**self.defaults, **self.also_defaults.get(theorem, {})}

    def point_for(self, theorem: str) -> dict:
        """``theorem``'s parameter values that select this instance among those it runs."""
        return dict(self.theorem_point if theorem == self.theorem else self.also_points.get(theorem, {}))

    def make(self, **params) -> Instance:
        unknown = sorted(set(params) - set(self.params))
        if unknown:
            raise ParameterError(f"unknown parameter {unknown[0]!r} of instance {self.name}; "
                                 f"allowed: {', '.join(self.params)}")
        params = {**{k: v for k, v in self.defaults.items() if k in self.params}, **params}
        missing = [k for k in self.params if k not in params]
        if missing:
            raise ParameterError(f"instance {self.name} needs {missing[0]}")
        for k, v in params.items():
            self.params[k].validate(v)
        return self.build(**params)
