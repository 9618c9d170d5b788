"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts" (ITCS 2016,
JMLR 2019). The paper's theorems are registered by section: preliminaries.py (section
2), upper_bounds.py (section 3 and Thm 1.1) with stability.py (its stability-based
learners), fingerprinting.py (section 4), packing.py
(section 5)."""

from __future__ import annotations

from privbounds.bounds import bns as bns_bounds
from privbounds.claims import UpperBound, use
from privbounds.registry import Paper

PAPER = Paper("bns", "Bun, Nissim, Stemmer. Simultaneous Private Learning of Multiple Concepts "
                     "(ITCS 2016, JMLR 2019)", figures="bns.headline:plot")


def alg2_upper(cid, select, keys):
    return UpperBound(
        cid,
        "Algorithm 2 over Algorithm 1: n_hat <= max(n_alg1(alpha/8, eps_san, delta_san, beta/3), "
        "(800/alpha^2) ln(12k/(alpha beta)), smallest n >= (8/(alpha eps0))(ln(n+1) + ln(3k/beta))) "
        "(the three events of Lemma 3.7 at alpha/4, beta/3)",
        select, keys,
        bound=use(bns_bounds.n_alg2_points))
