"""Bassily et al., "Private Query Release Assisted by Public Data" (ICML 2020), Theorem 5.1:
a query class of infinite Littlestone dimension (thresholds over R) needs Omega(1/alpha)
public samples, however many private samples there are.

Experiment E1 (the public requirement with unlimited private data): THR_T with
T = 2^20 (a proxy for the line) answered by Algorithm 3 with the exact D~ in place of
PMW, which is what PMW's answers tend to as n grows: steps 1-4 and 7 of Algorithm 3
(cover, representative domain, answer of each h by its cover member) with no privacy
noise and no sampling error. Its error is exactly twice the cover radius (tested against
the cells of the real cover on small T), drawn in O(m log m) per trial by
pap_learning.cover_error_line for the family uniform / geometric / Dirichlet(1). The
searched size is the PUBLIC sample m (the engine's "n" is m here; there is no private
data). m_hat(alpha) = the smallest m with error <= alpha with probability >= 1 - beta.

Nothing private runs (the exact D~ stands for unlimited private data), so there is
nothing to audit. The theorem's other side (no private-only escape as T grows, E2) is
measured by pap.base_priv and drawn beside E1 from its results; this module does not
re-run it.
"""

from __future__ import annotations

from privbounds.params import Interval
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.pap.common import specs
from privbounds.simulators.pap.learning import cover_error_line
from privbounds.simulators.pap.query_classes import DISTRIBUTIONS
from privbounds.simulators.shared.accuracy import within

SIZE = 1 << 20
ALPHAS = {"smoke": [0.2, 0.1, 0.05], "quick": [0.2, 0.1, 0.05, 0.02], "full": [0.2, 0.1, 0.05, 0.02, 0.01]}


class PapThm51(Simulator):
    theorem_id = "pap.thm5_1"
    # no release runs here (the cover's error over the line only), so the domain may be larger
    # than the release experiments': up to 2^22
    params = {**specs("alpha", "beta", "dist"), "T": Interval(2, 1 << 22, "both", integer=True)}

    def grid(self, fidelity, overrides):
        return expand({"T": [SIZE], "alpha": ALPHAS[fidelity], "beta": [0.1], "dist": list(DISTRIBUTIONS)},
                      overrides)

    def privacy(self, point):
        return {"epsilon": None, "delta": None,
                "accounting": "idealised: the exact D~ stands for PMW with unlimited private data; no private "
                              "mechanism runs, so no privacy is spent or audited"}

    def n_range(self, point):
        return 2, 1 << 16

    def run_trials(self, point, n, trials, rng):
        return within(cover_error_line(point["dist"], point["T"], n, trials, rng), point["alpha"])
