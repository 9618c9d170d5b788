"""Releases of the 1-way marginals of {+-1}^p (the decision stumps of Bassily, Cheu, Moran,
Nikolov, Ullman, Wu, "Private Query Release Assisted by Public Data", ICML 2020,
Definition 4.1 and section 4), batched along a leading trial axis:

- ``gauss_release`` (pap.alg_gauss): the private sample's means plus N(0, s^2) in every
  coordinate, s = ``bounds.pap.gauss_sigma`` (the Gaussian mechanism at l2-sensitivity
  2 sqrt(p)/n), clipped to [-1, 1]; (eps, delta)-DP for eps <= 1.
- ``combo_release`` (pap.alg_combo): the inverse-variance combination
  w * (public means) + (1 - w) * (Gaussian release of the private means), with
  w = v_priv / (v_priv + v_pub), v_pub = 1/m, v_priv = 1/n + s^2 (the per-coordinate
  variances of a +-1 mean, bounded by 1/size, and of the noise). The weights depend on
  (n, m, s) only, never on the data, so the release is the Gaussian mechanism followed by
  post-processing with the public sample held fixed: (eps, delta)-DP in the private
  sample, for every public sample. m = 0 is the Gaussian release alone.
- ``public_release`` (pap.alg_pubonly on stumps): the public means; reads nothing private.

Utility experiments never build an n x p matrix: the mean of n i.i.d. +-1 values with
mean mu is 2 Binomial(n, (1 + mu)/2)/n - 1, exactly in law (``sample_means``). The
tracing attack, which needs each row, builds them in ``simulators/pap/tracer.py``.

Distributions (product distributions on {+-1}^p, given by their means): ``zero`` (every
mu_j = 0: the largest variance, the hardest case for every coordinate at once) and
``random`` (mu_j drawn i.i.d. per trial from ``random_means``: uniform on a fine grid of
(-1, 1), the fingerprinting prior of the tracing attack).
"""

from __future__ import annotations

import numpy as np

from privbounds.bounds.pap import gauss_sigma
from privbounds.params import ParameterError
from privbounds.simulators.engine.audit import NoiseSource, noise_sources

STUMP_DISTRIBUTIONS = ("zero", "random")
# The uniform prior on [-1, 1] is drawn on the grid mu = 2k/2^16 - 1, k = 1..2^16 - 1: then
# q = (1 + mu)/2 = k/2^16 and a uniform 16-bit integer falls below k with probability
# exactly q, so the rows of the tracing attack (simulators/pap/tracer.py) have exactly the
# stated law while costing two bytes of randomness per entry.
GRID = 1 << 16


def random_means(trials: int, p: int, rng: np.random.Generator) -> np.ndarray:
    """(trials, p) means drawn i.i.d. from the uniform prior on the grid of 2^16 - 1 points
    2k/2^16 - 1 in (-1, 1) (spacing 3e-5: U[-1, 1] for every purpose here)."""
    k = rng.integers(1, GRID, size=(trials, p))
    return 2.0 * (k / GRID) - 1.0


def product_means(dist: str, trials: int, p: int, rng: np.random.Generator) -> np.ndarray:
    """(trials, p) coordinate means of the product distribution ``dist``."""
    if dist == "zero":
        return np.zeros((trials, p))
    if dist == "random":
        return random_means(trials, p, rng)
    raise ParameterError(f"dist must be one of {', '.join(STUMP_DISTRIBUTIONS)}, got {dist!r}")


def sample_sums(size: int, mu: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Coordinate sums of ``size`` i.i.d. +-1 rows with means ``mu`` (any shape):
    2 Binomial(size, (1 + mu)/2) - size, exact in law. size = 0 gives zeros."""
    if size == 0:
        return np.zeros(np.shape(mu))
    return 2.0 * rng.binomial(size, (1.0 + mu) / 2.0) - size


def sample_means(size: int, mu: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Coordinate means of ``size`` >= 1 i.i.d. +-1 rows with means ``mu``."""
    if size < 1:
        raise ValueError(f"a sample mean needs size >= 1, got {size}")
    return sample_sums(size, mu, rng) / size


def combo_weight(n: int, m: int, sigma: float) -> float:
    """Weight of the public means in ``combo_release``: v_priv / (v_priv + v_pub) with
    v_priv = 1/n + sigma^2 and v_pub = 1/m (0 when m = 0; 1 when n = 0)."""
    if m == 0:
        return 0.0
    if n == 0:
        return 1.0
    v_priv, v_pub = 1.0 / n + sigma ** 2, 1.0 / m
    return v_priv / (v_priv + v_pub)


def gauss_release(priv_mean: np.ndarray, n: int, epsilon: float, delta: float,
                  rng: np.random.Generator) -> np.ndarray:
    """pap.alg_gauss on (trials, p) private means of n rows: clip(mean + N(0, s^2))."""
    return combo_release(priv_mean, None, n, 0, epsilon, delta, rng)


def combo_release(priv_mean, pub_mean, n: int, m: int, epsilon: float, delta: float,
                  rng: np.random.Generator) -> np.ndarray:
    """pap.alg_combo: clip(w pub_mean + (1 - w)(priv_mean + N(0, s^2))), w = ``combo_weight``.
    ``pub_mean`` is ignored when m = 0; n >= 1 private rows (the noise scale needs n)."""
    priv_mean = np.asarray(priv_mean, dtype=float)
    p = priv_mean.shape[-1]
    s = float(gauss_sigma(n, p, epsilon, delta))
    w = combo_weight(n, m, s)
    noisy = priv_mean + s * rng.standard_normal(priv_mean.shape)
    out = noisy if m == 0 else w * np.asarray(pub_mean, dtype=float) + (1.0 - w) * noisy
    return np.clip(out, -1.0, 1.0)


def public_release(pub_mean: np.ndarray) -> np.ndarray:
    """The public means (already in [-1, 1])."""
    return np.asarray(pub_mean, dtype=float)


def sup_error(release: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """Largest stump error max_j |G_j - mu_j| per trial (exact: E_D h_j = mu_j)."""
    return np.max(np.abs(release - mu), axis=-1)


@noise_sources(NoiseSource("gaussian", "gaussian", "privbounds.simulators.pap.stump_release:gauss_sigma",
                           what="the Gaussian mechanism's s (also sets the combination weight w)"))
def combo_events(budget, trials, rng, n, m, p, epsilon, delta, threshold):
    """Privacy audit of ``combo_release`` (m = 0: of ``gauss_release``, the same code path)
    with the public sample held fixed. Neighbouring private samples of n rows: D has
    coordinate means 0 (half the rows +1 in every column), D' replaces one all -1 row by the
    all +1 row (every mean moves by 2/n: the l2 change 2 sqrt(p)/n is the sensitivity the
    noise is calibrated to). The public sample (m rows, means 0) is the same on both sides.
    Event, fixed in advance: sum_j G_j > ``threshold`` (the projection on (1, ..., 1), where
    the whole shift shows). Privacy parameters spent: epsilon * budget."""
    out = []
    pub = np.zeros((trials, p))
    for shift in (0.0, 2.0 / n):
        priv = np.full((trials, p), shift)
        g = combo_release(priv, pub, n, m, epsilon * budget, delta, rng)
        out.append(g.sum(axis=1) > threshold)
    return out[0], out[1]
