"""The Laplace mean of Bernoulli rows (privbounds' example plugin paper)

The bound functions its claims use, each tagged with how exact it is and where it comes
from (privbounds.bounds._meta.bound: the report's "Where the formulas come from" reads
the tags). Both are ours, with every constant derived in their docstrings.
"""

from __future__ import annotations

import numpy as np

from privbounds.bounds._meta import EXACT, bound, positive, unit_open


@bound(EXACT, "ours: Hoeffding's inequality for the mean and the Laplace tail for the noise, each at beta / 2")
def n_upper(epsilon, alpha, beta):
    """Sample size from which the Laplace mean (count + Lap(1/eps)) / n is within alpha of p
    w.p. >= 1 - beta, whatever p: Hoeffding gives |count/n - p| > alpha/2 w.p. at most
    2 exp(-n alpha^2 / 2), the noise |Lap(1/(n eps))| > alpha/2 w.p. exp(-n eps alpha / 2);
    each at most beta / 2 once n >= 2 ln(4/beta) / alpha^2 and n >= 2 ln(2/beta) / (alpha eps)."""
    a, b, e = unit_open("alpha", alpha), unit_open("beta", beta), positive("epsilon", epsilon)
    return np.maximum(2 * np.log(4 / b) / a ** 2, 2 * np.log(2 / b) / (a * e))


@bound(EXACT, "ours: Anderson's inequality (the noise alone, centred, is the best case)")
def n_lower(epsilon, alpha, beta):
    """Sample size below which the Laplace mean fails w.p. more than beta, whatever p: success
    is |(count - np) + L| <= n alpha with L ~ Lap(1/eps) independent of the count, and for a
    symmetric unimodal L and a symmetric interval Anderson's inequality gives P(|y + L| <= c)
    <= P(|L| <= c) for every shift y, so success has probability at most 1 - exp(-n eps alpha),
    which is below 1 - beta while n < ln(1/beta) / (alpha eps)."""
    a, b, e = unit_open("alpha", alpha), unit_open("beta", beta), positive("epsilon", epsilon)
    return np.log(1 / b) / (a * e)
