"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts", section 2:
the learning-theory and privacy tools (VC bounds, composition, sanitizers, generic
learners, subsampling)."""

from __future__ import annotations

import math

from privbounds.bounds import bns as bns_bounds
from privbounds.bounds import tools
from privbounds.claims import UP_TO_LOGS, Ceiling, Scaling, UpperBound, use, where
from privbounds.registry import Theorem, entry
from privbounds.registry.bns import alg2_upper


@entry("bns.thm2_7")
def _bns_thm2_7() -> Theorem:
    from privbounds.simulators.bns.cor2_12 import BnsThm27

    vc = lambda p: p["d"] if p["class"] == "par" else 1  # noqa: E731
    claims = [
        UpperBound("upper", "Consistent ERM: n_hat <= (8/alpha)(VC ln(16/alpha) + ln(2/beta))",
                   lambda p: True, ("class", "d", "alpha"),
                   bound=use(tools.n_vc_realizable, vc=vc)),
        Scaling("scaling-alpha",
                "Consistent ERM (middle of the consistent interval) on THRESH_10: n_hat / (ln(16/alpha) + "
                "ln(2/beta)) grows like 1/alpha (predicted exponent 1; the bound's log factor divided out). An upper "
                "bound: Theorem 2.7 caps the sample every consistent hypothesis needs; no lower bound is proved",
                where(**{"class": "thresh"}), ("alpha",), variable=lambda p: 1 / p["alpha"], variable_name="1/alpha",
                predicted=1.0, tolerance=UP_TO_LOGS,
                factor=lambda p: math.log(16 / p["alpha"]) + math.log(2 / p["beta"]),
                factor_name="ln(16/alpha) + ln(2/beta)", direction="upper"),
    ]
    return Theorem(
        number="Theorem 2.7 (Blumer et al.)",
        title="VC generalization bound, realizable",
        statement=("For a class of VC dimension VC, with O((VC ln(1/alpha) + ln(1/beta))/alpha) samples every "
                   "hypothesis consistent with the sample has error at most alpha, w.p. >= 1 - beta."),
        math="n >= (8/alpha)(VC ln(16/alpha) + ln(2/beta)) (constants as used across the authors' papers).",
        simulator=BnsThm27(), plotter="bns.specs:thm2_7", claims=claims,
        notes=("THRESH_10: uniform D, target uniform, ERM = middle of the consistent interval (the "
               "error of other consistent hypotheses can be larger; the theorem bounds all). "
               "PAR_d: uniform D; any error < 1/2 means exact recovery, so n_hat does not depend on "
               "alpha and grows like d + O(1) (rank d), well under the bound's d ln(16/alpha)/alpha."))


@entry("bns.thm2_8")
def _bns_thm2_8() -> Theorem:
    from privbounds.simulators.bns.uniform import BnsThm28

    claims = [
        UpperBound("upper", "Uniform convergence: n_hat <= (50 VC/alpha^2) ln(1/(alpha beta))",
                   lambda p: True, ("alpha",),
                   bound=use(tools.n_uniform_convergence, vc=1)),
        Scaling("scaling-alpha", "n_hat grows like 1/alpha^2 (predicted exponent 2, up to the ln(1/alpha) factor). "
                "An upper bound: Theorem 2.8 is a sufficient sample size; no lower bound is proved",
                lambda p: True, ("alpha",), variable=lambda p: 1 / p["alpha"], variable_name="1/alpha",
                predicted=2.0, tolerance=UP_TO_LOGS, direction="upper"),
    ]
    return Theorem(
        number="Theorem 2.8 (VC uniform convergence, agnostic)",
        title="Agnostic uniform convergence",
        statement=("For a class of VC dimension VC, with O((VC + ln(1/beta))/alpha^2) samples from any "
                   "distribution, every concept's empirical error is within alpha of its true error, "
                   "w.p. >= 1 - beta."),
        math="n >= (50 VC/alpha^2) ln(1/(alpha beta)) (the constant 50 as usually quoted, not from this paper).",
        simulator=BnsThm28(), claims=claims,
        notes="THRESH_8, uniform x, label noise 0.1; sup over all 257 thresholds, computed exactly.")


@entry("bns.thm2_11")
def _bns_thm2_11() -> Theorem:
    from privbounds.simulators.bns.uniform import BnsThm211

    claims = [
        UpperBound("upper", "All k columns: n_hat <= (50 VC/alpha^2) ln(k/(alpha beta))",
                   lambda p: True, ("k",),
                   bound=use(tools.n_uniform_convergence, vc=1)),
        Scaling("scaling-k",
                "n_hat / ln(k/(alpha beta)) does not grow with k (predicted exponent 0): k costs only ln k. An upper "
                "bound: Theorem 2.11 says ln k suffices (every column must be accurate, so the ln k is paid)",
                lambda p: True, ("k",), variable=lambda p: p["k"], variable_name="k", predicted=0.0,
                factor=lambda p: math.log(p["k"] / (p["alpha"] * p["beta"])), factor_name="ln(k/(alpha beta))",
                tolerance=UP_TO_LOGS, direction="upper"),
    ]
    return Theorem(
        number="Theorem 2.11 (empirical k-learner => PAC k-learner)",
        title="Generalization for k concepts costs only ln k",
        statement=("An empirical k-learner is a PAC k-learner once every column's empirical errors are "
                   "within alpha of the true ones; by a union bound over the k columns (beta/k each) that "
                   "takes O((VC + ln(k/beta))/alpha^2) samples, so k costs only a logarithm."),
        math="n >= (50 VC/alpha^2) ln(k/(alpha beta)); the k columns are independent label vectors.",
        simulator=BnsThm211(), claims=claims,
        notes="THRESH_6, uniform x, label noise 0.1, independent uniform targets per column.")


@entry("bns.cor2_12")
def _bns_cor2_12() -> Theorem:
    from privbounds.simulators.bns.cor2_12 import BnsCor212

    vc = {"thresh": lambda p: 1, "point": lambda p: 1, "par": lambda p: p["d"]}
    claims = []
    for cls, name in (("thresh", "THRESH_d (VC = 1)"), ("point", "POINT_d (VC = 1)"), ("par", "PAR_d (VC = d)")):
        claims += [
            UpperBound(
                f"upper-erm-{cls}",
                f"Consistent ERM on {name}: n_hat <= (8/alpha)(VC ln(16/alpha) + ln(2k/beta))",
                where(**{"class": cls}), ("k",),
                bound=use(bns_bounds.n_nonprivate_k_learner, vc=lambda p: vc[p["class"]](p))),
            Scaling(
                f"scaling-k-{cls}",
                f"Consistent ERM on {name}: n_hat / (VC ln(16/alpha) + ln(2k/beta)) does not grow "
                "with k (predicted exponent 0): k costs only through ln k. An upper bound: Corollary 2.12 is the ERM's "
                "guarantee (the k columns must all be learned, so the ln(2k/beta) is paid)",
                where(**{"class": cls}), ("k",), variable=lambda p: p["k"], variable_name="k",
                predicted=0.0, tolerance=UP_TO_LOGS,
                factor=lambda p: float(bns_bounds.nonprivate_log_factor(vc[p["class"]](p), p["k"],
                                                                        p["alpha"], p["beta"])),
                factor_name="VC ln(16/alpha) + ln(2k/beta)", direction="upper"),
        ]
    return Theorem(
        number="Corollary 2.12 (with Thm 2.7, 2.11)",
        title="Non-private k-learning costs only ln k",
        statement=(
            "Without privacy, any class of VC dimension VC can be properly k-learned with a "
            "sample size that depends on k only logarithmically (through beta/k): "
            "n = O((VC ln(1/alpha) + ln(k/beta)) / alpha) in the realizable model."),
        math="n >= (8/alpha)(VC ln(16/alpha) + ln(2k/beta)) (Thm 2.7 per concept, union bound over k).",
        simulator=BnsCor212(), plotter="bns.specs:cor2_12", claims=claims,
        notes=("THRESH_10 and PAR_10: uniform distribution, k independent uniform targets; ERM is "
               "the middle of each column's consistent interval, respectively the first consistent "
               "parity by Gaussian elimination over GF(2) vectorised over trials and columns. "
               "POINT_10: D uniform on 8 random points (mass 1/8 > alpha), each target one of them; "
               "ERM is the first consistent point. Errors are exact."))


@entry("bns.thm2_16")
def _bns_thm2_16() -> Theorem:
    from privbounds.simulators.bns.tools import BnsThm216

    claims = [Ceiling(
        "ceiling-advanced",
        "Advanced composition: the privacy loss of k eps0-DP Laplace mechanisms exceeds "
        "eps' = sqrt(2k ln(1/delta')) eps0 + k eps0 (e^eps0 - 1) with probability <= delta'",
        lambda p: True, ("eps0",), bound=use(tools.composition_tail_ceiling))]
    return Theorem(
        number="Theorem 2.16 (composition; absent from our extracted text of the paper)",
        title="Composition: basic (k eps) and advanced (about sqrt(k ln(1/delta)) eps)",
        statement=(
            "Running k mechanisms, each (eps0, delta0)-DP, is (k eps0, k delta0)-DP (basic), and for "
            "every delta' > 0 it is (sqrt(2k ln(1/delta')) eps0 + k eps0 (e^eps0 - 1), k delta0 + "
            "delta')-DP (advanced; Dwork, Rothblum, Vadhan 2010). The theorem was dropped by the "
            "text extraction; the paper cites these standard statements."),
        math="P[sum_i L_i > eps'] <= delta' for the privacy losses L_i in [-eps0, eps0] of k eps0-DP mechanisms.",
        simulator=BnsThm216(), plotter="bns.specs_lower:thm2_16", claims=claims,
        notes=("Privacy loss of the Laplace mechanism on neighbouring counts 0 and 1, "
               "L = eps0 (|o - 1| - |o|) for o ~ Lap(1/eps0), summed over k independent runs. "
               "delta' = 0.05 so that the probability is measurable; basic composition holds "
               "surely (|L| <= k eps0) and is not simulated."))


@entry("bns.thm2_18")
def _bns_thm2_18() -> Theorem:
    from privbounds.simulators.bns.thm2_18 import SYNTH, BnsThm218, candidate_prefixes

    N = len(candidate_prefixes())
    claims = [
        UpperBound("upper-toy",
                   f"BLR at toy size (|X| = 8, thresholds, {N} synthetic databases of {SYNTH} rows): "
                   "n_hat <= 2 ln(N_s/beta)/(eps (alpha - 1/(2s)))",
                   lambda p: True, ("alpha", "epsilon"),
                   bound=use(bns_bounds.n_blr_toy, n_candidates=N, synth_size=SYNTH)),
        Scaling("scaling-eps", "alpha = 0.2: n_hat grows like 1/eps (predicted exponent 1 in 1/eps). An upper bound: "
                "Theorem 2.18 is the sanitizer's guarantee; no lower bound is proved",
                where(alpha=0.2), ("epsilon",), variable=lambda p: 1 / p["epsilon"], variable_name="1/epsilon",
                predicted=1.0, tolerance=UP_TO_LOGS, direction="upper"),
    ]
    return Theorem(
        number="Theorem 2.18 (Blum-Ligett-Roth), toy size",
        title="The BLR sanitizer (exponential mechanism over synthetic databases), at toy size",
        statement=("Every class C over a finite X has an eps-DP (alpha, beta)-accurate sanitizer from "
                   "O(VC log|X| log(1/alpha)/(alpha^3 eps) + log(1/beta)/(alpha eps)) rows."),
        math=("toy: exponential mechanism over all histograms of s = 8 rows on 8 points, score "
              "-n max_q |q(S) - q(D)|; n >= 2 ln(N_s/beta)/(eps (alpha - 1/(2s)))."),
        simulator=BnsThm218(), plotter="bns.specs:thm2_18", claims=claims,
        notes=("BLR is exponential-time, so it runs only at toy size (the issue allows toy sizes or "
               "bound-only); the paper's bound (hidden constants) is drawn as a shape only. The "
               "synthetic size is fixed at 8 rather than growing like VC log|X|/alpha^2, so the toy "
               "cannot reach alpha below 1/16."))


@entry("bns.thm2_19")
def _bns_thm2_19() -> Theorem:
    from privbounds.simulators.bns.thm2_19 import BnsThm219
    def pmw_log_factor(p):
        from privbounds.simulators.bns.pmw import pmw_parameters
        X = 2 ** p["d"]
        q = pmw_parameters(1, X, X + 1, p["alpha"], p["epsilon"], p["delta"])
        # Every comparison NumericSparse makes draws fresh query noise and every "above"
        # answer a fresh threshold: one run draws at most k + c Laplace variables that must
        # all stay under the margin, so the error it pays grows like ln((k + c)/beta). The
        # proof's ln k + ln(4c/beta) unions over the c thresholds once more and counts ln c
        # twice, a term the algorithm never pays.
        return math.log((q.stream_length + q.cutoff) / p["beta"])

    n_pmw = use(tools.n_pmw, domain_size=lambda p: 2 ** p["d"], n_queries=lambda p: 2 ** p["d"] + 1)
    claims = [
        UpperBound("upper",
                   "PMW over the |X| + 1 threshold queries: n_hat <= the sample size of Dwork-Roth Thm 4.15 "
                   "(with the numeric-answer term), c = ceil(4 ln|X| / (alpha/3)^2) update rounds",
                   lambda p: True, ("d", "alpha"), bound=n_pmw),
        Scaling("scaling-alpha",
                f"|X| = 2^{BnsThm219.D_FOR_ALPHA}: n_hat / ln((k + c)/beta) grows like 1/alpha^2 (noise "
                "sqrt(c)/n with c ~ 1/alpha^2 update rounds must fall below alpha in each of at most "
                "k = 2|Q|(c + 1) comparisons and c threshold draws; predicted exponent 2, the log of the number "
                "of noise draws one run makes divided out). An upper bound: Theorem 2.19 is PMW's "
                "guarantee; no lower bound is proved",
                where(d=BnsThm219.D_FOR_ALPHA), ("alpha",), variable=lambda p: 1 / p["alpha"],
                variable_name="1/alpha", predicted=2.0, tolerance=UP_TO_LOGS, factor=pmw_log_factor,
                factor_name="ln((k + c)/beta)", direction="upper", theorem_bound=n_pmw),
    ]
    return Theorem(
        number="Theorem 2.19 (Hardt-Rothblum PMW)",
        title="Private multiplicative weights: a generic (eps, delta) sanitizer",
        statement=("Every finite class C over a finite X has an (eps, delta)-DP (alpha, beta)-accurate "
                   "sanitizer with about log|C| sqrt(log|X|) sqrt(log(1/delta)) / (alpha^2 eps) rows."),
        math=("Dwork-Roth online MW via NumericSparse: a = alpha/3, eta = a/2, c = ceil(4 ln|X|/a^2), "
              "threshold 2a; explicit sample size in bounds/tools.py (n_pmw)."),
        simulator=BnsThm219(), plotter="bns.specs:thm2_19", claims=claims,
        notes=("Implementation reconstructed from Dwork and Roth (2014) Sec. 4.2 and 3.6, the (eps, delta) "
               "branch; the threshold is 2a rather than the book's n-dependent value (equal at the "
               "theorem's n, and it keeps the guarantee for larger n). Rows: 0.6 on a random point, 0.4 "
               "uniform. The explicit bound is loose: n_hat is {slack: upper} times below it."))


@entry("bns.prop2_20")
def _bns_prop2_20() -> Theorem:
    from privbounds.simulators.bns.prop2_20 import BnsProp220

    claims = [
        UpperBound(
            "upper-alg1",
            "Algorithm 1: n_hat <= smallest n with alpha n >= 1 + (2/eps) ln(2/delta) + (2/eps) ln(n/beta)",
            where(sanitizer="alg1"), ("d", "alpha"),
            bound=use(bns_bounds.n_point_sanitizer)),
        UpperBound(
            "upper-laplace",
            "Laplace histogram (contrast): n_hat <= (2/(alpha eps)) ln(|X|/beta)",
            where(sanitizer="laplace"), ("d", "alpha"),
            bound=use(bns_bounds.n_laplace_histogram, domain_size=lambda p: 2 ** p["d"])),
        Scaling(
            "scaling-X-alg1",
            "Algorithm 1, alpha = 0.05: n_hat does not depend on |X| (predicted exponent 0 in |X|, "
            "tolerance 0.05). An upper bound: Proposition 2.20's sample size has no |X| in it",
            where(sanitizer="alg1", alpha=BnsProp220.ALPHA_FOR_X), ("d",), variable=lambda p: 2.0 ** p["d"],
            variable_name="|X|", predicted=0.0, tolerance=0.05, direction="upper"),
        Scaling(
            "scaling-X-laplace",
            "Laplace histogram, alpha = 0.05: n_hat grows like ln(|X|/beta) (predicted exponent 1). An upper bound: "
            "the contrast's guarantee (the max of |X| noises); no lower bound is proved",
            where(sanitizer="laplace", alpha=BnsProp220.ALPHA_FOR_X), ("d",),
            variable=lambda p: p["d"] * math.log(2) + math.log(1 / p["beta"]),
            variable_name="ln(|X|/beta)", predicted=1.0, tolerance=UP_TO_LOGS, direction="upper"),
        Scaling(
            "scaling-alpha-alg1",
            "Algorithm 1, |X| = 2^16: n_hat grows like 1/alpha up to the ln(n) factor "
            "(predicted exponent 1 in 1/alpha). An upper bound: Proposition 2.20 is Algorithm 1's guarantee",
            where(sanitizer="alg1", d=16), ("alpha",), variable=lambda p: 1.0 / p["alpha"],
            variable_name="1/alpha", predicted=1.0, tolerance=UP_TO_LOGS, direction="upper"),
    ]
    return Theorem(
        number="Proposition 2.20 (Algorithm 1)",
        title="A sanitizer for points whose cost does not depend on the domain",
        statement=(
            "POINT_X has an (eps, delta)-differentially private (alpha, beta)-accurate sanitizer "
            "for n = O(ln(1/(alpha beta delta)) / (alpha eps)) rows, independent of |X|: release "
            "zero counts as 0 without noise, add Laplace noise to the non-zero counts and "
            "suppress the small ones."),
        math=("a_x = 0 if c_x = 0; else c~ = c_x + Lap(2/eps), a_x = c~ if c~ >= 1 + (2/eps) ln(2/delta), "
              "else 0. Accurate when alpha n >= 1 + (2/eps) ln(2/delta) + (2/eps) ln(n/beta). "
              "Contrast: Laplace on all |X| counts needs (2/(alpha eps)) ln(|X|/beta)."),
        simulator=BnsProp220(), plotter="bns.specs:prop2_20", claims=claims,
        notes=("Rows from a Zipf(1.1) law over X. Error: max over every x in X of |a_x - c_x| / n "
               "(for Algorithm 1 only the sample's support can err). The noise scale 2/eps and the "
               "threshold are our reconstruction (the paper's extracted text lost them); with them the "
               "whole release is (eps, delta)-DP."))


@entry("bns.prop2_21")
def _bns_prop2_21() -> Theorem:
    from privbounds.simulators.bns.prop2_21 import BnsProp221

    claims = [
        UpperBound(
            "upper-tree",
            "Substitute (binary-tree histogram): n_hat <= (2 L^2/(alpha eps)) ln(2|X|/beta), L = log2|X|",
            lambda p: True, ("d", "alpha"),
            bound=use(bns_bounds.n_tree_sanitizer, domain_size=lambda p: 2 ** p["d"])),
        Scaling(
            "scaling-alpha",
            f"Substitute, |X| = 2^{BnsProp221.D_FOR_ALPHA}: n_hat is proportional to 1/alpha (the error "
            "is the tree's noise divided by n; predicted exponent 1, exact). An upper bound: the substitute's "
            "guarantee (the paper's Proposition 2.21 is one too)",
            where(d=BnsProp221.D_FOR_ALPHA), ("alpha",), variable=lambda p: 1 / p["alpha"],
            variable_name="1/alpha", predicted=1.0, direction="upper"),
        Scaling(
            "scaling-L",
            "Substitute, alpha = 0.1: n_hat grows like L^2, L = log2|X| (our analysis of the "
            "substitute: a prefix sums about L/2 nodes of noise 2L/eps, and the maximum over 2^L "
            "prefixes adds sqrt(L); predicted exponent 2 in L) - polylog |X|, not the paper's "
            "2^(O(log* |X|)). An upper bound: our analysis of the substitute bounds its cost from above",
            where(alpha=0.1), ("d",), variable=lambda p: p["d"], variable_name="L = log2|X|",
            predicted=2.0, tolerance=UP_TO_LOGS, direction="upper"),
    ]
    return Theorem(
        number="Proposition 2.21 (substitute sanitizer)",
        title="A sanitizer for thresholds (substitute: the binary-tree histogram)",
        statement=(
            "THRESH_X has an (eps, delta)-DP (alpha, beta)-accurate sanitizer with "
            "n = 2^(O(log* |X|)) / (alpha eps) up to logarithmic factors (Bun, Nissim, Stemmer, "
            "Vadhan 2015). We simulate a SUBSTITUTE, the pure eps-DP binary-tree histogram, whose "
            "cost grows like polylog |X|; the claims test the substitute, not the paper's bound."),
        math=("Substitute: Lap(2L/eps) on every dyadic node, prefix = sum of <= L nodes; "
              "n <= (2L^2/(alpha eps)) ln(2|X|/beta). Paper (shape, constant hidden): "
              "(1/(alpha eps)) 8^(log*|X|) log*|X| ln(1/(alpha beta delta))."),
        simulator=BnsProp221(), plotter="bns.specs:prop2_21", claims=claims,
        notes=("The paper's recursive construction is not implemented (impractical, and "
               "its log* behaviour is invisible for |X| <= 2^64); the figure labels the substitute. "
               "Rows are uniform on X, but the error is the tree's noise alone and does not depend "
               "on the data."))


@entry("bns.thm2_22")
def _bns_thm2_22() -> Theorem:
    from privbounds.simulators.bns.cor3_4 import BnsThm222

    claims = [
        UpperBound("upper",
                   "Exponential-mechanism learner: n_hat <= max((4/(alpha eps)) ln(2|C|/beta), "
                   "(800/alpha^2) ln(8/(alpha beta)))",
                   lambda p: True, ("d", "epsilon"),
                   bound=use(bns_bounds.n_direct_sum_agnostic, h_size=lambda p: 2 ** p["d"], k=1, rule="basic")),
        Scaling("scaling-logC", "eps = 1: n_hat grows like ln(2|C|/beta) (predicted exponent 1). An upper bound: "
                "Theorem 2.22 is the exponential mechanism's guarantee; no lower bound is proved",
                where(epsilon=1.0), ("d",), variable=lambda p: math.log(2 * 2 ** p["d"] / p["beta"]),
                variable_name="ln(2|C|/beta)", predicted=1.0, tolerance=UP_TO_LOGS, direction="upper"),
        Scaling("scaling-eps", "|X| = 2^10: n_hat grows like 1/eps (predicted exponent 1 in 1/eps). An upper "
                "bound: Theorem 2.22 is the learner's guarantee; no lower bound is proved",
                where(d=10), ("epsilon",), variable=lambda p: 1 / p["epsilon"], variable_name="1/epsilon",
                predicted=1.0, tolerance=UP_TO_LOGS, direction="upper"),
    ]
    return Theorem(
        number="Theorem 2.22 (Kasiviswanathan et al.)",
        title="The generic private learner: O(log|C| / (alpha eps)) via the exponential mechanism",
        statement=("Every finite class C has a proper agnostic eps-DP learner with "
                   "O((ln|C| + ln(1/beta))(1/(alpha eps) + 1/alpha^2)) samples: the exponential "
                   "mechanism with score minus the number of errors."),
        math="explicit: max((4/(alpha eps)) ln(2|C|/beta), (800 VC/alpha^2) ln(8/(alpha beta))).",
        simulator=BnsThm222(), plotter="bns.specs:thm2_22", claims=claims,
        notes=("The agnostic POINT instance of bns.cor3_9 with k = 1 (also the inner learner of "
               "bns.obs3_2, bns.cor3_4 and bns.thm5_1)."))


@entry("bns.thm2_23")
def _bns_thm2_23() -> Theorem:
    from privbounds.simulators.bns.cor3_9 import BnsThm223

    claims = [
        alg2_upper("upper", lambda p: True, ("epsilon",)),
        Scaling("scaling-eps",
                "Algorithm 2 with k = 1: n_hat grows like 1/eps (its sanitizer and exponential-"
                "mechanism terms; predicted exponent 1 in 1/eps, up to logarithmic factors). An upper bound: "
                "Theorem 2.23 is Algorithm 2's guarantee; no lower bound is proved",
                lambda p: True, ("epsilon",), variable=lambda p: 1 / p["epsilon"], variable_name="1/epsilon",
                predicted=1.0, tolerance=UP_TO_LOGS, direction="upper"),
    ]
    return Theorem(
        number="Theorem 2.23 (the k = 1 case of Lemma 3.7)",
        title="From a sanitizer to a private learner",
        statement=(
            "Given an (alpha, beta, eps, delta)-sanitizer for C^xor with sample size m, there is a "
            "proper (alpha, beta)-PAC (eps, delta)-DP learner for C with "
            "n = O(m + (VC/(alpha eps)) ln m + (VC/alpha^2) ln(1/(alpha beta))) samples."),
        math="Algorithm 2 with k = 1 over the point sanitizer; bound: Lemma 3.7's three events at k = 1.",
        simulator=BnsThm223(), plotter="bns.specs:thm2_23", claims=claims,
        notes=("Same agnostic POINT instance and learner as bns.cor3_9, with one concept and eps "
               "varied; basic accounting (eps/2 for the sanitizer, eps/2 for the mechanism)."))


@entry("bns.thm2_24")
def _bns_thm2_24() -> Theorem:
    from privbounds.simulators.bns.subsample import BnsThm224

    claims = [
        UpperBound("upper",
                   "Subsampled Algorithm 5 as an empirical k-learner: database size n_hat <= 9 n_alg5",
                   lambda p: True, ("k",),
                   bound=use(bns_bounds.n_empirical_alg5)),
        Scaling("scaling-k", "the empirical k-learner inherits Alg 5's k-freedom (predicted exponent 0, "
                             "tolerance 0.05). An upper bound: Theorem 2.24 turns Algorithm 5's k-free guarantee "
                             "into one on 9n rows",
                lambda p: True, ("k",), variable=lambda p: p["k"], variable_name="k", predicted=0.0,
                tolerance=0.05, direction="upper"),
    ]
    return Theorem(
        number="Theorem 2.24 (with Lemma 2.25)",
        title="From a private PAC k-learner to a private empirical k-learner",
        statement=("An (eps, delta)-DP (alpha, beta)-accurate PAC k-learner on n samples gives an "
                   "(eps, delta)-DP (alpha, beta)-accurate empirical k-learner on 9n rows: run it on n rows "
                   "drawn with replacement from the database (eps <= 1)."),
        math="m = 9n; privacy by Lemma 2.25: (2/3 eps, e^(2 eps/3)(4/9) delta).",
        simulator=BnsThm224(), claims=claims,
        notes=("Inner learner: Algorithm 5 (bns.thm3_13) on databases drawn from that theorem's POINT "
               "instance over 2^16 points; accuracy is measured on the database itself."))


@entry("bns.lem2_25")
def _bns_lem2_25() -> Theorem:
    from privbounds.simulators.bns.subsample import BnsLem225

    claims = [Ceiling(
        "ceiling-amplified",
        "Subsampled Laplace count: P_D[output > tau] <= e^(6 eps n/m) P_D'[output > tau] (delta = 0), "
        "P_D' computed exactly",
        lambda p: True, ("epsilon", "inner_n"),
        bound=use(bns_bounds.subsampling_ceiling, m=lambda p: p["n"],
                  neighbour_probability=lambda p: BnsLem225.neighbour_tail(p, p["n"])))]
    return Theorem(
        number="Lemma 2.25 (secrecy of the sample)",
        title="Privacy amplification by subsampling",
        statement=("If A is (eps, delta)-DP on n rows (eps <= 1), then running A on n rows drawn with "
                   "replacement from m >= 2n rows is (6 eps n/m, exp(6 eps n/m)(4n/m) delta)-DP."),
        math="eps~ = 6 eps n / m, delta~ = exp(eps~)(4n/m) delta (our constants, RECONSTRUCTED).",
        simulator=BnsLem225(), plotter="bns.specs_lower:lem2_25", claims=claims,
        notes=("A: Laplace count of the rows equal to 0 among the n subsampled rows; D has m/2 such rows "
               "and D' one fewer; tau = n/2 + 4. One event and one direction: a Monte Carlo check can "
               "refute the lemma's inequality for this event, not prove it for all."))

