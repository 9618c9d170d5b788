"""The generic private k-learner of Bun, Nissim, Stemmer, "Simultaneous Private Learning
of Multiple Concepts", Lemma 3.7 with Algorithm 2: sanitize the unlabelled rows once,
keep one representative hypothesis per labelling that the class induces on the
sanitized support U, and choose each of the k hypotheses from that small set with its
own exponential mechanism (Prop 3.8). Privacy: the sanitizer's (eps1, delta1) plus the k
exponential mechanisms composed by basic or advanced composition (Thm 2.16) - the same
algorithm read two ways.

- ``alg2_points``: POINT with the point sanitizer of Algorithm 1 (Cor 3.9). The
  labellings of POINT on U are "1 at exactly one u in U" and "0 on all of U"; the latter
  is represented by the point concept at the smallest x outside U (chosen from the
  sanitized output only).

Batched over trials; the sample is given as counts at its distinct points and the
number of positive labels of every column at each of them, which is all the algorithm
reads (err_D(c_u) for column j is P_j + count(u) - 2 pos_j(u), P_j the column's
positives, a constant the exponential mechanism ignores).
"""

from __future__ import annotations

import numpy as np

from .mechanisms import exponential_mechanism
from .sanitizers import point_sanitizer


def alg2_points(support, counts, positives, n: int, eps_san: float, delta_san: float, eps0: float,
                rng: np.random.Generator) -> np.ndarray:
    """Algorithm 2 on POINT. support (B, m) distinct points, counts (B, m) their rows
    (zero allowed), positives (B, k, m) positive labels of each column at each point.
    Returns the chosen point concepts (B, k)."""
    B, m = support.shape
    a = point_sanitizer(counts, n, eps_san, delta_san, rng)
    in_u = (a > 0) & (counts > 0)
    # representative of "0 on all of U": the smallest x not in U (m + 1 candidates suffice)
    cand = np.arange(m + 1)
    taken = np.any((support[:, None, :] == cand[None, :, None]) & in_u[:, None, :], axis=-1)
    x_out = np.argmax(~taken, axis=1)
    at_out = support == x_out[:, None]              # x_out may be a suppressed sample point
    count_out = np.sum(counts * at_out, axis=1)
    pos_out = np.sum(positives * at_out[:, None, :], axis=-1)
    err = np.concatenate([counts[:, None, :] - 2 * positives,
                          (count_out[:, None] - 2 * pos_out)[:, :, None]], axis=-1)  # (B, k, m + 1)
    valid = np.concatenate([in_u, np.ones((B, 1), bool)], axis=1)
    log_w = np.where(valid, 0.0, -np.inf)[:, None, :]
    g = exponential_mechanism(-err, eps0, rng, log_weight=log_w)
    return np.where(g < m, np.take_along_axis(support, np.minimum(g, m - 1), axis=1), x_out[:, None])
