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
- ``alg2_thresholds``: THRESH with our substitute threshold sanitizer (the
  binary-tree histogram; Cor 3.10). The labellings of THRESH on U = {u_1 < ... < u_s}
  are the s + 1 cuts, represented by the thresholds u_1, ..., u_s and u_s + 1.

Batched over trials; the sample is given as counts at its distinct points and the
number of positive labels of every column at each of them, which is all the algorithm
reads (err_D(c_u) for column j is P_j + count(u) - 2 pos_j(u), P_j the column's
positives, a constant the exponential mechanism ignores).
"""

from __future__ import annotations

import numpy as np

from privbounds.simulators.bns.sanitizers import point_sanitizer, threshold_sanitizer
from privbounds.simulators.shared.mechanisms import exponential_mechanism


def moved_row(counts, positives, move):
    """(c, p, c2, p2): a sample's rows per point and positives per point as integer arrays,
    and those of its neighbour that moves one row from (point move[0], label move[1]) to
    (point move[2], label move[3]): the D and D' of Algorithm 2's audits (bns.cor3_9,
    bns.cor3_10)."""
    c, p = np.array(counts, dtype=np.int64), np.array(positives, dtype=np.int64)
    c2, p2 = c.copy(), p.copy()
    c2[move[0]] -= 1
    p2[move[0]] -= move[1]
    c2[move[2]] += 1
    p2[move[2]] += move[3]
    return c, p, c2, p2


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


def alg2_thresholds(hist, positives_in_bins, eps_san: float, step: float, eps0: float,
                    rng: np.random.Generator, sanitize=None) -> np.ndarray:
    """Algorithm 2 on THRESH (c_t(x) = 1 iff x >= t). hist (B, |X|) counts of the rows;
    ``positives_in_bins(edges)`` returns (B, k, S + 2) positive labels of every column in
    the bins [0, e_0), [e_0, e_1), ..., [e_S, |X|) for edges (B, S + 1), which is all
    Algorithm 2 reads of the labels. The sanitizer is the tree (``threshold_sanitizer``
    at eps_san, prefix counts rounded to multiples of ``step``) unless ``sanitize`` is
    given: a function hist -> (B, |X|) mask of the synthetic database's points (used for
    the generic sanitizers of Thm 3.1 / Lemma 3.6). Returns the chosen thresholds (B, k)."""
    B, X = hist.shape
    supp = sanitize(hist) if sanitize is not None else threshold_sanitizer(hist, eps_san, step, rng)[1]
    s = supp.sum(axis=1)
    S = int(s.max())
    order = np.argsort(~supp, axis=1, kind="stable")[:, :S]           # support points, ascending
    slot = np.arange(S + 1)[None, :]
    last = np.take_along_axis(order, np.maximum(s - 1, 0)[:, None], axis=1)[:, 0] if S else np.zeros(B, int)
    cand = np.full((B, S + 1), X)
    cand[:, :S] = np.where(slot[:, :S] < s[:, None], order, X)
    cand[np.arange(B), s] = np.where(s > 0, last + 1, X)                # "0 on all of U"
    valid = slot <= s[:, None]
    pos = positives_in_bins(cand)                                      # (B, k, S + 2)
    C = np.concatenate([np.zeros((B, 1)), np.cumsum(hist, axis=1)], axis=1)
    cnt_below = np.take_along_axis(C, cand, axis=1)                    # rows with x < candidate
    pos_below = np.cumsum(pos, axis=-1)[:, :, : S + 1]
    # err(t) = 2 pos_below - cnt_below + (n - positives): the last term is common to all t
    score = -(2.0 * pos_below - cnt_below[:, None, :])
    g = exponential_mechanism(score, eps0, rng, log_weight=np.where(valid, 0.0, -np.inf)[:, None, :])
    return np.take_along_axis(cand, g, axis=1)
