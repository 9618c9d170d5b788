"""Figures for Bassily et al., "Private Query Release Assisted by Public Data" (ICML 2020):
most declared for the one plotter (specs.py), four bespoke (release.py: thm3_1,
public_lower.py: lem5_4, stumps.py: thm4_2 and thm4_3, each saying why), and the paper's
headline figure (paper.py).

``LEARNERS``: the colour (index into the seaborn colour-blind palette, or a colour) and
marker of every learner or release mechanism drawn in any figure of this paper, so a
learner looks the same in every figure (``common.learner_style("pap", name)``).
Non-private mechanisms are near-black (``common.NONPRIVATE``); learners drawn together
get well separated colours and distinct markers (readable in greyscale).
"""


LEARNERS = {
    # Algorithm 3 (public + private data) and its stumps counterpart alg_combo
    "public+private": (0, "o"),
    # the private-only baselines: PMW over [T], the binary tree, the Gaussian stumps release
    "pmw": (3, "s"),
    "tree": (4, "D"),
    "gauss": (1, "v"),
    # public data alone (empirical means), no private data
    "public-only": (2, "^"),
    # the other releases the tracing attack of Theorem 4.3 is run against
    "exact": ("nonprivate", "X"),
    "subsample": (6, "P"),
    "rounded": (5, "h"),
}
