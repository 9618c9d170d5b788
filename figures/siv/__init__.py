"""Figures for Sivakumar's overview of private PAC learning: Theorem 3.3's figure
(thm3_3.py).

``LEARNERS``: colour (index into the seaborn colour-blind palette, or a colour) and
marker of each learner, the same in every figure (``common.learner_style("siv", name)``).
The non-private ERM learner is near-black (``common.NONPRIVATE``).
"""


LEARNERS = {
    "expmech": (0, "o"),  # the exponential-mechanism learner of Theorem 3.3
    "erm": ("nonprivate", "D"),  # non-private ERM (Theorems 2.1 and 2.2)
}
