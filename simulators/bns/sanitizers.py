"""Sanitizers (private query release) for the point class, batched over trials.

- ``point_sanitizer``: Bun-Nissim-Stemmer Prop 2.20, Algorithm 1. Releases every point
  count: zero counts are released as 0 without noise (so the cost never depends on
  |X|), non-zero counts get Lap(2/eps) and are suppressed below the threshold
  tau = 1 + (2/eps) ln(2/delta). (eps, delta)-DP: moving one row changes two counts by
  one; where both counts are non-zero the Laplace noise costs eps/2 each, and a count
  that goes 0 -> 1 is released (non-zero) with probability (1/2) e^(-(tau - 1) eps/2)
  = delta/4. The extracted text of the paper lost the noise scale and threshold: these
  are ours (RECONSTRUCTED).
- ``laplace_histogram_error``: the textbook pure eps-DP histogram (Lap(2/eps) on every
  one of the |X| counts, negative answers clipped to 0), as the contrast whose error
  grows like ln|X|. Only its error is simulated: the maximum over the zero counts is
  drawn exactly from its distribution function instead of drawing |X| variables.

- ``tree_prefix_counts`` and ``threshold_sanitizer``: our SUBSTITUTE for the
  threshold sanitizer of Prop 2.21 (Bun, Nissim, Stemmer, Vadhan 2015, whose recursive
  construction with 2^(O(log* |X|)) cost is impractical and invisible at these sizes):
  the pure eps-DP binary-tree (hierarchical) histogram. Every dyadic node below the root
  gets Lap(2L/eps), L = log2|X| (one changed row moves one count by one in each of the L
  noisy levels, twice: L1 sensitivity 2L); a prefix count is the sum of at most L nodes.
  Its cost grows polylogarithmically in |X|, not like 2^(log* |X|).

Point samples are handled as distinct values with their counts (``group_counts``):
only the support of the sample is ever touched.
"""

from __future__ import annotations

import numpy as np

from privbounds.params import check_positive


def group_counts(x: np.ndarray):
    """Distinct values of every trial's sample x (B, n), flattened over trials in
    (trial, value) order: returns (trial, value, count) 1-D arrays."""
    B, n = x.shape
    xs = np.sort(x, axis=1)
    new = np.ones((B, n), dtype=bool)
    new[:, 1:] = xs[:, 1:] != xs[:, :-1]
    starts = np.flatnonzero(new.ravel())
    counts = np.diff(np.append(starts, B * n))
    return starts // n, xs.ravel()[starts], counts


def sanitizer_threshold(epsilon: float, delta: float) -> float:
    """tau = 1 + (2/eps) ln(2/delta): the suppression threshold of Algorithm 1."""
    return 1.0 + (2.0 / epsilon) * np.log(2.0 / delta)


def point_noise_scale(epsilon: float) -> float:
    """Algorithm 1's noise scale 2/eps on each non-zero count (its own function so that a
    privacy audit's mutation test can halve the noise alone, the threshold unchanged)."""
    return 2.0 / epsilon


def point_sanitizer(counts, n, epsilon: float, delta: float, rng: np.random.Generator) -> np.ndarray:
    """Algorithm 1 applied to the non-zero counts of a sample of n rows: the released
    counts a_x (the answers are a_x / n; every x outside the support is answered 0)."""
    check_positive("epsilon", epsilon)
    if not 0 < delta < 1:
        raise ValueError(f"delta must be in (0, 1), got {delta!r}")
    c = np.asarray(counts, float)
    noisy = c + rng.laplace(0.0, point_noise_scale(epsilon), size=c.shape)
    released = np.clip(noisy, 0.0, n)
    return np.where((c > 0) & (noisy >= sanitizer_threshold(epsilon, delta)), released, 0.0)


def point_sanitizer_error(x: np.ndarray, epsilon: float, delta: float, rng: np.random.Generator):
    """max_x |a_x - c_x| / n of Algorithm 1 for every trial of x (B, n)."""
    B, n = x.shape
    trial, _, counts = group_counts(x)
    a = point_sanitizer(counts, n, epsilon, delta, rng)
    err = np.zeros(B)
    np.maximum.at(err, trial, np.abs(a - counts) / n)
    return err


def laplace_histogram_error(x: np.ndarray, domain_size: int, epsilon: float, rng: np.random.Generator):
    """max_x |a_x - c_x| / n of the pure eps-DP Laplace histogram over all of X:
    a_x = clip(c_x + Lap(2/eps), 0, n). Over the m zero counts, max_x a_x is the
    maximum of m i.i.d. max(0, Lap(b)), whose distribution function is
    (1 - e^(-t/b)/2)^m for t >= 0; it is drawn by inversion."""
    check_positive("epsilon", epsilon)
    B, n = x.shape
    b = 2.0 / epsilon
    trial, _, counts = group_counts(x)
    a = np.clip(counts + rng.laplace(0.0, b, size=counts.shape), 0.0, n)
    err = np.zeros(B)
    np.maximum.at(err, trial, np.abs(a - counts))
    zeros = domain_size - np.bincount(trial, minlength=B)
    u = rng.random(B)
    # u^(1/m) = 1 - e^(-t/b)/2  =>  t = -b ln(2 (1 - u^(1/m))); 1 - u^(1/m) = -expm1(ln(u)/m)
    with np.errstate(divide="ignore"):
        t = -b * np.log(2.0 * -np.expm1(np.log(u) / np.maximum(zeros, 1)))
    t = np.where(zeros > 0, np.clip(t, 0.0, n), 0.0)
    return np.maximum(err, t) / n


def tree_noise_scale(levels: int, epsilon: float) -> float:
    """The tree's Lap(2L/eps) on every node (its own function so that a privacy audit's
    mutation test can halve it where every tree release takes it from)."""
    return 2.0 * levels / epsilon


def tree_nodes(hist: np.ndarray, epsilon: float, rng: np.random.Generator) -> list:
    """Noisy dyadic node counts of the binary tree, levels 0 (single points) to L - 1
    (halves of X): level l is (B, |X| / 2^l), each count + Lap(2L/eps). The root (n) is
    not released with noise: neighbouring samples share it."""
    check_positive("epsilon", epsilon)
    B, X = hist.shape
    L = int(X).bit_length() - 1
    if 2 ** L != X or L < 1:
        raise ValueError(f"the domain size must be a power of 2 >= 2, got {X}")
    scale = tree_noise_scale(L, epsilon)
    out = []
    for lev in range(L):
        nodes = hist.reshape(B, X >> lev, 1 << lev).sum(axis=2)
        out.append(nodes + rng.laplace(0.0, scale, size=nodes.shape))
    return out


def tree_prefix_counts(hist: np.ndarray, epsilon: float, rng: np.random.Generator) -> np.ndarray:
    """Noisy prefix counts F~(m) = #{rows with x < m} + noise for m = 0..|X| from the
    dyadic tree (``tree_nodes``): the prefix [0, m) is the union of the level-l nodes
    (m >> l) - 1 for the bits l set in m. F~(0) = 0 and F~(|X|) = n are exact."""
    B, X = hist.shape
    m = np.arange(X)
    out = np.zeros((B, X + 1))
    out[:, X] = hist.sum(axis=1)
    for lev, nodes in enumerate(tree_nodes(hist, epsilon, rng)):
        use = ((m >> lev) & 1).astype(bool)
        out[:, :X] += np.where(use, nodes[:, np.maximum((m >> lev) - 1, 0)], 0.0)
    return out


def threshold_sanitizer(hist: np.ndarray, epsilon: float, step: float, rng: np.random.Generator):
    """Synthetic prefix counts from the tree: monotone (running maximum; keeps the
    error bound because the true prefix counts are monotone), clipped to [0, n], and
    rounded to multiples of ``step`` so that the synthetic database has at most n / step
    distinct points. Returns (F_S (B, |X| + 1), support mask (B, |X|)): x is in the
    synthetic database when F_S jumps between m = x and m = x + 1. Post-processing of
    ``tree_prefix_counts``, so eps-DP."""
    n = hist.sum(axis=1, keepdims=True)
    F = np.maximum.accumulate(tree_prefix_counts(hist, epsilon, rng), axis=1)
    F = np.minimum(np.maximum(F, 0.0), n)
    F = np.round(F / step) * step
    return F, np.diff(F, axis=1) > 0
