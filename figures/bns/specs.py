"""Figures of Bun, Nissim and Stemmer, "Simultaneous Private Learning of Multiple Concepts"
(ITCS 2016 / JMLR 2019), Sections 2 and 3, declared for the one plotter
(``figures.spec``): n_hat against a parameter over each claim's bound, in the learners'
colours of this paper (``LEARNERS``). A bound drawn "for contrast" or "for scale" is
another theorem's and is not judged in that figure."""

from __future__ import annotations

from privbounds.bounds import bns
from privbounds.figures.common import NONPRIVATE
from privbounds.figures.spec import Axis, ClaimLine, Figure, Line, Panel, Series, Slope, domain, inverse
from privbounds.simulators.bns.thm2_18 import DOMAIN, SYNTH

NHAT_PAR = "rows needed, n_hat (all k parities exact w.p. >= 1 - beta)"
NHAT_AGNOSTIC = "n_hat (all k within alpha of optimal w.p. >= 1 - beta)"
NHAT_ACCURATE = "rows needed, n_hat (all k accurate w.p. >= 1 - beta)"
K = Axis("k", "number of concepts k")
COR_2_12 = "Cor 2.12 bound for non-private ERM ({what}; reference, not judged here)"


def _erm_reference(vc, what: str = "realizable", alpha=None) -> Line:
    """Cor 2.12's bound for non-private ERM on a class of VC dimension ``vc``, against k."""
    return Line(bns.n_nonprivate_k_learner,
                lambda p: (vc(p) if callable(vc) else vc, p["k"], alpha or p["alpha"], p["beta"]),
                COR_2_12.format(what=what), NONPRIVATE)


def _rules(learner: str, bound: str, text: str, fit: str | None = "scaling-k-{rule}") -> Series:
    """One series per composition rule (basic, advanced) of a k-learner, its bound marked
    with the learner's marker so that the two rules' bounds stay apart where they meet."""
    return Series(each="rule", learner=f"{learner}, {{rule}}", label=f"{learner}, {{rule}}", fit=fit, bound=bound,
                  bound_text=f"{text} for {learner}, {{rule}}", bound_marker=True)


# --- Section 2: single learners and sanitizers ------------------------------------------------

thm2_7 = Figure((
    Panel(inverse("alpha"), where={"class": "thresh"}, title="realizable, VC = 1", ylabel="n_hat",
          series=(Series(learner="non-private ERM", label="non-private ERM, consistent, THRESH_10",
                         fit="scaling-alpha", bound="upper", bound_text="Thm 2.7 bound for non-private ERM",
                         smooth=False),)),
    Panel(Axis("d", "d = VC(PAR_d)", "linear"), where={"class": "par"}, title="realizable, VC = d", ylabel="n_hat",
          series=(Series(learner="non-private ERM", label="non-private ERM, consistent, PAR_d (exact recovery)",
                         bound="upper", bound_text="Thm 2.7 bound for non-private ERM", smooth=False),)),
), height=6.8)

cor2_12 = Figure((
    Panel(K, ylabel=NHAT_ACCURATE,
          title="non-private ERM; THRESH, PAR: uniform D; POINT: 8 points of mass 1/8; alpha = {alpha}, beta = {beta}",
          series=tuple(Series(where={"class": cls}, learner="non-private ERM", label="non-private ERM, {class!u}_{d}",
                              fit=f"scaling-k-{cls}", bound=f"upper-erm-{cls}",
                              bound_text=f"Cor 2.12 bound for ERM on {cls.upper()} (VC = {vc})")
                       for cls, vc in (("thresh", "1"), ("point", "1"), ("par", "d")))),
), width=7.5, height=6.6)

thm2_18 = Figure((
    Panel(Axis("epsilon", "eps"), where={"alpha": 0.2}, ylabel="n_hat",
          title=f"thresholds over {DOMAIN} points, synthetic size {SYNTH}",
          series=(Series(learner="BLR", label="BLR, toy, alpha = 0.2", fit="scaling-eps", bound="upper-toy",
                         bound_text="Thm 2.18 toy bound for BLR", smooth=False),)),
    Panel(inverse("alpha"), where={"epsilon": 1.0}, ylabel="n_hat", title="accuracy",
          series=(Series(learner="BLR", label="BLR, toy, eps = 1", bound="upper-toy",
                         bound_text="Thm 2.18 toy bound for BLR", smooth=False),),
          lines=(Line(bns.n_blr_shape, lambda p: (p["alpha"], 1.0, 0.1, DOMAIN),
                      "Thm 2.18 shape, constant 1 (reference only)", "gray"),)),
), height=6.8)

thm2_19 = Figure((
    Panel(inverse("alpha"), where={"d": 4}, ylabel="n_hat", title="accuracy: |X| = 2^4",
          series=(Series(learner="PMW", label="PMW, thresholds over 2^4 points", fit="scaling-alpha", bound="upper",
                         bound_text="Thm 2.19 bound for PMW", smooth=False),)),
    Panel(domain("d", "domain size |X| (|C| = |X| + 1 thresholds)"), where={"alpha": 0.3}, ylabel="n_hat",
          title="domain: alpha = 0.3",
          series=(Series(learner="PMW", label="PMW, alpha = 0.3", bound="upper", bound_text="Thm 2.19 bound for PMW",
                         smooth=False),)),
), height=6.8)

prop2_20 = Figure((
    Panel(domain(), where={"alpha": 0.05},
          ylabel="rows needed, n_hat (all point queries within alpha w.p. >= 1 - beta)",
          title="alpha = {alpha}, eps = 1, delta = 1e-6 (Alg 1), beta = {beta}; Zipf(1.1) rows",
          series=(Series(where={"sanitizer": "alg1"}, learner="Alg 1", label="Alg 1", fit="scaling-X-alg1",
                         bound="upper-alg1", bound_text="Prop 2.20 bound for Alg 1 (no |X|)"),
                  Series(where={"sanitizer": "laplace"}, learner="Laplace histogram", label="Laplace histogram",
                         fit="scaling-X-laplace", bound="upper-laplace",
                         bound_text="bound (2/(alpha eps)) ln(|X|/beta) for the Laplace histogram"))),
    Panel(inverse("alpha"), where={"sanitizer": "alg1", "d": 16}, ylabel="rows needed, n_hat",
          title="accuracy: n_hat grows like 1/alpha (times ln n)",
          series=(Series(learner="Alg 1", label="Alg 1, |X| = 2^16", fit="scaling-alpha-alg1", bound="upper-alg1",
                         bound_text="Prop 2.20 bound for Alg 1"),)),
))

prop2_21 = Figure((
    Panel(domain(), where={"alpha": 0.1}, ylabel="n_hat (all prefix queries within alpha w.p. >= 1 - beta)",
          title="alpha = {alpha}, eps = {epsilon}, beta = {beta}",
          series=(Series(learner="tree sanitizer", label="SUBSTITUTE tree sanitizer", fit="scaling-L",
                         bound="upper-tree",
                         bound_text="the substitute's bound (2L^2/(alpha eps)) ln(2|X|/beta) for the tree sanitizer"),),
          lines=(Line(bns.n_thresh_sanitizer_paper, lambda p: (p["alpha"], p["epsilon"], 1e-6, p["beta"], 2.0 ** p["d"]),
                      "Prop 2.21 shape 8^(log*|X|) log*|X| ln(1/(a b delta))/(a eps), constant 1, delta = 1e-6 "
                      "(reference only)", "gray"),)),
    Panel(inverse("alpha"), where={"d": 8}, ylabel="n_hat", title="accuracy",
          series=(Series(learner="tree sanitizer", label="SUBSTITUTE tree sanitizer, |X| = 2^8", fit="scaling-alpha",
                         bound="upper-tree", bound_text="the substitute's bound for the tree sanitizer"),)),
))

thm2_22 = Figure((
    Panel(domain("d", "|C| = |X| (POINT_X)"), where={"epsilon": 1.0}, ylabel="n_hat",
          title="agnostic POINT instance of Cor 3.9, k = 1",
          series=(Series(learner="exponential-mechanism learner", label="exponential-mechanism learner, eps = 1",
                         fit="scaling-logC", bound="upper", bound_text="Thm 2.22 bound for the exponential mechanism",
                         smooth=False),)),
    Panel(Axis("epsilon", "eps"), where={"d": 10}, ylabel="n_hat", title="privacy",
          series=(Series(learner="exponential-mechanism learner", label="exponential-mechanism learner, |X| = 2^10",
                         fit="scaling-eps", bound="upper", bound_text="Thm 2.22 bound for the exponential mechanism",
                         smooth=False),)),
), height=6.8)

thm2_23 = Figure((
    Panel(Axis("epsilon", "privacy parameter eps"), ylabel="n_hat (within alpha of optimal w.p. >= 1 - beta)",
          title="agnostic POINT_10, noise 0.1; alpha = {alpha}, delta = {delta:g}, beta = {beta}",
          series=(Series(learner="Alg 2 + Alg 1, {rule}", label="Alg 2 + Alg 1, {rule}, k = {k}", fit="scaling-eps",
                         bound="upper", bound_text="Lemma 3.7 bound for Alg 2 + Alg 1, {rule} at k = {k}"),)),
), width=7.5, height=6.6)


# --- Section 3: k-learners ----------------------------------------------------------------------


def _alg2_toy(sanitizer: str, number: str) -> Figure:
    """Alg 2 over a toy sanitizer, both accountings: only the growth in k is claimed (the
    constants are hidden), so no bound is drawn."""
    return Figure((
        Panel(K, ylabel="n_hat", title=f"{number}: THRESH over 8 points, agnostic, alpha = 0.15",
              series=(Series(each="rule", learner=f"Alg 2 + {sanitizer}, {{rule}}",
                             label=f"Alg 2 + {sanitizer}, {{rule}} (toy)", fit="scaling-k-{rule}"),)),
    ), width=7.5, height=6.8)


thm3_1 = _alg2_toy("BLR", "Theorem 3.1")
lem3_6 = _alg2_toy("PMW", "Lemma 3.6")

obs3_2 = Figure((
    Panel(K, ylabel=NHAT_ACCURATE, title="exp.-mech. learner per concept on THRESH_8; total eps = 1, delta = 1e-6",
          series=(_rules("direct sum", "upper-{rule}", "Obs 3.2 bound"),)),
), width=7.5, height=6.6)

cor3_3 = Figure((
    Panel(K, where={"d": 16}, ylabel=NHAT_AGNOSTIC,
          title="agnostic POINT_16, pure eps = {epsilon}; SUBSTITUTE inner learner (hashing)",
          series=(Series(learner="hash learner", label="hash learner (pure direct sum)", fit="scaling-k"),),
          claims=(ClaimLine("lower-thm5_1", "Thm 5.1: every pure eps-DP learner needs (k ln2 + ln(1-beta))/eps"),)),
    Panel(domain(), where={"k": 16}, ylabel="n_hat", title="independent of the domain size",
          series=(Series(learner="hash learner", label="hash learner, k = 16", fit="scaling-X"),)),
))

cor3_4 = Figure((
    Panel(K, where={"d": 10}, ylabel=NHAT_AGNOSTIC,
          title="agnostic POINT_10 (instance of Cor 3.9); alpha = {alpha}, eps = {epsilon}",
          series=(_rules("direct sum", "upper", "Cor 3.4 bound"),)),
    Panel(domain(), where={"rule": "basic", "k": 16}, ylabel="n_hat", title="the direct sum pays for the domain",
          series=(Series(learner="direct sum, basic", label="direct sum, basic, k = 16", fit="scaling-X",
                         bound="upper", bound_text="Cor 3.4 bound for direct sum, basic (grows with ln|X|)"),),
          lines=(Line(bns.n_alg2_points, lambda p: (16, "basic", p["alpha"], p["epsilon"], p["delta"], p["beta"]),
                      "Cor 3.9 bound for Alg 2 + Alg 1, basic (no |X|; contrast, not judged here)",
                      "Alg 2 + Alg 1, basic"),)),
), height=7.2)

ex3_5 = Figure((
    Panel(K, where={"d": 8}, ylabel="n_hat (all k parities exact w.p. >= 1 - beta)",
          title="PAR_{d} under uniform; eps = {epsilon}, beta = {beta}",
          series=(Series(learner="direct sum, pure", label="direct sum, pure eps-DP", fit="scaling-k", bound="upper",
                         bound_text="Ex 3.5 upper bound for the pure direct sum"),),
          claims=(ClaimLine("lower-thm5_4", "Thm 5.4 lower bound (k d ln2 + ln(1-beta))/eps, any pure eps-DP learner"),),
          lines=(Line(bns.n_alg4_parities, lambda p: (p["d"], p["epsilon"], 1e-6, p["beta"]),
                      "Thm 3.12 bound for Alg 4, (eps, 1e-6)-DP, no k (contrast, not judged here)", "Alg 4"),)),
    Panel(Axis("d", "dimension d", "linear"), where={"k": 4}, ylabel="n_hat", title="growth in d",
          series=(Series(learner="direct sum, pure", label="direct sum, pure, k = 4", fit="scaling-d", bound="upper",
                         bound_text="Ex 3.5 upper bound for the pure direct sum"),),
          claims=(ClaimLine("lower-thm5_4", "Thm 5.4 lower bound"),)),
))

cor3_9 = Figure((
    Panel(K, where={"d": 10}, ylabel=NHAT_AGNOSTIC,
          title="agnostic POINT_10, noise 0.1; alpha = {alpha}, eps = {epsilon}, delta = {delta:g}",
          series=(_rules("Alg 2 + Alg 1", "upper", "Lemma 3.7 bound"),), lines=(_erm_reference(1),)),
    Panel(domain(), where={"rule": "basic", "k": 16}, ylabel="n_hat", title="independent of the domain size",
          series=(Series(learner="Alg 2 + Alg 1, basic", label="Alg 2 + Alg 1, basic, k = 16", fit="scaling-X",
                         bound="upper", bound_text="Lemma 3.7 bound for Alg 2 + Alg 1, basic (no |X|)",
                         smooth=False),)),
), height=7.2)

cor3_10 = Figure((
    Panel(K, ylabel=NHAT_AGNOSTIC,
          title="agnostic THRESH_{d}, noise 0.1; alpha = {alpha}, eps = {epsilon}, delta = {delta:g}; "
                "SUBSTITUTE tree sanitizer",
          series=(_rules("Alg 2 + tree", "upper", "Lemma 3.7 bound (tree sanitizer)"),),
          slopes=(Slope({"rule": "advanced"}, 0.5, "slope sqrt(k) (Cor 3.10), through the last advanced point"),
                  Slope({"rule": "advanced"}, 1 / 3, "slope k^(1/3) (Cor 4.6 lower bound), through the last advanced "
                        "point", (0, (1, 3)))),
          lines=(_erm_reference(1),)),
), width=7.8, height=7.4)

thm3_12 = Figure((
    Panel(K, where={"d": 10}, ylabel=NHAT_PAR, title="PAR_10 under uniform; eps = {epsilon}, delta = {delta:g}, "
                                                    "beta = {beta}",
          series=(Series(learner="Alg 4", label="Alg 4, (eps, delta)-DP", fit="scaling-k", bound="upper",
                         bound_text="Thm 3.12 bound (d + 3) T for Alg 4, independent of k"),),
          lines=(Line(bns.parity_packing_lower_bound, lambda p: (p["k"], 10, p["epsilon"], p["beta"]),
                      "Thm 5.4: every pure eps-DP learner needs (k d ln2 + ln(1-beta))/eps", "k", "-"),
                 _erm_reference(10, "alpha = 1/4", alpha=0.25))),
    Panel(Axis("d", "dimension d", "linear"), where={"k": 16}, ylabel="rows needed, n_hat",
          title="growth in d: linear through the block size s = d + 3",
          series=(Series(learner="Alg 4", label="Alg 4, k = 16", fit="scaling-d", bound="upper",
                         bound_text="Thm 3.12 bound (d + 3) T for Alg 4"),)),
))

thm3_13 = Figure((
    Panel(K, ylabel="n_hat (all k alpha-accurate w.p. >= 1 - beta)",
          title="POINT, realizable; alpha = {alpha}, eps = {epsilon}, delta = {delta:g}, beta = {beta}",
          series=(Series(each="d", learner="Alg 5", label="Alg 5, |X| = 2^{d}", fit="scaling-k-d{d}"),),
          claims=(ClaimLine("upper", "Thm 3.13 bound for Alg 5 (no k, no |X|)", "Alg 5", "--"),),
          lines=(Line(bns.packing_lower_bound, lambda p: (p["k"], p["epsilon"], p["beta"]),
                      "Thm 5.1: every pure eps-DP learner needs (k ln2 + ln(1-beta))/eps", "k", "-"),
                 _erm_reference(1))),
), width=7.5, height=7.0)

lem3_7 = Figure((
    Panel(inverse("alpha"), ylabel=NHAT_AGNOSTIC, title="agnostic POINT_10 (instance of Cor 3.9)",
          series=(Series(each="rule", learner="Alg 2 + Alg 1, {rule}", label="Alg 2 + Alg 1, {rule}, k = {k}",
                         bound="upper", bound_text="Lemma 3.7 bound for Alg 2 + Alg 1, {rule}"),)),
), width=7.5, height=6.8)
