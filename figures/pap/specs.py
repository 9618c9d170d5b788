"""Figures of Bassily et al., "Private Query Release Assisted by Public Data" (ICML 2020),
declared for the one plotter (``figures.spec``): the public-only and private-only
baselines (pap.base_pub, pap.base_priv, pap.base_stumps), the cover's public requirement
(Lemma 3.3), PMW (Lemma 2.7), the public requirement against 1/alpha (Theorem 5.1), and
the violation rates of Lemma 5.3 and Remark 2.9. Every learner in its colour of this
paper (``LEARNERS``), one shade and marker of it per distribution; each claim's bound
dashed in its learner's colour (Lemma 2.7's in black: see ``_pmw``), references that are
not claims dotted."""

from __future__ import annotations

from privbounds.bounds import pap as pap_bounds
from privbounds.figures.spec import Axis, ClaimLine, Figure, Line, Panel, Reference, Series, inverse

base_pub = Figure((
    Panel(inverse("alpha"), title="public empirical means on THR_{T}", ylabel="public m_hat (no private data)",
          series=(Series(each="dist", learner="public-only", label="public only, {dist}"),),
          claims=(ClaimLine("upper", "2 ln(2(T+1)/beta)/alpha^2", "public-only", "--"),),
          fits=("scaling-alpha",)),
), width=9.0)

base_priv = Figure((
    Panel(Axis("T", "domain size T"), title="THR_T, alpha = {alpha}", ylabel="private n_hat (no public data)",
          series=(Series({"learner": "pmw"}, each="dist", learner="pmw", label="PMW over [T], {dist}"),
                  Series({"learner": "tree"}, each="dist", learner="tree", label="binary tree, {dist}")),
          claims=(ClaimLine("upper-pmw", "bound, PMW over [T]", "pmw", "--"),
                  ClaimLine("upper-tree", "bound, binary tree", "tree", "--")),
          fits=("scaling-domain-pmw",)),
), width=10.0)


def _cover(cls: str, title: str) -> Panel:
    """Lemma 3.3 on one class: the cover's public m_hat against 1/radius."""
    return Panel(
        inverse("radius", "1 / radius"), where={"class": cls}, title=title,
        ylabel="public m_hat (radius <= r w.p. >= 1 - beta)",
        series=(Series(each="dist", learner="public+private", label="cover (Alg 3's public part), {dist}"),),
        claims=(ClaimLine(f"upper-cover-{cls}", "our explicit m_cover", "public+private", "--"),),
        lines=(Line(pap_bounds.m_public_only, lambda p: (min(0.99, 2 * p["radius"]), p["beta"], p["T"] + 1),
                    "public-only uniform convergence at alpha = 2r (slope 2; reference)", "public-only", ":"),),
        fits=(f"scaling-radius-{cls}",))


lem3_3 = Figure((_cover("thr", "THR_{T} (d = 1)"), _cover("int", "INT_{T} (d = 2)")))


def _pmw(cls: str, title: str) -> Panel:
    """Lemma 2.7 on one class: PMW's private n_hat against 1/alpha. The bound is black,
    as the claims' ceilings of the figure's third panel: in PMW's colour it would read as
    the bound of the distribution drawn in that very shade."""
    return Panel(
        inverse("alpha"), where={"class": cls, "measure": "search"}, title=title, ylabel="private n_hat",
        series=(Series(each="dist", learner="pmw", label="PMW, {dist}"),),
        claims=(ClaimLine(f"upper-{cls}", "our explicit n_PMW (PMW, every distribution)", "k", "--"),),
        fits=(f"scaling-alpha-{cls}",))


lem2_7 = Figure((
    _pmw("thr", "PMW, THR_{T} over all of [{T}]"), _pmw("random", "PMW, random class 64 x 64"),
    # the rates at n = n_PMW against their ceilings (once a small-print footnote)
    Panel(kind="ceilings", ceilings=("failure-at-bound", "updates-slack"), labels=("dist",), ylabel="event rate",
          title="PMW on THR_256 at n = n_PMW", why="rates from 0 to their ceiling"),
), height=7.2, intervals="mixed")

thm5_1 = Figure((
    Panel(inverse("alpha"), title="E1, THR_2^20: public requirement against 1/alpha",
          ylabel="public m_hat (exact D~: unlimited private data)",
          series=(Series(each="dist", learner="public+private", label="measured m_hat, {dist}"),),
          claims=(ClaimLine("upper-public", "our explicit m_cover(alpha/2, beta, 1)", "public+private", "--"),),
          lines=(Line(pap_bounds.m_public_lower_mixture, lambda p: (p["alpha"],),
                      "1/(16 alpha): reconstructed constant of the lower bound (conditional, infinite domains only; "
                      "not a claim)", "gray", ":"),
                 Line(pap_bounds.m_public_only, lambda p: (p["alpha"], p["beta"], p["T"] + 1),
                      "public only, 2 ln(2(T+1)/beta)/alpha^2 (slope 2; reference)", "public-only", "-.")),
          fits=("scaling-alpha",)),
    # a finite domain's private-only cost, from the baseline's record when it was run
    Panel(Axis("T", "domain size T (no public data; from pap.base_priv)"), ylabel="private n_hat, alpha = 0.2",
          title="E2: on a finite domain a private-only release exists; it grows with T\n"
                "(the true private-only cost grows like log* T, invisible here)",
          references=(Reference("pap.base_priv", {"learner": "pmw"}, "pmw", "PMW over [T], worst distribution",
                                worst="dist"),
                      Reference("pap.base_priv", {"learner": "tree"}, "tree", "binary tree, worst distribution",
                                worst="dist"))),
), width=6.8, height=7.4)

lem5_3 = Figure((
    Panel(kind="ceilings", ceilings=("ceiling-excess-threshold", "ceiling-excess-interval"),
          labels=("dist",), ylabel="violation rate",
          title="Lemma 5.3's learner on THR_4096: P[excess error > 3 alpha/4] at Algorithm 3's sizes"),
), width=8.0, height=6.4, intervals="ceilings")

rem2_9 = Figure((
    Panel(kind="ceilings", ceilings=("ceiling-lp", "ceiling-rounded"), labels=("source",),
          ylabel="event rate",
          title="Remark 2.9 on THR_64: P[G alpha-accurate and (LP value > alpha | rows' error > 3 alpha)]"),
), width=8.0, height=6.4, intervals="ceilings")


def _stumps(mech: str, learner: str, ylabel: str, title: str) -> Panel:
    """A baseline of section 4 against the number of stumps p."""
    return Panel(
        Axis("p", "number of stumps p (dual VC dimension)"), where={"mechanism": mech}, title=title, ylabel=ylabel,
        series=(Series(each="dist", learner=learner, label=f"{title}, mu {{dist}}"),),
        claims=(ClaimLine(f"upper-{mech}", "our explicit bound", learner, "--"),),
        fits=(f"scaling-p-{mech}",))


base_stumps = Figure((
    _stumps("gauss", "gauss", "private n_hat (Gaussian release, no public data)", "Gaussian release"),
    _stumps("public", "public-only", "public m_hat (public means, no private data)", "public means"),
), height=6.8)
