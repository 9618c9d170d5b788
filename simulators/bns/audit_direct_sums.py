"""Audit events of Algorithm 2's sanitizer (Bun, Nissim, Stemmer, "Simultaneous Private
Learning of Multiple Concepts", Lemma 3.7 / Cor 3.10 over the binary-tree threshold
sanitizer), shared by bns.thm5_1 (basic accounting) and bns.thm4_3 (advanced); the
audits of the direct sums themselves live beside their learners (bns/cor3_4.py,
bns/thm5_1.py, bns/fp_thresh.py, bns/fp_agnostic.py). engine/audit.py explains audits.

- ``tree_sanitizer_events``: the noisy dyadic node counts of ``sanitizers.tree_nodes``
  (what ``threshold_sanitizer`` and so ``alg2_thresholds`` compute first), eps_san-DP
  because a row touches one node per level and each of the L levels gets Lap(2L/eps_san)
  noise. D = one row at x = 0, D' = that row at x = |X| - 1: the two points share no
  node below the root, so 2L node counts move by 1, each costing eps_san / (2L). E = {on
  every level, the node of x = 0 reads >= 1 and the node of |X| - 1 reads <= 0}: on D
  each of the 2L conditions holds with probability exactly 1/2, on D' with
  e^(-eps_san / (2L)) / 2, so the log-ratio is exactly eps_san, on an event of
  probability 4^-L (1/256 on THRESH_16, 1/64 on THRESH_8). The audit is tight.

Algorithm 2's output thresholds are a coarse post-processing of these counts (running
maximum, clipping, rounding to multiples of alpha n / 8, then the exponential
mechanisms), so the sanitizer's share is audited on the counts it releases internally;
its label-only share is audited on the output (``thm5_1.alg2_label_events``).
"""

from __future__ import annotations

import numpy as np

from privbounds.simulators.bns.sanitizers import tree_nodes
from privbounds.simulators.engine.audit import NoiseSource, noise_sources
from privbounds.simulators.shared.learners import chunks


@noise_sources(NoiseSource("tree", "laplace", "privbounds.simulators.bns.sanitizers:tree_noise_scale",
                           what="Lap(2L/eps) on every node of the dyadic tree"))
def tree_sanitizer_events(budget, trials, rng, d, eps_san):
    """See the module docstring; the tree runs at eps_san * budget on |X| = 2^d."""
    X = 2 ** d
    out = []
    for at in (0, X - 1):
        hits = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 2 * X):
            b = sl.stop - sl.start
            hist = np.zeros((b, X))
            hist[:, at] = 1.0
            ok = np.ones(b, dtype=bool)
            for nodes in tree_nodes(hist, eps_san * budget, rng):  # level l: (b, X / 2^l)
                ok &= (nodes[:, 0] >= 1.0) & (nodes[:, -1] <= 0.0)
            hits[sl] = ok
        out.append(hits)
    return out[0], out[1]
