"""The registry: the one list of theorems that the CLI, engine, figures, report and check
iterate over. Adding a theorem means adding one ``Theorem`` entry here (with its
simulator in ``simulators/``, its bounds in ``bounds/`` and its plotter in ``figures/``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from privbounds.bounds import bns as bns_bounds
from privbounds.bounds import sivakumar as siv_bounds
from privbounds.claims import Ceiling, LowerBound, Scaling, UpperBound
from privbounds.params import ParameterError

# Tolerance of scaling claims that hold up to logarithmic factors or lower-order terms
# (fixed in advance by the bns catalog, "confirms if slopes within +-0.15").
UP_TO_LOGS = 0.15

PAPERS = {
    "siv": "Sivakumar. A Basic Overview of Private PAC Learning (lecture notes, 2023)",
    "bns": "Bun, Nissim, Stemmer. Simultaneous Private Learning of Multiple Concepts "
           "(ITCS 2016, JMLR 2019)",
}


# Figures drawn over several theorems of one paper ("module:function" under
# privbounds.figures, called with every available result of that paper); the report's
# page for the paper opens with them.
PAPER_FIGURES = {"bns": "bns_headline:plot"}


@dataclass
class Theorem:
    id: str
    paper: str
    number: str
    title: str
    statement: str
    math: str
    simulator: object
    plotter: str  # "module:function" under privbounds.figures, imported when plotting
    claims: list = field(default_factory=list)
    notes: str = ""

    def plot(self, result: dict, out_dir):
        import importlib

        module, fn = self.plotter.split(":")
        return getattr(importlib.import_module(f"privbounds.figures.{module}"), fn)(self, result, out_dir)

    def summary(self) -> dict:
        return {"id": self.id, "paper": self.paper, "number": self.number, "title": self.title,
                "statement": self.statement,
                "claims": [{"id": c.id, "kind": c.kind, "description": c.description,
                            **c.bound_meta()} for c in self.claims]}


def _h_size(p):
    return 2 ** p["d"] + 1 if p["class"] == "thresh" else 2 ** p["d"]


def _is(**kw) -> Callable[[dict], bool]:
    return lambda p: all(p.get(k) == v for k, v in kw.items())


def _siv_thm3_3() -> Theorem:
    from privbounds.simulators.siv_thm3_3 import SivThm33

    claims = []
    for cls in ("thresh", "point"):
        name = "THRESH_d" if cls == "thresh" else "POINT_d"
        claims += [
            UpperBound(
                f"upper-expmech-{cls}",
                f"Exponential-mechanism learner on {name}: n_hat <= max(8/alpha, 4/(alpha eps))"
                " (ln|H| + ln(2/beta)) (proof's constants)",
                _is(**{"class": cls, "learner": "expmech"}), ("d", "epsilon"),
                bound=lambda p: siv_bounds.n_expmech_learner(_h_size(p), p["epsilon"], p["alpha"], p["beta"]),
                bound_fn=siv_bounds.n_expmech_learner),
            Scaling(
                f"scaling-logH-{cls}",
                f"Exponential-mechanism learner on {name}, eps = 1: n_hat grows like ln|H| "
                "(predicted exponent 1 in ln|H|)",
                _is(**{"class": cls, "learner": "expmech", "epsilon": 1.0}), ("d",),
                variable=lambda p: math.log(_h_size(p)), variable_name="ln|H|", predicted=1.0,
                tolerance=UP_TO_LOGS),
            Scaling(
                f"scaling-eps-{cls}",
                f"Exponential-mechanism learner on {name}, d = 10: n_hat grows like 1/eps "
                "(predicted exponent -1 in eps)",
                _is(**{"class": cls, "learner": "expmech", "d": 10}), ("epsilon",),
                variable=lambda p: p["epsilon"], variable_name="epsilon", predicted=-1.0),
        ]
    claims += [
        UpperBound(
            "upper-erm-thresh",
            "Non-private ERM on THRESH_d (Thm 2.2): n_hat <= ln(2/beta)/alpha = 8.3, whatever the domain",
            _is(**{"class": "thresh", "learner": "erm"}), ("d",),
            bound=lambda p: siv_bounds.n_erm_threshold(p["alpha"], p["beta"]),
            bound_fn=siv_bounds.n_erm_threshold),
        UpperBound(
            "upper-erm-point",
            "Non-private consistent ERM on POINT_d (Thm 2.1): n_hat <= (ln|H| + ln(1/beta))/alpha",
            _is(**{"class": "point", "learner": "erm"}), ("d",),
            bound=lambda p: siv_bounds.n_erm_finite(_h_size(p), p["alpha"], p["beta"]),
            bound_fn=siv_bounds.n_erm_finite),
    ]
    return Theorem(
        id="siv.thm3_3", paper=PAPERS["siv"], number="Theorem 3.3 (with Lemma 3.2; baselines Thm 2.1, 2.2)",
        title="Private PAC learner for finite classes via the exponential mechanism",
        statement=(
            "For a finite class H, the learner that outputs h with probability proportional to "
            "exp(eps * score(S, h) / 2), score = minus the number of misclassified examples, is "
            "eps-DP and PAC-learns H with n = O(log|H| / eps) samples (same result: Bun et al. "
            "Thm 2.22). Without privacy, ERM needs O(log|H|) samples (Thm 2.1), and O(1) for "
            "thresholds whatever the domain (Thm 2.2)."),
        math=("N(|H|, eps) = max(8/alpha, 4/(alpha eps)) (ln|H| + ln(2/beta)); "
              "at alpha = beta = 1/4: max(32, 16/eps)(ln|H| + ln 8). "
              "ERM: (ln|H| + ln(1/beta))/alpha; thresholds: ln(2/beta)/alpha."),
        simulator=SivThm33(), plotter="siv_thm3_3:plot", claims=claims,
        notes=(
            "Instances: THRESH_d under a 4-point cluster (target p3; only p2, p3, p4 are "
            "1/4-accurate); POINT_d with mass 1/2 on the target and 1/2 on a decoy. "
            "Errors are exact. The notes print the generalisation step's Chernoff exponent as "
            "n/8; the multiplicative Chernoff bound gives n/32, which our bound uses (the two "
            "agree for eps <= 1/2)."))


def _bns_obs3_2() -> Theorem:
    from privbounds.simulators.bns_obs3_2 import BnsObs32

    def bound(p):
        return bns_bounds.n_direct_sum(2 ** p["d"] + 1, p["epsilon"], p["k"], p["rule"],
                                       p["delta"], p["alpha"], p["beta"])

    def logf(p):
        return float(bns_bounds.direct_sum_log_factor(2 ** p["d"] + 1, p["k"], p["beta"]))

    claims = []
    for rule, pred in (("basic", 1.0), ("advanced", 0.5)):
        claims += [
            UpperBound(
                f"upper-{rule}",
                f"Direct sum with {rule} composition: n_hat <= max(8/alpha, 4/(alpha eps0)) "
                "(ln|H| + ln(2k/beta)), eps0 the per-concept budget",
                _is(rule=rule), ("k",), bound=bound, bound_fn=bns_bounds.n_direct_sum),
            Scaling(
                f"scaling-k-{rule}",
                f"Direct sum with {rule} composition: n_hat / (ln|H| + ln(2k/beta)) grows like "
                f"k^{pred:g}",
                _is(rule=rule), ("k",), variable=lambda p: p["k"], variable_name="k",
                predicted=pred, factor=logf, factor_name="ln|H| + ln(2k/beta)", tolerance=UP_TO_LOGS),
        ]
    return Theorem(
        id="bns.obs3_2", paper=PAPERS["bns"], number="Observation 3.2",
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
        simulator=BnsObs32(), plotter="bns_obs3_2:plot", claims=claims,
        notes=("Inner learner: exponential mechanism over THRESH_8 (|H| = 257) under the 4-point "
               "cluster; all k targets are the hard target p3, so the k columns are independent "
               "copies of the hardest single-concept instance. Advanced composition "
               "gives the whole learner (eps, delta)-DP with delta = 1e-6; basic gives eps-DP."))


def _bns_thm5_1() -> Theorem:
    from privbounds.simulators.bns_cor3_4 import n_buckets
    from privbounds.simulators.bns_thm5_1 import ALPHA, BnsThm51

    keys = ("learner", "class", "d", "k")
    claims = [
        LowerBound(
            "lower-nhat",
            "Every pure-DP k-learner we have (direct sums on POINT and THRESH, the hash learner, "
            "Algorithm 2 over the tree sanitizer): n_hat >= (k ln 2 + ln(1 - beta))/eps",
            _is(experiment="search"), keys,
            bound=lambda p: bns_bounds.packing_lower_bound(p["k"], p["epsilon"], p["beta"]),
            bound_fn=bns_bounds.packing_lower_bound),
        Ceiling(
            "ceiling-success",
            "Every pure-DP k-learner we have: success probability p(n) <= e^(eps n)/2^k on the "
            "packing instance",
            _is(experiment="curve"), keys,
            ceiling=lambda p, n: bns_bounds.packing_success_ceiling(n, p["k"], p["epsilon"]),
            bound_fn=bns_bounds.packing_success_ceiling),
    ]
    for cls, name, size in (("point", "POINT", lambda d: 2 ** d), ("thresh", "THRESH", lambda d: 2 ** d + 1)):
        for d in (1, 4):
            claims.append(Scaling(
                f"scaling-k-d{d}" if cls == "point" else f"scaling-k-thresh-d{d}",
                f"Direct sum (basic composition) on {name}_{d}: n_hat / (ln|H| + ln(2k/beta)) grows "
                "like k (the packing bound says linear growth is necessary)",
                _is(experiment="search", d=d, learner="directsum-basic", **{"class": cls}), ("k",),
                variable=lambda p: p["k"], variable_name="k", predicted=1.0,
                factor=lambda p, size=size: float(bns_bounds.direct_sum_log_factor(size(p["d"]), p["k"], p["beta"])),
                factor_name="ln|H| + ln(2k/beta)", tolerance=UP_TO_LOGS))
    claims.append(Scaling(
        "scaling-k-hash",
        "Hash-learner direct sum (Cor 3.3) on POINT: n_hat / (ln(M + 1) + ln(2k/beta)) grows like k, "
        "M = ceil(2k/(alpha beta)) buckets",
        _is(experiment="search", learner="hash-directsum"), ("k",),
        variable=lambda p: p["k"], variable_name="k", predicted=1.0,
        factor=lambda p: float(bns_bounds.direct_sum_log_factor(n_buckets(ALPHA, p["beta"], p["k"]) + 1,
                                                                p["k"], p["beta"])),
        factor_name="ln(M + 1) + ln(2k/beta)", tolerance=UP_TO_LOGS))
    claims.append(Scaling(
        "scaling-k-alg2",
        "Algorithm 2 over the tree sanitizer on THRESH_4, k >= 8 (where the k-free sanitizer cost "
        "no longer dominates): n_hat / (ln(8/alpha + 2) + ln(2k/beta)) grows like k",
        lambda p: p.get("experiment") == "search" and p["learner"] == "alg2-tree-basic" and p["k"] >= 8,
        ("k",), variable=lambda p: p["k"], variable_name="k", predicted=1.0,
        factor=lambda p: float(bns_bounds.direct_sum_log_factor(8 / ALPHA + 2, p["k"], p["beta"])),
        factor_name="ln(8/alpha + 2) + ln(2k/beta)", tolerance=UP_TO_LOGS))
    return Theorem(
        id="bns.thm5_1", paper=PAPERS["bns"], number="Theorem 5.1",
        title="Packing lower bound for pure-DP k-learning",
        statement=(
            "For any class with two concepts that disagree at some point, every eps-DP (proper "
            "or improper) PAC k-learner needs Omega(k / eps) rows: the direct sum is optimal "
            "for pure privacy, even for points and even in the realizable model."),
        math=("n >= (k ln 2 + ln(1 - beta)) / eps; on the packing instance "
              "p(n) <= e^(eps n) / 2^k."),
        simulator=BnsThm51(), plotter="bns_thm5_1:plot", claims=claims,
        notes=("Instance: the proof's own. n copies of (x0, b) with b uniform in {0,1}^k under the "
               "point mass at x0 (x0 = 0 for POINT_d, the middle of the domain for THRESH_d). "
               "Learners, every pure eps-DP one we have: the basic-composition direct sum of the "
               "exponential mechanism over POINT_1 (the two-concept class), POINT_4, THRESH_1 and "
               "THRESH_4; the hash-learner direct sum of Cor 3.3 (improper, catalog's substitute) "
               "on POINT_4; Algorithm 2 over the binary-tree sanitizer with basic composition "
               "(Cor 3.10's pure reading) on THRESH_4. The (eps, delta)-DP learners (Algorithm 1 "
               "inside Algorithm 2, Algorithm 5) are not covered by the theorem. Curves use "
               "eps = 0.25 so that the ceiling stays below 1 over a useful range of n."))


def _bns_rem5_2() -> Theorem:
    from privbounds.simulators.bns_packing import BnsRem52

    def logf(p):
        return float(bns_bounds.direct_sum_log_factor(2 ** p["d"], p["k"], p["beta"]))

    claims = [
        LowerBound(
            "lower-nhat",
            "Direct sum (basic composition) on POINT_4 under P(x0) = 2 alpha, P(x1) = 1 - 2 alpha: "
            "n_hat >= (k ln 2 + ln(1/2 - beta))/(4 alpha eps)",
            lambda p: True, ("alpha", "k"),
            bound=lambda p: bns_bounds.packing_accuracy_lower_bound(p["k"], p["alpha"], p["epsilon"], p["beta"]),
            bound_fn=bns_bounds.packing_accuracy_lower_bound),
        Scaling(
            "scaling-alpha",
            f"Direct sum, k = {BnsRem52.K_FOR_ALPHA}: n_hat grows like 1/alpha (predicted exponent -1 "
            "in alpha), as the bound does",
            _is(k=BnsRem52.K_FOR_ALPHA), ("alpha",), variable=lambda p: p["alpha"], variable_name="alpha",
            predicted=-1.0, tolerance=UP_TO_LOGS),
    ]
    for a in (0.05, 0.1, 0.2):
        claims.append(Scaling(
            f"scaling-k-alpha{a:g}",
            f"Direct sum, alpha = {a:g}: n_hat / (ln|X| + ln(2k/beta)) grows like k",
            _is(alpha=a), ("k",), variable=lambda p: p["k"], variable_name="k", predicted=1.0,
            factor=logf, factor_name="ln|X| + ln(2k/beta)", tolerance=UP_TO_LOGS))
    return Theorem(
        id="bns.rem5_2", paper=PAPERS["bns"], number="Remark 5.2",
        title="Packing with accuracy: k/(alpha eps) for pure-DP k-learning",
        statement=(
            "If the class has two concepts that differ at a point x0 and agree at a point x1, the "
            "packing bound of Theorem 5.1 improves to Omega(k/(alpha eps)): put mass 2 alpha on x0 "
            "and the rest on x1, so that only about 2 alpha n rows carry the label vector."),
        math=("n >= (k ln 2 - ln(1/(1/2 - beta)))/(4 alpha eps) for alpha <= 1/2, beta < 1/2 "
              "(explicit constant RECONSTRUCTED: Markov puts <= 4 alpha n rows on x0 w.p. >= 1/2)."),
        simulator=BnsRem52(), plotter="bns_packing:plot_rem5_2", claims=claims,
        notes=("Instance: POINT_4 with x0 = 0, x1 = 1, P(x0) = 2 alpha; column j is labelled by c_x0 "
               "(v_j = 1) or by a point concept outside {x0, x1} (v_j = 0), v uniform. Learner: the "
               "exponential mechanism over POINT_4 per column, eps/k each (grouped sampler). Errors "
               "under P are exact; alpha < 1/3 so that success is h_j(x0) = v_j and h_j(x1) = 0. "
               "The bound is negative (vacuous) at k = 1 for beta = 0.1."))


def _bns_lem5_3() -> Theorem:
    from privbounds.simulators.bns_lem5_3 import BnsLem53

    level = 1e-3
    claims = [
        Ceiling(
            "ceiling-rounding",
            f"Rounding to the nearest parity never fails below a 1/4 fraction of corrupted points: "
            f"failure probability <= {level:g} (the lemma: 0) for m < 2^d/4, random and worst-case "
            "corruption",
            _is(experiment="curve"), ("corruption", "d"),
            ceiling=lambda p, n: bns_bounds.parity_rounding_failure_ceiling(n, p["d"], level),
            bound_fn=bns_bounds.parity_rounding_failure_ceiling),
    ]
    for learner, what in (("histogram", "improper noisy-sign histogram (alpha = 0.2 < 1/4)"),
                          ("histogram-rounded", "the same, rounded to parities (proper, exact)")):
        claims.append(LowerBound(
            f"lower-thm5_4-{learner}",
            f"Thm 5.4 via Lem 5.3 for the {what}: n_hat >= (k d ln 2 + ln(1 - beta))/eps",
            _is(experiment="search", learner=learner), ("k",),
            bound=lambda p: bns_bounds.parity_packing_lower_bound(p["k"], p["d"], p["epsilon"], p["beta"]),
            bound_fn=bns_bounds.parity_packing_lower_bound))
    return Theorem(
        id="bns.lem5_3", paper=PAPERS["bns"], number="Lemma 5.3",
        title="Improper to proper parity learning by rounding to the nearest parity",
        statement=(
            "Under the uniform distribution, rounding each hypothesis of an improper parity "
            "k-learner with accuracy alpha < 1/4 to its nearest parity gives a proper learner with "
            "the same sample size and privacy that recovers every target exactly, because two "
            "distinct parities disagree on exactly half of the cube."),
        math=("err(round(h), c) <= err(round(h), h) + err(h, c) <= 2 err(h, c) < 1/2 => round(h) = c; "
              "round(h) = argmax_a W(a), W the Walsh-Hadamard transform of (-1)^h."),
        simulator=BnsLem53(), plotter="bns_packing:plot_lem5_3", claims=claims,
        notes=("Curves: a target parity flipped on exactly m points (the curve's n is m), uniform over "
               "the cube (random) or over its disagreement set with another parity (worst case); the "
               "recorded event is that rounding FAILS. At m = 2^d/4 the worst case ties (ties go to "
               "the smaller index, so it fails about half the time); random corruption only fails "
               "close to m = 2^d/2. Searches: an improper pure-DP learner (Lap(2k/eps) on each signed "
               "count, h(x) = sign) and its rounding; the privacy of the rounded learner is that of "
               "the improper one (post-processing)."))


def _bns_thm5_4() -> Theorem:
    from privbounds.simulators.bns_packing import BnsThm54

    def logf(p):
        return p["d"] * math.log(2) + math.log(2 * p["k"] / p["beta"])

    claims = [
        LowerBound(
            "lower-nhat",
            "Pure direct sum of Ex 3.5 (every pure eps-DP k-learner for PAR_d): n_hat >= "
            "(k d ln 2 + ln(1 - beta))/eps",
            lambda p: True, ("d", "k"),
            bound=lambda p: bns_bounds.parity_packing_lower_bound(p["k"], p["d"], p["epsilon"], p["beta"]),
            bound_fn=bns_bounds.parity_packing_lower_bound),
    ]
    for d in (4, 6, 8):
        claims.append(Scaling(
            f"scaling-k-d{d}",
            f"Direct sum over PAR_{d}: n_hat / (d ln 2 + ln(2k/beta)) grows like k (predicted exponent 1; "
            "the bound grows like k d)",
            _is(d=d), ("k",), variable=lambda p: p["k"], variable_name="k", predicted=1.0,
            factor=logf, factor_name="d ln 2 + ln(2k/beta)", tolerance=UP_TO_LOGS))
    claims.append(Scaling(
        "scaling-d",
        f"Direct sum, k = {BnsThm54.K_FOR_D}, d = 2..10: n_hat grows like d ln 2 + ln(2k/beta) "
        "(predicted exponent 1; the bound's k d ln 2 is its d ln 2 part)",
        _is(k=BnsThm54.K_FOR_D), ("d",), variable=logf, variable_name="d ln 2 + ln(2k/beta)",
        predicted=1.0, tolerance=UP_TO_LOGS))
    return Theorem(
        id="bns.thm5_4", paper=PAPERS["bns"], number="Theorem 5.4 (with Lemma 5.3)",
        title="Pure-DP parity k-learning needs k d / eps: the direct sum is optimal",
        statement=(
            "Every pure eps-DP k-learner for PAR_d under the uniform distribution (alpha < 1/4, "
            "proper or improper, by Lemma 5.3) needs Omega(k d / eps) samples, so the direct sum of "
            "Example 3.5 is optimal; approximate privacy escapes it (Thm 3.12, no k)."),
        math=("n >= (k d ln 2 + ln(1 - beta))/eps: 2^(kd) target vectors with disjoint exact-recovery "
              "events, databases at distance <= n, 1 >= 2^(kd) e^(-eps n)(1 - beta)."),
        simulator=BnsThm54(), plotter="bns_packing:plot_thm5_4", claims=claims,
        notes=("Learner and trials are bns.ex3_5's (exponential mechanism over all 2^d parities per "
               "column, eps/k each, errors from one Walsh-Hadamard transform), here on d in {4, 6, 8} "
               "times k in {1, ..., 64}, plus d = 2..10 at k = 4 for the growth in d."))


def _bns_cor2_12() -> Theorem:
    from privbounds.simulators.bns_cor2_12 import BnsCor212

    vc = {"thresh": lambda p: 1, "point": lambda p: 1, "par": lambda p: p["d"]}
    claims = []
    for cls, name in (("thresh", "THRESH_d (VC = 1)"), ("point", "POINT_d (VC = 1)"), ("par", "PAR_d (VC = d)")):
        claims += [
            UpperBound(
                f"upper-erm-{cls}",
                f"Consistent ERM on {name}: n_hat <= (8/alpha)(VC ln(16/alpha) + ln(2k/beta))",
                _is(**{"class": cls}), ("k",),
                bound=lambda p: bns_bounds.n_nonprivate_k_learner(vc[p["class"]](p), p["k"], p["alpha"], p["beta"]),
                bound_fn=bns_bounds.n_nonprivate_k_learner),
            Scaling(
                f"scaling-k-{cls}",
                f"Consistent ERM on {name}: n_hat / (VC ln(16/alpha) + ln(2k/beta)) does not grow "
                "with k (predicted exponent 0): k costs only through ln k",
                _is(**{"class": cls}), ("k",), variable=lambda p: p["k"], variable_name="k",
                predicted=0.0, tolerance=UP_TO_LOGS,
                factor=lambda p: float(bns_bounds.nonprivate_log_factor(vc[p["class"]](p), p["k"],
                                                                        p["alpha"], p["beta"])),
                factor_name="VC ln(16/alpha) + ln(2k/beta)"),
        ]
    return Theorem(
        id="bns.cor2_12", paper=PAPERS["bns"], number="Corollary 2.12 (with Thm 2.7, 2.11)",
        title="Non-private k-learning costs only ln k",
        statement=(
            "Without privacy, any class of VC dimension VC can be properly k-learned with a "
            "sample size that depends on k only logarithmically (through beta/k): "
            "n = O((VC ln(1/alpha) + ln(k/beta)) / alpha) in the realizable model."),
        math="n >= (8/alpha)(VC ln(16/alpha) + ln(2k/beta)) (Thm 2.7 per concept, union bound over k).",
        simulator=BnsCor212(), plotter="bns_cor2_12:plot", claims=claims,
        notes=("THRESH_10 and PAR_10: uniform distribution, k independent uniform targets; ERM is "
               "the middle of each column's consistent interval, respectively the first consistent "
               "parity by Gaussian elimination over GF(2) vectorised over trials and columns. "
               "POINT_10: D uniform on 8 random points (mass 1/8 > alpha), each target one of them; "
               "ERM is the first consistent point. Errors are exact."))


def _bns_thm3_12() -> Theorem:
    from privbounds.simulators.bns_thm3_12 import BnsThm312

    claims = [
        UpperBound(
            "upper",
            "Algorithm 4: n_hat <= (d + 3) ceil(max((8/eps) ln(2/(beta delta)), 32 ln(2/beta))), "
            "whatever k",
            lambda p: True, ("d", "k"),
            bound=lambda p: bns_bounds.n_alg4_parities(p["d"], p["epsilon"], p["delta"], p["beta"]),
            bound_fn=bns_bounds.n_alg4_parities),
        Scaling(
            "scaling-k",
            "Algorithm 4 on PAR_10: n_hat does not grow with k (predicted exponent 0; the "
            "catalog's criterion |slope| < 0.05)",
            _is(d=10), ("k",), variable=lambda p: p["k"], variable_name="k", predicted=0.0,
            tolerance=0.05),
        Scaling(
            "scaling-d",
            "Algorithm 4, k = 16: n_hat grows linearly in the block size s = d + 3 (O(d); "
            "predicted exponent 1 in s)",
            _is(k=BnsThm312.K_FOR_D), ("d",), variable=lambda p: p["d"] + 3,
            variable_name="s = d + 3", predicted=1.0, tolerance=UP_TO_LOGS),
    ]
    return Theorem(
        id="bns.thm3_12", paper=PAPERS["bns"], number="Theorem 3.12 (Algorithm 4, with Prop 3.11)",
        title="Parities under the uniform distribution: k-free private k-learning",
        statement=(
            "Under the uniform distribution on {0,1}^d, PAR_d can be k-learned exactly with "
            "(eps, delta)-differential privacy from O((d/eps) ln(1/(beta delta))) examples, "
            "independent of the number of concepts k: split the sample into blocks, solve each "
            "block for all k parities by Gaussian elimination, and release the most frequent "
            "solution vector with the stability-based choice A_dist."),
        math=("n = s T, s = d + 3, T = ceil(max((8/eps) ln(2/(beta delta)), 32 ln(2/beta))); "
              "A_dist: release the top vector iff (q1 - q2) + Lap(4/eps) >= (4/eps) ln(1/delta)."),
        simulator=BnsThm312(), plotter="bns_thm3_12:plot", claims=claims,
        notes=("x uniform on {0,1}^d, k uniform target parities, noiseless labels. Gaussian "
               "elimination is bit-packed (64 label columns per word) and vectorised over "
               "trials and blocks. A block whose matrix is rank deficient returns the first "
               "consistent parity per column (free variables 0), which is the target only by "
               "chance: for k = 1 that chance is larger, so k = 1 needs slightly fewer rows. "
               "The constants of A_dist (Lap(4/eps), threshold (4/eps) ln(1/delta)) are the "
               "catalog's reconstruction; the seed lost them."))


def _bns_prop2_20() -> Theorem:
    from privbounds.simulators.bns_prop2_20 import BnsProp220

    claims = [
        UpperBound(
            "upper-alg1",
            "Algorithm 1: n_hat <= smallest n with alpha n >= 1 + (2/eps) ln(2/delta) + (2/eps) ln(n/beta)",
            _is(sanitizer="alg1"), ("d", "alpha"),
            bound=lambda p: bns_bounds.n_point_sanitizer(p["alpha"], p["epsilon"], p["delta"], p["beta"]),
            bound_fn=bns_bounds.n_point_sanitizer),
        UpperBound(
            "upper-laplace",
            "Laplace histogram (contrast): n_hat <= (2/(alpha eps)) ln(|X|/beta)",
            _is(sanitizer="laplace"), ("d", "alpha"),
            bound=lambda p: bns_bounds.n_laplace_histogram(p["alpha"], p["epsilon"], 2 ** p["d"], p["beta"]),
            bound_fn=bns_bounds.n_laplace_histogram),
        Scaling(
            "scaling-X-alg1",
            "Algorithm 1, alpha = 0.05: n_hat does not depend on |X| (predicted exponent 0 in |X|, "
            "tolerance 0.05)",
            _is(sanitizer="alg1", alpha=BnsProp220.ALPHA_FOR_X), ("d",), variable=lambda p: 2.0 ** p["d"],
            variable_name="|X|", predicted=0.0, tolerance=0.05),
        Scaling(
            "scaling-X-laplace",
            "Laplace histogram, alpha = 0.05: n_hat grows like ln(|X|/beta) (predicted exponent 1)",
            _is(sanitizer="laplace", alpha=BnsProp220.ALPHA_FOR_X), ("d",),
            variable=lambda p: p["d"] * math.log(2) + math.log(1 / p["beta"]),
            variable_name="ln(|X|/beta)", predicted=1.0, tolerance=UP_TO_LOGS),
        Scaling(
            "scaling-alpha-alg1",
            "Algorithm 1, |X| = 2^16: n_hat grows like 1/alpha up to the ln(n) factor "
            "(predicted exponent 1 in 1/alpha)",
            _is(sanitizer="alg1", d=16), ("alpha",), variable=lambda p: 1.0 / p["alpha"],
            variable_name="1/alpha", predicted=1.0, tolerance=UP_TO_LOGS),
    ]
    return Theorem(
        id="bns.prop2_20", paper=PAPERS["bns"], number="Proposition 2.20 (Algorithm 1)",
        title="A sanitizer for points whose cost does not depend on the domain",
        statement=(
            "POINT_X has an (eps, delta)-differentially private (alpha, beta)-accurate sanitizer "
            "for n = O(ln(1/(alpha beta delta)) / (alpha eps)) rows, independent of |X|: release "
            "zero counts as 0 without noise, add Laplace noise to the non-zero counts and "
            "suppress the small ones."),
        math=("a_x = 0 if c_x = 0; else c~ = c_x + Lap(2/eps), a_x = c~ if c~ >= 1 + (2/eps) ln(2/delta), "
              "else 0. Accurate when alpha n >= 1 + (2/eps) ln(2/delta) + (2/eps) ln(n/beta). "
              "Contrast: Laplace on all |X| counts needs (2/(alpha eps)) ln(|X|/beta)."),
        simulator=BnsProp220(), plotter="bns_prop2_20:plot", claims=claims,
        notes=("Rows from a Zipf(1.1) law over X. Error: max over every x in X of |a_x - c_x| / n "
               "(for Algorithm 1 only the sample's support can err). The noise scale 2/eps and the "
               "threshold are the catalog's reconstruction (the seed lost them); with them the "
               "whole release is (eps, delta)-DP."))


def _bns_thm3_13() -> Theorem:
    from privbounds.simulators.bns_thm3_13 import BnsThm313

    claims = [
        UpperBound(
            "upper",
            "Algorithm 5: n_hat <= max(n_alg1(alpha/8, eps/2, delta/2, beta/3), "
            "(8/alpha)(ln(16/alpha) + ln(6/beta)), (32/(alpha eps)) ln(6/(beta delta))), whatever k and |X|",
            lambda p: True, ("d", "k"),
            bound=lambda p: bns_bounds.n_alg5_points(p["alpha"], p["epsilon"], p["delta"], p["beta"]),
            bound_fn=bns_bounds.n_alg5_points),
    ]
    for d in (10, 16):
        claims.append(Scaling(
            f"scaling-k-d{d}",
            f"Algorithm 5 on POINT over |X| = 2^{d}: n_hat does not grow with k (predicted exponent 0, "
            "tolerance 0.05)",
            _is(d=d), ("k",), variable=lambda p: p["k"], variable_name="k", predicted=0.0, tolerance=0.05))
    return Theorem(
        id="bns.thm3_13", paper=PAPERS["bns"], number="Theorem 3.13 (Algorithm 5, with Prop 2.20, 3.11)",
        title="Points with approximate privacy: k-free and domain-free private k-learning",
        statement=(
            "POINT_X can be PAC k-learned (realizable) with (eps, delta)-differential privacy from "
            "O(ln(1/(alpha beta delta)) / (alpha eps)) examples, independent of k and of |X|: "
            "sanitize the points, keep the heavy ones, and release the label vectors of all heavy "
            "points at once with the stability-based choice A_dist."),
        math=("Alg 1 and A_dist at (eps/2, delta/2) each; heavy: a_x / n >= 3 alpha / 8; "
              "Q1 = min_x c1(x), Q2 = max_x' min(c2(x'), min_{x != x'} c1(x)); release iff "
              "Q1 - Q2 + Lap(8/eps) >= (8/eps) ln(2/delta)."),
        simulator=BnsThm313(), plotter="bns_thm3_13:plot", claims=claims,
        notes=("P: 4 points of mass 0.15, 8 of mass 0.025 and a uniform tail of mass 0.2; half the "
               "targets on the 12 support points, half uniform over X. A point of mass 0.025 that "
               "the noisy sanitizer lets into the heavy set holds only about 0.025 n rows, which "
               "caps Q1 and makes A_dist fail: this is why success approaches 1 slowly above n_hat. "
               "Hypotheses for targets that are not heavy are the constant 0 "
               "(improper; the catalog's step 5)."))


def _bns_prop2_21() -> Theorem:
    from privbounds.simulators.bns_prop2_21 import BnsProp221

    claims = [
        UpperBound(
            "upper-tree",
            "Substitute (binary-tree histogram): n_hat <= (2 L^2/(alpha eps)) ln(2|X|/beta), L = log2|X|",
            lambda p: True, ("d", "alpha"),
            bound=lambda p: bns_bounds.n_tree_sanitizer(p["alpha"], p["epsilon"], 2 ** p["d"], p["beta"]),
            bound_fn=bns_bounds.n_tree_sanitizer),
        Scaling(
            "scaling-alpha",
            f"Substitute, |X| = 2^{BnsProp221.D_FOR_ALPHA}: n_hat is proportional to 1/alpha (the error "
            "is the tree's noise divided by n; predicted exponent 1, exact)",
            _is(d=BnsProp221.D_FOR_ALPHA), ("alpha",), variable=lambda p: 1 / p["alpha"],
            variable_name="1/alpha", predicted=1.0),
        Scaling(
            "scaling-L",
            "Substitute, alpha = 0.1: n_hat grows like L^2, L = log2|X| (our analysis of the "
            "substitute: a prefix sums about L/2 nodes of noise 2L/eps, and the maximum over 2^L "
            "prefixes adds sqrt(L); predicted exponent 2 in L) - polylog |X|, not the paper's "
            "2^(O(log* |X|))",
            _is(alpha=0.1), ("d",), variable=lambda p: p["d"], variable_name="L = log2|X|",
            predicted=2.0, tolerance=UP_TO_LOGS),
    ]
    return Theorem(
        id="bns.prop2_21", paper=PAPERS["bns"], number="Proposition 2.21 (substitute sanitizer)",
        title="A sanitizer for thresholds (substitute: the binary-tree histogram)",
        statement=(
            "THRESH_X has an (eps, delta)-DP (alpha, beta)-accurate sanitizer with "
            "n = 2^(O(log* |X|)) / (alpha eps) up to logarithmic factors (Bun, Nissim, Stemmer, "
            "Vadhan 2015). We simulate a SUBSTITUTE, the pure eps-DP binary-tree histogram, whose "
            "cost grows like polylog |X|; the claims test the substitute, not the paper's bound."),
        math=("Substitute: Lap(2L/eps) on every dyadic node, prefix = sum of <= L nodes; "
              "n <= (2L^2/(alpha eps)) ln(2|X|/beta). Paper (shape, constant hidden): "
              "(1/(alpha eps)) 8^(log*|X|) log*|X| ln(1/(alpha beta delta))."),
        simulator=BnsProp221(), plotter="bns_prop2_21:plot", claims=claims,
        notes=("The paper's recursive construction is not implemented (the catalog: impractical, and "
               "its log* behaviour is invisible for |X| <= 2^64); the figure labels the substitute. "
               "Rows are uniform on X, but the error is the tree's noise alone and does not depend "
               "on the data."))


def _bns_ex3_5() -> Theorem:
    from privbounds.simulators.bns_ex3_5 import BnsEx35

    def logf(p):
        return p["d"] * math.log(2) + math.log(2 * p["k"] / p["beta"])

    claims = [
        UpperBound(
            "upper",
            "Direct sum over PAR_d: n_hat <= (4k/(alpha eps))(d ln 2 + ln(2k/beta)) + "
            "(50 d/alpha^2) ln(2k/(alpha beta))",
            lambda p: True, ("d", "k"),
            bound=lambda p: bns_bounds.n_parity_direct_sum(p["k"], p["d"], p["epsilon"], p["alpha"], p["beta"]),
            bound_fn=bns_bounds.n_parity_direct_sum),
        LowerBound(
            "lower-thm5_4",
            "Thm 5.4 (every pure eps-DP k-learner for PAR_d): n_hat >= (k d ln 2 + ln(1 - beta))/eps",
            lambda p: True, ("d", "k"),
            bound=lambda p: bns_bounds.parity_packing_lower_bound(p["k"], p["d"], p["epsilon"], p["beta"]),
            bound_fn=bns_bounds.parity_packing_lower_bound),
        Scaling(
            "scaling-k",
            f"Direct sum over PAR_{BnsEx35.D_FOR_K}: n_hat / (d ln 2 + ln(2k/beta)) grows like k "
            "(predicted exponent 1)",
            _is(d=BnsEx35.D_FOR_K), ("k",), variable=lambda p: p["k"], variable_name="k", predicted=1.0,
            factor=logf, factor_name="d ln 2 + ln(2k/beta)", tolerance=UP_TO_LOGS),
        Scaling(
            "scaling-d",
            f"Direct sum, k = {BnsEx35.K_FOR_D}: n_hat grows like d ln 2 + ln(2k/beta) = ln|PAR_d| + "
            "ln(2k/beta) (predicted exponent 1)",
            _is(k=BnsEx35.K_FOR_D), ("d",), variable=logf, variable_name="d ln 2 + ln(2k/beta)",
            predicted=1.0, tolerance=UP_TO_LOGS),
    ]
    return Theorem(
        id="bns.ex3_5", paper=PAPERS["bns"], number="Example 3.5 (with Thm 5.4)",
        title="Parities by the pure-DP direct sum: k d / eps, sandwiched by the packing bound",
        statement=(
            "PAR_d can be properly k-learned with pure eps-differential privacy from "
            "O_{alpha,beta}(k d / eps) examples by running the exponential mechanism over all 2^d "
            "parities on each label column with budget eps/k; Theorem 5.4 shows that every pure "
            "eps-DP k-learner for PAR_d needs (k d ln 2 + ln(1 - beta))/eps."),
        math=("upper: (4k/(alpha eps))(d ln 2 + ln(2k/beta)) + (50 d/alpha^2) ln(2k/(alpha beta)); "
              "lower (Thm 5.4): (k d ln 2 + ln(1 - beta))/eps."),
        simulator=BnsEx35(), plotter="bns_ex3_5:plot", claims=claims,
        notes=("Uniform x, noiseless labels, alpha = 0.1 (exact recovery). All 2^d errors per column "
               "from one fast Walsh-Hadamard transform. The upper bound's (50 d/alpha^2) term is "
               "the agnostic uniform-convergence constant and makes it loose by orders of "
               "magnitude here."))


def _bns_cor3_4() -> Theorem:
    from privbounds.simulators.bns_cor3_4 import BnsCor34

    def logf(p):
        return math.log(2 * p["k"] * 2 ** p["d"] / p["beta"])

    claims = [UpperBound(
        "upper",
        "Direct sum over POINT_X: n_hat <= max((4/(alpha eps0)) ln(2k|X|/beta), (800/alpha^2) ln(8k/(alpha beta)))",
        lambda p: True, ("rule", "d", "k"),
        bound=lambda p: bns_bounds.n_direct_sum_agnostic(2 ** p["d"], p["k"], p["rule"], p["alpha"], p["epsilon"],
                                                         p["delta"], p["beta"]),
        bound_fn=bns_bounds.n_direct_sum_agnostic)]
    for rule, pred in (("basic", 1.0), ("advanced", 0.5)):
        claims.append(Scaling(
            f"scaling-k-{rule}",
            f"Direct sum, {rule} composition, |X| = 2^10, k >= 16: n_hat / ln(2k|X|/beta) grows like k^{pred:g}",
            lambda p, r=rule: p["rule"] == r and p["d"] == 10 and p["k"] >= 16, ("k",),
            variable=lambda p: p["k"], variable_name="k", predicted=pred, factor=logf,
            factor_name="ln(2k|X|/beta)", tolerance=UP_TO_LOGS))
    claims.append(Scaling(
        "scaling-X",
        f"Direct sum, basic, k = {BnsCor34.K_FOR_X}: n_hat grows like ln|C| + ln(2k/beta) = ln(2k|X|/beta) "
        "(predicted exponent 1): unlike Algorithm 2 (Cor 3.9) it pays for the domain",
        _is(rule="basic", k=BnsCor34.K_FOR_X), ("d",), variable=logf, variable_name="ln(2k|X|/beta)",
        predicted=1.0, tolerance=UP_TO_LOGS))
    return Theorem(
        id="bns.cor3_4", paper=PAPERS["bns"], number="Corollary 3.4 (Obs 3.2 over Thm 2.22)",
        title="The direct sum for any finite class, here POINT_X: k log|C| / eps",
        statement=(
            "Every finite class C can be agnostically and properly k-learned by running the "
            "exponential mechanism on each column: with pure eps-DP from "
            "O((ln|C| + ln(k/beta))(k/(alpha eps) + 1/alpha^2)) examples, and with (eps, delta)-DP "
            "from the same with sqrt(k ln(1/delta)) in place of k."),
        math=("per column eps0 = eps/k (basic) or the advanced-composition share; explicit: "
              "max((4/(alpha eps0)) ln(2k|C|/beta), (800 VC/alpha^2) ln(8k/(alpha beta)))."),
        simulator=BnsCor34(), plotter="bns_cor3_4:plot", claims=claims,
        notes=("On the agnostic POINT instance of bns.cor3_9 (the catalog also lists THRESH and PAR: "
               "THRESH's direct sum is bns.obs3_2, PAR's is bns.ex3_5). The |X| - 32 point concepts "
               "that never fire on the sample share one score and are sampled as one group."))


def _bns_cor3_3() -> Theorem:
    from privbounds.simulators.bns_cor3_4 import BnsCor33

    claims = [
        LowerBound(
            "lower-thm5_1",
            "Thm 5.1 (every pure eps-DP k-learner for a class with two concepts): "
            "n_hat >= (k ln 2 + ln(1 - beta))/eps",
            lambda p: True, ("d", "k"),
            bound=lambda p: bns_bounds.packing_lower_bound(p["k"], p["epsilon"], p["beta"]),
            bound_fn=bns_bounds.packing_lower_bound),
        Scaling(
            "scaling-k",
            "Hash learner direct sum, |X| = 2^16, k >= 16: n_hat / ln(k/(alpha beta)) grows like k "
            "(O(k/(alpha eps) ln(k/(alpha beta))), constant hidden; Thm 5.1 says slope 1 is necessary)",
            lambda p: p["d"] == 16 and p["k"] >= 16, ("k",), variable=lambda p: p["k"], variable_name="k",
            predicted=1.0, factor=lambda p: math.log(p["k"] / (p["alpha"] * p["beta"])),
            factor_name="ln(k/(alpha beta))", tolerance=UP_TO_LOGS),
        Scaling(
            "scaling-X",
            f"Hash learner direct sum, k = {BnsCor33.K_FOR_X}: n_hat does not depend on |X| "
            "(predicted exponent 0, tolerance 0.05)",
            _is(k=BnsCor33.K_FOR_X), ("d",), variable=lambda p: 2.0 ** p["d"], variable_name="|X|",
            predicted=0.0, tolerance=0.05),
    ]
    return Theorem(
        id="bns.cor3_3", paper=PAPERS["bns"], number="Corollary 3.3 (substitute inner learner)",
        title="Points, improper, pure: about k/eps rows and no dependence on |X|",
        statement=(
            "POINT_X can be improperly agnostically k-learned with pure eps-DP from "
            "O_{alpha,beta}(k/eps) examples, independent of |X|: the direct sum over an improper "
            "pure-DP point learner of cost O_{alpha,beta}(1/eps)."),
        math=("n = O((k/(alpha eps)) ln(k/(alpha beta))) (constant hidden: scaling claims only); "
              "lower bound for every pure learner (Thm 5.1): (k ln 2 + ln(1 - beta))/eps."),
        simulator=BnsCor33(), plotter="bns_cor3_4:plot_cor3_3", claims=claims,
        notes=("SUBSTITUTE inner learner (the catalog's): per column a fresh public hash "
               "g: X -> [M], M = ceil(2k/(alpha beta)), and the exponential mechanism (eps/k) over "
               "the bucket hypotheses and the constant 0. The paper's learner (Beimel et al., "
               "probabilistic representations) is imported, not specified. Agnostic POINT "
               "instance of bns.cor3_9 over |X| = 2^16."))


def _bns_thm2_16() -> Theorem:
    from privbounds.simulators.bns_tools import BnsThm216

    claims = [Ceiling(
        "ceiling-advanced",
        "Advanced composition: the privacy loss of k eps0-DP Laplace mechanisms exceeds "
        "eps' = sqrt(2k ln(1/delta')) eps0 + k eps0 (e^eps0 - 1) with probability <= delta'",
        lambda p: True, ("eps0",), ceiling=lambda p, n: p["delta_prime"],
        bound_fn=bns_bounds.advanced_composition_epsilon)]
    return Theorem(
        id="bns.thm2_16", paper=PAPERS["bns"], number="Theorem 2.16 (composition; absent from the seed text)",
        title="Composition: basic (k eps) and advanced (about sqrt(k ln(1/delta)) eps)",
        statement=(
            "Running k mechanisms, each (eps0, delta0)-DP, is (k eps0, k delta0)-DP (basic), and for "
            "every delta' > 0 it is (sqrt(2k ln(1/delta')) eps0 + k eps0 (e^eps0 - 1), k delta0 + "
            "delta')-DP (advanced; Dwork, Rothblum, Vadhan 2010). The theorem was dropped by the "
            "text extraction; the paper cites these standard statements."),
        math="P[sum_i L_i > eps'] <= delta' for the privacy losses L_i in [-eps0, eps0] of k eps0-DP mechanisms.",
        simulator=BnsThm216(), plotter="curves:thm2_16", claims=claims,
        notes=("Privacy loss of the Laplace mechanism on neighbouring counts 0 and 1, "
               "L = eps0 (|o - 1| - |o|) for o ~ Lap(1/eps0), summed over k independent runs. "
               "delta' = 0.05 so that the probability is measurable; basic composition holds "
               "surely (|L| <= k eps0) and is not simulated."))


def _bns_prop3_8() -> Theorem:
    from privbounds.simulators.bns_tools import BnsProp38

    claims = [Ceiling(
        "ceiling-utility",
        "Exponential mechanism: P[output scores <= OPT - D] <= |F| e^(-eps D / 2)",
        lambda p: True, ("epsilon", "candidates"),
        ceiling=lambda p, n: bns_bounds.expmech_failure_ceiling(n, p["candidates"], p["epsilon"]),
        bound_fn=bns_bounds.expmech_failure_ceiling)]
    return Theorem(
        id="bns.prop3_8", paper=PAPERS["bns"], number="Proposition 3.8 (McSherry-Talwar)",
        title="The exponential mechanism: privacy and utility",
        statement=(
            "Sampling f with probability proportional to exp(eps q(D, f) / (2 Delta_q)) is eps-DP, "
            "and outputs a solution with q <= OPT - D with probability at most "
            "|F| exp(-eps D / (2 Delta_q))."),
        math="P[q(output) <= OPT - D] <= |F| e^(-eps D / 2) for sensitivity 1.",
        simulator=BnsProp38(), plotter="curves:prop3_8", claims=claims,
        notes=("Planted scores: one candidate at 0, half the others at -D and half at -2D, "
               "|F| = 1000. Privacy is audited in the test suite (tests/test_privacy.py)."))


def _bns_prop3_11() -> Theorem:
    from privbounds.simulators.bns_tools import BnsProp311

    claims = [
        Ceiling("ceiling-utility",
                "A_dist: P[bottom] <= e^(-gap eps/4)/delta, i.e. <= beta once the gap is "
                "(4/eps) ln(1/(beta delta))",
                _is(part="utility"), ("epsilon", "delta"),
                ceiling=lambda p, n: bns_bounds.adist_failure_ceiling(n, p["epsilon"], p["delta"]),
                bound_fn=bns_bounds.adist_failure_ceiling),
        Ceiling("ceiling-privacy",
                "A_dist: when the gap is at most 2 (the top solution can differ on a neighbour), "
                "P[release] <= delta",
                _is(part="privacy"), ("epsilon", "delta"), ceiling=lambda p, n: p["delta"]),
    ]
    return Theorem(
        id="bns.prop3_11", paper=PAPERS["bns"], number="Proposition 3.11 (Algorithm 3, A_dist)",
        title="Stability-based choice A_dist",
        statement=(
            "A_dist releases the best solution when it beats every other by a margin of order "
            "ln(1/(beta delta))/eps, and is (eps, delta)-DP: when the best solution can change "
            "between neighbours it releases anything only with probability <= delta."),
        math=("release iff (q1 - q2) + Lap(4/eps) >= (4/eps) ln(1/delta) (catalog's constants); "
              "P[bottom | gap g] = (1/2) e^(-(g - thr) eps/4) <= e^(-g eps/4)/delta."),
        simulator=BnsProp311(), plotter="curves:prop3_11", claims=claims,
        notes=("The seed lost the noise scale and threshold of Algorithm 3; these are the "
               "catalog's, which make the gap's sensitivity 2 cost eps/2. The privacy curve uses "
               "delta = 0.1 so that the probability is measurable."))


def _bns_thm2_7() -> Theorem:
    from privbounds.simulators.bns_cor2_12 import BnsThm27

    vc = lambda p: p["d"] if p["class"] == "par" else 1  # noqa: E731
    claims = [
        UpperBound("upper", "Consistent ERM: n_hat <= (8/alpha)(VC ln(16/alpha) + ln(2/beta))",
                   lambda p: True, ("class", "d", "alpha"),
                   bound=lambda p: bns_bounds.n_vc_realizable(vc(p), p["alpha"], p["beta"]),
                   bound_fn=bns_bounds.n_vc_realizable),
        Scaling("scaling-alpha",
                "Consistent ERM (middle of the consistent interval) on THRESH_10: n_hat / (ln(16/alpha) + "
                "ln(2/beta)) grows like 1/alpha (predicted exponent 1; the bound's log factor divided out)",
                _is(**{"class": "thresh"}), ("alpha",), variable=lambda p: 1 / p["alpha"], variable_name="1/alpha",
                predicted=1.0, tolerance=UP_TO_LOGS,
                factor=lambda p: math.log(16 / p["alpha"]) + math.log(2 / p["beta"]),
                factor_name="ln(16/alpha) + ln(2/beta)"),
    ]
    return Theorem(
        id="bns.thm2_7", paper=PAPERS["bns"], number="Theorem 2.7 (Blumer et al.)",
        title="VC generalization bound, realizable",
        statement=("For a class of VC dimension VC, with O((VC ln(1/alpha) + ln(1/beta))/alpha) samples every "
                   "hypothesis consistent with the sample has error at most alpha, w.p. >= 1 - beta."),
        math="n >= (8/alpha)(VC ln(16/alpha) + ln(2/beta)) (constants as used across the authors' papers).",
        simulator=BnsThm27(), plotter="simple:thm2_7", claims=claims,
        notes=("THRESH_10: uniform D, target uniform, ERM = middle of the consistent interval (the "
               "error of other consistent hypotheses can be larger; the theorem bounds all). "
               "PAR_d: uniform D; any error < 1/2 means exact recovery, so n_hat does not depend on "
               "alpha and grows like d + O(1) (rank d), well under the bound's d ln(16/alpha)/alpha."))


def _bns_thm2_8() -> Theorem:
    from privbounds.simulators.bns_uniform import BnsThm28

    claims = [
        UpperBound("upper", "Uniform convergence: n_hat <= (50 VC/alpha^2) ln(1/(alpha beta))",
                   lambda p: True, ("alpha",),
                   bound=lambda p: bns_bounds.n_uniform_convergence(1, p["k"], p["alpha"], p["beta"]),
                   bound_fn=bns_bounds.n_uniform_convergence),
        Scaling("scaling-alpha", "n_hat grows like 1/alpha^2 (predicted exponent 2, up to the ln(1/alpha) factor)",
                lambda p: True, ("alpha",), variable=lambda p: 1 / p["alpha"], variable_name="1/alpha",
                predicted=2.0, tolerance=UP_TO_LOGS),
    ]
    return Theorem(
        id="bns.thm2_8", paper=PAPERS["bns"], number="Theorem 2.8 (VC uniform convergence, agnostic)",
        title="Agnostic uniform convergence",
        statement=("For a class of VC dimension VC, with O((VC + ln(1/beta))/alpha^2) samples from any "
                   "distribution, every concept's empirical error is within alpha of its true error, "
                   "w.p. >= 1 - beta."),
        math="n >= (50 VC/alpha^2) ln(1/(alpha beta)) (constant as recalled in the catalog).",
        simulator=BnsThm28(), plotter="simple:thm2_8", claims=claims,
        notes="THRESH_8, uniform x, label noise 0.1; sup over all 257 thresholds, computed exactly.")


def _bns_thm2_11() -> Theorem:
    from privbounds.simulators.bns_uniform import BnsThm211

    claims = [
        UpperBound("upper", "All k columns: n_hat <= (50 VC/alpha^2) ln(k/(alpha beta))",
                   lambda p: True, ("k",),
                   bound=lambda p: bns_bounds.n_uniform_convergence(1, p["k"], p["alpha"], p["beta"]),
                   bound_fn=bns_bounds.n_uniform_convergence),
        Scaling("scaling-k",
                "n_hat / ln(k/(alpha beta)) does not grow with k (predicted exponent 0): k costs only ln k",
                lambda p: True, ("k",), variable=lambda p: p["k"], variable_name="k", predicted=0.0,
                factor=lambda p: math.log(p["k"] / (p["alpha"] * p["beta"])), factor_name="ln(k/(alpha beta))",
                tolerance=UP_TO_LOGS),
    ]
    return Theorem(
        id="bns.thm2_11", paper=PAPERS["bns"], number="Theorem 2.11 (empirical k-learner => PAC k-learner)",
        title="Generalization for k concepts costs only ln k",
        statement=("An empirical k-learner is a PAC k-learner once every column's empirical errors are "
                   "within alpha of the true ones; by a union bound over the k columns (beta/k each) that "
                   "takes O((VC + ln(k/beta))/alpha^2) samples, so k costs only a logarithm."),
        math="n >= (50 VC/alpha^2) ln(k/(alpha beta)); the k columns are independent label vectors.",
        simulator=BnsThm211(), plotter="simple:thm2_11", claims=claims,
        notes="THRESH_6, uniform x, label noise 0.1, independent uniform targets per column.")


def _bns_thm2_22() -> Theorem:
    from privbounds.simulators.bns_cor3_4 import BnsThm222

    claims = [
        UpperBound("upper",
                   "Exponential-mechanism learner: n_hat <= max((4/(alpha eps)) ln(2|C|/beta), "
                   "(800/alpha^2) ln(8/(alpha beta)))",
                   lambda p: True, ("d", "epsilon"),
                   bound=lambda p: bns_bounds.n_direct_sum_agnostic(2 ** p["d"], 1, "basic", p["alpha"], p["epsilon"],
                                                                    p["delta"], p["beta"]),
                   bound_fn=bns_bounds.n_direct_sum_agnostic),
        Scaling("scaling-logC", "eps = 1: n_hat grows like ln(2|C|/beta) (predicted exponent 1)",
                _is(epsilon=1.0), ("d",), variable=lambda p: math.log(2 * 2 ** p["d"] / p["beta"]),
                variable_name="ln(2|C|/beta)", predicted=1.0, tolerance=UP_TO_LOGS),
        Scaling("scaling-eps", "|X| = 2^10: n_hat grows like 1/eps (predicted exponent -1)",
                _is(d=10), ("epsilon",), variable=lambda p: p["epsilon"], variable_name="epsilon",
                predicted=-1.0, tolerance=UP_TO_LOGS),
    ]
    return Theorem(
        id="bns.thm2_22", paper=PAPERS["bns"], number="Theorem 2.22 (Kasiviswanathan et al.)",
        title="The generic private learner: O(log|C| / (alpha eps)) via the exponential mechanism",
        statement=("Every finite class C has a proper agnostic eps-DP learner with "
                   "O((ln|C| + ln(1/beta))(1/(alpha eps) + 1/alpha^2)) samples: the exponential "
                   "mechanism with score minus the number of errors."),
        math="explicit: max((4/(alpha eps)) ln(2|C|/beta), (800 VC/alpha^2) ln(8/(alpha beta))).",
        simulator=BnsThm222(), plotter="simple:thm2_22", claims=claims,
        notes=("The agnostic POINT instance of bns.cor3_9 with k = 1 (also the inner learner of "
               "bns.obs3_2, bns.cor3_4 and bns.thm5_1)."))


def _bns_thm2_19() -> Theorem:
    from privbounds.simulators.bns_thm2_19 import BnsThm219
    from privbounds.simulators.pmw import pmw_sample_size

    def bound(p):
        X = 2 ** p["d"]
        return pmw_sample_size(p["alpha"], p["beta"], p["epsilon"], p["delta"], X, X + 1)

    def pmw_log_factor(p):
        from privbounds.simulators.pmw import pmw_parameters
        X = 2 ** p["d"]
        q = pmw_parameters(1, X, X + 1, p["alpha"], p["epsilon"], p["delta"])
        return math.log(q.stream_length) + math.log(4 * q.cutoff / p["beta"])

    claims = [
        UpperBound("upper",
                   "PMW over the |X| + 1 threshold queries: n_hat <= the sample size of Dwork-Roth Thm 4.15 "
                   "(with the numeric-answer term), c = ceil(4 ln|X| / (alpha/3)^2) update rounds",
                   lambda p: True, ("d", "alpha"), bound=bound, bound_fn=pmw_sample_size),
        Scaling("scaling-alpha",
                f"|X| = 2^{BnsThm219.D_FOR_ALPHA}: n_hat / (ln k + ln(4c/beta)) grows like 1/alpha^2 (noise "
                "sqrt(c)/n with c ~ 1/alpha^2 update rounds must fall below alpha; k = 2|Q|(c + 1) comparisons; "
                "predicted exponent 2, the bound's log factor divided out)",
                _is(d=BnsThm219.D_FOR_ALPHA), ("alpha",), variable=lambda p: 1 / p["alpha"],
                variable_name="1/alpha", predicted=2.0, tolerance=UP_TO_LOGS, factor=pmw_log_factor,
                factor_name="ln k + ln(4c/beta)"),
    ]
    return Theorem(
        id="bns.thm2_19", paper=PAPERS["bns"], number="Theorem 2.19 (Hardt-Rothblum PMW)",
        title="Private multiplicative weights: a generic (eps, delta) sanitizer",
        statement=("Every finite class C over a finite X has an (eps, delta)-DP (alpha, beta)-accurate "
                   "sanitizer with about log|C| sqrt(log|X|) sqrt(log(1/delta)) / (alpha^2 eps) rows."),
        math=("Dwork-Roth online MW via NumericSparse: a = alpha/3, eta = a/2, c = ceil(4 ln|X|/a^2), "
              "threshold 2a; explicit sample size in simulators/pmw.py (pmw_sample_size)."),
        simulator=BnsThm219(), plotter="simple:thm2_19", claims=claims,
        notes=("Implementation reconstructed from Dwork and Roth (2014) Sec. 4.2 and 3.6, the (eps, delta) "
               "branch; the threshold is 2a rather than the book's n-dependent value (equal at the "
               "theorem's n, and it keeps the guarantee for larger n). Rows: 0.6 on a random point, 0.4 "
               "uniform. The explicit bound is loose by two to three orders of magnitude."))


def _bns_lem2_25() -> Theorem:
    from privbounds.simulators.bns_subsample import BnsLem225, subsampled_epsilon

    claims = [Ceiling(
        "ceiling-amplified",
        "Subsampled Laplace count: P_D[output > tau] <= e^(6 eps n/m) P_D'[output > tau] (delta = 0), "
        "P_D' computed exactly",
        lambda p: True, ("epsilon", "inner_n"),
        ceiling=lambda p, m: math.exp(subsampled_epsilon(p["epsilon"], p["inner_n"], m))
        * BnsLem225.neighbour_tail(p, m))]
    return Theorem(
        id="bns.lem2_25", paper=PAPERS["bns"], number="Lemma 2.25 (secrecy of the sample)",
        title="Privacy amplification by subsampling",
        statement=("If A is (eps, delta)-DP on n rows (eps <= 1), then running A on n rows drawn with "
                   "replacement from m >= 2n rows is (6 eps n/m, exp(6 eps n/m)(4n/m) delta)-DP."),
        math="eps~ = 6 eps n / m, delta~ = exp(eps~)(4n/m) delta (catalog's constants, RECONSTRUCTED).",
        simulator=BnsLem225(), plotter="curves:lem2_25", claims=claims,
        notes=("A: Laplace count of the rows equal to 0 among the n subsampled rows; D has m/2 such rows "
               "and D' one fewer; tau = n/2 + 4. One event and one direction: a Monte Carlo check can "
               "refute the lemma's inequality for this event, not prove it for all."))


def _bns_thm2_24() -> Theorem:
    from privbounds.simulators.bns_subsample import BnsThm224

    claims = [
        UpperBound("upper",
                   "Subsampled Algorithm 5 as an empirical k-learner: database size n_hat <= 9 n_alg5",
                   lambda p: True, ("k",),
                   bound=lambda p: bns_bounds.n_empirical_alg5(p["alpha"], p["epsilon"], p["delta"], p["beta"]),
                   bound_fn=bns_bounds.n_empirical_alg5),
        Scaling("scaling-k", "the empirical k-learner inherits Alg 5's k-freedom (predicted exponent 0, "
                             "tolerance 0.05)",
                lambda p: True, ("k",), variable=lambda p: p["k"], variable_name="k", predicted=0.0,
                tolerance=0.05),
    ]
    return Theorem(
        id="bns.thm2_24", paper=PAPERS["bns"], number="Theorem 2.24 (with Lemma 2.25)",
        title="From a private PAC k-learner to a private empirical k-learner",
        statement=("An (eps, delta)-DP (alpha, beta)-accurate PAC k-learner on n samples gives an "
                   "(eps, delta)-DP (alpha, beta)-accurate empirical k-learner on 9n rows: run it on n rows "
                   "drawn with replacement from the database (eps <= 1)."),
        math="m = 9n; privacy by Lemma 2.25: (2/3 eps, e^(2 eps/3)(4/9) delta).",
        simulator=BnsThm224(), plotter="simple:thm2_24", claims=claims,
        notes=("Inner learner: Algorithm 5 (bns.thm3_13) on databases drawn from that theorem's POINT "
               "instance over 2^16 points; accuracy is measured on the database itself."))


def _bns_thm2_18() -> Theorem:
    from privbounds.simulators.bns_thm2_18 import SYNTH, BnsThm218, candidate_prefixes

    N = len(candidate_prefixes())
    claims = [
        UpperBound("upper-toy",
                   f"BLR at toy size (|X| = 8, thresholds, {N} synthetic databases of {SYNTH} rows): "
                   "n_hat <= 2 ln(N_s/beta)/(eps (alpha - 1/(2s)))",
                   lambda p: True, ("alpha", "epsilon"),
                   bound=lambda p: bns_bounds.n_blr_toy(p["alpha"], p["epsilon"], p["beta"], N, SYNTH),
                   bound_fn=bns_bounds.n_blr_toy),
        Scaling("scaling-eps", "alpha = 0.2: n_hat grows like 1/eps (predicted exponent -1)",
                _is(alpha=0.2), ("epsilon",), variable=lambda p: p["epsilon"], variable_name="epsilon",
                predicted=-1.0, tolerance=UP_TO_LOGS),
    ]
    return Theorem(
        id="bns.thm2_18", paper=PAPERS["bns"], number="Theorem 2.18 (Blum-Ligett-Roth), toy size",
        title="The BLR sanitizer (exponential mechanism over synthetic databases), at toy size",
        statement=("Every class C over a finite X has an eps-DP (alpha, beta)-accurate sanitizer from "
                   "O(VC log|X| log(1/alpha)/(alpha^3 eps) + log(1/beta)/(alpha eps)) rows."),
        math=("toy: exponential mechanism over all histograms of s = 8 rows on 8 points, score "
              "-n max_q |q(S) - q(D)|; n >= 2 ln(N_s/beta)/(eps (alpha - 1/(2s)))."),
        simulator=BnsThm218(), plotter="simple:thm2_18", claims=claims,
        notes=("BLR is exponential-time, so it runs only at toy size (the issue allows toy sizes or "
               "bound-only); the paper's bound (hidden constants) is drawn as a shape only. The "
               "synthetic size is fixed at 8 rather than growing like VC log|X|/alpha^2, so the toy "
               "cannot reach alpha below 1/16."))


def _generic_alg2_claims(name):
    claims = []
    for rule, pred in (("basic", 1.0), ("advanced", 0.5)):
        claims.append(Scaling(
            f"scaling-k-{rule}",
            f"Algorithm 2 over {name}, {rule} accounting, k >= 16: n_hat / ln(9k/beta) grows like k^{pred:g}",
            lambda p, r=rule: p["rule"] == r and p["k"] >= 16, ("k",), variable=lambda p: p["k"],
            variable_name="k", predicted=pred, factor=lambda p: math.log(9 * p["k"] / p["beta"]),
            factor_name="ln(9k/beta)", tolerance=UP_TO_LOGS))
    return claims


def _bns_thm3_1() -> Theorem:
    from privbounds.simulators.bns_thm3_1 import BnsThm31

    return Theorem(
        id="bns.thm3_1", paper=PAPERS["bns"], number="Theorem 3.1 (Algorithm 2 over BLR), toy size",
        title="Generic private k-learner for any finite class",
        statement=("For every finite C there is a proper agnostic eps-DP k-learner with "
                   "n = O~(k VC + VC log|X|) and an (eps, delta)-DP one with "
                   "n = O~(sqrt(k) VC + log|C| sqrt(log|X|)): one sanitization of C^xor, then one "
                   "exponential mechanism per concept."),
        math="pure: Algorithm 2 over BLR (Thm 2.18); approximate: over PMW (Thm 2.19, see bns.lem3_6).",
        simulator=BnsThm31(), plotter="simple:generic_alg2", claims=_generic_alg2_claims("BLR (toy)"),
        notes=("Toy size: THRESH over 8 points, BLR of bns.thm2_18 as the sanitizer (its 8-row synthetic "
               "database gives U), label noise 0.1, alpha = 0.15. With basic accounting the whole learner is "
               "pure eps-DP. The constants are hidden in the paper, so only the growth in k is claimed; "
               "at this size the sanitizer's k-free cost is small."))


def _bns_lem3_6() -> Theorem:
    from privbounds.simulators.bns_thm3_1 import BnsLem36

    return Theorem(
        id="bns.lem3_6", paper=PAPERS["bns"], number="Lemma 3.6 (Algorithm 2 over PMW), toy size",
        title="Generic k-learner with generic sanitizers (PMW)",
        statement=("Plugging the generic sanitizers (BLR, PMW) for C^xor into Lemma 3.7 gives agnostic "
                   "proper k-learners whose per-concept cost is about VC/(alpha eps) times k (pure) or "
                   "sqrt(k ln(1/delta)) (approximate), on top of one sanitization."),
        math="sanitizer cost ~ log|C| sqrt(log|X|) sqrt(log(1/delta))/(alpha^2 eps) (PMW) + per-concept terms.",
        simulator=BnsLem36(), plotter="simple:generic_alg2", claims=_generic_alg2_claims("PMW (toy)"),
        notes=("Toy size: THRESH over 8 points, PMW of bns.thm2_19 run at accuracy 2 alpha (its synthetic "
               "distribution rounded to ceil(4/alpha) rows gives U), label noise 0.1, alpha = 0.15. The "
               "search starts at n = 256 (PMW is slow to simulate below its sample size). Constants hidden: "
               "scaling claims only."))


def _alg2_upper(cid, select, keys):
    return UpperBound(
        cid,
        "Algorithm 2 over Algorithm 1: n_hat <= max(n_alg1(alpha/8, eps_san, delta_san, beta/3), "
        "(800/alpha^2) ln(12k/(alpha beta)), smallest n >= (8/(alpha eps0))(ln(n+1) + ln(3k/beta))) "
        "(the three events of Lemma 3.7 at alpha/4, beta/3)",
        select, keys,
        bound=lambda p: bns_bounds.n_alg2_points(p["k"], p["rule"], p["alpha"], p["epsilon"], p["delta"], p["beta"]),
        bound_fn=bns_bounds.n_alg2_points)


def _bns_cor3_9() -> Theorem:
    from privbounds.simulators.bns_cor3_9 import MASSES, BnsCor39

    H = MASSES.size + 1  # at most the support plus the "zero on U" representative

    def logf(p):
        return math.log(H * p["k"] / p["beta"])

    claims = [_alg2_upper("upper", lambda p: True, ("rule", "d", "k"))]
    for rule, pred in (("basic", 1.0), ("advanced", 0.5)):
        claims.append(Scaling(
            f"scaling-k-{rule}",
            f"Algorithm 2, {rule} accounting, k >= 16: n_hat / ln(|H| k / beta) grows like k^{pred:g} "
            "(the exponential mechanisms' share; small k is dominated by the k-free sanitizer)",
            lambda p, r=rule: p["rule"] == r and p["d"] == 10 and p["k"] >= 16, ("k",),
            variable=lambda p: p["k"], variable_name="k", predicted=pred,
            factor=logf, factor_name="ln(|H| k / beta)", tolerance=UP_TO_LOGS))
    claims.append(Scaling(
        "scaling-X",
        f"Algorithm 2, basic, k = {BnsCor39.K_FOR_X}: n_hat does not depend on |X| (predicted exponent 0, "
        "tolerance 0.05)",
        _is(rule="basic", k=BnsCor39.K_FOR_X), ("d",), variable=lambda p: 2.0 ** p["d"],
        variable_name="|X|", predicted=0.0, tolerance=0.05))
    return Theorem(
        id="bns.cor3_9", paper=PAPERS["bns"], number="Corollary 3.9 (Algorithm 2 with Algorithm 1; Lemma 3.7)",
        title="Points, agnostic and proper: one sanitization, then k exponential mechanisms",
        statement=(
            "POINT_X can be agnostically and properly k-learned with a sample size independent "
            "of |X|: about k/eps rows when the k exponential mechanisms are composed by basic "
            "composition, about sqrt(k ln(1/delta))/eps by advanced composition - the same "
            "algorithm read two ways, always (eps, delta)-DP because the point sanitizer is."),
        math=("n = O(ln(1/(alpha beta delta))/(alpha eps) + ln(k/(alpha beta))/alpha^2 + "
              "ln(nk/beta)/(alpha eps0)), eps0 = eps/(2k) (basic) or about "
              "eps/(4 sqrt(k ln(2/delta))) (advanced)."),
        simulator=BnsCor39(), plotter="bns_cor3_9:plot", claims=claims,
        notes=("Agnostic instance: 32 support points (4 of mass 0.15, 8 of 0.025, 20 of 0.01), label "
               "noise 0.1; a target is a heavy point w.p. 1/2, another support point w.p. 1/4, a uniform "
               "point of X otherwise. delta = 1e-8 (not the "
               "catalog's 1e-6) so that delta < 1/n over the whole search range. The explicit bound "
               "is dominated by its uniform-convergence term (Thm 2.8 with the constant 50 at "
               "alpha/4), so it is loose by orders of magnitude at small k."))


def _bns_cor3_10() -> Theorem:
    from privbounds.simulators.bns_cor3_10 import BnsCor310

    def logf(p):
        return math.log((8 / p["alpha"] + 1) * p["k"] / p["beta"])

    claims = [UpperBound(
        "upper",
        "Algorithm 2 over the tree sanitizer: n_hat <= max(n_tree(alpha/16, eps/2, |X|, beta/3), "
        "(800/alpha^2) ln(12k/(alpha beta)), (8/(alpha eps0))(ln(8/alpha + 1) + ln(3k/beta)))",
        lambda p: True, ("rule", "k"),
        bound=lambda p: bns_bounds.n_alg2_thresholds(p["k"], p["rule"], p["alpha"], p["epsilon"], p["delta"],
                                                     p["beta"], 2 ** p["d"]),
        bound_fn=bns_bounds.n_alg2_thresholds)]
    for rule, pred in (("basic", 1.0), ("advanced", 0.5)):
        claims.append(Scaling(
            f"scaling-k-{rule}",
            f"Algorithm 2 on THRESH, {rule} accounting, k >= 16: n_hat / ln(|H| k / beta) grows like "
            f"k^{pred:g}" + (" (Cor 3.10's sqrt(k); the lower bound of Cor 4.6 is k^(1/3))"
                             if rule == "advanced" else ""),
            lambda p, r=rule: p["rule"] == r and p["k"] >= 16, ("k",),
            variable=lambda p: p["k"], variable_name="k", predicted=pred,
            factor=logf, factor_name="ln(|H| k / beta)", tolerance=UP_TO_LOGS))
    return Theorem(
        id="bns.cor3_10", paper=PAPERS["bns"], number="Corollary 3.10 (Algorithm 2, substitute sanitizer)",
        title="Thresholds, agnostic and proper: one sanitization, then k exponential mechanisms",
        statement=(
            "THRESH_X can be agnostically and properly k-learned with (eps, delta)-differential "
            "privacy from O~(2^(O(log* |X|)) + sqrt(k)) examples (Algorithm 2 over the threshold "
            "sanitizer of Prop 2.21, advanced composition). The lower bound of Cor 4.6 grows like "
            "k^(1/3); the paper leaves the gap open."),
        math=("n = O(m_thresh + ln(k/(alpha beta))/alpha^2 + ln(nk/beta)/(alpha eps0)), eps0 = eps/(2k) "
              "(basic) or about eps/(4 sqrt(k ln(2/delta))) (advanced)."),
        simulator=BnsCor310(), plotter="bns_cor3_10:plot", claims=claims,
        notes=("Runs over the SUBSTITUTE tree sanitizer (see bns.prop2_21), rounded to multiples of "
               "alpha n / 8; with basic accounting the whole learner is pure eps-DP. Uniform rows on "
               "2^10 points, label noise 0.1, uniform targets. delta = 1e-8 so that delta < 1/n over "
               "the search range."))


def _bns_lem3_7() -> Theorem:
    from privbounds.simulators.bns_cor3_9 import BnsLem37

    return Theorem(
        id="bns.lem3_7", paper=PAPERS["bns"], number="Lemma 3.7 (Algorithm 2)",
        title="Generic k-learner: sanitize once, then one exponential mechanism per concept",
        statement=(
            "Given a sanitizer for C^xor with sample size m, Algorithm 2 is an agnostic proper k-learner "
            "for C: if n >= max(m, (50 VC/alpha^2) ln(k/(alpha beta)), (2/(alpha eps0))(ln|H| + ln(k/beta))) "
            "then w.p. >= 1 - 3 beta every column is within 4 alpha of optimal; it is "
            "(eps1 + k eps0, delta1)-DP (basic) and (eps1 + sqrt(2k ln(1/delta')) eps0 + ..., delta1 + "
            "delta')-DP (advanced)."),
        math="run at alpha/4 and beta/3 for (alpha, beta); |H| <= dichotomies of C on the sanitized support.",
        simulator=BnsLem37(), plotter="bns_lem3_7:plot",
        claims=[_alg2_upper("upper", lambda p: True, ("rule", "alpha"))],
        notes=("Instantiated with the point sanitizer (Algorithm 1) on the agnostic POINT instance of "
               "bns.cor3_9, k = 16; the THRESH instantiation is bns.cor3_10. The seed lost the class "
               "symbol of the sanitizer; the proof's event E2 needs answers to h xor f queries, so we read "
               "it as C^xor (the catalog's reading)."))


def _bns_thm2_23() -> Theorem:
    from privbounds.simulators.bns_cor3_9 import BnsThm223

    claims = [
        _alg2_upper("upper", lambda p: True, ("epsilon",)),
        Scaling("scaling-eps",
                "Algorithm 2 with k = 1: n_hat grows like 1/eps (its sanitizer and exponential-"
                "mechanism terms; predicted exponent -1 in eps, up to logarithmic factors)",
                lambda p: True, ("epsilon",), variable=lambda p: p["epsilon"], variable_name="epsilon",
                predicted=-1.0, tolerance=UP_TO_LOGS),
    ]
    return Theorem(
        id="bns.thm2_23", paper=PAPERS["bns"], number="Theorem 2.23 (the k = 1 case of Lemma 3.7)",
        title="From a sanitizer to a private learner",
        statement=(
            "Given an (alpha, beta, eps, delta)-sanitizer for C^xor with sample size m, there is a "
            "proper (alpha, beta)-PAC (eps, delta)-DP learner for C with "
            "n = O(m + (VC/(alpha eps)) ln m + (VC/alpha^2) ln(1/(alpha beta))) samples."),
        math="Algorithm 2 with k = 1 over the point sanitizer; bound: Lemma 3.7's three events at k = 1.",
        simulator=BnsThm223(), plotter="bns_thm2_23:plot", claims=claims,
        notes=("Same agnostic POINT instance and learner as bns.cor3_9, with one concept and eps "
               "varied; basic accounting (eps/2 for the sanitizer, eps/2 for the mechanism)."))


def _fp_xi(p):
    return float(bns_bounds.fp_security(p["users"], p["epsilon"]))


_PRIVATE = lambda p: p["learner"] != "erm"  # noqa: E731


def _bns_thm4_3() -> Theorem:
    from privbounds.simulators.bns_fp_thresh import BnsThm43

    def ev(name, private=None):
        return lambda p: p["event"] == name and (private is None or _PRIVATE(p) == private)

    claims = [
        Ceiling("ceiling-soundness",
                "Every learner, database D_-i* (the middle user's row replaced by junk): P[the tracer "
                "accuses i*] <= xi, for any word (the secret permutation hides types i*-1 and i*)",
                ev("framed-middle"), ("users", "learner"), ceiling=lambda p, n: _fp_xi(p)),
        Ceiling("ceiling-dp-trace",
                "Private learners, database D: P[the tracer accuses i*] <= e^eps xi + delta (DP against "
                "D_-i*, where soundness caps it at xi)",
                ev("accused-middle", True), ("users", "learner"),
                ceiling=lambda p, n: float(bns_bounds.dp_trace_ceiling(p["epsilon"], p["delta"], _fp_xi(p))),
                bound_fn=bns_bounds.dp_trace_ceiling),
        Ceiling("ceiling-dp-accuracy",
                "Private learners at alpha N < (n - 1)/2 (Thm 4.3 as a probability bound): P[alpha-accurate on "
                "D_-J, J uniform in {1, n}] <= 1 - (1 - xi - n(e^eps xi + delta)) / (2 e^eps)",
                ev("accurate", True), ("users", "learner"),
                ceiling=lambda p, n: (float(bns_bounds.thresh_accuracy_ceiling(
                    p["users"], p["epsilon"], p["delta"], _fp_xi(p))) if p["alpha"] * n < (p["users"] - 1) / 2
                    else 1.0),
                bound_fn=bns_bounds.thresh_accuracy_ceiling),
        Ceiling("ceiling-attack-erm",
                "Non-private ERM is caught: P[the tracer does not accuse i* on D] <= 1 - (e^eps xi + delta), "
                "i.e. i* is accused more often than any (eps, delta)-DP learner allows",
                ev("unaccused-middle", False), ("users", "learner"),
                ceiling=lambda p, n: 1 - float(bns_bounds.dp_trace_ceiling(p["epsilon"], p["delta"], _fp_xi(p)))),
    ]
    return Theorem(
        id="bns.thm4_3", paper=PAPERS["bns"], number="Theorem 4.3 (with Lemma 4.5's Boneh-Shaw code)",
        title="A compatible fingerprinting code rules out private empirical k-learners",
        statement=(
            "If an (n, k)-fingerprinting code with security xi is compatible with C, no (eps, delta)-DP "
            "empirical k-learner for C that is alpha-accurate (alpha < 1/2) with probability 1 - beta "
            "works on databases of n rows, when xi and delta are small compared with 1/n."),
        math=("Boneh-Shaw code, xi = 1/(6 e^eps n), i* = ceil(n/2): P[accuse i* | D] <= e^eps xi + delta "
              "for DP learners; P[accurate on D_-J] <= 1 - (1 - xi - n(e^eps xi + delta))/(2 e^eps) when "
              "alpha N < (n - 1)/2 (our exact condition; see notes)."),
        simulator=BnsThm43(), plotter="bns_fp:thm4_3", claims=claims,
        notes=("The attack of the proof against the non-private ERM, the advanced-composition direct sum "
               "of exponential mechanisms (Obs 3.2) and Algorithm 2 over the tree sanitizer with advanced "
               "accounting (Cor 3.10's learner; on the 4-user code only at quick fidelity, it draws every "
               "column), with the database padded to N rows by junk rows (Rem 4.4); curves over N. Our condition differs from the catalog's (1 - beta - xi)/n > "
               "e^eps xi + delta: the Boneh-Shaw tracer is sound for users 1 and n only against feasible "
               "words, so beta enters on the soundness side, through those two users only: the argument "
               "needs 1 - xi - n(e^eps xi + delta) > 2 e^eps beta. The pirate rounds over its coalition's "
               "points (not all n: the absent user's point could be labelled 1 for free). With every user "
               "coded the tracer always accuses somebody (no column is marked), so completeness is not a claim "
               "here (bns.lem4_5 checks it). The accuracy ceiling applies only while alpha N < (n - 1)/2, where "
               "our private learners are far from accurate: it would catch only a gross privacy bug. The "
               "figure shows the epsilon the attack certifies (lower 95% confidence bound from P[accused] <= "
               "e^eps P[framed] + delta, Bonferroni over the suspects)."))


def _bns_rem4_4() -> Theorem:
    from privbounds.simulators.bns_fp_thresh import BnsRem44

    bound = lambda p: float(bns_bounds.rows_lb_code(p["users"], p["alpha"], p["epsilon"], p["delta"], p["beta"]))  # noqa: E731
    claims = [LowerBound("lower-rows",
                         "Direct sum (advanced composition) on the attack databases: N* >= (n - 1) / (2 alpha)",
                         lambda p: True, ("users", "alpha"), bound=bound, bound_fn=bns_bounds.rows_lb_code)]
    return Theorem(
        id="bns.rem4_4", paper=PAPERS["bns"], number="Remark 4.4",
        title="Padding: the fingerprinting lower bound grows like 1/alpha",
        statement=(
            "If some element is labelled 0 by every concept, pad the attack database with copies of that "
            "junk row: an accurate learner still yields a feasible pirate word while its allowed mistakes "
            "alpha N are fewer than half the n coded rows, so the lower bound grows by a factor 1/alpha."),
        math="N* >= (n - 1) / (2 alpha) under the condition of bns.thm4_3 (catalog: n / (3 alpha)).",
        simulator=BnsRem44(), plotter="bns_fp:rem4_4", claims=claims,
        notes=("N*: rows at which the direct sum is accurate on D_-J, J uniform in {1, n} (at most what every "
               "attack database needs). N* is flat in alpha: once alpha N >= n only the all-ones threshold errs "
               "by more, and avoiding it costs ~2 ln(k(n + 2)/beta)/eps0 rows."))


def _bns_cor4_6() -> Theorem:
    from privbounds.simulators.bns_fp_thresh import BnsCor46

    claims = [
        LowerBound("lower-rows",
                   "Direct sum (advanced composition) on the attack databases of the largest Boneh-Shaw code "
                   "of length <= k: N*(k) >= (n_LB(k) - 1) / (2 alpha)",
                   lambda p: True, ("k", "users"),
                   bound=lambda p: float(bns_bounds.rows_lb_thresh(p["k"], p["alpha"], p["epsilon"], p["delta"],
                                                                 p["beta"])),
                   bound_fn=bns_bounds.rows_lb_thresh),
        Scaling("scaling-k-learner",
                "The learner's own growth (Obs 3.2, advanced composition): N*(k) / (ln|H| + ln(2k/beta)) "
                "grows like sqrt(k), above the lower bound's k^(1/3): the gap the paper leaves open",
                lambda p: True, ("k",), variable=lambda p: p["k"], variable_name="k", predicted=0.5,
                factor=lambda p: float(bns_bounds.direct_sum_log_factor(p["users"] + 2, p["k"], p["beta"])),
                factor_name="ln|H| + ln(2k/beta)", tolerance=UP_TO_LOGS),
    ]
    return Theorem(
        id="bns.cor4_6", paper=PAPERS["bns"], number="Corollary 4.6",
        title="Private k-learning of thresholds needs about k^(1/3) / alpha rows",
        statement=(
            "Every (even improper) (eps, delta)-DP alpha-accurate empirical k-learner for THRESH_X needs "
            "about k^(1/3)/alpha rows (when |X| is larger than that); non-privately O(1) rows suffice."),
        math=("N >= (n_LB(k) - 1) / (2 alpha), n_LB(k) = max{n : (n - 1) ceil(2 n^2 ln(12 e^eps n^2)) <= k and "
              "1 - xi - n(e^eps xi + delta) > 2 e^eps beta}; n_LB(k) ~ (3k / (4 ln k))^(1/3)."),
        simulator=BnsCor46(), plotter="bns_fp:cor4_6", claims=claims,
        notes=("Each k gets the Boneh-Shaw code of n_LB(k) users (xi = 1/(6 e^eps n)); columns beyond the "
               "code's length are constant 0. The bound function's own log-log slope tends to 1/3 (tested "
               "in tests/test_fp_attacks.py)."))


def _bns_lem4_5() -> Theorem:
    from privbounds.simulators.bns_codes import BnsLem45
    from privbounds.simulators.fingerprint import block_length

    claims = [
        Ceiling("ceiling-completeness",
                "Boneh-Shaw code: P[feasible pirate word and Trace = bottom] <= xi, for every "
                "pirate strategy and coalition size",
                _is(event="completeness", part="code"), ("users", "strategy"), ceiling=lambda p, n: p["xi"]),
        Ceiling("ceiling-soundness",
                "Boneh-Shaw code: P[Trace accuses a user outside the coalition] <= xi",
                _is(event="soundness", part="code"), ("users", "strategy"), ceiling=lambda p, n: p["xi"]),
        Ceiling("ceiling-soundness-truncated",
                "Boneh-Shaw code with shorter blocks d' = d/2^j (same tracer), coalitions of n/2: "
                "P[an innocent is accused] <= xi at every length (step 3's Hoeffding bound does not "
                "involve d)",
                _is(event="soundness", part="length"), ("users", "strategy"), ceiling=lambda p, n: p["xi"]),
    ]
    lengths = "; ".join(f"n = {u}: d = {block_length(u, 0.1)}, k = {(u - 1) * block_length(u, 0.1)}"
                        for u in (4, 8, 16))
    return Theorem(
        id="bns.lem4_5", paper=PAPERS["bns"], number="Lemma 4.5 (Boneh-Shaw code)",
        title="The Boneh-Shaw fingerprinting code is compatible with THRESH",
        statement=(
            "For an ordered domain with at least n + 1 elements there is an (n, k) fingerprinting "
            "code with security xi, of length k = O(n^3 log(n/xi)), whose every column is the "
            "labelling of n fixed points by a threshold."),
        math=("d = ceil(2 n^2 ln(2n/xi)), k = (n - 1) d; completeness P[c' in F(C_S) and "
              "Trace(c') = bottom] <= xi and soundness P[Trace(c') not in S] <= xi (catalog's "
              "reconstruction of Gamma_0(n, d))."),
        simulator=BnsLem45(), plotter="bns_codes:lem4_5", claims=claims,
        notes=(f"Code lengths at xi = 0.1: {lengths}. Curve variable: the coalition size |S| in "
               "{1, 2, n/2, n}, a uniformly random coalition of that size per trial (part = code), or the "
               "code length k = (n - 1) d' for truncated blocks d' = d/256 .. d with |S| = n/2 (part = "
               "length; 'traced' = someone guilty accused, plotted without a claim). Pirates: majority, "
               "minority, a random member's bit, interleaving (contiguous segments copied from one "
               "member each), all ones, all zeros, each under the marking assumption. The tracer reads "
               "only the block weights w(B_m), which are sampled exactly (binomial per type; a "
               "multivariate hypergeometric table for the positional interleaving pirate)."))


def _bns_prop4_9() -> Theorem:
    from privbounds.simulators.bns_codes import BnsProp49
    from privbounds.simulators.tardos import code_length, threshold

    code = _is(part="code")
    claims = [
        Ceiling("ceiling-completeness",
                "Tardos code: P[feasible pirate word and Trace = bottom] <= max(xi, (xi/n)^(n/4)) (Tardos' "
                "eps2; = xi here) at the proposition's length, for every pirate strategy and coalition size",
                lambda p: code(p) and p.get("event") == "completeness", ("users", "strategy"),
                ceiling=lambda p, n: float(bns_bounds.tardos_completeness(p["users"], p["xi"])),
                bound_fn=bns_bounds.tardos_completeness),
        Ceiling("ceiling-soundness",
                "Tardos code: P[Trace accuses a user outside the coalition] <= xi at the proposition's "
                "length",
                lambda p: code(p) and p.get("event") == "soundness", ("users", "strategy"),
                ceiling=lambda p, n: p["xi"]),
        Ceiling("ceiling-soundness-truncated",
                "Tardos code truncated to a fraction of its length (same threshold Z), full collusion: "
                "P[an innocent is accused] <= xi at every length (the proof's bound on an innocent's "
                "score only weakens as the code grows)",
                lambda p: p.get("part") == "length" and p.get("event") == "soundness", ("users", "strategy"),
                ceiling=lambda p, n: p["xi"]),
    ]
    lengths = "; ".join(f"n = {u}: k = {code_length(u, 0.1)}, Z = {threshold(u, 0.1):g}" for u in (4, 8))
    return Theorem(
        id="bns.prop4_9", paper=PAPERS["bns"], number="Proposition 4.9 (Tardos code)",
        title="Tardos' fingerprinting code: length O(n^2 log(n/xi))",
        statement=(
            "There is an (n, k) fingerprinting code with security xi against coalitions of any "
            "size with length k = O(n^2 log(n/xi)); its columns are arbitrary bit vectors, so it "
            "serves the agnostic lower bounds."),
        math=("k = 100 n^2 ceil(ln(n/xi)); p_j = sin^2 r_j, r_j ~ U[t', pi/2 - t'], sin^2 t' = 1/(300 n); "
              "score_i = sum_{j: c'_j = 1} U_ij; accuse argmax if > Z = 20 n ceil(ln(n/xi)) "
              "(catalog's reconstruction of Tardos 2008)."),
        simulator=BnsProp49(), plotter="bns_codes:prop4_9", claims=claims,
        notes=(f"Code lengths at xi = 0.1: {lengths}. Curve variable: the coalition size |S| in "
               "{1, 2, n/2, n} (part = code), or the code length k, a fraction 1/8 .. 1 of the "
               "proposition's length with full collusion (part = length; 'traced' = someone guilty "
               "accused, plotted without a claim). Pirates as in bns.lem4_5; every pirate word is "
               "checked for feasibility. The exact Tardos code and tracer, not the Tardos-Skoric "
               "variant."))


def _agnostic_attack_claims(accuracy_limit, accuracy_text):
    """Ceiling claims shared by the agnostic attacks (Thm 4.7 on POINT, Prop 4.11 on PAR)."""
    def ev(name, private=None):
        return lambda p: p["event"] == name and (private is None or _PRIVATE(p) == private)

    dp_traced = lambda p: p["users"] * float(bns_bounds.dp_trace_ceiling(p["epsilon"], p["delta"], _fp_xi(p)))  # noqa: E731
    return [
        Ceiling("ceiling-completeness",
                "Every learner, database D: P[the word is feasible and the tracer accuses nobody] <= eps2 "
                "(Tardos' completeness, = xi for n >= 4, (xi/n)^(n/4) below)",
                ev("complete-fail"), ("users", "learner"),
                ceiling=lambda p, n: float(bns_bounds.tardos_completeness(p["users"], _fp_xi(p))),
                bound_fn=bns_bounds.tardos_completeness),
        Ceiling("ceiling-soundness",
                "Every learner, database D_-I (a uniform user's row replaced): P[the tracer accuses I] <= xi "
                "(Tardos' tracer is sound against every word)",
                ev("framed"), ("users", "learner"), ceiling=lambda p, n: _fp_xi(p)),
        Ceiling("ceiling-dp-trace",
                "Private learners, database D: P[the tracer accuses somebody] <= n (e^eps xi + delta)",
                ev("traced", True), ("users", "learner"), ceiling=lambda p, n: dp_traced(p),
                bound_fn=bns_bounds.dp_trace_ceiling),
        Ceiling("ceiling-dp-accuracy",
                f"Private learners while {accuracy_text}: P[agnostic alpha-accurate on D] <= eps2 + n (e^eps xi + "
                "delta) (the theorem as a probability bound; our private learners are far from accurate there, "
                "so it would catch only a gross privacy bug)",
                ev("accurate", True), ("users", "learner"),
                ceiling=lambda p, n: (float(bns_bounds.agnostic_accuracy_ceiling(p["users"], p["epsilon"], p["delta"],
                                                                                 _fp_xi(p)))
                                      if accuracy_limit(p, n) else 1.0),
                bound_fn=bns_bounds.agnostic_accuracy_ceiling),
        Ceiling("ceiling-attack-erm",
                "Non-private ERM is caught: P[the tracer accuses nobody on D] <= 1 - n (e^eps xi + delta), i.e. it is "
                "traced more often than any (eps, delta)-DP learner may be",
                ev("bottom", False), ("users", "learner"), ceiling=lambda p, n: 1 - dp_traced(p)),
    ]


def _bns_thm4_7() -> Theorem:
    from privbounds.simulators.bns_fp_agnostic import BnsThm47

    return Theorem(
        id="bns.thm4_7", paper=PAPERS["bns"], number="Theorem 4.7 (with Prop 4.9's Tardos code)",
        title="Agnostic lower bound from any fingerprinting code",
        statement=(
            "In the agnostic model compatibility is not needed: any (n, k)-fingerprinting code with security "
            "xi rules out (eps, delta)-DP agnostic empirical k-learners on n rows for every class with two "
            "distinct concepts."),
        math=("Impossible when (1 - beta - xi)/n > e^eps xi + delta; xi = 1/(6 e^eps n). As probability bounds: "
              "P[traced on D] <= n(e^eps xi + delta); P[accurate on D] <= xi + n(e^eps xi + delta) while alpha N < n."),
        simulator=BnsThm47(), plotter="bns_fp:thm4_7",
        claims=_agnostic_attack_claims(lambda p, n: p["alpha"] * n < p["users"], "alpha N < n"),
        notes=("POINT_X with |X| = 2^10: coded rows at x0, junk rows (x1, 0...0) for users outside the coalition "
               "and for the padding of Rem 4.8; curves over the rows N. Learners: non-private ERM and the "
               "advanced-composition direct sum of exponential mechanisms (Obs 3.2). The figure shows the epsilon "
               "the attack certifies from P[accuse I | D] <= e^eps P[accuse I | D_-I] + delta (I uniform)."))


def _bns_rem4_8() -> Theorem:
    from privbounds.simulators.bns_fp_agnostic import BnsRem48

    claims = [LowerBound("lower-rows",
                         "Direct sum (advanced composition) on the agnostic attack databases of a 4-user Tardos "
                         "code: N* >= n / alpha",
                         lambda p: True, ("alpha",),
                         bound=lambda p: float(bns_bounds.rows_lb_tardos_code(p["users"], p["alpha"], p["epsilon"],
                                                                             p["delta"], p["beta"])),
                         bound_fn=bns_bounds.rows_lb_tardos_code)]
    return Theorem(
        id="bns.rem4_8", paper=PAPERS["bns"], number="Remark 4.8",
        title="Agnostic padding: the lower bound grows like 1/alpha",
        statement=(
            "If the two concepts also agree on some x1, pad the attack database with junk rows (x1, 0...0): "
            "the agnostic lower bound becomes Omega(n / alpha)."),
        math="N* >= n / alpha: while alpha N < n an accurate hypothesis must copy a marked column's bit.",
        simulator=BnsRem48(), plotter="bns_fp:rem4_8", claims=claims,
        notes=("N* is flat in alpha: once alpha N >= n only point(x1) errs by more, and avoiding it costs "
               "~2 ln(k |X| / beta)/eps0 rows. Only the bound grows like 1/alpha."))


def _bns_cor4_10() -> Theorem:
    from privbounds.simulators.bns_fp_agnostic import BnsCor410

    claims = [
        LowerBound("lower-rows",
                   "Direct sum (advanced composition) on the agnostic attack databases of the largest Tardos code "
                   "of length <= k: N*(k) >= n_LB(k) / alpha",
                   lambda p: True, ("k", "users"),
                   bound=lambda p: float(bns_bounds.rows_lb_agnostic(p["k"], p["alpha"], p["epsilon"], p["delta"],
                                                                    p["beta"])),
                   bound_fn=bns_bounds.rows_lb_agnostic),
        Scaling("scaling-k-learner",
                "The learner's growth (Obs 3.2, advanced composition): N*(k) / (ln|X| + ln(2k/beta)) grows like "
                "sqrt(k), the lower bound's own rate up to logarithms",
                lambda p: True, ("k",), variable=lambda p: p["k"], variable_name="k", predicted=0.5,
                factor=lambda p: float(bns_bounds.direct_sum_log_factor(2 ** 10, p["k"], p["beta"])),
                factor_name="ln|X| + ln(2k/beta)", tolerance=UP_TO_LOGS),
    ]
    return Theorem(
        id="bns.cor4_10", paper=PAPERS["bns"], number="Corollary 4.10",
        title="Private agnostic k-learning needs about sqrt(k) rows",
        statement=(
            "For every class with at least two concepts, (eps, delta)-DP agnostic k-learning needs about "
            "sqrt(k) rows (sqrt(k)/alpha with padding); for POINT this matches the upper bound of Cor 3.9 up to "
            "logarithms and separates private PAC learning (k-free, Thm 3.13) from private agnostic learning."),
        math=("N >= n_LB(k) / alpha, n_LB(k) = max{n : 100 n^2 ceil(ln(6 e^eps n^2)) <= k and "
              "(1 - beta - xi)/n > e^eps xi + delta}; n_LB(k) ~ sqrt(k / (100 ln k))."),
        simulator=BnsCor410(), plotter="bns_fp:cor4_10", claims=claims,
        notes=("Each k: the Tardos code of n_LB(k) users, xi = 1/(6 e^eps n); columns beyond its length are "
               "constant 0."))


def _bns_prop4_11() -> Theorem:
    from privbounds.simulators.bns_fp_agnostic import BnsProp411

    return Theorem(
        id="bns.prop4_11", paper=PAPERS["bns"], number="Proposition 4.11",
        title="Agnostic k-learning of parities under the uniform distribution",
        statement=(
            "The fingerprinting argument also rules out (eps, delta)-DP agnostic k-learning of parities under "
            "the uniform distribution with too few samples: with one user per point of {0,1}^d, Omega(2^d) "
            "rows (n/9 samples for a PAC learner, via Thm 2.24), i.e. about sqrt(k) with Tardos' code."),
        math=("Rows = the n = 2^d points of the cube; pirate bit [h_j is 1 on >= 1/4 of the cube]; alpha < 1/4. "
              "P[traced] <= n(e^eps xi + delta), P[accurate] <= xi + n(e^eps xi + delta) for DP learners."),
        simulator=BnsProp411(), plotter="bns_fp:prop4_11",
        claims=_agnostic_attack_claims(lambda p, n: True, "alpha < 1/4 (no padding)"),
        notes=("The catalog marks this the least certain reconstruction (the statement's parameters were lost); we "
               "take n = 2^d users, a user outside the coalition keeping its point with all labels 0, and "
               "alpha = 0.2. Quick fidelity runs d = 2 (4 users, k = 9,600); full adds d = 3 (8 users, k = 44,800). "
               "Learners: ERM (best parity per column) and the advanced-composition direct sum of exponential "
               "mechanisms over PAR_d."))


_BUILDERS = (_siv_thm3_3, _bns_cor2_12, _bns_obs3_2, _bns_thm5_1, _bns_rem5_2, _bns_lem5_3, _bns_thm5_4,
             _bns_prop2_20, _bns_thm3_12,
             _bns_thm3_13, _bns_cor3_9, _bns_thm2_23, _bns_prop2_21,
             _bns_cor3_10, _bns_ex3_5, _bns_cor3_4, _bns_cor3_3,
             _bns_thm2_16, _bns_prop3_8, _bns_prop3_11, _bns_thm2_7, _bns_thm2_8, _bns_thm2_11,
             _bns_thm2_22, _bns_thm2_19, _bns_lem3_7,
             _bns_lem2_25, _bns_thm2_24, _bns_thm2_18,
             _bns_thm3_1, _bns_lem3_6, _bns_thm4_3, _bns_rem4_4, _bns_cor4_6,
             _bns_thm4_7, _bns_rem4_8, _bns_cor4_10, _bns_prop4_11,
             _bns_lem4_5, _bns_prop4_9)
_REGISTRY: dict[str, Theorem] | None = None


def theorems() -> list[Theorem]:
    """Every registered theorem, in registry order."""
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = {t.id: t for t in (b() for b in _BUILDERS)}
    return list(_REGISTRY.values())


def get(theorem_id: str) -> Theorem:
    theorems()
    if theorem_id not in _REGISTRY:
        raise ParameterError(
            f"unknown theorem id {theorem_id!r}; known: {', '.join(_REGISTRY)}")
    return _REGISTRY[theorem_id]
