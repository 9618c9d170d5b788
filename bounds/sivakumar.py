"""Bounds from Sivakumar, "A Basic Overview of Private PAC Learning" (notes, 2023).

- Thm 2.1: consistent ERM over a finite class H.
- Thm 2.2: ERM for thresholds, O(1) samples.
- Thm 3.3 (with Lemma 3.2): the exponential-mechanism learner for a finite class
  (Kasiviswanathan et al.; the same result is Bun-Nissim-Stemmer Thm 2.22).
- Lemma 3.2: the exponential mechanism's utility tail, e^(-a).
- Thm 3.4's finite shadow (ours): the sample size of our approximate-DP threshold
  learner (a private binary search with Gaussian noise), and the Gaussian-DP accounting
  it rests on (``gdp_mu``, ``gdp_delta``, ``binary_search_sigma``).
- Thm 3.5: the database size 9 N of the subsampled empirical learner, and the
  secrecy-of-the-sample epsilon 6 eps n / m (RECONSTRUCTED constants).
- Thm 3.6: ``log_star`` and ``tower``, the orders of growth of the Ramsey bound.

All constants are derived from the proofs' own steps; the derivations are in the
docstrings. ln is the natural logarithm.
"""

from __future__ import annotations

import math

import numpy as np

from ._meta import EXACT, at_least, bound, positive, unit_open


@bound(EXACT, "Sivakumar Thm 3.3 with Lemma 3.2; constants derived from the proof")
def n_expmech_learner(h_size, epsilon, alpha=0.25, beta=0.25):
    """Sample size at which the exponential-mechanism learner is (alpha, beta)-accurate.

    N = max(8 / alpha, 4 / (alpha * epsilon)) * (ln|H| + ln(2 / beta)).

    Derivation (the proof's two steps, each allowed failure beta / 2):
    (i) generalisation: a hypothesis with err_D > alpha has err_S <= alpha / 2 with
        probability <= exp(-alpha n / 8) (multiplicative Chernoff, deviation 1/2);
        a union bound over H needs |H| exp(-alpha n / 8) <= beta / 2,
        i.e. n >= (8 / alpha)(ln|H| + ln(2 / beta));
    (ii) utility: realizable, so the best score is 0 and Lemma 3.2 with sensitivity 1
        and a = ln(2 / beta) puts the output's empirical error below
        2 (ln|H| + ln(2 / beta)) / (epsilon n) with probability >= 1 - beta / 2; this is
        <= alpha / 2 when n >= (4 / (alpha epsilon))(ln|H| + ln(2 / beta)).
    At alpha = beta = 1/4 this is max(32, 16 / epsilon)(ln|H| + ln 8). The notes print
    the Chernoff exponent as n / 8, which would give 8 (ln|H| + ln 8) for step (i); the
    multiplicative Chernoff bound gives n / 32, which is what we use. For
    epsilon <= 1/2 both readings give 16 (ln|H| + ln 8) / epsilon.
    """
    h = at_least("h_size", h_size, 1)
    eps = positive("epsilon", epsilon)
    a = unit_open("alpha", alpha)
    b = unit_open("beta", beta)
    return np.maximum(8.0 / a, 4.0 / (a * eps)) * (np.log(h) + np.log(2.0 / b))


@bound(EXACT, "Sivakumar Thm 2.1; constant derived from the proof's union bound")
def n_erm_finite(h_size, alpha=0.25, beta=0.25):
    """Consistent ERM over a finite class: |H| (1 - alpha)^n <= beta suffices, and
    (1 - alpha)^n <= exp(-alpha n), so N = (ln|H| + ln(1 / beta)) / alpha
    (4 (ln|H| + ln 4) at alpha = beta = 1/4)."""
    h = at_least("h_size", h_size, 1)
    a = unit_open("alpha", alpha)
    b = unit_open("beta", beta)
    return (np.log(h) + np.log(1.0 / b)) / a


@bound(EXACT, "Sivakumar Thm 2.2 ('roughly 10'); constant derived, proof omitted in the notes")
def n_erm_threshold(alpha=0.25, beta=0.25):
    """ERM for thresholds: failure needs no sample in the mass-alpha stretch on one side
    of the target, probability <= 2 (1 - alpha)^n <= 2 exp(-alpha n), so
    N = ln(2 / beta) / alpha, independent of the domain (4 ln 8 = 8.3 at 1/4, 1/4)."""
    a = unit_open("alpha", alpha)
    b = unit_open("beta", beta)
    return np.log(2.0 / b) / a


@bound(EXACT, "Sivakumar Lemma 3.2 (McSherry-Talwar), as stated")
def expmech_tail_ceiling(a):
    """Lemma 3.2: P[max_h score(S, h) - score(S, output) >= 2 Delta (ln|H| + a) / eps]
    <= e^(-a), for every score vector, every eps > 0 and a > 0."""
    return np.exp(-positive("a", a))


def gdp_delta(epsilon, mu):
    """delta(eps) of a mu-GDP mechanism (Dong, Roth, Su 2019, Cor 2.13), exact:
    Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)."""
    from scipy.special import ndtr  # Phi; what scipy.stats.norm.cdf computes, without importing scipy.stats

    return ndtr(-epsilon / mu + mu / 2) - np.exp(epsilon) * ndtr(-epsilon / mu - mu / 2)


def gdp_mu(epsilon, delta):
    """The largest mu such that mu-GDP implies (epsilon, delta)-DP: the root of
    gdp_delta(epsilon, mu) = delta (delta(eps) increases with mu)."""
    eps = float(positive("epsilon", epsilon))
    d = float(unit_open("delta", delta))
    from scipy.optimize import brentq  # here: a bound module loads without scipy.optimize

    return brentq(lambda m: gdp_delta(eps, m) - d, 1e-8, 100.0, xtol=1e-14, rtol=1e-14)


def binary_search_sigma(b, epsilon, delta):
    """Noise scale of our private binary search over the thresholds of a 2^b grid: b + 1
    Gaussian answers to counts of sensitivity 2, composed exactly in Gaussian DP
    (mu_total = 2 sqrt(b + 1) / sigma, Dong-Roth-Su Cor 3.3), so
    sigma = 2 sqrt(b + 1) / gdp_mu(epsilon, delta)."""
    b = at_least("b", b, 0)
    return 2.0 * np.sqrt(b + 1.0) / gdp_mu(epsilon, delta)


@bound(EXACT, "ours: our private binary search for thresholds (Thm 3.4's finite shadow), our analysis in the docstring")
def n_binary_search_threshold(b, epsilon, delta, alpha=0.25, beta=0.25):
    """Sample size at which our (epsilon, delta)-DP binary-search learner for thresholds on
    a 2^b grid is (alpha, beta)-accurate, for every distribution (realisable).

    N = max((8 / alpha) ln(4 / beta), (4 / alpha) tau),
    tau = sigma sqrt(2 ln(2 (b + 1) / beta)), sigma = binary_search_sigma(b, eps, delta).

    Derivation (ours). D(t) = #{negatives at or above t} - #{positives below t}; on
    realisable data err_S(t) = |D(t)|. The search keeps lo < hi with lo = 0, hi = 2^b,
    asks the noisy D(mid) b times (right if > 0), then one noisy g = (negatives - positives
    at lo) picks hi if g > 0, else lo: b + 1 answers with noise N(0, sigma^2).
    (i) noise: P[|Z| > tau] <= e^(-tau^2 / (2 sigma^2)), so with probability >= 1 - beta/2
        every |Z_i| <= tau. Then D(lo) > -tau and D(hi) <= tau at the end, so the better of
        lo, hi (t* <= lo: lo; t* >= hi: hi) has err_S < tau, and a wrong last pick means
        |g| <= tau: err_S(output) <= 2 tau rows.
    (ii) generalisation: on each side of the target take the shortest stretch of mass
        > alpha; it holds <= alpha n / 2 sample rows with probability <= e^(-alpha n / 8)
        (multiplicative Chernoff), so with probability >= 1 - 2 e^(-alpha n / 8) >= 1 - beta/2
        (n >= (8 / alpha) ln(4 / beta)) every threshold with err_D > alpha misclassifies
        more than alpha n / 2 rows.
    With 2 tau <= alpha n / 2 the output has err_D <= alpha with probability >= 1 - beta.
    Grows like sqrt(b ln b) = sqrt(log|X| log log|X|)."""
    b = at_least("b", b, 0)
    a = unit_open("alpha", alpha)
    be = unit_open("beta", beta)
    sigma = binary_search_sigma(b, epsilon, delta)
    tau = sigma * np.sqrt(2.0 * np.log(2.0 * (b + 1.0) / be))
    return np.maximum(8.0 / a * np.log(4.0 / be), 4.0 * tau / a)


@bound(EXACT, "Sivakumar Thm 3.5 (no proof in the notes): the 9n of the statement times Thm 3.3's N, "
              "constants derived from the proof")
def m_empirical_from_pac(h_size, epsilon, alpha=0.25, beta=0.25):
    """Database size at which the subsampled exponential-mechanism learner B is an
    empirical learner: m = 9 N with N = n_expmech_learner(h_size, epsilon, alpha, beta).
    B draws n = m / 9 rows of S uniformly with replacement: they are i.i.d. from the uniform
    distribution on S, which the target labels, so the PAC guarantee at n >= N is an
    error <= alpha on S with probability >= 1 - beta over B's coins alone."""
    return 9.0 * n_expmech_learner(h_size, epsilon, alpha, beta)


def amplified_epsilon(epsilon, n, m):
    """Secrecy of the sample (Bun-Nissim-Stemmer-Vadhan 2015; the lemma Thm 3.5 rests on,
    RECONSTRUCTED constants): an eps-DP algorithm run on n rows drawn with replacement from
    m >= 2n rows is (6 eps n / m)-DP for eps <= 1 (2 eps / 3 at m = 9n)."""
    return 6.0 * positive("epsilon", epsilon) * at_least("n", n, 1) / at_least("m", m, 1)


def one_draw_epsilon(epsilon, m):
    """Privacy of an eps-DP algorithm run on ONE row drawn uniformly from m (replace-one
    neighbours): the differing row is drawn with probability 1/m, so the output law is
    a mixture and its privacy loss is at most ln(1 + (e^eps - 1)/m) (the standard
    amplification by subsampling, exact for one draw). Ours: the audit of Thm 3.5's
    reduction declares it, being tighter than 6 eps n / m, so that a bug drawing too many
    rows is caught."""
    eps = positive("epsilon", epsilon)
    return np.log1p(np.expm1(eps) / at_least("m", m, 1))


def log_star(x):
    """Iterated logarithm: how many times log2 must be applied to x to reach <= 1
    (log*(2) = 1, log*(4) = 2, log*(16) = 3, log*(65536) = 4, log*(2^65536) = 5).
    ``x`` may be a Python int of any size (2 ** 65536 is fine)."""
    if x <= 1:
        return 0
    count = 0
    while x > 1:
        # an int too large for a float: log2 from its bit length (exact for powers of 2)
        x = (x.bit_length() - 1 + math.log2(x / (1 << (x.bit_length() - 1))) if isinstance(x, int)
             and x.bit_length() > 1000 else math.log2(x))
        count += 1
    return count


def tower(n, height):
    """n^(n^(...^n)) with ``height`` n's (tower(n, 1) = n), as a Python int: the bound
    |V| <= tower_n(n) of Thm 3.6 at height n. Refuses towers of more than 10^6 digits."""
    if height < 1 or n < 1:
        raise ValueError(f"n and height must be >= 1, got {n}, {height}")
    out = n
    for _ in range(height - 1):
        if out * math.log10(max(n, 2)) > 1e6:
            raise ValueError(f"tower({n}, {height}) has more than 10^6 digits")
        out = n ** out
    return out
