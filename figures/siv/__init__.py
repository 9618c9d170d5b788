"""Figures for Sivakumar's overview of private PAC learning: Theorems 3.3 and 3.4 declared
for the one plotter (specs.py), Lemma 3.2's tail curves (lem3_2.py, bespoke); Theorems
2.1, 2.2 and 3.5 use the generic plotter.

``LEARNERS``: colour (index into the seaborn colour-blind palette, or a colour) and
marker of each learner, the same in every figure (``common.learner_style("siv", name)``).
The non-private ERM learner is near-black (``common.NONPRIVATE``).
"""


LEARNERS = {
    "expmech": (0, "o"),  # the exponential-mechanism learner of Theorem 3.3
    "erm": ("nonprivate", "D"),  # non-private ERM (Theorems 2.1 and 2.2)
    "pure": (0, "o"),  # Thm 3.4: the exponential mechanism over thresholds (the same learner as expmech)
    "approx": (2, "^"),  # Thm 3.4: our (eps, delta)-DP private binary search
}
