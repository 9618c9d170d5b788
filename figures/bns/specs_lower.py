"""Figures of Bun, Nissim and Stemmer, "Simultaneous Private Learning of Multiple Concepts"
(ITCS 2016 / JMLR 2019) declared for the one plotter (``figures.spec``): the tools whose
claims are success ceilings (Thm 2.16 composition, Lem 2.25 subsampling, Prop 3.8 the
exponential mechanism, Prop 3.11 A_dist) and the pure-DP packing lower bounds of Section 5
(Remark 5.2, Theorem 5.4): n_hat of the pure direct sum over the bound of the claim
"lower-nhat", one series per alpha or per d in the learner's hue."""

from __future__ import annotations

import math

from privbounds.bounds import bns
from privbounds.figures.spec import Axis, Figure, Line, Panel, Rows, Series, inverse


def _ceilings(claims: tuple[str, ...], xlabel: str, scale: str = "linear") -> Figure:
    """One panel per success-ceiling claim, against the result's own variable."""
    return Figure(tuple(Panel(Axis("n", xlabel, scale), kind="ceiling", claim=c) for c in claims),
                  height=6.8, intervals="ceilings")


thm2_16 = _ceilings(("ceiling-advanced",), "number of composed mechanisms k", "log2")
prop3_8 = _ceilings(("ceiling-utility",), "score gap D below the optimum")
prop3_11 = _ceilings(("ceiling-utility", "ceiling-privacy"), "gap q1 - q2 between the two best solutions")
lem2_25 = _ceilings(("ceiling-amplified",), "database size m (the inner learner sees n = 20 rows)", "log2")


BASIC = "direct sum, basic"  # Rem 5.2: basic composition of pure eps/k learners over POINT_4
PURE = "direct sum, pure"    # Thm 5.4: the pure direct sum over PAR_d (as in Ex 3.5)
K = Axis("k", "number of concepts k")

rem5_2 = Figure((
    Panel(K, ylabel="n_hat (every h_j alpha-accurate)", title="direct sum over POINT_4, eps = {epsilon}",
          series=(Series(each="alpha", least=2, learner=BASIC, label=BASIC + ", alpha = {alpha:g}",
                         fit="scaling-k-alpha{alpha:g}", bound="lower-nhat",
                         bound_text="lower bound (k ln2 + ln(1/2 - beta))/(4 alpha eps), alpha = {alpha:g}"),)),
    Panel(Axis("alpha", "accuracy alpha (P(x0) = 2 alpha)", "log"), where={"k": 16}, ylabel="n_hat",
          title="growth like 1/alpha",
          series=(Series(learner=BASIC, label=BASIC + ", k = {k}", fit="scaling-alpha", bound="lower-nhat",
                         bound_text="Rem 5.2 lower bound"),)),
), height=7.2)


K_FOR_D = 4  # the k of Thm 5.4's sweep over d (simulators/bns/packing.py, BnsThm54.K_FOR_D)
LN2 = math.log(2)


def _growth() -> Axis:
    """d ln 2 + ln(2k/beta), the variable of the claim "scaling-d" (the bound is drawn at the
    measured d only, so the axis needs no inverse)."""
    return Axis("d", "d ln 2 + ln(2k/beta), one point per d", "log",
                of=lambda p: p["d"] * LN2 + math.log(2 * p["k"] / p["beta"]))


thm5_4 = Figure((
    Panel(K, ylabel="n_hat (all k parities exact w.p. >= 1 - beta)", title="pure eps = {epsilon}, beta = {beta}",
          series=(Series(each="d", least=2, learner=PURE, label=PURE + ", PAR_{d}", fit="scaling-k-d{d}",
                         bound="lower-nhat", bound_text="Thm 5.4 bound (k d ln2 + ln(1-beta))/eps, d = {d}"),)),
    Panel(_growth(), where={"k": K_FOR_D}, ylabel="n_hat", title="growth in d",
          series=(Series(learner=PURE, label=PURE + ", k = {k}", fit="scaling-d", bound="lower-nhat",
                         bound_text="Thm 5.4 lower bound", smooth=False),)),
), height=7.0)


# --- Section 4: rows N* a private learner needs against the fingerprinting lower bounds -----

ROWS_TEXT = "rows N of the attack database (column n of the tables)"
ADVANCED = "direct sum, advanced"  # the learner of every search of Section 4 (column "directsum-advanced")


def _search(group: tuple[str, ...], label: str) -> Panel:
    """The success rates the N* search evaluated (the results rows), a curve per ``group``,
    each with the claim "lower-rows" at its setting as a vertical line."""
    return Panel(Axis("n", ROWS_TEXT, "log2", ticks="auto"), kind="ceiling", yscale="linear", group=group,
                 rows=(Rows({"experiment": "search"}, label, stat="p_hat"),),
                 marks="lower-rows", ylabel="P[every hypothesis alpha-accurate]",
                 title=f"success rates of the search of {ADVANCED}", why="a probability")


def _versus_alpha(name: str) -> Figure:
    """Remarks 4.4 / 4.8: N* against 1/alpha per number of users, over the lower bound."""
    return Figure((
        Panel(inverse("alpha"), ylabel="rows N* for accuracy 1 - beta", title="rows needed against accuracy (padded code)",
              series=(Series(each="users", learner=ADVANCED, label=f"N* of {ADVANCED}, n = {{users}} users",
                             bound="lower-rows", bound_text=f"lower bound N* >= {name}, n = {{users}} users"),)),
        _search(("users", "alpha"), "n = {users} users, alpha = {alpha:g}"),
    ), height=7.0)


def _shape(fn, per_alpha: float):
    """The lower bound's asymptotic shape ``fn(k)`` times 1 / (``per_alpha`` alpha)."""
    return Line(lambda k, alpha: fn(k) / (per_alpha * alpha), lambda p: (p["k"], p["alpha"]),
                "asymptotic shape of the bound (reference only)", "0.5", ":")


def _versus_k(fn, per_alpha: float, name: str) -> Figure:
    """Corollaries 4.6 / 4.10: N*(k) over the lower bound n_LB(k) / (c alpha), with its shape."""
    return Figure((
        Panel(K, ylabel="rows N*", title="rows needed against k, over the lower bound", lines=(_shape(fn, per_alpha),),
              series=(Series(learner=ADVANCED, label=f"N*(k) of {ADVANCED}", fit="scaling-k-learner",
                             bound="lower-rows", bound_text=f"lower bound {name}"),)),
        _search(("k",), "k = {k}"),
    ), height=7.6)


rem4_4 = _versus_alpha("n / (2 alpha)")
rem4_8 = _versus_alpha("n / alpha")
cor4_6 = _versus_k(bns.n_lb_thresh_asymptotic, 2, "n_LB(k) / (2 alpha)")
cor4_10 = _versus_k(bns.n_lb_agnostic_asymptotic, 1, "n_LB(k) / alpha")
