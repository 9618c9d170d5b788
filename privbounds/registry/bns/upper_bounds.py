"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts", section 3:
upper bounds for private k-learning (direct sums, Algorithm 2 over sanitizers), and
Theorem 1.1 that summarises them; the stability-based learners (A_dist, the k-free
Algorithms 4 and 5) are in stability.py."""

from __future__ import annotations

import math

from privbounds.bounds import bns as bns_bounds
from privbounds.bounds import tools
from privbounds.claims import UP_TO_LOGS, Ceiling, LowerBound, Scaling, UpperBound, use, where
from privbounds.registry import SUMMARY, Theorem, entry
from privbounds.registry.bns import alg2_upper


def _generic_alg2_claims(name):
    claims = []
    for rule, pred in (("basic", 1.0), ("advanced", 0.5)):
        claims.append(Scaling(
            f"scaling-k-{rule}",
            f"Algorithm 2 over {name}, {rule} accounting, k >= 16: n_hat / ln(9k/beta) grows like k^{pred:g}. "
            "An upper bound: Lemma 3.7 is Algorithm 2's guarantee; the matching lower bounds are proved "
            "on other instances (Theorem 5.1, Corollary 4.10)",
            lambda p, r=rule: p["rule"] == r and p["k"] >= 16, ("k",), variable=lambda p: p["k"],
            variable_name="k", predicted=pred, factor=lambda p: math.log(9 * p["k"] / p["beta"]),
            factor_name="ln(9k/beta)", tolerance=UP_TO_LOGS, direction="upper"))
    return claims


@entry("bns.thm1_1")
def _bns_thm1_1() -> Theorem:
    return Theorem(
        number="Theorem 1.1 (informal)",
        title="Sanitize once, then pay VC(C) per concept",
        statement=(
            "If C has an eps-DP sanitizer needing m rows, then C has an eps-DP agnostic k-learner "
            "needing about m + k VC(C) rows; with an (eps, delta)-DP sanitizer, an (eps, delta)-DP "
            "agnostic k-learner needing about m + sqrt(k) VC(C) rows. The per-concept cost is VC(C), "
            "not log|C| as in the direct sum."),
        math="n = O~(m + k VC(C)) (pure); n = O~(m + sqrt(k) VC(C)) (approximate); O~ hides alpha, beta, "
             "eps, delta and logarithmic factors.",
        status=SUMMARY,
        reason=("An informal summary of Lemma 3.7 (Algorithm 2) and Theorem 3.1 with hidden constants: "
                "it has no experiment of its own. Its content, one sanitization plus k exponential "
                "mechanisms whose cost grows like k (basic) or sqrt(k) (advanced), is measured by the "
                "entries named here, with Lemma 3.7's explicit bound."),
        tested_by=("bns.lem3_7", "bns.cor3_9", "bns.cor3_10", "bns.thm3_1", "bns.lem3_6"))


@entry("bns.thm3_1")
def _bns_thm3_1() -> Theorem:
    from privbounds.simulators.bns.thm3_1 import BnsThm31

    return Theorem(
        number="Theorem 3.1 (Algorithm 2 over BLR), toy size",
        title="Generic private k-learner for any finite class",
        statement=("For every finite C there is a proper agnostic eps-DP k-learner with "
                   "n = O~(k VC + VC log|X|) and an (eps, delta)-DP one with "
                   "n = O~(sqrt(k) VC + log|C| sqrt(log|X|)): one sanitization of C^xor, then one "
                   "exponential mechanism per concept."),
        math="pure: Algorithm 2 over BLR (Thm 2.18); approximate: over PMW (Thm 2.19, see bns.lem3_6).",
        simulator=BnsThm31(), plotter="bns.specs:thm3_1", claims=_generic_alg2_claims("BLR (toy)"),
        notes=("Toy size: THRESH over 8 points, BLR of bns.thm2_18 as the sanitizer (its 8-row synthetic "
               "database gives U), label noise 0.1, alpha = 0.15. With basic accounting the whole learner is "
               "pure eps-DP. The constants are hidden in the paper, so only the growth in k is claimed; "
               "at this size the sanitizer's k-free cost is small."))


@entry("bns.obs3_2")
def _bns_obs3_2() -> Theorem:
    from privbounds.simulators.bns.obs3_2 import BnsObs32

    def logf(p):
        return float(bns_bounds.direct_sum_log_factor(2 ** p["d"] + 1, p["k"], p["beta"]))

    claims = []
    for rule, pred in (("basic", 1.0), ("advanced", 0.5)):
        claims += [
            UpperBound(
                f"upper-{rule}",
                f"Direct sum with {rule} composition: n_hat <= max(8/alpha, 4/(alpha eps0)) "
                "(ln|H| + ln(2k/beta)), eps0 the per-concept budget",
                where(rule=rule), ("k",), bound=use(bns_bounds.n_direct_sum, h_size=lambda p: 2 ** p["d"] + 1)),
            Scaling(
                f"scaling-k-{rule}",
                f"Direct sum with {rule} composition: n_hat / (ln|H| + ln(2k/beta)) grows like "
                f"k^{pred:g}. An upper bound: Observation 3.2 is the direct sum's guarantee; the lower bounds with "
                "its exponents hold on their own instances, where bns.thm5_1 and bns.cor4_10 measure it",
                where(rule=rule), ("k",), variable=lambda p: p["k"], variable_name="k",
                predicted=pred, factor=logf, factor_name="ln|H| + ln(2k/beta)", tolerance=UP_TO_LOGS,
                direction="upper"),
        ]
    return Theorem(
        number="Observation 3.2",
        title="Direct sum: k private learners with a split privacy budget",
        statement=(
            "Running an (alpha, beta, eps, delta)-private learner with sample size m on each of "
            "k label columns of one sample gives a k-learner with the same m and parameters "
            "(alpha, k beta, k eps, k delta) by basic composition, or "
            "(alpha, k beta, O(sqrt(k ln(1/delta)) eps), O(k delta)) by advanced composition. "
            "For learners whose m grows like 1/eps, n grows like k, respectively "
            "sqrt(k ln(1/delta)), up to logarithmic factors."),
        math=("eps0 = eps/k (basic); eps0 solves sqrt(2k ln(1/delta)) eps0 + k eps0 (e^eps0 - 1) = eps "
              "(advanced, Dwork-Roth Thm 3.20); N = max(8/alpha, 4/(alpha eps0)) (ln|H| + ln(2k/beta))."),
        simulator=BnsObs32(), plotter="bns.specs:obs3_2", claims=claims,
        notes=("Inner learner: exponential mechanism over THRESH_8 (|H| = 257) under the 4-point "
               "cluster; all k targets are the hard target p3, so the k columns are independent "
               "copies of the hardest single-concept instance. Advanced composition "
               "gives the whole learner (eps, delta)-DP with delta = 1e-6; basic gives eps-DP."))


@entry("bns.cor3_3")
def _bns_cor3_3() -> Theorem:
    from privbounds.simulators.bns.cor3_4 import BnsCor33

    claims = [
        LowerBound(
            "lower-thm5_1",
            "Thm 5.1 (every pure eps-DP k-learner for a class with two concepts): "
            "n_hat >= (k ln 2 + ln(1 - beta))/eps",
            lambda p: True, ("d", "k"),
            bound=use(bns_bounds.packing_lower_bound)),
        Scaling(
            "scaling-k",
            "Hash learner direct sum, |X| = 2^16, k >= 16: n_hat / ln(k/(alpha beta)) grows like k "
            "(O(k/(alpha eps) ln(k/(alpha beta))), constant hidden). An upper bound: Corollary 3.3 is the "
            "learner's guarantee; Theorem 5.1's matching k/eps is proved on the packing instance (where "
            "bns.thm5_1 measures this learner), not on this agnostic one",
            lambda p: p["d"] == 16 and p["k"] >= 16, ("k",), variable=lambda p: p["k"], variable_name="k",
            predicted=1.0, factor=lambda p: math.log(p["k"] / (p["alpha"] * p["beta"])),
            factor_name="ln(k/(alpha beta))", tolerance=UP_TO_LOGS, direction="upper"),
        Scaling(
            "scaling-X",
            f"Hash learner direct sum, k = {BnsCor33.K_FOR_X}: n_hat does not depend on |X| "
            "(predicted exponent 0, tolerance 0.05). An upper bound: Corollary 3.3's sample size has no |X| in it",
            where(k=BnsCor33.K_FOR_X), ("d",), variable=lambda p: 2.0 ** p["d"], variable_name="|X|",
            predicted=0.0, tolerance=0.05, direction="upper"),
    ]
    return Theorem(
        number="Corollary 3.3 (substitute inner learner)",
        title="Points, improper, pure: about k/eps rows and no dependence on |X|",
        statement=(
            "POINT_X can be improperly agnostically k-learned with pure eps-DP from "
            "O_{alpha,beta}(k/eps) examples, independent of |X|: the direct sum over an improper "
            "pure-DP point learner of cost O_{alpha,beta}(1/eps)."),
        math=("n = O((k/(alpha eps)) ln(k/(alpha beta))) (constant hidden: scaling claims only); "
              "lower bound for every pure learner (Thm 5.1): (k ln 2 + ln(1 - beta))/eps."),
        simulator=BnsCor33(), plotter="bns.specs:cor3_3", claims=claims,
        notes=("SUBSTITUTE inner learner (ours): per column a fresh public hash "
               "g: X -> [M], M = ceil(2k/(alpha beta)), and the exponential mechanism (eps/k) over "
               "the bucket hypotheses and the constant 0. The paper's learner (Beimel et al., "
               "probabilistic representations) is imported, not specified. Agnostic POINT "
               "instance of bns.cor3_9 over |X| = 2^16."))


@entry("bns.cor3_4")
def _bns_cor3_4() -> Theorem:
    from privbounds.simulators.bns.cor3_4 import BnsCor34

    def logf(p):
        return math.log(2 * p["k"] * 2 ** p["d"] / p["beta"])

    claims = [UpperBound(
        "upper",
        "Direct sum over POINT_X: n_hat <= max((4/(alpha eps0)) ln(2k|X|/beta), (800/alpha^2) ln(8k/(alpha beta)))",
        lambda p: True, ("rule", "d", "k"),
        bound=use(bns_bounds.n_direct_sum_agnostic, h_size=lambda p: 2 ** p["d"]))]
    for rule, pred in (("basic", 1.0), ("advanced", 0.5)):
        claims.append(Scaling(
            f"scaling-k-{rule}",
            f"Direct sum, {rule} composition, |X| = 2^10, k >= 16: n_hat / ln(2k|X|/beta) grows like k^{pred:g}. "
            "An upper bound: Corollary 3.4 is the direct sum's guarantee; no lower bound is proved on this "
            "instance",
            lambda p, r=rule: p["rule"] == r and p["d"] == 10 and p["k"] >= 16, ("k",),
            variable=lambda p: p["k"], variable_name="k", predicted=pred, factor=logf,
            factor_name="ln(2k|X|/beta)", tolerance=UP_TO_LOGS, direction="upper"))
    claims.append(Scaling(
        "scaling-X",
        f"Direct sum, basic, k = {BnsCor34.K_FOR_X}: n_hat grows like ln|C| + ln(2k/beta) = ln(2k|X|/beta) "
        "(predicted exponent 1): unlike Algorithm 2 (Cor 3.9) it pays for the domain. An upper bound: "
        "Corollary 3.4's ln|C|; no lower bound in |X| is proved",
        where(rule="basic", k=BnsCor34.K_FOR_X), ("d",), variable=logf, variable_name="ln(2k|X|/beta)",
        predicted=1.0, tolerance=UP_TO_LOGS, direction="upper"))
    return Theorem(
        number="Corollary 3.4 (Obs 3.2 over Thm 2.22)",
        title="The direct sum for any finite class, here POINT_X: k log|C| / eps",
        statement=(
            "Every finite class C can be agnostically and properly k-learned by running the "
            "exponential mechanism on each column: with pure eps-DP from "
            "O((ln|C| + ln(k/beta))(k/(alpha eps) + 1/alpha^2)) examples, and with (eps, delta)-DP "
            "from the same with sqrt(k ln(1/delta)) in place of k."),
        math=("per column eps0 = eps/k (basic) or the advanced-composition share; explicit: "
              "max((4/(alpha eps0)) ln(2k|C|/beta), (800 VC/alpha^2) ln(8k/(alpha beta)))."),
        simulator=BnsCor34(), plotter="bns.specs:cor3_4", claims=claims,
        notes=("On the agnostic POINT instance of bns.cor3_9 (THRESH and PAR have their own direct sums: "
               "THRESH's direct sum is bns.obs3_2, PAR's is bns.ex3_5). The |X| - 32 point concepts "
               "that never fire on the sample share one score and are sampled as one group."))


@entry("bns.ex3_5")
def _bns_ex3_5() -> Theorem:
    from privbounds.simulators.bns.ex3_5 import BnsEx35

    def logf(p):
        return p["d"] * math.log(2) + math.log(2 * p["k"] / p["beta"])

    claims = [
        UpperBound(
            "upper",
            "Direct sum over PAR_d: n_hat <= (4k/(alpha eps))(d ln 2 + ln(2k/beta)) + "
            "(50 d/alpha^2) ln(2k/(alpha beta))",
            lambda p: True, ("d", "k"),
            bound=use(bns_bounds.n_parity_direct_sum)),
        LowerBound(
            "lower-thm5_4",
            "Thm 5.4 (every pure eps-DP k-learner for PAR_d): n_hat >= (k d ln 2 + ln(1 - beta))/eps",
            lambda p: True, ("d", "k"),
            bound=use(bns_bounds.parity_packing_lower_bound)),
        Scaling(
            "scaling-k",
            f"Direct sum over PAR_{BnsEx35.D_FOR_K}: n_hat / (d ln 2 + ln(2k/beta)) grows like k "
            "(predicted exponent 1). Tight: Example 3.5's upper bound and Theorem 5.4's lower bound (every pure "
            "eps-DP learner under the uniform distribution used here) are both k d/eps up to logs",
            where(d=BnsEx35.D_FOR_K), ("k",), variable=lambda p: p["k"], variable_name="k", predicted=1.0,
            factor=logf, factor_name="d ln 2 + ln(2k/beta)", tolerance=UP_TO_LOGS, direction="tight"),
        Scaling(
            "scaling-d",
            f"Direct sum, k = {BnsEx35.K_FOR_D}: n_hat grows like d ln 2 + ln(2k/beta) = ln|PAR_d| + "
            "ln(2k/beta) (predicted exponent 1). Tight: Example 3.5's upper bound and Theorem 5.4's lower bound "
            "are both linear in d",
            where(k=BnsEx35.K_FOR_D), ("d",), variable=logf, variable_name="d ln 2 + ln(2k/beta)",
            predicted=1.0, tolerance=UP_TO_LOGS, direction="tight"),
    ]
    return Theorem(
        number="Example 3.5 (with Thm 5.4)",
        title="Parities by the pure-DP direct sum: k d / eps, sandwiched by the packing bound",
        statement=(
            "PAR_d can be properly k-learned with pure eps-differential privacy from "
            "O_{alpha,beta}(k d / eps) examples by running the exponential mechanism over all 2^d "
            "parities on each label column with budget eps/k; Theorem 5.4 shows that every pure "
            "eps-DP k-learner for PAR_d needs (k d ln 2 + ln(1 - beta))/eps."),
        math=("upper: (4k/(alpha eps))(d ln 2 + ln(2k/beta)) + (50 d/alpha^2) ln(2k/(alpha beta)); "
              "lower (Thm 5.4): (k d ln 2 + ln(1 - beta))/eps."),
        simulator=BnsEx35(), plotter="bns.specs:ex3_5", claims=claims,
        notes=("Uniform x, noiseless labels, alpha = 0.1 (exact recovery). All 2^d errors per column "
               "from one fast Walsh-Hadamard transform. The upper bound's (50 d/alpha^2) term is "
               "the agnostic uniform-convergence constant and makes it loose by orders of "
               "magnitude here."))


@entry("bns.lem3_6")
def _bns_lem3_6() -> Theorem:
    from privbounds.simulators.bns.thm3_1 import BnsLem36

    return Theorem(
        number="Lemma 3.6 (Algorithm 2 over PMW), toy size",
        title="Generic k-learner with generic sanitizers (PMW)",
        statement=("Plugging the generic sanitizers (BLR, PMW) for C^xor into Lemma 3.7 gives agnostic "
                   "proper k-learners whose per-concept cost is about VC/(alpha eps) times k (pure) or "
                   "sqrt(k ln(1/delta)) (approximate), on top of one sanitization."),
        math="sanitizer cost ~ log|C| sqrt(log|X|) sqrt(log(1/delta))/(alpha^2 eps) (PMW) + per-concept terms.",
        simulator=BnsLem36(), plotter="bns.specs:lem3_6", claims=_generic_alg2_claims("PMW (toy)"),
        notes=("Toy size: THRESH over 8 points, PMW of bns.thm2_19 run at accuracy 2 alpha (its synthetic "
               "distribution rounded to ceil(4/alpha) rows gives U), label noise 0.1, alpha = 0.15. The "
               "search starts at n = 256 (PMW is slow to simulate below its sample size). Constants hidden: "
               "scaling claims only."))


@entry("bns.lem3_7")
def _bns_lem3_7() -> Theorem:
    from privbounds.simulators.bns.cor3_9 import BnsLem37

    return Theorem(
        number="Lemma 3.7 (Algorithm 2)",
        title="Generic k-learner: sanitize once, then one exponential mechanism per concept",
        statement=(
            "Given a sanitizer for C^xor with sample size m, Algorithm 2 is an agnostic proper k-learner "
            "for C: if n >= max(m, (50 VC/alpha^2) ln(k/(alpha beta)), (2/(alpha eps0))(ln|H| + ln(k/beta))) "
            "then w.p. >= 1 - 3 beta every column is within 4 alpha of optimal; it is "
            "(eps1 + k eps0, delta1)-DP (basic) and (eps1 + sqrt(2k ln(1/delta')) eps0 + ..., delta1 + "
            "delta')-DP (advanced)."),
        math="run at alpha/4 and beta/3 for (alpha, beta); |H| <= dichotomies of C on the sanitized support.",
        simulator=BnsLem37(), plotter="bns.specs:lem3_7",
        claims=[alg2_upper("upper", lambda p: True, ("rule", "alpha"))],
        notes=("Instantiated with the point sanitizer (Algorithm 1) on the agnostic POINT instance of "
               "bns.cor3_9, k = 16; the THRESH instantiation is bns.cor3_10. The paper's extracted text lost the class "
               "symbol of the sanitizer; the proof's event E2 needs answers to h xor f queries, so we read "
               "it as C^xor (our reading)."))


@entry("bns.prop3_8")
def _bns_prop3_8() -> Theorem:
    from privbounds.simulators.bns.tools import BnsProp38

    claims = [Ceiling(
        "ceiling-utility",
        "Exponential mechanism: P[output scores <= OPT - D] <= |F| e^(-eps D / 2)",
        lambda p: True, ("epsilon", "candidates"),
        bound=use(tools.expmech_failure_ceiling, gap=lambda p: p["n"]))]
    return Theorem(
        number="Proposition 3.8 (McSherry-Talwar)",
        title="The exponential mechanism: privacy and utility",
        statement=(
            "Sampling f with probability proportional to exp(eps q(D, f) / (2 Delta_q)) is eps-DP, "
            "and outputs a solution with q <= OPT - D with probability at most "
            "|F| exp(-eps D / (2 Delta_q))."),
        math="P[q(output) <= OPT - D] <= |F| e^(-eps D / 2) for sensitivity 1.",
        simulator=BnsProp38(), plotter="bns.specs_lower:prop3_8", claims=claims,
        notes=("Planted scores: one candidate at 0, half the others at -D and half at -2D, "
               "|F| = 1000. Privacy is audited in the test suite (tests/core/test_privacy.py)."))


@entry("bns.cor3_9")
def _bns_cor3_9() -> Theorem:
    from privbounds.simulators.bns.cor3_9 import MASSES, BnsCor39

    H = MASSES.size + 1  # at most the support plus the "zero on U" representative

    def logf(p):
        return math.log(H * p["k"] / p["beta"])

    claims = [alg2_upper("upper", lambda p: True, ("rule", "d", "k"))]
    for rule, pred in (("basic", 1.0), ("advanced", 0.5)):
        claims.append(Scaling(
            f"scaling-k-{rule}",
            f"Algorithm 2, {rule} accounting, k >= 16: n_hat / ln(|H| k / beta) grows like k^{pred:g} "
            "(the exponential mechanisms' share; small k is dominated by the k-free sanitizer). An upper bound: "
            "Corollary 3.9 is Algorithm 2's guarantee; Corollary 4.10's sqrt(k) holds on the fingerprinting "
            "instance, not on this one",
            lambda p, r=rule: p["rule"] == r and p["d"] == 10 and p["k"] >= 16, ("k",),
            variable=lambda p: p["k"], variable_name="k", predicted=pred,
            factor=logf, factor_name="ln(|H| k / beta)", tolerance=UP_TO_LOGS, direction="upper"))
    claims.append(Scaling(
        "scaling-X",
        f"Algorithm 2, basic, k = {BnsCor39.K_FOR_X}: n_hat does not depend on |X| (predicted exponent 0, "
        "tolerance 0.05). An upper bound: Corollary 3.9's sample size has no |X| in it",
        where(rule="basic", k=BnsCor39.K_FOR_X), ("d",), variable=lambda p: 2.0 ** p["d"],
        variable_name="|X|", predicted=0.0, tolerance=0.05, direction="upper"))
    return Theorem(
        number="Corollary 3.9 (Algorithm 2 with Algorithm 1; Lemma 3.7)",
        title="Points, agnostic and proper: one sanitization, then k exponential mechanisms",
        statement=(
            "POINT_X can be agnostically and properly k-learned with a sample size independent "
            "of |X|: about k/eps rows when the k exponential mechanisms are composed by basic "
            "composition, about sqrt(k ln(1/delta))/eps by advanced composition - the same "
            "algorithm read two ways, always (eps, delta)-DP because the point sanitizer is."),
        math=("n = O(ln(1/(alpha beta delta))/(alpha eps) + ln(k/(alpha beta))/alpha^2 + "
              "ln(nk/beta)/(alpha eps0)), eps0 = eps/(2k) (basic) or about "
              "eps/(4 sqrt(k ln(2/delta))) (advanced)."),
        simulator=BnsCor39(), plotter="bns.specs:cor3_9", claims=claims,
        notes=("Agnostic instance: 32 support points (4 of mass 0.15, 8 of 0.025, 20 of 0.01), label "
               "noise 0.1; a target is a heavy point w.p. 1/2, another support point w.p. 1/4, a uniform "
               "point of X otherwise. delta = 1e-8 (not "
               "1e-6) so that delta < 1/n over the whole search range. The explicit bound "
               "is dominated by its uniform-convergence term (Thm 2.8 with the constant 50 at "
               "alpha/4), so it is loose by orders of magnitude at small k."))


@entry("bns.cor3_10")
def _bns_cor3_10() -> Theorem:
    from privbounds.simulators.bns.cor3_10 import BnsCor310

    def logf(p):
        return math.log((8 / p["alpha"] + 1) * p["k"] / p["beta"])

    claims = [UpperBound(
        "upper",
        "Algorithm 2 over the tree sanitizer: n_hat <= max(n_tree(alpha/16, eps/2, |X|, beta/3), "
        "(800/alpha^2) ln(12k/(alpha beta)), (8/(alpha eps0))(ln(8/alpha + 1) + ln(3k/beta)))",
        lambda p: True, ("rule", "k"),
        bound=use(bns_bounds.n_alg2_thresholds, domain_size=lambda p: 2 ** p["d"]))]
    for rule, pred in (("basic", 1.0), ("advanced", 0.5)):
        claims.append(Scaling(
            f"scaling-k-{rule}",
            f"Algorithm 2 on THRESH, {rule} accounting, k >= 16: n_hat / ln(|H| k / beta) grows like "
            f"k^{pred:g}" + (" (Cor 3.10's sqrt(k); the lower bound of Cor 4.6 is k^(1/3))"
                             if rule == "advanced" else "") + ". An upper bound: Corollary 3.10 is Algorithm 2's guarantee",
            lambda p, r=rule: p["rule"] == r and p["k"] >= 16, ("k",),
            variable=lambda p: p["k"], variable_name="k", predicted=pred,
            factor=logf, factor_name="ln(|H| k / beta)", tolerance=UP_TO_LOGS, direction="upper"))
    return Theorem(
        number="Corollary 3.10 (Algorithm 2, substitute sanitizer)",
        title="Thresholds, agnostic and proper: one sanitization, then k exponential mechanisms",
        statement=(
            "THRESH_X can be agnostically and properly k-learned with (eps, delta)-differential "
            "privacy from O~(2^(O(log* |X|)) + sqrt(k)) examples (Algorithm 2 over the threshold "
            "sanitizer of Prop 2.21, advanced composition). The lower bound of Cor 4.6 grows like "
            "k^(1/3); the paper leaves the gap open."),
        math=("n = O(m_thresh + ln(k/(alpha beta))/alpha^2 + ln(nk/beta)/(alpha eps0)), eps0 = eps/(2k) "
              "(basic) or about eps/(4 sqrt(k ln(2/delta))) (advanced)."),
        simulator=BnsCor310(), plotter="bns.specs:cor3_10", claims=claims,
        notes=("Runs over the SUBSTITUTE tree sanitizer (see bns.prop2_21), rounded to multiples of "
               "alpha n / 8; with basic accounting the whole learner is pure eps-DP. Uniform rows on "
               "2^10 points, label noise 0.1, uniform targets. delta = 1e-8 so that delta < 1/n over "
               "the search range."))
