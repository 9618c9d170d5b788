"""Privacy auditing: an empirical lower bound on epsilon from neighbouring inputs.

For a mechanism M, neighbouring inputs D, D' and an output event E fixed in advance,
(eps, delta)-DP requires P[M(D) in E] <= e^eps P[M(D') in E] + delta. With Monte Carlo
counts, the Clopper-Pearson lower end of P[M(D) in E] and the upper end of
P[M(D') in E] give, with the stated confidence, a lower bound
    eps_hat = ln((p_low - delta) / q_high)
on the epsilon that M can possibly have. A correct mechanism gives eps_hat <= eps (up to
the interval's failure probability); a bug that weakens privacy enough pushes eps_hat
above eps. Both directions (E on D versus D', and D' versus D) are checked.
"""

from __future__ import annotations

import numpy as np

from privbounds.simulators.engine.stats import clopper_pearson


def epsilon_lower_bound(hits_a: int, trials_a: int, hits_b: int, trials_b: int,
                        delta: float = 0.0, conf: float = 0.95) -> float:
    """Lower confidence bound on eps from event counts under two neighbouring inputs.

    ``conf`` is the joint confidence: each of the four one-sided interval ends uses
    (1 - conf) / 4 (two directions, two ends each), via two-sided intervals at
    1 - (1 - conf) / 2."""
    level = 1 - (1 - conf) / 2
    pa_lo, pa_hi = clopper_pearson(hits_a, trials_a, level)
    pb_lo, pb_hi = clopper_pearson(hits_b, trials_b, level)
    best = -np.inf
    for num, den in ((pa_lo, pb_hi), (pb_lo, pa_hi)):
        if num - delta > 0 and den > 0:
            best = max(best, float(np.log((num - delta) / den)))
    return best
