"""Query classes of Bassily et al., "Private Query Release Assisted by Public Data"
(ICML 2020): thresholds THR_T, intervals INT_T, points PT_T on the line [T], and binary
decision stumps STUMP_p on {+-1}^p (Definition 4.1), with exact answers, the family of
distributions the worst-case claims run over, and brute-force VC / dual-VC checks
(Fact 2.4, Assouad).

Conventions. A query is h : X -> {-1, +1}; its 0/1 version is q = (1 + h)/2. On the
line, X = {0, ..., T-1} (the paper's [T], shifted by one) and
- THR_T: h_t(x) = +1 iff x < t, t = 0..T (t = 0 is the all -1 query): T + 1 queries;
- INT_T: h_{a,b}(x) = +1 iff a <= x <= b, 0 <= a <= b < T, after the empty interval;
- PT_T: h_a(x) = +1 iff x = a.
A distribution on the line is a probability vector of length T; a query's exact answer
is E_D h = 2 D(h = +1) - 1, computed from the CDF (never estimated by sampling).
STUMP_p: h_j(x) = x_j; a product distribution is its vector of means mu (E_D h_j = mu_j),
never an enumeration of {+-1}^p.

``query_matrix`` builds the dense +-1 matrix (rows = queries, columns = points) of a small
instance: the reference the fast paths are tested against, and the input of the
brute-force ``vc_dimension`` (the largest k such that some k columns show all 2^k row
patterns; the dual VC dimension is the VC dimension of the transpose).
"""

from __future__ import annotations

import itertools

import numpy as np

from privbounds.params import ParameterError

LINE_CLASSES = ("thr", "int", "pt")
CLASSES = (*LINE_CLASSES, "stump")
# (VC, dual VC) of each class; STUMP_p's are (floor(log2 p), p)
DIMENSIONS = {"thr": (1, 1), "int": (2, 2), "pt": (1, 1)}
DISTRIBUTIONS = ("uniform", "geometric", "dirichlet")
GEOMETRIC_SCALE = 8.0  # mass proportional to (1 - 8/T)^x: geometric(0.002) at T = 4096


def dimensions(cls: str, p: int | None = None) -> tuple[int, int]:
    """(VC, dual VC) of a class (for ``stump``, of STUMP_p)."""
    if cls == "stump":
        return int(np.floor(np.log2(p))), int(p)
    if cls not in DIMENSIONS:
        raise ParameterError(f"query class must be one of {', '.join(CLASSES)}, got {cls!r}")
    return DIMENSIONS[cls]


def n_queries(cls: str, size: int) -> int:
    """|H| of THR_T, INT_T, PT_T (size = T) or STUMP_p (size = p)."""
    return {"thr": size + 1, "int": size * (size + 1) // 2 + 1, "pt": size, "stump": size}[cls]


def query_matrix(cls: str, size: int) -> np.ndarray:
    """Dense +-1 int8 matrix of a small class: THR/INT/PT over [size], STUMP over
    {+-1}^size (columns in the order of ``itertools.product((-1, 1), repeat=size)``)."""
    if cls == "thr":
        t = np.arange(size + 1)[:, None]
        return np.where(np.arange(size)[None, :] < t, 1, -1).astype(np.int8)
    if cls == "int":
        rows = [np.full(size, -1, np.int8)]
        x = np.arange(size)
        for a in range(size):
            for b in range(a, size):
                rows.append(np.where((x >= a) & (x <= b), 1, -1).astype(np.int8))
        return np.array(rows)
    if cls == "pt":
        return (2 * np.eye(size, dtype=np.int8) - 1).astype(np.int8)
    if cls == "stump":
        pts = np.array(list(itertools.product((-1, 1), repeat=size)), dtype=np.int8)
        return pts.T.copy()
    raise ParameterError(f"query class must be one of {', '.join(CLASSES)}, got {cls!r}")


def vc_dimension(matrix: np.ndarray) -> int:
    """Brute-force VC dimension of the class whose rows are hypotheses (+-1 or 0/1 entries)
    over the columns: the largest k such that some k columns are shattered. Only for small
    matrices (each subset of columns is checked; k <= log2 of the number of rows)."""
    m = np.asarray(matrix) > 0
    rows, cols = m.shape
    best = 0
    for k in range(1, min(cols, int(np.floor(np.log2(max(rows, 1))))) + 1):
        if _some_shattered(m, k):
            best = k
        else:
            break  # a shattered set of size k contains shattered sets of every smaller size
    return best


def _some_shattered(m: np.ndarray, k: int) -> bool:
    """Whether some k columns of the 0/1 matrix ``m`` show all 2^k row patterns: the
    column sets are checked a chunk at a time, each pattern read as a k-bit code and the
    distinct codes of each set counted after a sort down the rows. A chunk holds about
    4 million codes whatever the number of rows (some 200 MB at most)."""
    chunk = max(1, (1 << 22) // max(m.shape[0], 1))
    weights = 1 << np.arange(k)
    combos = itertools.combinations(range(m.shape[1]), k)
    while True:
        sets = np.fromiter(itertools.chain.from_iterable(itertools.islice(combos, chunk)), dtype=np.intp)
        if sets.size == 0:
            return False
        codes = np.sort(m[:, sets.reshape(-1, k)] @ weights, axis=0)  # (rows, sets)
        distinct = 1 + np.count_nonzero(np.diff(codes, axis=0), axis=0)
        if np.any(distinct == 1 << k):
            return True


def dual_vc_dimension(matrix: np.ndarray) -> int:
    """VC dimension of the dual class (points as functions of the hypotheses)."""
    return vc_dimension(np.asarray(matrix).T)


def line_distribution(name: str, size: int, rng: np.random.Generator, trials: int = 1) -> np.ndarray:
    """(trials, size) probability vectors on [size]: ``uniform``; ``geometric`` (mass
    proportional to (1 - 8/T)^x, truncated to the line - geometric(0.002) at T = 4096 - so
    that at every T most mass sits on the left eighth, with a long light tail); ``dirichlet`` (a fresh Dirichlet(1, ..., 1) draw per trial: lumpy, with
    light gaps anywhere)."""
    if name == "uniform":
        return np.full((trials, size), 1.0 / size)
    if name == "geometric":
        w = (1.0 - min(0.5, GEOMETRIC_SCALE / size)) ** np.arange(size)
        return np.broadcast_to(w / w.sum(), (trials, size)).copy()
    if name == "dirichlet":
        g = rng.standard_gamma(1.0, size=(trials, size))
        return g / g.sum(axis=1, keepdims=True)
    raise ParameterError(f"dist must be one of {', '.join(DISTRIBUTIONS)}, got {name!r}")


def sample_points(probs: np.ndarray, m: int, rng: np.random.Generator) -> np.ndarray:
    """(trials, m) i.i.d. points of [T] from each row of ``probs`` (inverse CDF)."""
    trials, size = probs.shape
    cdf = np.cumsum(probs, axis=1)
    cdf[:, -1] = 1.0
    # one searchsorted over all trials: row i's CDF shifted by i is sorted across rows
    shift = np.arange(trials, dtype=float)[:, None]
    u = rng.random((trials, m)) + shift
    idx = np.searchsorted((cdf + shift).ravel(), u.ravel(), side="right").reshape(trials, m)
    return np.minimum(idx - np.arange(trials)[:, None] * size, size - 1)


def threshold_answers(probs: np.ndarray) -> np.ndarray:
    """(trials, T + 1) exact answers E_D h_t = 2 F(t) - 1, F(t) = D(x < t), t = 0..T."""
    cdf = np.concatenate([np.zeros((probs.shape[0], 1)), np.cumsum(probs, axis=1)], axis=1)
    return 2.0 * np.minimum(cdf, 1.0) - 1.0
