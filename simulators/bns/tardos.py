"""Tardos' fingerprinting code for Bun, Nissim, Stemmer, "Simultaneous Private Learning
of Multiple Concepts", Proposition 4.9, the code behind the
agnostic sqrt(k) lower bounds (Theorem 4.7, Corollary 4.10).

- Gen: t = 1/(300 n), t' in (0, pi/4) with sin^2 t' = t; per column j independently
  r_j ~ U[t', pi/2 - t'], p_j = sin^2 r_j, and C_ij ~ Bernoulli(p_j) for every user i.
  The biases p are the secret shared state.
- Trace(c'): score_i = sum over the columns with c'_j = 1 of U_ij, where
  U_ij = sqrt((1 - p_j)/p_j) if C_ij = 1 and -sqrt(p_j/(1 - p_j)) otherwise; accuse the
  argmax if its score exceeds Z = 20 n ceil(ln(n/xi)), else no one (BOTTOM).
- Length k = 100 n^2 ceil(ln(n/xi)) for full collusion (c = n) and security xi.

Everything is batched over trials (leading axis). Users are numbered 1..n; user i is
row i - 1 of a codebook and column i - 1 of a coalition mask. Large (chunk, n, k) float
temporaries are built a chunk of trials at a time so that they stay small (16 MB; at
n = 8, xi = 0.1, k = 32,000 columns that is 7 trials per chunk), well under the 200 MB
memory cap. Chunking never changes the numbers: the draws are taken in C order.
"""

from __future__ import annotations

import numpy as np

from privbounds.params import ParameterError

BOTTOM = -1
STRATEGIES = ("majority", "minority", "random", "interleaving", "ones", "zeros")
_CHUNK_BYTES = 16e6   # 16 MB chunks: far below the 200 MB cap, and cache-friendlier (3x faster than 200 MB)


def _check_n(n):
    if int(n) != n or n < 2:
        raise ParameterError(f"n must be an integer >= 2, got {n!r}")


def _check_xi(xi):
    if not 0 < xi < 1:
        raise ParameterError(f"xi must be in (0, 1), got {xi!r}")


def _chunk(n: int, k: int) -> int:
    """Trials per chunk so that one (chunk, n, k) float64 array stays under the budget."""
    return max(1, int(_CHUNK_BYTES // (8 * n * k)))


def code_length(n: int, xi: float) -> int:
    """k = 100 n^2 ceil(ln(n/xi)) (our reading of Tardos 2008 with c = n)."""
    _check_n(n)
    _check_xi(xi)
    return int(100 * n * n * np.ceil(np.log(n / xi)))


def threshold(n: int, xi: float) -> float:
    """Accusation threshold Z = 20 n ceil(ln(n/xi))."""
    _check_n(n)
    _check_xi(xi)
    return float(20 * n * np.ceil(np.log(n / xi)))


def biases(n: int, k: int, trials: int, rng: np.random.Generator) -> np.ndarray:
    """The secret column biases p (trials, k): p_j = sin^2 r_j, r_j ~ U[t', pi/2 - t'],
    sin^2 t' = 1/(300 n). (Drawn first by ``generate``; experiments that need only how
    many of a column's bits are 1 can draw Binomial(n, p_j) instead of the codebook.)"""
    t = 1.0 / (300 * int(n))
    t_prime = np.arcsin(np.sqrt(t))
    return np.sin(rng.uniform(t_prime, np.pi / 2 - t_prime, size=(int(trials), int(k)))) ** 2


def generate(n: int, k: int, trials: int, rng: np.random.Generator):
    """Draw ``trials`` independent codebooks: (p (trials, k) float64, codebook
    (trials, n, k) bool)."""
    _check_n(n)
    if int(k) != k or k < 1:
        raise ParameterError(f"k (code length) must be an integer >= 1, got {k!r}")
    if int(trials) != trials or trials < 1:
        raise ParameterError(f"trials must be an integer >= 1, got {trials!r}")
    n, k, trials = int(n), int(k), int(trials)
    p = biases(n, k, trials, rng)
    codebook = np.empty((trials, n, k), dtype=bool)
    step = _chunk(n, k)
    for a in range(0, trials, step):
        b = min(trials, a + step)
        codebook[a:b] = rng.random((b - a, n, k)) < p[a:b, None, :]
    return p, codebook


def _check_shapes(codebook, p, word=None):
    if codebook.ndim != 3 or p.shape != (codebook.shape[0], codebook.shape[2]):
        raise ParameterError(f"p must have shape (trials, k) = {(codebook.shape[0], codebook.shape[2])}, "
                             f"got {p.shape}")
    if word is not None and word.shape != p.shape:
        raise ParameterError(f"word must have shape (trials, k) = {p.shape}, got {word.shape}")


def scores(codebook: np.ndarray, p: np.ndarray, word: np.ndarray) -> np.ndarray:
    """Tardos scores (trials, n) of every user against the pirate word (trials, k)."""
    codebook, p, word = np.asarray(codebook, bool), np.asarray(p, float), np.asarray(word, bool)
    _check_shapes(codebook, p, word)
    T, n, k = codebook.shape
    up = np.sqrt((1 - p) / p)                 # U_ij when C_ij = 1
    down = np.sqrt(p / (1 - p))               # -U_ij when C_ij = 0
    w = word.astype(float)
    # sum_j w_j U_ij = sum_j w_j C_ij (up_j + down_j) - sum_j w_j down_j: one batched
    # matrix-vector product per chunk instead of materialising U.
    v = w * (up + down)
    base = (w * down).sum(axis=1)
    out = np.empty((T, n))
    step = _chunk(n, k)
    for a in range(0, T, step):
        b = min(T, a + step)
        out[a:b] = np.einsum("tnk,tk->tn", codebook[a:b], v[a:b])     # 2x faster than a float copy + matmul
    return out - base[:, None]


def trace(codebook: np.ndarray, p: np.ndarray, word: np.ndarray, xi: float) -> np.ndarray:
    """Accused user (trials,) in 1..n, or BOTTOM when no score exceeds Z."""
    _check_xi(xi)
    s = scores(codebook, p, word)
    n = s.shape[1]
    best = np.argmax(s, axis=1)
    top = s[np.arange(len(best)), best]
    return np.where(top > threshold(n, xi), best + 1, BOTTOM)


def _member_ones(codebook: np.ndarray, coalition: np.ndarray) -> np.ndarray:
    """Number of coalition members holding a 1, per column (trials, k)."""
    if codebook.shape[1] < 256:
        # uint8 einsum: 40x faster than a masked boolean sum, exact while n < 256
        return np.einsum("tnk,tn->tk", codebook.view(np.uint8), coalition.view(np.uint8)).astype(np.int64)
    return (codebook & coalition[:, :, None]).sum(axis=1)


def pirate(codebook: np.ndarray, coalition: np.ndarray, strategy: str, rng: np.random.Generator) -> np.ndarray:
    """Pirate word (trials, k) forged by the coalition (trials, n) bool mask from its
    members' rows only, under the marking assumption: a column on which every member
    holds the same bit is copied.

    Strategies on the unmarked columns: majority / minority of the members' bits (ties
    broken by a fair coin), random (the bit of a uniformly random member, drawn per
    column), interleaving (positions split into |S| contiguous segments, one per member
    in increasing user order, each copied from its member), ones, zeros."""
    if strategy not in STRATEGIES:
        raise ParameterError(f"strategy must be one of {', '.join(STRATEGIES)}, got {strategy!r}")
    codebook, coalition = np.asarray(codebook, bool), np.asarray(coalition, bool)
    T, n, k = codebook.shape
    if coalition.ndim != 2 or coalition.shape[0] != T:
        raise ParameterError(f"coalition must be a (trials, n) = {(T, n)} mask, got shape {coalition.shape}")
    if coalition.shape[1] > n:
        raise ParameterError(f"coalition is larger than n = {n}: mask has {coalition.shape[1]} users")
    if coalition.shape[1] != n:
        raise ParameterError(f"coalition must be a (trials, n) = {(T, n)} mask, got shape {coalition.shape}")
    size = coalition.sum(axis=1)
    if (size == 0).any():
        raise ParameterError("coalition must have at least one member in every trial (an empty coalition was given)")
    size = size[:, None]
    if strategy == "interleaving":
        # members first, in increasing user order (stable sort on "not a member")
        order = np.argsort(~coalition, axis=1, kind="stable")
        seg = (np.arange(k)[None, :] * size) // k                  # segment index 0..|S|-1
        who = np.take_along_axis(order, seg, axis=1)               # (T, k) user row copied
        # copying a member's bit always respects the marking assumption
        return np.take_along_axis(codebook, who[:, None, :], axis=1)[:, 0, :]
    ones = _member_ones(codebook, coalition)
    coin = None
    if strategy in ("majority", "minority", "random"):
        coin = rng.random((T, k))
    if strategy == "majority":
        word = (2 * ones > size) | ((2 * ones == size) & (coin < 0.5))
    elif strategy == "minority":
        word = (2 * ones < size) | ((2 * ones == size) & (coin < 0.5))
    elif strategy == "random":
        word = coin * size < ones                                  # P = ones/|S|: a random member's bit
    elif strategy == "ones":
        word = np.ones((T, k), bool)
    else:
        word = np.zeros((T, k), bool)
    word = np.where(ones == size, True, np.where(ones == 0, False, word))   # marking assumption
    return word


def feasible(codebook: np.ndarray, coalition: np.ndarray, word: np.ndarray) -> np.ndarray:
    """Whether each word (trials, k) lies in the feasible set F(C_S) (trials,)."""
    codebook, coalition, word = np.asarray(codebook, bool), np.asarray(coalition, bool), np.asarray(word, bool)
    ones = _member_ones(codebook, coalition)
    size = coalition.sum(axis=1)[:, None]
    return ~(((ones == size) & ~word) | ((ones == 0) & word)).any(axis=1)


def accusations(n: int, size: int, xi: float, strategy: str, trials: int, rng: np.random.Generator,
                k: int | None = None):
    """Run ``trials`` uniformly random coalitions of ``size`` users against fresh codes of
    length k (default: the proposition's length). Returns (accused (trials,), guilty,
    innocent, feasible) where guilty/innocent say whether the accused user is a member /
    not a member (both False on BOTTOM) and feasible whether the pirate word obeyed the
    marking assumption. Trials are processed in memory-bounded chunks."""
    _check_n(n)
    _check_xi(xi)
    if int(size) != size or not 1 <= size <= n:
        raise ParameterError(f"coalition size must be in [1, n = {n}], got {size!r}")
    k = code_length(n, xi) if k is None else k
    if strategy not in STRATEGIES:
        raise ParameterError(f"strategy must be one of {', '.join(STRATEGIES)}, got {strategy!r}")
    out = [np.empty(trials, int), np.empty(trials, bool), np.empty(trials, bool), np.empty(trials, bool)]
    step = _chunk(n, k)
    for a in range(0, trials, step):
        b = min(trials, a + step)
        coalition = np.argsort(rng.random((b - a, n)), axis=1) < size
        p, cb = generate(n, k, b - a, rng)
        word = pirate(cb, coalition, strategy, rng)
        accused = trace(cb, p, word, xi)
        member = coalition[np.arange(b - a), np.clip(accused - 1, 0, n - 1)]
        out[0][a:b] = accused
        out[1][a:b] = (accused != BOTTOM) & member
        out[2][a:b] = (accused != BOTTOM) & ~member
        out[3][a:b] = feasible(cb, coalition, word)
    return tuple(out)
