"""Learning, the public lower bound and synthetic data for Bassily et al., "Private Query
Release Assisted by Public Data" (ICML 2020): the parts section 5 (Theorem 5.1, Lemmas 5.3
and 5.4) and Remark 2.9 need, built on Algorithm 3 (pap_release.py) and PMW
(pmw_offline.py).

- The public requirement with unlimited private data (Theorem 5.1). As n grows, PMW's
  answers on the representatives converge to the exact D~, so Algorithm 3 with the exact
  D~ in place of PMW isolates what the public sample alone costs. For thresholds its error
  is exactly twice the cover radius: h_t and its member differ on [s_j + 1, t) inside one
  gap between consecutive distinct public points, the answer moves by twice that mass,
  and t at the next public point takes the whole gap. ``exact_release_thresholds`` is
  that algorithm (reference; the cells of pap_release.threshold_cells) and
  ``cover_error_line`` draws its error in O(m log m) per trial for the family
  uniform / geometric / Dirichlet(1) on [T], so that T = 2^20 costs what T = 2^6 does:
  uniform and geometric by their closed-form CDFs; Dirichlet(1, ..., 1) by its
  construction as the spacings of T - 1 sorted uniforms, with the public points as m
  further uniforms V (inverse-CDF sampling). Given the sorted V, the boundaries falling
  in each of the m + 1 spacings are multinomial, and inside a spacing of length l with k
  boundaries the mass of the whole atoms strictly between its two public points is l
  times the range of k uniforms (Beta(k - 1, 2)), before the first point l times their
  maximum (Beta(k, 1)), after the last l times one minus their minimum (Beta(k, 1)).
  Exact in law (tested against the explicit vectors of query_classes.line_distribution).
- Lemma 5.3's learner (``learn``, ``learn_thresholds``): Algorithm 3 on the loss class
  L_H = {(x, y) -> 1[h(x) != y]} over X x {+-1}, then the argmin of the released
  errors. l_h and l_h' differ exactly where h and h' differ, whatever y, so the cover
  built from UNLABELLED public points is a cover of L_H with the same radius, and the
  representative domain is X~ x {+-1}. With every cover query answered within a (0/1
  scale) and a cover of radius r, the argmin's excess error is at most 2a + r
  (bounds.pap.learner_excess). Post-processing of one release: the same privacy, the
  same public sample. For thresholds the loss query of member j is one minus the mass of
  the contiguous range [j, N + j) when the cells with y = -1 come first and those with
  y = +1 follow, so PMW runs on these complements with prefix sums (RangeQueries); PMW on
  a class of complements is PMW on the class (the same gaps, the complementary
  measurement, the same update), so the answers are one minus the complements' answers.
- Lemma 5.4's mixture reduction: a point x0 on which every hypothesis agrees (for
  thresholds on [T]: x0 = T appended on the right, label y0 = -1, the class {h_t : t <=
  T}), the mixture D_lambda = (1 - lambda) (x0, y0) + lambda D with lambda = 1/m, the
  public sample of m draws from it (``mixture_public``) and the learner's private sample
  simulated from real samples of D (``mixture_private_counts``).
- Remark 2.9 (``synthetic_lp``): from a data structure G to weights w on X minimising
  max_h |G(h) - sum_x w_x h(x)| (a linear program), then rounded to k i.i.d. rows.

Conventions: a labelled distribution on the line is a pair (pos, neg) of (rows, T)
arrays, pos[x] = P(x, y = +1), neg[x] = P(x, y = -1); rows is 1 (shared by every trial)
or the number of trials. Threshold h_t(x) = +1 iff x < t (query_classes); errors on the
0/1 scale; all randomness from the Generator passed in.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import sparse
from scipy.optimize import linprog

from privbounds.params import ParameterError
from privbounds.simulators.pap.pmw_offline import RangeQueries, check_pmw_inputs, pmw
from privbounds.simulators.pap.query_classes import DISTRIBUTIONS, GEOMETRIC_SCALE, sample_points
from privbounds.simulators.pap.release import cover, multinomial_rows, release, threshold_cells

NOISE = 0.1  # label noise of the learning experiments
TARGETS = ("threshold", "interval", "threshold-mid", "interval-mid")


# --- Theorem 5.1: Algorithm 3 with the exact D~ ------------------------------------------


def exact_release_thresholds(public: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """(trials, T + 1) answers of Algorithm 3 on THR_T with the exact D~ in place of PMW:
    cover member j (threshold 0, or the j-th distinct public point + 1) answers
    E_D h = 2 D(cell < j) - 1, and h_t takes the answer of member #{public s < t}."""
    trials, size = probs.shape
    cell, distinct = threshold_cells(public, size)
    n_cells = int(distinct.max()) + 1
    flat = (cell + np.arange(trials)[:, None] * n_cells).ravel()
    mass = np.bincount(flat, weights=probs.ravel(), minlength=trials * n_cells).reshape(trials, n_cells)
    pre = np.concatenate([np.zeros((trials, 1)), np.cumsum(mass, axis=1)], axis=1)
    j_of_t = np.concatenate([cell, distinct[:, None]], axis=1)
    return 2.0 * np.take_along_axis(pre, j_of_t, axis=1) - 1.0


def _geometric_log_ratio(size: int) -> float:
    """ln q for the family's geometric member, mass proportional to q^x on [size]."""
    return math.log1p(-min(0.5, GEOMETRIC_SCALE / size))


def line_cdf(dist: str, size: int, x: np.ndarray) -> np.ndarray:
    """D(X < x) for x in 0..size, closed form, for the uniform and geometric members."""
    x = np.asarray(x, dtype=float)
    if dist == "uniform":
        return x / size
    if dist == "geometric":
        lq = _geometric_log_ratio(size)
        return np.expm1(x * lq) / math.expm1(size * lq)
    raise ParameterError(f"dist must be uniform or geometric for a closed-form CDF, got {dist!r}")


def line_quantile(dist: str, size: int, u: np.ndarray) -> np.ndarray:
    """The point x with D(X < x) <= u < D(X <= x) (inverse-CDF sampling from u ~ U[0, 1)),
    closed form, for the uniform and geometric members."""
    u = np.asarray(u, dtype=float)
    if dist == "uniform":
        x = np.floor(u * size)
    elif dist == "geometric":
        lq = _geometric_log_ratio(size)
        # D(X <= x) > u  <=>  q^(x+1) < 1 - u (1 - q^T)
        x = np.floor(np.log1p(u * math.expm1(size * lq)) / lq)
    else:
        raise ParameterError(f"dist must be uniform or geometric for a closed-form quantile, got {dist!r}")
    return np.clip(x, 0, size - 1).astype(np.int64)


def gap_radius(points: np.ndarray, cdf) -> np.ndarray:
    """(trials,) THR cover radius from public points (trials, m >= 1) and x -> D(X < x):
    the largest mass strictly before the first, between two consecutive distinct, or
    after the last public point."""
    s = np.sort(points, axis=1)
    first = cdf(s[:, 0])
    inner = np.clip(cdf(s[:, 1:]) - cdf(s[:, :-1] + 1), 0.0, None)  # 0 for repeated points
    last = 1.0 - cdf(s[:, -1] + 1)
    out = np.maximum(first, last)
    if inner.shape[1]:
        out = np.maximum(out, inner.max(axis=1))
    return out


def _dirichlet_radius(size: int, m: int, trials: int, rng: np.random.Generator) -> np.ndarray:
    v = np.sort(rng.random((trials, m)), axis=1)
    ends = np.concatenate([np.zeros((trials, 1)), v, np.ones((trials, 1))], axis=1)
    spacing = np.diff(ends, axis=1)  # (trials, m + 1)
    k = rng.multinomial(size - 1, spacing / spacing.sum(axis=1, keepdims=True)).astype(float)
    a, b = k.copy(), np.ones_like(k)
    a[:, 1:-1] -= 1.0  # between two public points: the range of k uniforms, Beta(k - 1, 2)
    b[:, 1:-1] = 2.0
    ok = a >= 1.0  # ends: at least one boundary; inside: at least two
    draws = rng.beta(np.where(ok, a, 1.0), b)
    return np.where(ok, spacing * draws, 0.0).max(axis=1)


def cover_error_line(dist: str, size: int, m: int, trials: int, rng: np.random.Generator) -> np.ndarray:
    """(trials,) worst-case error of Algorithm 3 on THR_size answering with the exact D~,
    i.e. twice the cover radius, for m public points from a fresh member of the family
    per trial (Dirichlet: a fresh D per trial). m = 0: the one-member cover {h_0} answers
    -1 everywhere, error 2."""
    if dist not in DISTRIBUTIONS:
        raise ParameterError(f"dist must be one of {', '.join(DISTRIBUTIONS)}, got {dist!r}")
    if m < 0:
        raise ParameterError(f"m (public sample size) must be >= 0, got {m}")
    if m == 0:
        return np.full(trials, 2.0)
    if dist == "dirichlet":
        return 2.0 * _dirichlet_radius(size, m, trials, rng)
    pts = line_quantile(dist, size, rng.random((trials, m)))
    return 2.0 * gap_radius(pts, lambda x: line_cdf(dist, size, x))


# --- labelled distributions on the line -----------------------------------------------------


def labelled_line(target: str, px: np.ndarray, trials: int, rng: np.random.Generator | None,
                  noise: float = NOISE):
    """(pos, neg): the joint law of (x, y) with x ~ px ((rows, T), rows 1 or trials) and
    y = +1 with probability 1 - noise inside the target set, noise outside it. Targets:
    ``threshold`` [0, t*) with t* uniform on 0..T per trial (realisable up to the noise);
    ``interval`` [a, b) with a <= b uniform per trial (not realisable by thresholds);
    ``threshold-mid`` [0, T/2) and ``interval-mid`` [T/4, 3T/4), fixed. Random targets
    return ``trials`` rows, fixed ones the rows of px (and need no ``rng``)."""
    rows, size = px.shape
    x = np.arange(size)[None, :]
    if target in ("threshold", "interval") and rng is None:
        raise ValueError(f"the random target {target!r} needs a Generator")
    if target == "threshold":
        t = rng.integers(0, size + 1, (trials, 1))
        inside = x < t
    elif target == "interval":
        ab = np.sort(rng.integers(0, size + 1, (trials, 2)), axis=1)
        inside = (x >= ab[:, :1]) & (x < ab[:, 1:])
    elif target == "threshold-mid":
        inside = x < size // 2
    elif target == "interval-mid":
        inside = (x >= size // 4) & (x < 3 * size // 4)
    else:
        raise ParameterError(f"target must be one of {', '.join(TARGETS)}, got {target!r}")
    if rows not in (1, trials):
        raise ParameterError(f"px must have one row or one row per trial ({trials}), got {rows}")
    eta = np.where(inside, 1.0 - noise, noise)
    return px * eta, px * (1.0 - eta)


def threshold_losses(pos: np.ndarray, neg: np.ndarray) -> np.ndarray:
    """(rows, T + 1) exact 0/1 errors of every threshold: err(h_t) = P(y = +1, x >= t) +
    P(y = -1, x < t)."""
    zero = np.zeros((pos.shape[0], 1))
    cp = np.concatenate([zero, np.cumsum(pos, axis=1)], axis=1)
    cn = np.concatenate([zero, np.cumsum(neg, axis=1)], axis=1)
    return cp[:, -1:] - cp + cn


def first_excess(target: str, size: int, noise: float = NOISE) -> float:
    """Excess error of the first hypothesis h_0 (all -1) on a fixed target with x uniform
    on [size]: what the mixture reduction's public-data-free learner outputs (Lemma 5.4)."""
    px = np.full((1, size), 1.0 / size)
    pos, neg = labelled_line(target, px, 1, None, noise)
    err = threshold_losses(pos, neg)[0]
    return float(err[0] - err.min())


# --- Lemma 5.3: the learner -------------------------------------------------------------------


def learn(private_counts, public_points, queries, alpha, beta, epsilon, delta, rng):
    """Lemma 5.3's learner on one data set, for any finite class (a +-1 matrix, rows =
    hypotheses over the domain X): Algorithm 3 (pap_release.release) on the loss class over
    X x {+-1} with the cover from the unlabelled public points, then the argmin of the
    released errors. ``private_counts``: (2, |X|) labelled histogram (row 0: y = -1, row 1:
    y = +1). Returns (index of the chosen hypothesis, released 0/1 errors of every
    hypothesis, release info). The choice is a cover member (each hypothesis carries its
    member's released error; the member is the one whose error the release estimated)."""
    matrix = np.asarray(queries)
    if matrix.ndim != 2 or not np.isin(matrix, (-1, 1)).all():
        raise ParameterError("queries must be a +-1 matrix (rows = hypotheses, columns = domain points)")
    size = matrix.shape[1]
    counts = np.asarray(private_counts)
    if counts.shape != (2, size):
        raise ParameterError(f"private_counts must be a labelled histogram of shape (2, {size}) over the "
                             f"class's domain (row 0: y = -1, row 1: y = +1), got shape {counts.shape}")
    if not 0 < alpha < 1:
        raise ParameterError(f"alpha must be in (0, 1), got {alpha}")
    pts = np.asarray(public_points, dtype=np.int64).ravel()
    if pts.size and (pts.min() < 0 or pts.max() >= size):
        raise ParameterError(f"public_points must lie in the private data's domain 0..{size - 1}, got values in "
                             f"{pts.min()}..{pts.max()}")
    # +1 where the loss is 1: h(x) = +1 on a y = -1 row, h(x) = -1 on a y = +1 row
    loss = np.concatenate([matrix, -matrix], axis=1).astype(np.int8)
    # an unlabelled public point x enters as (x, +1): l_h(x, +1) = 1[h(x) = -1] shows h's pattern
    g, info = release(counts.ravel(), size + pts, loss, alpha, beta, epsilon, delta, rng)
    err_hat = (1.0 + g) / 2.0
    members, _ = cover(loss, size + pts)  # the same cover the release built
    return int(members[np.argmin(err_hat[members])]), err_hat, info


def loss_structure(public: np.ndarray, pos: np.ndarray, neg: np.ndarray, t_max: int | None = None):
    """The cover of THR_T (thresholds t <= t_max, default T) from unlabelled public points
    (trials, m) and its loss queries over the cells x {-1, +1}, for each trial. Returns a
    dict: ``queries`` (RangeQueries of the complements 1 - l_j: the range [j, N + j) with
    the y = -1 cells at 0..N-1 and the y = +1 cells at N..2N-1), ``masses`` (trials, 2N),
    ``member_t`` (trials, N) the threshold of member j, ``member_err`` (trials, N) its
    exact 0/1 error, ``valid`` (trials, N), ``cell`` (trials, T)."""
    trials, size = public.shape[0], pos.shape[1]
    pos = np.broadcast_to(pos, (trials, size))
    neg = np.broadcast_to(neg, (trials, size))
    cell, distinct = threshold_cells(public, size)
    n_cells = int(distinct.max()) + 1
    flat = (cell + np.arange(trials)[:, None] * n_cells).ravel()

    def per_cell(w):
        return np.bincount(flat, weights=w.ravel(), minlength=trials * n_cells).reshape(trials, n_cells)

    w_neg, w_pos = per_cell(neg), per_cell(pos)
    width = np.bincount(flat, minlength=trials * n_cells).reshape(trials, n_cells)
    j = np.arange(n_cells)[None, :]
    # member j is h_t with t = #{x : cell(x) < j} (0, or the j-th distinct public point + 1)
    member_t = np.concatenate([np.zeros((trials, 1), np.int64), np.cumsum(width, axis=1)[:, :-1]], axis=1)
    valid = (j <= distinct[:, None]) & (member_t <= (size if t_max is None else t_max))
    zero = np.zeros((trials, 1))
    pre_n = np.concatenate([zero, np.cumsum(w_neg, axis=1)], axis=1)[:, :-1]
    pre_p = np.concatenate([zero, np.cumsum(w_pos, axis=1)], axis=1)[:, :-1]
    member_err = pre_n + (w_pos.sum(axis=1, keepdims=True) - pre_p)
    lo = np.broadcast_to(j, (trials, n_cells)).astype(np.int64)
    exists = width > 0
    queries = RangeQueries(lo, lo + n_cells, valid, np.concatenate([exists, exists], axis=1))
    return {"queries": queries, "masses": np.concatenate([w_neg, w_pos], axis=1), "member_t": member_t,
            "member_err": member_err, "valid": valid, "cell": cell, "n_cells": n_cells}


def learn_thresholds(public: np.ndarray, pos: np.ndarray, neg: np.ndarray, n: int, alpha: float, beta: float,
                     epsilon: float, delta: float, rng: np.random.Generator, t_max: int | None = None,
                     private_counts: np.ndarray | None = None, one_round: float | None = None) -> dict:
    """Lemma 5.3's learner on THR_T for every trial: public (trials, m) unlabelled points of
    [T]; (pos, neg) the labelled distribution ((1 or trials, T)); n labelled private draws
    per trial (or, for audits and the mixture, ``private_counts`` (trials, 2, T): a
    labelled histogram with n rows, row 0 y = -1). ``t_max``: the class is {h_t : t <=
    t_max} (the mixture's class lacks h_T, which is +1 at x0 = T - 1). PMW (Algorithm 3's
    step 6, at 0/1 accuracy alpha/4) answers the cover's loss queries; ``one_round``: see
    ``pmw``. Returns a dict: ``t_hat`` (trials,) the chosen threshold, ``j_hat`` its
    member, ``err_hat`` (trials, N) released errors (inf off the cover), plus the fields
    of ``loss_structure`` and ``updates``."""
    if not 0 < alpha < 1:
        raise ParameterError(f"alpha must be in (0, 1), got {alpha}")
    if not 0 < beta < 1:
        raise ParameterError(f"beta must be in (0, 1), got {beta}")
    size = pos.shape[1]
    if public.size and (public.min() < 0 or public.max() >= size):
        raise ParameterError(f"public points must lie in the private data's domain 0..{size - 1}, got values in "
                             f"{public.min()}..{public.max()}")
    check_pmw_inputs(n, alpha / 4.0, epsilon, delta)
    st = loss_structure(public, pos, neg, t_max)
    trials, n_cells = public.shape[0], st["n_cells"]
    if private_counts is None:
        counts = multinomial_rows(n, st["masses"], rng)
    else:
        pc = np.asarray(private_counts, dtype=float)
        if pc.shape != (trials, 2, size):
            raise ParameterError(f"private_counts must have shape (trials, 2, {size}) over the public points' "
                                 f"domain, got {pc.shape}")
        if np.any(pc < 0) or np.any(pc.sum(axis=(1, 2)) != n):
            raise ParameterError(f"private_counts must be non-negative with n = {n} rows per trial")
        flat = (st["cell"] + np.arange(trials)[:, None] * n_cells).ravel()
        counts = np.concatenate(
            [np.bincount(flat, weights=pc[:, y].ravel(), minlength=trials * n_cells).reshape(trials, n_cells)
             for y in (0, 1)], axis=1)
    pre = np.concatenate([np.zeros((trials, 1)), np.cumsum(counts / n, axis=1)], axis=1)
    q = st["queries"]
    emp = np.take_along_axis(pre, q.hi, axis=1) - np.take_along_axis(pre, q.lo, axis=1)
    ans, updates, _ = pmw(q, emp, n, alpha / 4.0, epsilon, delta, rng, one_round=one_round)
    err_hat = np.where(st["valid"], 1.0 - ans, np.inf)
    j_hat = err_hat.argmin(axis=1)
    t_hat = np.take_along_axis(st["member_t"], j_hat[:, None], axis=1)[:, 0]
    return {**st, "err_hat": err_hat, "j_hat": j_hat, "t_hat": t_hat, "updates": updates}


# --- Lemma 5.4: the mixture ----------------------------------------------------------------------


def _check_mixture_m(m):
    if not (isinstance(m, (int, np.integer)) and m >= 1):
        raise ParameterError(f"m (public sample size of the mixture, lambda = 1/m) must be an integer >= 1, got {m!r}")


def mixture_extend(pos: np.ndarray, neg: np.ndarray, m: int):
    """The mixture D_lambda, lambda = 1/m, on [T + 1]: lambda D on [T] and the point
    x0 = T with label y0 = -1 (on which every h_t, t <= T, agrees) with mass 1 - lambda."""
    _check_mixture_m(m)
    lam = 1.0 / m
    rows = pos.shape[0]
    return (np.concatenate([lam * pos, np.zeros((rows, 1))], axis=1),
            np.concatenate([lam * neg, np.full((rows, 1), 1.0 - lam)], axis=1))


def _draw(px: np.ndarray, shape, rng) -> np.ndarray:
    """Points of [T] from px (one shared row, or one row per trial)."""
    if px.shape[0] == 1:
        cdf = np.cumsum(px[0])
        cdf[-1] = 1.0
        return np.minimum(np.searchsorted(cdf, rng.random(shape), side="right"), px.shape[1] - 1)
    return sample_points(px, shape[1], rng)


def mixture_public(m: int, px: np.ndarray, trials: int, rng: np.random.Generator) -> np.ndarray:
    """(trials, m) public points drawn from the mixture's marginal: each is x0 = T with
    probability 1 - 1/m, else a draw from px (on [T])."""
    _check_mixture_m(m)
    real = rng.random((trials, m)) < 1.0 / m
    return np.where(real, _draw(px, (trials, m), rng), px.shape[1])


def mixture_consumed(n_prime: int, m: int, trials: int, rng: np.random.Generator) -> np.ndarray:
    """(trials,) the number of real samples among the reduction's n' private draws (each
    is (x0, y0) with probability 1 - 1/m, else the next unused real sample): the count of
    successes of n' coins, drawn as Binomial(n', 1/m) (its law)."""
    _check_mixture_m(m)
    if n_prime < 1:
        raise ParameterError(f"n (private sample size) must be >= 1, got {n_prime}")
    return rng.binomial(n_prime, 1.0 / m, trials)


def mixture_private_counts(n_prime: int, m: int, pos: np.ndarray, neg: np.ndarray, trials: int,
                           rng: np.random.Generator):
    """The private sample the reduction feeds the learner: n' draws, each (x0, -1) with
    probability 1 - 1/m, else the next unused real labelled sample of D. Returns
    (counts (trials, 2, T + 1) over [T + 1] x {-1, +1}, consumed (trials,) real samples
    used). The learner sees only the histogram, so the real samples enter as a
    multinomial histogram of the consumed count (the law of the per-draw procedure)."""
    consumed = mixture_consumed(n_prime, m, trials, rng)
    size = pos.shape[1]
    joint = np.broadcast_to(np.concatenate([neg, pos], axis=1), (trials, 2 * size))
    joint = joint / joint.sum(axis=1, keepdims=True)
    real = rng.multinomial(consumed, joint).reshape(trials, 2, size)
    counts = np.zeros((trials, 2, size + 1))
    counts[:, :, :size] = real
    counts[:, 0, size] = n_prime - consumed
    return counts, consumed


# --- Remark 2.9: data structure to synthetic data ------------------------------------------------


def synthetic_lp(g: np.ndarray, matrix: np.ndarray):
    """Weights w on the domain minimising t = max_h |g(h) - sum_x w_x h(x)| over the
    simplex (scipy's HiGHS). Returns (w, t*). Any distribution is feasible, D with
    t = err(g; D) among them, so t* <= err(g; D).

    With g of shape (trials, k), every trial's LP is solved in one sparse block-diagonal LP
    whose objective is the sum of the t's: the blocks share no variable, so its optimum
    is every block's optimum at once. Returns w (trials, |X|) and t* (trials,)."""
    m = np.asarray(matrix, dtype=float)
    g = np.asarray(g, dtype=float)
    k, size = m.shape
    T = 1 if g.ndim == 1 else g.shape[0]
    block = np.block([[-m, -np.ones((k, 1))], [m, -np.ones((k, 1))]])  # g - M w <= t, M w - g <= t
    eye = sparse.identity(T, format="csr")
    a_ub = sparse.kron(eye, block, format="csr")
    b_ub = np.concatenate([-g.reshape(T, k), g.reshape(T, k)], axis=1).ravel()
    a_eq = sparse.kron(eye, np.concatenate([np.ones(size), [0.0]])[None, :], format="csr")
    c = np.tile(np.concatenate([np.zeros(size), [1.0]]), T)
    res = linprog(c, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=np.ones(T), bounds=(0, None), method="highs")
    if res.status != 0:
        raise RuntimeError(f"synthetic-data LP failed: {res.message}")
    x = res.x.reshape(T, size + 1)
    w = np.clip(x[:, :size], 0.0, None)
    w /= w.sum(axis=1, keepdims=True)
    t = x[:, -1]
    return (w[0], float(t[0])) if g.ndim == 1 else (w, t)


def round_synthetic(w: np.ndarray, rows: int, rng: np.random.Generator) -> np.ndarray:
    """Histogram (length |X|) of ``rows`` i.i.d. draws from the weights w (or one per row
    of w): the synthetic data set."""
    return rng.multinomial(rows, w / w.sum(axis=-1, keepdims=True))
