"""Bounds from Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple
Concepts" (ITCS 2016, JMLR 2019).

- Thm 2.16 (composition; dropped from the extracted text, the standard statements the
  paper cites): basic composition and the advanced composition theorem of Dwork,
  Rothblum and Vadhan (2010), in the form of Dwork and Roth (2014), Theorem 3.20.
- Obs 3.2: the direct-sum k-learner, one private learner per concept.
- Thm 5.1: the packing lower bound for pure-DP k-learning.
- Section 4 (fingerprinting lower bounds): bns_fingerprinting.py, imported here.
"""

from __future__ import annotations

import numpy as np

from ._meta import ASYMPTOTIC, EXACT, at_least, bound, positive, unit_open
from .bns_fingerprinting import (  # noqa: F401  (Section 4: bns.<name> stays one place to find every bound)
    agnostic_accuracy_ceiling,
    agnostic_accuracy_ceiling_at,
    bs_code_length,
    bs_condition,
    code_error_ceiling,
    dp_any_trace_ceiling,
    dp_trace_ceiling,
    fp_security,
    fp_soundness_ceiling,
    n_lb_agnostic_asymptotic,
    n_lb_agnostic_users,
    n_lb_thresh_asymptotic,
    n_lb_thresh_users,
    rows_lb_agnostic,
    rows_lb_code,
    rows_lb_tardos_code,
    rows_lb_thresh,
    tardos_code_length,
    tardos_completeness,
    tardos_condition,
    thresh_accuracy_ceiling,
    thresh_accuracy_ceiling_at,
    untraced_ceiling,
)
from .sivakumar import log_star, n_expmech_learner  # noqa: F401 (log_star: one definition, Thm 3.6's)
from .tools import per_concept_epsilon


@bound(EXACT, "BNS Obs 3.2 over the exponential-mechanism learner (Thm 2.22 / Sivakumar Thm 3.3)")
def n_direct_sum(h_size, epsilon, k, rule="basic", delta=None, alpha=0.25, beta=0.25):
    """Rows sufficient for the direct-sum k-learner: each concept is learned by the
    exponential mechanism with budget eps0 = per_concept_epsilon(epsilon, k, rule) and
    failure beta / k (union bound over the k concepts), so
    N = max(8 / alpha, 4 / (alpha eps0)) (ln|H| + ln(2k / beta)).
    With basic composition N grows like k ln k; with advanced like
    sqrt(k ln(1 / delta)) ln k."""
    ks = np.atleast_1d(np.asarray(k))
    eps0 = np.array([per_concept_epsilon(epsilon, int(kk), rule, delta) for kk in ks])
    out = n_expmech_learner(h_size, eps0, alpha, np.asarray(beta) / ks)
    return out if np.ndim(k) else float(out[0])


def direct_sum_log_factor(h_size, k, beta=0.25):
    """The logarithmic part of ``n_direct_sum``, ln|H| + ln(2k / beta): scaling claims
    divide it out before fitting the power of k ("n grows like k, up to logs")."""
    return np.log(np.asarray(h_size, float)) + np.log(2.0 * np.asarray(k, float) / beta)


@bound(EXACT, "BNS Thm 5.1; explicit constant from the packing argument")
def packing_lower_bound(k, epsilon, beta):
    """No eps-DP k-learner (proper or not) succeeds with probability >= 1 - beta on the
    packing instance unless n >= (k ln 2 + ln(1 - beta)) / epsilon.

    Proof: under a point mass at x0 (where two concepts disagree) success means
    revealing the label vector b in {0,1}^k; the 2^k success events are disjoint and
    databases differ in at most n rows, so 1 >= 2^k e^(-epsilon n)(1 - beta)."""
    kk = at_least("k", k, 1)
    eps = positive("epsilon", epsilon)
    b = unit_open("beta", beta)
    return (kk * np.log(2) + np.log1p(-b)) / eps


@bound(EXACT, "BNS Thm 5.1; averaged form of the packing inequality")
def packing_success_ceiling(n, k, epsilon):
    """Success probability of any eps-DP k-learner on the packing instance with a
    uniformly random label vector: p(n) <= min(1, e^(epsilon n) / 2^k)."""
    nn = at_least("n", n, 0)
    kk = at_least("k", k, 1)
    eps = positive("epsilon", epsilon)
    return np.exp(np.minimum(0.0, eps * nn - kk * np.log(2)))


@bound(EXACT, "BNS Cor 2.12 via Thm 2.7 (Blumer et al.), constants as used across BNS papers")
def n_nonprivate_k_learner(vc, k, alpha=0.25, beta=0.25):
    """Rows sufficient for consistent ERM to k-learn a class of VC dimension ``vc``
    (realizable): Thm 2.7 with failure beta / k per concept and a union bound over the k
    concepts, n >= (8 / alpha)(vc ln(16 / alpha) + ln(2k / beta)). A consistent
    hypothesis has empirical error 0 <= alpha / 2, so Thm 2.7 makes it alpha-accurate.
    k enters only through ln k."""
    v = at_least("vc", vc, 1)
    kk = at_least("k", k, 1)
    a = unit_open("alpha", alpha)
    b = unit_open("beta", beta)
    return (8.0 / a) * (v * np.log(16.0 / a) + np.log(2.0 * kk / b))


def nonprivate_log_factor(vc, k, alpha=0.25, beta=0.25):
    """The part of ``n_nonprivate_k_learner`` that depends on k, with its constant:
    vc ln(16 / alpha) + ln(2k / beta). Scaling claims divide it out."""
    return vc * np.log(16.0 / alpha) + np.log(2.0 * np.asarray(k, float) / beta)


def alg4_block_size(d):
    """Rows per block of Algorithm 4: s = d + 3, so a uniform s x d matrix over GF(2) has
    full column rank d with probability >= 1 - 2^(d - s) = 7/8."""
    return int(at_least("d", d, 1)) + 3


@bound(EXACT, "BNS Thm 3.12 / Alg 4; explicit constants we derived from the proof (RECONSTRUCTED)")
def n_alg4_parities(d, epsilon, delta, beta):
    """Rows sufficient for Algorithm 4 to recover all k parities exactly w.p. >= 1 - beta
    under the uniform distribution, with no dependence on k: n = s T with s = d + 3 and
    T = ceil(max((8 / eps) ln(2 / (beta delta)), 32 ln(2 / beta))) blocks.
    Derivation: each block has full rank (so its solution is the target vector) w.p.
    >= 7/8; by Hoeffding at least 3T/4 blocks do except w.p. e^(-T/32) <= beta/2; then
    the target leads every other vector by >= T/2 >= (4/eps) ln(2/(beta delta)), the
    margin at which A_dist releases it w.p. >= 1 - beta/2."""
    dd = at_least("d", d, 1)
    eps = positive("epsilon", epsilon)
    dl = unit_open("delta", delta)
    b = unit_open("beta", beta)
    T = np.ceil(np.maximum((8.0 / eps) * np.log(2.0 / (b * dl)), 32.0 * np.log(2.0 / b)))
    return (dd + 3) * T


@bound(EXACT, "BNS Thm 5.4; explicit constant from the packing argument")
def parity_packing_lower_bound(k, d, epsilon, beta):
    """No eps-DP k-learner for PAR_d under the uniform distribution succeeds (recovers
    every parity, error < 1/2 rounded to the nearest parity, Lemma 5.3) with probability
    >= 1 - beta unless n >= (k d ln 2 + ln(1 - beta)) / eps: the 2^(kd) target vectors
    give disjoint success events."""
    kk = at_least("k", k, 1)
    dd = at_least("d", d, 1)
    eps = positive("epsilon", epsilon)
    b = unit_open("beta", beta)
    return (kk * dd * np.log(2) + np.log1p(-b)) / eps


def _smallest_n(condition, start=1.0):
    """Smallest real n >= start with condition(n) >= 0, for a condition that is
    negative below a crossing and increasing after it (found by doubling then brentq)."""
    lo, hi = start, 2 * start
    while condition(hi) < 0:
        lo, hi = hi, 2 * hi
        if hi > 1e15:
            raise ValueError("no finite sample size satisfies the condition")
    if condition(lo) >= 0:
        return lo
    from scipy.optimize import brentq  # here: the bounds load without scipy.optimize

    return brentq(condition, lo, hi, xtol=1e-9)


@bound(EXACT, "BNS Prop 2.20 / Alg 1; explicit constants we derived from the proof (RECONSTRUCTED)")
def n_point_sanitizer(alpha, epsilon, delta, beta):
    """Rows sufficient for Algorithm 1 to answer every point query within alpha w.p.
    >= 1 - beta, with no dependence on |X|: the smallest n with
    alpha n >= 1 + (2/eps) ln(2/delta) + (2/eps) ln(n/beta).
    Derivation: an answer is off by at most the threshold tau = 1 + (2/eps) ln(2/delta)
    plus its noise, and each of the <= n non-zero counts has |Lap(2/eps)| <=
    (2/eps) ln(n/beta) except w.p. beta/n."""
    a, eps = unit_open("alpha", alpha), positive("epsilon", epsilon)
    dl, b = unit_open("delta", delta), unit_open("beta", beta)
    fn = lambda a, eps, dl, b: _smallest_n(
        lambda n: a * n - 1 - (2 / eps) * (np.log(2 / dl) + np.log(n / b)))
    out = np.vectorize(fn)(a, eps, dl, b)
    return float(out) if out.ndim == 0 else out


@bound(EXACT, "Laplace histogram (Dwork et al. 2006) with a union bound over X; contrast to BNS Prop 2.20")
def n_laplace_histogram(alpha, epsilon, domain_size, beta):
    """Rows sufficient for the pure eps-DP Laplace histogram (Lap(2/eps) on all |X|
    counts) to answer every point query within alpha w.p. >= 1 - beta:
    n = (2 / (alpha eps)) ln(|X| / beta). Grows with ln|X|, unlike Algorithm 1."""
    a, eps = unit_open("alpha", alpha), positive("epsilon", epsilon)
    X, b = at_least("domain_size", domain_size, 1), unit_open("beta", beta)
    return (2.0 / (a * eps)) * np.log(X / b)


@bound(EXACT, "BNS Thm 3.13 / Alg 5; explicit constants we derived from the proof (RECONSTRUCTED)")
def n_alg5_points(alpha, epsilon, delta, beta):
    """Rows sufficient for Algorithm 5 to PAC k-learn POINT_X (realizable) w.p. >= 1 - beta
    with (eps, delta)-DP, independent of k and |X|. Algorithm 1 and A_dist each get
    (eps/2, delta/2); the three events of our derivation fail w.p. <= beta/3 each when
    n >= max(n_alg1(alpha/8, eps/2, delta/2, beta/3),
             (8/alpha)(ln(16/alpha) + ln(6/beta)),
             (32/(alpha eps)) ln(6/(beta delta))):
    the sanitizer is alpha/8-accurate; every x of mass > alpha has >= alpha n / 2 rows
    (Thm 2.7 on POINT vs the zero concept), so it is heavy, and every heavy x has
    >= alpha n / 4 rows; realizable labels make Q2 = 0, and A_dist releases a gap of
    alpha n / 4 >= (8/eps) ln(6/(beta delta)) w.p. >= 1 - beta/3."""
    a, eps = unit_open("alpha", alpha), positive("epsilon", epsilon)
    dl, b = unit_open("delta", delta), unit_open("beta", beta)
    b3 = b / 3
    return np.maximum.reduce([
        np.asarray(n_point_sanitizer(a / 8, eps / 2, dl / 2, b3)),
        (8.0 / a) * (np.log(16.0 / a) + np.log(2.0 / b3)),
        (16.0 / (a * eps / 2)) * np.log(1.0 / (b3 * dl / 2))])[()]


def alg2_budget(epsilon, k, rule, delta):
    """Privacy budget split of Algorithm 2 (our choice): the sanitizer gets
    eps/2, the k exponential mechanisms share eps/2. Basic: eps0 = eps/(2k), sanitizer
    delta; advanced: sanitizer delta/2, and eps0 such that the k mechanisms are
    (eps/2, delta/2)-DP by advanced composition. Returns (eps_san, delta_san, eps0)."""
    if rule == "basic":
        return epsilon / 2, delta, per_concept_epsilon(epsilon / 2, k, "basic")
    return epsilon / 2, delta / 2, per_concept_epsilon(epsilon / 2, k, "advanced", delta / 2)


@bound(EXACT, "BNS Lem 3.7 / Alg 2 with Alg 1 (Cor 3.9); explicit three-event bound we derived from the proof (RECONSTRUCTED)")
def n_alg2_points(k, rule, alpha, epsilon, delta, beta):
    """Rows sufficient for Algorithm 2 with the point sanitizer to agnostically k-learn
    POINT w.p. >= 1 - beta (every column within alpha of its best point concept): the
    lemma gives 4 alpha' and 3 beta' from three events, so with alpha' = alpha/4 and
    beta' = beta/3, n >= max of
      E2: n_alg1(alpha'/2, eps_san, delta_san, beta')   (a point-xor-point query is off by
          at most twice a point query),
      E1: (50 / alpha'^2) ln(k / (alpha' beta'))       (Thm 2.8 per column, VC = 1),
      E3: (2 / (alpha' eps0)) (ln(n + 1) + ln(k / beta')) (exponential mechanism over
          |H| <= n + 1 representatives, failure beta'/k per column),
    with (eps_san, delta_san, eps0) from ``alg2_budget``. Not k-free: E3 grows like k
    (basic) or sqrt(k ln(1/delta)) (advanced)."""
    def sanitizer_and_selection(kk, a, e_san, d_san, eps0, b3):
        a4 = a / 4
        t1 = n_point_sanitizer(a4 / 2, e_san, d_san, b3)
        t3 = _smallest_n(lambda n: n - (2.0 / (a4 * eps0)) * (np.log(n + 1) + np.log(kk / b3)))
        return t1, t3

    return _alg2_rows(k, rule, alpha, epsilon, delta, beta, sanitizer_and_selection)


def _alg2_rows(k, rule, alpha, epsilon, delta, beta, sanitizer_and_selection):
    """Lemma 3.7's three-event bound for Algorithm 2, at each k: max(E2, E1, E3) with
    alpha' = alpha/4 and beta' = beta/3, where E1 (Thm 2.8 per column) is common and
    ``sanitizer_and_selection(k, alpha, eps_san, delta_san, eps0, beta')`` gives the
    sanitizer's E2 and the exponential mechanism's E3 (``n_alg2_points``,
    ``n_alg2_thresholds``). An array for an array k, a float for a number."""
    ks = np.atleast_1d(np.asarray(k))
    a, eps = unit_open("alpha", alpha), positive("epsilon", epsilon)
    dl, b = unit_open("delta", delta), unit_open("beta", beta)
    a4, b3 = a / 4, b / 3
    out = []
    for kk in ks:
        e_san, d_san, eps0 = alg2_budget(float(eps), int(kk), rule, float(dl))
        t1, t3 = sanitizer_and_selection(kk, a, e_san, d_san, eps0, b3)
        t2 = (50.0 / a4 ** 2) * np.log(kk / (a4 * b3))
        out.append(max(t1, t2, t3))
    out = np.array(out)
    return out if np.ndim(k) else float(out[0])


@bound(EXACT, "Binary-tree histogram (our substitute for BNS Prop 2.21); union bound over the 2|X| nodes")
def n_tree_sanitizer(alpha, epsilon, domain_size, beta):
    """Rows sufficient for the tree sanitizer (Lap(2L/eps) on every dyadic node,
    L = log2|X|) to answer every prefix query within alpha w.p. >= 1 - beta: all 2|X|
    node noises stay below (2L/eps) ln(2|X|/beta) w.p. >= 1 - beta and a prefix sums at
    most L of them, so n = (2 L^2 / (alpha eps)) ln(2|X| / beta). (The error is really
    about L^2 / eps; this union bound is loose by the log factor.)"""
    a, eps = unit_open("alpha", alpha), positive("epsilon", epsilon)
    X, b = at_least("domain_size", domain_size, 2), unit_open("beta", beta)
    L = np.log2(X)
    return (2.0 * L ** 2 / (a * eps)) * np.log(2.0 * X / b)


@bound(ASYMPTOTIC, "BNS Prop 2.21 (Bun-Nissim-Stemmer-Vadhan 2015), RECONSTRUCTED shape, constant 1")
def n_thresh_sanitizer_paper(alpha, epsilon, delta, beta, domain_size):
    """Shape of the paper's threshold sanitizer cost with the hidden constant set to 1:
    (1 / (alpha eps)) 8^(log* |X|) log*|X| ln(1 / (alpha beta delta)). For reference
    curves only; never a verdict."""
    a, eps = unit_open("alpha", alpha), positive("epsilon", epsilon)
    dl, b = unit_open("delta", delta), unit_open("beta", beta)
    ls = np.vectorize(log_star)(domain_size)
    return (1.0 / (a * eps)) * 8.0 ** ls * ls * np.log(1.0 / (a * b * dl))


@bound(EXACT, "BNS Lem 3.7 / Alg 2 with the substitute tree sanitizer (Cor 3.10); explicit bound derived as for Cor 3.9")
def n_alg2_thresholds(k, rule, alpha, epsilon, delta, beta, domain_size):
    """Rows sufficient for Algorithm 2 with the tree sanitizer (prefix counts rounded to
    multiples of alpha n / 8) to agnostically k-learn THRESH_X w.p. >= 1 - beta. As in
    ``n_alg2_points`` with alpha' = alpha/4, beta' = beta/3; an interval query (the xor
    of two thresholds) is the difference of two prefixes, so prefixes need alpha'/2, of
    which the rounding takes alpha'/4: the tree needs accuracy alpha'/4 = alpha/16. At most
    8/alpha + 1 representatives."""
    def sanitizer_and_selection(kk, a, e_san, d_san, eps0, b3):
        t1 = n_tree_sanitizer(a / 16, e_san, domain_size, b3)  # pure: the tree ignores delta_san
        t3 = (2.0 / (a / 4 * eps0)) * (np.log(8.0 / a + 1) + np.log(kk / b3))
        return t1, t3

    return _alg2_rows(k, rule, alpha, epsilon, delta, beta, sanitizer_and_selection)


@bound(EXACT, "BNS Ex 3.5 (Cor 3.4 with |PAR_d| = 2^d); explicit constants we derived from the proof (RECONSTRUCTED)")
def n_parity_direct_sum(k, d, epsilon, alpha, beta):
    """Rows sufficient for the pure eps-DP direct sum (exponential mechanism over all 2^d
    parities per column, eps/k each) to k-learn PAR_d under the uniform distribution:
    n >= (4k/(alpha eps))(d ln 2 + ln(2k/beta)) + (50 d/alpha^2) ln(2k/(alpha beta))."""
    kk, dd = at_least("k", k, 1), at_least("d", d, 1)
    eps, a, b = positive("epsilon", epsilon), unit_open("alpha", alpha), unit_open("beta", beta)
    return (4 * kk / (a * eps)) * (dd * np.log(2) + np.log(2 * kk / b)) + (50 * dd / a ** 2) * np.log(2 * kk / (a * b))


@bound(EXACT, "BNS Cor 3.4 (Obs 3.2 over Thm 2.22, agnostic); explicit constants we derived from the proof (RECONSTRUCTED)")
def n_direct_sum_agnostic(h_size, k, rule, alpha, epsilon, delta, beta, vc=1):
    """Rows sufficient for the direct sum of exponential mechanisms over a finite class C
    (|C| = h_size) to agnostically k-learn it w.p. >= 1 - beta: per column, failure
    beta/(2k) for each of the mechanism's utility (empirical error <= OPT_S + alpha/2
    when n >= (4/(alpha eps0)) ln(2k|C|/beta)) and Thm 2.8's uniform convergence at
    alpha/4 ((800 vc/alpha^2) ln(8k/(alpha beta))); eps0 = per_concept_epsilon."""
    ks = np.atleast_1d(np.asarray(k))
    a, b = unit_open("alpha", alpha), unit_open("beta", beta)
    H = at_least("h_size", h_size, 2)
    out = []
    for kk in ks:
        eps0 = per_concept_epsilon(epsilon, int(kk), rule, delta)
        out.append(np.maximum((4.0 / (a * eps0)) * np.log(2 * kk * H / b),
                              (800.0 * vc / a ** 2) * np.log(8 * kk / (a * b))))
    out = np.array(out, dtype=float).reshape(np.shape(ks) + np.shape(out[0]))
    return out if np.ndim(k) else out[0]


@bound(EXACT, "BNS Prop 3.11 (A_dist): its delta, where the top solution can change between neighbours")
def adist_release_ceiling(delta):
    """When the gap between the two best solutions is at most 2 (so the top one can differ
    on a neighbouring database), A_dist releases anything with probability <= delta."""
    return unit_open("delta", delta) * 1.0


@bound(EXACT, "BNS Prop 3.11 (A_dist), our constants (RECONSTRUCTED)")
def adist_failure_ceiling(gap, epsilon, delta):
    """P[A_dist outputs bottom] <= beta whenever the gap is >= (4/eps) ln(1/(beta delta)),
    i.e. at gap g the failure probability is at most e^(-g eps/4)/delta (capped at 1)."""
    g = at_least("gap", gap, 0)
    eps, dl = positive("epsilon", epsilon), unit_open("delta", delta)
    return np.minimum(1.0, np.exp(-g * eps / 4) / dl)


def subsampled_epsilon(epsilon, n, m):
    """Lemma 2.25's privacy of an eps-DP algorithm run on n rows drawn with replacement
    from m >= 2n: eps~ = 6 eps n / m (our constants, RECONSTRUCTED)."""
    return 6.0 * epsilon * n / m


@bound(EXACT, "BNS Lem 2.25 (secrecy of the sample), delta = 0, for one event (our constants, RECONSTRUCTED)")
def subsampling_ceiling(epsilon, inner_n, m, neighbour_probability):
    """P_D[E] <= e^(6 eps n/m) P_D'[E] for the subsampled algorithm on neighbouring
    databases D, D' of m rows (n = inner_n rows drawn with replacement); the ceiling of
    P_D[E] given P_D'[E] = neighbour_probability."""
    return np.exp(subsampled_epsilon(epsilon, inner_n, m)) * neighbour_probability


@bound(EXACT, "BNS Thm 2.24 with Lem 2.25 (m = 9n) over the Alg 5 bound of Thm 3.13 (RECONSTRUCTED)")
def n_empirical_alg5(alpha, epsilon, delta, beta, ratio=9):
    """Database size sufficient for the subsampled Algorithm 5 to be an empirical
    k-learner: ratio x n_alg5_points (its rows are i.i.d. from the database's empirical
    distribution, so its PAC guarantee on that distribution is accuracy on the database)."""
    return ratio * n_alg5_points(alpha, epsilon, delta, beta)


@bound(EXACT, "BLR (BNS Thm 2.18) at toy size: Prop 3.8 over all synthetic databases of s rows (derived)")
def n_blr_toy(alpha, epsilon, beta, n_candidates, synth_size):
    """Rows sufficient for the exponential mechanism over n_candidates synthetic
    databases of synth_size rows (one of which is within 1/(2 synth_size) of the data on
    every prefix query) to release one within alpha w.p. >= 1 - beta:
    n >= 2 ln(n_candidates / beta) / (eps (alpha - 1/(2 synth_size)))."""
    a, eps, b = unit_open("alpha", alpha), positive("epsilon", epsilon), unit_open("beta", beta)
    gap = a - 1.0 / (2 * synth_size)
    if np.any(gap <= 0):
        raise ValueError(f"alpha must exceed 1/(2 synth_size) = {1 / (2 * synth_size):g}, got {alpha!r}")
    return 2.0 * np.log(n_candidates / b) / (eps * gap)


@bound(ASYMPTOTIC, "BNS Thm 2.18 (Blum-Ligett-Roth), RECONSTRUCTED shape, constant 1")
def n_blr_shape(alpha, epsilon, beta, domain_size, vc=1):
    """Shape of the BLR sample size with the hidden constant set to 1:
    VC log2|X| log(1/alpha) / (alpha^3 eps) + log(1/beta)/(alpha eps). Reference only."""
    a, eps, b = unit_open("alpha", alpha), positive("epsilon", epsilon), unit_open("beta", beta)
    X = at_least("domain_size", domain_size, 2)
    return vc * np.log2(X) * np.log(1 / a) / (a ** 3 * eps) + np.log(1 / b) / (a * eps)


# --- Section 5 (packing) ---

@bound(EXACT, "BNS Rem 5.2; explicit constant from the packing argument with a Markov step (RECONSTRUCTED)")
def packing_accuracy_lower_bound(k, alpha, epsilon, beta):
    """No eps-DP k-learner is (alpha, beta)-accurate for a class with two concepts that
    differ at x0 and agree at x1 unless n >= (k ln 2 + ln(1/2 - beta)) / (4 alpha eps).

    Proof (our reconstruction): P(x0) = 2 alpha, P(x1) = 1 - 2 alpha, so an
    alpha-accurate h_j must be right at x0. By Markov the number of x0 rows is <= 4 alpha n
    w.p. >= 1/2, so some fixed pattern of row positions with <= 4 alpha n x0-rows has
    success >= 1/2 - beta averaged over the 2^k label vectors; their databases differ in
    <= 4 alpha n rows, and packing gives 1 >= 2^k e^(-4 alpha eps n)(1/2 - beta).
    Negative (vacuous) for small k; needs beta < 1/2 and alpha <= 1/2."""
    kk = at_least("k", k, 1)
    a = unit_open("alpha", alpha)
    if np.any(a > 0.5):
        raise ValueError(f"alpha must be <= 1/2, got {alpha!r}")
    eps = positive("epsilon", epsilon)
    b = unit_open("beta", beta)
    if np.any(b >= 0.5):
        raise ValueError(f"beta must be < 1/2, got {beta!r}")
    return (kk * np.log(2) + np.log(0.5 - b)) / (4 * a * eps)


@bound(EXACT, "BNS Lem 5.3: rounding to the nearest parity is exact below a 1/4 fraction of errors")
def parity_rounding_failure_ceiling(corrupted, d, level=1e-3):
    """Probability that rounding a truth table to its nearest parity misses the target
    parity when ``corrupted`` of the 2^d points are wrong: 0 when corrupted < 2^d / 4
    (the target's correlation 1 - 2f exceeds every other parity's, at most 2f), so any
    small ``level`` is a ceiling there; no guarantee (1) from 2^d / 4 on, where a tie
    (exactly 1/4) or a worst-case corruption can move the nearest parity."""
    m = at_least("corrupted", corrupted, 0)
    dd = at_least("d", d, 1)
    lv = unit_open("level", level)
    return np.where(4 * m < 2.0 ** dd, lv, 1.0)
