"""Hard instances (target concepts and distributions) shared by several simulators.

- ``threshold_cluster``: Sivakumar's 4-point cluster for thresholds (siv.thm3_3):
  D uniform on four consecutive grid points p1 < p2 < p3 < p4 at a random place. With
  target t* = p3 only t = p3 has error 0, t in {p2, p4} has error 1/4, and every other
  threshold has error >= 1/2. So all but three of the 2^d + 1 hypotheses fail at
  alpha = 1/4, which is what makes ln|H| visible in the sample complexity.
- ``point_pair``: the analogue for points: D puts 1/2 on the target x* and 1/2 on a
  decoy z; every c_x with x != x* has error >= 1/2.

Samples are drawn as multinomial counts on the support (the sample's multiset), which
is exactly the distribution of the multiset of n i.i.d. draws from D.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class Instance:
    support: np.ndarray   # (B, m) domain points
    probs: np.ndarray     # (B, m) their probabilities
    targets: np.ndarray   # (B, k) target hypothesis indices

    def sample_counts(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """(B, m) multinomial counts of an i.i.d. sample of size n (one row per trial;
        numpy broadcasts the per-trial probabilities)."""
        return rng.multinomial(n, self.probs)


def threshold_cluster(domain_size: int, trials: int, k: int, rng: np.random.Generator,
                      target_offsets=(2,)) -> Instance:
    """Cluster at a uniform position; each of the k targets is p1 + offset with the
    offset drawn uniformly from ``target_offsets`` (Sivakumar's single target: 2, i.e. p3)."""
    if domain_size < 4:
        raise ValueError(f"d must be >= 2 for the 4-point cluster, got domain size {domain_size}")
    start = rng.integers(0, domain_size - 3, size=trials)
    support = start[:, None] + np.arange(4)[None, :]
    offs = np.asarray(target_offsets)[rng.integers(0, len(target_offsets), size=(trials, k))]
    return Instance(support, np.full((trials, 4), 0.25), start[:, None] + offs)


def point_pair(domain_size: int, trials: int, rng: np.random.Generator) -> Instance:
    """Target x* and decoy z != x*, each with mass 1/2."""
    target = rng.integers(0, domain_size, size=trials)
    decoy = (target + rng.integers(1, domain_size, size=trials)) % domain_size
    support = np.stack([target, decoy], axis=1)
    return Instance(support, np.full((trials, 2), 0.5), target[:, None])


_ZIPF_CDF: dict = {}


def zipf_sample(domain_size: int, exponent: float, shape, rng: np.random.Generator) -> np.ndarray:
    """Points of X = {0, ..., |X| - 1} drawn from the Zipf law P(x) proportional to
    (x + 1)^(-exponent), truncated to X, by inverting its distribution function (cached
    per domain, at most 8 MB for |X| = 2^20)."""
    key = (int(domain_size), float(exponent))
    if key not in _ZIPF_CDF:
        w = np.arange(1, domain_size + 1, dtype=float) ** -exponent
        cdf = np.cumsum(w)
        _ZIPF_CDF[key] = cdf / cdf[-1]
    cdf = _ZIPF_CDF[key]
    return np.minimum(np.searchsorted(cdf, rng.random(shape), side="right"), domain_size - 1)
