"""Hand-worked values of the bound functions of ``privbounds.bounds.kmms`` (Kaplan,
Mansour, Matias, Stemmer, "Differentially Private Learning of Geometric Concepts", ICML
2019). Loaded by tests/core/test_bound_values.py (see its docstring for the contract):
every expected value is the formula of the function's docstring written out by hand with
plain ``math``; for a max() of terms every term is given."""

import math

LN = math.log
CEIL = math.ceil

PINNED = {
    # --- section 2 ---
    # min(1, T exp(-ratio)): 4 e^-ln(160) = 4/160 = 0.025 (SAFE at T = 4, beta = 0.1); 64 e^-ln(640) = 0.1
    "laplace_max_ceiling": [({"draws": 4, "ratio": LN(160)}, 0.025), ({"draws": 64, "ratio": LN(640)}, 0.1),
                            ({"draws": 10, "ratio": 0.0}, 1.0)],
    # 2 VC k log2(3k): 2*1*1*log2(3); 2*3*4*log2(12)
    "vc_k_fold": [({"vc": 1, "k": 1}, 2 * math.log2(3)), ({"vc": 3, "k": 4}, 24 * math.log2(12))],
    # --- section 3 ---
    # n_32 = max(4 T lam / a, (2 (T + 2k) lam + 8 Delta) / a, (8/a)(T ln|H| + ln(4/b))), T = ceil(2k ln(4/a)).
    # a = 0.2, k = 2: T = ceil(4 ln 20) = 12; terms 4*12*100/0.2 = 24000, (2*16*100 + 400)/0.2 = 18000,
    # 40 (12 ln 128 + ln 40) = 2476.3: the first wins.
    # a = 0.1, k = 1, lam = Delta = 0: T = ceil(2 ln 40) = 8; only 80 (8 ln 8 + ln 80).
    "n_setcover": [({"alpha": 0.2, "beta": 0.1, "k": 2, "lam": 100.0, "shift": 50.0, "log_h": LN(128)}, 24000.0),
                   ({"alpha": 0.1, "beta": 0.05, "k": 1, "lam": 0.0, "shift": 0.0, "log_h": LN(8)},
                    80 * (8 * LN(8) + LN(80))),
                   ({"alpha": 0.2, "beta": 0.1, "k": 2, "lam": 10.0, "shift": 500.0, "log_h": LN(128)},
                    (2 * 16 * 10 + 4000) / 0.2)],  # 4*12*10/0.2 = 2400 < 21600: the Delta term wins
    # n_conj (SAFE) at a = 0.2, b = 0.1, eps = 0.99, delta = 1e-8, k = 1, d = 512: T' = ceil(2 ln 20) = 6,
    # b_L = 12/0.99, Delta = b_L ln(240), eta = 0.99 / (4 (1 + 8 ln 10)), lam = ln(2*6*1024/0.1) / eta;
    # terms 4*6*lam/0.2, (2*8*lam + 8 Delta)/0.2, 40 (6 ln 1024 + ln 40): the first wins (worked below).
    # literal: b_L = 6/0.99, Delta = b_L ln(60); the same lam, so the same first term.
    "n_conj": [({"alpha": 0.2, "beta": 0.1, "epsilon": 0.99, "delta": 1e-8, "k": 1, "d": 512},
                max(4 * 6 * (LN(122880) * 4 * (1 + 8 * LN(10)) / 0.99) / 0.2,
                    (16 * (LN(122880) * 4 * (1 + 8 * LN(10)) / 0.99) + 8 * (12 / 0.99) * LN(240)) / 0.2,
                    40 * (6 * LN(1024) + LN(40)))),
               ({"alpha": 0.2, "beta": 0.1, "epsilon": 0.5, "delta": 1e-3, "k": 2, "d": 64, "reading": "literal"},
                max(4 * 12 * (LN(2 * 12 * 128 / 0.1) * 4 * (1 + 3 * LN(10)) / 0.5) / 0.2,
                    (2 * 16 * (LN(2 * 12 * 128 / 0.1) * 4 * (1 + 3 * LN(10)) / 0.5)
                     + 8 * (12 / 0.5) * LN(120)) / 0.2,
                    40 * (12 * LN(128) + LN(40))))],
    # basic composition: eps0 = eps / T', b_L = 2/eps0, Delta = b_L ln(4T'/beta), eta = eps0/4,
    # lam = ln(4 d T'/beta)/eta. k = 1, a = 0.2: T' = 6, eps0 = 0.99/6; k = 2: T' = 12, eps0 = 0.99/12.
    "n_conj_composition": [
        ({"alpha": 0.2, "beta": 0.1, "epsilon": 0.99, "delta": 1e-8, "k": 1, "d": 512, "rule": "basic"},
         max(4 * 6 * (LN(4 * 512 * 6 / 0.1) / (0.99 / 24)) / 0.2,
             (16 * (LN(4 * 512 * 6 / 0.1) / (0.99 / 24)) + 8 * (12 / 0.99) * LN(240)) / 0.2,
             40 * (6 * LN(1024) + LN(40)))),
        ({"alpha": 0.2, "beta": 0.1, "epsilon": 0.5, "delta": 1e-8, "k": 2, "d": 64, "rule": "basic"},
         max(4 * 12 * (LN(4 * 64 * 12 / 0.1) / (0.5 / 48)) / 0.2,
             (2 * 16 * (LN(4 * 64 * 12 / 0.1) / (0.5 / 48)) + 8 * (48 / 0.5) * LN(480)) / 0.2,
             40 * (12 * LN(128) + LN(40))))],
    # lam = Delta = 0: (8/a)(T' ln(2d) + ln(4/beta)); k = 1, a = 0.2: 40 (6 ln 1024 + ln 40); k = 4, d = 64:
    # T' = ceil(8 ln 20) = 24: 40 (24 ln 128 + ln 40)
    "n_conj_argmax": [({"alpha": 0.2, "beta": 0.1, "k": 1, "d": 512}, 40 * (6 * LN(1024) + LN(40))),
                      ({"alpha": 0.2, "beta": 0.1, "k": 4, "d": 64}, 40 * (24 * LN(128) + LN(40)))],
    # --- section 4 ---
    # d^-4 / 4
    "region_area_paper": [({"d": 1}, 0.25), ({"d": 4}, 0.25 / 256), ({"d": 16}, 0.25 / 65536)],
    # 1 / (2 d^3)
    "region_area_ours": [({"d": 1}, 0.5), ({"d": 4}, 1 / 128), ({"d": 16}, 1 / 8192)],
    "never_ceiling": [({"level": 0.05}, 0.05), ({"level": 1e-3}, 1e-3)],
    # min(1, 2d exp(-eta t / 8)): t = 0 caps at 1; 16 exp(-0.2 * 400 / 8) = 16 e^-10; 64 e^-(1 * 80/8) = 64 e^-10
    "selection_gap_ceiling": [({"gap": 0, "eta": 0.2, "d": 8}, 1.0),
                              ({"gap": 400, "eta": 0.2, "d": 8}, 16 * math.exp(-10)),
                              ({"gap": 80, "eta": 1.0, "d": 32}, 64 * math.exp(-10))],
    # min(1, 64 d^7 exp(-eta t)): 64 * 8^7 = 134217728; at t = 100, eta = 0.2: 134217728 e^-20
    "selection_gap_ceiling_ours": [({"gap": 10, "eta": 0.2, "d": 8}, 1.0),
                                   ({"gap": 100, "eta": 0.2, "d": 8}, 134217728 * math.exp(-20)),
                                   ({"gap": 40, "eta": 1.0, "d": 2}, 8192 * math.exp(-40))],
    "select_halfplane_epsilon": [({"eta": 0.5}, 1.0), ({"eta": 0.0125}, 0.025)],
    # (8 / eta) ln(2d / beta): 40 ln(160) at eta = 0.2, d = 8, beta = 0.1; 8 ln(640) at eta = 1, d = 32, beta = 0.1
    "selection_slack": [({"eta": 0.2, "d": 8, "beta": 0.1}, 40 * LN(160)),
                        ({"eta": 1.0, "d": 32, "beta": 0.1}, 8 * LN(640))],
    # n_kgon = n_setcover with the learner at a/2: T' = ceil(2k ln(4/a)), lam = (8/eta) ln(4 d T'/b),
    # ln|H| = ln(N^2 - N + 2), N = (d + 1)^2. SAFE, a = 0.2, b = 0.1, eps = 0.99, delta = 1e-6, k = 4, d = 8:
    # T' = ceil(8 ln 20) = 24, eta = 0.99 / (4 (1 + 6 ln 10)), b_L = 48/0.99, Delta = b_L ln(960),
    # N = 81: |H| = 6482. Literal, eps = 0.5, delta = 1e-3, k = 3, d = 16: T' = ceil(6 ln 20) = 18,
    # eta = 0.5 / (4 (1 + 3 ln 10)), b_L = 18/0.5 = 36, Delta = 36 ln(180), N = 289: |H| = 83234.
    "n_kgon": [({"alpha": 0.2, "beta": 0.1, "epsilon": 0.99, "delta": 1e-6, "k": 4, "d": 8},
                max(4 * 24 * (8 * 4 * (1 + 6 * LN(10)) / 0.99 * LN(7680)) / 0.2,
                    (2 * 32 * (8 * 4 * (1 + 6 * LN(10)) / 0.99 * LN(7680)) + 8 * (48 / 0.99) * LN(960)) / 0.2,
                    40 * (24 * LN(6482) + LN(40)))),
               ({"alpha": 0.2, "beta": 0.1, "epsilon": 0.5, "delta": 1e-3, "k": 3, "d": 16, "reading": "literal"},
                max(4 * 18 * (8 * 4 * (1 + 3 * LN(10)) / 0.5 * LN(11520)) / 0.2,
                    (2 * 24 * (8 * 4 * (1 + 3 * LN(10)) / 0.5 * LN(11520)) + 8 * 36 * LN(180)) / 0.2,
                    40 * (18 * LN(83234) + LN(40))))],
    # n_kgon_greedy = (8/a)(T' ln|H| + ln(4/b)): k = 4, d = 8: 40 (24 ln 6482 + ln 40);
    # k = 1, d = 1: T' = ceil(2 ln 20) = 6, N = 4, |H| = 14: 40 (6 ln 14 + ln 40).
    "n_kgon_greedy": [({"alpha": 0.2, "beta": 0.1, "k": 4, "d": 8}, 40 * (24 * LN(6482) + LN(40))),
                      ({"alpha": 0.2, "beta": 0.1, "k": 1, "d": 1}, 40 * (6 * LN(14) + LN(40)))],
    # --- section 5 ---
    # n_union (SAFE) at a = 0.2, b = 0.1, eps = 0.99, delta = 1e-7, r = 1, |cands| = 6768: T' = ceil(2 ln 20) = 6,
    # eta = 0.99 / (4 (1 + 7 ln 10)), b_L = 12/0.99, Delta = b_L ln(240), lam = ln(2*6*6768/0.1) / eta =
    # ln(812160) 4 (1 + 7 ln 10) / 0.99; terms 4*6*lam/0.2, (2*8*lam + 8 Delta)/0.2, 40 (6 ln 6768 + ln 40).
    # literal at r = 2, eps = 0.5, delta = 1e-3, |cands| = 76: T' = ceil(4 ln 20) = 12, b_L = 24, Delta = 24 ln(120),
    # lam = ln(2*12*76/0.1) 4 (1 + 3 ln 10) / 0.5 = ln(18240) 8 (1 + 3 ln 10).
    "n_union": [({"alpha": 0.2, "beta": 0.1, "epsilon": 0.99, "delta": 1e-7, "r": 1, "candidates": 6768},
                 max(4 * 6 * (LN(812160) * 4 * (1 + 7 * LN(10)) / 0.99) / 0.2,
                     (16 * (LN(812160) * 4 * (1 + 7 * LN(10)) / 0.99) + 8 * (12 / 0.99) * LN(240)) / 0.2,
                     40 * (6 * LN(6768) + LN(40)))),
                ({"alpha": 0.2, "beta": 0.1, "epsilon": 0.5, "delta": 1e-3, "r": 2, "candidates": 76,
                  "reading": "literal"},
                 max(4 * 12 * (LN(18240) * 8 * (1 + 3 * LN(10))) / 0.2,
                     (2 * 16 * (LN(18240) * 8 * (1 + 3 * LN(10))) + 8 * 24 * LN(120)) / 0.2,
                     40 * (12 * LN(76) + LN(40))))],
    # lam = Delta = 0: (8/a)(T' ln|cands| + ln(4/b)); r = 1, a = 0.2: T' = 6; r = 2, a = 0.1: T' = ceil(4 ln 40) = 15
    "n_union_greedy": [({"alpha": 0.2, "beta": 0.1, "r": 1, "candidates": 6768}, 40 * (6 * LN(6768) + LN(40))),
                       ({"alpha": 0.1, "beta": 0.05, "r": 2, "candidates": 76}, 80 * (15 * LN(76) + LN(80)))],
    # basic composition: eps0 = eps / T', b_L = 2/eps0, Delta = b_L ln(4T'/b), eta = eps0/4, lam = ln(2T'|cands|/b)/eta.
    # r = 1, a = 0.2, eps = 0.99: T' = 6, eps0 = 0.99/6, b_L = 12/0.99, Delta = b_L ln(240), eta = 0.99/24.
    # r = 2, eps = 0.5, |cands| = 76: T' = 12, eps0 = 0.5/12, b_L = 48, Delta = 48 ln(480), eta = 0.5/48.
    "n_union_composition": [
        ({"alpha": 0.2, "beta": 0.1, "epsilon": 0.99, "delta": 1e-7, "r": 1, "candidates": 6768, "rule": "basic"},
         max(4 * 6 * (LN(812160) / (0.99 / 24)) / 0.2,
             (16 * (LN(812160) / (0.99 / 24)) + 8 * (12 / 0.99) * LN(240)) / 0.2,
             40 * (6 * LN(6768) + LN(40)))),
        ({"alpha": 0.2, "beta": 0.1, "epsilon": 0.5, "delta": 1e-3, "r": 2, "candidates": 76, "rule": "basic"},
         max(4 * 12 * (LN(18240) / (0.5 / 48)) / 0.2,
             (2 * 16 * (LN(18240) / (0.5 / 48)) + 8 * 48 * LN(480)) / 0.2,
             40 * (12 * LN(76) + LN(40))))],
    # k - 2m: one pentagon 5 - 2 = 3; four triangles 12 - 8 = 4; one triangle 1
    "union_triangles": [({"edges": 5, "polygons": 1}, 3.0), ({"edges": 12, "polygons": 4}, 4.0),
                        ({"edges": 3, "polygons": 1}, 1.0)],
}
