"""Bounds from Wang, Lei and Fienberg, "Learning with Differential Privacy: Stability,
Learnability and the Sufficiency and Necessity of ERM Principle" (JMLR 17, 2016).

Rates xi(n) are bounds on expectations (excess risk, AERM gap, generalisation gap,
stability) as functions of n; privacy bounds are epsilons and deltas. log is the natural
logarithm throughout (the paper's log). Where the printed formula has a typo, the
function implements the corrected form and its docstring gives both and the one-line
reason; such functions are tagged "reconstructed".

Sections (each written by the experiments of one theme): stability and consistency;
Algorithm 1 and its examples; subsampling and privacy (in wlf_privacy.py, imported
here); thresholds and examples.
"""

from __future__ import annotations

import numpy as np

from ._meta import ASYMPTOTIC, EXACT, UP_TO_CONSTANTS, at_least, bound, positive, unit_open  # noqa: F401
from .wlf_privacy import (  # noqa: F401  (the privacy section: wlf.<name> stays one place to find every bound)
    alg1_realised_epsilon,
    alg1_realised_tv,
    lem4_privacy,
    lem4_privacy_exact_form,
    lem8_stability,
    lem8_stability_linear,
    lem29_bound,
    lem29_exact,
    lem30_stability,
    lem31_delta,
    lem31_epsilon,
    lem34_bound,
    lem34_exact_form,
    prop33_erm_rate,
    prop33_packing_delta,
    prop33_subsample_delta,
    prop33_threshold,
    prop33_threshold_direct,
    pure_dp_tv,
    subsample_tight_delta,
    subsample_tight_epsilon,
    thm25_base_rate,
    thm25_excess_bound,
    thm25_failure,
    thm25_privacy,
    thm32_delta,
    thm32_epsilon,
)

# --- Algorithm 1 and its examples; the consistency chain (Cor 9, Thm 35, Lem 10, Lem 38) ---
# K is the sublevel-set constant of assumption A2: for a finite class with counting measure
# mu(H)/mu(S_t) <= |H|, so K = |H| (``h_size``) and rho = 0 (Example 20). ``zeta`` is
# sup_h |g_n(h)| for the regulariser g_n (0 without one).

def ex20_epsilon(n, bits):
    """Example 20's privacy schedule eps(n) = sqrt((M + log n)/n) for an M-bit class."""
    n = positive("n", n)
    return np.sqrt((np.asarray(bits, float) + np.log(n)) / n)


def _alg1_log_term(n, h_size, rho):
    return (np.asarray(rho, float) + 2.0) * np.log(positive("n", n)) + np.log(positive("h_size", h_size))


@bound(EXACT, "Wang-Lei-Fienberg Lemma 36, eq. (17), with the constant 9 of its proof")
def alg1_utility_rate(n, epsilon, h_size, rho=0.0):
    """Lemma 36 (utility of Algorithm 1, eps < log n): E_Z E_h F(Z, h) - E_Z F* <=
    9[(rho + 2) log n + log K] / (n eps)."""
    return 9.0 * _alg1_log_term(n, h_size, rho) / (positive("n", n) * positive("epsilon", epsilon))




@bound(EXACT, "Wang-Lei-Fienberg Lemma 37, RECONSTRUCTED from its proof (log K from Lemma 36, 2 zeta from its last step)")
def alg1_aerm_rate(n, epsilon, h_size, zeta=0.0, rho=0.0):
    """Lemma 37 (Algorithm 1 is universally AERM), as its proof gives it:
    E_Z[E_h R_hat(h, Z) - R_hat*(Z)] <= 9[(rho + 2) log n + log K]/(n eps) + 2 zeta.
    Printed: 9[(rho + 2) log n + log(1/K)]/(n eps) + zeta. The proof applies Lemma 36,
    whose term is log K (log(1/K) would make the rate fall as |H| grows), and ends with
    sup g_n - E g_n <= 2 sup|g_n| = 2 zeta (``alg1_aerm_rate_printed`` is the printed form)."""
    return alg1_utility_rate(n, epsilon, h_size, rho) + 2.0 * np.asarray(zeta, float)


@bound(EXACT, "Wang-Lei-Fienberg Lemma 37 exactly as printed (log(1/K), zeta); its proof gives log K and 2 zeta")
def alg1_aerm_rate_printed(n, epsilon, h_size, zeta=0.0, rho=0.0):
    """Lemma 37 as printed: 9[(rho + 2) log n + log(1/K)]/(n eps) + zeta. Kept to show
    where it differs from its own proof (``alg1_aerm_rate``): it is negative, hence
    false, whenever K > n^(rho + 2), e.g. M = 16 bits (K = 65537) below n = 256."""
    n = positive("n", n)
    term = (np.asarray(rho, float) + 2.0) * np.log(n) - np.log(positive("h_size", h_size))
    return 9.0 * term / (n * positive("epsilon", epsilon)) + np.asarray(zeta, float)


@bound(EXACT, "Wang-Lei-Fienberg Theorem 19, eq. (11), as printed")
def alg1_consistency_rate(n, epsilon, h_size, zeta=0.0, rho=0.0):
    """Theorem 19, eq. (11) (eps <= 1, eps < log n): E_Z E_h R(h) - R* <=
    9[log K + (rho + 2) log n]/(n eps) + 2 eps + sup_h |g_n(h)|."""
    return (alg1_utility_rate(n, epsilon, h_size, rho) + 2.0 * positive("epsilon", epsilon)
            + np.asarray(zeta, float))


@bound(EXACT, "Wang-Lei-Fienberg Theorem 19, eq. (11), RECONSTRUCTED: 2 sup|g_n| as Lemma 37's proof gives")
def alg1_consistency_rate_corrected(n, epsilon, h_size, zeta=0.0, rho=0.0):
    """Theorem 19 through its proof (Lemma 37 corrected + Lemma 8 + Theorem 35):
    9[log K + (rho + 2) log n]/(n eps) + 2 eps + 2 sup|g_n|. Equal to eq. (11) when g_n = 0."""
    return alg1_consistency_rate(n, epsilon, h_size, zeta, rho) + np.asarray(zeta, float)


@bound(EXACT, "Wang-Lei-Fienberg Example 20, RECONSTRUCTED by putting K = |H|, rho = 0, eps(n) = sqrt((M + log n)/n) into eq. (11)")
def ex20_rate(n, bits, h_size):
    """Example 20 (finite H of M bits, g_n = 0, eps(n) = sqrt((M + log n)/n)): eq. (11)
    gives xi(n) = 9(log K + 2 log n)/(n eps(n)) + 2 eps(n) = O((M + log n)/sqrt n), with
    K = |H| (the paper writes K = 2^M for a class of at most 2^M hypotheses)."""
    eps = ex20_epsilon(n, bits)
    return alg1_consistency_rate(n, eps, h_size)


@bound(EXACT, "Wang-Lei-Fienberg Corollary 9 with Lemma 37's AERM rate (RECONSTRUCTED form)")
def cor9_rate(n, epsilon, h_size, privacy_epsilon, zeta=0.0, rho=0.0):
    """Corollary 9 for Algorithm 1: an eps'-DP, xi(n)-AERM learner is consistent with
    rate xi(n) + e^eps' - 1, here xi = Lemma 37's rate at Algorithm 1's parameter
    ``epsilon`` and eps' = ``privacy_epsilon`` (the nominal eps as the paper applies it,
    or the realised eps/2 of Delta q = 2/n)."""
    return alg1_aerm_rate(n, epsilon, h_size, zeta, rho) + np.expm1(positive("privacy_epsilon", privacy_epsilon))


@bound(EXACT, "Exponential mechanism (McSherry-Talwar): parameter eps/(2 Delta q) on a utility of sensitivity 1/n")
def alg1_privacy(epsilon, delta_q_n=2.0):
    """Algorithm 1's realised privacy for a loss in [0, 1]: with Delta q = delta_q_n / n
    (the paper's 2/n, or the true sensitivity 1/n) it is eps / delta_q_n -DP: the
    paper's 2/n makes Algorithm 1 "at eps" eps/2-DP."""
    return positive("epsilon", epsilon) / positive("delta_q_n", delta_q_n)


def lem38_sample_size(tau, beta):
    """Lemma 38's sample size ceil(12 log(4/beta)/tau^2)."""
    return np.ceil(12.0 * np.log(4.0 / unit_open("beta", beta)) / positive("tau", tau) ** 2)


@bound(EXACT, "Wang-Lei-Fienberg Lemma 38 (Dwork et al. 2015b, Thm 7)")
def lem38_tail(beta):
    """Lemma 38: with n >= 12 log(4/beta)/tau^2 and eps < tau/2,
    P[|E_D phi - (1/n) sum_Z phi| >= tau] <= beta."""
    return unit_open("beta", beta) * 1.0


@bound(EXACT, "Wang-Lei-Fienberg Lemma 10 as stated, (2/sqrt n)(e^eps - e^-eps)")
def lem10_privacy(n, epsilon):
    """Lemma 10's privacy of Algorithm A on a random floor(sqrt n)-subset:
    (2/sqrt n)(e^eps - e^-eps) (from Lemma 34 with gamma <= 1/sqrt n)."""
    eps = positive("epsilon", epsilon)
    return 2.0 / np.sqrt(positive("n", n)) * (np.exp(eps) - np.exp(-eps))


@bound(EXACT, "Wang-Lei-Fienberg Lemma 34's proof, before its simplification, at gamma = floor(sqrt n)/n")
def lem10_privacy_exact_form(n, epsilon):
    """The bound Lemma 34's proof reaches before simplifying, for m = floor(sqrt n) of n
    points: log(1 + gamma(e^eps - 1)) - log(1 + gamma(e^-eps - 1)), gamma = m/n. At most
    ``lem10_privacy`` when gamma <= 1/2, and at most eps."""
    n = positive("n", n)
    eps = positive("epsilon", epsilon)
    g = np.floor(np.sqrt(n)) / n
    return np.log1p(g * np.expm1(eps)) - np.log1p(g * np.expm1(-eps))


@bound(EXACT, "ours: Lemma 10's 2 xi(floor(sqrt n)) with xi the exponential mechanism's tail integral plus Massart's finite-class lemma")
def lem10_always_aerm(n, epsilon, h_size):
    """Lemma 10's always-AERM rate 2 xi(m), m = floor(sqrt n), with the factor 2 of its
    proof (statement: xi(m)), for the base learner Algorithm 1 at a fixed eps on a finite
    class. Thm 19's rate keeps 2 eps and says nothing at a fixed eps, so xi is ours, valid
    for every D: xi(m) = 4(log|H| + 1)/(eps m) [E_h F - F* <= (log|H| + 1)/lambda for
    weights exp(-lambda F), lambda = eps m/4] + sqrt(log|H|/(2m)) [E sup_h (R - R_hat)
    by Massart's lemma, variance proxy 1/(4m)]."""
    return 2.0 * alg1_fixed_eps_rate(np.floor(np.sqrt(positive("n", n))), epsilon, h_size)


@bound(EXACT, "ours: Algorithm 1's excess-risk rate on a finite class at a fixed eps: the exponential mechanism's tail integral plus Massart's finite-class lemma")
def alg1_fixed_eps_rate(m, epsilon, h_size):
    """A rate xi(m) of Algorithm 1 at a fixed eps on a finite class, valid for every D:
    4(log|H| + 1)/(eps m) [E_h F - F* <= (log|H| + 1)/lambda for weights exp(-lambda F),
    lambda = eps m/4] + sqrt(log|H|/(2m)) [E sup_h (R - R_hat) by Massart's lemma,
    variance proxy 1/(4m)]. Lemma 4 runs it at m = floor(sqrt n) rows, Lemma 10 doubles it."""
    m = positive("m", m)
    log_h = np.log(positive("h_size", h_size))
    return 4.0 * (log_h + 1.0) / (positive("epsilon", epsilon) * m) + np.sqrt(log_h / (2.0 * m))


@bound(EXACT, "ours: Lemma 4's rate xi(floor(sqrt n)) for Algorithm 1 at a fixed eps (alg1_fixed_eps_rate)")
def lem4_rate(n, epsilon, h_size):
    """Lemma 4: the subsampled learner is consistent with rate xi(floor(sqrt n)), xi the
    base learner's rate (here ``alg1_fixed_eps_rate``)."""
    return alg1_fixed_eps_rate(np.floor(np.sqrt(positive("n", n))), epsilon, h_size)


# --- thresholds and examples (Prop 12, Lem 14, Thm 15, Ex 16, 17, 21, 22, 24, Prop 26) ---

def _ln_windows_minus_one(log10_inv_w):
    """ln(K - 1) for K = 10^k disjoint windows of width w = 10^-k in [0, 1] (k >= 0)."""
    k = np.asarray(log10_inv_w, float)
    with np.errstate(divide="ignore"):
        return np.where(k > 0, k * np.log(10.0) + np.log1p(-(10.0 ** -np.maximum(k, 1e-300))), -np.inf)


@bound(EXACT, "WLF Prop 12, the packing argument of its proof with the group-privacy step kept exact "
              "(derived by us: the paper stops at a contradiction)")
def wlf_thr_dp_gap_floor(n, epsilon, log10_inv_w):
    """Smallest worst-case AERM gap any epsilon-DP algorithm can have on the cluster datasets
    of Prop 12 with windows of width w = 10^-log10_inv_w: c / (2 (1 + c)),
    c = (K - 1) e^(-epsilon n), K = floor(1/w) disjoint windows.

    Derivation (the proof of Prop 12 with its constants kept): let g be the largest AERM
    gap over the K translates Z_i of one cluster dataset (n points in a window W_i of width
    w, half labelled 0 below the centre, half 1 above). A threshold outside W_i errs on
    exactly half of Z_i, so P(A(Z_i) not in W_i) <= 2 g. Group privacy over the n rows:
    P(A(Z_1) in W_i) >= e^(-eps n) (1 - 2 g); summing over i >= 2, the gap on Z_1 is at
    least (1/2)(K - 1) e^(-eps n)(1 - 2 g), so g >= c / (2 (1 + c)). For an algorithm that
    commutes with translation (Algorithm 1 with Lebesgue base measure) every translate has
    the same gap, so the bound holds for each dataset. As w -> 0 it tends to 1/2 for every
    fixed n: no eps-DP algorithm is always AERM. ``epsilon`` is the realised privacy."""
    n = np.asarray(n, float)
    logc = _ln_windows_minus_one(log10_inv_w) - positive("epsilon", epsilon) * n
    return 0.5 / (1.0 + np.exp(-logc))


@bound(EXACT, "WLF Prop 12, the contradiction step of its proof, corrected by us (derived): a threshold "
              "outside the window errs on half the points")
def wlf_thr_contradiction_level(n, epsilon):
    """The AERM gap the proof of Prop 12 forces on Z_1 when every other Z_i has gap < 0.1:
    0.4 (K - 1) e^(-eps n) with K = ceil(e^(eps n)), at least 0.4 (1 - e^(-eps n)).

    The paper prints 'P(A(Z_i) in W_i) > 0.9, otherwise E R_hat >= 0.1' and concludes
    E R_hat(h, Z_1) >= 0.9 x 1 = 0.9. A threshold outside W_i misclassifies exactly half of
    Z_i, so gap < 0.1 only gives P(in W_i) > 0.8, and the gap on Z_1 is then at least
    0.8 x 1/2 = 0.4 (times (K - 1) e^(-eps n)); still above 0.1, so the contradiction stands.
    We use this level as the finite form of 'not always AERM': the worst-case gap over the
    cluster datasets stays at or above it for every n."""
    x = positive("epsilon", epsilon) * np.asarray(n, float)
    return 0.4 * (np.ceil(np.exp(x)) - 1.0) * np.exp(-x)


@bound(EXACT, "WLF Alg 1 / Lem 36's tail bound (eq. 18) for thresholds under a density <= c, explicit "
              "constants derived by us (realisable labels, Lebesgue base measure on [0, 1])")
def wlf_thr_aerm_rate(n, epsilon, c):
    """E AERM gap of Algorithm 1 (Delta q = 2/n, nominal epsilon) on thresholds over [0, 1]
    with Lebesgue base measure, for x with density <= c and clean labels:
    min_t 2t + c n e^(-eps n t / 4) = (8/(eps n)) (1 + ln(eps c n^2 / 8)) when
    eps c n^2 >= 8, else c n.

    From eq. (18): P[F > F* + 2t] <= e^(-eps n t/4) / mu(S_0), where S_0 (the zero-error
    thresholds) is the gap between the data points on either side of the target, and
    E[1/mu(S_0)] <= c n (the gap around a fixed point among n points of density c is at
    least a sum of two spacings, density n(n-1)c^2 s (1 - cs)^(n-2))."""
    n = np.asarray(n, float)
    a = positive("epsilon", epsilon) * n / 4.0
    cn = positive("c", c) * n
    with np.errstate(divide="ignore", invalid="ignore"):
        inner = (2.0 / a) * (1.0 + np.log(np.maximum(a * cn / 2.0, 1.0)))
    return np.where(a * cn > 2.0, inner, cn)


@bound(EXACT, "WLF Thm 15 via Lem 8 and Cor 9, per distribution: wlf_thr_aerm_rate plus the stability "
              "e^(eps/2) - 1 of Alg 1's realised privacy (derived)")
def wlf_thr_excess_rate(n, epsilon, c):
    """E excess risk of Algorithm 1 on thresholds for D with density <= c (clean labels):
    ER <= AG + GG <= wlf_thr_aerm_rate(n, eps, c) + e^(eps/2) - 1, the generalisation gap
    bounded by Lemma 8's stability at the realised privacy eps/2 (Delta q = 2/n)."""
    return wlf_thr_aerm_rate(n, epsilon, c) + np.expm1(np.asarray(epsilon, float) / 2.0)


def wlf_ex20_epsilon(n, bits):
    """Ex 20's privacy schedule eps(n) = sqrt((M + ln n) / n) for an M-bit class."""
    n = np.asarray(n, float)
    return np.sqrt((np.asarray(bits, float) + np.log(n)) / n)


def wlf_cover_size(c, alpha):
    """Points of Ex 24's cover {0, r, 2r, ..., 1} of [0, 1], r = alpha / c."""
    return np.ceil(np.asarray(c, float) / np.asarray(alpha, float)) + 1.0


@bound(EXACT, "WLF Ex 24 with Ex 20 and Thm 19 eq. (11) (K = |cover|, rho = 0, g_n = 0); the explicit "
              "cover of thresholds is derived by us")
def wlf_ex24_rate(n, c, alpha):
    """E excess risk of Alg 1 on the cover N = {0, r, ..., 1}, r = alpha/c, for any D whose
    x-density is <= c: alpha + 9 (ln|N| + 2 ln n) / (n eps) + 2 eps, with |N| = ceil(c/alpha) + 1
    and eps = eps(n) = sqrt((M + ln n)/n), M = log2|N| (Ex 20's schedule). The best cover
    point is within r of the best threshold, so its risk exceeds R* by at most c r = alpha."""
    size = wlf_cover_size(c, alpha)
    n = np.asarray(n, float)
    eps = wlf_ex20_epsilon(n, np.log2(size))
    return alpha + 9.0 * (np.log(size) + 2.0 * np.log(n)) / (n * eps) + 2.0 * eps


@bound(EXACT, "WLF Lem 36 / Lem 37 for a finite H with counting measure (K = |H|, rho = 0, g_n = 0)")
def wlf_finite_aerm_rate(n, epsilon, size):
    """Universal AERM rate of Alg 1 on a finite H (Lem 37, corrected log K): 9 (2 ln n + ln|H|) / (n eps)."""
    n = np.asarray(n, float)
    return 9.0 * (2.0 * np.log(n) + np.log(positive("size", size))) / (n * positive("epsilon", epsilon))


@bound(EXACT, "WLF Ex 16, the paper's rate N/n")
def wlf_support_rate(n, support):
    """Ex 16: the support-ERM is universally consistent with rate N/n on D with at most N atoms."""
    return np.asarray(support, float) / np.asarray(n, float)


@bound(EXACT, "WLF Ex 16, the missing-mass rate derived by us: max_p p (1 - p)^n < 1/(e n)")
def wlf_support_rate_e(n, support):
    """Ex 16, sharper: E missing mass = sum_j p_j (1 - p_j)^n <= N max_p p (1-p)^n < N / (e n)
    (the maximum is (1/n)(n/(n+1))^(n+1) and (1 - 1/(n+1))^(n+1) < 1/e)."""
    return np.asarray(support, float) / (np.e * np.asarray(n, float))


@bound(EXACT, "WLF Ex 17: the exact values of its four rows")
def wlf_ex17_value(learner, quantity):
    """Ex 17 (finite subsets of [0, 1], loss 1{z not in h}, D continuous): the empty set has
    R = R_hat = 1, AERM gap 1, generalisation gap 0; the rule 'output Z' has R = 1, R_hat = 0,
    AERM gap 0, generalisation gap 1 (a finite set has probability 0)."""
    table = {("empty", "risk"): 1.0, ("empty", "empirical_risk"): 1.0, ("empty", "aerm_gap"): 1.0,
             ("empty", "generalisation_gap"): 0.0, ("support_erm", "risk"): 1.0,
             ("support_erm", "empirical_risk"): 0.0, ("support_erm", "aerm_gap"): 0.0,
             ("support_erm", "generalisation_gap"): 1.0}
    if (learner, quantity) not in table:
        raise ValueError(f"no Ex 17 row for learner {learner!r}, quantity {quantity!r}")
    return table[(learner, quantity)]


def wlf_lip_log_k(d, B, lipschitz):
    """ln K of Ex 21 with the l_inf ball volume: K = mu(H) L^d / (beta V), H = [-B, B]^d,
    mu(H) = (2B)^d, beta = 2^-d (a corner), V = 2^d: K = (2B)^d L^d."""
    return np.asarray(d, float) * np.log(2.0 * np.asarray(B, float) * np.asarray(lipschitz, float))


def wlf_ex21_epsilon(n, d, B, lipschitz):
    """Ex 21's schedule eps(n) = sqrt((d ln n + ln K) / n) with the corrected K, capped at 1
    (Thm 19's stability term 2 eps needs eps <= 1) and floored at 1/sqrt(n)."""
    n = np.asarray(n, float)
    inner = np.maximum(np.asarray(d, float) * np.log(n) + wlf_lip_log_k(d, B, lipschitz), 1.0)
    return np.minimum(1.0, np.sqrt(inner / n))


@bound(EXACT, "WLF Ex 21 through Thm 19 eq. (11) (K = mu(H) L^d / (beta_p V_{p,d}), rho = d), with "
              "the l_p ball volume V_{p,d} the proof drops (reconstructed)")
def wlf_ex21_rate(n, d, B, lipschitz, spacing):
    """Ex 21 on H = [-B, B]^d, l_inf-Lipschitz constant L, Alg 1 on a grid of the given spacing:
    9 (ln K + (d + 2) ln n) / (n eps) + 2 eps + L spacing / 2, eps = wlf_ex21_epsilon.

    The paper writes mu(B(t/L)) = (t/L)^d; an l_inf ball of radius r has volume (2r)^d, so
    K = mu(H) L^d / (beta V) = (2B)^d L^d / (2^-d 2^d) (beta = 2^-d at a corner). The last
    term is the grid's: the best grid point is within spacing/2 (l_inf) of any h, so its
    objective is at most L spacing / 2 worse."""
    n = np.asarray(n, float)
    eps = wlf_ex21_epsilon(n, d, B, lipschitz)
    lk = wlf_lip_log_k(d, B, lipschitz)
    return (9.0 * (lk + (np.asarray(d, float) + 2.0) * np.log(n)) / (n * eps) + 2.0 * eps
            + np.asarray(lipschitz, float) * np.asarray(spacing, float) / 2.0)


def wlf_ex22_epsilon(n, d):
    """Total privacy of Ex 22's two stages, split equally: the eps that minimises the rate of
    wlf_ex22_rate, sqrt(9 (5 ln n + ln(2d)) / n), capped at 1."""
    n = np.asarray(n, float)
    return np.minimum(1.0, np.sqrt(9.0 * (5.0 * np.log(n) + np.log(2.0 * np.asarray(d, float))) / n))


@bound(EXACT, "WLF Ex 22 with s = 1 through Lem 36 for each stage and Thm 19's stability term "
              "(reconstructed: the paper prints only the order, with '+ L' for '+ log L')")
def wlf_ex22_rate(n, d):
    """Ex 22, s = 1, loss 1-Lipschitz in h on H_S = [-1, 1] (K = 2, rho = 1), total privacy
    eps = wlf_ex22_epsilon(n, d) split eps/2 + eps/2 (basic composition):
    9 (2 ln n + ln d)/(n eps/2) + 9 (3 ln n + ln 2)/(n eps/2) + 2 eps
    (stage (i): Alg 1 over the d supports, K = d, rho = 0; stage (ii): Alg 1 on the chosen
    line; generalisation: Lemma 8's 2 eps for the composed eps-DP learner)."""
    n = np.asarray(n, float)
    e = wlf_ex22_epsilon(n, d)
    half = e / 2.0
    return (9.0 * (2.0 * np.log(n) + np.log(np.asarray(d, float))) / (n * half)
            + 9.0 * (3.0 * np.log(n) + np.log(2.0)) / (n * half) + 2.0 * e)


@bound(EXACT, "WLF Lem 14 (the paper prints 12 xi(n^(1/4)); its proof sums 12 xi'(n^(1/4)), the "
              "non-private rate: reconstructed)")
def wlf_lem14_rate(n, xi_private_at_sqrt_n, xi_nonprivate_at_quarter):
    """Lem 14: the subsampled learner is D-universally AERM with rate
    12 xi'(n^(1/4)) + 37/sqrt(n) + xi(sqrt(n)), given the two rates' values there:
    ``xi_private_at_sqrt_n`` = xi(sqrt n) (the private learner's D-rate) and
    ``xi_nonprivate_at_quarter`` = xi'(n^(1/4)) (the distribution-free non-private rate).
    The paper prints 12 xi(n^(1/4)); its eq. (15) sums 3 xi' + 6 xi' + 3 xi' of the
    non-private learner (Shalev-Shwartz et al.'s constants), so the prime is dropped there."""
    return (12.0 * np.asarray(xi_nonprivate_at_quarter, float) + 37.0 / np.sqrt(np.asarray(n, float))
            + np.asarray(xi_private_at_sqrt_n, float))


@bound(EXACT, "ours: the accuracy level 'a few thousand' Metropolis steps should reach, at which Prop 26's "
              "'arbitrary accuracy' is checked (a level, not the paper's)")
def wlf_mcmc_tv_level(n):
    """0.02 total variation from 3000 steps on (vacuous, 1, before)."""
    return np.where(np.asarray(n, float) >= 3000, 0.02, 1.0)
