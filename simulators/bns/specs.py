"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts", section 3:
the parameters of the private k-learners run over a domain of 2^d points under a
composition rule (the direct sums of Obs 3.2 / Cor 3.4, Algorithm 2 of Cor 3.9 and
Cor 3.10), declared once so that their ranges cannot drift apart."""

from __future__ import annotations

from privbounds.bounds.tools import COMPOSITION_RULES
from privbounds.params import ALPHA_BELOW_HALF, APPROX_DELTA, BETA, EPSILON_AT_MOST_4, Interval, Options


def k_learner_params(d_low: int, d_high: int, k_high: int) -> dict:
    """d in [d_low, d_high] (|X| = 2^d), k in [1, k_high], the composition rule, agnostic
    alpha < 1/2, eps <= 4 and approximate privacy (delta > 0: advanced composition needs it)."""
    return {
        "d": Interval(d_low, d_high, "both", integer=True),
        "k": Interval(1, k_high, "both", integer=True),
        "rule": Options(COMPOSITION_RULES),
        "alpha": ALPHA_BELOW_HALF,
        "epsilon": EPSILON_AT_MOST_4,
        "delta": APPROX_DELTA,
        "beta": BETA,
    }
