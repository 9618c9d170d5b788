"""Stability-based k-learners of Bun, Nissim, Stemmer, "Simultaneous Private Learning of
Multiple Concepts", whose sample size does not grow with k:

- ``alg4_parities``: Theorem 3.12, Algorithm 4. Parities under the uniform distribution:
  split the sample into T blocks of s rows, solve every block for all k parities at once
  by Gaussian elimination over GF(2), and release the most frequent solution vector with
  A_dist (Prop 3.11, ``mechanisms.stable_choice``).
- ``alg5_points``: Theorem 3.13, Algorithm 5. Points (realizable): sanitize the points
  with Algorithm 1, keep the heavy ones, and release the most frequent label vector at
  every heavy point at once with A_dist, scored by the worst heavy point.

Each works on a batch of trials along the leading axis.
"""

from __future__ import annotations

import numpy as np

from privbounds.simulators.bns import gf2
from privbounds.simulators.bns.sanitizers import point_sanitizer
from privbounds.simulators.shared.mechanisms import stable_choice

# Fixed odd multipliers for hashing solution vectors (equality test of k-vectors across
# blocks). Data-independent; a collision between two different vectors has probability
# about 2^-64 per pair.
_HASH = np.random.default_rng(0x5EED).integers(1, 2 ** 63, size=1 << 14, dtype=np.uint64) | np.uint64(1)
BOTTOM = np.uint64(0)


def top_two(keys: np.ndarray):
    """For each row of keys (B, T): the most frequent key's position, its count q1 and
    the count q2 of the runner-up (0 if every key is equal)."""
    B, T = keys.shape
    order = np.argsort(keys, axis=1, kind="stable")
    sk = np.take_along_axis(keys, order, axis=1)
    new = np.ones((B, T), dtype=bool)
    new[:, 1:] = sk[:, 1:] != sk[:, :-1]
    run = np.cumsum(new, axis=1) - 1                                   # run id per position
    counts = np.zeros((B, T), dtype=np.int64)
    np.add.at(counts, (np.repeat(np.arange(B), T), run.ravel()), 1)
    best = np.argmax(counts, axis=1)
    q1 = counts[np.arange(B), best]
    counts[np.arange(B), best] = -1
    q2 = np.maximum(counts.max(axis=1), 0) if T > 1 else np.zeros(B, np.int64)
    first = np.argmax(run == best[:, None], axis=1)                    # first position of the top run
    return order[np.arange(B), first], q1, q2


def alg4_parities(x: np.ndarray, Yw: np.ndarray, d: int, s: int, epsilon: float, delta: float,
                  rng: np.random.Generator):
    """Algorithm 4 on a batch: x (B, n) examples as d-bit integers, Yw (B, n, w) packed
    labels of the k columns. Uses T = n // s disjoint blocks of s rows (the remainder is
    unused). Returns (released, solution): released (B,) is False where A_dist output
    bottom or the most frequent block result was "no consistent parity"; solution
    (B, d, w) is the released vector of k parities packed as in ``gf2.random_targets``.

    Privacy: one changed row changes one block, so the multiplicity of every vector
    (the quality) has sensitivity 1 and A_dist makes the whole (eps, delta)-DP."""
    B, n = x.shape
    T = n // s
    if T < 1:
        raise ValueError(f"n must be at least the block size s = {s}, got {n}")
    w = Yw.shape[-1]
    xb = x[:, : s * T].reshape(B * T, s)
    yb = Yw[:, : s * T].reshape(B * T, s, w)
    sol, bad, _ = gf2.solve_packed(xb, yb, d)                          # (B T, d, w)
    h = np.sum(sol.reshape(B * T, d * w) * _HASH[: d * w], axis=1, dtype=np.uint64)
    h = np.where(np.any(bad != 0, axis=1), BOTTOM, h | np.uint64(1))   # real vectors: odd keys
    h = h.reshape(B, T)
    pos, q1, q2 = top_two(h)
    released = stable_choice(q1, q2, epsilon, delta, rng) & (h[np.arange(B), pos] != BOTTOM)
    return released, sol.reshape(B, T, d, w)[np.arange(B), pos]


def label_keys(vectors: np.ndarray) -> np.ndarray:
    """Hash keys of label vectors given as packed words (..., w): equal vectors get
    equal keys; different ones collide with probability about 2^-64."""
    w = vectors.shape[-1]
    return np.sum(vectors * _HASH[:w], axis=-1, dtype=np.uint64)


def _segment_top_two(sizes, seg_start):
    """Largest and second-largest value of ``sizes`` in each segment (segments start at
    the indices ``seg_start`` of the 1-D array), and the index of the first largest."""
    c1 = np.maximum.reduceat(sizes, seg_start)
    seg = np.cumsum(np.isin(np.arange(sizes.size), seg_start)) - 1
    is_top = sizes == c1[seg]
    idx = np.where(is_top, np.arange(sizes.size), sizes.size)
    top = np.minimum.reduceat(idx, seg_start)
    rest = sizes.copy()
    rest[top] = 0
    return c1, np.maximum.reduceat(rest, seg_start), top


def alg5_scores(x: np.ndarray, keys: np.ndarray, alpha: float, epsilon: float, delta: float,
                rng: np.random.Generator):
    """Steps 1-4 of Algorithm 5 (see ``alg5_points``): returns (q1, q2, has_heavy, heavy)
    with q1, q2 (B,) the best and second-best quality of an assignment of label vectors
    to the heavy points, computed from per-point counts without enumerating the
    2^(k |Hv|) assignments."""
    B, n = x.shape
    trial = np.repeat(np.arange(B), n)
    xf, kf, rowf = x.ravel(), keys.ravel(), np.tile(np.arange(n), B)
    order = np.lexsort((kf, xf, trial))
    t, xs, ks, rows = trial[order], xf[order], kf[order], rowf[order]
    new_x = np.ones(t.size, dtype=bool)
    new_x[1:] = (t[1:] != t[:-1]) | (xs[1:] != xs[:-1])
    new_run = new_x.copy()
    new_run[1:] |= ks[1:] != ks[:-1]
    run_start = np.flatnonzero(new_run)
    run_size = np.diff(np.append(run_start, t.size))
    group_first_run = np.flatnonzero(new_x[run_start])                 # runs that open a point
    count = np.add.reduceat(run_size, group_first_run)                 # c_x
    c1, c2, top_run = _segment_top_two(run_size, group_first_run)      # label-vector counts at x
    g_trial, g_x = t[run_start[group_first_run]], xs[run_start[group_first_run]]
    g_row = rows[run_start[top_run]]
    # Steps 1-2: sanitize the points (Alg 1), keep x with Q_x(S) >= 3 alpha / 8
    a = point_sanitizer(count, n, epsilon / 2, delta / 2, rng)
    heavy = a / n >= 3 * alpha / 8
    ht, c1h, c2h = g_trial[heavy], c1[heavy].astype(float), c2[heavy].astype(float)
    # Steps 3-4: Q1 = min_x c1(x); Q2 = max_x' min(c2(x'), min_{x != x'} c1(x))
    inf = np.inf
    min1 = np.full(B, inf)
    np.minimum.at(min1, ht, c1h)
    at_min = c1h == min1[ht]
    n_min = np.bincount(ht[at_min], minlength=B)
    min2 = np.full(B, inf)
    np.minimum.at(min2, ht[~at_min], c1h[~at_min])
    excl = np.where(at_min & (n_min[ht] == 1), min2[ht], min1[ht])    # min over the other heavy x
    q2 = np.zeros(B)
    np.maximum.at(q2, ht, np.minimum(c2h, excl))
    return min1, q2, np.isfinite(min1), (ht, g_x[heavy], g_row[heavy])


def alg5_points(x: np.ndarray, keys: np.ndarray, alpha: float, epsilon: float, delta: float,
                rng: np.random.Generator):
    """Algorithm 5 on a batch: x (B, n) points, keys (B, n) the rows' label vectors as
    hash keys (``label_keys``). Algorithm 1 and A_dist each run at (eps/2, delta/2), so
    the whole is (eps, delta)-DP by basic composition.

    Returns (released, heavy): released (B,) False where A_dist output bottom (no heavy
    point at all is not a failure: the output is then all-zero, decided from the
    sanitized data alone); heavy = (trial, point, row) flat arrays of the heavy points,
    with for each a row of the sample holding the released label vector v_x (the most
    frequent one at that point)."""
    q1, q2, has, heavy = alg5_scores(x, keys, alpha, epsilon, delta, rng)
    released = np.ones(x.shape[0], dtype=bool)
    if has.any():
        released[has] = stable_choice(q1[has], q2[has], epsilon / 2, delta / 2, rng)
    return released, heavy
