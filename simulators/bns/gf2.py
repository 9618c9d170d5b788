"""Gaussian elimination over GF(2), bit-packed and vectorised over trials.

Used for parities (Bun-Nissim-Stemmer: consistent ERM for PAR_d in Cor 2.12, and the
subsample-and-aggregate learner of Thm 3.12, Alg 4). A row of the system is an example
x in {0,1}^d held as one integer, and its k labels packed 64 to a word, so one pass
over the d pivot columns does all k right-hand sides at once: each step is numpy over
(trials x rows x words), never a Python loop over examples or label columns.
"""

from __future__ import annotations

import numpy as np


def bits(x, d: int) -> np.ndarray:
    """The d low bits of integers x, least significant first: shape x.shape + (d,)."""
    return ((np.asarray(x)[..., None] >> np.arange(d)) & 1).astype(bool)


def words(k: int) -> int:
    """Number of 64-bit words that hold k bits."""
    return (k + 63) // 64


def pack(Y: np.ndarray) -> np.ndarray:
    """Bools (..., k) -> uint64 words (..., words(k)); bit j of the result is Y[..., j]."""
    Y = np.asarray(Y, dtype=bool)
    k = Y.shape[-1]
    pad = np.zeros(Y.shape[:-1] + (64 * words(k) - k,), dtype=bool)
    packed = np.packbits(np.concatenate([Y, pad], axis=-1), axis=-1, bitorder="little")
    return np.ascontiguousarray(packed).view("<u8")


def unpack(W: np.ndarray, k: int) -> np.ndarray:
    """Inverse of ``pack``: uint64 words (..., w) -> bools (..., k)."""
    W = np.ascontiguousarray(W, dtype="<u8")
    return np.unpackbits(W.view(np.uint8), axis=-1, bitorder="little")[..., :k].astype(bool)


def random_targets(shape, d: int, k: int, rng: np.random.Generator) -> np.ndarray:
    """k uniform parities on {0,1}^d, packed by coordinate: (shape..., d, words(k)), bit j
    of word row c is coordinate c of target j (unused high bits are 0)."""
    w = words(k)
    t = rng.integers(0, np.iinfo(np.uint64).max, size=tuple(shape) + (d, w), dtype=np.uint64,
                     endpoint=True)
    if k % 64:
        t[..., -1] &= np.uint64((1 << (k % 64)) - 1)
    return t


def parity_labels(x: np.ndarray, targets: np.ndarray, d: int) -> np.ndarray:
    """Packed labels <a_j, x_i> mod 2 for every row and target: x (..., n) integers,
    targets (..., d, w) from ``random_targets`` -> (..., n, w). The label vector of x
    is the XOR of the coordinate rows c where x has a 1."""
    x = np.asarray(x, dtype=np.int64)
    out = np.zeros(x.shape + (targets.shape[-1],), dtype=np.uint64)
    for c in range(d):
        on = ((x >> c) & 1).astype(bool)[..., None]
        out ^= np.where(on, targets[..., None, c, :], np.uint64(0))
    return out


def solve_packed(x: np.ndarray, Yw: np.ndarray, d: int):
    """Solve X a_j = y_j over GF(2) for every trial and every packed column j.

    x: (B, n) integers, the rows of X as d-bit numbers; Yw: (B, n, w) packed labels.
    Returns (solution, inconsistent, rank): solution (B, d, w) packed like
    ``random_targets`` (free variables set to 0, so each column gets the first
    consistent parity in index order), inconsistent (B, w) packed flags of the columns
    no parity fits, rank (B,)."""
    x = np.array(x, dtype=np.int64)  # copies: elimination works in place
    M = np.array(Yw, dtype=np.uint64)
    B, n = x.shape
    w = M.shape[-1]
    used = np.zeros((B, n), dtype=bool)
    solution = np.zeros((B, d, w), dtype=np.uint64)
    rows = np.arange(B)
    pivot = np.zeros((B, d), dtype=np.int64)
    has_pivot = np.zeros((B, d), dtype=bool)
    if n == 0:
        return solution, np.zeros((B, w), np.uint64), np.zeros(B, int)
    for c in range(d):
        col = ((x >> c) & 1).astype(bool)
        cand = col & ~used
        has = cand.any(axis=1)
        r = np.argmax(cand, axis=1)
        px, pm = x[rows, r].copy(), M[rows, r].copy()
        flip = col & has[:, None]
        flip[rows, r] = False
        x ^= np.where(flip, px[:, None], 0)
        M ^= np.where(flip[:, :, None], pm[:, None, :], np.uint64(0))
        used[rows, r] |= has
        pivot[:, c], has_pivot[:, c] = r, has
    # Reduced form: pivot row of column c has a 1 in column c and 0 in every other
    # pivot column, so a[c] = its right-hand side; free variables are 0.
    solution = np.where(has_pivot[:, :, None], M[rows[:, None], pivot], np.uint64(0))
    inconsistent = np.bitwise_or.reduce(np.where(used[:, :, None], np.uint64(0), M), axis=1)
    return solution, inconsistent, used.sum(axis=1)


def solve(A: np.ndarray, Y: np.ndarray):
    """Unpacked interface: A (B, n, d) bools, Y (B, n, k) bools. Returns (solutions,
    consistent, rank): solutions (B, k) integers whose bit c is a_j[c] (the first
    consistent parity by index), consistent (B, k) bools, rank (B,)."""
    A = np.asarray(A, dtype=bool)
    B, n, d = A.shape
    k = Y.shape[2]
    x = np.sum(A * (1 << np.arange(d, dtype=np.int64)), axis=-1) if d else np.zeros((B, n), np.int64)
    sol, bad, rank = solve_packed(x, pack(Y), d)
    coords = unpack(sol, k)                                   # (B, d, k)
    solutions = np.sum(coords * (1 << np.arange(d, dtype=np.int64))[None, :, None], axis=1)
    return solutions, ~unpack(bad, k), rank
