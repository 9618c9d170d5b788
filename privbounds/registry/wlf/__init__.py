"""Wang, Lei, Fienberg, "Learning with Differential Privacy: Stability, Learnability and
the Sufficiency and Necessity of ERM Principle" (JMLR 17, 2016). The paper's results are
registered by theme: alg1.py (section 4: Algorithm 1, Theorem 19 and the consistency
chain), examples.py (the threshold problem and the examples of sections 3 and 4) and
privacy.py (subsampling, privacy implies stability, the (eps, delta) results and
high-confidence boosting)."""

from __future__ import annotations

from privbounds.registry import Paper

PAPER = Paper("wlf", "Wang, Lei, Fienberg. Learning with Differential Privacy: Stability, Learnability "
                     "and the Sufficiency and Necessity of ERM Principle (JMLR 17, 2016)")
