"""Fingerprinting codes for the lower bounds of Bun, Nissim, Stemmer, "Simultaneous
Private Learning of Multiple Concepts", Section 4 (first step of issue 5).

- Boneh-Shaw's code Gamma_0(n, d) (Lemma 4.5, the code compatible with THRESH): n users,
  n - 1 column types with d identical columns each; a column of type m has bit 1 for the
  users i <= m (the labelling of u_1..u_n by the threshold c_m). The columns are secretly
  permuted. Tracing (the Boneh-Shaw tracer) reads only the pirate word's weight
  w(B_m) in each type block:
    1. w(B_1) > 0 => user 1; 2. else w(B_{n-1}) < d => user n;
    3. else the first s in 2..n-1 with w(B_{s-1}) < K/2 - sqrt((K/2) ln(2n/xi)),
       K = w(B_{s-1}) + w(B_s) => user s; 4. else no one.
  Block length d = ceil(2 n^2 ln(2n/xi)), so k = (n - 1) d = O(n^3 log(n/xi)).

Coalitions and pirates. Under the marking assumption a pirate must copy every column on
which its coalition agrees (a "marked" type: all members on the same side of m). Most
strategies here decide each unmarked column from that column's coalition bits alone
(majority, minority, a random member's bit, all ones, all zeros), so they cannot tell two
columns of one type apart and the secret permutation changes nothing: the block weight
of an unmarked type is Binomial(d, p) with the strategy's p, drawn directly.

The "interleaving" pirate is positional: it cuts the k positions it sees into |S|
contiguous segments, one per member in increasing user order, and copies each member's
bits on its segment (always feasible, since it copies real codewords). Because the
secret permutation is uniform, the (types x segments) table of how many type-m columns
fall into each segment is a multivariate hypergeometric contingency table with row sums
d and column sums the segment lengths; it is sampled exactly, type by type, as a chain
of univariate hypergeometric draws from the remaining segment capacities. Then
w(B_m) = number of type-m columns lying in segments of members i <= m. Everything is
batched over trials.
"""

from __future__ import annotations

import numpy as np

from privbounds.params import ParameterError

STRATEGIES = ("majority", "minority", "random", "interleaving", "ones", "zeros")
BOTTOM = -1


def block_length(n: int, xi: float) -> int:
    """d = ceil(2 n^2 ln(2n/xi)) columns per type (our reconstruction of Gamma_0)."""
    _check(n, xi)
    return int(np.ceil(2 * n * n * np.log(2 * n / xi)))


def _check(n, xi, coalition_size=None):
    if int(n) != n or n < 2:
        raise ParameterError(f"n must be an integer >= 2, got {n!r}")
    if not 0 < xi < 1:
        raise ParameterError(f"xi must be in (0, 1), got {xi!r}")
    if coalition_size is not None and not 1 <= coalition_size <= n:
        raise ParameterError(f"coalition size must be in [1, n = {n}], got {coalition_size!r}")


def random_coalitions(n: int, size: int, trials: int, rng: np.random.Generator) -> np.ndarray:
    """Membership masks (trials, n) of uniformly random coalitions of ``size`` users
    (user i is column i - 1)."""
    _check(n, 0.5, size)
    return np.argsort(rng.random((trials, n)), axis=1) < size


def pirate_block_weights(coalition: np.ndarray, d: int, strategy: str, rng: np.random.Generator) -> np.ndarray:
    """w(B_m) for m = 1..n-1 (trials, n - 1) of the pirate word a coalition (trials, n)
    forges with ``strategy``, under the marking assumption."""
    if strategy not in STRATEGIES:
        raise ParameterError(f"strategy must be one of {', '.join(STRATEGIES)}, got {strategy!r}")
    T, n = coalition.shape
    if strategy == "interleaving":
        return _interleaving_weights(coalition, d, rng)
    size = coalition.sum(axis=1, keepdims=True)
    ones = np.cumsum(coalition, axis=1)[:, : n - 1]          # members i <= m hold bit 1 in type m
    frac = ones / size
    p = {"majority": np.where(2 * ones > size, 1.0, np.where(2 * ones == size, 0.5, 0.0)),
         "minority": np.where(2 * ones < size, 1.0, np.where(2 * ones == size, 0.5, 0.0)),
         "random": frac, "ones": np.ones_like(frac), "zeros": np.zeros_like(frac)}[strategy]
    marked = (ones == 0) | (ones == size)
    p = np.where(marked, (ones == size).astype(float), p)    # marking assumption: copy the agreed bit
    return rng.binomial(d, p)


def segment_lengths(k: int, size: np.ndarray, n: int) -> np.ndarray:
    """Lengths (trials, n) of the |S| contiguous segments of k positions (position j
    belongs to segment floor(j |S| / k)); segments r >= |S| have length 0."""
    size = np.asarray(size)[:, None]
    r = np.arange(n + 1)[None, :]
    edge = -(-r * k // size)                                  # ceil(r k / |S|): first position of segment r
    edge = np.minimum(edge, k)
    return np.diff(edge, axis=1)


def _interleaving_weights(coalition: np.ndarray, d: int, rng: np.random.Generator) -> np.ndarray:
    T, n = coalition.shape
    size = coalition.sum(axis=1)
    k = (n - 1) * d
    order = np.argsort(~coalition, axis=1, kind="stable") + 1    # segment r is copied from user order[:, r]
    rem = segment_lengths(k, size, n)                            # free positions left in each segment
    weights = np.zeros((T, n - 1), dtype=np.int64)
    # Exact multivariate hypergeometric table, type by type; within a type the draw is a
    # chain of univariate hypergeometrics (segment r against segments r+1..n-1).
    for m in range(1, n):
        left = np.full(T, d, dtype=np.int64)
        after = rem.sum(axis=1)
        for r in range(n):
            after = after - rem[:, r]
            x = rng.hypergeometric(rem[:, r], after, left) if r < n - 1 else left
            rem[:, r] -= x
            left = left - x
            weights[:, m - 1] += np.where(order[:, r] <= m, x, 0)   # member i <= m holds 1 on type m
    return weights


def trace(weights: np.ndarray, d: int, xi: float) -> np.ndarray:
    """Boneh-Shaw tracing from block weights (trials, n - 1): the accused user (1..n) or
    BOTTOM."""
    T, m = weights.shape
    n = m + 1
    out = np.full(T, BOTTOM)
    first = weights[:, 0] > 0
    out[first] = 1
    last = ~first & (weights[:, -1] < d)
    out[last] = n
    rest = ~first & ~last
    if n > 2:
        lo, hi = weights[:, :-1].astype(float), weights[:, 1:].astype(float)     # w(B_{s-1}), w(B_s), s = 2..n-1
        K = lo + hi
        hit = lo < K / 2 - np.sqrt(K / 2 * np.log(2 * n / xi))
        s = np.argmax(hit, axis=1) + 2
        found = rest & hit.any(axis=1)
        out[found] = s[found]
    return out


def accusations(n: int, size: int, xi: float, strategy: str, trials: int, rng: np.random.Generator,
                d: int | None = None):
    """Run ``trials`` random coalitions against the code: (accused (trials,), guilty
    (trials,) whether the accused is a coalition member, innocent (trials,) whether an
    innocent user was accused). ``d`` overrides the block length (a truncated code; the
    tracer is unchanged)."""
    _check(n, xi, size)
    if d is None:
        d = block_length(n, xi)
    elif int(d) != d or d < 1:
        raise ParameterError(f"d (block length) must be an integer >= 1, got {d!r}")
    coalition = random_coalitions(n, size, trials, rng)
    accused = trace(pirate_block_weights(coalition, d, strategy, rng), d, xi)
    idx = np.clip(accused - 1, 0, n - 1)
    member = coalition[np.arange(trials), idx]
    return accused, (accused != BOTTOM) & member, (accused != BOTTOM) & ~member
