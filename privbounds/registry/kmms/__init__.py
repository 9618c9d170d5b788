"""Kaplan, Mansour, Matias and Stemmer, "Differentially Private Learning of Geometric
Concepts" (ICML 2019, arXiv 1902.05017). Registered by section: tools.py (section 2: the
Laplace and exponential mechanisms, unions and intersections), setcover.py (section 3 and
the informal results of section 1: the Set Cover Learner, conjunctions and disjunctions),
halfplanes.py (section 4: Select Halfplane and convex polygons), polygons.py (section 5:
unions of polygons).

Numbering follows the ICML text; the unnumbered algorithms and remarks carry a short
name (alg_setcover, sec5_decomp)."""

from __future__ import annotations

from privbounds.registry import Paper

PAPER = Paper("kmms", "Kaplan, Mansour, Matias, Stemmer. Differentially Private Learning of Geometric "
                      "Concepts (ICML 2019)", figures="kmms.paper:plot")
