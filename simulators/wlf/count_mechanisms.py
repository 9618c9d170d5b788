"""Wang, Lei and Fienberg, "Learning with Differential Privacy" (JMLR 2016): the
definitions of privacy and stability as exact checkers, and the count mechanisms whose
privacy and stability the subsampling lemmas (4, 29, 31, 34) and the stability lemmas
(8, 30) are measured on.

Checkers (the paper's definitions, for distributions over a finite or truncated output
set; rows are trials):

- Definition 2 (eps-DP, replace-one neighbours): ``pure_epsilon`` is the smallest eps
  with p(o) <= e^eps p'(o) and p'(o) <= e^eps p(o) for every output o;
- Definition 27 ((eps, delta)-DP): ``approx_delta`` is the smallest delta at eps, the
  hockey-stick divergence sum_o max(0, p(o) - e^eps p'(o)) taken in both orders (its
  value at eps = 0 is the total-variation distance, ``tv``);
- Definition 6 (strongly uniform RO-stability): ``ro_stability`` is
  sup_z |E_{h~p} loss(h, z) - E_{h~p'} loss(h, z)| for a loss table with values in [0, 1];
  over every such loss it is the total-variation distance.

Mechanisms: a count of ones k in a dataset of n bits (replace-one neighbours have k and
k + 1 ones) released with two-sided geometric noise (P(j) ~ e^(-eps |j|): exactly eps-DP)
or discrete Gaussian noise (P(j) ~ e^(-j^2 / (2 sigma^2)): (eps, delta(eps))-DP for every
eps). Run on a uniformly random subset of m of the n rows (without replacement), the
count on the subset is hypergeometric, so the output distribution is an exact mixture
(``subsampled_geometric_logpmf``, ``subsampled_gaussian_pmf``): no Monte Carlo.
The geometric mixture is computed in log space with cumulative log-sum-exp (its far
tails are geometric, so the outputs -1..m+1 already hold every value of the privacy
loss); the Gaussian one in linear space, which is exact enough for deltas (absolute
quantities) down to 1e-12.
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from privbounds.params import Interval, ParameterError, validate

GAMMA = Interval(0, 1, "right")  # a subsampling rate


def check_rate(gamma) -> float:
    """Refuse a subsampling rate outside (0, 1] with one line naming it."""
    validate({"gamma": GAMMA}, {"gamma": gamma})
    return float(gamma)


# --- Definitions 2, 6 and 27 as checkers -------------------------------------------------

def pure_epsilon(logp, logq) -> np.ndarray:
    """Definition 2: the smallest eps with p <= e^eps q and q <= e^eps p at every output
    (last axis; log-probabilities). Outputs impossible under both count for nothing; an
    output possible under one only gives inf."""
    logp, logq = np.broadcast_arrays(np.asarray(logp, float), np.asarray(logq, float))
    both = np.isneginf(logp) & np.isneginf(logq)
    with np.errstate(invalid="ignore"):
        diff = np.abs(np.where(both, 0.0, logp - logq))
    return np.max(np.where(np.isnan(diff), np.inf, diff), axis=-1)


def hockey_stick(p, q, epsilon) -> np.ndarray:
    """sum_o max(0, p(o) - e^eps q(o)) over the last axis: the smallest delta for which
    P(S) <= e^eps Q(S) + delta holds for every event S."""
    return np.sum(np.maximum(0.0, np.asarray(p, float) - np.exp(epsilon) * np.asarray(q, float)), axis=-1)


def approx_delta(p, q, epsilon) -> np.ndarray:
    """Definition 27: the smallest delta with (eps, delta)-DP between p and q, both orders."""
    eps = np.asarray(epsilon, float)
    if np.any(eps < 0):
        raise ValueError(f"epsilon must be >= 0, got {epsilon!r}")
    return np.maximum(hockey_stick(p, q, epsilon), hockey_stick(q, p, epsilon))


def tv(p, q) -> np.ndarray:
    """Total-variation distance (the hockey-stick divergence at eps = 0)."""
    return 0.5 * np.sum(np.abs(np.asarray(p, float) - np.asarray(q, float)), axis=-1)


def ro_stability(p, q, losses) -> np.ndarray:
    """Definition 6 for one neighbouring pair: sup_z |sum_h (p(h) - q(h)) loss(h, z)|, with
    ``losses[h, z]`` the loss table (values in [0, 1], the paper's assumption; refused
    otherwise). Over every loss with values in [0, 1] the supremum is ``tv(p, q)``."""
    L = np.asarray(losses, float)
    if L.size and (np.nanmin(L) < 0 or np.nanmax(L) > 1 or np.isnan(L).any()):
        raise ParameterError(f"loss must be in [0, 1], got values in [{np.nanmin(L):g}, {np.nanmax(L):g}]")
    diff = np.asarray(p, float) - np.asarray(q, float)
    return np.max(np.abs(diff @ L), axis=-1)


# --- the count on a random subset ----------------------------------------------------------

def hypergeom_logpmf(n: int, k, m: int) -> np.ndarray:
    """log P(j ones among m rows drawn without replacement from n rows with k ones), for
    j = 0..m; ``k`` an array of trials -> shape (len(k), m + 1)."""
    from scipy import stats  # here, not at import: see engine/stats.py:_stats

    k = np.atleast_1d(np.asarray(k))
    j = np.arange(m + 1)
    with np.errstate(divide="ignore"):
        return stats.hypergeom.logpmf(j[None, :], n, k[:, None], m)


def neighbour_pairs(n: int, trials: int, rng: np.random.Generator) -> np.ndarray:
    """Numbers of ones k of the datasets of the trials' neighbouring pairs (k versus k + 1
    ones, k = 0..n-1): the first two trials of every block are the extremes k = 0 and
    k = n - 1 (where a subsampled count's privacy loss is largest), the others uniform."""
    k = rng.integers(0, n, size=trials)
    k[: min(2, trials)] = [0, n - 1][: min(2, trials)]
    return k


def geometric_logpmf(j, epsilon) -> np.ndarray:
    """Two-sided geometric noise: log P(j) = log((1 - a)/(1 + a)) - eps |j|, a = e^-eps."""
    a = np.exp(-epsilon)
    return np.log((1 - a) / (1 + a)) - epsilon * np.abs(np.asarray(j, float))


def geometric_mixture_logpmf(logw, epsilon) -> np.ndarray:
    """log of sum_j w_j G(o - j) for o = -1..J (J = logw.shape[-1]), G the two-sided
    geometric: split at j <= o and j > o and accumulate log-sum-exp both ways, so that
    nothing of size e^(eps m) is ever exponentiated."""
    logw = np.asarray(logw, float)
    J = logw.shape[-1]
    j = np.arange(J)
    o = np.arange(-1, J + 1)
    low = np.logaddexp.accumulate(logw + epsilon * j, axis=-1)  # sum over j <= index
    high = np.logaddexp.accumulate((logw - epsilon * j)[..., ::-1], axis=-1)[..., ::-1]  # j >= index
    ninf = np.full(logw.shape[:-1] + (1,), -np.inf)
    le = np.concatenate([ninf, low, low[..., -1:]], axis=-1)  # o = -1: none; o = J: all
    gt = np.concatenate([high, ninf, ninf], axis=-1)  # o = -1..J-2: j >= o + 1; o = J-1, J: none
    a = np.exp(-epsilon)
    with np.errstate(invalid="ignore"):
        return np.log((1 - a) / (1 + a)) + np.logaddexp(le - epsilon * o, gt + epsilon * o)


def subsampled_geometric_logpmf(n: int, k, m: int, epsilon) -> np.ndarray:
    """Exact log output distribution, over the outputs -1..m+1, of the geometric count
    run on m of n rows drawn without replacement from a dataset with k ones (rows: k)."""
    return geometric_mixture_logpmf(hypergeom_logpmf(n, k, m), epsilon)


def subsampled_geometric_loss(n: int, k, m: int, epsilon) -> np.ndarray:
    """Definition 2 on the neighbouring pair (k ones, k + 1 ones) of the subsampled
    geometric count: the exact largest privacy loss over every output (the outputs
    beyond -1..m+1 repeat the values at the ends)."""
    k = np.atleast_1d(np.asarray(k))
    return pure_epsilon(subsampled_geometric_logpmf(n, k, m, epsilon),
                        subsampled_geometric_logpmf(n, k + 1, m, epsilon))


def discrete_gaussian_pmf(sigma: float, width: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Discrete Gaussian P(j) ~ exp(-j^2/(2 sigma^2)) on j = -W..W with W = 14 sigma + 2
    (the mass beyond is below e^-98, nothing next to a delta of 1e-12). Returns (j, pmf)."""
    W = int(np.ceil(14 * sigma)) + 2 if width is None else int(width)
    j = np.arange(-W, W + 1)
    logp = -(j.astype(float) ** 2) / (2 * sigma ** 2)
    return j, np.exp(logp - logsumexp(logp))


def noise_mixture_pmf(w: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """sum_j w_j K(o - j) for each row of w (over outputs 0..J-1 shifted by the kernel's
    half width): a Toeplitz matrix product, exact (no FFT rounding)."""
    J, L = w.shape[-1], kernel.size
    T = np.zeros((J, J + L - 1))
    for j in range(J):  # J <= m + 1 rows of a Toeplitz matrix, built once per call
        T[j, j: j + L] = kernel
    return w @ T


def subsampled_gaussian_pmf(n: int, k, m: int, sigma: float) -> np.ndarray:
    """Exact output distribution of the count plus discrete Gaussian noise on m of n rows
    (rows: k), over the outputs -W..m+W."""
    _, kern = discrete_gaussian_pmf(sigma)
    return noise_mixture_pmf(np.exp(hypergeom_logpmf(n, k, m)), kern)


def gaussian_delta(sigma: float, epsilon, sensitivity: int = 1) -> np.ndarray:
    """The exact privacy profile delta(eps) of the (not subsampled) discrete Gaussian count
    under replace-one neighbours (the count moves by ``sensitivity``)."""
    _, kern = discrete_gaussian_pmf(sigma)
    p = np.concatenate([kern, np.zeros(sensitivity)])
    q = np.concatenate([np.zeros(sensitivity), kern])
    eps = np.atleast_1d(np.asarray(epsilon, float))
    return approx_delta(p[None, :], q[None, :], eps[:, None]).reshape(np.shape(epsilon))


def gaussian_profile_minimum(sigma: float, grid=None) -> tuple[float, float]:
    """(eps, delta(eps)) minimising Lemma 30's e^eps - 1 + delta(eps) over the discrete
    Gaussian's profile. The objective's derivative e^eps (1 - P'[loss > eps]) is >= 0, so
    the minimum is at eps = 0, where it is delta(0) = TV: Lemma 30 minimised over the
    profile is exactly tight. The grid search keeps that an observation, not an input."""
    eps = np.concatenate([[0.0], np.geomspace(1e-4, 10, 400)]) if grid is None else np.asarray(grid, float)
    d = gaussian_delta(sigma, eps)
    i = int(np.argmin(np.expm1(eps) + d))
    return float(eps[i]), float(d[i])


def gaussian_epsilon_at(sigma: float, delta: float) -> float:
    """Smallest eps with delta(eps) <= delta for the discrete Gaussian count (bisection on
    the decreasing profile)."""
    lo, hi = 0.0, 60.0
    if gaussian_delta(sigma, 0.0) <= delta:
        return 0.0
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if gaussian_delta(sigma, mid) > delta else (lo, mid)
    return hi


def geometric_mixture_tv(logp, logq, epsilon) -> np.ndarray:
    """Total variation between two geometric mixtures given on the outputs -1..J (as
    ``geometric_mixture_logpmf`` returns them): beyond the window both tails are
    geometric with ratio a = e^-eps, so each adds |p - q| at its end times a/(1 - a)."""
    p, q = np.exp(logp), np.exp(logq)
    d = np.abs(p - q)
    a = np.exp(-epsilon)
    return 0.5 * (d.sum(axis=-1) + (d[..., 0] + d[..., -1]) * a / (1 - a))
