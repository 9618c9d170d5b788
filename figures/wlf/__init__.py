"""Figures for Wang, Lei and Fienberg's "Learning with Differential Privacy".

``LEARNERS``: colour (index into the seaborn colour-blind palette, or a colour) and
marker of each learner, the same in every figure (``common.learner_style("wlf", name)``).
Non-private learners are near-black (``common.NONPRIVATE``).
"""

LEARNERS = {
    "alg1": (0, "o"),  # Algorithm 1: exponential mechanism for (regularised) ERM
    "alg1_sub": (1, "s"),  # Algorithm 1 run on a random subsample (Lemmas 4, 10)
    "boost": (2, "^"),  # high-confidence boosting (Theorem 25)
    "two_stage": (3, "v"),  # best subset selection (Example 22)
    "net": (4, "P"),  # Algorithm 1 on a data-independent cover (Example 24)
    "geometric": (5, "X"),  # two-sided geometric count mechanism (subsampling lemmas)
    "gaussian": (6, "D"),  # discrete Gaussian count mechanism ((eps, delta) lemmas)
    "geometric_sub": (5, "x"),  # the geometric count on a random subsample
    "gaussian_sub": (6, "d"),  # the discrete Gaussian count on a random subsample
    "laplace_mean": (9, "p"),  # Laplace-perturbed mean (Laplace-perturbed ERM for squared loss)
    "subsample": (7, "h"),  # a non-private statistic on a random subsample (Lemma 29, Prop 33)
    "erm": ("nonprivate", "D"),  # non-private ERM
    "support_erm": ("nonprivate", "s"),  # Example 16: output the observed points
    "empty": (8, "<"),  # Example 17: always the empty set
}
