"""Query release assisted by public data: Algorithm 3 (A_PAP) of Bassily et al., "Private
Query Release Assisted by Public Data" (ICML 2020), its parts (the public cover of Lemma
3.3 / Definition 2.1 and the representative domain of Definition 2.2) and the baselines
of section 1 (public data only; private data only: PMW over the whole domain and the
binary-tree release).

Algorithm 3 (the paper's steps, our split of alpha and beta): the distinct public points
X^; one hypothesis of H per pattern on X^ (the first in H's order): the cover H~; the
representative domain X~ of H~ over all of X (x ~ x' when every member of H~ agrees on
them; one class per pattern); the private sample mapped to representatives; PMW
(pmw_offline.py) on (X~, H~) at +-1 accuracy alpha/2 and failure beta/2 (0/1 accuracy
alpha/4 for the sample, the other alpha/4 being sampling error); each h in H answered by
the member of H~ that agrees with it on X^. Privacy: for a fixed public sample, the
cover, X~ and the map are fixed, neighbouring private samples map to neighbouring
samples over X~, and PMW is (eps, delta)-DP; the rest is post-processing. The public
sample is never charged.

Two implementations that give the same numbers (tested):
- ``release``: the generic algorithm for any finite class given as a +-1 matrix, on one
  data set (the interface of the paper's Algorithm 2: private counts over X, public
  points, the class, alpha, beta, eps, delta, a Generator); the cover and the
  representative domain by ``np.unique`` on packed patterns (``cover``,
  ``representative_domain``).
- ``release_thresholds``: thresholds on [T], batched over trials. The cover's members
  are t = 0 and t = s + 1 for each distinct public point s; the representative classes
  are the cells {x : #{public s < x} = c}; every cover query is the range of cells
  [0, j), so PMW runs on prefix sums (``RangeQueries``).

Private data enter only as a histogram over X~, drawn as multinomial(n, D~) (the law of
mapping n i.i.d. points), so n = 10^9 costs what n = 10^3 does; public data are actual
points, since the cover depends on which points were drawn. Errors are exact:
max_h |G(h) - E_D h| with E_D h from the distribution.
"""

from __future__ import annotations

import numpy as np

from privbounds.params import ParameterError
from privbounds.simulators.pap.pmw_offline import DenseQueries, RangeQueries, check_pmw_inputs, pmw
from privbounds.simulators.pap.query_classes import threshold_answers

# --- the generic algorithm (one data set, any finite class) ------------------------------


def cover(matrix: np.ndarray, public_points: np.ndarray):
    """Steps 1-3 of Algorithm 3 and the map of step 7: (members, assign). ``members`` are
    the indices (into H's rows) of the cover, one per pattern on the distinct public
    points, the first in H's order, listed in increasing order; ``assign[h]`` is the
    position in ``members`` of the member agreeing with h on the public points."""
    pts = np.unique(np.asarray(public_points, dtype=np.int64))
    keys = np.packbits(np.asarray(matrix)[:, pts] > 0, axis=1)
    _, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    rank = np.empty(first.size, dtype=np.int64)
    rank[np.argsort(first)] = np.arange(first.size)
    return np.sort(first), rank[inverse.ravel()]


def representative_domain(cover_matrix: np.ndarray):
    """Definition 2.2 for the cover's rows over all of X: (representatives, r).
    ``representatives`` are the smallest point of each class, increasing; r[x] is the
    position of x's class among them."""
    keys = np.packbits(np.asarray(cover_matrix).T > 0, axis=1)
    _, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    rank = np.empty(first.size, dtype=np.int64)
    rank[np.argsort(first)] = np.arange(first.size)
    return np.sort(first), rank[inverse.ravel()]


def cover_radius(matrix: np.ndarray, members: np.ndarray, assign: np.ndarray, probs: np.ndarray) -> float:
    """Definition 2.1 with the algorithm's own map: max_h Pr_D[h != h~(h)]."""
    m = np.asarray(matrix)
    differ = m != m[members][assign]
    return float((differ @ probs).max())


def check_release_inputs(private_counts, public_points, domain_size, alpha, beta, epsilon, delta):
    counts = np.asarray(private_counts)
    if counts.ndim != 1 or counts.size != domain_size:
        raise ParameterError(f"private_counts must be a histogram over the class's domain of {domain_size} "
                             f"points, got shape {counts.shape}")
    n = int(counts.sum())
    if n < 1 or np.any(counts < 0):
        raise ParameterError(f"n (private sample size) must be >= 1 with non-negative counts, got n = {n}")
    pts = np.asarray(public_points)
    if pts.size and (pts.min() < 0 or pts.max() >= domain_size):
        raise ParameterError(f"public_points must lie in the private data's domain 0..{domain_size - 1}, got "
                             f"values in {pts.min()}..{pts.max()}")
    if not 0 < alpha < 1:
        raise ParameterError(f"alpha must be in (0, 1), got {alpha}")
    if not 0 < beta < 1:
        raise ParameterError(f"beta must be in (0, 1), got {beta}")
    check_pmw_inputs(n, alpha / 4.0, epsilon, delta)
    return n


def release(private_counts, public_points, queries, alpha, beta, epsilon, delta, rng):
    """Algorithm 3 on one data set. ``queries``: a +-1 matrix (rows = the class's
    hypotheses, columns = the domain). Returns (G, info): G[h] in [-1, 1] for every row
    of ``queries``; info holds the cover size K, the representative-domain size N and
    PMW's realised updates."""
    matrix = np.asarray(queries)
    if matrix.ndim != 2 or not np.isin(matrix, (-1, 1)).all():
        raise ParameterError("queries must be a +-1 matrix (rows = hypotheses, columns = domain points); "
                             "this algorithm supports finite classes only")
    n = check_release_inputs(private_counts, public_points, matrix.shape[1], alpha, beta, epsilon, delta)
    members, assign = cover(matrix, np.asarray(public_points, dtype=np.int64))
    reps, r = representative_domain(matrix[members])
    counts = np.bincount(r, weights=np.asarray(private_counts, float), minlength=reps.size)
    q01 = (1 + matrix[members][:, reps]) // 2
    emp = (counts / n) @ q01.T
    ans, updates, _ = pmw(DenseQueries(q01.astype(float), 1), emp[None, :], n, alpha / 4.0, epsilon,
                          delta, rng)
    g = 2.0 * ans[0] - 1.0
    return g[assign], {"K": int(members.size), "N": int(reps.size), "updates": int(updates[0])}


# --- thresholds on [T], batched over trials ------------------------------------------------


def threshold_cells(public: np.ndarray, size: int):
    """The cover and representative domain of THR_T for each trial's public sample
    ((trials, m) points of [T]; m may be 0). Returns (cell (trials, T): the cell of each x,
    i.e. #{distinct public s < x}; distinct (trials,): the number of distinct points)."""
    trials = public.shape[0]
    present = np.zeros((trials, size), dtype=bool)
    if public.shape[1]:
        present[np.arange(trials)[:, None], public] = True
    before = np.cumsum(present, axis=1) - present  # #{s < x}
    return before, present.sum(axis=1)


def threshold_structure(cell: np.ndarray, distinct: np.ndarray, probs: np.ndarray):
    """(RangeQueries of the cover's queries over the cells, cell masses D~ (trials, N_max))."""
    trials, size = cell.shape
    n_cells = int(distinct.max()) + 1
    flat = (cell + np.arange(trials)[:, None] * n_cells).ravel()
    mass = np.bincount(flat, weights=probs.ravel(), minlength=trials * n_cells).reshape(trials, n_cells)
    exists = np.bincount(flat, minlength=trials * n_cells).reshape(trials, n_cells) > 0
    j = np.arange(n_cells)[None, :]
    lo = np.zeros((trials, n_cells), dtype=np.int64)
    hi = np.broadcast_to(j, (trials, n_cells)).astype(np.int64)  # query j: cells [0, j)
    return RangeQueries(lo, hi, j <= distinct[:, None], exists), mass


def multinomial_rows(n: int, probs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """(trials, N) counts of n draws from each row of ``probs`` (rows renormalised so that
    rounding never makes a row sum above 1)."""
    p = np.clip(probs, 0.0, None)
    p = p / p.sum(axis=1, keepdims=True)
    return rng.multinomial(n, p)


def release_thresholds(public: np.ndarray, probs: np.ndarray, n: int, alpha: float, beta: float,
                       epsilon: float, delta: float, rng: np.random.Generator,
                       private_counts: np.ndarray | None = None, one_round: float | None = None):
    """Algorithm 3 for THR_T on every trial: public (trials, m) points, probs (trials, T)
    the distributions, n private draws per trial (or, for audits, ``private_counts``
    (trials, T): a fixed private histogram over [T] with n rows; ``one_round``: see
    ``pmw``). Returns (G (trials, T + 1) answers on the +-1 scale, K (trials,),
    N (trials,), updates (trials,))."""
    trials, size = probs.shape
    cell, distinct = threshold_cells(public, size)
    queries, mass = threshold_structure(cell, distinct, probs)
    if private_counts is None:
        counts = multinomial_rows(n, mass, rng)
    else:  # the representative of each private point is its cell
        n_cells = mass.shape[1]
        flat = (cell + np.arange(trials)[:, None] * n_cells).ravel()
        counts = np.bincount(flat, weights=np.asarray(private_counts, float).ravel(),
                             minlength=trials * n_cells).reshape(trials, n_cells)
    emp = np.cumsum(np.concatenate([np.zeros((trials, 1)), counts[:, :-1] / n], axis=1), axis=1)
    ans, updates, _ = pmw(queries, emp, n, alpha / 4.0, epsilon, delta, rng, one_round=one_round)
    g_cover = 2.0 * ans - 1.0
    # h_t agrees on the public points with cover member j = #{s < t} (t = T: all of them)
    j_of_t = np.concatenate([cell, distinct[:, None]], axis=1)
    return (np.take_along_axis(g_cover, j_of_t, axis=1), distinct + 1,
            queries.cell_ok.sum(axis=1), updates)


def threshold_error(g: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """(trials,) exact worst-case error max_t |G(h_t) - E_D h_t|."""
    return np.abs(g - threshold_answers(probs)).max(axis=1)


def threshold_cover_radius(public: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """(trials,) radius of THR_T's cover with the algorithm's map: h_t differs from its
    member s_j + 1 (or 0) exactly on [s_j + 1, t), so the radius is the largest D-mass of
    the points strictly between consecutive distinct public points (or before the first,
    or after the last)."""
    cell, distinct = threshold_cells(public, probs.shape[1])
    trials, size = cell.shape
    present = np.zeros((trials, size), dtype=bool)
    if public.shape[1]:
        present[np.arange(trials)[:, None], public] = True
    # gap of x: the public points below it, counting x itself when it is public, so the
    # public points themselves fall in no gap
    n_cells = int(distinct.max()) + 2
    gap = cell + present * 1
    gap_mass = np.where(present, 0.0, probs)
    flat = (gap + np.arange(trials)[:, None] * n_cells).ravel()
    return np.bincount(flat, weights=gap_mass.ravel(), minlength=trials * n_cells).reshape(
        trials, n_cells).max(axis=1)


def interval_cover_radius(public: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """(trials,) radius of INT_T's cover with the algorithm's map (first member in H's
    order: the empty interval, then (a, b) lexicographic). An interval whose public points
    are s_i..s_j maps to [s_(i-1) + 1, s_j] and differs from it on parts of the gap before
    s_i and the gap after s_j; one without public points maps to the empty interval and
    differs on a stretch of one gap. The radius is the sum of the two largest gaps (one
    gap when there are fewer than two)."""
    trials, size = probs.shape
    cell, distinct = threshold_cells(public, size)
    present = np.zeros((trials, size), dtype=bool)
    if public.shape[1]:
        present[np.arange(trials)[:, None], public] = True
    n_cells = int(distinct.max()) + 2
    gap = cell + present * 1
    flat = (gap + np.arange(trials)[:, None] * n_cells).ravel()
    gaps = np.bincount(flat, weights=np.where(present, 0.0, probs).ravel(),
                       minlength=trials * n_cells).reshape(trials, n_cells)
    top2 = -np.sort(-gaps, axis=1)[:, :2]
    return np.where(distinct >= 1, top2.sum(axis=1), top2[:, 0])


# --- baselines -------------------------------------------------------------------------------


def public_only_thresholds(public: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """(trials,) error of the public empirical means on THR_T: 2 sup_t |F_m(t) - F(t)|."""
    trials, size = probs.shape
    m = public.shape[1]
    counts = np.zeros((trials, size))
    np.add.at(counts, (np.repeat(np.arange(trials), m), public.ravel()), 1.0)
    emp = np.concatenate([np.zeros((trials, 1)), np.cumsum(counts, axis=1) / m], axis=1)
    return 2.0 * np.abs(emp - (threshold_answers(probs) + 1.0) / 2.0).max(axis=1)


def pmw_all_thresholds(probs: np.ndarray, n: int, alpha: float, epsilon: float, delta: float,
                       rng: np.random.Generator, private_counts: np.ndarray | None = None,
                       one_round: float | None = None, answers: bool = False, final_state: bool = False):
    """Private only: PMW on all of [T] answering THR_T (K = T + 1 queries, N = T cells),
    at 0/1 accuracy alpha/4 for the sample (Lemma 2.7's explicit form). Returns (errors
    (trials,), updates (trials,)), or with ``answers`` the answers G (trials, T + 1) on
    the +-1 scale instead of the errors. ``private_counts``, ``one_round``: audits;
    ``final_state`` (audits) appends PMW's final synthetic distribution (trials, T), the
    data structure Algorithm 1 outputs."""
    trials, size = probs.shape
    counts = multinomial_rows(n, probs, rng) if private_counts is None else private_counts
    t = np.arange(size + 1)[None, :]
    queries = RangeQueries(np.zeros((trials, size + 1), np.int64), np.broadcast_to(t, (trials, size + 1)).copy(),
                           np.ones((trials, size + 1), bool), np.ones((trials, size), bool))
    emp = np.concatenate([np.zeros((trials, 1)), np.cumsum(counts, axis=1) / n], axis=1)
    ans, updates, state = pmw(queries, emp, n, alpha / 4.0, epsilon, delta, rng, one_round=one_round)
    if final_state:
        return 2.0 * ans - 1.0, updates, state
    if answers:
        return 2.0 * ans - 1.0, updates
    return np.abs(2.0 * ans - 1.0 - threshold_answers(probs)).max(axis=1), updates


def tree_noise_scale(levels: int, epsilon: float) -> float:
    """The tree's Lap(2L/eps) on every node, L = levels (its own function so that a privacy
    audit's mutation test can halve it at the one place the release takes it from)."""
    return 2.0 * levels / epsilon


def tree_thresholds(probs: np.ndarray, n: int, epsilon: float, rng: np.random.Generator,
                    private_counts: np.ndarray | None = None, answers: bool = False) -> np.ndarray:
    """Private only, pure eps-DP: the binary-tree release of THR_T (T a power of 2). Every
    dyadic node's count gets Lap(2L/eps), L = log2 T + 1 levels (a replaced point changes
    two counts per level); the prefix [0, t) sums the nodes of t's binary expansion.
    Returns (trials,) errors on the +-1 scale, or with ``answers`` the released answers G
    (trials, T + 1). ``private_counts`` (audits): a fixed private histogram of n rows."""
    trials, size = probs.shape
    levels = int(np.log2(size))
    if 1 << levels != size:
        raise ParameterError(f"T must be a power of 2 for the binary-tree release, got {size}")
    counts = (multinomial_rows(n, probs, rng) if private_counts is None else private_counts).astype(float)
    scale = tree_noise_scale(levels + 1, epsilon)
    t = np.arange(size + 1)
    prefix = np.zeros((trials, size + 1))
    for lv in range(levels + 1):  # a loop over the tree's levels only; numpy over trials and nodes
        width = 1 << lv
        nodes = counts.reshape(trials, size // width, width).sum(axis=2)
        nodes += rng.laplace(0.0, scale, nodes.shape)
        use = (t >> lv) & 1 == 1  # t's bit lv set: the node just before (t >> lv) << lv
        idx = np.where(use, (t >> lv) - 1, 0)
        prefix += np.where(use[None, :], nodes[:, idx], 0.0)
    g = 2.0 * np.clip(prefix / n, 0.0, 1.0) - 1.0
    if answers:
        return g
    return np.abs(g - threshold_answers(probs)).max(axis=1)


# --- decision stumps, batched over trials (product form) -------------------------------------


def stump_cover(public: np.ndarray) -> np.ndarray:
    """(trials, p): for each stump h_j its cover member, the first coordinate j' whose
    public column equals column j (public: (trials, m, p) of +-1; m = 0 merges all)."""
    trials, m, p = public.shape
    if m == 0:
        return np.zeros((trials, p), dtype=np.int64)
    packed = np.packbits(public > 0, axis=1)  # (trials, bytes, p)
    same = np.ones((trials, p, p), dtype=bool)
    for b in range(packed.shape[1]):  # a loop over the public sample's bytes, numpy over trials
        same &= packed[:, b, :, None] == packed[:, b, None, :]
    return same.argmax(axis=2)


def release_stumps(public: np.ndarray, mu: np.ndarray, n: int, alpha: float, beta: float,
                   epsilon: float, delta: float, rng: np.random.Generator,
                   private_freq: np.ndarray | None = None, one_round: float | None = None):
    """Algorithm 3 for STUMP_p on every trial, with PMW in product form (``public``: the
    rows (trials, m, p), or their cover (trials, p) from ``stump_cover_sampled``). The cover keeps
    one coordinate per distinct public column; the representative domain is {+-1}^J over
    the kept coordinates J (the representative of x is x_J), and each cover query's
    answer on the private sample is the frequency of x_j = +1, whose law under the
    product distribution with means mu is Binomial(n, (1 + mu_j)/2) / n (independent
    across j). ``private_freq`` (audits): fixed frequencies instead. Returns (G (trials,
    p), K (trials,), updates)."""
    from privbounds.simulators.pap.pmw_offline import ProductQueries

    rep = public if public.ndim == 2 else stump_cover(public)
    trials, p = mu.shape
    keep = rep == np.arange(p)[None, :]
    freq = rng.binomial(n, (1.0 + mu) / 2.0) / n if private_freq is None else private_freq
    ans, updates, _ = pmw(ProductQueries(keep), freq, n, alpha / 4.0, epsilon, delta, rng, one_round=one_round)
    g = 2.0 * np.take_along_axis(ans, rep, axis=1) - 1.0
    return g, keep.sum(axis=1), updates


def stump_public(mu: np.ndarray, m: int, rng: np.random.Generator) -> np.ndarray:
    """(trials, m, p) int8 public rows of the product distribution with means mu."""
    return np.where(rng.random((mu.shape[0], m, mu.shape[1])) < (1.0 + mu[:, None, :]) / 2.0, 1, -1).astype(np.int8)


def stump_cover_sampled(mu: np.ndarray, m: int, rng: np.random.Generator, chunk: int = 64) -> np.ndarray:
    """``stump_cover`` of m public rows drawn from the product distribution with means mu,
    drawing the rows in chunks and stopping early for a trial whose p columns are already
    pairwise distinct: more rows can only keep them distinct, so the cover is then H
    itself, whatever the remaining rows (exact in law, and m = 10^4 public rows cost what
    64 do whenever the columns separate early)."""
    trials, p = mu.shape
    same = np.ones((trials, p, p), dtype=bool)
    active = np.arange(trials)
    drawn = 0
    while drawn < m and active.size:
        rows = stump_public(mu[active], min(chunk, m - drawn), rng)
        packed = np.packbits(rows > 0, axis=1)
        block = same[active]
        for b in range(packed.shape[1]):  # a loop over the chunk's bytes, numpy over trials
            block &= packed[:, b, :, None] == packed[:, b, None, :]
        same[active] = block
        drawn += rows.shape[1]
        ties = block.sum(axis=(1, 2)) > p  # some pair of distinct columns still agrees
        active = active[ties]
    return same.argmax(axis=2)
