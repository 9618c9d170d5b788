"""Hand-worked values of the bound functions of ``privbounds.bounds.sivakumar``.

Loaded by tests/core/test_bound_values.py, which compares each function to these points
(see its docstring for the contract and for how every value was worked out by hand).
"""

import math

LN = math.log


PINNED = {
    # N = max(8/alpha, 4/(alpha eps)) (ln|H| + ln(2/beta))
    "n_expmech_learner": [
        (dict(h_size=257, epsilon=0.25), 64 * (LN(257) + LN(8))),           # 4/(a eps) = 64 > 32
        (dict(h_size=17, epsilon=1.0), 32 * (LN(17) + LN(8))),              # 8/a = 32 > 16
        (dict(h_size=100, epsilon=2.0, alpha=0.1, beta=0.05), 80 * (LN(100) + LN(40))),  # 80 > 20
    ],
    # N = (ln|H| + ln(1/beta)) / alpha
    "n_erm_finite": [
        (dict(h_size=16), 4 * (LN(16) + LN(4))),
        (dict(h_size=1000, alpha=0.1, beta=0.05), 10 * (LN(1000) + LN(20))),
    ],
    # N = ln(2/beta) / alpha
    "n_erm_threshold": [
        (dict(), 4 * LN(8)),
        (dict(alpha=0.1, beta=0.01), 10 * LN(200)),
    ],
}

# Lemma 3.2: e^(-a)
PINNED["expmech_tail_ceiling"] = [
    (dict(a=1.0), math.exp(-1)),
    (dict(a=LN(8)), 0.125),
]
# 9 N_expmech: at |H| = 17, eps = 1: 9 * 32 (ln 17 + ln 8); at |H| = 257, eps = 0.25: 9 * 64 (...)
PINNED["m_empirical_from_pac"] = [
    (dict(h_size=17, epsilon=1.0), 288 * (LN(17) + LN(8))),
    (dict(h_size=257, epsilon=0.25), 576 * (LN(257) + LN(8))),
]
# GDP: mu = 0.23670438066343... at (1, 1e-6) (bisection root in a scratch shell, re-checked by
# check_gdp_mu_literal); sigma = 2 sqrt(b + 1) / mu; tau = sigma sqrt(2 ln(2 (b + 1) / beta))
MU_1_1E6 = 0.2367043806634358
SIG20 = 2 * math.sqrt(21) / MU_1_1E6
PINNED["n_binary_search_threshold"] = [
    # (4/alpha) tau = 16 * SIG20 * sqrt(2 ln 168) = 1983.2 > (8/alpha) ln 16 = 88.7
    (dict(b=20, epsilon=1.0, delta=1e-6), 16 * SIG20 * math.sqrt(2 * LN(168))),
    # b = 0, eps = 50, delta = 0.5: sigma tiny, the generalisation term (8/0.25) ln 16 = 88.7 wins
    (dict(b=0, epsilon=50.0, delta=0.5), 32 * LN(16)),
]
SOLVED_BY_ROOT_FINDER = {"n_binary_search_threshold", "gdp_mu", "binary_search_sigma"}

HELPERS = {
    "gdp_mu": [(dict(epsilon=1.0, delta=1e-6), MU_1_1E6)],
    "binary_search_sigma": [(dict(b=20, epsilon=1.0, delta=1e-6), SIG20),
                            (dict(b=3, epsilon=1.0, delta=1e-6), 4 / MU_1_1E6)],
    "amplified_epsilon": [(dict(epsilon=1.0, n=1, m=9), 2 / 3), (dict(epsilon=2.0, n=10, m=40), 3.0)],
    "log_star": [(dict(x=2), 1), (dict(x=16), 3), (dict(x=65536), 4), (dict(x=2 ** 64), 5),
                 (dict(x=2 ** 65536), 5)],
    "tower": [(dict(n=2, height=4), 65536), (dict(n=3, height=2), 27)],
    "gdp_delta": [(dict(epsilon=0.0, mu=2.0), 2 * 0.8413447460685429 - 1)],  # Phi(1) - Phi(-1)
}


def check_gdp_mu_literal():
    from statistics import NormalDist
    phi = NormalDist().cdf
    mu = MU_1_1E6
    assert abs(phi(-1 / mu + mu / 2) - math.e * phi(-1 / mu - mu / 2) - 1e-6) < 1e-12
