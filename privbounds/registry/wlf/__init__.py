"""Wang, Lei, Fienberg, "Learning with Differential Privacy: Stability, Learnability and
the Sufficiency and Necessity of ERM Principle" (JMLR 17, 2016). The paper's results are
registered by theme: characterisation.py (sections 2-3: private learnability, AERM,
stability), alg1.py (section 4: Algorithm 1 and its examples), practical.py (section 5),
approximate.py (section 6: (eps, delta)-DP) and appendix.py (the appendix lemmas),
subsampling.py (the subsampling lemmas, whichever section states them)."""

from __future__ import annotations

from privbounds.registry import Paper

PAPER = Paper("wlf", "Wang, Lei, Fienberg. Learning with Differential Privacy: Stability, Learnability "
                     "and the Sufficiency and Necessity of ERM Principle (JMLR 17, 2016)")
