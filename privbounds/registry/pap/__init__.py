"""Bassily, Cheu, Moran, Nikolov, Ullman and Wu, "Private Query Release Assisted by Public
Data" (ICML 2020, arXiv 2004.10941): the PAP bounds. Registered by section:
release.py (sections 2 and 3: the cover, PMW, Algorithm 3 and its baselines),
stumps.py (section 4: the decision-stumps lower bound and robust tracing),
public_lower.py (section 5: the public lower bound and its reductions).

Numbering: the text we work from lost every formula and mangled the numbers, so ids
follow the section and the position of each numbered item in it (thm3_1 = the first
numbered item of section 3)."""

from __future__ import annotations

from privbounds.registry import Paper

PAPER = Paper("pap", "Bassily, Cheu, Moran, Nikolov, Ullman, Wu. Private Query Release Assisted by "
                     "Public Data (ICML 2020)", figures="pap.paper:plot")
