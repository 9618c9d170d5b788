"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts",
Theorem 3.12 with Algorithm 4: under the uniform distribution on {0,1}^d, k parities can
be learned exactly and simultaneously with (eps, delta)-DP from n = O((d / eps)
ln(1 / (beta delta))) examples, independent of k.

Experiment: x uniform on {0,1}^d, k independent uniform target parities, noiseless
labels. Algorithm 4 (``stability.alg4_parities``) with blocks of s = d + 3 rows and
T = floor(n / s) blocks. Success: A_dist releases a vector and it equals the k targets
(any other parity errs on exactly half the cube, so for alpha < 1/2 success means exact
recovery). The n_hat search runs over n; only multiples of s matter.
"""

from __future__ import annotations

import numpy as np

from privbounds.bounds.bns import alg4_block_size
from privbounds.params import APPROX_DELTA, BETA, EPSILON_AT_MOST_1, Interval
from privbounds.simulators.bns import gf2
from privbounds.simulators.bns.audit_stability import ADIST_CATCHES, ALG4_D, alg4_events
from privbounds.simulators.bns.stability import alg4_parities
from privbounds.simulators.engine.audit import AuditCase
from privbounds.simulators.engine.simulator import Simulator, sweeps
from privbounds.simulators.shared.learners import chunks


class BnsThm312(Simulator):
    theorem_id = "bns.thm3_12"
    params = {
        "d": Interval(2, 20, "both", integer=True),
        "k": Interval(1, 1 << 14, "both", integer=True),
        "epsilon": EPSILON_AT_MOST_1,
        "delta": APPROX_DELTA,
        "beta": BETA,
    }
    _ks = {"smoke": [1, 16, 256], "quick": [1, 4, 16, 64, 256, 1024],
           "full": [1, 4, 16, 64, 256, 1024, 4096]}
    _ds = {"smoke": [6], "quick": [4, 6, 8, 12, 16], "full": [4, 6, 8, 12, 14, 16, 18, 20]}
    K_FOR_D = 16  # k at which the d-scaling points run

    def grid(self, fidelity, overrides):
        base = {"epsilon": [1.0], "delta": [1e-6], "beta": [0.1]}
        return sweeps({"d": [10], "k": self._ks[fidelity], **base},
                      {"d": self._ds[fidelity], "k": [self.K_FOR_D], **base}, overrides, ("d", "k"))

    def check_point(self, point):
        super().check_point(point)
        # A_dist's privacy proof needs delta e^(eps/2) / 2 <= delta, i.e. eps <= 2 ln 2 (the
        # params cap eps at 1); approximate privacy needs delta < 1/n
        self.require_small_delta(point)

    def privacy(self, point):
        return {"epsilon": point["epsilon"], "delta": point["delta"],
                "accounting": "A_dist over the block solutions (stability: sensitivity-1 multiplicities)"}

    def audits(self):
        """Algorithm 4 is (eps, delta)-DP through A_dist alone (one changed row changes one
        block, so every solution's multiplicity moves by at most 1): the two halves of
        A_dist's proof (audit_stability.py), each on block databases of d = 3, k = 1.

        Top changes (the whole (eps, delta)): D has 2 blocks solved by parity "other", D'
        relabels one row and the blocks tie, a tie Alg 4 gives to "top" (the smaller hash
        key): {release "other"} has probability delta e^(eps/2) / 2 on D, none on D'.
        delta = 0.05 keeps delta below 1/n (n = 12 rows) and delta x trials large enough
        for power. Same top: g = floor((2/eps) ln(1/delta)) blocks of "top" on D (the
        doubled budget's threshold, delta = 1e-3 < 1/(6 g)), one of them turned into
        "other" on D': the gap drops by 2 and {release} has ratio exactly e^(eps/2)
        (e^eps doubled); declared eps/2, the noise's share, since doubled it cannot
        pass eps."""
        eps, d_tie, d_top = 1.0, 0.05, 1e-3
        g = int(np.floor(2 / eps * np.log(1 / d_top)))
        return [
            AuditCase("alg4-delta", f"Algorithm 4 (d = {ALG4_D}, k = 1) at eps = {eps:g}, delta = {d_tie:g}: "
                      "A_dist releases a top solution that changes between neighbours w.p. <= delta",
                      "2 blocks solved by parity 'other' versus 1 'other' and 1 'top' (one label changed; "
                      "the tie goes to 'top')", "parity 'other' is released", eps, d_tie, alg4_events,
                      {"epsilon": eps, "delta": d_tie, "blocks_d": ["other"] * 2, "blocks_d2": ["other", "top"],
                       "event": "release-other"}, trials=100_000,
                      uncaught={"adist": "a delta event: the declared budget never shows it (4,164 of 100,000 "
                                         "runs on D release 'other', 0.042 < delta = 0.05, D' never), and the gap "
                                         f"noise halved with the threshold kept releases it less often; "
                                         f"{ADIST_CATCHES}"}),
            AuditCase("alg4-same-top", f"Algorithm 4 (d = {ALG4_D}, k = 1) at eps = {eps:g}, delta = {d_top:g}, "
                      "top solution unchanged: A_dist's Lap(4/eps) on the gap (sensitivity 2) costs eps/2",
                      f"{g} blocks of parity 'top' versus {g - 1} and one 'other' (one label changed)",
                      "a parity is released (not bottom)", eps / 2, 0.0, alg4_events,
                      {"epsilon": eps, "delta": d_top, "blocks_d": ["top"] * g,
                       "blocks_d2": ["top"] * (g - 1) + ["other"], "event": "release"}, trials=20_000,
                      uncaught={"adist": f"the gap {g} is A_dist's threshold for the doubled budget (twice as "
                                         "far as declared), so as declared 259 of 20,000 runs on D release (eps_hat "
                                         "0.019 of 0.5) and with the gap noise alone halved (the threshold kept) "
                                         f"fewer do (-2.72); {ADIST_CATCHES}"}),
        ]

    def n_range(self, point):
        return alg4_block_size(point["d"]), 1 << 17

    def run_trials(self, point, n, trials, rng):
        d, k = point["d"], point["k"]
        s = alg4_block_size(d)
        if n < s:
            return np.zeros(trials, dtype=bool)
        w = gf2.words(k)
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, n * (w + 2)):
            b = sl.stop - sl.start
            targets = gf2.random_targets((b,), d, k, rng)            # (b, d, w)
            x = rng.integers(0, 2 ** d, size=(b, n))
            y = gf2.parity_labels(x, targets, d)                      # (b, n, w)
            released, sol = alg4_parities(x, y, d, s, point["epsilon"], point["delta"], rng)
            ok[sl] = released & np.all(sol == targets, axis=(1, 2))
        return ok
