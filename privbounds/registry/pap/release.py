"""Bassily et al., "Private Query Release Assisted by Public Data" (ICML 2020), sections 1-3:
the informal results, the cover and representative domain, PMW (Algorithm 1, Lemma 2.7),
Algorithm 3 and Theorem 3.1 with the remark after it and Lemma 3.3, and the public-only
and private-only baselines of section 1.

The paper's text lost its formulas; shapes it states in words are taken as given and
every explicit constant is ours, derived for our implementation (bounds/pap.py). Scale:
answers and alpha on the +-1 scale throughout."""

from __future__ import annotations

import math

from privbounds.bounds import pap as pap_bounds
from privbounds.claims import UP_TO_LOGS, Ceiling, Scaling, UpperBound, use, where
from privbounds.registry import BOUND_ONLY, SUMMARY, Theorem, entry


def _vc(p):
    return 1 if p.get("class", "thr") in ("thr", "pt") else 2 if p["class"] == "int" else max(
        1, int(math.floor(math.log2(p["p"]))))


def _pmw_sizes(p):
    """(N, K) of PMW over all of [T]: THR_T has T + 1 queries; the random class T."""
    return p["T"], (p["T"] + 1 if p.get("class", "thr") == "thr" else p["T"])


def _stump_queries_log(p):
    # Lemma 2.7's log(|H|/beta) with H~ = the p stumps (K = p at these m): the single pass compares
    # each query with fresh noise, so the largest of p noises is paid. Not pmw_log_factor's L, whose
    # union over the update cap c (about 35,000 p draws at alpha = 0.2) the algorithm never meets: that
    # divisor barely moves with p and left the growth of ln p in the fitted exponent
    return math.log(p["p"] / p["beta"])


@entry("pap.res1")
def _res1() -> Theorem:
    return Theorem(
        number="Section 1.1, items 1-3", title="Our results (informal)",
        statement=("(1) Any class of VC dimension d and dual VC dimension p can be released to error alpha from "
                   "about d/alpha public and sqrt(p) d^(3/2)/alpha^2 private samples, while public data alone need "
                   "about d/alpha^2. (2) For decision stumps, either about 1/alpha^2 public or about sqrt(p)/alpha "
                   "private samples are needed. (3) A class of infinite Littlestone dimension needs about 1/alpha "
                   "public samples, however many private ones there are."),
        math="m ~ d/alpha, n ~ sqrt(p) d^(3/2)/alpha^2; stumps: m ~ 1/alpha^2 or n ~ sqrt(p)/alpha; m >= ~1/alpha.",
        status=SUMMARY, tested_by=("pap.thm3_1", "pap.thm4_2", "pap.thm5_1"),
        reason="An informal summary of Theorems 3.1, 4.2 and 5.1, each measured under its own id.")


@entry("pap.def2_1")
def _def2_1() -> Theorem:
    return Theorem(
        number="Definition 2.1", title="An alpha-cover of a class with respect to a distribution",
        statement="A family H~ is an alpha-cover of H with respect to D if every h in H has some h~ in H~ with "
                  "Pr_D[h != h~] <= alpha.",
        math="max_h min_{h~} Pr_D[h(x) != h~(x)] <= alpha; with Algorithm 3's map h -> h~ (agreement on the "
             "public points) in place of the min.",
        status=BOUND_ONLY, tested_by=("pap.lem3_3", "pap.thm3_1"),
        reason="A definition, implemented as the checker simulators/pap/release.cover_radius (the radius with the "
               "algorithm's own map, computed exactly from D) and its closed forms for thresholds and intervals "
               "(the largest gap; the two largest gaps), which tests/pap/test_release.py checks against the "
               "brute-force radius; Lemma 3.3 measures it.")


@entry("pap.def2_2")
def _def2_2() -> Theorem:
    return Theorem(
        number="Definition 2.2", title="Representative domain (the dual class)",
        statement="Points x, x' are equivalent for H~ when every h in H~ agrees on them; a representative domain "
                  "keeps one point per class. Each h in H~ has the same mean under D and under the law of the "
                  "representatives.",
        math="x ~ x' iff h(x) = h(x') for all h in H~; E_D h~ = E_{D~} h~.",
        status=BOUND_ONLY, tested_by=("pap.thm3_1",),
        reason="A definition, implemented as the builder simulators/pap/release.representative_domain (np.unique "
               "on packed patterns; the thresholds' cells in the batched path). tests/pap/test_release.py checks "
               "E_D h~ = E_D~ h~ exactly and that the batched cells equal the generic classes; Algorithm 3 "
               "(Theorem 3.1) runs on it.")


@entry("pap.clm2_3")
def _clm2_3() -> Theorem:
    return Theorem(
        number="Claim 2.3", title="Size of a representative domain",
        statement="The representative domain of a finite class H~ has at most 2^|H~| points, and (Sauer-Shelah on "
                  "the dual class) at most Phi_p~(|H~|) = sum_{i <= p~} C(|H~|, i), p~ the dual VC dimension.",
        math="|X~| <= min(2^|H~|, Phi_p~(|H~|)) <= (e |H~| / p~)^p~.",
        status=BOUND_ONLY, tested_by=("pap.thm3_1",),
        reason="A deterministic inequality: tests/pap/test_release.py checks the realised |X~| against "
               "bounds.pap.representative_domain_size for thresholds (where Phi_1(K) = K + 1 is tight), intervals "
               "and random classes; Theorem 3.1's explicit bound uses it for every public sample.")


@entry("pap.fact2_4")
def _fact2_4() -> Theorem:
    return Theorem(
        number="Fact 2.4 (Assouad 1983)", title="Dual VC dimension is below 2^(d+1)",
        statement="A class of VC dimension d has dual VC dimension p < 2^(d+1).",
        math="p <= 2^(d+1) - 1.",
        status=BOUND_ONLY, tested_by=("pap.thm3_1",),
        reason="A combinatorial fact: tests/pap/test_release.py computes VC and dual VC by brute force "
               "(simulators/pap/query_classes.vc_dimension) on 200 random +-1 matrices and on STUMP_p, p = 2..8 "
               "(d = floor(log2 p), dual p, near the extreme), against bounds.pap.assouad_dual_vc.")


@entry("pap.def2_5")
def _def2_5() -> Theorem:
    return Theorem(
        number="Definition 2.5", title="Query release: the data structure and its worst-case error",
        statement="A query-release data structure G maps each h in H to an estimate of E_D h in [-1, 1]; its "
                  "error is the largest deviation over H.",
        math="err(G; D) = sup_{h in H} |G(h) - E_{x~D} h(x)|.",
        status=BOUND_ONLY, tested_by=("pap.lem2_7", "pap.thm3_1", "pap.base_pub", "pap.base_priv"),
        reason="A definition: every release experiment's success is err(G; D) <= alpha, computed exactly over the "
               "whole class from the distribution (threshold_error and the stumps' max |G_j - mu_j|).")


@entry("pap.def2_6")
def _def2_6() -> Theorem:
    return Theorem(
        number="Definition 2.6", title="Differential privacy",
        statement="M is (eps, delta)-DP if for neighbouring data sets (one element replaced) and every event S, "
                  "Pr[M(x) in S] <= e^eps Pr[M(x') in S] + delta.",
        math="Pr[M(x) in S] <= e^eps Pr[M(x') in S] + delta.",
        status=BOUND_ONLY, tested_by=("pap.lem2_7", "pap.thm3_1", "pap.base_priv"),
        reason="A definition: the privacy audits of the private algorithms check it empirically on neighbouring "
               "private samples, the public sample held fixed.")


@entry("pap.alg1")
def _alg1() -> Theorem:
    return Theorem(
        number="Algorithm 1", title="Private multiplicative weights (offline, finite class and domain)",
        statement="PMW answers a finite class over a finite domain from a private data set, running over every "
                  "query once in a fixed order and outputting a data structure.",
        math="Our parameters: c = floor(16 ln N / a^2) + 1, eps0 = eps / (4 sqrt(c ln(1/delta))), eta = a/4, "
             "threshold 3a/4, noise Lap(2/(eps0 n)), Lap(4/(eps0 n)), Lap(1/(eps0 n)).",
        status=BOUND_ONLY, tested_by=("pap.lem2_7", "pap.thm3_1", "pap.base_priv"),
        reason="An algorithm, implemented in simulators/pap/pmw_offline.py (batched over trials; three query "
               "structures); its accuracy is Lemma 2.7's experiment and its privacy is audited there one round "
               "at a time.")


@entry("pap.alg2")
def _alg2() -> Theorem:
    return Theorem(
        number="Algorithm 2", title="The interface of a public-data-assisted private (PAP) release algorithm",
        statement="Input: private data, public data, the class, (alpha, beta), (eps, delta); output: a data "
                  "structure for the class. Privacy is required with respect to the private data only.",
        math="release(private_counts, public_points, H, alpha, beta, eps, delta, rng) -> G.",
        status=BOUND_ONLY, tested_by=("pap.thm3_1",),
        reason="An interface: simulators/pap/release.release implements it for any finite class given as a "
               "+-1 matrix (one data set); tests/pap/test_release.py checks it and its bad-input messages.")


@entry("pap.def2_8")
def _def2_8() -> Theorem:
    return Theorem(
        number="Definition 2.8", title="(alpha, beta, eps, delta)-PAP query-release algorithm",
        statement="For every distribution D, given n private and m public samples from D, the algorithm is "
                  "alpha-accurate with probability >= 1 - beta, and for every public sample it is (eps, "
                  "delta)-DP in the private sample.",
        math="for all D: Pr[err(G; D) <= alpha] >= 1 - beta; for all x_pub: A(., x_pub) is (eps, delta)-DP.",
        status=BOUND_ONLY, tested_by=("pap.thm3_1", "pap.lem3_3"),
        reason="A definition: its 'for every D' is why each experiment runs a family of distributions and its "
               "claims take the worst; its privacy clause is why the audits hold the public sample fixed.")


@entry("pap.alg3")
def _alg3() -> Theorem:
    return Theorem(
        number="Algorithm 3", title="A_PAP: public cover, representative domain, PMW",
        statement="Build the cover from the public points (one hypothesis per pattern), its representative domain, "
                  "map the private points to representatives, run PMW, and answer each h by its cover member.",
        math="G(h) = G~(h~), h~ = the member agreeing with h on the public points.",
        status=BOUND_ONLY, tested_by=("pap.thm3_1",),
        reason="An algorithm, implemented in simulators/pap/release.py (generic, and batched for thresholds and "
               "stumps; the two agree exactly, tested); Theorem 3.1 measures it.")


@entry("pap.rem3_2")
def _rem3_2() -> Theorem:
    return Theorem(
        number="Remark after Theorem 3.1", title="Every class, via Assouad",
        statement="With p < 2^(d+1), Theorem 3.1 gives a private sample of about 2^(d/2) d^(3/2)/(eps alpha^2) "
                  "for any class of VC dimension d.",
        math="n = O~(2^(d/2) d^(3/2) / (eps alpha^2)).",
        status=BOUND_ONLY, tested_by=("pap.thm3_1",),
        reason="A corollary with a hidden constant (bounds.pap.n_pap_assouad_shape). Its ingredient, Assouad's "
               "bound, is checked by brute force (Fact 2.4); STUMP_p, where p is about 2^d, is the class on which "
               "Theorem 3.1's sqrt(p) is measured.")


@entry("pap.lem3_3")
def _lem3_3() -> Theorem:
    from privbounds.simulators.pap.lem3_3 import PapLem33

    claims = []
    for cls, name, d in (("thr", "THR_4096", 1), ("int", "INT_1024", 2)):
        claims += [
            UpperBound(f"upper-cover-{cls}",
                       f"{name}: the public m_hat at which the cover's radius is <= r with probability >= 1 - beta "
                       "stays below our explicit m_cover(r, beta, d) (double-sample bound)",
                       where(**{"class": cls}), ("dist", "radius"), bound=use(pap_bounds.m_cover, vc=d)),
            Scaling(f"scaling-radius-{cls}",
                    f"{name}, worst distribution: m_hat grows like 1/r after dividing out "
                    "d ln(1/r) + ln(1/beta) (the largest of about 1/r gaps between public points, which the cover "
                    "really meets; predicted exponent 1; public-only uniform convergence would need 2). An upper "
                    "bound: Lemma 3.3 is a sufficient public sample",
                    where(**{"class": cls}), ("radius",),
                    variable=lambda p: 1.0 / p["radius"], variable_name="1/radius", predicted=1.0,
                    factor=lambda p, d=d: d * math.log(1 / p["radius"]) + math.log(1 / p["beta"]),
                    factor_name="d ln(1/r) + ln(1/beta)", tolerance=UP_TO_LOGS, worst_over=("dist",),
                    direction="upper"),
        ]
    return Theorem(
        number="Lemma 3.3 (Alon, Bassily, Moran 2019, Lemma 3.3), with Definition 2.1",
        title="A public sample gives an alpha-cover",
        statement="With O((d log(1/alpha) + log(1/beta))/alpha) public points, the cover of Algorithm 3 is an "
                  "alpha-cover of H with respect to D with probability >= 1 - beta, for every D.",
        math="m_cover(r, beta, d) = smallest m with m >= 8/r and m >= (2/r)(2 d log2(2em/d) + log2(2/beta)).",
        simulator=PapLem33(), plotter="pap.specs:lem3_3", claims=claims,
        notes=("The searched size is the PUBLIC sample m (there is no private data here). Radii are exact: for "
               "THR the largest D-mass strictly between consecutive distinct public points, for INT the sum of "
               "the two largest such gaps. The explicit bound is ours (the paper's constants are lost); the "
               "shape (slope 1 in 1/alpha, with the log factor divided out) is the paper's."))


@entry("pap.base_pub")
def _base_pub() -> Theorem:
    from privbounds.simulators.pap.base_pub import PapBasePub

    return Theorem(
        number="Section 1 and abstract (unnumbered)", title="Public data only: about d/alpha^2 samples",
        statement="Without private data, releasing a class of VC dimension d to error alpha needs about "
                  "d/alpha^2 public samples (uniform convergence) - a quadratic gap to Algorithm 3's ~d/alpha.",
        math="finite H: m >= 2 ln(2|H|/beta)/alpha^2 (Hoeffding, union bound); THR_T: |H| = T + 1.",
        simulator=PapBasePub(), plotter="pap.specs:base_pub",
        claims=[
            UpperBound("upper", "Public empirical means on THR_4096: m_hat <= 2 ln(2(T+1)/beta)/alpha^2",
                       lambda p: True, ("dist", "alpha"),
                       bound=use(pap_bounds.m_public_only, n_queries=lambda p: p["T"] + 1)),
            Scaling("scaling-alpha", "Worst distribution: m_hat grows like 1/alpha^2 (predicted exponent 2; "
                    "Algorithm 3's public requirement grows like 1/alpha). An upper bound: Hoeffding over the T + 1 "
                    "queries; the paper proves no lower bound for public data alone", lambda p: True, ("alpha",),
                    variable=lambda p: 1.0 / p["alpha"], variable_name="1/alpha", predicted=2.0,
                    worst_over=("dist",), direction="upper"),
        ],
        notes="The searched size is the PUBLIC sample m. Error 2 sup_t |F_m(t) - F(t)|, exact.")


@entry("pap.lem2_7")
def _lem2_7() -> Theorem:
    from privbounds.simulators.pap.pmw_sims import UPDATE_SHARE, PapLem27

    claims = []
    for cls, name in (("thr", "THR_256 over all of [256]"), ("random", "a random class, 64 queries over 64 points")):
        claims += [
            UpperBound(f"upper-{cls}", f"PMW (Alg 1) on {name}: n_hat <= our explicit n_PMW(alpha, beta, eps, "
                       "delta, N, K)", where(**{"class": cls, "measure": "search"}), ("dist", "alpha"),
                       bound=use(pap_bounds.n_pmw_offline, domain_size=lambda p: _pmw_sizes(p)[0],
                                 n_queries=lambda p: _pmw_sizes(p)[1])),
            Scaling(f"scaling-alpha-{cls}", f"PMW on {name}, worst distribution: n_hat grows like 1/alpha^2 "
                    "(predicted exponent 2, the shape of Lemma 2.7's bound). Nothing is divided out: the lemma's "
                    "only log factor, log(|H|/beta), does not depend on alpha (our explicit bound's L also holds a "
                    "union over the update cap c ~ 1/alpha^2, which the single pass never meets). An upper bound: "
                    "a smaller exponent means Lemma 2.7 is loose in alpha here",
                    where(**{"class": cls, "measure": "search"}), ("alpha",),
                    variable=lambda p: 1.0 / p["alpha"], variable_name="1/alpha", predicted=2.0,
                    tolerance=UP_TO_LOGS, worst_over=("dist",), direction="upper"),
        ]
    claims += [
        Ceiling("failure-at-bound", "PMW on THR_256 at n = n_PMW (alpha = 0.2): the failure probability "
                "(error > alpha) is at most beta", where(measure="accuracy"), ("dist",),
                bound=use(pap_bounds.failure_ceiling)),
        Ceiling("updates-slack", f"Observation, not a statement of the paper: at n = n_PMW the realised number of "
                f"updates exceeds {UPDATE_SHARE:.0%} of the cap c with probability at most beta (the analysis "
                "only needs < c)", where(measure="updates"), ("dist",), bound=use(pap_bounds.failure_ceiling)),
    ]
    return Theorem(
        number="Lemma 2.7 (corollary of Dwork-Roth Thm 4.15), with Algorithm 1",
        title="PMW releases a finite class from private data",
        statement="PMW is (eps, delta)-DP, and with n = O(sqrt(log|X| log(1/delta)) log(|H|/beta)/(eps alpha^2)) "
                  "private samples from any D it answers every query of H within alpha with probability >= 1 - "
                  "beta.",
        math=("Ours, for our PMW at 0/1 accuracy a = alpha/4: n_PMW = max(ceil(384 L sqrt(c ln(1/delta))/(eps "
              "alpha)), ceil(8 ln(4K/beta)/alpha^2)), c = floor(256 ln N/alpha^2) + 1, L = ln(2(K + 2c + 1)/beta)."),
        simulator=PapLem27(), plotter="pap.specs:lem2_7", claims=claims,
        notes=("PMW's internals are ours (the paper gives only its interface): AboveThreshold between updates, one "
               "pass over the queries in a random order, advanced composition. The family of distributions is there "
               "because the theorem is for every D; the claims use the worst. What we find: n_hat stays {slack: upper-thr} "
               "(thresholds) and {slack: upper-random} (random class) times below the explicit bound, and grows more slowly than 1/alpha^2 on both classes at full fidelity: the "
               "1/alpha^2 of the analysis is an upper bound, reached by a worst case our instances do not hit (thresholds, for one, admit much cheaper "
               "private release: the binary tree of pap.base_priv). The random class's alpha sweep starts at 0.2: "
               "above that the uniform start already answers most of its queries within alpha and PMW barely learns "
               "(a first run's sweep from 0.4 to 0.15 fitted an exponent far above 2, a start-up effect, not the law)."))


@entry("pap.base_priv")
def _base_priv() -> Theorem:
    from privbounds.simulators.pap.pmw_sims import PapBasePriv

    return Theorem(
        number="Section 1 (unnumbered)", title="Private data only: the cost grows with the domain",
        statement="Without public data the best private sample complexity for a finite domain is PMW's, growing "
                  "with sqrt(log|X|); for thresholds over an infinite domain no finite private sample suffices.",
        math="PMW over [T]: n_PMW(alpha, beta, eps, delta, T, T + 1); binary tree: n >= max(8 L^2 ln(4T/beta)/(eps "
             "alpha), 8 ln(4/beta)/alpha^2), L = log2 T + 1.",
        simulator=PapBasePriv(), plotter="pap.specs:base_priv",
        claims=[
            UpperBound("upper-pmw", "PMW over all of [T]: n_hat <= n_PMW(alpha, beta, eps, delta, T, T + 1)",
                       where(learner="pmw"), ("dist", "T"),
                       bound=use(pap_bounds.n_pmw_offline, domain_size=lambda p: p["T"],
                                 n_queries=lambda p: p["T"] + 1)),
            UpperBound("upper-tree", "Binary-tree release (pure eps-DP): n_hat <= our explicit tree bound",
                       where(learner="tree"), ("dist", "T"),
                       bound=use(pap_bounds.n_tree_thresholds, domain_size=lambda p: p["T"])),
            Scaling("scaling-domain-pmw", "PMW over [T], worst distribution: n_hat grows like sqrt(ln T) after "
                    "dividing out ln((T + 1)/beta), Lemma 2.7's log(|H|/beta) (the single pass compares each of "
                    "the T + 1 queries with fresh noise, and all must come out right); predicted exponent 0.5 in "
                    "ln T; 0 would mean no growth. An upper bound: Lemma 2.7 is PMW's guarantee",
                    where(learner="pmw"), ("T",), variable=lambda p: math.log(p["T"]), variable_name="ln T",
                    predicted=0.5, factor=lambda p: math.log((p["T"] + 1) / p["beta"]),
                    factor_name="ln((T + 1)/beta)", tolerance=UP_TO_LOGS, competitors=(0.0, 1.0),
                    worst_over=("dist",), direction="upper"),
        ],
        notes=("The private-only cost is the horizontal line of Theorem 3.1's frontier (T = 4096). On a finite "
               "domain it is finite; the impossibility over R (Littlestone dimension) shows only as growth in T."))


@entry("pap.thm3_1")
def _thm3_1() -> Theorem:
    from privbounds.simulators.pap.thm3_1 import PapThm31

    def thr_in_scope(p):
        return (p["panel"] == "frontier"
                and p["m"] >= pap_bounds.m_pap_public(p["alpha"], p["beta"], 1))

    claims = [
        UpperBound("upper-thr", "THR_4096, every m at or above the explicit public requirement m_PAP(alpha, beta, "
                   "1): the private n_hat <= our explicit n_PAP(alpha, beta, eps, delta, d = 1, p = 1, m)",
                   thr_in_scope, ("dist", "alpha", "m"),
                   bound=use(pap_bounds.n_pap_private, vc=1, dual_vc=1)),
        UpperBound("upper-stump", "STUMP_p at m = m_PAP(alpha, beta, floor(log2 p)): the private n_hat <= "
                   "n_PAP(alpha, beta, eps, delta, d = floor(log2 p), p, m)",
                   where(panel="stumps"), ("dist", "alpha", "p"),
                   bound=use(pap_bounds.n_pap_private, vc=_vc, dual_vc=lambda p: p["p"])),
        Scaling("scaling-dual-vc", "STUMP_p, alpha = 0.2, worst distribution: n_hat grows like sqrt(p) in the dual "
                "VC dimension p after dividing out ln(p/beta), Lemma 2.7's log(|H~|/beta) with H~ the p stumps "
                "(PMW's single pass compares each of the p queries with fresh noise, and all must come out right; "
                "predicted exponent 0.5). An upper bound: Theorem 3.1 is Algorithm 3's guarantee",
                where(panel="stumps", alpha=0.2), ("p",), variable=lambda p: p["p"], variable_name="p",
                predicted=0.5, factor=_stump_queries_log, factor_name="ln(p/beta)", tolerance=UP_TO_LOGS,
                competitors=(0.0, 1.0), worst_over=("dist",), direction="upper"),
        Scaling("scaling-dual-vc-law", "STUMP_p, alpha = 0.2, worst distribution: the law of Algorithm 3's cost, "
                "n_hat about C sqrt(p) ln p, fitted as n_hat / ln p against p (predicted exponent 0.5). The raw "
                "exponent of n_hat over p = 4 .. 128 reads well above 0.5 only because ln p itself grows there "
                "(its local exponent is 1/ln p). An upper bound, as Theorem 3.1",
                where(panel="stumps", alpha=0.2), ("p",), variable=lambda p: p["p"], variable_name="p",
                predicted=0.5, factor=lambda p: math.log(p["p"]), factor_name="ln p", tolerance=UP_TO_LOGS,
                competitors=(0.0, 1.0), worst_over=("dist",), direction="upper"),
        Scaling("scaling-alpha", "STUMP_16, worst distribution: n_hat grows like 1/alpha^2 (predicted exponent 2, "
                "the shape of the theorem's bound; nothing is divided out, since its only log factor, "
                "log(|H~|/beta), does not depend on alpha). An upper bound: a smaller exponent means the bound is "
                "loose in alpha here, not that it fails", where(panel="stumps", p=16), ("alpha",),
                variable=lambda p: 1.0 / p["alpha"], variable_name="1/alpha", predicted=2.0,
                tolerance=UP_TO_LOGS, worst_over=("dist",), direction="upper"),
        Scaling("flat-domain", "THR_T at m = 256, alpha = 0.2, worst distribution: the private n_hat does not grow "
                "with the domain (predicted exponent 0 in ln T; PMW without public data grows like sqrt(ln T)). An "
                "upper bound: Theorem 3.1's sample size has no |X| in it",
                where(panel="domain"), ("T",), variable=lambda p: math.log(p["T"]), variable_name="ln T",
                predicted=0.0, tolerance=UP_TO_LOGS, competitors=(0.5, 1.0), worst_over=("dist",),
                direction="upper"),
    ]
    return Theorem(
        number="Theorem 3.1 (Algorithm 3)", title="Upper bound: public-data-assisted release of any VC class",
        statement=("A_PAP is an (alpha, beta, eps, delta)-PAP query-release algorithm for H with public sample "
                   "complexity about d/alpha and private sample complexity about sqrt(p) d^(3/2)/(eps alpha^2), "
                   "d the VC and p the dual VC dimension of H."),
        math=("Shape (abstract): m = O~(d/alpha), n = O~(sqrt(p) d^(3/2)/alpha^2). Ours, explicit: m >= "
              "m_cover(alpha/4, beta/2, d) and n >= n_PMW(alpha/2, beta/2, eps, delta, N, K) with K <= Phi_d(m), "
              "N <= Phi_p(K)."),
        simulator=PapThm31(), plotter="pap.release:thm3_1", claims=claims,
        notes=("Below the public requirement no private n suffices (the cover's floor): such points are censored, "
               "not refutations. The private cost grows slowly with m (K and N grow with the cover), so more "
               "public data are not free. Explicit constants are ours and loose (n_hat is {slack: upper-thr} times below "
               "them for thresholds, {slack: upper-stump} for stumps). Domain sweep: at T <= m the public sample covers nearly every point, the representatives are "
               "the points themselves and PMW must learn D itself, which is harder for the skewed distributions "
               "than learning the cells' masses at large T (each cell then holds about 1/m of the mass, close to "
               "PMW's uniform start); so n_hat falls from T = 256 to T = 4096 and is flat beyond: no growth with the "
               "domain, which is the claim. Stumps: the worst distribution (random marginals) needs "
               "n_hat = {n_hat: panel=stumps, alpha=0.2, dist=random, p=*} (full fidelity runs p = 4 .. 128). The algorithm's cost follows "
               "sqrt(p) ln p: PMW's noise scale grows like sqrt(c), with the update cap c proportional to ln N = "
               "p ln 2, and its single pass compares each of the K = p stumps with fresh noise, so the largest of p "
               "noises, of order ln p, must stay below the threshold's margin. Over p = 4 .. 128 ln p grows by a "
               "factor 3.5, so the raw exponent of n_hat reads {exponent: scaling-dual-vc-law, fit=raw}, not 0.5: scaling-dual-vc-law fits n_hat / "
               "ln p, scaling-dual-vc divides by the statement's ln(p/beta). An earlier version divided by our "
               "explicit bound's L = ln(2(K + 2c + 1)/beta), a union bound of the proof over the 2c + 1 noise draws "
               "the cap allows (about 35,000 p), which the algorithm never makes: L barely moves with p, the fit "
               "kept the growth of ln p, and read well above 0.5. The upper bound is not threatened: "
               "n_hat stays {slack: upper-stump} times below it over its points (tightness "
               "{tightness: upper-stump, p=4, dist=random} at p = 4, {tightness: upper-stump, p=128, dist=random} at "
               "p = 128). In alpha the exponent is below the bound's 2 ({exponent: scaling-alpha}, with nothing divided "
               "out): the bound is loose in alpha here, as for PMW alone (Lemma "
               "2.7). The bound's log factors (d^(3/2) = (log2 p)^1.5 for stumps) are "
               "not divided out, since at these m the cover is all of H and that factor does not arise."))
