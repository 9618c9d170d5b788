"""Hand-worked values of the bound functions of ``privbounds.bounds.wlf``.

Loaded by tests/core/test_bound_values.py (see its docstring for the contract). Every value
is the formula of the function's docstring evaluated by hand with plain ``math`` (natural
logs). Several people write this paper's bounds; each adds its pins with
``PINNED.update({...})`` / ``HELPERS.update({...})`` under a comment naming its theme.
"""

import math

LN = math.log

PINNED = {}
HELPERS = {}


# --- Algorithm 1 and its examples; Cor 9, Thm 35, Lem 10, Lem 38 ---
# 9[(rho + 2) ln n + ln K]/(n eps): at n = 100, eps = 0.5, K = 17: 9(2 ln 100 + ln 17)/50
_U100 = 9 * (2 * LN(100) + LN(17)) / 50            # 2.16784
_U800 = 9 * (LN(257) + 2 * LN(800)) / (800 * 0.5)  # 0.42566
_EPS800 = math.sqrt((8 + LN(800)) / 800)             # Ex 20's eps(800) at M = 8: 0.13548
_EPS50 = math.sqrt((4 + LN(50)) / 50)                # eps(50) at M = 4: 0.39779
PINNED.update({
    "alg1_utility_rate": [({"n": 100, "epsilon": 0.5, "h_size": 17}, _U100),
                          ({"n": 12800, "epsilon": 1.0, "h_size": 257}, 9 * (2 * LN(12800) + LN(257)) / 12800),
                          ({"n": 100, "epsilon": 0.5, "h_size": 17, "rho": 1.0}, 9 * (3 * LN(100) + LN(17)) / 50)],
    "alg1_aerm_rate": [({"n": 100, "epsilon": 0.5, "h_size": 17, "zeta": 0.1}, _U100 + 0.2),
                       ({"n": 50, "epsilon": 0.5, "h_size": 65537}, 9 * (2 * LN(50) + LN(65537)) / 25)],
    # printed: 9[(rho + 2) ln n - ln K]/(n eps) + zeta; negative at K = 65537 > 50^2
    "alg1_aerm_rate_printed": [({"n": 50, "epsilon": 0.5, "h_size": 65537}, 9 * (2 * LN(50) - LN(65537)) / 25),
                               ({"n": 100, "epsilon": 0.5, "h_size": 17, "zeta": 0.1},
                                9 * (2 * LN(100) - LN(17)) / 50 + 0.1)],
    # eq. (11): u + 2 eps + zeta (corrected: + 2 zeta)
    "alg1_consistency_rate": [({"n": 800, "epsilon": 0.5, "h_size": 257}, _U800 + 1.0),
                              ({"n": 800, "epsilon": 0.5, "h_size": 257, "zeta": 0.05}, _U800 + 1.0 + 0.05)],
    "alg1_consistency_rate_corrected": [({"n": 800, "epsilon": 0.5, "h_size": 257, "zeta": 0.05}, _U800 + 1.1),
                                        ({"n": 50, "epsilon": 0.1, "h_size": 17},
                                         9 * (LN(17) + 2 * LN(50)) / 5 + 0.2)],
    "ex20_rate": [({"n": 800, "bits": 8, "h_size": 257}, 9 * (LN(257) + 2 * LN(800)) / (800 * _EPS800) + 2 * _EPS800),
                  ({"n": 50, "bits": 4, "h_size": 17}, 9 * (LN(17) + 2 * LN(50)) / (50 * _EPS50) + 2 * _EPS50)],
    # Lemma 37 (corrected) + e^eps' - 1
    "cor9_rate": [({"n": 200, "epsilon": 0.5, "h_size": 17, "privacy_epsilon": 0.25},
                   9 * (LN(17) + 2 * LN(200)) / 100 + math.exp(0.25) - 1),
                  ({"n": 200, "epsilon": 0.5, "h_size": 17, "privacy_epsilon": 0.5},
                   9 * (LN(17) + 2 * LN(200)) / 100 + math.exp(0.5) - 1)],
    "alg1_privacy": [({"epsilon": 2.0}, 1.0), ({"epsilon": 2.0, "delta_q_n": 1.0}, 2.0)],
    "lem38_tail": [({"beta": 0.05}, 0.05), ({"beta": 0.2}, 0.2)],
    # (2/sqrt n)(e^eps - e^-eps)
    "lem10_privacy": [({"n": 100, "epsilon": 1.0}, 0.2 * (math.e - 1 / math.e)),
                      ({"n": 9, "epsilon": 1.5}, 2 / 3 * (math.exp(1.5) - math.exp(-1.5)))],
    # ln(1 + g(e^eps - 1)) - ln(1 + g(e^-eps - 1)), g = floor(sqrt n)/n
    "lem10_privacy_exact_form": [({"n": 9, "epsilon": 1.5},
                                  LN(1 + (math.exp(1.5) - 1) / 3) - LN(1 + (math.exp(-1.5) - 1) / 3)),
                                 ({"n": 100, "epsilon": 0.5},
                                  LN(1 + 0.1 * (math.exp(0.5) - 1)) - LN(1 + 0.1 * (math.exp(-0.5) - 1)))],
    # 2 [4(ln|H| + 1)/(eps m) + sqrt(ln|H|/(2m))], m = floor(sqrt n)
    "lem10_always_aerm": [({"n": 12800, "epsilon": 1.0, "h_size": 17},
                           2 * (4 * (LN(17) + 1) / 113 + math.sqrt(LN(17) / 226))),
                          ({"n": 100, "epsilon": 0.5, "h_size": 257},
                           2 * (4 * (LN(257) + 1) / 5 + math.sqrt(LN(257) / 20)))],
})
HELPERS.update({
    "ex20_epsilon": [({"n": 800, "bits": 8}, _EPS800), ({"n": 50, "bits": 4}, _EPS50)],
    "lem38_sample_size": [({"tau": 0.1, "beta": 0.05}, 5259.0), ({"tau": 0.3, "beta": 0.05}, 585.0),
                          ({"tau": 0.2, "beta": 0.05}, 1315.0)],  # 12 ln 80/0.04 = 1314.6
})


# --- thresholds and examples (Prop 12, Lem 14, Thm 15, Ex 16, 17, 21, 22, 24, Prop 26) ---
_C1 = 99 * math.exp(-5)                    # (10^2 - 1) e^(-20 * 0.25)
_C2 = (1e40 - 1) * math.exp(-100)          # (10^40 - 1) e^(-200 * 0.5)
_AG = (2 / 50) * (1 + LN(50 * 200 / 2))    # a = eps n / 4 = 50, c n = 200
_S24 = 201                                 # ceil(10 / 0.05) + 1
_E24 = math.sqrt((math.log2(201) + LN(1000)) / 1000)
_E21 = math.sqrt((LN(12800) + LN(2)) / 12800)  # d = 1, ln K = ln(2 * 2 * 0.5)
_E21B = math.sqrt(2 * LN(50) / 50)              # d = 2, ln K = 2 ln(2 * 2 * 0.25) = 0
_E22 = math.sqrt(9 * (5 * LN(1e5) + LN(40)) / 1e5)
PINNED.update({
    "wlf_thr_dp_gap_floor": [({"n": 20, "epsilon": 0.25, "log10_inv_w": 2}, _C1 / (2 * (1 + _C1))),
                             ({"n": 200, "epsilon": 0.5, "log10_inv_w": 40}, _C2 / (2 * (1 + _C2))),
                             ({"n": 20, "epsilon": 0.25, "log10_inv_w": 0}, 0.0)],
    "wlf_thr_contradiction_level": [({"n": 20, "epsilon": 0.25}, 0.4 * 148 * math.exp(-5)),
                                    ({"n": 2, "epsilon": 0.5}, 0.4 * 2 * math.exp(-1))],
    "wlf_thr_aerm_rate": [({"n": 200, "epsilon": 1.0, "c": 1.0}, _AG),
                          ({"n": 2, "epsilon": 0.5, "c": 1.0}, 2.0),
                          ({"n": 200, "epsilon": 1.0, "c": 10.0}, (2 / 50) * (1 + LN(50 * 2000 / 2)))],
    "wlf_thr_excess_rate": [({"n": 200, "epsilon": 1.0, "c": 1.0}, _AG + math.exp(0.5) - 1),
                            ({"n": 2, "epsilon": 0.5, "c": 1.0}, 2.0 + math.exp(0.25) - 1)],
    "wlf_ex24_rate": [({"n": 1000, "c": 10.0, "alpha": 0.05},
                       0.05 + 9 * (LN(_S24) + 2 * LN(1000)) / (1000 * _E24) + 2 * _E24),
                      ({"n": 100, "c": 1.0, "alpha": 0.5},
                       0.5 + 9 * (LN(3) + 2 * LN(100)) / (100 * math.sqrt((math.log2(3) + LN(100)) / 100))
                       + 2 * math.sqrt((math.log2(3) + LN(100)) / 100))],
    "wlf_finite_aerm_rate": [({"n": 100, "epsilon": 0.5, "size": 17}, 9 * (2 * LN(100) + LN(17)) / 50),
                             ({"n": 1000, "epsilon": 0.1, "size": 201}, 9 * (2 * LN(1000) + LN(201)) / 100)],
    "wlf_support_rate": [({"n": 50, "support": 10}, 0.2), ({"n": 4, "support": 10}, 2.5)],
    "wlf_support_rate_e": [({"n": 50, "support": 10}, 10 / (math.e * 50)), ({"n": 1, "support": 1}, 1 / math.e)],
    "wlf_ex17_value": [({"learner": "empty", "quantity": "aerm_gap"}, 1.0),
                       ({"learner": "support_erm", "quantity": "generalisation_gap"}, 1.0),
                       ({"learner": "support_erm", "quantity": "empirical_risk"}, 0.0)],
    "wlf_ex21_rate": [({"n": 12800, "d": 1, "B": 2.0, "lipschitz": 0.5, "spacing": 0.01},
                       9 * (LN(2) + 3 * LN(12800)) / (12800 * _E21) + 2 * _E21 + 0.0025),
                      ({"n": 50, "d": 2, "B": 2.0, "lipschitz": 0.25, "spacing": 0.1},
                       9 * (4 * LN(50)) / (50 * _E21B) + 2 * _E21B + 0.0125)],
    "wlf_ex22_rate": [({"n": 1e5, "d": 20}, 9 * (2 * LN(1e5) + LN(20)) / (1e5 * _E22 / 2)
                       + 9 * (3 * LN(1e5) + LN(2)) / (1e5 * _E22 / 2) + 2 * _E22),
                      ({"n": 100, "d": 5}, 9 * (2 * LN(100) + LN(5)) / 50 + 9 * (3 * LN(100) + LN(2)) / 50 + 2.0)],
    "wlf_lem14_rate": [({"n": 100, "xi_private_at_sqrt_n": 0.1, "xi_nonprivate_at_quarter": 0.2}, 6.2),
                       ({"n": 10000, "xi_private_at_sqrt_n": 0.01, "xi_nonprivate_at_quarter": 0.05}, 0.98)],
    "wlf_mcmc_tv_level": [({"n": 3000}, 0.02), ({"n": 1000}, 1.0)],
})


# --- subsampling, privacy and stability (Lem 4, 8, 29, 30, 31, 34; Prop 33; Thm 25, 32) ---
# Numbers in the comments are from plain-math one-liners (python -c "import math; ...").
_E2000 = math.sqrt((8 + LN(2000)) / 2000)          # eps(m) at m = 2000, M = 8: 0.088320
_E20000 = math.sqrt((1 + LN(20000)) / 20000)       # eps(m) at m = 20000, M = 1: 0.022890
_E100 = math.sqrt((1 + LN(100)) / 100)             # eps(m) at m = 100, M = 1: 0.236752


def _base25(m, lh, eps):
    """4(log|H| + 1)/(eps m) + sqrt(log|H|/(2m)), written out once for thm25's pins."""
    return 4 * (lh + 1) / (eps * m) + math.sqrt(lh / (2 * m))


# beta = 0.1: a = ceil(ln 30 = 3.401) = 4, n/(a+1) = 2000 (n = 10^4) or 20000 (n = 10^5);
# eps_v = (ln 30 + 1)/sqrt n; Hoeffding 2 sqrt(5 ln(2*4/(0.1/3)) / (2n)) = 2 sqrt(5 ln 240/(2n))
_X10K = (math.e * _base25(2000, LN(257), _E2000)                                 # 0.504375
         + 2 * math.sqrt(5 * LN(240) / 20000)                                    # 0.074031
         + 8 * (LN(30) + LN(4)) * 5 / ((LN(30) + 1) / 100 * 10000))              # 0.435108 -> 1.013514
_X100K = (math.e * _base25(20000, LN(3), _E20000)                                # 0.063110
          + 2 * math.sqrt(5 * LN(240) / 200000)                                  # 0.023411
          + 8 * (LN(30) + LN(4)) * 5 / ((LN(30) + 1) / math.sqrt(1e5) * 1e5))    # 0.137593 -> 0.224114
# beta = 0.3: a = ceil(ln 10 = 2.303) = 3, n = 8000 -> 2000 rows; 2a/(beta/3) = 60
_X8K = (math.e * _base25(2000, LN(257), _E2000)                                  # 0.504375
        + 2 * math.sqrt(4 * LN(60) / 16000)                                      # 0.063987
        + 8 * (LN(10) + LN(3)) * 4 / ((LN(10) + 1) / math.sqrt(8000) * 8000))    # 0.368454 -> 0.936816
PINNED.update({
    # 2 gamma (e^eps - e^-eps), inside gamma <= 1/2
    "lem34_bound": [({"gamma": 0.1, "epsilon": 1.0}, 0.2 * (math.e - 1 / math.e)),          # 0.470080
                    ({"gamma": 0.5, "epsilon": 0.5}, math.exp(0.5) - math.exp(-0.5))],      # 1.042191
    # ln(1 + g(e^eps - 1)) - ln(1 + g(e^-eps - 1)); at g = 1/2 the ratio is (1 + e^eps)/(1 + e^-eps)
    # = e^eps, at g = 1 it is e^(2 eps)
    "lem34_exact_form": [({"gamma": 0.1, "epsilon": 1.0},
                          LN(1 + 0.1 * (math.e - 1)) - LN(1 + 0.1 * (1 / math.e - 1))),    # 0.223863
                         ({"gamma": 0.5, "epsilon": 0.5}, 0.5),
                         ({"gamma": 1.0, "epsilon": 2.0}, 4.0)],
    # ln(1 + g(e^eps - 1)); at g = 1 it is eps
    "subsample_tight_epsilon": [({"gamma": 0.1, "epsilon": 1.0}, LN(1 + 0.1 * (math.e - 1))),  # 0.158565
                                ({"gamma": 1.0, "epsilon": 0.7}, 0.7)],
    # (2/sqrt n)(e^eps - e^-eps)
    "lem4_privacy": [({"n": 100, "epsilon": 1.0}, 0.2 * (math.e - 1 / math.e)),             # 0.470080
                     ({"n": 400, "epsilon": 0.5}, 0.1 * (math.exp(0.5) - math.exp(-0.5)))],  # 0.104219
    # lem34_exact_form at g = floor(sqrt n)/n: n = 50 -> 7/50 = 0.14, n = 10 -> 3/10, n = 100 -> 0.1
    "lem4_privacy_exact_form": [({"n": 50, "epsilon": 0.5},
                                 LN(1 + 0.14 * (math.exp(0.5) - 1)) - LN(1 + 0.14 * (math.exp(-0.5) - 1))),  # 0.143592
                                ({"n": 10, "epsilon": 1.0},
                                 LN(1 + 0.3 * (math.e - 1)) - LN(1 + 0.3 * (1 / math.e - 1))),  # 0.626007
                                ({"n": 100, "epsilon": 1.0},
                                 LN(1 + 0.1 * (math.e - 1)) - LN(1 + 0.1 * (1 / math.e - 1)))],  # 0.223863
    # +-0.02 by the sign of side
    # 4 (ln 65 + 1)/(1 * 10) + sqrt(ln 65 / 20) = 2.0698 + 0.4568 = 2.52659 (n = 100: m = 10)
    "lem4_rate": [({"n": 100, "epsilon": 1.0, "h_size": 65}, 4 * (math.log(65) + 1) / 10 + math.sqrt(math.log(65) / 20)),
                  ({"n": 25600, "epsilon": 1.0, "h_size": 65}, 4 * (math.log(65) + 1) / 160 + math.sqrt(math.log(65) / 320))],
    "alg1_fixed_eps_rate": [({"m": 10, "epsilon": 1.0, "h_size": 65}, 4 * (math.log(65) + 1) / 10 + math.sqrt(math.log(65) / 20)),
                            ({"m": 50, "epsilon": 0.5, "h_size": 17}, 4 * (math.log(17) + 1) / 25 + math.sqrt(math.log(17) / 100))],
    # floor(sqrt n)/n: 10/100, 7/50, 32/1024 (perfect squares land on the integer root)
    "lem29_exact": [({"n": 100}, 0.1), ({"n": 50}, 0.14), ({"n": 1024}, 0.03125)],
    # 1/sqrt n
    "lem29_bound": [({"n": 100}, 0.1), ({"n": 50}, 1 / math.sqrt(50))],                    # 0.141421
    # ln(1 + g e^eps (e^eps - 1)); at eps = ln 2: ln(1 + 0.5 * 2 * 1) = ln 2
    "lem31_epsilon": [({"gamma": 0.1, "epsilon": 1.0}, LN(1 + 0.1 * math.e * (math.e - 1))),  # 0.383272
                      ({"gamma": 0.5, "epsilon": LN(2)}, LN(2))],
    # g e^eps delta
    "lem31_delta": [({"gamma": 0.1, "epsilon": LN(2), "delta": 1e-3}, 2e-4),               # 0.1 * 2 * 1e-3
                    ({"gamma": 0.5, "epsilon": 1.0, "delta": 0.01}, 0.005 * math.e)],       # 0.013591
    # g delta
    "subsample_tight_delta": [({"gamma": 0.1, "delta": 1e-3}, 1e-4), ({"gamma": 0.5, "delta": 0.02}, 0.01)],
    # e^eps - 1
    "lem8_stability": [({"epsilon": LN(2)}, 1.0), ({"epsilon": 0.5}, math.exp(0.5) - 1)],  # 0.648721
    # 2 eps (eps <= 1)
    "lem8_stability_linear": [({"epsilon": 0.5}, 1.0), ({"epsilon": 0.05}, 0.1), ({"epsilon": 1.0}, 2.0)],
    # tanh(eps/2) = (e^eps - 1)/(e^eps + 1)
    "pure_dp_tv": [({"epsilon": LN(3)}, 0.5),                                               # (3 - 1)/(3 + 1)
                   ({"epsilon": 1.0}, (math.e - 1) / (math.e + 1))],                        # 0.462117
    # e^eps - 1 + delta
    "lem30_stability": [({"epsilon": LN(2), "delta": 0.01}, 1.01),
                        ({"epsilon": 0.5, "delta": 1e-5}, math.exp(0.5) - 1 + 1e-5),        # 0.648731
                        ({"epsilon": 0.0, "delta": 0.1}, 0.1)],
    # ln(1 + n^-1/2 e^eps (e^eps - 1)): n = 100, eps = ln 2: ln(1 + 0.1 * 2 * 1) = ln 1.2
    "thm32_epsilon": [({"n": 100, "epsilon": LN(2)}, LN(1.2)),                              # 0.182322
                      ({"n": 400, "epsilon": 1.0}, LN(1 + 0.05 * math.e * (math.e - 1)))],  # 0.209887
    # n^-1/2 e^eps delta(sqrt n)
    "thm32_delta": [({"n": 100, "epsilon": LN(2), "delta_at_sqrt_n": 1e-3}, 2e-4),          # 0.1 * 2 * 1e-3
                    ({"n": 400, "epsilon": 1.0, "delta_at_sqrt_n": 0.01}, 0.0005 * math.e)],  # 0.0013591
    # n^-1/2
    "prop33_subsample_delta": [({"n": 100}, 0.1), ({"n": 10000}, 0.01)],
    # sqrt(2 ln(2|H|)/m), m = floor(sqrt n): n = 100 -> 10, n = 50 -> 7
    "prop33_erm_rate": [({"n": 100, "h_size": 17}, math.sqrt(2 * LN(34) / 10)),             # 0.839805
                        ({"n": 50, "h_size": 2}, math.sqrt(2 * LN(4) / 7))],                # 0.629352
    # log10(exp(-eps n^2)/n) = -eps n^2/ln 10 - log10 n
    "prop33_threshold": [({"n": 10, "epsilon": 1.0}, -100 / LN(10) - 1),                    # -44.429448
                         ({"n": 20, "epsilon": 0.5}, -200 / LN(10) - math.log10(20))],      # -88.159926
    # log10(exp(-eps n)/n) = -eps n/ln 10 - log10 n
    "prop33_threshold_direct": [({"n": 10, "epsilon": 1.0}, -10 / LN(10) - 1),              # -5.342945
                                ({"n": 100, "epsilon": 0.5}, -50 / LN(10) - 2)],            # -23.714724
    # log10(0.4 e^(-eps (n - 1))/n) = log10 0.4 - eps (n - 1)/ln 10 - log10 n
    "prop33_packing_delta": [({"n": 10, "epsilon": 1.0}, math.log10(0.4) - 9 / LN(10) - 1),  # -5.306590
                             ({"n": 100, "epsilon": 0.5}, math.log10(0.4) - 49.5 / LN(10) - 2),  # -23.895517
                             ({"n": 1, "epsilon": 1.0}, math.log10(0.4))],                  # -0.397940
    # 4(ln|H| + 1)/(eps m) + sqrt(ln|H|/(2m)), |H| = 2^M + 1, eps = sqrt((M + ln m)/m)
    "thm25_base_rate": [({"m": 100, "bits": 8},
                         4 * (LN(257) + 1) / (math.sqrt((8 + LN(100)) / 100) * 100)
                         + math.sqrt(LN(257) / 200)),                                       # 0.904415
                        ({"m": 1000, "bits": 1},
                         4 * (LN(3) + 1) / (math.sqrt((1 + LN(1000)) / 1000) * 1000)
                         + math.sqrt(LN(3) / 2000))],                                       # 0.117836
    # e xi(n/(a+1)) + 2 sqrt((a+1) ln(2a/(beta/3))/(2n)) + 8(ln(3/beta) + ln a)(a+1)/(eps_v n),
    # at n divisible by a + 1
    "thm25_excess_bound": [({"n": 10000, "beta": 0.1, "bits": 8}, _X10K),                   # 1.013514
                           ({"n": 100000, "beta": 0.1, "bits": 1}, _X100K),                 # 0.224114
                           ({"n": 8000, "beta": 0.3, "bits": 8}, _X8K)],                    # 0.936816
    # max{eps(n/(a+1)), (ln(3/beta) + 1)/sqrt n}: n = 10^4, beta = 0.1, M = 8: eps(2000) = 0.088320
    # beats 0.044012; n = 1200, beta = 1e-4 (a = ceil(ln 30000 = 10.309) = 11, 100 rows), M = 1:
    # eps(100) = 0.236752 loses to (ln 30000 + 1)/sqrt 1200 = 0.326461
    "thm25_privacy": [({"n": 10000, "beta": 0.1, "bits": 8}, _E2000),
                      ({"n": 1200, "beta": 1e-4, "bits": 1}, (LN(30000) + 1) / math.sqrt(1200))],
    # beta where the excess bound is < 1, else 1: 0.224 and 0.937 (< 1) give beta; 1.0135 gives 1
    "thm25_failure": [({"n": 100000, "beta": 0.1, "bits": 1}, 0.1),
                      ({"n": 8000, "beta": 0.3, "bits": 8}, 0.3),
                      ({"n": 10000, "beta": 0.1, "bits": 8}, 1.0)],
    # eps/2
    "alg1_realised_epsilon": [({"epsilon": 1.0}, 0.5), ({"epsilon": 0.3}, 0.15)],
    # tanh(eps/4) = (e^(eps/2) - 1)/(e^(eps/2) + 1): eps = 1 -> 0.244919; eps = 4 ln 3 -> (9 - 1)/(9 + 1)
    "alg1_realised_tv": [({"epsilon": 1.0}, (math.exp(0.5) - 1) / (math.exp(0.5) + 1)),
                         ({"epsilon": 4 * LN(3)}, 0.8)],
})


def check_thm25_cases():
    """The pinned a = ceil(ln(3/beta)) make n/(a+1) an integer, and the thm25_failure
    points sit on the side of 1 their comment says."""
    for n, beta, a in ((10000, 0.1, 4), (100000, 0.1, 4), (8000, 0.3, 3), (1200, 1e-4, 11)):
        assert math.ceil(LN(3 / beta)) == a and n % (a + 1) == 0
    assert _X100K < 1 and _X8K < 1 < _X10K
    assert _E100 < (LN(30000) + 1) / math.sqrt(1200) and _E2000 > (LN(30) + 1) / 100
