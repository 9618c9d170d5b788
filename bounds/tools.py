"""Bounds that several papers use: composition, the exponential mechanism, VC
generalization and uniform convergence, and the private multiplicative weights
sanitizer (Dwork and Roth 2014, the form Bun-Nissim-Stemmer cite).

Pure functions of their arguments; this package imports nothing else of privbounds.
"""

from __future__ import annotations

import math

import numpy as np

from ._meta import EXACT, at_least, bound, positive, unit_open

COMPOSITION_RULES = ("basic", "advanced")


def advanced_composition_epsilon(eps0, k, delta_prime):
    """Dwork-Roth Thm 3.20: k mechanisms, each eps0-DP, are (eps', delta')-DP with
    eps' = sqrt(2 k ln(1 / delta')) eps0 + k eps0 (e^eps0 - 1)."""
    e0 = positive("eps0", eps0)
    kk = at_least("k", k, 1)
    dp = unit_open("delta_prime", delta_prime)
    return np.sqrt(2 * kk * np.log(1 / dp)) * e0 + kk * e0 * np.expm1(e0)


def per_concept_epsilon(epsilon: float, k: int, rule: str, delta: float | None = None) -> float:
    """The budget eps0 each of k pure-DP runs may use so that the whole is
    epsilon-DP (basic: eps0 = epsilon / k) or (epsilon, delta)-DP (advanced: the eps0
    solving advanced_composition_epsilon(eps0, k, delta) = epsilon exactly)."""
    positive("epsilon", epsilon)
    at_least("k", k, 1)
    if rule == "basic":
        return float(epsilon) / int(k)
    if rule == "advanced":
        unit_open("delta", delta)
        f = lambda e0: float(advanced_composition_epsilon(e0, k, delta)) - epsilon  # noqa: E731
        from scipy.optimize import brentq  # here: the bounds load without scipy.optimize

        return float(brentq(f, 1e-12, float(epsilon), xtol=1e-14, rtol=1e-12))
    raise ValueError(f"rule must be one of {', '.join(COMPOSITION_RULES)}, got {rule!r}")


@bound(EXACT, "Dwork-Rothblum-Vadhan advanced composition (Dwork-Roth Thm 3.20), the tail it bounds")
def composition_tail_ceiling(delta_prime):
    """P[the summed privacy loss of k eps0-DP mechanisms exceeds
    advanced_composition_epsilon(eps0, k, delta')] <= delta': the ceiling is delta'."""
    return unit_open("delta_prime", delta_prime) * 1.0


@bound(EXACT, "BNS Prop 3.8 (McSherry-Talwar exponential mechanism), utility statement")
def expmech_failure_ceiling(gap, candidates, epsilon):
    """P[the exponential mechanism outputs a candidate scoring <= OPT - gap] <=
    |F| e^(-eps gap / 2) (sensitivity-1 scores), capped at 1."""
    g = at_least("gap", gap, 0)
    F = at_least("candidates", candidates, 1)
    eps = positive("epsilon", epsilon)
    return np.minimum(1.0, F * np.exp(-eps * g / 2))


@bound(EXACT, "BNS Thm 2.8 (VC agnostic uniform convergence) with Thm 2.11's union bound; constant 50 as usually quoted, not read in this paper (RECONSTRUCTED)")
def n_uniform_convergence(vc, k, alpha, beta):
    """Rows sufficient for |err_S(c) - err_P(c)| <= alpha for every c in C and every one of
    k label columns w.p. >= 1 - beta: n >= (50 VC / alpha^2) ln(k / (alpha beta))."""
    v, kk = at_least("vc", vc, 1), at_least("k", k, 1)
    a, b = unit_open("alpha", alpha), unit_open("beta", beta)
    return (50.0 * v / a ** 2) * np.log(kk / (a * b))


@bound(EXACT, "BNS Thm 2.7 (Blumer et al., realizable); constants as used across BNS papers (RECONSTRUCTED)")
def n_vc_realizable(vc, alpha, beta):
    """Rows sufficient for every consistent hypothesis of a class of VC dimension VC to have
    error <= alpha w.p. >= 1 - beta: n >= (8/alpha)(VC ln(16/alpha) + ln(2/beta))."""
    v = at_least("vc", vc, 1)
    a = unit_open("alpha", alpha)
    b = unit_open("beta", beta)
    return (8.0 / a) * (v * np.log(16.0 / a) + np.log(2.0 / b))


SQRT512 = math.sqrt(512.0)  # Dwork-Roth's NumericSparse split eps1 : eps2/2 = sqrt(512) : 1


@bound(EXACT, "Dwork-Roth Thm 4.15 (online MW over NumericSparse, the (eps, delta) branch), with the numeric-answer term; BNS Thm 2.19")
def n_pmw(alpha, beta, epsilon, delta, domain_size, n_queries, source_only=False):
    """Rows at which private multiplicative weights answers every one of n_queries
    counting queries over a domain of domain_size points within alpha, w.p. >= 1 - beta:
    with a = alpha/3, c = ceil(4 ln|X| / a^2) update rounds and k = 2|Q|(c + 1)
    NumericSparse queries, n >= (sqrt(512) + 1) sqrt(c ln(2/delta)) / (eps a) times
    max(ln k + ln(4c/beta), sqrt(8) ln(2c/beta)) (``source_only``: the first term, the
    book's own condition, which omits the numeric answers)."""
    a = float(unit_open("alpha", alpha)) / 3.0
    b, eps, dl = float(unit_open("beta", beta)), float(positive("epsilon", epsilon)), float(unit_open("delta", delta))
    c = math.ceil(4.0 * math.log(float(at_least("domain_size", domain_size, 2))) / a**2)
    k = 2 * int(at_least("n_queries", n_queries, 1)) * (c + 1)
    base = (SQRT512 + 1.0) * math.sqrt(c * math.log(2.0 / dl)) / (eps * a)
    n_sparse = base * (math.log(k) + math.log(4.0 * c / b))
    n_numeric = base * math.sqrt(8.0) * math.log(2.0 * c / b)
    return math.ceil(n_sparse if source_only else max(n_sparse, n_numeric))
