"""Bassily et al., "Private Query Release Assisted by Public Data" (ICML 2020), section 4:
binary decision stumps (Definition 4.1), their private-only and public-only baselines
(section 1.1), the lower bound for releasing them with public data (Theorem 4.2) and the
robust tracing attack behind it (Theorem 4.3, a special case of Dwork, Smith, Steinke,
Ullman, Vadhan 2015).

Scale: answers and alpha on the +-1 scale. The paper's formulas were lost from our copy;
the shapes (sqrt(p)/alpha private, 1/alpha^2 public) are its own words, every explicit
constant is ours (bounds/pap.py) and hidden constants are tested as scaling claims."""

from __future__ import annotations

import math

from privbounds.bounds import pap as pap_bounds
from privbounds.claims import UP_TO_LOGS, Ceiling, Scaling, UpperBound, use, where
from privbounds.registry import BOUND_ONLY, Theorem, entry

MAIN_ALPHA = 0.1  # the frontier's alpha (pap.thm4_2): the p and m sweeps run at it


def _m_scaled(p):
    return p["m"] * p["alpha"] ** 2


@entry("pap.def4_1")
def _def4_1() -> Theorem:
    return Theorem(
        number="Definition 4.1", title="Binary decision stumps",
        statement=("STUMP_p is the class of p queries h_j(x) = x_j on the domain {-1, +1}^p (the 1-way marginals). "
                   "Its VC dimension is floor(log2 p) and its dual VC dimension is p: a large gap between the two."),
        math="STUMP_p = {h_j : j in [p]}, h_j(x) = x_j on {+-1}^p; VC = floor(log2 p), dual VC = p.",
        status=BOUND_ONLY, tested_by=("pap.thm4_2", "pap.thm4_3"),
        reason=("A definition: there is nothing to measure, but its two dimensions are checked by brute force "
                "(tests/pap/test_stumps.py::test_stump_dimensions_by_brute_force: VC and dual VC of the full "
                "query matrix for p = 1 .. 8 equal floor(log2 p) and p; a k-point set is shattered iff the p "
                "columns show all 2^k patterns, i.e. 2^k <= p). The class is the one Theorems 4.2 and 4.3 "
                "release and attack; we read it without negations (the paper's text lost the formula), which "
                "changes neither dimension by more than one nor any bound's shape."))


@entry("pap.base_stumps")
def _base_stumps() -> Theorem:
    from privbounds.simulators.pap.base_stumps import PapBaseStumps

    gauss, public = where(mechanism="gauss"), where(mechanism="public")
    claims = [
        UpperBound("upper-gauss",
                   "Gaussian release (private data only): n_hat <= max(8 sqrt(p ln(1.25/delta) ln(4p/beta))/"
                   "(eps alpha), 8 ln(4p/beta)/alpha^2) (our constants), at every p and distribution",
                   gauss, ("p", "dist"), bound=use(pap_bounds.n_gauss_stumps)),
        UpperBound("upper-public",
                   "Public means (public data only; the searched size is the PUBLIC m): m_hat <= 2 ln(2p/beta)/"
                   "alpha^2, at every p and distribution",
                   public, ("p", "dist"), bound=use(pap_bounds.m_public_stumps)),
        Scaling("scaling-p-gauss",
                "Gaussian release: n_hat grows like sqrt(p) (exponent 0.5 in p, up to the sqrt(ln p) of the "
                "union bound), worst distribution at each p. An upper bound: the Gaussian mechanism's guarantee; "
                "Theorem 4.2's matching sqrt(p)/alpha needs p >= 1/alpha^2, and this grid starts below it",
                gauss, ("p",), variable=lambda p: p["p"], variable_name="p", predicted=0.5,
                tolerance=UP_TO_LOGS, worst_over=("dist",), direction="upper"),
        Scaling("scaling-p-public",
                "Public means: m_hat / ln(2p/beta) does not grow with p (exponent 0: the public cost is "
                "logarithmic in p; the p empirical means must all be accurate, so ln(2p/beta) is paid), worst "
                "distribution at each p. An upper bound: Hoeffding with the p means; no lower bound is proved",
                public, ("p",), variable=lambda p: p["p"], variable_name="p", predicted=0.0,
                factor=lambda p: math.log(2 * p["p"] / p["beta"]), factor_name="ln(2p/beta)",
                tolerance=UP_TO_LOGS, worst_over=("dist",), direction="upper"),
    ]
    return Theorem(
        number="Section 1.1, item 2 and the opening of section 4 (baselines)",
        title="Decision stumps from private data alone or from public data alone",
        statement=("STUMP_p can be released to error alpha either privately, from about sqrt(p)/alpha private "
                   "samples and none public (the Gaussian mechanism), or from about log(p)/alpha^2 public samples "
                   "and none private (the empirical means)."),
        math=("Gaussian: G = mean + N(0, s^2 I), s = 2 sqrt(p) sqrt(2 ln(1.25/delta))/(n eps); n >= max(8 sqrt(p "
              "ln(1.25/delta) ln(4p/beta))/(eps alpha), 8 ln(4p/beta)/alpha^2). Public: m >= 2 ln(2p/beta)/alpha^2."),
        simulator=PapBaseStumps(), plotter="pap.specs:base_stumps", claims=claims,
        notes=("alpha = 0.1, eps = 1, delta = 1e-6, beta = 0.1; product distributions with mu = 0 (every coordinate "
               "at the largest variance) and mu_j uniform on (-1, 1), redrawn per trial. Errors are exact "
               "(E_D h_j = mu_j). The searched size of the public-only series is the public m: no private row is "
               "read. Both bounds are ours (Gaussian tail and Hoeffding with a union bound over the p queries); "
               "the scaling claims fit the worst of the two distributions at each p."))


@entry("pap.thm4_2")
def _thm4_2() -> Theorem:
    from privbounds.simulators.pap.stumps_frontier import ALPHA_SWEEP_M, ALPHA_SWEEP_P, PapThm42

    main = lambda p: p["alpha"] == MAIN_ALPHA  # noqa: E731
    claims = [
        UpperBound("upper-private-only",
                   "No public data (m = 0): n_hat <= the explicit Gaussian bound of pap.base_stumps, at every p, "
                   "alpha and distribution",
                   where(m=0), ("p", "alpha", "dist"), bound=use(pap_bounds.n_gauss_stumps)),
        Scaling("scaling-p",
                "While m alpha^2 <= 0.25 (public data far below 1/alpha^2), n_hat grows like sqrt(p): exponent "
                "0.5 in p up to log factors, worst distribution at each (p, m). Tight: Theorem 4.2's lower bound "
                "(n = Omega~(sqrt(p)/alpha) while m is below 1/alpha^2, p >= 1/alpha^2 as here) and section 1.1's "
                "Gaussian release (sqrt(p)/alpha up to logs, the private part of our algorithm) have exponent 1/2",
                lambda p: main(p) and _m_scaled(p) <= 0.25 + 1e-9, ("p", "m"),
                variable=lambda p: p["p"], variable_name="p", predicted=0.5, tolerance=UP_TO_LOGS,
                worst_over=("dist",), direction="tight"),
        Scaling("scaling-alpha",
                "At m alpha^2 in {0, 0.25}, n_hat grows like 1/alpha: exponent 1 in 1/alpha up to log factors, "
                "worst distribution at each (alpha, m). A lower bound: Theorem 4.2 forces sqrt(p)/alpha; the "
                "Gaussian release's upper bound also has a sampling term 1/alpha^2, so faster growth is "
                "consistent",
                lambda p: any(abs(_m_scaled(p) - k) < 1e-6 for k in ALPHA_SWEEP_M) and p["p"] == ALPHA_SWEEP_P,
                ("alpha", "m"), variable=lambda p: 1 / p["alpha"], variable_name="1/alpha", predicted=1.0,
                tolerance=UP_TO_LOGS, worst_over=("dist",), direction="lower"),
        Scaling("scaling-m-flat",
                "Public data below 1/alpha^2 do not help: over m alpha^2 in [0.05, 0.5], n_hat / (the private-only "
                "bound at that p) is flat in m (exponent 0), against the laws m^(-1/3), m^(-1/2), m^(-1) under "
                "which public data would substitute for private data; worst distribution at each (p, m). A lower "
                "bound: Theorem 4.2 proves that n does not fall while m is below 1/alpha^2; only a fall refutes it",
                lambda p: main(p) and 0.05 - 1e-9 <= _m_scaled(p) <= 0.5 + 1e-9, ("p", "m"),
                variable=lambda p: p["m"], variable_name="m", predicted=0.0,
                factor=lambda p: float(pap_bounds.n_gauss_stumps(p["alpha"], p["beta"], p["epsilon"], p["delta"],
                                                                 p["p"])),
                factor_name="n_gauss(p)", tolerance=UP_TO_LOGS, competitors=(-1.0, -0.5, -1 / 3),
                worst_over=("dist",), direction="lower"),
    ]
    return Theorem(
        number="Theorem 4.2", title="Lower bound for releasing decision stumps with public data",
        statement=("Every PAP algorithm that releases STUMP_p to error alpha, (eps, delta)-differentially private in "
                   "its private samples, needs either about 1/alpha^2 public samples or about sqrt(p)/alpha private "
                   "ones: public data below 1/alpha^2 do not lower the private cost."),
        math=("either m = Omega(1/alpha^2) or n = Omega~(sqrt(p)/alpha) (for eps = O(1), delta = o(1/n), "
              "p >= 1/alpha^2). Our algorithm: G = w mean(x_pub) + (1 - w)(mean(x_priv) + N(0, s^2 I)), "
              "w = v_priv/(v_priv + v_pub), v_pub = 1/m, v_priv = 1/n + s^2."),
        simulator=PapThm42(), plotter="pap.stumps:thm4_2", claims=claims,
        notes=("The lower bound is over all algorithms: a simulation can only show that the best algorithm we have "
               "lies on the predicted shape, and demonstrate the attack that forces it (pap.thm4_3). Our algorithm "
               "combines public and private means by inverse variance; its weights use sizes only, so it is the "
               "Gaussian mechanism on the private sample followed by post-processing with the public sample held "
               "fixed. alpha = 0.1, p = 128, 512, 2048, m alpha^2 in {0, 0.05, 0.25, 0.5, 1, 2, 4, 8} (and 0.1 "
               "at full fidelity); an alpha sweep (0.2, 0.1, 0.05) at p = 512 with m alpha^2 in {0, 0.25}. "
               "Distributions: mu = 0 and mu_j uniform per trial; every claim takes the worst of the two at each "
               "parameter setting. Every search runs on one absolute grid (powers of 2^(1/4) from a power of 2), "
               "so equal n_hat at neighbouring points means 'within a grid step', and no n_hat is snapped to a "
               "multiple of the bound. No lower-bound claim with a constant: the paper hides it. As alpha falls "
               "the sampling error (1/sqrt(n) against the noise's sqrt(p)/n) gains weight, so the exponent in "
               "1/alpha lies somewhat above 1, which the one-sided (lower-bound) claim allows. The flatness claim divides n_hat by the private-only bound at its p (a function of p alone) so "
               "that several p share one fit in m; the competing laws are those under which public samples "
               "would replace private ones. The figure shows n_hat alpha/sqrt(p) against m alpha^2, with the "
               "public-only requirement 2 ln(2p/beta)/alpha^2 and 1/alpha^2 as vertical lines. Our proof "
               "reading: the tracing attack on the pooled sample of n + m rows flags about kappa/alpha^2 rows "
               "when n + m <= n_0; if m < kappa/(2 alpha^2) at least kappa/(2 alpha^2) of them are private, so "
               "some private row is accused with probability >= kappa/(4 alpha^2 n), more than e^eps rho + delta "
               "allows. The conclusion n >= n_0 - m >= n_0/2 needs n_0 >= 2m, which m < kappa/(2 alpha^2) and "
               "n_0 >= kappa/alpha^2 give (this is where p >= ~1/alpha^2 enters)."))


@entry("pap.thm4_3")
def _thm4_3() -> Theorem:
    from privbounds.simulators.pap.tracing import PapThm43

    claims = [
        Ceiling("ceiling-false-positive",
                "Every mechanism, every N: P[some of the 100 fresh rows from D (independent of the release) is "
                "accused] <= 1 - (1 - rho)^100 (soundness: each fresh row is accused with probability <= rho "
                "given any release)",
                where(event="fp"), ("mechanism", "p"),
                bound=use(pap_bounds.tracing_any_false_positive)),
        Ceiling("ceiling-dp-member",
                "The (eps, delta)-DP combined release: P[the first private row is accused] <= e^eps rho + delta "
                "(DP against the sample with that row replaced by a fresh one, which soundness caps at rho)",
                where(event="member", mechanism="combo"), ("mechanism", "p"),
                bound=use(pap_bounds.tracing_dp_ceiling)),
        Scaling("scaling-threshold-p",
                "Tracing threshold n_0 of the rounded marginals (alpha-accurate against the sample): the smallest "
                "N at which fewer than kappa0/alpha^2 = 8 rows are accused with probability >= 1 - beta grows like "
                "sqrt(p) (exponent 0.5 up to log factors), against the exact marginals' p. A lower bound: the "
                "theorem says tracing works up to some n_0 of order sqrt(p)/alpha, asymptotically, so the "
                "threshold of any alpha-accurate mechanism grows at least that fast; at simulable p the sampling "
                "error and the rounding make it grow faster, which contradicts nothing (notes)",
                where(event="untraced"), ("p",), variable=lambda p: p["p"], variable_name="p", predicted=0.5,
                tolerance=UP_TO_LOGS, direction="lower"),
    ]
    return Theorem(
        number="Theorem 4.3 (special case of Dwork-Smith-Steinke-Ullman-Vadhan 2015, Thm 17)",
        title="Robust tracing from the 1-way marginals",
        statement=("For every p and alpha there are n_0 ~ sqrt(p)/alpha and kappa > 0 such that from any "
                   "alpha-accurate release of the p stumps computed from N <= n_0 samples, an attacker who knows "
                   "the distribution accuses at least kappa/alpha^2 of the samples (with constant probability), "
                   "and accuses a fresh sample with probability at most rho."),
        math=("score s(y) = sum_j (y_j - mu_j)(G_j - mu_j); accuse iff s(y) > ||G - mu||_2 sqrt(2 ln(1/rho)). "
              "Soundness (Hoeffding, for every G): P[accuse fresh y] <= rho. DP release: P[accuse member] <= "
              "e^eps rho + delta. n_0 = Omega(sqrt(p / ln(1/rho)) / alpha)."),
        simulator=PapThm43(), plotter="pap.stumps:thm4_3", claims=claims,
        notes=_THM4_3_NOTES)


_THM4_3_NOTES = (
    "D is the product distribution with mu_j uniform on (a fine grid of) (-1, 1), redrawn per trial; rho = 1e-3, "
    "alpha = 0.25, eps = 1, delta = 1e-6. Mechanisms: the exact marginals of the pooled sample (full), the "
    "marginals of k = 1/alpha^2 = 16 random rows of it (sub), the exact marginals rounded to the nearest multiple of "
    "2 alpha (round: within alpha of the sample's means in every coordinate), the public marginals only (pub), and "
    "the DP combined release (combo). Rate curves at p = 1024 with half the rows public. "
    "Accuracy. The event 'accurate' records the paper's accuracy, max_j |G_j - mu_j| <= alpha against the "
    "population. Theorem 4.3 comes from DSS15, whose accuracy is weaker (mean_j |G_j - mean_j| <= alpha against "
    "the sample, which every mechanism here meets at alpha = 0.25 from N = 16 on). In the paper's sense no "
    "mechanism is alpha-accurate below the tracing threshold at simulable p: that needs about 2 ln(2p/beta)/"
    "alpha^2 rows, more than sqrt(p)/alpha until p is in the hundreds of thousands, so Theorem 4.2's use of the "
    "attack is asymptotic. "
    "Completeness. kappa0 = 1/2, fixed before any run: an alpha-accurate mean of +-1 values can be computed from "
    "about 1/alpha^2 rows (a subsample), and only the rows it reads can be traced, so no attack can promise more "
    "than a constant times 1/alpha^2 accusations; we ask for half of 1/alpha^2 (K = 8 rows at alpha = 0.25). The "
    "tracing threshold n_0 is searched for the rounded marginals, the alpha-accurate mechanism that hides the most "
    "(its error is spread over every coordinate; the subsample is always traced through the rows it reads). "
    "The sqrt(p)/alpha shape is asymptotic and a lower bound (the theorem's n_0 is the worst case over "
    "mechanisms). Our analysis of the score: a member is accused when (2/3) sqrt(p) / (N c) exceeds "
    "sqrt(2 ln(1/rho)) minus a term of order sqrt(2 ln(N/K)) (the count K is met in the tail once N >> K), with "
    "c^2 = (the mechanism's own error)^2 + 2/(3N). Where the sampling term 2/(3N) is not small against the "
    "mechanism's error (N alpha^2 of order 1) the exponent in p moves from 1/2 towards 1 (the exact marginals' "
    "law, n_0 ~ p / ln(1/rho)), and the sqrt(ln(N/K)) term raises it further as p and N grow: at the simulable "
    "p both are large, so the measured exponent lies well above 1/2 without contradicting the theorem, which only "
    "bounds the growth from below (the claim is one-sided). "
    "kappa_hat = alpha^2 x (median number accused) is measured at N = sqrt(p / ln(1/rho)) / alpha (Theorem 4.3's "
    "n_0 with constant 1) from the curve 'flagged' (P[at least t accused] against t) and shown in the figure. "
    "Privacy. The epsilon the accusations certify, ln((P_low[member accused] - delta) / P_high[fresh accused]) "
    "with Clopper-Pearson ends (each at 97.5%) and P_high[fresh accused] = 1 - (1 - upper end of P[some of 100 "
    "fresh accused])^(1/100) (valid by Jensen: given the release the fresh rows are accused independently), is "
    "drawn for each mechanism; for the DP release it must stay below eps. The tracer (centred score, Hoeffding "
    "threshold, strict inequality so that G = mu accuses nobody) is ours: DSS15's may use a reference sample in "
    "place of mu and another threshold. Per-member rates are those of a fixed role (the first private row); every "
    "row event judges one row per trial, the other rows entering through binomial coordinate sums (exact in law).")
