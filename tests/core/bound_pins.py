"""Hand-worked values of the shared tools of ``privbounds.bounds.tools``.

``PINNED`` pins the bound functions defined in privbounds.bounds.tools; ``HELPERS`` pins
the untagged helpers the bounds of every paper build on (advanced_composition_epsilon,
per_concept_epsilon). Loaded by tests/core/test_bound_values.py (see its docstring for
the contract and for how the values were worked out). n_pmw's integer cutoff c is a
literal with its ceil() written out, and the expected row count is math.ceil of the hand
expression (every point is far from an integer, so float rounding cannot move the ceil).
The advanced-composition eps0 literals are roots found by plain bisection (200 halvings)
in a scratch shell; ``check_advanced_eps0_literals_spend_the_budget`` re-checks them.
"""

import math

import pytest

LN = math.log
LN2 = math.log(2)


def _advanced_total(eps0, k, delta_prime):
    """Dwork-Roth Thm 3.20: k eps0-DP runs are sqrt(2k ln(1/d')) eps0 + k eps0 (e^eps0 - 1)."""
    return math.sqrt(2 * k * LN(1 / delta_prime)) * eps0 + k * eps0 * math.expm1(eps0)


# eps0 with _advanced_total(eps0, k, delta') = total, at the direct sums' parameters. The
# direct sums' pins in tests/bns/bound_pins.py hold the same two roots (pins files do not
# import each other); each file re-checks its own copy against the condition.
ADV_DS = 0.0229678468074706         # n_direct_sum: total 1, k = 64, delta' = 1e-6
ADV_DSA = 0.0005994290234368462     # n_direct_sum_agnostic: total 0.1, k = 1000, delta' = 1e-6
ADV_ROOTS = [
    ((1.0, 64, 1e-6), ADV_DS),
    ((0.1, 1000, 1e-6), ADV_DSA),
]


# n_pmw (Dwork-Roth Thm 4.15 with the numeric-answer term), B = (sqrt 512 + 1) sqrt(c ln(2/delta)) / (eps a):
# alpha = 0.3, eps = 1, delta = 1e-6, |X| = 1024: a = 0.1, c = ceil(400 ln 1024) = ceil(2772.59) = 2773,
#   k = 2 |Q| 2774 (5.548e9 at |Q| = 1e6, 5.548e6 at |Q| = 1000), 4c/beta = 110920, 2c/beta = 55460;
# alpha = 0.6, eps = 0.5, delta = 1e-3, |X| = 2: a = 0.2, c = ceil(100 ln 2) = ceil(69.31) = 70,
#   k = 2 |Q| 71 (1420 at |Q| = 10), 4c/beta = 5600, 2c/beta = 2800.
SQRT8 = math.sqrt(8)
PMW_B1 = (math.sqrt(512) + 1) * math.sqrt(2773 * LN(2e6)) / 0.1
PMW_B2 = (math.sqrt(512) + 1) * math.sqrt(70 * LN(2000)) / 0.1


PINNED = {
    # delta'
    "composition_tail_ceiling": [
        (dict(delta_prime=1e-6), 1e-6),
        (dict(delta_prime=0.05), 0.05),
    ],
    # min(1, |F| e^{-eps gap/2})
    "expmech_failure_ceiling": [
        (dict(gap=20, candidates=100, epsilon=1.0), 100 * math.exp(-10)),
        (dict(gap=10, candidates=1, epsilon=0.5), math.exp(-2.5)),
        (dict(gap=0, candidates=5, epsilon=1.0), 1.0),                    # capped
    ],
    # Thm 2.7: (8/alpha)(vc ln(16/alpha) + ln(2/beta))
    "n_vc_realizable": [
        (dict(vc=1, alpha=0.25, beta=0.25), 32 * (LN(64) + LN(8))),
        (dict(vc=5, alpha=0.1, beta=0.05), 80 * (5 * LN(160) + LN(40))),
    ],
    # Thm 2.8 + union bound: (50 vc/alpha^2) ln(k/(alpha beta))
    "n_uniform_convergence": [
        (dict(vc=1, k=1, alpha=0.1, beta=0.1), 5000 * LN(100)),
        (dict(vc=3, k=64, alpha=0.05, beta=0.01), 60000 * LN(128000)),
    ],
    # a = alpha/3, c = ceil(4 ln|X| / a^2), k = 2|Q|(c + 1), B = (sqrt 512 + 1) sqrt(c ln(2/delta))/(eps a):
    # ceil(B max(ln k + ln(4c/beta), sqrt 8 ln(2c/beta))); source_only: ceil(B (ln k + ln(4c/beta))).
    # (The same arithmetic as simulators/bns/pmw.py's pmw_sample_size before the move: equal at
    # all four points, checked in a scratch shell against the committed version.)
    "n_pmw": [
        (dict(alpha=0.3, beta=0.1, epsilon=1.0, delta=1e-6, domain_size=1024, n_queries=10 ** 6),
         math.ceil(PMW_B1 * (LN(5.548e9) + LN(110920)))),    # sparse 1613851.6 > numeric 1464226.7
        (dict(alpha=0.3, beta=0.1, epsilon=1.0, delta=1e-6, domain_size=1024, n_queries=1000),
         math.ceil(PMW_B1 * SQRT8 * LN(55460))),              # sparse 1286479.4 < numeric 1464226.7
        (dict(alpha=0.3, beta=0.1, epsilon=1.0, delta=1e-6, domain_size=1024, n_queries=1000,
              source_only=True),
         math.ceil(PMW_B1 * (LN(5.548e6) + LN(110920)))),    # the book's term only: 1286479.4
        (dict(alpha=0.6, beta=0.05, epsilon=0.5, delta=1e-3, domain_size=2, n_queries=10),
         math.ceil(PMW_B2 * SQRT8 * LN(2800))),               # sparse 86595.0 < numeric 122354.4
    ],
}


# --- untagged helpers that bound functions build on -----------------------------------
# Not bound functions (no kind/source), so not in PINNED; looked up by name over the
# modules of privbounds.bounds all the same, so a move between modules does not lose them.
# advanced: sqrt(2k ln(1/d')) eps0 + k eps0 (e^eps0 - 1); at eps0 = ln 2, k = 2, d' = 1/e:
# 2 ln 2 + 2 ln 2; at eps0 = ln 1.5, k = 8, d' = e^-4: 8 ln 1.5 + 4 ln 1.5.
HELPERS = {
    "advanced_composition_epsilon": [
        (dict(eps0=LN2, k=2, delta_prime=math.exp(-1)), 4 * LN2),
        (dict(eps0=LN(1.5), k=8, delta_prime=math.exp(-4)), 12 * LN(1.5)),
        (dict(eps0=ADV_DS, k=64, delta_prime=1e-6), 1.0),
    ],
    # basic: eps / k; advanced: the eps0 literals above (bisection roots)
    "per_concept_epsilon": [
        (dict(epsilon=1.0, k=8, rule="basic"), 0.125),
        (dict(epsilon=0.1, k=1000, rule="basic"), 1e-4),
        (dict(epsilon=1.0, k=64, rule="advanced", delta=1e-6), ADV_DS),
        (dict(epsilon=0.1, k=1000, rule="advanced", delta=1e-6), ADV_DSA),
    ],
}


def check_advanced_eps0_literals_spend_the_budget():
    for (total, k, delta_prime), eps0 in ADV_ROOTS:
        assert _advanced_total(eps0, k, delta_prime) == pytest.approx(total, rel=1e-12), eps0
