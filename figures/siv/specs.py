"""Figures of Sivakumar's overview of private PAC learning, declared for the one plotter
(``figures.spec``): Theorem 3.3's exponential-mechanism learner with the ERM baselines of
Theorems 2.1 and 2.2 (n_hat against ln|H| and against epsilon), and Theorem 3.4's finite
shadow (n_hat against b = log2|X|). Each learner in its colour (``LEARNERS``), the two
classes of Theorem 3.3 in two shades and markers of it; each claim's bound dashed in the
colour of the learner it bounds."""

from __future__ import annotations

import math

from privbounds.bounds.sivakumar import log_star
from privbounds.figures.spec import Axis, Figure, Line, Panel, Series


def _ln_h(p: dict) -> float:
    """ln|H|: |THRESH| = 2^d + 1, |POINT| = 2^d."""
    return math.log(2 ** p["d"] + 1 if p["class"] == "thresh" else 2 ** p["d"])


# a bound swept along ln|H| is evaluated at d = x / ln 2 (exact for POINT; for THRESH off
# by ln(1 + 2^-d), under 0.06 at the smallest d)
LN_H = Axis("d", "ln |H|  (domain 2^d, d = 4 ... 16)", "linear", of=_ln_h, inverse=lambda x: x / math.log(2))
NHAT = "samples needed, n_hat (success >= 1 - beta)"

thm3_3 = Figure((
    Panel(LN_H, title="epsilon = {epsilon:g}, alpha = {alpha}, beta = {beta}", ylabel=NHAT, series=(
        Series({"class": "thresh", "learner": "expmech", "epsilon": 1.0}, "expmech", "exp. mech., THRESH",
               fit="scaling-logH-thresh"),
        Series({"class": "point", "learner": "expmech", "epsilon": 1.0}, "expmech", "exp. mech., POINT",
               fit="scaling-logH-point", bound="upper-expmech-point", bound_text="Thm 3.3 bound, exp. mech."),
        Series({"class": "thresh", "learner": "erm"}, "erm", "non-private ERM, THRESH", bound="upper-erm-thresh",
               bound_text="Thm 2.2 bound, ERM on thresholds"),
        Series({"class": "point", "learner": "erm"}, "erm", "non-private ERM, POINT", bound="upper-erm-point",
               bound_text="Thm 2.1 bound, ERM on any finite H"))),
    Panel(Axis("epsilon", "privacy parameter epsilon", "log"), where={"d": 10, "learner": "expmech"},
          title="domain 2^{d}, alpha = {alpha}, beta = {beta}", ylabel=NHAT, series=(
              Series({"class": "thresh"}, "expmech", "exp. mech., THRESH", fit="scaling-eps-thresh",
                     bound="upper-expmech-thresh", bound_text="Thm 3.3 bound, exp. mech."),
              Series({"class": "point"}, "expmech", "exp. mech., POINT", fit="scaling-eps-point"))),
), height=7.2)

thm3_4 = Figure((
    Panel(Axis("b", "b = log2 |X| (grid of 2^b points)", "linear"), ylabel=NHAT, series=(
        Series({"learner": "pure"}, "pure", "pure eps-DP exp. mech.", fit="scaling-pure", bound="upper-pure",
               bound_text="bound, pure"),
        Series({"learner": "approx"}, "approx", "(eps, delta)-DP binary search (ours)", fit="scaling-approx",
               bound="upper-approx", bound_text="bound, approx"),
        # ERM's constancy is Thm 2.2's scaling claim (siv.thm2_2); here it is the baseline
        Series({"learner": "erm"}, "erm", "non-private ERM", bound="upper-erm", bound_text="bound, erm")),
          lines=(Line(log_star, lambda p: (2 ** p["b"],), "log*|X| (Thm 3.6, for scale)", "0.45", ":"),)),
), width=9.0, height=6.4)
