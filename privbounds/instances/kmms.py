"""Kaplan, Mansour, Matias and Stemmer, "Differentially Private Learning of Geometric
Concepts" (ICML 2019): the instances of its simulators as public families (see
``privbounds.instances``).

- ``kgon`` (Theorem 4.7, the halfplane instances; a k-gon is an intersection of k
  halfplanes): a convex k-gon target on the grid X_d^2 = {0..d}^2 under the band
  distribution: a regular k-gon of radius 0.38 d, randomly rotated and shifted; P is 1/2
  uniform on the grid points inside and 1/2 on those outside within distance 0.15 d;
  c(p) = 1 inside. A grid point (x, y) becomes the features (x / d, y / d), of norm at
  most sqrt(2).
- ``conjunctions`` (Theorem 3.5, CONJ_{k,d}): the decoy family of its experiments
  (simulators/conjunctions.decoy_family), a mixture of product distributions on {0,1}^d
  realizable by the target v_1 AND ... AND v_k. Positives (1/2): the k relevant bits 1,
  every other variable (a decoy, tied to one relevant variable) 0 with probability
  alpha/k; negatives (1/2): one relevant variable i at 0, the other relevant bits 1, the
  decoys tied to i at 0, the others 0 with probability alpha/k. So each relevant literal
  has about (d - k)/k copies that reject its negatives too but err on alpha/(2k) of the
  mass: the decoys are tuned to the accuracy alpha, which is a parameter of the family
  (default the theorem's 0.2). A point's features are its d bits (0/1, uint8), with the
  variables in a uniformly random order per trial: the family's target is always its first
  k variables, and a learner that knew that would need no example.
- ``disjunctions`` (Theorem 3.5, DISJ_{k,d}): the De Morgan image of ``conjunctions``
  (bits and labels complemented, simulators/conjunctions.complement): target v_1 OR ...
  OR v_k, variables permuted per trial the same way.
- ``polygons`` (Theorem 5.1, unions of polygons, with the theorem's target family
  "disjoint"): a union of r pairwise disjoint triangles, each half of a cell of the public
  grid G_6 (k = 3r edges), drawn per trial from the theorem's fixed pool of 64
  (simulators/polygons.target_pool); P is 1/2 uniform on the grid points of the closed
  union and 1/2 on the other grid points within distance 0.15 d; c(p) = 1 inside.
  Features (x / d, y / d) as for ``kgon``.

The Boolean cube of the conjunctions is too large to list for the d of the theorem's
experiments (up to 2^14 variables), so their trials are ``ProductDraws``: the sample of a
trial is made from a seed kept at draw time, when it is asked for, and a predictor is
scored exactly in closed form when it says which literals it is (``literals``) or by
summing over the 2^d points for d <= 16.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from privbounds.instances.core import Family, Instance, Sample, TrialsBase, check_form, predictions
from privbounds.params import ALPHA, Interval, ParameterError


def _kgon(d: int, k: int) -> Instance:
    from privbounds.simulators.kmms.halfplanes import grid_points
    from privbounds.simulators.kmms.kgons import band_distribution, check_kgon_fits

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


# --- conjunctions and disjunctions ------------------------------------------------------

ROWS_MAX = 1 << 28  # n d: the bytes of one trial's rows (a learner's sample is held whole)
CHUNK = 1 << 20  # bits drawn at once while making rows (their uniforms are 8 bytes each)
ENUMERATE_MAX = 16  # the largest d whose 2^d points are summed over for a predictor without literals
CHECK_POINTS = 256  # points of the distribution on which a predictor's literals must give its labels


def literal_labels(X, ids, mode: str) -> np.ndarray:
    """The AND (mode "and") or OR ("or") of literals ``ids`` on rows of bits ``X`` (m, d):
    (m,) int. Ids 0..d-1 are v_1..v_d, d..2d-1 their negations; the empty AND is 1, the
    empty OR 0."""
    ids = np.asarray(ids, dtype=np.int64)
    d = X.shape[1]
    vals = X[:, ids % d].astype(bool) ^ (ids >= d)[None, :]
    return (vals.all(axis=1) if mode == "and" else vals.any(axis=1)).astype(np.int64)


def _short(values, width: int = 60) -> str:
    """A value in a one-line message: as a list, cut at ``width`` characters."""
    try:
        text = str(np.asarray(values).tolist())
    except Exception:  # not array-like: its repr
        text = repr(values)
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 3] + "..."


def distinct_rows(X) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of bits ``X`` (n, d): the index of the first row of each, and how
    many rows equal it. Rows are packed into 64-bit words and sorted by them (np.unique
    with axis=0 took 20 to 100 times longer at n = 2^20, d = 16 and 64)."""
    n = len(X)
    packed = np.packbits(X, axis=1)
    words = np.zeros((n, -(-packed.shape[1] // 8) * 8), dtype=np.uint8)
    words[:, :packed.shape[1]] = packed
    words = words.view(np.uint64)
    if words.shape[1] == 1:
        _, first, counts = np.unique(words[:, 0], return_index=True, return_counts=True)
        return first, counts
    order = np.lexsort(words.T[::-1])  # stable: the first of equal rows comes first
    s = words[order]
    starts = np.flatnonzero(np.concatenate([[True], (s[1:] != s[:-1]).any(axis=1)]))
    return order[starts], np.diff(np.append(starts, n))


@lru_cache(maxsize=8)
def _cube(d: int, k: int, alpha: float, form: str):
    """The points of {0,1}^d of positive mass (bits in the family's own order), their
    probabilities and the target's labels: what a predictor without literals is summed
    over (d <= ENUMERATE_MAX)."""
    from privbounds.simulators.kmms.conjunctions import make_family

    fam = make_family("decoy", d, k, alpha, form)
    bits = ((np.arange(1 << d)[:, None] >> np.arange(d)) & 1).astype(np.uint8)
    mass = np.zeros(1 << d)
    for t in range(len(fam.probs)):  # P(x) = sum_t P(t) prod_v P(x_v | t): a product per type
        mass += fam.probs[t] * np.prod(np.where(bits == 0, fam.z[t], 1.0 - fam.z[t]), axis=1)
    keep = mass > 0
    bits, mass = bits[keep], mass[keep]
    labels = literal_labels(bits, fam.target, fam.mode)
    for a in (bits, mass, labels):
        a.setflags(write=False)
    return bits, mass, labels


class ProductDraws(TrialsBase):
    """``trials`` trials of ``conjunctions`` / ``disjunctions`` (module docstring), with the
    public methods of ``core.Draws``. Trial i keeps a seed only: its permutation of the
    variables and its n rows are made from it when asked for, so a batch never holds
    trials x n x d bits, and the rows and the counts of a trial are the same sample.

    A sample's features are the d bits in the trial's order: the learner's variable j is
    the family's variable ``permutation(i)[j]`` (the target is the family's variables
    0..k-1). Rows are i.i.d., so their order is already uniformly random. A counts sample
    has ``support`` and ``points`` None (a point is its bits). Scoring is exact: a predictor
    with ``literals`` (literal ids in the learner's order; an AND for conjunctions, an OR
    for disjunctions) in closed form (``ProductFamily.exact_error``), checked against its
    labels on CHECK_POINTS points of the distribution when it is callable; any other by the
    sum over the points of {0,1}^d of positive mass, for d <= 16."""

    def __init__(self, instance: Instance, fam, n: int, keys: np.ndarray):
        self.instance, self.fam, self.n, self.keys = instance, fam, n, keys

    def __len__(self) -> int:
        return len(self.keys)

    @property
    def d(self) -> int:
        return self.fam.d

    def permutation(self, i: int) -> np.ndarray:
        """(d,): entry j is the family's variable that is the learner's variable j."""
        i = self._trial(i)
        return np.random.default_rng([int(self.keys[i]), 0]).permutation(self.d)

    def _rows(self, rng: np.random.Generator, m: int, perm: np.ndarray):
        """m i.i.d. rows of the family in the learner's order: (X (m, d) uint8, y (m,))."""
        fam, d = self.fam, self.d
        t = rng.choice(len(fam.probs), size=m, p=fam.probs)
        z = fam.z[:, perm]  # P(x_j = 0 | type) in the learner's order
        X = np.empty((m, d), dtype=np.uint8)
        step = max(1, CHUNK // d)
        for s in range(0, m, step):
            tt = t[s:s + step]
            X[s:s + step] = rng.random((len(tt), d)) >= z[tt]
        return X, fam.labels[t].astype(np.int64)

    def sample(self, i: int, form: str = "rows", rng: np.random.Generator | None = None) -> Sample:
        """Trial i's sample as rows or as counts of the distinct rows drawn (the same rows).
        The rows are i.i.d., so their order is already uniformly random: ``rng`` is not used."""
        i = self._trial(i)
        check_form(form, rng)
        X, y = self._rows(np.random.default_rng([int(self.keys[i]), 1]), self.n, self.permutation(i))
        if form == "rows":
            return Sample("rows", self.n, X=X, y=y)
        first, counts = distinct_rows(X)
        # the label is a function of the row (the target's value), so the first row's holds for all
        return Sample("counts", self.n, features=X[first], labels=y[first], counts=counts,
                      positives=y[first] * counts)

    def column_errors(self, i: int, predict) -> np.ndarray:
        """err_D of trial i's predictor, exactly, as a (1,) array (module docstring)."""
        i = self._trial(i)
        lits = getattr(predict, "literals", None)
        if lits is not None:
            return np.array([self._literal_error(i, predict, lits)])
        if self.d > ENUMERATE_MAX:
            raise ParameterError(
                f"a predictor on {self.instance.family} with d > {ENUMERATE_MAX} (here d = {self.d}) is scored "
                f"exactly only through its literals: give it an attribute literals (literal ids, 0..d-1 for v_j and "
                f"d..2d-1 for not v_j) or measure at d <= {ENUMERATE_MAX}")
        p = self.instance.params
        bits, mass, labels = _cube(p["d"], p["k"], p["alpha"], "conj" if self.fam.mode == "and" else "disj")
        # the learner sees the family's variable perm[j] as its j-th feature
        got = predictions(predict, bits[:, self.permutation(i)], 1)[:, 0]
        return np.array([float(mass @ (got != labels))])

    def _literal_error(self, i: int, predict, lits) -> float:
        d = self.d
        ids = np.asarray(lits)
        if ids.ndim != 1 or not (ids.size == 0 or np.issubdtype(ids.dtype, np.integer)) \
                or (ids.size and (ids.min() < 0 or ids.max() >= 2 * d)):
            raise ParameterError(f"a predictor's literals must be a list of literal ids in [0, {2 * d}) (0..d-1: "
                                 f"v_j, d..2d-1: not v_j, with d = {d}), got {_short(lits)}")
        ids = ids.astype(np.int64)
        perm = self.permutation(i)
        f = getattr(predict, "predict", predict)
        if callable(f):  # the literals must be the predictor: compare them on points of the distribution
            X, _ = self._rows(np.random.default_rng([int(self.keys[i]), 2]), CHECK_POINTS, perm)
            got = predictions(predict, X, 1)[:, 0]
            wrong = int(np.sum(got != literal_labels(X, ids, self.fam.mode)))
            if wrong:
                raise ParameterError(
                    f"a predictor's literals must give its labels: the {'AND' if self.fam.mode == 'and' else 'OR'} "
                    f"of its literals {_short(ids)} differs from its labels on {wrong} of {CHECK_POINTS} points of "
                    f"the distribution (literal ids: 0..d-1 are v_j, d..2d-1 not v_j, in the sample's order)")
        orig = np.where(ids < d, perm[ids % d], d + perm[ids % d])
        return float(self.fam.exact_error(orig[None, :])[0])


def _product(name: str, form: str):
    def build(d: int, k: int, alpha: float) -> Instance:
        from privbounds.simulators.kmms.conjunctions import make_family
        from privbounds.simulators.kmms.setcover_common import check_sizes

        check_sizes({"d": d, "k": k})  # k <= d, and the theorem's (k + 1) d <= 2^17
        fam = make_family("decoy", d, k, alpha, form)

        def draw(n, trials, rng):  # n <= n_max: Instance.draw checks it
            # a trial's permutation and rows are made from its key when asked for
            return ProductDraws(inst, fam, n, rng.integers(0, 2**63, size=trials))
        inst = Instance(name, {"d": d, "k": k, "alpha": alpha}, 2**d, draw, bits=d, n_max=ROWS_MAX // d)
        return inst
    return build


# --- polygons ---------------------------------------------------------------------------

POLY_M = 6  # kmms.thm5_1's public grid G_6, whose triangles are the learner's candidates and the targets'


@lru_cache(maxsize=16)
def _polygon_targets(d: int, r: int):
    """Per target of the theorem's pool: its grid points of positive mass (padded with
    points of mass 0 to the longest), their probabilities and labels, (POOL, m) each."""
    from privbounds.simulators.kmms.polygons import band_points, domain, target_pool

    dom = domain(d, POLY_M)
    pool = target_pool("disjoint", d, r, POLY_M)
    probs, inside = zip(*((p, lab) for lab, p in (band_points(dom, t) for t in pool.tri_ids)))
    probs, inside = np.array(probs), np.array(inside)
    m = int((probs > 0).sum(axis=1).max())
    order = np.argsort(probs <= 0, axis=1, kind="stable")[:, :m]
    out = (order, np.take_along_axis(probs, order, axis=1),
           np.take_along_axis(inside, order, axis=1).astype(np.int64))
    for a in out:
        a.setflags(write=False)
    return out


def _polygons(d: int, r: int) -> Instance:
    from privbounds.simulators.kmms.polygons import POOL, check_target, grid_xy

    check_target("disjoint", r, POLY_M)
    xs, ys = grid_xy(d)
    coords = np.stack([xs, ys], axis=1) / d

    def draw(n, trials, rng):
        support, probs, labels = _polygon_targets(d, r)
        idx = rng.integers(0, POOL, trials)  # each trial's target from the pool, as the theorem's trials
        return support[idx], probs[idx], labels[idx]
    return Instance("polygons", {"d": d, "r": r}, xs.size, draw, coords)


# The parameters' ranges are the theorems' (their simulators' specs and checks, imported
# only when an instance is built, so that listing the families stays light).
GRID_D = Interval(1, 32, "both", integer=True)  # kmms.thm4_7's domain mode: d <= 32
K = Interval(3, 64, "both", integer=True)
CUBE_D = Interval(1, 1 << 14, "both", integer=True)  # kmms.thm3_5's d (setcover_common.SPECS)
CONJ_K = Interval(1, 64, "both", integer=True)  # and its k
# kmms.thm5_1: d <= polygons.D_MAX; the disjoint half-cells of G_6 need d >= 2 (6 - 1) (a grid
# point besides their corners); at most 9 pairwise non-touching cells of G_6 (polygons.max_triangles)
POLY_D = Interval(10, 160, "both", integer=True)
POLY_R = Interval(1, 9, "both", integer=True)
CONJ_DEFAULTS = {"alpha": 0.2, "beta": 0.1, "epsilon": 0.99, "delta": 1e-8}  # setcover_common: EPS, DELTA

FAMILIES = [
    Family("kgon", "a convex k-gon on X_d^2 under the band distribution", {"d": GRID_D, "k": K},
           "kmms.thm4_7", {}, _kgon, {"alpha": 0.2, "beta": 0.1, "epsilon": 0.99, "delta": 1e-6},
           grid={"d": [8], "k": [3, 4]}),
    # kmms.thm3_5 refuses its composition and argmax learners (they run under ex3_3 and thm3_2), and its
    # non-private learner on DISJ: measure runs beside yours those its conditions allow (learners._refusal).
    # The default grid keeps d <= 16, where a predictor without literals is scored exactly
    Family("conjunctions", "CONJ_{k,d}: the decoy mixture on {0,1}^d, target v_1 AND ... AND v_k, variables "
           "permuted per trial", {"d": CUBE_D, "k": CONJ_K, "alpha": ALPHA}, "kmms.thm3_5",
           {"family": "decoy", "form": "conj"}, _product("conjunctions", "conj"), CONJ_DEFAULTS,
           grid={"d": [16], "k": [1, 2, 4]},
           # Example 3.3 (the composed rounds) and Theorem 3.2 (any selection; the argmax baseline)
           # run the Set Cover Learner's other variants on the same instance
           also=("kmms.ex3_3", "kmms.thm3_2"),
           also_points={t: {"family": "decoy", "form": "conj"} for t in ("kmms.ex3_3", "kmms.thm3_2")}),
    Family("disjunctions", "DISJ_{k,d}: the De Morgan image of conjunctions, target v_1 OR ... OR v_k",
           {"d": CUBE_D, "k": CONJ_K, "alpha": ALPHA}, "kmms.thm3_5", {"family": "decoy", "form": "disj"},
           _product("disjunctions", "disj"), CONJ_DEFAULTS, grid={"d": [16], "k": [1, 2, 4]}),
    Family("polygons", "a union of r disjoint triangles on X_d^2 under the band distribution",
           {"d": POLY_D, "r": POLY_R}, "kmms.thm5_1", {"family": "disjoint", "m": POLY_M}, _polygons,
           {"alpha": 0.2, "beta": 0.1, "epsilon": 0.99, "delta": 1e-7}, grid={"d": [20], "r": [1, 2, 3]}),
]
