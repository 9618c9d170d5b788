"""Bounds from Bassily, Cheu, Moran, Nikolov, Ullman and Wu, "Private Query Release
Assisted by Public Data" (ICML 2020, arXiv 2004.10941): the "PAP bounds".

The text we have strips every formula. Shapes the paper's abstract states in words
(m ~ d/alpha public and sqrt(p) d^(3/2)/alpha^2 private samples; public only d/alpha^2;
stumps sqrt(p)/alpha private unless m ~ 1/alpha^2; public lower bound 1/alpha) are
taken as given. Every explicit constant here is ours: derived, step by step in the
docstrings, for OUR implementation of each algorithm (simulators/pap/release.py,
simulators/pap/pmw_offline.py), so that each is a theorem about that implementation. They
are loose; a measured sample complexity above one refutes our implementation, not the
paper.

Scales: query answers are on the paper's +-1 scale (E_D h in [-1, 1]); alpha is the
+-1 error unless a docstring says "0/1 scale" (an error a on the 0/1 scale is 2a on the
+-1 scale). ln is natural, log2 base 2. d = VC dimension, p = dual VC dimension.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import comb

from ._meta import ASYMPTOTIC, EXACT, at_least, bound, positive, unit_open

# --- combinatorial tools (Claim 2.3, Fact 2.4, Sauer-Shelah) ---------------------------


@bound(EXACT, "Sauer-Shelah lemma (used by PAP Thm 3.1 and Claim 2.3)")
def sauer(k, size):
    """Phi_k(M) = sum_{i=0}^{k} C(M, i): the most patterns a class of VC dimension k shows
    on M points (equals 2^M when k >= M)."""
    kk = at_least("k", k, 0)
    mm = at_least("size", size, 0)
    kk, mm = np.broadcast_arrays(kk, mm)
    out = np.zeros(kk.shape)
    for idx in np.ndindex(kk.shape):
        i = np.arange(0, int(kk[idx]) + 1)
        out[idx] = float(np.sum(comb(float(mm[idx]), i, exact=False)))  # floats: Phi can exceed int64
    return out if out.shape else float(out)


@bound(EXACT, "PAP Claim 2.3 (representative-domain size), Sauer-Shelah on the dual class (RECONSTRUCTED form)")
def representative_domain_size(n_cover, dual_vc):
    """|X~| <= min(2^K, Phi_{p~}(K)) for a cover of K = |H~| hypotheses of dual VC
    dimension p~: each class of the representative domain is one pattern (h(x))_{h in H~}
    of the dual class, which has VC dimension p~ on those K "points"."""
    k = at_least("n_cover", n_cover, 1)
    return np.minimum(np.exp2(np.minimum(k, 1023.0)), sauer(dual_vc, k))


@bound(EXACT, "Assouad 1983, PAP Fact 2.4 (RECONSTRUCTED form: p < 2^(d+1))")
def assouad_dual_vc(vc):
    """The largest dual VC dimension a class of VC dimension d can have: 2^(d+1) - 1."""
    d = at_least("vc", vc, 0)
    return np.exp2(d + 1) - 1


def _accuracy_privacy(alpha, beta, epsilon, delta):
    """(alpha, beta, epsilon, delta) checked, in that order, as every private bound of this
    module takes them: alpha, beta, delta in (0, 1), epsilon > 0."""
    return unit_open("alpha", alpha), unit_open("beta", beta), positive("epsilon", epsilon), unit_open("delta", delta)


# --- public data: the cover (Lemma 3.3) and the public-only baseline ------------------


def _m_cover_one(radius: float, beta: float, vc: float) -> float:
    m = 8.0 / radius
    for _ in range(200):  # the right-hand side grows like log m: a few steps converge
        rhs = (2.0 / radius) * (2.0 * vc * math.log2(2.0 * math.e * m / vc) + math.log2(2.0 / beta))
        new = max(8.0 / radius, rhs)
        if abs(new - m) < 1e-9:
            break
        m = new
    return float(math.ceil(m))


@bound(EXACT, "PAP Lemma 3.3 (= ABM19 Lemma 3.3); constants ours, from the BEHW double-sample bound (RECONSTRUCTED)")
def m_cover(radius, beta, vc):
    """Public points after which the cover of Alg 3 (one hypothesis per pattern on the
    public sample, each h mapped to the member agreeing with it there) has radius
    max_h Pr_D[h != h~] <= ``radius`` with probability >= 1 - beta, for every D.

    Failure means some g = 1[h != h'] (h, h' in H) has Pr_D[g] > radius and is 0 on the
    sample. The double-sample bound of Blumer, Ehrenfeucht, Haussler and Warmuth for the
    class of such g (growth function <= Phi_d(2m)^2 <= (2em/d)^(2d)) bounds that by
    2 Phi_d(2m)^2 2^(-radius m / 2) when m >= 8/radius. So the smallest m with
    m >= 8/radius and m >= (2/radius)(2 d log2(2em/d) + log2(2/beta)) suffices (a fixed
    point in m, found by iterating from 8/radius; rounded up)."""
    r = unit_open("radius", radius)
    b = unit_open("beta", beta)
    v = at_least("vc", vc, 1)
    out = np.vectorize(_m_cover_one)(r, b, v)
    return out if np.ndim(out) else float(out)


@bound(EXACT, "PAP Thm 3.1 public sample, via Lemma 3.3 at radius alpha/4 and beta/2 (split RECONSTRUCTED)")
def m_pap_public(alpha, beta, vc):
    """Public sample size of Alg 3: a cover of radius alpha/4 moves every answer by at most
    2 alpha/4 = alpha/2 on the +-1 scale (|h - h~| = 2 where they differ), with failure
    beta/2: m_cover(alpha/4, beta/2, d)."""
    a = unit_open("alpha", alpha)
    b = unit_open("beta", beta)
    return m_cover(a / 4.0, b / 2.0, vc)


@bound(EXACT, "PAP abstract ('public sample of size d/alpha^2'); finite-H constant ours (Hoeffding, union bound)")
def m_public_only(alpha, beta, n_queries):
    """Public points after which the empirical means answer every one of |H| queries
    within alpha (+-1 scale) w.p. >= 1 - beta, with no private data: Hoeffding for +-1
    means, 2 exp(-m alpha^2 / 2) per query, union over |H|:
    m >= 2 ln(2 |H| / beta) / alpha^2."""
    a = unit_open("alpha", alpha)
    b = unit_open("beta", beta)
    k = at_least("n_queries", n_queries, 1)
    return 2.0 * np.log(2.0 * k / b) / a**2


# --- private data: PMW (Alg 1, Lemma 2.7) ----------------------------------------------


def pmw_cap(accuracy01, domain_size):
    """c_max = floor(16 ln N / a^2) + 1 updates of our PMW at 0/1-scale accuracy a."""
    a = unit_open("accuracy01", accuracy01)
    n = at_least("domain_size", domain_size, 1)
    return np.floor(16.0 * np.log(n) / a**2) + 1


def pmw_log_factor(alpha, beta, domain_size, n_queries):
    """L = ln(2 (K + 2c + 1) / beta), c = floor(256 ln N / alpha^2) + 1: the logarithmic
    factor of ``n_pmw_offline`` (its first term is 384 L sqrt(c ln(1/delta)) / (eps alpha),
    i.e. L sqrt(ln N) / alpha^2 up to constants). Scaling claims divide it out."""
    a = unit_open("alpha", alpha)
    b = unit_open("beta", beta)
    n = at_least("domain_size", domain_size, 1)
    k = at_least("n_queries", n_queries, 1)
    c = np.floor(256.0 * np.log(n) / a**2) + 1
    return np.log(2.0 * (k + 2.0 * c + 1.0) / b)


@bound(EXACT, "PAP Lemma 2.7 for our PMW (Alg 1: AboveThreshold + advanced composition); constants ours (RECONSTRUCTED)")
def n_pmw_offline(alpha, beta, epsilon, delta, domain_size, n_queries):
    """Private sample size at which our offline PMW (Alg 1 at 0/1 accuracy a = alpha/4)
    answers all K = n_queries queries over a domain of N = domain_size points within
    alpha of the TRUE distribution (+-1 scale) w.p. >= 1 - beta.

    N_PMW = max( ceil(384 L sqrt(c ln(1/delta)) / (eps alpha)), ceil(8 ln(4K/beta)/alpha^2) ),
    c = floor(256 ln N / alpha^2) + 1, L = ln(2 (K + 2c + 1) / beta).

    Steps: (i) empirical accuracy a = alpha/4: with probability >= 1 - beta/2 every one of
    the <= K + 2c + 1 Laplace draws is within L times its scale; then with
    eps0 = eps / (4 sqrt(c ln(1/delta))) and n >= 24 L / (eps0 a) a "bottom" answer is
    within a of the sample, a "top" has gap >= a/2 and a measurement within a/24, every
    update lowers KL(sample || synthetic) by >= a^2/16 from <= ln N, so fewer than c
    updates happen and the cap never binds; 24 L / (eps0 a) = 384 L sqrt(c ln(1/delta)) /
    (eps alpha). (ii) Sample to distribution: Hoeffding for [0, 1] queries at deviation
    alpha/4 (0/1 scale), union over K, failure beta/2: n >= 8 ln(4K/beta) / alpha^2.
    Errors add: 2 (alpha/4 + alpha/4) = alpha on the +-1 scale."""
    a, b, eps, dl = _accuracy_privacy(alpha, beta, epsilon, delta)
    n = at_least("domain_size", domain_size, 1)
    k = at_least("n_queries", n_queries, 1)
    c = np.floor(256.0 * np.log(n) / a**2) + 1
    big_l = np.log(2.0 * (k + 2.0 * c + 1.0) / b)
    emp = np.ceil(384.0 * big_l * np.sqrt(c * np.log(1.0 / dl)) / (eps * a))
    gen = np.ceil(8.0 * np.log(4.0 * k / b) / a**2)
    return np.maximum(emp, gen)


@bound(ASYMPTOTIC, "PAP Lemma 2.7 (corollary of Dwork-Roth Thm 4.15): shape, constant hidden (RECONSTRUCTED)")
def n_pmw_shape(alpha, beta, epsilon, delta, domain_size, n_queries):
    """sqrt(ln N ln(1/delta)) ln(K/beta) / (eps alpha^2): the shape of Lemma 2.7, constant 1."""
    a, b, eps, dl = _accuracy_privacy(alpha, beta, epsilon, delta)
    n = at_least("domain_size", domain_size, 2)
    k = at_least("n_queries", n_queries, 1)
    return np.sqrt(np.log(n) * np.log(1.0 / dl)) * np.log(k / b + 1.0) / (eps * a**2)


# --- Theorem 3.1 and the remark after it -------------------------------------------------


@bound(EXACT, "PAP Thm 3.1 private sample for our Alg 3, data-independent (Lemma 2.7 at alpha/2, beta/2 on the cover's sizes)")
def n_pap_private(alpha, beta, epsilon, delta, vc, dual_vc, m):
    """Private sample size of Alg 3 with m public points: Lemma 2.7's explicit form at
    (alpha/2, beta/2) on K = |H~| <= Phi_d(m) queries over N = |X~| <= min(2^K, Phi_p(K))
    representatives (Sauer-Shelah on the class, Claim 2.3 on the cover's dual; both
    hold for every public sample, so the bound is data-independent)."""
    k = np.maximum(sauer(vc, m), 1.0)
    n = np.maximum(representative_domain_size(k, dual_vc), 2.0)
    a = unit_open("alpha", alpha)
    b = unit_open("beta", beta)
    return n_pmw_offline(a / 2.0, b / 2.0, epsilon, delta, n, k)


@bound(ASYMPTOTIC, "PAP Thm 3.1 (abstract: m ~ d/alpha, n ~ sqrt(p) d^(3/2)/alpha^2); log factors RECONSTRUCTED")
def n_pap_shape(alpha, beta, epsilon, delta, vc, dual_vc):
    """sqrt(p d ln(1/alpha) ln(1/delta)) (d ln(1/alpha) + ln(1/beta)) / (eps alpha^2)."""
    a, b, eps, dl = _accuracy_privacy(alpha, beta, epsilon, delta)
    d = at_least("vc", vc, 1)
    p = at_least("dual_vc", dual_vc, 1)
    la = np.log(1.0 / a)
    return np.sqrt(p * d * la * np.log(1.0 / dl)) * (d * la + np.log(1.0 / b)) / (eps * a**2)


@bound(ASYMPTOTIC, "PAP Thm 3.1 public sample shape (abstract: ~ d/alpha); log factors RECONSTRUCTED")
def m_pap_shape(alpha, beta, vc):
    """(d ln(1/alpha) + ln(1/beta)) / alpha."""
    a = unit_open("alpha", alpha)
    b = unit_open("beta", beta)
    d = at_least("vc", vc, 1)
    return (d * np.log(1.0 / a) + np.log(1.0 / b)) / a


@bound(ASYMPTOTIC, "PAP remark after Thm 3.1: Thm 3.1 with Assouad's p < 2^(d+1) (RECONSTRUCTED)")
def n_pap_assouad_shape(alpha, beta, epsilon, delta, vc):
    """Thm 3.1's shape with sqrt(2^(d+1)) in place of sqrt(p): about
    2^(d/2) d^(3/2) / (eps alpha^2), logs as in ``n_pap_shape``."""
    return n_pap_shape(alpha, beta, epsilon, delta, vc, assouad_dual_vc(vc))


# --- private-only baselines ---------------------------------------------------------------


@bound(EXACT, "PAP section 1 private-only baseline for thresholds; our binary-tree release, constants ours")
def n_tree_thresholds(alpha, beta, epsilon, domain_size):
    """Private sample size at which the binary-tree release of THR_T (pure eps-DP: one
    Laplace(2L/eps) per node, L = ceil(log2 T) + 1 levels) answers every threshold within
    alpha (+-1 scale) w.p. >= 1 - beta:
    n >= max( 8 L^2 ln(4T/beta) / (eps alpha),  8 ln(4/beta) / alpha^2 ).

    Noise: fewer than 2T nodes each within (2L/eps) ln(4T/beta) w.p. >= 1 - beta/2 (union
    bound); a prefix sums <= L nodes, so its count is off by <= 2 L^2 ln(4T/beta)/eps and
    its +-1 answer by twice that over n. Sampling: the DKW inequality (Massart's
    constant) puts the empirical CDF within sqrt(ln(4/beta)/(2n)) everywhere w.p.
    >= 1 - beta/2, i.e. 2 sqrt(ln(4/beta)/(2n)) on the +-1 scale. Each term <= alpha/2."""
    a = unit_open("alpha", alpha)
    b = unit_open("beta", beta)
    eps = positive("epsilon", epsilon)
    t = at_least("domain_size", domain_size, 2)
    levels = np.ceil(np.log2(t)) + 1
    return np.maximum(8.0 * levels**2 * np.log(4.0 * t / b) / (eps * a),
                      8.0 * np.log(4.0 / b) / a**2)


# --- decision stumps (section 4) ----------------------------------------------------------


@bound(EXACT, "PAP section 1.1 public-only stumps baseline (log p / alpha^2); constant ours (Hoeffding, union bound)")
def m_public_stumps(alpha, beta, p):
    """Public points after which the public marginals answer all p stumps within alpha:
    2 ln(2p/beta) / alpha^2 (``m_public_only`` with |H| = p)."""
    return m_public_only(alpha, beta, p)


@bound(EXACT, "Gaussian mechanism (Dwork-Roth Thm A.1) for 1-way marginals, l2-sensitivity 2 sqrt(p)/n")
def gauss_sigma(n, p, epsilon, delta):
    """Noise standard deviation of the Gaussian release of p marginals of n private rows:
    s = 2 sqrt(p) sqrt(2 ln(1.25/delta)) / (n eps) (valid for eps <= 1)."""
    nn = at_least("n", n, 1)
    pp = at_least("p", p, 1)
    eps = positive("epsilon", epsilon)
    dl = unit_open("delta", delta)
    return 2.0 * np.sqrt(pp) * np.sqrt(2.0 * np.log(1.25 / dl)) / (nn * eps)


@bound(EXACT, "PAP section 1.1 private-only stumps baseline (sqrt(p)/alpha); our Gaussian release, constants ours")
def n_gauss_stumps(alpha, beta, epsilon, delta, p):
    """Private rows at which the Gaussian release answers all p stumps within alpha w.p.
    >= 1 - beta: n >= max( 8 sqrt(p ln(1.25/delta) ln(4p/beta)) / (eps alpha),
    8 ln(4p/beta) / alpha^2 ). Each coordinate's noise (Gaussian tail) and sampling error
    (Hoeffding) exceed sqrt(2 ln(4p/beta)) times s and 1/sqrt(n) with probability
    <= beta/(2p) each; a union over 2p events; each term <= alpha/2."""
    a, b, eps, dl = _accuracy_privacy(alpha, beta, epsilon, delta)
    pp = at_least("p", p, 1)
    lg = np.log(4.0 * pp / b)
    return np.maximum(8.0 * np.sqrt(pp * np.log(1.25 / dl) * lg) / (eps * a), 8.0 * lg / a**2)


@bound(ASYMPTOTIC, "PAP Thm 4.2 (abstract: sqrt(p)/alpha private unless m ~ 1/alpha^2), with Thm 4.3's n0 ~ sqrt(p/ln(1/rho))/alpha; constant hidden")
def n_stumps_lower_shape(alpha, p, rho=1e-3):
    """sqrt(p / ln(1/rho)) / alpha: the private sample below which (with m below about
    1/alpha^2) an accurate stumps release can be traced, constant 1."""
    a = unit_open("alpha", alpha)
    pp = at_least("p", p, 1)
    r = unit_open("rho", rho)
    return np.sqrt(pp / np.log(1.0 / r)) / a


@bound(ASYMPTOTIC, "PAP Thm 4.2: the public sample that escapes the stumps lower bound, ~ 1/alpha^2; constant hidden")
def m_stumps_escape_shape(alpha):
    """1 / alpha^2."""
    a = unit_open("alpha", alpha)
    return 1.0 / a**2


@bound(EXACT, "PAP Thm 4.3 soundness for our centred score with threshold ||G - mu|| sqrt(2 ln(1/rho)) (Hoeffding; derivation ours)")
def tracing_false_positive(rho):
    """Probability that a fresh non-member is accused: at most rho, for every mechanism
    (conditionally on G the score is a sum of independent bounded mean-0 terms)."""
    return unit_open("rho", rho) * 1.0


@bound(EXACT, "(eps, delta)-DP applied to the accusation event of one member (PAP Thm 4.2, step (d))")
def tracing_dp_ceiling(epsilon, delta, rho):
    """Probability that a private member is accused by the tracer, for an (eps,
    delta)-DP release: at most e^eps rho + delta (DP against the neighbour in which the
    member is replaced by a fresh row, whose accusation probability is <= rho)."""
    eps = positive("epsilon", epsilon)
    dl = at_least("delta", delta, 0)
    r = unit_open("rho", rho)
    return np.minimum(1.0, np.exp(eps) * r + dl)


# --- public lower bound (section 5) -------------------------------------------------------


@bound(ASYMPTOTIC, "PAP Thm 5.1 (abstract: 'a lower bound of 1/alpha on the public sample complexity'); constant hidden")
def m_public_lower_shape(alpha):
    """1 / alpha."""
    return 1.0 / unit_open("alpha", alpha)


@bound(EXACT, "PAP Lemma 5.4 (ABM19 Thm 4.1), our reconstruction of the mixture reduction")
def mixture_all_public_x0(m):
    """Probability that m public draws from the mixture (1 - 1/m) x0 + (1/m) D are all x0:
    (1 - 1/m)^m (>= 1/4 for m >= 2, tending to 1/e)."""
    mm = at_least("m", m, 1)
    return (1.0 - 1.0 / mm) ** mm


@bound(EXACT, "PAP Lemma 5.4, our reconstruction: excess error on D <= m times the excess on the mixture")
def mixture_excess_on_d(excess_mixture, m):
    """Excess error on D of the mixture learner's output: at most m alpha' when the PAP
    learner has excess alpha' on the mixture with weight 1/m on D (every h agrees on x0)."""
    e = at_least("excess_mixture", excess_mixture, 0)
    mm = at_least("m", m, 1)
    return e * mm


@bound(EXACT, "PAP Lemma 5.4 with ALMM19's (1/16, 1/16) impossibility (our reconstruction; conditional)")
def m_public_lower_mixture(excess):
    """Public size below which the mixture reduction would give a private learner without
    public data of excess 1/16 (impossible for infinite Littlestone dimension):
    m > 1 / (16 alpha')."""
    return 1.0 / (16.0 * unit_open("excess", excess))


@bound(EXACT, "PAP Lemma 5.3, our argmin-over-the-cover reduction (0/1 scale; derivation ours)")
def learner_excess(release_error01, radius):
    """Excess error of the argmin learner built from a release that answers every loss
    query of the cover within a (0/1 scale), with a cover of radius r: 2a + r."""
    a = at_least("release_error01", release_error01, 0)
    r = at_least("radius", radius, 0)
    return 2.0 * a + r


# --- Remark 2.9: data structure to synthetic data ---------------------------------------


@bound(EXACT, "PAP Remark 2.9 (error alpha -> 3 alpha); finite-H rounding size ours (Hoeffding, union bound)")
def synthetic_error(alpha):
    """Error of the synthetic data set built from an alpha-accurate data structure: 3 alpha."""
    return 3.0 * positive("alpha", alpha)


@bound(EXACT, "PAP Remark 2.9: rows of the rounded synthetic data set (Hoeffding for +-1 queries, union over H)")
def synthetic_rows(alpha, beta, n_queries):
    """k = ceil(2 ln(2|H|/beta) / alpha^2): i.i.d. rows from the LP's weights answer every
    query within alpha of those weights w.p. >= 1 - beta."""
    return np.ceil(m_public_only(alpha, beta, n_queries))


@bound(EXACT, "PAP Definition 2.8 (accuracy with probability >= 1 - beta), at a bound's n")
def failure_ceiling(beta):
    """The failure probability an (alpha, beta)-accurate algorithm may have: beta."""
    return unit_open("beta", beta) * 1.0


# --- robust tracing with several fresh rows per release (section 4) -------------------------


@bound(EXACT, "PAP Thm 4.3 soundness of our tracer, for f fresh rows judged against one release (derivation ours)")
def tracing_any_false_positive(rho, fresh):
    """Probability that at least one of ``fresh`` rows drawn from D independently of the
    release is accused: at most 1 - (1 - rho)^fresh. Given the release, each fresh row is
    accused independently with probability q <= rho (Hoeffding, for every release), so
    P[some accused | release] = 1 - (1 - q)^fresh <= 1 - (1 - rho)^fresh."""
    r = unit_open("rho", rho)
    f = at_least("fresh", fresh, 1)
    return 1.0 - (1.0 - r) ** f


# --- section 5: the mixture reduction, as measured (Lemma 5.4; our reconstruction) ---------


@bound(EXACT, "PAP Lemma 5.4 (ABM19 Thm 4.1), our reconstruction: Pr[public sample all x0] = (1 - 1/m)^m, "
              "plus a tolerance (the check's allowance for Monte Carlo error)")
def mixture_all_x0_ceiling(m, tolerance):
    """Ceiling on the probability that m public draws from the mixture
    (1 - 1/m) x0 + (1/m) D are all x0: its exact value (1 - 1/m)^m plus ``tolerance``.
    With ``mixture_some_d_ceiling`` it makes a two-sided check: a correct sampler passes
    both once the interval is narrower than the tolerance, one off by more fails one."""
    t = at_least("tolerance", tolerance, 0)
    return mixture_all_public_x0(m) + t


@bound(EXACT, "PAP Lemma 5.4, our reconstruction: Pr[some public draw comes from D] = 1 - (1 - 1/m)^m, "
              "plus a tolerance (the check's allowance for Monte Carlo error)")
def mixture_some_d_ceiling(m, tolerance):
    """Ceiling on the probability that at least one of m public draws from the mixture is a
    point of D: 1 - (1 - 1/m)^m plus ``tolerance`` (the other side of
    ``mixture_all_x0_ceiling``)."""
    t = at_least("tolerance", tolerance, 0)
    return 1.0 - mixture_all_public_x0(m) + t


@bound(EXACT, "PAP Lemma 5.4, our reconstruction: conditioning on an all-x0 public sample (ABM19's step), "
              "for a learner whose public-data-free simulation has excess first_excess on D")
def mixture_success_ceiling(m, excess, first_excess):
    """Success probability (excess error <= ``excess`` on the mixture D_(1/m)) of a PAP
    learner with m public samples whose output, given an all-x0 public sample, has excess
    ``first_excess`` on D (our learner's cover is then {h_0}, so that output is h_0).
    Every hypothesis agrees with (x0, y0), so its excess on D_(1/m) is its excess on D
    divided by m: if first_excess > m * excess the learner fails whenever the public sample
    is all x0, probability (1 - 1/m)^m, and succeeds with probability at most
    1 - (1 - 1/m)^m. Otherwise the argument gives nothing: 1."""
    mm = at_least("m", m, 1)
    e = at_least("excess", excess, 0)
    f = at_least("first_excess", first_excess, 0)
    return np.where(f > mm * e, 1.0 - mixture_all_public_x0(mm), 1.0) * 1.0


@bound(EXACT, "Chernoff bound for Binomial(n', 1/m), the real samples PAP Lemma 5.4's mixture learner consumes")
def mixture_consumed_tail(z, mean):
    """P[|K - mu| > z sqrt(mu)] for K ~ Binomial(n', 1/m), mu = n'/m the mean: at most
    min(1, 2 exp(-z^2/3)) (multiplicative Chernoff, P[|K - mu| >= d mu] <= 2 exp(-d^2 mu/3)
    for d = z / sqrt(mu) <= 1); 1 when mu < z^2 (d > 1, outside that form)."""
    zz = positive("z", z)
    mu = positive("mean", mean)
    return np.where(mu >= zz**2, np.minimum(1.0, 2.0 * np.exp(-zz**2 / 3.0)), 1.0) * 1.0
