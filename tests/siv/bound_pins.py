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
