"""Threshold learners over large grids X_b = {0, ..., 2^b - 1} (b up to 60), batched over
trials, for Sivakumar's Thm 2.2 (ERM), Thm 3.4's finite shadow and Thm 3.5:

- ``erm_midpoint``: Thm 2.2's ERM, the middle of the consistent stretch (a, c] between the
  largest negative a and the smallest positive c. Not private.
- ``interval_sampler``: the exponential mechanism over all 2^b + 1 thresholds, sampled in
  O(m log m) per trial for a sample on m support points: the support cuts the thresholds
  into m + 1 runs of constant error; a run is drawn with probability proportional to its
  size times exp(-eps errors / 2) (Gumbel-max on log weights: the size, up to 2^b, enters
  as its logarithm, never as a float power of 2^b times an exponential), then a uniform
  member. This is exactly the exponential mechanism over the individual thresholds, so
  it is eps-DP (sensitivity 1).
- ``binary_search``: our (eps, delta)-DP threshold learner: a binary search over the
  thresholds with Gaussian answers to D(t) = #{negatives at or above t} - #{positives
  below t} (err_S(t) = |D(t)| on realisable data), b steps, then one Gaussian answer
  picks between the two last candidates. All b + 1 answers have sensitivity 2 (one row
  replaced) and noise sigma = bounds.sivakumar.binary_search_sigma(b, eps, delta),
  composed exactly in Gaussian DP. Its sample size grows like sqrt(b); the recursive
  interior-point learners whose cost grows like log*|X| are not implemented.

Thresholds are c_t(x) = 1 iff x >= t, t in {0, ..., 2^b} (concepts.py's convention). The
sample enters as counts on a support (B, m) with labels (B, m); support points need not
be sorted or distinct.
"""

from __future__ import annotations

import numpy as np

from privbounds.bounds.sivakumar import binary_search_sigma
from privbounds.simulators.shared.mechanisms import exponential_mechanism

MAX_BITS = 60  # thresholds up to 2^60 fit int64 with room for the midpoint sums


def _check_bits(b: int) -> None:
    if not 0 <= b <= MAX_BITS:
        raise ValueError(f"b must be in [0, {MAX_BITS}], got {b}")


def _runs(support, counts, labels, b):
    """Errors (B, m + 1), log sizes (B, m + 1) and first members (B, m + 1) of the runs of
    thresholds of constant error: t in [0, s_1], [s_i + 1, s_{i+1}], [s_m + 1, 2^b]."""
    support = np.asarray(support, dtype=np.int64)
    order = np.argsort(support, axis=1)
    s = np.take_along_axis(support, order, axis=1)
    c = np.take_along_axis(np.asarray(counts, dtype=float), order, axis=1)
    lab = np.take_along_axis(np.asarray(labels, dtype=bool), order, axis=1)
    B, m = s.shape
    errors = np.empty((B, m + 1))
    errors[:, 0] = (c * ~lab).sum(axis=1)  # t = 0 labels everything 1: every negative errs
    errors[:, 1:] = errors[:, :1] + np.cumsum(np.where(lab, c, -c), axis=1)
    starts = np.concatenate([np.zeros((B, 1), np.int64), s + 1], axis=1)
    ends = np.concatenate([s, np.full((B, 1), 1 << b, dtype=np.int64)], axis=1)  # inclusive
    size = ends - starts + 1  # 0 for a repeated support point
    with np.errstate(divide="ignore"):  # an empty run gets log size -inf: never drawn
        log_size = np.log(size.astype(float))
    return errors, log_size, starts, size


def interval_sampler(support, counts, labels, b: int, epsilon: float, rng: np.random.Generator):
    """Thresholds (B,) drawn by the exponential mechanism over THRESH on the 2^b grid."""
    _check_bits(b)
    errors, log_size, starts, size = _runs(support, counts, labels, b)
    g = exponential_mechanism(-errors, epsilon, rng, log_weight=log_size)
    st = np.take_along_axis(starts, g[:, None], axis=1)[:, 0]
    sz = np.take_along_axis(size, g[:, None], axis=1)[:, 0]
    # a uniform member, drawn as an exact integer: a float u * size has only 53 bits, which
    # past 2^53 would leave out members by residue and so differ between neighbours
    return st + rng.integers(0, sz, dtype=np.int64)


def interval_sampler_probs(support, counts, labels, b: int, epsilon: float):
    """Exact probability of every threshold run (B, m + 1) under ``interval_sampler``
    (log-sum-exp), with the runs' first members and sizes, for tests and audits."""
    from scipy.special import log_softmax
    errors, log_size, starts, size = _runs(support, counts, labels, b)
    return np.exp(log_softmax(-epsilon * errors / 2.0 + log_size, axis=1)), starts, size


def erm_midpoint(support, counts, labels, b: int):
    """Thm 2.2's ERM: (a + 1 + c) // 2 with a the largest negative point (-1 if none) and c
    the smallest positive point (2^b if none); thresholds a + 1 .. c are all consistent."""
    _check_bits(b)
    support = np.asarray(support, dtype=np.int64)
    present = np.asarray(counts) > 0
    lab = np.asarray(labels, dtype=bool)
    a = np.where(present & ~lab, support, -1).max(axis=1)
    c = np.where(present & lab, support, 1 << b).min(axis=1)
    return (a + 1 + c) // 2


def binary_search(support, counts, labels, b: int, sigma: float, rng: np.random.Generator):
    """Thresholds (B,) from the noisy binary search with noise N(0, sigma^2) on each of its
    b + 1 answers (the loop over the b bits is the algorithm's own sequence; its body is
    numpy over trials)."""
    _check_bits(b)
    x = np.asarray(support, dtype=np.int64)
    c = np.asarray(counts, dtype=float)
    lab = np.asarray(labels, dtype=bool)
    neg, pos = c * ~lab, c * lab
    B = x.shape[0]
    lo = np.zeros(B, dtype=np.int64)
    hi = np.full(B, 1 << b, dtype=np.int64)
    for _ in range(b):
        mid = (lo + hi) // 2
        above = x >= mid[:, None]
        d = (neg * above).sum(axis=1) - (pos * ~above).sum(axis=1)
        right = d + sigma * rng.standard_normal(B) > 0
        lo = np.where(right, mid, lo)
        hi = np.where(right, hi, mid)
    at = x == lo[:, None]
    g = ((neg - pos) * at).sum(axis=1)  # err(lo) - err(hi): lo labels the point lo with 1
    return np.where(g + sigma * rng.standard_normal(B) > 0, hi, lo)


def binary_search_private(support, counts, labels, b: int, epsilon: float, delta: float,
                          rng: np.random.Generator):
    """``binary_search`` at the noise that makes it (epsilon, delta)-DP."""
    return binary_search(support, counts, labels, b, float(binary_search_sigma(b, epsilon, delta)), rng)


def cluster_error(t, start):
    """err_D of threshold t under the 4-point cluster at start..start + 3 with target
    start + 2 (instances.threshold_cluster): 1/4 per cluster point t labels wrongly."""
    t = np.asarray(t)[:, None]
    pts = np.asarray(start)[:, None] + np.arange(4)[None, :]
    truth = np.arange(4)[None, :] >= 2
    return ((pts >= t) != truth).mean(axis=1)
