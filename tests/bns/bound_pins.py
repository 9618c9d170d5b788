"""Hand-worked values of the bound functions of ``privbounds.bounds.bns``.

Loaded by tests/core/test_bound_values.py (see its docstring for the contract and for how
every value was worked out by hand). Where a formula needs a root (the smallest n of
Prop 2.20's inequality, of the E3 term of Lemma 3.7, or the per-concept eps0 of advanced
composition) the root is a literal found in a scratch shell by plain bisection (200
halvings) of the stated condition; the ``check_*`` functions at the end re-check each
literal against its own condition (holds at it, fails just below it; the advanced eps0
reproduces the total budget), and ``check_point_sanitizer_returns_the_smallest_n`` checks
the function's own answer the same way. The "most users" lower bounds (n_LB(k)) are
literals with the code lengths and conditions that fix them in comments, re-checked by
``check_most_users_literals_satisfy_their_definition``.
"""

import math

import pytest

from privbounds.bounds.bns import n_point_sanitizer

LN = math.log
LN2 = math.log(2)


# --- roots found by bisection in a scratch shell (re-checked by the check_* functions) ---

def _alg1_slack(alpha, eps, delta, beta, n):
    """Prop 2.20 / Alg 1: alpha n - (1 + (2/eps) ln(2/delta) + (2/eps) ln(n/beta));
    the sanitizer needs the smallest n at which this is >= 0."""
    return alpha * n - (1 + (2 / eps) * LN(2 / delta) + (2 / eps) * LN(n / beta))


def _advanced_total(eps0, k, delta_prime):
    """Dwork-Roth Thm 3.20: k eps0-DP runs are sqrt(2k ln(1/d')) eps0 + k eps0 (e^eps0 - 1)."""
    return math.sqrt(2 * k * LN(1 / delta_prime)) * eps0 + k * eps0 * math.expm1(eps0)


def _e3_slack(c, log_k_over_beta, n):
    """Lemma 3.7's E3 over |H| <= n + 1 representatives: n - c (ln(n + 1) + ln(k/beta'))
    with c = 2 / (alpha' eps0); Alg 2 needs the smallest n at which this is >= 0."""
    return n - c * (LN(n + 1) + log_k_over_beta)


# Smallest real n with _alg1_slack(alpha, eps, delta, beta, n) >= 0.
SAN_1 = 469.2474619653107           # (0.1, 1, 1e-6, 0.1)
SAN_2 = 1450.0807399762145          # (0.05, 0.5, 1e-3, 0.05)
SAN_3 = 21.505875840765206          # (0.5, 2, 0.01, 0.25)
SAN_ALG5_A = 8944.577624446587      # Alg 5 at (0.1, 1, 1e-6, 0.1): (0.1/8, 1/2, 1e-6/2, 0.1/3)
SAN_ALG5_B = 222.33003985607584     # Alg 5 at (0.2, 10, 0.1, 0.3): (0.2/8, 10/2, 0.1/2, 0.3/3)
SAN_ALG5_C = 49600.116655826874     # Alg 5 at (0.05, 0.5, 1e-9, 0.01): (0.05/8, 0.5/2, 1e-9/2, 0.01/3)
SAN_ALG2_P1 = 192513.78006454508    # Alg 2, alpha=0.5 eps=0.01 basic: (0.5/8, 0.01/2, 1e-6, 0.1/3)
SAN_ALG2_P2 = 8714.428977335514     # Alg 2, alpha=0.1 eps=1 basic: (0.1/8, 1/2, 1e-6, 0.1/3)
SAN_ALG2_P4 = 47059.47157473349     # Alg 2, alpha=0.1 eps=0.2 advanced: (0.1/8, 0.2/2, 1e-6/2, 0.1/3)
SAN_ROOTS = [
    ((0.1, 1.0, 1e-6, 0.1), SAN_1),
    ((0.05, 0.5, 1e-3, 0.05), SAN_2),
    ((0.5, 2.0, 0.01, 0.25), SAN_3),
    ((0.1 / 8, 1.0 / 2, 1e-6 / 2, 0.1 / 3), SAN_ALG5_A),
    ((0.2 / 8, 10.0 / 2, 0.1 / 2, 0.3 / 3), SAN_ALG5_B),
    ((0.05 / 8, 0.5 / 2, 1e-9 / 2, 0.01 / 3), SAN_ALG5_C),
    ((0.5 / 8, 0.01 / 2, 1e-6, 0.1 / 3), SAN_ALG2_P1),
    ((0.1 / 8, 1.0 / 2, 1e-6, 0.1 / 3), SAN_ALG2_P2),
    ((0.1 / 8, 0.2 / 2, 1e-6 / 2, 0.1 / 3), SAN_ALG2_P4),
]

# eps0 with _advanced_total(eps0, k, delta') = total. ADV_DS and ADV_DSA are also in
# tests/core/bound_pins.py (per_concept_epsilon's pins); each file re-checks its own copy.
ADV_DS = 0.0229678468074706         # n_direct_sum: total 1, k = 64, delta' = 1e-6
ADV_DSA = 0.0005994290234368462     # n_direct_sum_agnostic: total 0.1, k = 1000, delta' = 1e-6
ADV_ALG2 = 0.0005850351437120734    # n_alg2_points: total 0.2/2, k = 1000, delta' = 1e-6/2
ADV_THR = 0.0002930183844832047     # n_alg2_thresholds: total 0.1/2, k = 1000, delta' = 1e-6/2
ADV_ROOTS = [
    ((1.0, 64, 1e-6), ADV_DS),
    ((0.1, 1000, 1e-6), ADV_DSA),
    ((0.1, 1000, 5e-7), ADV_ALG2),
    ((0.05, 1000, 5e-7), ADV_THR),
]

# Smallest n with _e3_slack(c, ln(k/beta'), n) >= 0, alpha' = alpha/4, beta' = beta/3.
E3_P1 = 45183.02824866098   # alpha=0.5, eps0 = 0.01/2:      c = 2/(0.125 * 0.005) = 3200, ln 30
E3_P2 = 1737.958219193988   # alpha=0.1, eps0 = 1/2:         c = 2/(0.025 * 0.5) = 160,    ln 30
E3_P3 = 4085089.121311645   # alpha=0.1, eps0 = 1/(2*1000):  c = 160000,                   ln 30000
E3_P4 = 3468963.4795174208  # alpha=0.1, eps0 = ADV_ALG2:    c = 2/(0.025 * ADV_ALG2),     ln 30000
E3_ROOTS = [
    ((3200.0, LN(30)), E3_P1),
    ((160.0, LN(30)), E3_P2),
    ((160000.0, LN(30000)), E3_P3),
    ((2 / (0.025 * ADV_ALG2), LN(30000)), E3_P4),
]

# Alg 5 (Thm 3.13): max(n_alg1(alpha/8, eps/2, delta/2, beta/3),
#   (8/alpha)(ln(16/alpha) + ln(6/beta)), (32/(alpha eps)) ln(6/(beta delta))).
# The third term never wins: n_alg1 = 8/alpha + (32/(alpha eps)) ln(12 n_alg1/(beta delta)),
# which exceeds it because 12 n_alg1 > 6. So only two branches are reachable.
ALG5_A = max(SAN_ALG5_A,                         # 8944.6  <- sanitizer wins
             80 * (LN(160) + LN(60)),            #  733.6
             320 * LN(6e7))                      # 5731.2
ALG5_B = max(SAN_ALG5_B,                         #  222.3
             40 * (LN(80) + LN(20)),             #  295.1  <- Thm 2.7 term wins
             16 * LN(200))                       #   84.8
ALG5_C = max(SAN_ALG5_C,                         # 49600.1 <- sanitizer wins
             160 * (LN(320) + LN(600)),          #  1946.4
             1280 * LN(6e11))                    # 34713.9


PINNED = {
    # ---- BNS: composition, direct sums -------------------------------------------------
    # N = max(8/alpha, 4/(alpha eps0)) (ln|H| + ln(2k/beta)), eps0 = eps/k or advanced root
    "n_direct_sum": [
        (dict(h_size=257, epsilon=1.0, k=8, rule="basic", alpha=0.25, beta=0.25),
         128 * (LN(257) + LN(64))),                   # eps0 = 1/8: 4/(a eps0) = 128 > 32
        (dict(h_size=16, epsilon=4.0, k=2, rule="basic"),
         32 * (LN(16) + LN(16))),                     # eps0 = 2: 8/a = 32 > 4/(a eps0) = 8
        (dict(h_size=1024, epsilon=1.0, k=64, rule="advanced", delta=1e-6, alpha=0.1, beta=0.1),
         (40 / ADV_DS) * (LN(1024) + LN(1280))),      # 4/(a eps0) = 1741.6 > 80
    ],
    # max((4/(alpha eps0)) ln(2k|C|/beta), (800 vc/alpha^2) ln(8k/(alpha beta)))
    "n_direct_sum_agnostic": [
        (dict(h_size=1024, k=10, rule="basic", alpha=0.1, epsilon=1.0, delta=None, beta=0.1),
         max(400 * LN(204800), 80000 * LN(8000))),                 # 4892 vs 718976: Thm 2.8 term
        (dict(h_size=1024, k=1000, rule="basic", alpha=0.5, epsilon=1.0, delta=None, beta=0.1, vc=2),
         max(8000 * LN(2.048e7), 6400 * LN(160000))),              # 134680 vs 76691: exp mech
        (dict(h_size=1024, k=1000, rule="advanced", alpha=0.5, epsilon=0.1, delta=1e-6, beta=0.1),
         max((8 / ADV_DSA) * LN(2.048e7), 3200 * LN(160000))),     # 224680 vs 38345: exp mech
    ],
    # (4k/(alpha eps))(d ln 2 + ln(2k/beta)) + (50 d/alpha^2) ln(2k/(alpha beta))
    "n_parity_direct_sum": [
        (dict(k=4, d=8, epsilon=1.0, alpha=0.1, beta=0.1),
         160 * (8 * LN2 + LN(80)) + 40000 * LN(800)),
        (dict(k=1, d=2, epsilon=0.5, alpha=0.25, beta=0.25),
         32 * (2 * LN2 + LN(8)) + 1600 * LN(32)),
    ],
    # Cor 2.12: (8/alpha)(vc ln(16/alpha) + ln(2k/beta))
    "n_nonprivate_k_learner": [
        (dict(vc=1, k=1), 32 * (LN(64) + LN(8))),
        (dict(vc=3, k=100, alpha=0.1, beta=0.05), 80 * (3 * LN(160) + LN(4000))),
    ],

    # ---- BNS: sanitizers ---------------------------------------------------------------
    # smallest n with alpha n >= 1 + (2/eps) ln(2/delta) + (2/eps) ln(n/beta)
    "n_point_sanitizer": [
        (dict(alpha=0.1, epsilon=1.0, delta=1e-6, beta=0.1), SAN_1),
        (dict(alpha=0.05, epsilon=0.5, delta=1e-3, beta=0.05), SAN_2),
        (dict(alpha=0.5, epsilon=2.0, delta=0.01, beta=0.25), SAN_3),
    ],
    # (2/(alpha eps)) ln(|X|/beta)
    "n_laplace_histogram": [
        (dict(alpha=0.1, epsilon=1.0, domain_size=1024, beta=0.1), 20 * LN(10240)),
        (dict(alpha=0.05, epsilon=0.5, domain_size=2 ** 20, beta=0.01), 80 * LN(2 ** 20 * 100)),
    ],
    # (2 L^2/(alpha eps)) ln(2|X|/beta), L = log2|X|
    "n_tree_sanitizer": [
        (dict(alpha=0.1, epsilon=1.0, domain_size=1024, beta=0.1), 2000 * LN(20480)),    # L = 10
        (dict(alpha=0.05, epsilon=0.5, domain_size=2, beta=0.25), 80 * LN(16)),          # L = 1
        (dict(alpha=0.1, epsilon=1.0, domain_size=1000, beta=0.1),
         20 * math.log2(1000) ** 2 * LN(20000)),                                        # L not integer
    ],
    # (1/(alpha eps)) 8^{log*|X|} log*|X| ln(1/(alpha beta delta)); log* 1024 = 4
    # (1024 -> 10 -> 3.32 -> 1.73 -> 0.79), log* 16 = 3 (16 -> 4 -> 2 -> 1), log* 2 = 1
    "n_thresh_sanitizer_paper": [
        (dict(alpha=0.1, epsilon=1.0, delta=1e-6, beta=0.1, domain_size=1024),
         10 * 8 ** 4 * 4 * LN(1e8)),
        (dict(alpha=0.25, epsilon=0.5, delta=1e-3, beta=0.25, domain_size=16),
         8 * 8 ** 3 * 3 * LN(16000)),
        (dict(alpha=0.5, epsilon=2.0, delta=0.1, beta=0.5, domain_size=2),
         1 * 8 * 1 * LN(40)),
    ],
    # BLR toy: 2 ln(n_candidates/beta) / (eps (alpha - 1/(2 s)))
    "n_blr_toy": [
        (dict(alpha=0.25, epsilon=1.0, beta=0.1, n_candidates=1000, synth_size=4),
         16 * LN(1e4)),                               # gap 0.25 - 1/8 = 1/8
        (dict(alpha=0.1, epsilon=0.5, beta=0.05, n_candidates=2 ** 20, synth_size=10),
         80 * LN(2 ** 20 * 20)),                      # gap 0.1 - 1/20 = 1/20
    ],
    # BLR shape: vc log2|X| ln(1/alpha)/(alpha^3 eps) + ln(1/beta)/(alpha eps)
    # ("log" of the docstring read as ln: it writes log2 where it means base 2)
    "n_blr_shape": [
        (dict(alpha=0.1, epsilon=1.0, beta=0.1, domain_size=1024),
         10 * LN(10) / 0.001 + LN(10) / 0.1),
        (dict(alpha=0.25, epsilon=0.5, beta=0.05, domain_size=2 ** 16, vc=3),
         3 * 16 * LN(4) / (0.015625 * 0.5) + LN(20) / 0.125),
    ],

    # ---- BNS: algorithms 2, 4, 5 ----------------------------------------------------------
    # T = ceil(max((8/eps) ln(2/(beta delta)), 32 ln(2/beta))), n = (d + 3) T
    "n_alg4_parities": [
        (dict(d=8, epsilon=1.0, delta=1e-6, beta=0.1), 11 * 135),   # 8 ln 2e7 = 134.49 > 95.86
        (dict(d=4, epsilon=4.0, delta=0.1, beta=0.1), 7 * 96),      # 2 ln 200 = 10.60 < 32 ln 20 = 95.86
        (dict(d=1, epsilon=0.5, delta=1e-3, beta=0.5), 4 * 133),    # 16 ln 4000 = 132.70 > 32 ln 4 = 44.36
    ],
    "n_alg5_points": [
        (dict(alpha=0.1, epsilon=1.0, delta=1e-6, beta=0.1), ALG5_A),
        (dict(alpha=0.2, epsilon=10.0, delta=0.1, beta=0.3), ALG5_B),
        (dict(alpha=0.05, epsilon=0.5, delta=1e-9, beta=0.01), ALG5_C),
    ],
    # ratio x n_alg5_points (Thm 2.24, m = 9n)
    "n_empirical_alg5": [
        (dict(alpha=0.1, epsilon=1.0, delta=1e-6, beta=0.1), 9 * ALG5_A),
        (dict(alpha=0.2, epsilon=10.0, delta=0.1, beta=0.3, ratio=2), 2 * ALG5_B),
    ],
    # Lemma 3.7 with Alg 1, alpha' = alpha/4, beta' = beta/3: max of
    #   E2 n_alg1(alpha'/2, eps/2, delta [basic] or delta/2 [advanced], beta'),
    #   E1 (50/alpha'^2) ln(k/(alpha' beta')), E3 smallest n >= (2/(alpha' eps0))(ln(n+1) + ln(k/beta'))
    # with eps0 = eps/(2k) (basic) or the advanced split of eps/2 at delta' = delta/2.
    "n_alg2_points": [
        (dict(k=1, rule="basic", alpha=0.5, epsilon=0.01, delta=1e-6, beta=0.1),
         max(SAN_ALG2_P1, 3200 * LN(240), E3_P1)),          # 192514 | 17538 | 45183: E2
        (dict(k=1, rule="basic", alpha=0.1, epsilon=1.0, delta=1e-6, beta=0.1),
         max(SAN_ALG2_P2, 80000 * LN(1200), E3_P2)),        # 8714 | 567206 | 1738: E1
        (dict(k=1000, rule="basic", alpha=0.1, epsilon=1.0, delta=1e-6, beta=0.1),
         max(SAN_ALG2_P2, 80000 * LN(1.2e6), E3_P3)),       # 8714 | 1119827 | 4085089: E3
        (dict(k=1000, rule="advanced", alpha=0.1, epsilon=0.2, delta=1e-6, beta=0.1),
         max(SAN_ALG2_P4, 80000 * LN(1.2e6), E3_P4)),       # 47059 | 1119827 | 3468963: E3
    ],
    # As Alg 2 on points but with the tree sanitizer at (alpha/16, eps/2, |X|, beta/3) and
    # E3 = (2/(alpha' eps0))(ln(8/alpha + 1) + ln(k/beta')).
    "n_alg2_thresholds": [
        (dict(k=1, rule="basic", alpha=0.1, epsilon=1.0, delta=1e-6, beta=0.1, domain_size=1024),
         max(64000 * LN(61440), 80000 * LN(1200), 160 * (LN(81) + LN(30)))),      # tree
        (dict(k=1, rule="basic", alpha=0.1, epsilon=1.0, delta=1e-6, beta=0.1, domain_size=16),
         max(10240 * LN(960), 80000 * LN(1200), 160 * (LN(81) + LN(30)))),        # E1
        (dict(k=1000, rule="basic", alpha=0.1, epsilon=1.0, delta=1e-6, beta=0.1, domain_size=16),
         max(10240 * LN(960), 80000 * LN(1.2e6), 160000 * (LN(81) + LN(30000)))),  # E3
        (dict(k=1000, rule="advanced", alpha=0.1, epsilon=0.1, delta=1e-6, beta=0.1, domain_size=16),
         max(102400 * LN(960), 80000 * LN(1.2e6), (80 / ADV_THR) * (LN(81) + LN(30000)))),  # E3
    ],

    # ---- BNS: A_dist (Prop 3.11) ------------------------------------------------------------
    # delta
    "adist_release_ceiling": [
        (dict(delta=1e-6), 1e-6),
        (dict(delta=0.3), 0.3),
    ],
    # min(1, e^{-gap eps/4} / delta)
    "adist_failure_ceiling": [
        (dict(gap=100, epsilon=1.0, delta=1e-6), math.exp(-25) / 1e-6),
        (dict(gap=4, epsilon=1.0, delta=0.5), 2 * math.exp(-1)),
        (dict(gap=0, epsilon=1.0, delta=0.5), 1.0),                       # 2 capped to 1
    ],

    # ---- BNS: secrecy of the sample (Lem 2.25) ----------------------------------------------
    # e^{6 eps n/m} P_D'[E] (no cap stated)
    "subsampling_ceiling": [
        (dict(epsilon=1.0, inner_n=10, m=90, neighbour_probability=0.1), 0.1 * math.exp(2 / 3)),
        (dict(epsilon=0.5, inner_n=100, m=1000, neighbour_probability=0.02), 0.02 * math.exp(0.3)),
    ],

    # ---- BNS: packing lower bounds (Section 5) -----------------------------------------
    # (k ln 2 + ln(1 - beta)) / eps
    "packing_lower_bound": [
        (dict(k=10, epsilon=0.5, beta=0.1), (10 * LN2 + LN(0.9)) / 0.5),
        (dict(k=64, epsilon=2.0, beta=0.25), (64 * LN2 + LN(0.75)) / 2),
        (dict(k=1, epsilon=1.0, beta=0.9), LN2 + LN(0.1)),               # negative: vacuous
    ],
    # min(1, e^{eps n} / 2^k)
    "packing_success_ceiling": [
        (dict(n=5, k=10, epsilon=0.5), math.exp(2.5) / 1024),
        (dict(n=0, k=3, epsilon=1.0), 1 / 8),
        (dict(n=100, k=10, epsilon=0.5), 1.0),                           # e^50/2^10: capped
    ],
    # (k ln 2 + ln(1/2 - beta)) / (4 alpha eps)
    "packing_accuracy_lower_bound": [
        (dict(k=100, alpha=0.1, epsilon=1.0, beta=0.1), (100 * LN2 + LN(0.4)) / 0.4),
        (dict(k=20, alpha=0.5, epsilon=2.0, beta=1e-4), (20 * LN2 + LN(0.4999)) / 4),
        (dict(k=1, alpha=0.25, epsilon=1.0, beta=0.25), LN2 + LN(0.25)),  # = -ln 2: vacuous
    ],
    # (k d ln 2 + ln(1 - beta)) / eps
    "parity_packing_lower_bound": [
        (dict(k=4, d=8, epsilon=1.0, beta=0.1), 32 * LN2 + LN(0.9)),
        (dict(k=1, d=1, epsilon=0.5, beta=0.75), (LN2 + LN(0.25)) / 0.5),  # negative: vacuous
    ],
    # level when 4 corrupted < 2^d, else 1
    "parity_rounding_failure_ceiling": [
        (dict(corrupted=3, d=4), 1e-3),                 # 12 < 16
        (dict(corrupted=4, d=4), 1.0),                  # exactly a quarter: no guarantee
        (dict(corrupted=0, d=1, level=0.01), 0.01),
    ],

    # ---- BNS: fingerprinting lower bounds (Section 4) ----------------------------------
    # Boneh-Shaw: (n - 1) ceil(2 n^2 ln(2n/xi))
    "bs_code_length": [
        (dict(users=4, xi=0.1), 3 * 141),                   # 32 ln 80 = 140.22
        (dict(users=16, xi=0.1), 15 * 2954),                # 512 ln 320 = 2953.38
        (dict(users=2, xi=0.5), 1 * 17),                    # 8 ln 8 = 16.64
    ],
    # Tardos: 100 n^2 ceil(ln(n/xi))
    "tardos_code_length": [
        (dict(users=8, xi=0.1), 6400 * 5),                  # ln 80 = 4.38
        (dict(users=2, xi=0.5), 400 * 2),                   # ln 4 = 1.39
    ],
    # Most users n >= 2 of a BS code of length <= k at xi = 1/(6 e^eps n) with
    # 1 - xi - n (e^eps xi + delta) > 2 e^eps beta; 1 if none. At eps = 1 the lengths are
    # 39, 206, 603, 1344 for n = 2..5, and e^eps xi = 1/(6n).
    "n_lb_thresh_users": [
        (dict(k=1000, epsilon=1.0, delta=1e-4, beta=0.01), 4),   # 603 <= 1000 < 1344; 0.818 > 0.054
        (dict(k=603, epsilon=1.0, delta=1e-4, beta=0.01), 4),    # length exactly k still fits
        (dict(k=1000, epsilon=1.0, delta=0.2, beta=0.01), 3),    # n=4 fits but 0.018 < 0.054
        (dict(k=38, epsilon=1.0, delta=1e-4, beta=0.01), 1),     # no code fits: vacuous
    ],
    # (n_LB - 1) / (2 alpha), 0 below 2 users
    "rows_lb_thresh": [
        (dict(k=1000, alpha=0.1, epsilon=1.0, delta=1e-4, beta=0.01), 3 / 0.2),
        (dict(k=1000, alpha=0.25, epsilon=1.0, delta=0.2, beta=0.01), 2 / 0.5),
        (dict(k=38, alpha=0.1, epsilon=1.0, delta=1e-4, beta=0.01), 0.0),
    ],
    # (3k / (4 ln k))^(1/3)
    "n_lb_thresh_asymptotic": [
        (dict(k=1000), (3000 / (4 * LN(1000))) ** (1 / 3)),
        (dict(k=3), (9 / (4 * LN(3))) ** (1 / 3)),
    ],
    # Most users n >= 2 of a Tardos code of length <= k at xi = 1/(6 e^eps n) with
    # (1 - beta - eps2)/n > e^eps xi + delta, eps2 = max(xi, (xi/n)^(n/4)); 1 if none.
    # At eps = 1 the lengths are 2000, 4500, 9600, 17500 for n = 2..5; eps2 = 0.1238,
    # 0.0237, 0.0153 (= xi) for n = 2, 3, 4.
    "n_lb_agnostic_users": [
        (dict(k=10000, epsilon=1.0, delta=1e-3, beta=0.1), 4),   # 9600 <= 10000 < 17500; 0.221 > 0.043
        (dict(k=4500, epsilon=1.0, delta=1e-3, beta=0.72), 3),   # n=3: 0.0854 > 0.0566
        (dict(k=2000, epsilon=1.0, delta=1e-3, beta=0.72), 1),   # n=2: 0.0781 < 0.0843 (eps2 > xi)
    ],
    # n_LB / alpha, 0 below 2 users
    "rows_lb_agnostic": [
        (dict(k=10000, alpha=0.1, epsilon=1.0, delta=1e-3, beta=0.1), 4 / 0.1),
        (dict(k=4500, alpha=0.2, epsilon=1.0, delta=1e-3, beta=0.72), 3 / 0.2),
        (dict(k=2000, alpha=0.1, epsilon=1.0, delta=1e-3, beta=0.72), 0.0),
    ],
    # sqrt(k / (100 ln k))
    "n_lb_agnostic_asymptotic": [
        (dict(k=10000), math.sqrt(10000 / (100 * LN(10000)))),
        (dict(k=3), math.sqrt(3 / (100 * LN(3)))),
    ],
    # (users - 1)/(2 alpha) when 5/6 - 1/(6 e^eps users) - users delta > 2 e^eps beta, else 0
    "rows_lb_code": [
        (dict(users=8, alpha=0.1, epsilon=1.0, delta=1e-3, beta=0.1), 7 / 0.2),      # 0.818 > 0.544
        (dict(users=16, alpha=0.05, epsilon=0.5, delta=1e-4, beta=0.1), 15 / 0.1),  # 0.825 > 0.330
        (dict(users=8, alpha=0.1, epsilon=1.0, delta=1e-3, beta=0.2), 0.0),          # 0.818 < 1.087
    ],
    # users/alpha when (1 - beta - eps2)/users > 1/(6 users) + delta, else 0
    "rows_lb_tardos_code": [
        (dict(users=4, alpha=0.1, epsilon=1.0, delta=1e-3, beta=0.1), 4 / 0.1),
        (dict(users=3, alpha=0.1, epsilon=1.0, delta=1e-3, beta=0.72), 3 / 0.1),
        (dict(users=2, alpha=0.1, epsilon=1.0, delta=1e-3, beta=0.72), 0.0),  # fails by eps2 alone
    ],

    # ---- BNS: fingerprinting as probability ceilings (Thm 4.3 / 4.7) -----------------------
    # As their docstrings state them: neither capped at 1 nor floored at 0.
    # xi = 1/(6 e^eps users)
    "fp_soundness_ceiling": [
        (dict(users=4, epsilon=1.0), 1 / (24 * math.e)),
        (dict(users=10, epsilon=0.5), 1 / (60 * math.exp(0.5))),
    ],
    # xi
    "code_error_ceiling": [
        (dict(xi=0.01), 0.01),
        (dict(xi=0.5), 0.5),
    ],
    # e^eps xi + delta
    "dp_trace_ceiling": [
        (dict(epsilon=1.0, delta=1e-3, xi=0.01), 0.01 * math.e + 1e-3),
        (dict(epsilon=0.5, delta=1e-6, xi=0.1), 0.1 * math.exp(0.5) + 1e-6),
    ],
    # users (e^eps xi + delta); at xi = 1/(48 e), e^eps xi = 1/48
    "dp_any_trace_ceiling": [
        (dict(users=8, epsilon=1.0, delta=1e-3, xi=1 / (48 * math.e)), 1 / 6 + 0.008),
        (dict(users=3, epsilon=0.5, delta=1e-4, xi=0.02), 3 * (0.02 * math.exp(0.5) + 1e-4)),
    ],
    # 1 - users (e^eps xi + delta)
    "untraced_ceiling": [
        (dict(users=8, epsilon=1.0, delta=1e-3, xi=1 / (48 * math.e)), 5 / 6 - 0.008),
        (dict(users=3, epsilon=0.5, delta=1e-4, xi=0.02), 1 - 3 * (0.02 * math.exp(0.5) + 1e-4)),
        (dict(users=100, epsilon=1.0, delta=0.01, xi=0.01), -math.e),      # 1 - (e + 1): not floored
    ],
    # 1 - (1 - xi - n (e^eps xi + delta)) / (2 e^eps); at xi = 1/(24 e), e xi = 1/24
    "thresh_accuracy_ceiling": [
        (dict(users=4, epsilon=1.0, delta=1e-3, xi=1 / (24 * math.e)),
         1 - (5 / 6 - 0.004 - 1 / (24 * math.e)) / (2 * math.e)),          # 0.8503
        (dict(users=8, epsilon=0.5, delta=1e-4, xi=0.01),
         1 - (0.99 - 8 * (0.01 * math.exp(0.5) + 1e-4)) / (2 * math.exp(0.5))),  # 0.7400
    ],
    # thresh_accuracy_ceiling(users, ...) when alpha n < (users - 1)/2, else 1
    "thresh_accuracy_ceiling_at": [
        (dict(n=5, users=4, alpha=0.25, epsilon=1.0, delta=1e-3, xi=1 / (24 * math.e)),
         1 - (5 / 6 - 0.004 - 1 / (24 * math.e)) / (2 * math.e)),          # 1.25 < 1.5
        (dict(n=6, users=4, alpha=0.25, epsilon=1.0, delta=1e-3, xi=1 / (24 * math.e)),
         1.0),                                                              # 1.5 = 1.5: not below
        (dict(n=30, users=8, alpha=0.1, epsilon=0.5, delta=1e-4, xi=0.01),
         1 - (0.99 - 8 * (0.01 * math.exp(0.5) + 1e-4)) / (2 * math.exp(0.5))),  # 3 < 3.5
        (dict(n=100, users=8, alpha=0.1, epsilon=0.5, delta=1e-4, xi=0.01), 1.0),  # 10 > 3.5
    ],
    # eps2 + n (e^eps xi + delta), eps2 = max(xi, (xi/n)^(n/4))
    "agnostic_accuracy_ceiling": [
        (dict(users=4, epsilon=1.0, delta=1e-3, xi=1 / (24 * math.e)),
         1 / (24 * math.e) + 1 / 6 + 0.004),                   # eps2 = xi (xi/4 < xi)
        (dict(users=2, epsilon=1.0, delta=1e-3, xi=1 / (12 * math.e)),
         math.sqrt(1 / (24 * math.e)) + 1 / 6 + 0.002),        # eps2 = sqrt(xi/2) = 0.124 > xi = 0.031
        (dict(users=8, epsilon=0.5, delta=1e-4, xi=0.01),
         0.01 + 8 * (0.01 * math.exp(0.5) + 1e-4)),            # eps2 = xi (1.6e-6 < xi)
    ],
    # agnostic_accuracy_ceiling(users, ...) when alpha n < users, else 1
    "agnostic_accuracy_ceiling_at": [
        (dict(n=15, users=4, alpha=0.25, epsilon=1.0, delta=1e-3, xi=1 / (24 * math.e)),
         1 / (24 * math.e) + 1 / 6 + 0.004),                   # 3.75 < 4
        (dict(n=16, users=4, alpha=0.25, epsilon=1.0, delta=1e-3, xi=1 / (24 * math.e)),
         1.0),                                                 # 4 = 4: not below
        (dict(n=1000, users=2, alpha=0.1, epsilon=1.0, delta=1e-3, xi=1 / (12 * math.e)),
         1.0),                                                 # 100 > 2
    ],
    # eps2 = xi for n >= 4 ((xi/n)^(n/4) <= xi/4 there), else (xi/n)^(n/4) (> xi at these points)
    "tardos_completeness": [
        # n = 3, xi = 0.05 >= 1/27: (xi/3)^(3/4) = 0.0464 < xi, so the max is xi
        (dict(users=3, xi=0.05), 0.05),
        (dict(users=4, xi=0.1), 0.1),                              # (xi/4)^1 = 0.025
        (dict(users=8, xi=0.01), 0.01),                            # (xi/8)^2 = 1.6e-6
        (dict(users=2, xi=0.1), math.sqrt(0.05)),                  # 0.224 > 0.1
        (dict(users=3, xi=0.01), (1 / 300) ** 0.75),               # 0.0139 > 0.01
    ],
}

# Points where a bound function's value is not the formula of its own docstring. The
# expected value is the docstring's; each case is xfail(strict=True), so it turns into an
# XPASS failure (remove it then) as soon as the function or its docstring is fixed.
DOCSTRING_DISAGREEMENTS = {
    # (tardos_completeness at n = 3, xi = 0.05 was one: its docstring now states the max)
}

# Functions whose value goes through a root finder (scipy brentq for the smallest n of
# Prop 2.20 / Lemma 3.7's E3, or for the advanced-composition eps0): compared at rel 1e-6
# because brentq stops at its own tolerance, not at the exact root of our literals.
SOLVED_BY_ROOT_FINDER = {"n_point_sanitizer", "n_alg5_points", "n_empirical_alg5", "n_alg2_points"}


# --- the literals are right (called by tests/core/test_bound_values.py) -----------------

def check_alg1_literals_are_the_smallest_n():
    for args, n in SAN_ROOTS:
        assert _alg1_slack(*args, n) >= -1e-9, (args, n)
        assert _alg1_slack(*args, n * (1 - 1e-9)) < 0, (args, n)
        # the condition is decreasing then increasing in n, with its minimum at 2/(alpha eps):
        # the root past the minimum is the only crossing, so it is the smallest n
        alpha, eps = args[0], args[1]
        assert n > 2 / (alpha * eps), (args, n)


def check_advanced_eps0_literals_spend_the_budget():
    for (total, k, delta_prime), eps0 in ADV_ROOTS:
        assert _advanced_total(eps0, k, delta_prime) == pytest.approx(total, rel=1e-12), eps0


def check_e3_literals_are_the_smallest_n():
    for (c, log_term), n in E3_ROOTS:
        assert _e3_slack(c, log_term, n) >= -1e-9, (c, n)
        assert _e3_slack(c, log_term, n * (1 - 1e-9)) < 0, (c, n)
        assert n + 1 > c, (c, n)  # past the minimum of the slack (at n + 1 = c): the only crossing


def check_point_sanitizer_returns_the_smallest_n():
    for kwargs, _ in PINNED["n_point_sanitizer"]:
        args = (kwargs["alpha"], kwargs["epsilon"], kwargs["delta"], kwargs["beta"])
        n = float(n_point_sanitizer(**kwargs))
        assert _alg1_slack(*args, n) >= -1e-8, kwargs      # holds (up to brentq's xtol 1e-9)
        assert _alg1_slack(*args, n - 1e-3) < 0, kwargs    # and fails just below
        assert _alg1_slack(*args, n - 1) < 0, kwargs


def _bs_length(n, eps):
    xi = 1 / (6 * math.exp(eps) * n)
    return (n - 1) * math.ceil(2 * n * n * LN(2 * n / xi))


def _bs_ok(n, eps, delta, beta):
    xi = 1 / (6 * math.exp(eps) * n)
    return 1 - xi - n * (math.exp(eps) * xi + delta) > 2 * math.exp(eps) * beta


def _tardos_length(n, eps):
    xi = 1 / (6 * math.exp(eps) * n)
    return 100 * n * n * math.ceil(LN(n / xi))


def _tardos_ok(n, eps, delta, beta):
    xi = 1 / (6 * math.exp(eps) * n)
    eps2 = max(xi, (xi / n) ** (n / 4))
    return (1 - beta - eps2) / n > math.exp(eps) * xi + delta


def check_most_users_literals_satisfy_their_definition():
    for name, length, ok in [("n_lb_thresh_users", _bs_length, _bs_ok),
                             ("n_lb_agnostic_users", _tardos_length, _tardos_ok)]:
        for kwargs, n in PINNED[name]:
            k, eps, delta, beta = kwargs["k"], kwargs["epsilon"], kwargs["delta"], kwargs["beta"]
            fitting = [m for m in range(2, 64) if length(m, eps) <= k]
            assert fitting == list(range(2, 2 + len(fitting))), name   # lengths increase with n
            good = [m for m in fitting if ok(m, eps, delta, beta)]
            assert n == (max(good) if good else 1), (name, kwargs)
