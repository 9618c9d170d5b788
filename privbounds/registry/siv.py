"""Sivakumar, "A Basic Overview of Private PAC Learning" (lecture notes, 2023): the
exponential-mechanism learner for finite classes (Thm 3.3) with its non-private
baselines (Thm 2.1, 2.2)."""

from __future__ import annotations

import math

from privbounds.bounds import sivakumar as siv_bounds
from privbounds.claims import UP_TO_LOGS, Scaling, UpperBound, use, where
from privbounds.registry import BOUND_ONLY, Paper, Theorem, entry

PAPER = Paper("siv", "Sivakumar. A Basic Overview of Private PAC Learning (lecture notes, 2023)")


def _h_size(p):
    return 2 ** p["d"] + 1 if p["class"] == "thresh" else 2 ** p["d"]


@entry("siv.thm3_3")
def _siv_thm3_3() -> Theorem:
    from privbounds.simulators.siv.thm3_3 import SivThm33

    claims = []
    for cls in ("thresh", "point"):
        name = "THRESH_d" if cls == "thresh" else "POINT_d"
        claims += [
            UpperBound(
                f"upper-expmech-{cls}",
                f"Exponential-mechanism learner on {name}: n_hat <= max(8/alpha, 4/(alpha eps))"
                " (ln|H| + ln(2/beta)) (proof's constants)",
                where(**{"class": cls, "learner": "expmech"}), ("d", "epsilon"),
                bound=use(siv_bounds.n_expmech_learner, h_size=_h_size)),
            Scaling(
                f"scaling-logH-{cls}",
                f"Exponential-mechanism learner on {name}, eps = 1: n_hat grows like ln|H| "
                "(predicted exponent 1 in ln|H|)",
                where(**{"class": cls, "learner": "expmech", "epsilon": 1.0}), ("d",),
                variable=lambda p: math.log(_h_size(p)), variable_name="ln|H|", predicted=1.0,
                tolerance=UP_TO_LOGS),
            Scaling(
                f"scaling-eps-{cls}",
                f"Exponential-mechanism learner on {name}, d = 10: n_hat grows like 1/eps "
                "(predicted exponent -1 in eps)",
                where(**{"class": cls, "learner": "expmech", "d": 10}), ("epsilon",),
                variable=lambda p: p["epsilon"], variable_name="epsilon", predicted=-1.0),
        ]
    claims += [
        UpperBound(
            "upper-erm-thresh",
            "Non-private ERM on THRESH_d (Thm 2.2): n_hat <= ln(2/beta)/alpha = 8.3, whatever the domain",
            where(**{"class": "thresh", "learner": "erm"}), ("d",),
            bound=use(siv_bounds.n_erm_threshold)),
        UpperBound(
            "upper-erm-point",
            "Non-private consistent ERM on POINT_d (Thm 2.1): n_hat <= (ln|H| + ln(1/beta))/alpha",
            where(**{"class": "point", "learner": "erm"}), ("d",),
            bound=use(siv_bounds.n_erm_finite, h_size=_h_size)),
    ]
    return Theorem(
        number="Theorem 3.3 (with Lemma 3.2; baselines Thm 2.1, 2.2)",
        title="Private PAC learner for finite classes via the exponential mechanism",
        statement=(
            "For a finite class H, the learner that outputs h with probability proportional to "
            "exp(eps * score(S, h) / 2), score = minus the number of misclassified examples, is "
            "eps-DP and PAC-learns H with n = O(log|H| / eps) samples (same result: Bun et al. "
            "Thm 2.22). Without privacy, ERM needs O(log|H|) samples (Thm 2.1), and O(1) for "
            "thresholds whatever the domain (Thm 2.2)."),
        math=("N(|H|, eps) = max(8/alpha, 4/(alpha eps)) (ln|H| + ln(2/beta)); "
              "at alpha = beta = 1/4: max(32, 16/eps)(ln|H| + ln 8). "
              "ERM: (ln|H| + ln(1/beta))/alpha; thresholds: ln(2/beta)/alpha."),
        simulator=SivThm33(), plotter="siv.thm3_3:plot", claims=claims,
        notes=(
            "Instances: THRESH_d under a 4-point cluster (target p3; only p2, p3, p4 are "
            "1/4-accurate); POINT_d with mass 1/2 on the target and 1/2 on a decoy. "
            "Errors are exact. The notes print the generalisation step's Chernoff exponent as "
            "n/8; the multiplicative Chernoff bound gives n/32, which our bound uses (the two "
            "agree for eps <= 1/2)."))



@entry("siv.thm2_1")
def _siv_thm2_1() -> Theorem:
    return Theorem(
        number="Theorem 2.1", title="Consistent ERM over a finite class",
        statement="Without privacy, any consistent learner over a finite class H PAC-learns it with "
                  "n = O(log|H|) samples.",
        math="n >= (ln|H| + ln(1/beta))/alpha (explicit: 4(ln|H| + ln 4) at alpha = beta = 1/4).",
        status=BOUND_ONLY, tested_by=("siv.thm3_3",),
        reason="Measured as the non-private baseline of Theorem 3.3: its claim upper-erm-point runs "
               "consistent ERM on POINT_d against this bound (bounds.sivakumar.n_erm_finite).")


@entry("siv.thm2_2")
def _siv_thm2_2() -> Theorem:
    return Theorem(
        number="Theorem 2.2", title="ERM for thresholds needs a constant number of samples",
        statement="Without privacy, thresholds on [0, 1] are PAC-learnable with O(1) samples, whatever "
                  "the domain.",
        math="n >= ln(2/beta)/alpha (about 8.3 at alpha = beta = 1/4).",
        status=BOUND_ONLY, tested_by=("siv.thm3_3",),
        reason="Measured as the non-private baseline of Theorem 3.3: its claim upper-erm-thresh runs "
               "ERM on THRESH_d against this bound (bounds.sivakumar.n_erm_threshold) for every d.")


@entry("siv.lem3_2")
def _siv_lem3_2() -> Theorem:
    return Theorem(
        number="Lemma 3.2", title="The exponential mechanism's utility tail",
        statement="The exponential mechanism outputs a hypothesis whose score falls short of the best "
                  "by more than 2 Delta (ln|H| + a)/eps with probability at most e^(-a).",
        math="P[score <= OPT - 2 Delta (ln|H| + a)/eps] <= e^(-a).",
        status=BOUND_ONLY, tested_by=("bns.prop3_8", "siv.thm3_3"),
        reason="The same statement as Bun-Nissim-Stemmer's Proposition 3.8, whose ceiling "
               "P[score <= OPT - D] <= |F| e^(-eps D/2) is measured there; Theorem 3.3's learner "
               "rests on it.")


@entry("siv.thm3_4")
def _siv_thm3_4() -> Theorem:
    return Theorem(
        number="Theorem 3.4", title="Thresholds over an infinite domain are not privately learnable",
        statement="No (1, o(1/n))-differentially private PAC learner for thresholds on [0, 1] exists, "
                  "with any finite number of samples.",
        math="via Theorem 3.5 and the Ramsey bound of Theorem 3.6: n >= log*|X| - O(1) on a domain X.",
        status=BOUND_ONLY,
        reason="An impossibility over an infinite domain: no experiment can show it as stated. Not "
               "measured yet: its finite shadow (n_hat of our private threshold learners as the "
               "domain grows) is not registered.")


@entry("siv.thm3_5")
def _siv_thm3_5() -> Theorem:
    return Theorem(
        number="Theorem 3.5", title="A private PAC learner gives a private empirical learner on 9n rows",
        statement="An (eps, delta)-private PAC learner with n samples yields a private empirical learner "
                  "on 9n samples, by running it on a subsample.",
        math="m = 9n (the same step as Bun-Nissim-Stemmer Theorem 2.24 with Lemma 2.25).",
        status=BOUND_ONLY, tested_by=("bns.thm2_24", "bns.lem2_25"),
        reason="The same reduction as Bun-Nissim-Stemmer's Theorem 2.24, measured there (database size "
               "against 9 n_alg5) together with the subsampling amplification of Lemma 2.25.")


@entry("siv.thm3_6")
def _siv_thm3_6() -> Theorem:
    return Theorem(
        number="Theorem 3.6", title="A hypergraph Ramsey bound",
        statement="A colouring with n colours and no monochromatic clique of size 15n forces |V| <= "
                  "tower_n(n), i.e. n >= log*|V|.",
        math="|V| <= tower_n(n).",
        status=BOUND_ONLY,
        reason="A combinatorial bound used in the proof of Theorem 3.4; there is nothing to sample. Not "
               "measured.")
