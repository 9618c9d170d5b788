"""The Laplace mean of Bernoulli rows (privbounds' example plugin paper): the bound functions its claims use, each tagged with how exact it is and
where it comes from (privbounds.bounds._meta.bound: the report's "Where the formulas come
from" reads the tags)."""

from __future__ import annotations

import numpy as np

from privbounds.bounds._meta import EXACT, bound, positive, unit_open  # noqa: F401


@bound(EXACT, "ours: Hoeffding's inequality and the Laplace tail, each at beta / 2 (template)")
def n_thm1(epsilon, alpha, beta):
    """Sample size at which the Laplace mean is within alpha of p w.p. >= 1 - beta: Hoeffding
    (|mean - p| > alpha/2 w.p. <= 2 exp(-n alpha^2 / 2)) and the Laplace tail (|Lap(1/(n eps))|
    > alpha/2 w.p. exp(-n eps alpha / 2)), each at beta / 2."""
    a, b, e = unit_open("alpha", alpha), unit_open("beta", beta), positive("epsilon", epsilon)
    return np.maximum(2 * np.log(4 / b) / a ** 2, 2 * np.log(2 / b) / (a * e))
