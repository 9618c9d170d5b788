"""Figures of Bun, Nissim and Stemmer, "Simultaneous Private Learning of Multiple Concepts"
(ITCS 2016 / JMLR 2019), declared for the one plotter (``figures.spec``): n_hat against a
parameter over each claim's bound, in the learners' colours of this paper (``LEARNERS``)."""

from __future__ import annotations

from privbounds.bounds import bns
from privbounds.figures.common import NONPRIVATE
from privbounds.figures.spec import Axis, Figure, Line, Panel, Series, inverse

NHAT_PAR = "rows needed, n_hat (all k parities exact w.p. >= 1 - beta)"
NHAT_AGNOSTIC = "n_hat (all k within alpha of optimal w.p. >= 1 - beta)"

thm3_12 = Figure((
    Panel(Axis("k", "number of concepts k"), where={"d": 10}, ylabel=NHAT_PAR,
          title="PAR_10 under uniform; eps = {epsilon}, delta = {delta:g}, beta = {beta}",
          series=(Series(learner="Alg 4", label="Alg 4, (eps, delta)-DP", fit="scaling-k", bound="upper",
                         bound_text="Thm 3.12 bound (d + 3) T for Alg 4, independent of k"),),
          lines=(Line(bns.parity_packing_lower_bound, lambda p: (p["k"], 10, p["epsilon"], p["beta"]),
                      "Thm 5.4: every pure eps-DP learner needs (k d ln2 + ln(1-beta))/eps", "k", "-"),
                 Line(bns.n_nonprivate_k_learner, lambda p: (10, p["k"], 0.25, p["beta"]),
                      "Cor 2.12 bound for non-private ERM (alpha = 1/4; reference, not judged here)", NONPRIVATE))),
    Panel(Axis("d", "dimension d", "linear"), where={"k": 16}, ylabel="rows needed, n_hat",
          title="growth in d: linear through the block size s = d + 3",
          series=(Series(learner="Alg 4", label="Alg 4, k = 16", fit="scaling-d", bound="upper",
                         bound_text="Thm 3.12 bound (d + 3) T for Alg 4"),)),
))

lem3_7 = Figure((
    Panel(inverse("alpha"), ylabel=NHAT_AGNOSTIC, title="agnostic POINT_10 (instance of Cor 3.9)",
          series=(Series(each="rule", learner="Alg 2 + Alg 1, {rule}", label="Alg 2 + Alg 1, {rule}, k = {k}",
                         bound="upper", bound_text="Lemma 3.7 bound for Alg 2 + Alg 1, {rule}"),)),
), width=7.5, height=6.8)
