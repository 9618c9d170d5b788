"""Hand-worked values of the bound functions of ``privbounds.bounds.pap`` (Bassily, Cheu,
Moran, Nikolov, Ullman, Wu, "Private Query Release Assisted by Public Data", ICML 2020).

Loaded by tests/core/test_bound_values.py (see its docstring for the contract). Every
expected value is the formula of the function's docstring written out by hand with plain
``math``; for a max() of terms both terms are given, so the winning branch is visible.
"""

import math

LN = math.log
E = math.e
SQRT = math.sqrt


FLOOR = math.floor
CEIL = math.ceil


def _cover_ok(m, r, b, d):
    """The condition m_cover solves: m >= 8/r and m >= (2/r)(2 d log2(2em/d) + log2(2/b))."""
    return m >= 8 / r and m >= (2 / r) * (2 * d * math.log2(2 * E * m / d) + math.log2(2 / b))


def check_m_cover():
    """The m_cover pins are the smallest integers satisfying the condition (found by an
    integer scan in a scratch shell)."""
    for (r, b, d), m in (((0.2, 0.1, 1), 252), ((0.05, 0.05, 2), 2223), ((0.05, 0.05, 1), 1230)):
        assert _cover_ok(m, r, b, d) and not _cover_ok(m - 1, r, b, d)


def _n_pmw(a, b, eps, dl, n, k):
    """The docstring's formula of n_pmw_offline, by hand."""
    c = FLOOR(256 * LN(n) / a**2) + 1
    big_l = LN(2 * (k + 2 * c + 1) / b)
    return max(CEIL(384 * big_l * SQRT(c * LN(1 / dl)) / (eps * a)), CEIL(8 * LN(4 * k / b) / a**2))


SOLVED_BY_ROOT_FINDER = {"m_cover", "m_pap_public"}

PINNED = {
    # --- sections 2 and 3: cover, PMW, Algorithm 3 -------------------------------------
    # Phi_k(M) = sum_{i <= k} C(M, i)
    "sauer": [
        (dict(k=2, size=10), 1 + 10 + 45),
        (dict(k=1, size=5), 6.0),
        (dict(k=4, size=3), 8.0),                                       # k >= M: 2^M
    ],
    # min(2^K, Phi_p(K))
    "representative_domain_size": [
        (dict(n_cover=5, dual_vc=1), 6.0),                              # Phi_1(5) = 6 < 32
        (dict(n_cover=3, dual_vc=5), 8.0),                              # 2^3 = Phi_5(3) = 8
        (dict(n_cover=10, dual_vc=2), 56.0),                            # 1 + 10 + 45 < 1024
    ],
    # 2^(d+1) - 1
    "assouad_dual_vc": [
        (dict(vc=1), 3.0),
        (dict(vc=3), 15.0),
    ],
    # smallest m with m >= 8/r and m >= (2/r)(2 d log2(2em/d) + log2(2/beta)); check_m_cover
    "m_cover": [
        (dict(radius=0.2, beta=0.1, vc=1), 252.0),
        (dict(radius=0.05, beta=0.05, vc=2), 2223.0),
    ],
    # m_cover(alpha/4, beta/2, d)
    "m_pap_public": [
        (dict(alpha=0.2, beta=0.1, vc=1), 1230.0),                      # radius 0.05, beta 0.05
        (dict(alpha=0.2, beta=0.1, vc=2), 2223.0),
    ],
    # 2 ln(2|H|/beta) / alpha^2
    "m_public_only": [
        (dict(alpha=0.2, beta=0.1, n_queries=4097), 50 * LN(81940)),
        (dict(alpha=0.5, beta=0.5, n_queries=1), 8 * LN(4)),
    ],
    # max(ceil(384 L sqrt(c ln(1/delta))/(eps alpha)), ceil(8 ln(4K/beta)/alpha^2)); the first
    # wins at these sizes (about 1.2e7 and 2.0e7 against 1,848 and 3,700)
    "n_pmw_offline": [
        (dict(alpha=0.2, beta=0.1, epsilon=1.0, delta=1e-10, domain_size=256, n_queries=257),
         _n_pmw(0.2, 0.1, 1.0, 1e-10, 256, 257)),
        (dict(alpha=0.1, beta=0.05, epsilon=0.5, delta=1e-6, domain_size=64, n_queries=64),
         _n_pmw(0.1, 0.05, 0.5, 1e-6, 64, 64)),
        # N = 1: c = 1, L = ln(2(1 + 3)/0.5) = ln 16; 384 x 2.77 x sqrt(ln 100) / 0.9 = 2,535 > 8 ln 8 / 0.81 = 20.5
        (dict(alpha=0.9, beta=0.5, epsilon=1.0, delta=0.01, domain_size=1, n_queries=1),
         CEIL(384 * LN(16) * SQRT(LN(100)) / 0.9)),
    ],
    # sqrt(ln N ln(1/delta)) ln(K/beta + 1) / (eps alpha^2)
    "n_pmw_shape": [
        (dict(alpha=0.2, beta=0.1, epsilon=1.0, delta=1e-6, domain_size=256, n_queries=257),
         SQRT(LN(256) * LN(1e6)) * LN(2571) / 0.04),
        (dict(alpha=0.5, beta=0.5, epsilon=2.0, delta=0.01, domain_size=4, n_queries=1),
         SQRT(LN(4) * LN(100)) * LN(3) / 0.5),
    ],
    # n_pmw_offline(alpha/2, beta/2, eps, delta, N = min(2^K, Phi_p(K)), K = Phi_d(m))
    "n_pap_private": [
        # THR, m = 256: K = 257, N = Phi_1(257) = 258
        (dict(alpha=0.2, beta=0.1, epsilon=1.0, delta=1e-10, vc=1, dual_vc=1, m=256),
         _n_pmw(0.1, 0.05, 1.0, 1e-10, 258, 257)),
        # d = 2, p = 2, m = 10: K = 56, N = Phi_2(56) = 1 + 56 + 1540 = 1597
        (dict(alpha=0.4, beta=0.2, epsilon=1.0, delta=1e-6, vc=2, dual_vc=2, m=10),
         _n_pmw(0.2, 0.1, 1.0, 1e-6, 1597, 56)),
    ],
    # sqrt(p d ln(1/alpha) ln(1/delta)) (d ln(1/alpha) + ln(1/beta)) / (eps alpha^2)
    "n_pap_shape": [
        (dict(alpha=0.1, beta=0.1, epsilon=1.0, delta=1e-6, vc=1, dual_vc=1),
         SQRT(LN(10) * LN(1e6)) * 2 * LN(10) / 0.01),
        (dict(alpha=0.5, beta=0.25, epsilon=0.5, delta=0.01, vc=2, dual_vc=8),
         SQRT(16 * LN(2) * LN(100)) * (2 * LN(2) + LN(4)) / 0.125),
    ],
    # (d ln(1/alpha) + ln(1/beta)) / alpha
    "m_pap_shape": [
        (dict(alpha=0.1, beta=0.1, vc=1), 20 * LN(10)),
        (dict(alpha=0.5, beta=0.25, vc=3), 2 * (3 * LN(2) + LN(4))),
    ],
    # n_pap_shape with p = 2^(d+1) - 1
    "n_pap_assouad_shape": [
        (dict(alpha=0.1, beta=0.1, epsilon=1.0, delta=1e-6, vc=1),
         SQRT(3 * LN(10) * LN(1e6)) * 2 * LN(10) / 0.01),
        (dict(alpha=0.5, beta=0.25, epsilon=0.5, delta=0.01, vc=2),
         SQRT(14 * LN(2) * LN(100)) * (2 * LN(2) + LN(4)) / 0.125),
    ],
    # max(8 L^2 ln(4T/beta) / (eps alpha), 8 ln(4/beta) / alpha^2), L = ceil(log2 T) + 1
    "n_tree_thresholds": [
        # L = 13: 8 x 169 x ln(163840) / 0.2 = 81,165 > 200 x ln 40 = 738
        (dict(alpha=0.2, beta=0.1, epsilon=1.0, domain_size=4096), 8 * 169 * LN(163840) / 0.2),
        # L = 2: noise term 8 x 4 x ln(16) / (4 x 0.9) = 24.6 > sampling term 8 ln 8 / 0.81 = 20.5
        (dict(alpha=0.9, beta=0.5, epsilon=4.0, domain_size=2), 32 * LN(16) / 3.6),
        # L = 2, eps = 100: noise term 0.99 < sampling term 8 ln(8) / 0.01 = 1,664
        (dict(alpha=0.1, beta=0.5, epsilon=100.0, domain_size=2), 800 * LN(8)),
    ],
    # beta (the failure an (alpha, beta)-accurate algorithm may have)
    "failure_ceiling": [
        (dict(beta=0.1), 0.1),
        (dict(beta=0.25), 0.25),
    ],
    # --- section 5 and Remark 2.9 --------------------------------------------------------
    # 1 / alpha
    "m_public_lower_shape": [
        (dict(alpha=0.1), 10.0),
        (dict(alpha=0.25), 4.0),
    ],
    # (1 - 1/m)^m
    "mixture_all_public_x0": [
        (dict(m=2), 0.25),
        (dict(m=10), 0.9 ** 10),
        (dict(m=1), 0.0),
    ],
    # alpha' m
    "mixture_excess_on_d": [
        (dict(excess_mixture=0.01, m=10), 0.1),
        (dict(excess_mixture=0.002, m=64), 0.128),
    ],
    # 1 / (16 alpha')
    "m_public_lower_mixture": [
        (dict(excess=0.01), 6.25),
        (dict(excess=0.5), 0.125),
    ],
    # 2a + r
    "learner_excess": [
        (dict(release_error01=0.05, radius=0.02), 0.12),
        (dict(release_error01=0.0, radius=0.3), 0.3),
    ],
    # 3 alpha
    "synthetic_error": [
        (dict(alpha=0.1), 0.3),
        (dict(alpha=0.25), 0.75),
    ],
    # ceil(2 ln(2|H|/beta) / alpha^2)
    "synthetic_rows": [
        (dict(alpha=0.2, beta=0.1, n_queries=65), CEIL(50 * LN(1300))),   # 50 x 7.17 = 358.5 -> 359
        (dict(alpha=0.5, beta=0.5, n_queries=1), CEIL(8 * LN(4))),        # 11.09 -> 12
    ],
    # (1 - 1/m)^m + tolerance
    "mixture_all_x0_ceiling": [
        (dict(m=2, tolerance=0.03), 0.28),                             # 0.25 + 0.03
        (dict(m=4, tolerance=0.0), 0.31640625),                        # (3/4)^4 = 81/256
    ],
    # 1 - (1 - 1/m)^m + tolerance
    "mixture_some_d_ceiling": [
        (dict(m=2, tolerance=0.03), 0.78),                             # 1 - 0.25 + 0.03
        (dict(m=8, tolerance=0.0), 1 - 5764801 / 16777216),            # 1 - (7/8)^8 = 1 - 7^8/8^8
    ],
    # 1 - (1 - 1/m)^m if first_excess > m excess, else 1
    "mixture_success_ceiling": [
        (dict(m=2, excess=0.01, first_excess=0.4), 0.75),              # 0.02 < 0.4: 1 - 1/4
        (dict(m=8, excess=0.01, first_excess=0.4), 1 - 5764801 / 16777216),  # 0.08 < 0.4
        (dict(m=64, excess=0.01, first_excess=0.4), 1.0),              # 0.64 >= 0.4: nothing
        (dict(m=40, excess=0.01, first_excess=0.4), 1.0),              # 0.4 = 0.4, not below: nothing
    ],
    # min(1, 2 exp(-z^2/3)) if mean >= z^2, else 1
    "mixture_consumed_tail": [
        (dict(z=3.0, mean=1e6), 2 * math.exp(-3.0)),                   # 0.0996
        (dict(z=3.0, mean=4.0), 1.0),                                  # mean < z^2 = 9: outside the form
        (dict(z=1.0, mean=100.0), 1.0),                                # 2 e^(-1/3) = 1.43: capped
    ],
    # --- section 4: decision stumps -----------------------------------------------------
    # m = 2 ln(2p/beta) / alpha^2
    "m_public_stumps": [
        (dict(alpha=0.1, beta=0.1, p=1024), 200 * LN(20480)),          # 2/0.01 = 200; 2p/beta = 20480
        (dict(alpha=0.5, beta=0.05, p=4), 8 * LN(160)),                # 2/0.25 = 8; 2p/beta = 160
    ],
    # s = 2 sqrt(p) sqrt(2 ln(1.25/delta)) / (n eps)
    "gauss_sigma": [
        (dict(n=1000, p=4, epsilon=1.0, delta=1e-6), 4 * SQRT(2 * LN(1.25e6)) / 1000),
        (dict(n=50, p=100, epsilon=0.5, delta=0.01), 20 * SQRT(2 * LN(125)) / 25),
    ],
    # n = max(8 sqrt(p ln(1.25/delta) ln(4p/beta)) / (eps alpha), 8 ln(4p/beta) / alpha^2)
    "n_gauss_stumps": [
        # noise term 80 sqrt(1024 x 14.04 x 10.62) = 31,262 > sampling term 800 x 10.62 = 8,497
        (dict(alpha=0.1, beta=0.1, epsilon=1.0, delta=1e-6, p=1024), 80 * SQRT(1024 * LN(1.25e6) * LN(40960))),
        # noise term 80 sqrt(16 x 14.04 x 6.46) = 3,047 < sampling term 800 x 6.46 = 5,171
        (dict(alpha=0.1, beta=0.1, epsilon=1.0, delta=1e-6, p=16), 800 * LN(640)),
    ],
    # sqrt(p / ln(1/rho)) / alpha
    "n_stumps_lower_shape": [
        (dict(alpha=0.25, p=1024), 4 * 32 / SQRT(LN(1000))),           # default rho = 1e-3
        (dict(alpha=0.1, p=400, rho=0.01), 10 * 20 / SQRT(LN(100))),
    ],
    # 1 / alpha^2
    "m_stumps_escape_shape": [
        (dict(alpha=0.1), 100.0),
        (dict(alpha=0.25), 16.0),
    ],
    # rho
    "tracing_false_positive": [
        (dict(rho=1e-3), 1e-3),
        (dict(rho=0.05), 0.05),
    ],
    # min(1, e^eps rho + delta)
    "tracing_dp_ceiling": [
        (dict(epsilon=1.0, delta=1e-6, rho=1e-3), E * 1e-3 + 1e-6),
        (dict(epsilon=2.0, delta=0.5, rho=0.2), 1.0),                  # e^2 x 0.2 + 0.5 = 1.98: capped
    ],
    # 1 - (1 - rho)^fresh
    "tracing_any_false_positive": [
        (dict(rho=1e-3, fresh=100), 1 - 0.999 ** 100),
        (dict(rho=0.5, fresh=1), 0.5),
        (dict(rho=0.1, fresh=2), 0.19),                                # 1 - 0.81
    ],
}
