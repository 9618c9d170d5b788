"""Private Multiplicative Weights (PMW) run as a sanitizer, batched over trials.

The mechanism is that of Hardt and Rothblum, "A Multiplicative Weights Mechanism for
Privacy-Preserving Data Analysis" (FOCS 2010). Bun, Nissim, Stemmer, "Simultaneous
Private Learning of Multiple Concepts", use it as Theorem 2.19: an (eps, delta)-DP,
(alpha, beta)-accurate sanitizer for any finite query class C over a finite domain X
from about log|C| sqrt(log|X|) sqrt(log(1/delta)) / (alpha^2 eps) rows (constants
hidden there).

Source of the pseudocode and of every constant: Dwork and Roth, "The Algorithmic
Foundations of Differential Privacy" (2014), the (eps, delta) branch (delta > 0) of
- Section 4.2.1, the MW update rule (Algorithm 5) and its convergence, Theorem 4.10;
- Section 4.2.2, "OnlineMW via NumericSparse", Theorems 4.13 (privacy) and 4.15
  (accuracy);
- Section 3.6, Sparse (Theorems 3.25, 3.26) and NumericSparse (Theorems 3.27, 3.28),
  composed with advanced composition (Theorem 3.20, Corollary 3.21).
All logarithms are natural (Theorem 4.10's potential is a KL divergence in nats).
The copy of the book consulted renders the algorithm boxes as images; the noise scales
below are the ones its privacy proofs compose (Theorems 3.25, 3.27: eps_AT per
AboveThreshold instance, the sqrt(512) : 1 split, delta/2 each) and its accuracy
constants (Theorems 3.26, 3.28, 4.15) reproduce exactly, e.g. (2 + 32 sqrt 2) =
2 (sqrt(512) + 1).

The algorithm (one trial; every trial of a batch runs it independently):
- Databases are probability vectors over X; x is the sample's histogram / n, the
  synthetic x^1 is uniform. A query q answers f_q(y) = sum_{z in q} y_z.
- MW update (Algorithm 5), learning rate eta = a / 2: given a query f and a released
  value v, r = f if v < f(x^t) else 1 - f, and x^{t+1} is proportional to
  x^t exp(-eta r). Kept as log-weights renormalised with log-sum-exp, so nothing
  overflows (|log-weight| <= c eta + ln|X|, whatever n).
- OnlineMW: for each query f_i of the stream, NumericSparse is asked
  f'_{2i-1} = f_i(x) - f_i(x^t) and then f'_{2i} = f_i(x^t) - f_i(x). If both answers are
  "below", f_i is answered f_i(x^t). Otherwise, with E the first numeric answer, the
  answer is v = f_i(x^t) + E_{2i-1} (or f_i(x^t) - E_{2i}) and x^{t+1} = MW(x^t, f_i, v).
- NumericSparse (delta > 0): eps1 = sqrt(512) / (sqrt(512) + 1) eps for the Sparse part,
  eps2 = 2 / (sqrt(512) + 1) eps for the numeric answers;
  sigma(e) = sqrt(32 c ln(2/delta)) Delta / e. The threshold is T + Lap(sigma(eps1)),
  redrawn after every "above" answer; every comparison adds fresh Lap(2 sigma(eps1))
  to the query; an "above" answer releases f' + Lap(sigma(eps2)); it halts after c
  "above" answers.
- As a sanitizer: the stream is the rows of ``queries`` in their fixed order, repeated
  until one whole pass makes no update (or NumericSparse halts). Every pass but the last
  makes an update and there are at most c of them, so at most c + 1 passes and a stream
  of at most k = 2 |Q| (c + 1) NumericSparse queries. Output: the final x^t (synthetic
  distribution) and its answers to every query (post-processing of released values).

Parameters (``pmw_parameters``), for target max error alpha over all of ``queries``:
- a = alpha / 3 (Theorem 4.15 guarantees error 3a), eta = a / 2;
- cutoff c = ceil(4 ln|X| / a^2) (Theorem 4.10 bounds the updates by 4 ln|X| / a^2; the
  book leaves c real, we round up and use this integer c in every noise scale);
- threshold T = 2a. DEVIATION from the letter of the book, which writes
  T = (2 + 32 sqrt 2) sqrt(c log(2/delta)) (log k + log(4c/beta)) / (eps ||x||_1), i.e. twice
  NumericSparse's accuracy alpha_S(n) of Theorem 3.28. That expression equals 2a exactly
  at the sample size where Theorem 4.15's condition holds with equality; its proof needs
  T - alpha_S >= a (each update must lower the potential by a^2 / 4), which the book's
  n-dependent T violates once n grows. T = 2a keeps the guarantee for every larger n and
  does not depend on beta. T is data-independent, so privacy does not depend on it;
- Delta = 1/n. Neighbouring databases here differ in ONE ROW REPLACED: each counting
  query's fraction, hence each f'_j (x^t depends only on released values), moves by at
  most 1/n. Unlike a histogram (two counts move), no factor 2 is needed: one stream
  query is one counting query. The book's analysis (add/remove, ||x||_1 treated as
  public) uses the same sensitivity 1/||x||_1;
- threshold noise scale sigma = sqrt(32 c ln(2/delta)) / (eps1 n), query noise 2 sigma,
  numeric noise sqrt(32 c ln(2/delta)) / (eps2 n).

(eps, delta) accounting (Theorem 3.27 with Theorem 3.20), done in ``pmw_parameters``:
Sparse is c AboveThreshold instances, each pure eps_AT-DP with
eps_AT = eps1 / sqrt(8 c ln(2/delta)) (threshold Lap(2 Delta / eps_AT), queries
Lap(4 Delta / eps_AT)); the <= c numeric answers are each pure
eps_L = eps2 / sqrt(32 c ln(2/delta))-DP. Advanced composition (Theorem 3.20) with
delta/2 each gives (S1, delta/2) and (S2, delta/2), S(k, e, d) = sqrt(2k ln(1/d)) e +
k e (e^e - 1); the book's budget needs S1 <= eps1 and S2 <= eps2 / 2 (Corollary 3.21
assumes eps < 1; we check the exact inequality instead and raise ValueError if it
fails), so the total is (S1 + S2, delta) with S1 + S2 <= eps1 + eps2/2 = eps.
``epsilon_spent`` reports S1 + S2, which is about eps/2: the book's split is loose.

Accuracy (``pmw_sample_size``): Theorem 4.15 for this sanitizer. If
    n >= (sqrt(512) + 1) sqrt(c ln(2/delta)) (ln k + ln(4c/beta)) / (eps a)      [Thm 3.28]
then with probability >= 1 - beta/2 every "above" has f' >= T - alpha_S >= a and every
"below" has f' < T + alpha_S <= 3a. With c = 4 ln|X| / a^2 and k = 2|Q| this is exactly
Theorem 4.15's condition, n >= (2 + 32 sqrt 2) sqrt(ln|X| ln(2/delta))
(ln|Q| + ln(32 ln|X| / (a^2 beta))) / (eps a^2), i.e. the book's "alpha >= ... /
(eps alpha ||x||_1)" (the copy consulted prints alpha^2 in that denominator, a typo: the
alpha^1 form is what Theorem 3.28 gives and what its alpha ~ ||x||^(-1/2) corollary uses).
Theorem 3.28's alpha_S bounds only the Sparse noise; the numeric answers' Laplace
noise, of scale sqrt(8) (sqrt(512) + 1) sqrt(c ln(2/delta)) / (eps n), is not covered by
it in the delta > 0 case. Each update needs the sign of
v - f(x^t) right, i.e. |Lap| < a for all <= c numeric answers, which holds with
probability >= 1 - beta/2 when also
    n >= sqrt(8) (sqrt(512) + 1) sqrt(c ln(2/delta)) ln(2c/beta) / (eps a).
On both events every update lowers KL(x || x^t) by >= a^2/4 (Theorem 4.10), so there are
<= c updates, the last pass is clean, and every query of the class is answered by the
synthetic distribution within 3a = alpha: max error <= alpha with probability >= 1 - beta.
``pmw_sample_size`` returns the larger of the two (``source_only=True``: the first).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from privbounds.bounds.tools import SQRT512, advanced_composition_epsilon, n_pmw
from privbounds.params import Interval, ParameterError


@dataclass(frozen=True)
class PMWParameters:
    """Every constant of one PMW run (noise scales in fraction units, Delta = 1/n)."""

    n: int
    domain_size: int
    n_queries: int
    alpha: float  # target max error over the query class
    epsilon: float
    delta: float
    mw_alpha: float  # a = alpha / 3: Theorem 4.15 guarantees error 3a
    eta: float  # MW learning rate a / 2 (Algorithm 5)
    cutoff: int  # c = ceil(4 ln|X| / a^2): NumericSparse halts after c "above" answers
    max_passes: int  # c + 1 passes over the query class always suffice
    stream_length: int  # k = 2 |Q| (c + 1) NumericSparse queries at most
    threshold: float  # T = 2a
    eps_sparse: float  # eps1 = sqrt(512) / (sqrt(512) + 1) eps
    eps_numeric: float  # eps2 = 2 / (sqrt(512) + 1) eps (spends eps2 / 2)
    eps_above_threshold: float  # eps_AT = eps1 / sqrt(8 c ln(2/delta)), per instance
    threshold_scale: float  # sigma = sqrt(32 c ln(2/delta)) / (eps1 n)
    query_scale: float  # 2 sigma
    numeric_scale: float  # sqrt(32 c ln(2/delta)) / (eps2 n)
    epsilon_spent: float  # advanced composition (Theorem 3.20) actually achieved, <= epsilon


class PMWResult(NamedTuple):
    synthetic: np.ndarray  # (B, |X|) final MW distribution x^t of every trial
    answers: np.ndarray  # (B, Q) its answers f_q(x^t) to every query
    updates: np.ndarray  # (B,) number of MW update rounds used


# NumericSparse's three noise scales, one function each, so that a privacy audit's mutation
# test (engine/mutations.py) can halve exactly one of them; ``root`` = sqrt(32 c ln(2/delta)).

def sparse_threshold_scale(root: float, eps1: float, n: int) -> float:
    """The threshold noise sigma = root Delta / eps1 (Delta = 1/n), redrawn after every top."""
    return root / (eps1 * n)


def sparse_query_scale(root: float, eps1: float, n: int) -> float:
    """The noise on every compared query, 2 sigma."""
    return 2.0 * root / (eps1 * n)


def numeric_answer_scale(root: float, eps2: float, n: int) -> float:
    """The noise on an "above" query's released value, root Delta / eps2."""
    return root / (eps2 * n)


def pmw_parameters(n: int, domain_size: int, n_queries: int, alpha: float, epsilon: float,
                   delta: float) -> PMWParameters:
    """The constants of the module docstring for n rows, and the (eps, delta) accounting.
    Raises ValueError (naming the parameter) for bad inputs, and for an epsilon too large
    for advanced composition to fit the book's budget split."""
    Interval("n", 1, None, "left", integer=True).validate(n)
    Interval("domain_size", 2, None, "left", integer=True).validate(domain_size)
    Interval("n_queries", 1, None, "left", integer=True).validate(n_queries)
    Interval("alpha", 0, 1, floor=0.0).validate(alpha)
    Interval("epsilon", 0, None, floor=0.0).validate(epsilon)
    Interval("delta", 0, 1, floor=0.0).validate(delta)
    a = alpha / 3.0
    c = math.ceil(4.0 * math.log(domain_size) / a**2)
    log2d = math.log(2.0 / delta)
    eps1 = SQRT512 / (SQRT512 + 1.0) * epsilon
    eps2 = 2.0 / (SQRT512 + 1.0) * epsilon
    root = math.sqrt(32.0 * c * log2d)  # sigma(e) = root * Delta / e
    eps_at = eps1 / math.sqrt(8.0 * c * log2d)
    eps_lap = eps2 / root  # one numeric answer, Lap(root Delta / eps2), sensitivity Delta
    s_sparse = float(advanced_composition_epsilon(eps_at, c, delta / 2))
    s_numeric = float(advanced_composition_epsilon(eps_lap, c, delta / 2))
    # the book's split: Sparse gets (eps1, delta/2), the numeric answers (eps2/2, delta/2)
    if s_sparse > eps1 * (1 + 1e-12) or s_numeric > eps2 / 2 * (1 + 1e-12):
        raise ParameterError(
            f"epsilon must be small enough for advanced composition (Dwork-Roth Thm 3.20) "
            f"to fit the NumericSparse budget at delta={delta!r}, got {epsilon!r}")
    return PMWParameters(
        n=int(n), domain_size=int(domain_size), n_queries=int(n_queries), alpha=float(alpha),
        epsilon=float(epsilon), delta=float(delta), mw_alpha=a, eta=a / 2.0, cutoff=c,
        max_passes=c + 1, stream_length=2 * int(n_queries) * (c + 1), threshold=2.0 * a,
        eps_sparse=eps1, eps_numeric=eps2, eps_above_threshold=eps_at,
        threshold_scale=sparse_threshold_scale(root, eps1, n), query_scale=sparse_query_scale(root, eps1, n),
        numeric_scale=numeric_answer_scale(root, eps2, n), epsilon_spent=s_sparse + s_numeric)


def pmw_sample_size(alpha: float, beta: float, epsilon: float, delta: float, domain_size: int,
                    n_queries: int, *, source_only: bool = False) -> int:
    """Smallest n at which the analysis in the module docstring guarantees max error
    <= alpha over all n_queries queries with probability >= 1 - beta: the bound
    ``privbounds.bounds.tools.n_pmw``, after checking (as ``pmw_parameters`` does) that
    this sanitizer can run at these parameters."""
    Interval("beta", 0, 1, floor=0.0).validate(beta)
    pmw_parameters(1, domain_size, n_queries, alpha, epsilon, delta)
    return n_pmw(alpha, beta, epsilon, delta, domain_size, n_queries, source_only=source_only)


def check_inputs(hist, queries):
    """Validate (hist (B, |X|) non-negative integer counts with equal row sums n >= 1,
    queries (Q, |X|) boolean); returns (hist as int64, queries, n)."""
    hist = np.asarray(hist)
    queries = np.asarray(queries)
    if hist.ndim != 2 or hist.shape[0] < 1:
        raise ParameterError(f"hist must be a 2-D array (trials, domain size), got shape {hist.shape}")
    if not (np.issubdtype(hist.dtype, np.integer) or np.issubdtype(hist.dtype, np.floating)):
        raise ParameterError(f"hist must hold integer counts, got dtype {hist.dtype}")
    if not np.all(np.isfinite(hist)) or np.any(hist < 0) or np.any(hist != np.round(hist)):
        raise ParameterError("hist must hold non-negative integer counts")
    hist = hist.astype(np.int64)
    n = hist.sum(axis=1)
    if n[0] < 1 or np.any(n != n[0]):
        raise ParameterError(f"hist rows must all sum to the same n >= 1, got sums from {n.min()} to {n.max()}")
    if queries.ndim != 2 or queries.shape[0] < 1:
        raise ParameterError(f"queries must be a 2-D array (queries, domain size), got shape {queries.shape}")
    if queries.dtype != bool:
        raise ParameterError(f"queries must be a boolean array, got dtype {queries.dtype}")
    if queries.shape[1] != hist.shape[1]:
        raise ParameterError(f"queries must have {hist.shape[1]} columns (hist's domain size), got {queries.shape[1]}")
    return hist, queries, int(n[0])


def pmw_sanitize(hist, queries, alpha: float, epsilon: float, delta: float,
                 rng: np.random.Generator) -> PMWResult:
    """(epsilon, delta)-DP PMW sanitizer (module docstring), every trial independent.

    hist (B, |X|): each trial's sample as counts (n rows, the same n for all trials);
    queries (Q, |X|) boolean, shared: query q answers the fraction of rows x with
    queries[q, x]. Returns (synthetic (B, |X|), answers (B, Q), updates (B,))."""
    if not isinstance(rng, np.random.Generator):
        raise ParameterError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    hist, queries, n = check_inputs(hist, queries)
    params = pmw_parameters(n, hist.shape[1], queries.shape[0], alpha, epsilon, delta)
    return pmw_run(hist, queries, params, rng)


def pmw_run(hist, queries, params: PMWParameters, rng: np.random.Generator) -> PMWResult:
    """The batched mechanism with given constants (``pmw_sanitize`` validates first).

    Vectorised over trials, queries and domain points; the Python loop runs over update
    rounds: in one round every active trial evaluates the rest of its current pass
    against its current x^t and AboveThreshold instance, and stops at its first "above"
    answer (or at the end of the pass). Noise drawn for comparisons after that point is
    discarded unused, so every comparison that is made uses fresh independent noise.
    The state of the active trials is kept compacted (``_Active``) rather than gathered
    from whole-batch arrays every round: a round is some 90 small numpy calls, and their
    overhead, not arithmetic, is the cost of a run."""
    hist, queries, n = check_inputs(hist, queries)
    if (n, hist.shape[1], queries.shape[0]) != (params.n, params.domain_size, params.n_queries):
        raise ParameterError("params must be computed for this hist's n, domain size and query count")
    B, X = hist.shape
    qf = queries.astype(float)
    st = _Active(B, X, (hist / n) @ qf.T, params.threshold + rng.laplace(0.0, params.threshold_scale, size=B))
    # eta r for every update: row i is query i's penalty (v < f_i(x^t)), row Q + i its complement's
    penalty = params.eta * np.concatenate([qf, 1.0 - qf])
    while st.ids.size:
        _round(st, qf, penalty, params, rng)
    synthetic = np.exp(st.log_w_out)
    synthetic /= synthetic.sum(axis=1, keepdims=True)
    return PMWResult(synthetic, synthetic @ qf.T, st.updates_out)


class _Active:
    """The running trials of ``pmw_run``, row r being trial ``ids[r]``; a trial that stops
    leaves its final log-weights and update count in ``log_w_out`` and ``updates_out``."""

    def __init__(self, B: int, X: int, truth: np.ndarray, thr: np.ndarray):
        self.ids = np.arange(B)
        self.truth = truth  # f_q(x), (B, Q)
        self.log_w = np.full((B, X), -math.log(X))  # x^1 uniform
        self.thr = thr  # T_hat of the current AboveThreshold instance
        self.count = np.zeros(B, np.int64)  # NumericSparse "above" answers so far
        self.updates = np.zeros(B, np.int64)
        self.passes = np.zeros(B, np.int64)  # completed passes over the query class
        self.pos = np.zeros(B, np.int64)  # next stream slot: 2i for f'_{2i-1}, 2i+1 for f'_{2i}
        self.dirty = np.zeros(B, bool)  # this pass made an update
        self.log_w_out = np.empty((B, X))
        self.updates_out = np.zeros(B, np.int64)

    def next_pass(self, rows: np.ndarray, stop: np.ndarray, max_passes: int) -> None:
        if not rows.size:  # the common case for one of the round's two calls
            return
        self.passes[rows] += 1
        self.pos[rows] = 0
        self.dirty[rows] = False
        stop[rows[self.passes[rows] >= max_passes]] = True  # never reached: see the docstring

    def drop(self, stop: np.ndarray) -> None:
        """Record the stopped rows' results and keep the others."""
        done = self.ids[stop]
        self.log_w_out[done] = self.log_w[stop]
        self.updates_out[done] = self.updates[stop]
        keep = ~stop
        for name in ("ids", "truth", "log_w", "thr", "count", "updates", "passes", "pos", "dirty"):
            setattr(self, name, getattr(self, name)[keep])


_SIGNS = np.array([1.0, -1.0])


def _round(st: _Active, qf: np.ndarray, penalty: np.ndarray, params: PMWParameters,
           rng: np.random.Generator) -> None:
    """One update round of every active trial (``pmw_run``), in place."""
    T, c = params.threshold, params.cutoff
    m, two_q = st.ids.size, 2 * qf.shape[0]
    gap = st.truth - np.exp(st.log_w) @ qf.T  # f'_{2i-1}(x) = f_i(x) - f_i(x^t)
    fprime = (gap[:, :, None] * _SIGNS).reshape(m, two_q)  # f'_{2i-1}, f'_{2i} interleaved
    noisy = fprime + rng.laplace(0.0, params.query_scale, size=(m, two_q))
    fire = (noisy >= st.thr[:, None]) & (np.arange(two_q) >= st.pos[:, None])
    first = fire.argmax(axis=1)  # the first "above" slot, if any
    hit = fire[np.arange(m), first]
    stop = np.zeros(m, bool)

    # The rest of the pass was all "below": stop after a clean pass, else start again.
    ended = np.flatnonzero(~hit)
    clean = ~st.dirty[ended]
    stop[ended[clean]] = True
    st.next_pass(ended[~clean], stop, params.max_passes)

    t = np.flatnonzero(hit)
    if t.size:
        j = first[t]
        i = j // 2
        minus = (j % 2) == 1
        st.count[t] += 1
        e = fprime[t, j] + rng.laplace(0.0, params.numeric_scale, size=t.size)  # released E_j
        st.thr[t] = T + rng.laplace(0.0, params.threshold_scale, size=t.size)  # next instance
        # f'_{2i-1} fired: f'_{2i} (same x^t) still goes to the fresh instance unless
        # NumericSparse halted. Its numeric answer, if any, is released but ignored by
        # OnlineMW (the f'_{2i-1} branch wins) and has no effect on the output, so it is
        # not drawn; it does count towards the cutoff and restarts the threshold.
        second = ~minus & (st.count[t] < c)
        if second.any():
            t2 = t[second]
            noisy2 = -gap[t2, i[second]] + rng.laplace(0.0, params.query_scale, size=t2.size)
            t3 = t2[noisy2 >= st.thr[t2]]
            st.count[t3] += 1
            st.thr[t3] = T + rng.laplace(0.0, params.threshold_scale, size=t3.size)
        # v = f_i(x^t) + E_{2i-1} or f_i(x^t) - E_{2i}; MW: r = f_i if v < f_i(x^t) else 1 - f_i.
        # The sign of v - f_i(x^t) is taken from E directly (no cancellation error).
        down = np.where(minus, -e, e) < 0
        lw = st.log_w[t] - penalty[np.where(down, i, i + qf.shape[0])]
        # normalise in log space; numpy's max-shifted sum rather than scipy.special.logsumexp,
        # whose array-API dispatch costs about 0.5 ms a call, half of a PMW run at |X| = 8
        top = lw.max(axis=1, keepdims=True)
        st.log_w[t] = lw - (top + np.log(np.exp(lw - top).sum(axis=1, keepdims=True)))
        st.updates[t] += 1
        st.dirty[t] = True
        st.pos[t] = 2 * (i + 1)
        halted = st.count[t] >= c
        stop[t[halted]] = True
        st.next_pass(t[~halted & (st.pos[t] >= two_q)], stop, params.max_passes)
    if stop.any():
        st.drop(stop)
