"""Bassily et al., "Private Query Release Assisted by Public Data" (ICML 2020), Lemma 3.3
(from Alon, Bassily and Moran 2019) with Definition 2.1: a public sample of
O((d log(1/alpha) + log(1/beta)) / alpha) points makes the cover of Algorithm 3 an
alpha-cover, for every distribution.

Experiment: the public requirement m_hat(radius) = the smallest public sample size at
which the cover's radius, max_h Pr_D[h != h~(h)] with the algorithm's own map (agreement
on the public points), is at most ``radius`` with probability >= 1 - beta. The searched
size is m (the engine's "n" is the public sample here; there is no private data and
nothing to audit). Exact radii from the gaps between consecutive distinct public points
(pap_release.threshold_cover_radius, interval_cover_radius; equal to the brute-force
cover radius on small domains, tested). Classes: THR_4096 (d = 1) and INT_1024
(d = 2), each over the family uniform / geometric / Dirichlet; the claims take the
worst.
"""

from __future__ import annotations

from privbounds.params import Options
from privbounds.simulators.engine.simulator import expand
from privbounds.simulators.pap.common import PublicSampleSimulator, specs
from privbounds.simulators.pap.query_classes import DISTRIBUTIONS
from privbounds.simulators.pap.release import interval_cover_radius, threshold_cover_radius

SIZES = {"thr": 4096, "int": 1024}


class PapLem33(PublicSampleSimulator):
    theorem_id = "pap.lem3_3"
    tolerance = "radius"
    params = {"class": Options(("thr", "int")), **specs("T", "radius", "beta", "dist")}
    _radii = {"smoke": [0.2, 0.05], "quick": [0.2, 0.1, 0.05, 0.02],
              "full": [0.2, 0.1, 0.05, 0.02, 0.01]}

    def grid(self, fidelity, overrides):
        pts = []
        for cls, size in SIZES.items():
            pts += expand({"class": [cls], "T": [size], "radius": self._radii[fidelity], "beta": [0.1],
                           "dist": list(DISTRIBUTIONS)}, overrides)
        return pts

    def public_error(self, point, public, probs):
        return (threshold_cover_radius if point["class"] == "thr" else interval_cover_radius)(public, probs)
