"""Sivakumar, "A Basic Overview of Private PAC Learning" (lecture notes, 2023): the
exponential-mechanism learner for finite classes (Thm 3.3) with its non-private
baselines (Thm 2.1, 2.2)."""

from __future__ import annotations

import math

from privbounds.bounds import sivakumar as siv_bounds
from privbounds.claims import UP_TO_LOGS, Scaling, UpperBound, use, where
from privbounds.registry import Paper, Theorem, entry

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

