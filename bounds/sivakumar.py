"""Bounds from Sivakumar, "A Basic Overview of Private PAC Learning" (notes, 2023).

- Thm 2.1: consistent ERM over a finite class H.
- Thm 2.2: ERM for thresholds, O(1) samples.
- Thm 3.3 (with Lemma 3.2): the exponential-mechanism learner for a finite class
  (Kasiviswanathan et al.; the same result is Bun-Nissim-Stemmer Thm 2.22).

All constants are derived from the proofs' own steps; the derivations are in the
docstrings. ln is the natural logarithm.
"""

from __future__ import annotations

import numpy as np

from ._meta import EXACT, at_least, bound, positive, unit_open


@bound(EXACT, "Sivakumar Thm 3.3 with Lemma 3.2; constants derived from the proof")
def n_expmech_learner(h_size, epsilon, alpha=0.25, beta=0.25):
    """Sample size at which the exponential-mechanism learner is (alpha, beta)-accurate.

    N = max(8 / alpha, 4 / (alpha * epsilon)) * (ln|H| + ln(2 / beta)).

    Derivation (the proof's two steps, each allowed failure beta / 2):
    (i) generalisation: a hypothesis with err_D > alpha has err_S <= alpha / 2 with
        probability <= exp(-alpha n / 8) (multiplicative Chernoff, deviation 1/2);
        a union bound over H needs |H| exp(-alpha n / 8) <= beta / 2,
        i.e. n >= (8 / alpha)(ln|H| + ln(2 / beta));
    (ii) utility: realizable, so the best score is 0 and Lemma 3.2 with sensitivity 1
        and a = ln(2 / beta) puts the output's empirical error below
        2 (ln|H| + ln(2 / beta)) / (epsilon n) with probability >= 1 - beta / 2; this is
        <= alpha / 2 when n >= (4 / (alpha epsilon))(ln|H| + ln(2 / beta)).
    At alpha = beta = 1/4 this is max(32, 16 / epsilon)(ln|H| + ln 8). The notes print
    the Chernoff exponent as n / 8, which would give 8 (ln|H| + ln 8) for step (i); the
    multiplicative Chernoff bound gives n / 32, which is what we use. For
    epsilon <= 1/2 both readings give 16 (ln|H| + ln 8) / epsilon.
    """
    h = at_least("h_size", h_size, 1)
    eps = positive("epsilon", epsilon)
    a = unit_open("alpha", alpha)
    b = unit_open("beta", beta)
    return np.maximum(8.0 / a, 4.0 / (a * eps)) * (np.log(h) + np.log(2.0 / b))


@bound(EXACT, "Sivakumar Thm 2.1; constant derived from the proof's union bound")
def n_erm_finite(h_size, alpha=0.25, beta=0.25):
    """Consistent ERM over a finite class: |H| (1 - alpha)^n <= beta suffices, and
    (1 - alpha)^n <= exp(-alpha n), so N = (ln|H| + ln(1 / beta)) / alpha
    (4 (ln|H| + ln 4) at alpha = beta = 1/4)."""
    h = at_least("h_size", h_size, 1)
    a = unit_open("alpha", alpha)
    b = unit_open("beta", beta)
    return (np.log(h) + np.log(1.0 / b)) / a


@bound(EXACT, "Sivakumar Thm 2.2 ('roughly 10'); constant derived, proof omitted in the notes")
def n_erm_threshold(alpha=0.25, beta=0.25):
    """ERM for thresholds: failure needs no sample in the mass-alpha stretch on one side
    of the target, probability <= 2 (1 - alpha)^n <= 2 exp(-alpha n), so
    N = ln(2 / beta) / alpha, independent of the domain (4 ln 8 = 8.3 at 1/4, 1/4)."""
    a = unit_open("alpha", alpha)
    b = unit_open("beta", beta)
    return np.log(2.0 / b) / a
