"""Figures of Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts":
one module per result (or group of results) and the paper's headline figures
(headline.py).

``LEARNERS`` gives each learner of the paper one colour and one marker, the same in every
figure (``figures.common.learner_style``; the learner's bound is dashed in its colour).
Colours are indices into ``common.PALETTE`` (seaborn "colorblind") or a colour string;
"nonprivate" is ``common.NONPRIVATE``. Learners drawn together (the headline figures, Thm 5.1,
the fingerprinting attacks) get well separated colours; a colour is reused only between
learners that never share a figure, and then the marker differs, so every learner stays
distinct in greyscale too.
"""

from __future__ import annotations

LEARNERS = {
    # non-private reference (Cor 2.12, Thm 2.7, the attacks' ERM)
    "non-private ERM": ("nonprivate", "o"),
    # direct sums (Obs 3.2, Cor 3.3, 3.4, Ex 3.5, Section 5); basic composition of pure
    # learners is the pure direct sum, hence its colour with another marker (PAR only)
    "direct sum, basic": (0, "s"),
    "direct sum, advanced": (2, "^"),
    "direct sum, pure": (0, "h"),
    "hash learner": (3, "v"),
    # Algorithm 2: one colour per accounting, the marker says which sanitizer
    "Alg 2 + Alg 1, basic": (4, "D"),
    "Alg 2 + Alg 1, advanced": (5, "P"),
    "Alg 2 + tree, basic": (4, "X"),
    "Alg 2 + tree, advanced": (5, "d"),
    "Alg 2 + BLR, basic": (4, "<"),
    "Alg 2 + BLR, advanced": (5, ">"),
    "Alg 2 + PMW, basic": (4, "8"),
    "Alg 2 + PMW, advanced": (5, "H"),
    # stability-based learners (never in one figure with each other)
    "Alg 4": (1, "p"),
    "Alg 5": (1, "*"),
    # single learners and sanitizers of Section 2
    "exponential-mechanism learner": (2, "o"),
    "BLR": (3, ">"),
    "PMW": (9, "<"),
    "Alg 1": (0, "D"),
    "Laplace histogram": (1, "s"),
    "tree sanitizer": (5, "X"),
    # Lemma 5.3's improper parity learner and its rounding
    "noisy-sign histogram": (9, "o"),
    "noisy-sign histogram, rounded": (3, "s"),
}
