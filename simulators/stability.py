"""Stability-based k-learners of Bun, Nissim, Stemmer, "Simultaneous Private Learning of
Multiple Concepts", whose sample size does not grow with k:

- ``alg4_parities``: Theorem 3.12, Algorithm 4. Parities under the uniform distribution:
  split the sample into T blocks of s rows, solve every block for all k parities at once
  by Gaussian elimination over GF(2), and release the most frequent solution vector with
  A_dist (Prop 3.11, ``mechanisms.stable_choice``).

Each works on a batch of trials along the leading axis.
"""

from __future__ import annotations

import numpy as np

from . import gf2
from .mechanisms import stable_choice

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
