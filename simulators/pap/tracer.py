"""The robust tracing attacker on released 1-way marginals (Dwork, Smith, Steinke, Ullman,
Vadhan, "Robust Traceability from Trace Amounts", FOCS 2015), in the form Bassily, Cheu,
Moran, Nikolov, Ullman, Wu, "Private Query Release Assisted by Public Data" (ICML 2020)
use as Theorem 4.3 (pap.alg_trace), batched over trials and over the rows it judges.

The attacker knows the coordinate means mu of the product distribution D on {+-1}^p (D and
the attacker are chosen together in the theorem) and sees the released answers G. For a
row y it computes the centred score

    s(y) = sum_j (y_j - mu_j) (G_j - mu_j)

and accuses y ("IN") when s(y) > tau(G) = ||G - mu||_2 sqrt(2 ln(1/rho)) (strictly: when
G = mu every score and the threshold are 0, and nobody may be accused).

Soundness, for every mechanism: if y ~ D is independent of G then, given G, the terms
(y_j - mu_j)(G_j - mu_j) are independent, have mean 0 and range 2 |G_j - mu_j|, so
Hoeffding's inequality gives P[s(y) > tau | G] <= exp(-2 tau^2 / sum_j 4 (G_j - mu_j)^2)
= rho, whatever G is (G = mu included: then s = tau = 0 and nobody is accused). (This threshold is ours; DSS15's own attack may differ.)
Completeness is what the experiments measure: a member of the sample pulls G towards
itself, by about (1 - mu_j^2)/N in coordinate j.

Rows. A sample of +-1 rows is held as its "+1" indicator: a boolean (trials, rows, p)
array b, one byte per entry, the row being x = 2b - 1. ``sample_bits`` draws it with 16-bit
uniforms, exact for means on the grid of ``stump_release.random_means`` (and for mu = 0;
other means are rounded to that grid, by at most 2^-16). Scores are products of the
indicators with G - mu, one matrix-vector product per trial.
"""

from __future__ import annotations

import numpy as np

from privbounds.simulators.pap.stump_release import GRID  # P[+1] = k / 2^16 on the grid of random_means

# Largest (trials x rows x p) block of indicators drawn at once (16 MB of 16-bit uniforms).
CHUNK_ELEMENTS = 1 << 23


def _levels(mu: np.ndarray) -> np.ndarray:
    """k with P[+1] = (1 + mu)/2 = k / 2^16 (rounded to the grid)."""
    return np.rint((1.0 + mu) / 2.0 * GRID).astype(np.uint32)


def threshold(release: np.ndarray, mu: np.ndarray, rho: float) -> np.ndarray:
    """tau(G) = ||G - mu||_2 sqrt(2 ln(1/rho)), one per trial (leading axes)."""
    return np.linalg.norm(release - mu, axis=-1) * np.sqrt(2.0 * np.log(1.0 / rho))


def sample_bits(mu: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
    """(trials, count, p) indicators of +1 for ``count`` i.i.d. rows per trial, column j
    being +1 with probability (1 + mu_j)/2."""
    u = rng.integers(0, GRID, size=(mu.shape[0], count, mu.shape[1]), dtype=np.uint16)
    k = _levels(mu)
    if k.max() < GRID:  # 16-bit levels compare four times faster (only mu = 1 needs 2^16)
        k = k.astype(np.uint16)
    return u < k[:, None, :]


def sample_row(mu: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One +-1 row per trial, (trials, p) float64."""
    u = rng.integers(0, GRID, size=mu.shape, dtype=np.uint16)
    return np.where(u < _levels(mu), 1.0, -1.0)


def scores(bits: np.ndarray, mu: np.ndarray, release: np.ndarray) -> np.ndarray:
    """Centred scores (trials, rows) of the rows whose +1 indicators are ``bits``
    (trials, rows, p): (2b - 1 - mu) . c = 2 b . c - (1 + mu) . c, c = G - mu. The products
    b . c run in float32 (twice as fast; their rounding, about 1e-4 on scores of order 10 to
    100, moves a verdict only on a measure-zero tie in exact arithmetic); the rest in float64."""
    c = release - mu
    prod = np.einsum("trp,tp->tr", bits, c.astype(np.float32)).astype(np.float64)
    return 2.0 * prod - np.sum((1.0 + mu) * c, axis=-1)[:, None]


def accuse(bits: np.ndarray, mu: np.ndarray, release: np.ndarray, rho: float) -> np.ndarray:
    """Boolean (trials, rows): the attacker says IN for each row of ``bits``."""
    return scores(bits, mu, release) > threshold(release, mu, rho)[:, None]


def accuse_row(row: np.ndarray, mu: np.ndarray, release: np.ndarray, rho: float) -> np.ndarray:
    """Boolean (trials,): the verdict on one +-1 row per trial (trials, p)."""
    return np.sum((row - mu) * (release - mu), axis=-1) > threshold(release, mu, rho)


def row_sums(bits: np.ndarray) -> np.ndarray:
    """Coordinate sums (trials, p) of the +-1 rows held in ``bits`` (trials, rows, p)."""
    if bits.shape[1] < (1 << 16):  # counts fit 16 bits: the narrow accumulator is the fast one
        ones = bits.view(np.uint8).sum(axis=1, dtype=np.uint16)
    else:
        ones = bits.sum(axis=1, dtype=np.int64)
    return 2.0 * ones - bits.shape[1]


def chunk_trials(trials: int, rows: int, p: int):
    """Slices of the trial axis whose (trials x rows x p) blocks stay under CHUNK_ELEMENTS."""
    step = max(1, CHUNK_ELEMENTS // max(1, rows * p))
    for start in range(0, trials, step):
        yield slice(start, min(trials, start + step))
