"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts",
Proposition 2.21: THRESH_X has an (eps, delta)-DP sanitizer with
n = 2^(O(log* |X|)) / (alpha eps) up to logarithmic factors (Bun, Nissim, Stemmer,
Vadhan 2015).

SUBSTITUTE of ours: that recursive construction is impractical and
its log* behaviour is invisible for |X| <= 2^64, so we simulate the pure eps-DP
binary-tree histogram instead (``sanitizers.tree_prefix_counts``), whose cost grows
like polylog |X|. Its claims are about the substitute; the paper's bound is drawn only
as a reference shape. Measured: the largest error over all |X| + 1 prefix (threshold)
queries, divided by n; the rows are uniform on X (the tree's noise does not depend on
the data, so neither does the error).

Privacy audit (engine/audit.py) of ``tree_prefix_counts``, the release ``run_trials``
measures: |X| = 4 (L = 2 noisy levels, Lap(2L/eps) = Lap(4/eps) per node), D = 5 rows
at each point, D' moves one row from point 0 to point 2. A prefix count [0, m) adds the
left-child nodes (m >> l) - 1 for the bits l of m, so the release holds the nodes {0},
{0, 1} and {2} (F(1), F(2), F(3) - F(2)); the move changes all three by one (and the
node {2, 3}, which no prefix uses). E = {F(1) >= 5, F(2) >= 10, F(3) - F(2) <= 5}: each
node lands on D's side with probability 1/2 on D and e^(-eps/4)/2 on D', a privacy loss
of 3 eps/4 exactly. (The tree's L1 sensitivity 2L = 4 counts the right children too;
the prefix counts only ever show (2L - 1)/(2L) of eps, 3/4 here.)
"""

from __future__ import annotations

import numpy as np

from privbounds.params import BETA, EPSILON, Interval
from privbounds.simulators.bns.sanitizers import tree_prefix_counts
from privbounds.simulators.engine.audit import AuditCase, NoiseSource, noise_sources
from privbounds.simulators.engine.simulator import Simulator, sweeps
from privbounds.simulators.shared.accuracy import within
from privbounds.simulators.shared.learners import chunks


@noise_sources(NoiseSource("tree", "laplace", "privbounds.simulators.bns.sanitizers:tree_noise_scale",
                           what="Lap(2L/eps) on every node of the dyadic tree"))
def tree_events(budget, trials, rng, epsilon, rows=5):
    """``tree_prefix_counts`` over |X| = 4 on D = (rows, rows, rows, rows) and on D' =
    (rows - 1, rows, rows + 1, rows); E = {F(1) >= rows, F(2) >= 2 rows,
    F(3) - F(2) <= rows} (module docstring)."""
    out = []
    for hist in ([rows, rows, rows, rows], [rows - 1, rows, rows + 1, rows]):
        F = tree_prefix_counts(np.broadcast_to(np.array(hist), (trials, 4)), epsilon * budget, rng)
        out.append((F[:, 1] >= rows) & (F[:, 2] >= 2 * rows) & (F[:, 3] - F[:, 2] <= rows))
    return out[0], out[1]


class BnsProp221(Simulator):
    theorem_id = "bns.prop2_21"
    params = {
        "d": Interval(1, 14, "both", integer=True),
        "alpha": Interval(0, 0.5, "right"),
        "epsilon": EPSILON,
        "beta": BETA,
    }
    _ds = {"smoke": [4, 8], "quick": [2, 4, 6, 8, 10, 12], "full": [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]}
    _alphas = {"smoke": [0.1], "quick": [0.2, 0.1, 0.05, 0.025], "full": [0.2, 0.1, 0.05, 0.025, 0.0125]}
    D_FOR_ALPHA = 8

    def grid(self, fidelity, overrides):
        base = {"epsilon": [1.0], "beta": [0.1]}
        return sweeps({"d": self._ds[fidelity], "alpha": [0.1], **base},
                      {"d": [self.D_FOR_ALPHA], "alpha": self._alphas[fidelity], **base}, overrides, ("d", "alpha"))

    def privacy(self, point):
        return {"epsilon": point["epsilon"], "delta": 0.0,
                "accounting": "substitute: binary-tree histogram, Lap(2 log2|X| / eps) per node (pure)"}

    def n_range(self, point):
        return 2, 1 << 22

    def audits(self):
        return [AuditCase("tree", "the binary-tree histogram (substitute sanitizer) at eps = 1, |X| = 4",
                          "5 rows at each point of X = {0, 1, 2, 3} versus one row moved from 0 to 2",
                          "F(1) >= 5, F(2) >= 10 and F(3) - F(2) <= 5 (all three changed nodes on D's side)",
                          1.0, 0.0, tree_events, {"epsilon": 1.0, "rows": 5}, trials=200_000)]

    def run_trials(self, point, n, trials, rng):
        X = 2 ** point["d"]
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 4 * X * (point["d"] + 2)):
            b = sl.stop - sl.start
            hist = rng.multinomial(n, np.full(X, 1.0 / X), size=b)
            F = np.concatenate([np.zeros((b, 1)), np.cumsum(hist, axis=1)], axis=1)
            err = np.abs(tree_prefix_counts(hist, point["epsilon"], rng) - F).max(axis=1) / n
            ok[sl] = within(err, point["alpha"])
        return ok
