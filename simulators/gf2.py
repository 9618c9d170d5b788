"""Gaussian elimination over GF(2), vectorised over trials and right-hand sides.

Used for parities (Bun-Nissim-Stemmer: consistent ERM for PAR_d in Cor 2.12, and the
subsample-and-aggregate learner of Thm 3.12). The loop runs over the d pivot columns
only; each step is numpy over (trials x rows x columns).
"""

from __future__ import annotations

import numpy as np


def bits(x, d: int) -> np.ndarray:
    """The d low bits of integers x, least significant first: shape x.shape + (d,)."""
    return ((np.asarray(x)[..., None] >> np.arange(d)) & 1).astype(bool)


def solve(A: np.ndarray, Y: np.ndarray):
    """Solve A a_j = y_j over GF(2) for every trial and every column j.

    A: (B, n, d) bools, Y: (B, n, k) bools. Returns (solutions, consistent, rank):
    solutions (B, k) integers whose bit c is a_j[c] (free variables set to 0, so this is
    the first consistent parity when ordered by index), consistent (B, k) bools (False
    when no parity fits column j), rank (B,)."""
    A = np.asarray(A, dtype=bool)
    Y = np.asarray(Y, dtype=bool)
    B, n, d = A.shape
    if n == 0:  # no constraints: the all-zero parity fits every column
        return np.zeros((B, Y.shape[2]), np.int64), np.ones((B, Y.shape[2]), bool), np.zeros(B, int)
    M = np.concatenate([A, Y], axis=2)
    used = np.zeros((B, n), dtype=bool)
    pivot_row = np.full((B, d), -1)
    rows = np.arange(B)
    for c in range(d):
        col = M[:, :, c]
        cand = col & ~used
        has = cand.any(axis=1)
        r = np.argmax(cand, axis=1)
        prow = M[rows, r].copy()                     # (B, d + k)
        flip = col & has[:, None]
        flip[rows, r] = False
        M ^= flip[:, :, None] & prow[:, None, :]
        used[rows, r] |= has
        pivot_row[:, c] = np.where(has, r, -1)
    rhs = M[:, :, d:]                                # (B, n, k)
    consistent = ~np.any(rhs & ~used[:, :, None], axis=1)
    picked = np.take_along_axis(rhs, np.maximum(pivot_row, 0)[:, :, None], axis=1)  # (B, d, k)
    picked &= (pivot_row >= 0)[:, :, None]
    weights = (1 << np.arange(d, dtype=np.int64))[None, :, None]
    solutions = np.sum(picked * weights, axis=1)
    return solutions, consistent, used.sum(axis=1)
