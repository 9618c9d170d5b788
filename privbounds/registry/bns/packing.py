"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts", section 5:
packing lower bounds for pure privacy."""

from __future__ import annotations

import math

from privbounds.bounds import bns as bns_bounds
from privbounds.claims import UP_TO_LOGS, Ceiling, LowerBound, Scaling, use, where
from privbounds.registry import Theorem, entry


def _thm5_1_scaling() -> list:
    """Theorem 5.1's growth laws in k: tight on the packing instance, where the paper's lower
    bound and each learner's upper bound have exponent 1."""
    from privbounds.simulators.bns.cor3_4 import n_buckets
    from privbounds.simulators.bns.thm5_1 import ALPHA

    claims = []
    for cls, name, size in (("point", "POINT", lambda d: 2 ** d), ("thresh", "THRESH", lambda d: 2 ** d + 1)):
        for d in (1, 4):
            claims.append(Scaling(
                f"scaling-k-d{d}" if cls == "point" else f"scaling-k-thresh-d{d}",
                f"Direct sum (basic composition) on {name}_{d}: n_hat / (ln|H| + ln(2k/beta)) grows "
                "like k. Tight: on this, the proof's own instance, Theorem 5.1's packing lower bound (k/eps) and the "
                "direct sum's upper bound (Observation 3.2 / Corollary 3.4, k ln|H|/eps) have exponent 1 in k",
                where(experiment="search", d=d, learner="directsum-basic", **{"class": cls}), ("k",),
                variable=lambda p: p["k"], variable_name="k", predicted=1.0,
                factor=lambda p, size=size: float(bns_bounds.direct_sum_log_factor(size(p["d"]), p["k"], p["beta"])),
                factor_name="ln|H| + ln(2k/beta)", tolerance=UP_TO_LOGS, direction="tight"))
    claims.append(Scaling(
        "scaling-k-hash",
        "Hash-learner direct sum (Cor 3.3) on POINT: n_hat / (ln(M + 1) + ln(2k/beta)) grows like k, "
        "M = ceil(2k/(alpha beta)) buckets. Tight: Theorem 5.1's lower bound (k/eps, on this instance) and "
        "Corollary 3.3's upper bound (k/eps up to logs) have exponent 1 in k",
        where(experiment="search", learner="hash-directsum"), ("k",),
        variable=lambda p: p["k"], variable_name="k", predicted=1.0,
        factor=lambda p: float(bns_bounds.direct_sum_log_factor(n_buckets(ALPHA, p["beta"], p["k"]) + 1,
                                                                p["k"], p["beta"])),
        factor_name="ln(M + 1) + ln(2k/beta)", tolerance=UP_TO_LOGS, direction="tight"))
    claims.append(Scaling(
        "scaling-k-alg2",
        "Algorithm 2 over the tree sanitizer on THRESH_4, k >= 8 (where the k-free sanitizer cost "
        "no longer dominates): n_hat / (ln(8/alpha + 2) + ln(2k/beta)) grows like k. Tight: Theorem 5.1's lower "
        "bound (k/eps, on this instance) and Lemma 3.7's upper bound with basic composition (k VC/eps up to "
        "logs) have exponent 1 in k",
        lambda p: p.get("experiment") == "search" and p["learner"] == "alg2-tree-basic" and p["k"] >= 8,
        ("k",), variable=lambda p: p["k"], variable_name="k", predicted=1.0,
        factor=lambda p: float(bns_bounds.direct_sum_log_factor(8 / ALPHA + 2, p["k"], p["beta"])),
        factor_name="ln(8/alpha + 2) + ln(2k/beta)", tolerance=UP_TO_LOGS, direction="tight"))
    return claims


@entry("bns.thm5_1")
def _bns_thm5_1() -> Theorem:
    from privbounds.simulators.bns.thm5_1 import BnsThm51, packing_success_exact

    keys = ("learner", "class", "d", "k")
    alg2 = "alg2-tree-basic"
    claims = [
        # the direct sums' and the hash learner's n_hat is exact (their p(n) below, nondecreasing
        # in n): those points are decided on it; Algorithm 2's on its Monte Carlo interval
        LowerBound(
            "lower-nhat",
            "Every pure-DP k-learner we have (direct sums on POINT and THRESH, the hash learner, "
            "Algorithm 2 over the tree sanitizer): n_hat >= (k ln 2 + ln(1 - beta))/eps; decided on the exact "
            "n_hat (from the exact p(n) of ceiling-success) except for Algorithm 2",
            where(experiment="search"), keys,
            bound=use(bns_bounds.packing_lower_bound), exact_success=packing_success_exact,
            exact_where=lambda p: p["learner"] != alg2),
        # the direct sums' and the hash learner's success has a closed form (independent
        # columns, two score levels each): decided on it, the Monte Carlo rate cross-checks
        Ceiling(
            "ceiling-success",
            "Direct sums on POINT and THRESH and the hash learner: success probability p(n) <= "
            "e^(eps n)/2^k on the packing instance, decided on the exact p(n) = ((m1/(m1 + m0 e^(-eps0 n/2)) + "
            "m0/(m0 + m1 e^(-eps0 n/2)))/2)^k (m1, m0: hypotheses labelling x0 with 1, 0)",
            lambda p: p.get("experiment") == "curve" and p["learner"] != alg2, keys,
            bound=use(bns_bounds.packing_success_ceiling), closed_form=packing_success_exact),
        # Algorithm 2's columns share the sanitized support, whose law has no small sum
        Ceiling(
            "ceiling-success-alg2",
            "Algorithm 2 over the tree sanitizer: success probability p(n) <= e^(eps n)/2^k on the "
            "packing instance (Monte Carlo: no closed form)",
            where(experiment="curve", learner=alg2), keys,
            bound=use(bns_bounds.packing_success_ceiling)),
        *_thm5_1_scaling(),
    ]
    return Theorem(
        number="Theorem 5.1",
        title="Packing lower bound for pure-DP k-learning",
        statement=(
            "For any class with two concepts that disagree at some point, every eps-DP (proper "
            "or improper) PAC k-learner needs Omega(k / eps) rows: the direct sum is optimal "
            "for pure privacy, even for points and even in the realizable model."),
        math=("n >= (k ln 2 + ln(1 - beta)) / eps; on the packing instance "
              "p(n) <= e^(eps n) / 2^k."),
        simulator=BnsThm51(), plotter="bns.thm5_1:plot", claims=claims,
        notes=("Instance: the proof's own. n copies of (x0, b) with b uniform in {0,1}^k under the "
               "point mass at x0 (x0 = 0 for POINT_d, the middle of the domain for THRESH_d). "
               "Learners, every pure eps-DP one we have: the basic-composition direct sum of the "
               "exponential mechanism over POINT_1 (the two-concept class), POINT_4, THRESH_1 and "
               "THRESH_4; the hash-learner direct sum of Cor 3.3 (improper, our substitute) "
               "on POINT_4; Algorithm 2 over the binary-tree sanitizer with basic composition "
               "(Cor 3.10's pure reading) on THRESH_4. The (eps, delta)-DP learners (Algorithm 1 "
               "inside Algorithm 2, Algorithm 5) are not covered by the theorem. Curves use "
               "eps = 0.25 so that the ceiling stays below 1 over a useful range of n. The success of the "
               "direct sums and of the hash learner is exact (``packing_success_exact``): columns are "
               "independent given b, and each chooses between m1 hypotheses labelling x0 with 1 and m0 labelling "
               "it 0 (POINT_d: 1 and 2^d - 1; THRESH_d: 2^(d-1) and 2^(d-1) + 1; hash: x0's bucket and M), "
               "whose errors are 0 and n. Algorithm 2's success is estimated only: its columns share the "
               "sanitized support (a 30-node Laplace integral through a running maximum and rounding)."))


@entry("bns.rem5_2")
def _bns_rem5_2() -> Theorem:
    from privbounds.simulators.bns.packing import BnsRem52, accuracy_packing_success_exact

    def logf(p):
        return float(bns_bounds.direct_sum_log_factor(2 ** p["d"], p["k"], p["beta"]))

    claims = [
        LowerBound(
            "lower-nhat",
            "Direct sum (basic composition) on POINT_4 under P(x0) = 2 alpha, P(x1) = 1 - 2 alpha: "
            "n_hat >= (k ln 2 + ln(1/2 - beta))/(4 alpha eps), decided on the exact n_hat (from the exact "
            "p(n) = sum over n0 ~ Bin(n, 2 alpha) of ((P1 + P0)/2)^k)",
            lambda p: True, ("alpha", "k"),
            bound=use(bns_bounds.packing_accuracy_lower_bound), exact_success=accuracy_packing_success_exact),
        Scaling(
            "scaling-alpha",
            f"Direct sum, k = {BnsRem52.K_FOR_ALPHA}: n_hat grows like 1/alpha (predicted exponent 1 "
            "in 1/alpha), as the bound does. A lower bound: Remark 5.2 forces k/(alpha eps); the direct sum's "
            "proved upper bound (Corollary 3.4) carries an agnostic 1/alpha^2 term, so no theorem here bounds "
            "the growth in 1/alpha from above",
            where(k=BnsRem52.K_FOR_ALPHA), ("alpha",), variable=lambda p: 1 / p["alpha"], variable_name="1/alpha",
            predicted=1.0, tolerance=UP_TO_LOGS, direction="lower"),
    ]
    for a in (0.05, 0.1, 0.2):
        claims.append(Scaling(
            f"scaling-k-alpha{a:g}",
            f"Direct sum, alpha = {a:g}: n_hat / (ln|X| + ln(2k/beta)) grows like k. Tight: on this, the remark's "
            "own instance, Remark 5.2's lower bound (k/(alpha eps)) and Corollary 3.4's direct-sum upper bound "
            "(k ln|X|/(alpha eps) up to logs) have exponent 1 in k",
            where(alpha=a), ("k",), variable=lambda p: p["k"], variable_name="k", predicted=1.0,
            factor=logf, factor_name="ln|X| + ln(2k/beta)", tolerance=UP_TO_LOGS, direction="tight"))
    return Theorem(
        number="Remark 5.2",
        title="Packing with accuracy: k/(alpha eps) for pure-DP k-learning",
        statement=(
            "If the class has two concepts that differ at a point x0 and agree at a point x1, the "
            "packing bound of Theorem 5.1 improves to Omega(k/(alpha eps)): put mass 2 alpha on x0 "
            "and the rest on x1, so that only about 2 alpha n rows carry the label vector."),
        math=("n >= (k ln 2 - ln(1/(1/2 - beta)))/(4 alpha eps) for alpha <= 1/2, beta < 1/2 "
              "(explicit constant RECONSTRUCTED: Markov puts <= 4 alpha n rows on x0 w.p. >= 1/2)."),
        simulator=BnsRem52(), plotter="bns.specs_lower:rem5_2", claims=claims,
        notes=("Instance: POINT_4 with x0 = 0, x1 = 1, P(x0) = 2 alpha; column j is labelled by c_x0 "
               "(v_j = 1) or by a point concept outside {x0, x1} (v_j = 0), v uniform. Learner: the "
               "exponential mechanism over POINT_4 per column, eps/k each (grouped sampler). Errors "
               "under P are exact; alpha < 1/3 so that success is h_j(x0) = v_j and h_j(x1) = 0. "
               "Its success probability is an exact sum (``accuracy_packing_success_exact``: n0 ~ Bin(n, 2 alpha) "
               "rows at x0, then independent columns), so n_hat is exact; the Monte Carlo interval cross-checks it. "
               "The bound is negative (vacuous) at k = 1 for beta = 0.1."))


@entry("bns.lem5_3")
def _bns_lem5_3() -> Theorem:
    from privbounds.simulators.bns.lem5_3 import BnsLem53

    level = 1e-3
    claims = [
        Ceiling(
            "ceiling-rounding",
            f"Rounding to the nearest parity never fails below a 1/4 fraction of corrupted points: "
            f"failure probability <= {level:g} (the lemma: 0) for m < 2^d/4, random and worst-case "
            "corruption",
            where(experiment="curve"), ("corruption", "d"),
            bound=use(bns_bounds.parity_rounding_failure_ceiling, corrupted=lambda p: p["n"], level=level)),
    ]
    for learner, what in (("histogram", "improper noisy-sign histogram (alpha = 0.2 < 1/4)"),
                          ("histogram-rounded", "the same, rounded to parities (proper, exact)")):
        claims.append(LowerBound(
            f"lower-thm5_4-{learner}",
            f"Thm 5.4 via Lem 5.3 for the {what}: n_hat >= (k d ln 2 + ln(1 - beta))/eps",
            where(experiment="search", learner=learner), ("k",),
            bound=use(bns_bounds.parity_packing_lower_bound)))
    return Theorem(
        number="Lemma 5.3",
        title="Improper to proper parity learning by rounding to the nearest parity",
        statement=(
            "Under the uniform distribution, rounding each hypothesis of an improper parity "
            "k-learner with accuracy alpha < 1/4 to its nearest parity gives a proper learner with "
            "the same sample size and privacy that recovers every target exactly, because two "
            "distinct parities disagree on exactly half of the cube."),
        math=("err(round(h), c) <= err(round(h), h) + err(h, c) <= 2 err(h, c) < 1/2 => round(h) = c; "
              "round(h) = argmax_a W(a), W the Walsh-Hadamard transform of (-1)^h."),
        simulator=BnsLem53(), plotter="bns.packing:plot_lem5_3", claims=claims,
        notes=("Curves: a target parity flipped on exactly m points (the curve's n is m), uniform over "
               "the cube (random) or over its disagreement set with another parity (worst case); the "
               "recorded event is that rounding FAILS. At m = 2^d/4 the worst case ties (ties go to "
               "the smaller index, so it fails about half the time); random corruption only fails "
               "close to m = 2^d/2. Searches: an improper pure-DP learner (Lap(2k/eps) on each signed "
               "count, h(x) = sign) and its rounding; the privacy of the rounded learner is that of "
               "the improper one (post-processing)."))


@entry("bns.thm5_4")
def _bns_thm5_4() -> Theorem:
    from privbounds.simulators.bns.packing import BnsThm54

    def logf(p):
        return p["d"] * math.log(2) + math.log(2 * p["k"] / p["beta"])

    claims = [
        LowerBound(
            "lower-nhat",
            "Pure direct sum of Ex 3.5 (every pure eps-DP k-learner for PAR_d): n_hat >= "
            "(k d ln 2 + ln(1 - beta))/eps",
            lambda p: True, ("d", "k"),
            bound=use(bns_bounds.parity_packing_lower_bound)),
    ]
    for d in (4, 6, 8):
        claims.append(Scaling(
            f"scaling-k-d{d}",
            f"Direct sum over PAR_{d}: n_hat / (d ln 2 + ln(2k/beta)) grows like k (predicted exponent 1; "
            "the bound grows like k d). Tight: Theorem 5.4's lower bound (k d/eps, under the uniform distribution "
            "measured here) and Example 3.5's upper bound (k d/eps up to logs) have exponent 1 in k",
            where(d=d), ("k",), variable=lambda p: p["k"], variable_name="k", predicted=1.0,
            factor=logf, factor_name="d ln 2 + ln(2k/beta)", tolerance=UP_TO_LOGS, direction="tight"))
    claims.append(Scaling(
        "scaling-d",
        f"Direct sum, k = {BnsThm54.K_FOR_D}, d = 2..10: n_hat grows like d ln 2 + ln(2k/beta) "
        "(predicted exponent 1; the bound's k d ln 2 is its d ln 2 part). Tight: Theorem 5.4's lower bound and "
        "Example 3.5's upper bound are both linear in d",
        where(k=BnsThm54.K_FOR_D), ("d",), variable=logf, variable_name="d ln 2 + ln(2k/beta)",
        predicted=1.0, tolerance=UP_TO_LOGS, direction="tight"))
    return Theorem(
        number="Theorem 5.4 (with Lemma 5.3)",
        title="Pure-DP parity k-learning needs k d / eps: the direct sum is optimal",
        statement=(
            "Every pure eps-DP k-learner for PAR_d under the uniform distribution (alpha < 1/4, "
            "proper or improper, by Lemma 5.3) needs Omega(k d / eps) samples, so the direct sum of "
            "Example 3.5 is optimal; approximate privacy escapes it (Thm 3.12, no k)."),
        math=("n >= (k d ln 2 + ln(1 - beta))/eps: 2^(kd) target vectors with disjoint exact-recovery "
              "events, databases at distance <= n, 1 >= 2^(kd) e^(-eps n)(1 - beta)."),
        simulator=BnsThm54(), plotter="bns.specs_lower:thm5_4", claims=claims,
        notes=("Learner and trials are bns.ex3_5's (exponential mechanism over all 2^d parities per "
               "column, eps/k each, errors from one Walsh-Hadamard transform), here on d in {4, 6, 8} "
               "times k in {1, ..., 64}, plus d = 2..10 at k = 4 for the growth in d."))

