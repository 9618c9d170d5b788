"""Fast Walsh-Hadamard transform: the error counts of all 2^d parities at once.

For a labelled sample with signed histogram s(x) = sum over rows at x of (-1)^y, the
transform W(a) = sum_x s(x) (-1)^<a, x> equals (agreements - disagreements) of parity a,
so err(a) = (n - W(a)) / 2 for every a in O(d 2^d) instead of O(n 2^d). Used by the
pure-DP direct sum for PAR_d (Bun-Nissim-Stemmer Example 3.5), whose exponential
mechanism needs every parity's error, and by the rounding of Lemma 5.3
(``round_to_parity``): the nearest parity to a truth table is the largest coefficient of
the transform of (-1)^h.
"""

from __future__ import annotations

import numpy as np


def wht(v: np.ndarray) -> np.ndarray:
    """Unnormalised Walsh-Hadamard transform along the last axis (length 2^d): out[a] =
    sum_x v[x] (-1)^popcount(a & x). Butterfly stages, numpy over everything else."""
    v = np.array(v, dtype=float)
    size = v.shape[-1]
    d = size.bit_length() - 1
    if 2 ** d != size:
        raise ValueError(f"the last axis must have length 2^d, got {size}")
    lead = v.shape[:-1]
    for c in range(d):
        h = 1 << c
        w = v.reshape(*lead, size // (2 * h), 2, h)
        a, b = w[..., 0, :].copy(), w[..., 1, :]
        w[..., 0, :] += b
        w[..., 1, :] = a - b
    return v


def parity_errors(signed_hist: np.ndarray, n) -> np.ndarray:
    """Misclassified rows of every parity: signed_hist (..., 2^d) with entries
    (rows labelled 0) - (rows labelled 1) at each x, n the number of rows (broadcast
    against the leading axes); returns (..., 2^d) error counts."""
    return (np.asarray(n, float)[..., None] - wht(signed_hist)) / 2


def round_to_parity(tables) -> np.ndarray:
    """Bun-Nissim-Stemmer Lemma 5.3 (improper -> proper): the parity nearest to each truth
    table under the uniform distribution. tables (..., 2^d) with entries h(x) in {0, 1}
    (bool or int); returns (...,) parity indices a* = argmax_a W(a), W the transform of
    (-1)^h(x), since W(a) = 2^d (1 - 2 dist(h, c_a)). If h is within distance < 1/4 of a
    parity c, W(c) > 2^d / 2 > W(a) for every other a (two parities are 1/2 apart), so c
    is returned exactly. A tie (possible from distance exactly 1/4 on) goes to the
    smallest index. Deterministic post-processing: it keeps the privacy of whatever
    produced the tables."""
    t = np.asarray(tables)
    if t.dtype != bool and not np.all((t == 0) | (t == 1)):
        raise ValueError("tables must hold labels in {0, 1}")
    return np.argmax(wht(1.0 - 2.0 * t.astype(float)), axis=-1)
