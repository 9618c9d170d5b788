"""Figures for Kaplan, Mansour, Matias and Stemmer, "Differentially Private Learning of
Geometric Concepts" (ICML 2019): the special figures of its theorems and the paper's
headline figure (paper.py).

``LEARNERS``: colour (index into the seaborn colour-blind palette, or a colour) and
marker of every learner drawn in any figure of this paper, so a learner looks the same in
every figure (``common.learner_style("kmms", name)``). The improved set-cover learner is
one learner whatever its selection step (Select Halfplane for k-gons, the surrogate
selection for unions of polygons); non-private learners are near-black or grey
(``common.NONPRIVATE``, the greedy cover a mid grey), each grey one learner.
"""


LEARNERS = {
    # the improved Set Cover Learner (Thm 3.5, and with Select Halfplane / surrogate selection, Thms 4.7 and 5.1)
    "setcover": (0, "o"),
    # the same learner at the paper-literal constants
    "setcover-literal": (4, "v"),
    # the composition baselines of Example 3.3 (also the baseline of Thm 5.1)
    "advanced": (2, "^"),
    "basic": (3, "<"),
    # the exponential mechanism over all hypotheses (Thm 3.2)
    "argmax": (1, "P"),
    # non-private: the classical learner of Section 1.1 and the greedy cover ...
    "nonprivate": ("nonprivate", "D"),
    "greedy": ("0.4", "s"),
    # ... and the convex hull of the positives, drawn beside the greedy cover, so a lighter grey
    "hull": ("0.5", "X"),
}
