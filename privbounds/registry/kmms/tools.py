"""Kaplan, Mansour, Matias and Stemmer, "Differentially Private Learning of Geometric
Concepts" (ICML 2019), section 2: the VC dimension of k-fold unions and intersections
(Observation 2.2), conjunctions and disjunctions as k-fold classes (Example 2.3), and the
two mechanisms the Set Cover Learner is built from (Theorem 2.4, Proposition 2.5).

The mechanisms are measured as the learner uses them (the same code: the project's
Laplace and exponential mechanisms, simulators/shared/mechanisms.py), each with a powered privacy
audit; the structural results are checked by unit tests (tests/kmms)."""

from __future__ import annotations

import math

from privbounds.bounds import kmms as kb
from privbounds.bounds import tools as tb
from privbounds.claims import Ceiling, use, where
from privbounds.registry import BOUND_ONLY, Theorem, entry


@entry("kmms.obs2_2")
def _obs2_2() -> Theorem:
    return Theorem(
        number="Observation 2.2", title="VC dimension of k-fold unions and intersections",
        statement="For every class H, VC(H^(OR k)) and VC(H^(AND k)) are O(k log(k) VC(H)) (standard; Eisenstat "
                  "and Angluin 2007 show the k log k is needed in general).",
        math="VC(H^(AND k)), VC(H^(OR k)) <= 2 VC(H) k log2(3k) (Blumer et al. 1989, Lemma 3.2.3; the explicit "
             "constant is not in the paper).",
        status=BOUND_ONLY, tested_by=("kmms.thm3_2", "kmms.thm3_5"),
        reason=("A combinatorial bound (bounds.kmms.vc_k_fold), not a sample complexity. tests/kmms/test_tools.py "
                "computes the VC dimension of CONJ_{k,d} and DISJ_{k,d} by brute force (d <= 5) and checks it "
                "against 2 VC(LIT_d) k log2(3k). Our explicit bounds for the Set Cover Learner use the finite "
                "class directly (h_fin is an AND of T' literals, at most (2d)^T' of them), which for LIT_d is the "
                "same order."))


@entry("kmms.ex2_3")
def _ex2_3() -> Theorem:
    return Theorem(
        number="Example 2.3", title="Conjunctions and disjunctions of literals are k-fold classes",
        statement="DISJ_{k,d} = (DISJ_{1,d})^(OR k) and CONJ_{k,d} = (CONJ_{1,d})^(AND k): a conjunction of at most "
                  "k literals is an AND of at most k members of the literal class LIT_d = CONJ_{1,d} = DISJ_{1,d}.",
        math="CONJ_{k,d} = LIT_d^(AND k), DISJ_{k,d} = LIT_d^(OR k); the empty AND is 1, the empty OR is 0.",
        status=BOUND_ONLY, tested_by=("kmms.thm3_5",),
        reason=("A structural identity, checked by tests/kmms/test_conjunctions.py: random targets of k literals "
                "evaluated on every point of {0,1}^d equal the AND / OR of their literal concepts (empty AND = 1, "
                "empty OR = 0), and the De Morgan map turns every CONJ run of the Set Cover Learner into the "
                "same DISJ run. Theorem 3.5's learners are the Set Cover Learner over LIT_d for both."))


@entry("kmms.thm2_4")
def _thm2_4() -> Theorem:
    from privbounds.simulators.kmms.thm2_4 import KmmsThm24

    def ceiling(reading):
        return use(kb.laplace_max_ceiling, draws=lambda p: p["n"],
                   ratio=lambda p, r=reading: math.log((4.0 if r == "safe" else 1.0) * p["n"] / p["beta"]))
    return Theorem(
        number="Theorem 2.4 (Dwork, McSherry, Nissim, Smith 2006)", title="The Laplace mechanism",
        statement="Lap(b) has density exp(-|x|/b)/(2b). For f of sensitivity s, f(S) + Lap(s/eps) is eps-DP. In the "
                  "Set Cover Learner: |S0| + Lap(b_L) each round, and T draws stay within Delta except with small "
                  "probability (Claim 3.1's event).",
        math="P[|Lap(b)| > t] = exp(-t/b); P[max_{j<=T} |w_j| > Delta] <= T exp(-Delta/b_L) = beta/4 at our SAFE "
             "Delta = b_L ln(4T/beta), beta at the paper-literal Delta = b_L ln(T/beta).",
        simulator=KmmsThm24(),
        claims=[
            Ceiling("tail-safe", "SAFE shift (ours, RECONSTRUCTED constant): P[max_{j<=T} |w_j| > b_L ln(4T/beta)] "
                    "<= T exp(-ln(4T/beta)) = beta/4, for T = 4 .. 64 draws at beta = 0.4 (the union of exact tails; "
                    "nearly tight)",
                    where(reading="safe"), ("reading",), bound=ceiling("safe")),
            Ceiling("tail-literal", "Paper-literal shift: P[max_{j<=T} |w_j| > b_L ln(T/beta)] <= beta, T = 4 .. 64 "
                    "at beta = 0.1",
                    where(reading="literal"), ("reading",), bound=ceiling("literal")),
        ],
        notes=("The engine's n is the number of draws T. The union bound over T exact tails is nearly tight "
               "(the true probability is 1 - (1 - beta'/T)^T, within beta'^2/2 of the ceiling), which is why the "
               "curve spends 2000 times the fidelity's trials per T and tests ceilings of 0.1 (SAFE at beta = 0.4): "
               "at the learner's beta/4 = 0.025 no affordable sample separates the two, and at T = 1 they are "
               "equal. The audit is the same Laplace call the learner makes, at b_L = 2."))


@entry("kmms.prop2_5")
def _prop2_5() -> Theorem:
    from privbounds.simulators.kmms.prop2_5 import KmmsProp25

    return Theorem(
        number="Proposition 2.5 (McSherry and Talwar 2007)", title="The exponential mechanism",
        statement="For a quality q of sensitivity 1, choosing h with probability proportional to exp(eps q(S, h)/2) "
                  "is eps-DP, and its output has q(S, h) <= max_f q(S, f) - lambda with probability at most "
                  "|H| exp(-eps lambda / 2).",
        math="Pr[q(h) <= max_f q(f) - lambda] <= |H| exp(-eps lambda / 2); here |H| = 2d = 128 literals and q the "
             "Set Cover Learner's min(#h_0(S0) - b_1/k, -#h_0(S1)).",
        simulator=KmmsProp25(),
        claims=[Ceiling("utility", "The learner's first selection over LIT_64 (decoy sample, 2000 examples, k = 4) at "
                        "eps = 1: P[q(h) <= max q - lambda] <= |H| exp(-eps lambda / 2)", lambda p: True, ("d",),
                        bound=use(tb.expmech_failure_ceiling, gap=lambda p: p["n"],
                                  candidates=lambda p: 2 * p["d"]))],
        notes=("The engine's n is the gap lambda. Inside the learner the density is exp(eta q) with eta = eps_hat/2 "
               "in this proposition's convention; the utility slack used by our bounds, lambda = ln(2T'|H|/beta)/eta, "
               "is this statement at failure beta/(2T')."))
