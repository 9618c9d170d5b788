"""Figures of Wang, Lei and Fienberg, "Learning with Differential Privacy" (JMLR 2016),
declared for the one plotter (``figures.spec``): Algorithm 1's consistency chain (Theorems
7, 19, 35, Corollary 9, Example 20, Lemmas 36, 37, 38), the subsampling and
privacy-to-stability lemmas (Lemmas 4, 8, 29, 30, 31, 34), boosting (Theorem 25) and
Example 22. Each panel is a mean bound (or success ceiling) against n or the parameter
the result is about; a colour is one setting of the ``group`` parameters in the whole
figure, and the legend names only those (the figure's subtitle states the fixed ones)."""

from __future__ import annotations

from privbounds.bounds import wlf as B
from privbounds.figures.common import NONPRIVATE
from privbounds.figures.spec import Axis, Figure, Line, Panel, Parts, Rows

N = Axis("n", "n", "log")
EPS = Axis("epsilon", "eps (declared)", "log")
GAMMA = Axis("gamma", "subsampling rate gamma", "log", ticks="measured")
MEANS = {"width": 6.2, "height": 6.4, "intervals": "means"}
SCHEDULE = ("schedule", "epsilon")  # eps fixed, or the schedule eps(n) of Example 20


def _mean(claims, **kw) -> Panel:
    """A mean-bound panel of these claims (the measured values drawn once, the bounds by style)."""
    return Panel(kw.pop("x", N), kind="mean", curves=tuple(claims), **kw)


# --- Algorithm 1: rates, privacy loss, stability (section 4) ------------------------------------

thm19 = Figure((
    _mean(["upper-eq11"], where={"regulariser": "none"}, each="dist", group=SCHEDULE, ylabel="mean excess risk"),
    _mean(["upper-eq11"], where={"regulariser": "sqrt"}, each="dist", group=SCHEDULE, ylabel="mean excess risk"),
    _mean(["upper-eq11-corrected"], each="dist", group=SCHEDULE, ylabel="mean excess risk"),
), **MEANS)

ex20 = Figure((_mean(["upper-ex20"], each="dist", group=("bits",), ylabel="mean excess risk"),), **MEANS)

SIGNED = {"yscale": "linear", "why": "the gap takes both signs"}

thm7 = Figure((
    _mean(["aerm"], each="dist", ylabel="mean AERM gap"),
    _mean(["generalises"], each="dist", ylabel="mean generalisation gap", **SIGNED),
    _mean(["consistent"], each="dist", ylabel="mean excess risk"),
), **MEANS)

lem36 = Parts((("upper-utility", Figure((
    _mean(["upper-utility"], each=("bits", "dist"), group=("epsilon", "regulariser"),
          ylabel="mean utility gap E F - F*"),), **MEANS)),))

lem37 = Parts(tuple((c, Figure((
    _mean([c], each=("bits", "dist"), group=("schedule", "regulariser"), ylabel="mean AERM gap"),), **MEANS))
    for c in ("upper-corrected", "upper-printed")))

alg1 = Figure(tuple(_mean([c], each="dist", group=("epsilon",), ylabel="largest privacy loss", bound_texts=(t,))
                    for c, t in (("privacy-loss-paper", "eps/2 (Delta q = 2/n)"), ("privacy-loss-true", "eps"))),
              **MEANS)

cor9 = Parts((
    ("excess-risk", Figure((_mean(["upper-nominal", "upper-realised"], each=("bits", "dist"), group=SCHEDULE,
                                  ylabel="mean excess risk",
                                  bound_texts=("rate at the nominal eps", "rate at the realised eps/2")),), **MEANS)),
    ("stability", Figure((_mean(["stability-expm1", "stability-linear"], each="dist", group=SCHEDULE,
                                ylabel="largest replace-one stability",
                                bound_texts=("e^eps - 1", "2 eps")),), **MEANS)),
))

_CHAIN = (Rows({"experiment": "mean", "quantity": "stability"}, "largest stability ST_max", "max", 0, "s", "--"),
          Rows({"experiment": "mean", "quantity": "symmetrised_gap"}, "mean generalisation gap GG (replace-one form)",
               color=1),
          Rows({"experiment": "mean", "quantity": "aerm_gap"}, "mean AERM gap AG", color=2, marker="^"),
          Rows({"experiment": "mean", "quantity": "excess_risk"}, "mean excess risk ER", color=3, marker="v"))

thm35 = Parts((
    ("chain", Figure((Panel(N, kind="mean", rows=_CHAIN, each=("dist", "schedule", "epsilon"), ylabel="value",
                            title="|GG| <= ST_max, ER <= GG + AG: dist={dist}, schedule={schedule}"),), **MEANS)),
    (None, Figure(tuple(_mean([c], each="dist", group=("schedule",),
                              **(SIGNED if c == "gen-gap" else {}))
                        for c in ("stability", "gen-gap-symmetrised", "gen-gap", "consistency")), **MEANS)),
))

lem38 = Figure((
    _mean(["tail-subset"], x=Axis("tau", "tau (n = ceil(12 log(4/beta)/tau^2))", "linear"),
          measured="measured, private subset query", bound_texts=("beta",), yscale="linear", ylim=(-0.05, 1.05),
          ylabel="P[|E_D phi - mean_Z phi| >= tau]",
          rows=(Rows({"learner": "subset_argmax"}, "non-private maximiser (the sample's support; no claim)",
                     color=NONPRIVATE, marker="s", style=":"),)),
), width=7.5, height=6.0, intervals="means")

# --- subsampling and privacy to stability (section 5, appendix) ----------------------------------


def _identity(eps):
    return eps


def _zero(n):
    return 0.0


lem34 = Figure((
    _mean(["exact-form", "stated", "tight-reference"], x=GAMMA, group=("epsilon",), reduce="max",
          measured="largest exact loss", ylabel="privacy loss eps' of the subsampled geometric count",
          bound_texts=("the proof's exact form", "2 gamma (e^eps - e^-eps) (stated)",
                       "log(1 + gamma (e^eps - 1)) (tight, not the paper's)"), title="subsampled geometric count"),
), width=8.0, height=6.0, intervals="means", what="largest exact loss over n and the pairs tried")

lem29 = Figure((
    _mean(["exact", "stated"], reduce="max", measured="exact count on floor(sqrt n) rows: largest TV",
          ylabel="delta at eps = 0 (TV), exact",
          bound_texts=("floor(sqrt n)/n (the proof)", "1/sqrt n (stated)")),
), width=7.0, height=5.2, intervals="means", what="largest value over the neighbouring pairs tried")

lem31 = Figure(tuple(
    _mean([c], x=GAMMA, group=("sigma", "epsilon"), reduce="max", measured="largest exact delta",
          ylabel="delta of the subsampled count", bound_texts=(t,), title=title)
    for c, t, title in (("stated", "gamma e^eps delta (stated)", "at eps' = log(1 + gamma e^eps (e^eps - 1))"),
                        ("tight-reference", "gamma delta (tight; not the paper's)",
                         "at log(1 + gamma (e^eps - 1))"))),
    width=6.4, height=5.6, intervals="means", what="largest over n and the pairs tried")

lem8 = Figure((
    _mean(["expm1", "linear", "tanh"], x=EPS, group=("learner",), reduce="max",
          measured="{learner}: largest exact stability", ylabel="RO-stability (exact; largest over n and pairs)",
          ylim=(None, 1.5),
          bound_texts=("e^eps - 1 (Lemma 8)", "2 eps (eps <= 1)", "tanh(eps/2) (TV limit; not the paper's)"),
          lines=(Line(B.alg1_realised_tv, lambda p: (p["epsilon"],), "tanh(eps/4) (Alg 1's realised eps/2)",
                      "grey", ":"),)),
    _mean(["alg1-realised-tv"], x=EPS, group=("n",), measured="Alg 1, n = {n}: largest exact stability",
          ylabel="RO-stability of Alg 1 (exact)", bound_texts=("tanh(eps/4) (realised eps/2)",)),
    _mean(["alg1-realised-privacy"], x=Axis("epsilon", "nominal eps of Algorithm 1", "log"), group=("n",),
          measured="Alg 1, n = {n}: largest privacy loss", ylabel="max_h |ln p(h) - ln p'(h)|",
          bound_texts=("eps/2 (realised with Delta q = 2/n)",),
          lines=(Line(_identity, lambda p: (p["epsilon"],), "eps (nominal)", "grey", ":"),)),
), width=6.4, height=5.6, intervals="means")

lem30 = Figure((
    _mean(["profile", "typical"], x=Axis("sigma", "sigma of the discrete Gaussian noise", "log2"),
          group=("learner",), reduce="max", measured="{learner}: largest exact TV", ylabel="RO-stability = TV (exact)",
          bound_texts=("min over its profile of e^eps - 1 + delta", "e^eps - 1 + delta at delta = 1e-5")),
), width=7.5, height=5.6, intervals="means")

lem4 = Figure((
    _mean(["privacy-stated", "privacy-exact-form"], group=("epsilon",), reduce="max", measured="largest exact loss",
          x=Axis("n", "n (the count runs on floor(sqrt n) rows)", "log"), ylabel="privacy loss eps",
          bound_texts=("(2/sqrt n)(e^eps - e^-eps) (stated)", "Lemma 34's exact form at floor(sqrt n)/n"),
          title="privacy of the sqrt(n)-subsample"),
    _mean(["rate-at-sqrt-n"], measured="Alg 1 on floor(sqrt n) of n rows", bound_texts=("xi(floor(sqrt n)) (ours)",),
          group=("learner",),  # the two learners in their colours of this paper
          rows=(Rows({"measure": "excess_risk_base"}, "Alg 1 on floor(sqrt n) fresh rows"),),
          ylabel="mean excess risk (eps = 1, exact over h)",
          title="rate at sqrt(n): ER_sub(n) and ER_base(floor(sqrt n))"),
    Panel(N, kind="mean", yscale="linear", ylabel="ER_sub(n) - ER_base(floor(sqrt n))",
          rows=(Rows({"measure": "excess_risk_difference"}, "mean difference (95% band)", marker="s"),),
          lines=(Line(_zero, lambda p: (p["n"],), "0: equal in distribution", "grey", "-"),),
          title="difference of the two means (a check of the simulator)", why="it crosses 0"),
), width=6.2, height=5.2, intervals="means")

# --- boosting and examples ----------------------------------------------------------------------

thm25 = Figure((
    Panel(Axis("beta", "delta (failure probability; beta in the points)", "log"), kind="ceiling",
          curves=("failure",), group=("n",), yscale="linear", measured="failure frequency, n = {n}", dodge=0.04,
          bound_texts=("ceiling: delta (Theorem 25's failure probability; 1 where the bound is >= 1)",),
          ylabel="P[R(h) - R* > the proof's bound]"),
), width=7.5, height=5.6, intervals="ceilings")

ex22 = Figure((
    _mean(["upper-rate"], group=("d",), ylabel="mean excess risk"),
    Panel(N, kind="mean", group=("d",), yscale="linear", ylabel="P(stage (i) picks the true support)",
          rows=(Rows({"quantity": "true_support", "experiment": "mean"}, "measured mean"),),
          title="true support (no bound claimed)", why="a probability"),
), width=6.0, height=6.0, intervals="means")


lem10 = Figure((
    _mean(["always-aerm"], group=("dataset",), ylabel="mean AERM gap on Z (subsampled)",
          bound_texts=("2 xi(floor(sqrt n))",)),
), width=7.5, height=6.6, intervals="means")
