"""Sivakumar, "A Basic Overview of Private PAC Learning" (lecture notes, 2023): ERM for
finite classes (Thm 2.1) and thresholds (Thm 2.2), the exponential mechanism's utility
(Lem 3.2) and learner (Thm 3.3), the finite shadow of the impossibility for thresholds
(Thm 3.4), the 9n empirical learner (Thm 3.5) and the Ramsey bound (Thm 3.6)."""

from __future__ import annotations

import math

from privbounds.bounds import sivakumar as siv_bounds
from privbounds.claims import UP_TO_LOGS, Ceiling, Scaling, UpperBound, use, where
from privbounds.registry import BOUND_ONLY, Erratum, Paper, Theorem, entry

PAPER = Paper("siv", "Sivakumar. A Basic Overview of Private PAC Learning (lecture notes, 2023)")


def _h_size(p):
    return 2 ** p["d"] + 1 if p["class"] == "thresh" else 2 ** p["d"]


@entry("siv.thm3_3")
def _siv_thm3_3() -> Theorem:
    from privbounds.simulators.siv.thm3_3 import SivThm33

    claims = []
    for cls in ("thresh", "point"):
        name = "THRESH_d" if cls == "thresh" else "POINT_d"
        claims += [
            UpperBound(
                f"upper-expmech-{cls}",
                f"Exponential-mechanism learner on {name}: n_hat <= max(8/alpha, 4/(alpha eps))"
                " (ln|H| + ln(2/beta)) (proof's constants)",
                where(**{"class": cls, "learner": "expmech"}), ("d", "epsilon"),
                bound=use(siv_bounds.n_expmech_learner, h_size=_h_size)),
            Scaling(
                f"scaling-logH-{cls}",
                f"Exponential-mechanism learner on {name}, eps = 1: n_hat grows like ln|H| "
                "(predicted exponent 1 in ln|H|). An upper bound: Theorem 3.3 is the learner's guarantee; the notes "
                "prove no lower bound in |H|",
                where(**{"class": cls, "learner": "expmech", "epsilon": 1.0}), ("d",),
                variable=lambda p: math.log(_h_size(p)), variable_name="ln|H|", predicted=1.0,
                tolerance=UP_TO_LOGS, direction="upper"),
            Scaling(
                f"scaling-eps-{cls}",
                f"Exponential-mechanism learner on {name}, d = 10: n_hat grows like 1/eps "
                "(predicted exponent 1 in 1/eps). An upper bound: Theorem 3.3 is the learner's guarantee",
                where(**{"class": cls, "learner": "expmech", "d": 10}), ("epsilon",),
                variable=lambda p: 1 / p["epsilon"], variable_name="1/epsilon", predicted=1.0,
                direction="upper"),
        ]
    claims += [
        UpperBound(
            "upper-erm-thresh",
            "Non-private ERM on THRESH_d (Thm 2.2): n_hat <= ln(2/beta)/alpha = 8.3, whatever the domain",
            where(**{"class": "thresh", "learner": "erm"}), ("d",),
            bound=use(siv_bounds.n_erm_threshold)),
        UpperBound(
            "upper-erm-point",
            "Non-private consistent ERM on POINT_d (Thm 2.1): n_hat <= (ln|H| + ln(1/beta))/alpha",
            where(**{"class": "point", "learner": "erm"}), ("d",),
            bound=use(siv_bounds.n_erm_finite, h_size=_h_size)),
    ]
    return Theorem(
        number="Theorem 3.3 (with Lemma 3.2; baselines Thm 2.1, 2.2)",
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
        simulator=SivThm33(), plotter="siv.specs:thm3_3", claims=claims,
        errata=(Erratum(
            "Theorem 3.3, proof (the Chernoff step: no bad hypothesis looks good on the sample)",
            "Pr[err_S(h) <= err_D(h)/2] <= e^(-n/8), so a bad sample has probability at most |H| e^(-n/8)",
            "Pr[err_S(h) <= err_D(h)/2] <= e^(-n/32), at most |H| e^(-n/32) for a bad sample, so the step needs "
            "n >= 32 (ln|H| + ln 8)",
            "the multiplicative Chernoff bound P[X <= mu/2] <= e^(-mu/8) with mu = n err_D(h) > n/4 gives "
            "e^(-n/32), while e^(-n/8) is below the true tail (at n = 100 and err_D(h) = 1/4 the tail is 1.0e-3, "
            "e^(-n/8) is 3.7e-6)"),),
        notes=(
            "Instances: THRESH_d under a 4-point cluster (target p3; only p2, p3, p4 are "
            "1/4-accurate); POINT_d with mass 1/2 on the target and 1/2 on a decoy. "
            "Errors are exact. The notes print the generalisation step's Chernoff exponent as "
            "n/8; the multiplicative Chernoff bound gives n/32, which our bound uses (the two "
            "agree for eps <= 1/2)."))



@entry("siv.thm2_1")
def _siv_thm2_1() -> Theorem:
    from privbounds.simulators.siv.thm2_1 import SivThm21

    def h_size(p):
        return 2.0 ** p["k"]
    claims = [
        UpperBound("upper", "First-consistent ERM on ALL_k (every Boolean function on k points): n_hat <= "
                   "(ln|H| + ln(1/beta))/alpha", lambda p: True, ("k",),
                   bound=use(siv_bounds.n_erm_finite, h_size=h_size)),
        Scaling("scaling-logH", "First-consistent ERM on ALL_k: n_hat grows like ln|H| = k ln 2 "
                "(predicted exponent 1 in ln|H|). An upper bound: Theorem 2.1 is ERM's guarantee",
                lambda p: True, ("k",),
                variable=lambda p: p["k"] * math.log(2), variable_name="ln|H|", predicted=1.0,
                tolerance=UP_TO_LOGS, direction="upper"),
    ]
    return Theorem(
        number="Theorem 2.1", title="Consistent ERM over a finite class",
        statement="Without privacy, the first hypothesis of a fixed order of a finite class H that is "
                  "consistent with the sample PAC-learns H with n = O(log|H|) samples.",
        math="n >= (ln|H| + ln(1/beta))/alpha (4(ln|H| + ln 4) at alpha = beta = 1/4).",
        simulator=SivThm21(), claims=claims,
        notes=("A class on which the union bound is nearly tight: all 2^k Boolean functions on k points, "
               "D uniform on them, target 0 and the class ordered by decreasing number of ones, so the "
               "first consistent hypothesis is wrong on every point the sample missed: err_D = unseen "
               "fraction, about e^(-n/k), and n_hat is near k ln 4 = 2 ln|H|, a fraction {tightness: upper} of "
               "the bound. "
               "Structured classes need far less (thresholds: Theorem 2.2). The notes' own ERM "
               "baselines on POINT_d and THRESH_d stay in siv.thm3_3."))


@entry("siv.thm2_2")
def _siv_thm2_2() -> Theorem:
    from privbounds.simulators.siv.thm2_2 import DISTS, SivThm22

    claims = [UpperBound(f"upper-{d}", f"Midpoint ERM on thresholds over 2^b points, {d} distribution: "
                         "n_hat <= ln(2/beta)/alpha = 8.3, whatever the domain", where(dist=d), ("b",),
                         bound=use(siv_bounds.n_erm_threshold)) for d in DISTS]
    claims.append(Scaling(
        "scaling-b", "Midpoint ERM on thresholds, the worse of the two distributions: n_hat does not grow "
        "with the domain (predicted exponent 0 in b = log2|X|). An upper bound: Theorem 2.2's sample size has "
        "no |X| in it", lambda p: True, ("b", "dist"),
        variable=lambda p: p["b"], variable_name="b = log2|X|", predicted=0.0, worst_over=("dist",),
        direction="upper"))
    return Theorem(
        number="Theorem 2.2", title="ERM for thresholds needs a constant number of samples",
        statement="Without privacy, thresholds on [0, 1] are PAC-learnable by ERM with O(1) samples "
                  "(\"roughly 10\"), whatever the domain.",
        math="n >= ln(2/beta)/alpha (4 ln 8 = 8.3 at alpha = beta = 1/4).",
        simulator=SivThm22(), claims=claims,
        notes=("Grids of 2^4 to 2^48 points; the learner outputs the middle of the consistent stretch and "
               "never enumerates the domain. Under the 4-point cluster only three thresholds are "
               "1/4-accurate; under the uniform distribution the error is |t - t*| / 2^b. The notes omit "
               "the proof; the bound's constant is derived from the two one-sided stretches of mass alpha."))


@entry("siv.lem3_2")
def _siv_lem3_2() -> Theorem:
    from privbounds.simulators.siv.lem3_2 import A_STEP, SHAPES, SivLem32

    claims = [Ceiling(f"ceiling-{shape}", f"Exponential mechanism, {shape} scores (|H| = 256): "
                      "P[gap >= 2 Delta (ln|H| + a)/eps] <= e^(-a)", where(shape=shape), ("epsilon",),
                      bound=use(siv_bounds.expmech_tail_ceiling, a=lambda p: A_STEP * p["n"]))
              for shape in SHAPES]
    return Theorem(
        number="Lemma 3.2 (McSherry-Talwar)", title="The exponential mechanism's utility tail",
        statement="The exponential mechanism, which outputs h with probability proportional to "
                  "exp(eps score(S, h) / (2 Delta)), is eps-DP and falls short of the best score by "
                  "2 Delta (ln|H| + a)/eps or more with probability at most e^(-a).",
        math="P[max score - score(output) >= 2 Delta (ln|H| + a)/eps] <= e^(-a).",
        simulator=SivLem32(), plotter="siv.lem3_2:plot", claims=claims,
        errata=(Erratum(
            "Section 3, the weight of algorithm A' (stated just before Lemma 3.2)",
            "h drawn with probability proportional to e^(-eps score_S(h)/2), where score_S(h) = -n err_S(h)",
            "h drawn with probability proportional to e^(eps score_S(h)/2) = e^(-eps n err_S(h)/2)",
            "Lemma 3.2 promises an output whose score is near the best, and the proof of Theorem 3.3 needs one "
            "with training error at most 1/8; the printed sign gives the most weight to the hypothesis with the "
            "most errors"),),
        notes=("Five shapes of score vector (one winner with the rest far behind, many ties at the top, a "
               "linear ramp, two levels, and fresh uniform random scores in every trial), a = 0.25 to 4, "
               "eps = 0.5, 1, 2, sampled by Gumbel-max. The notes print the weight as exp(-eps score/2) with "
               "score = -n err_S, which would favour the worst hypotheses; we use exp(+eps score/(2 Delta)) "
               "and test that the mechanism's mode is an ERM, and that the sampled tail agrees with the "
               "exact one (log-sum-exp). The bound is nearly reached by one winner with every other "
               "candidate at the threshold gap, and is loose by the share of the best candidates when "
               "many tie at the top."))


@entry("siv.thm3_4")
def _siv_thm3_4() -> Theorem:
    from privbounds.simulators.siv.thm3_4 import SivThm34

    def ln_x(p):
        return p["b"] * math.log(2)
    claims = [
        UpperBound("upper-pure", "Pure eps-DP exponential mechanism over THRESH_b (interval sampler): n_hat <= "
                   "Thm 3.3's max(8/alpha, 4/(alpha eps))(ln|H| + ln(2/beta))", where(learner="pure"), ("b",),
                   bound=use(siv_bounds.n_expmech_learner, h_size=lambda p: 2.0 ** p["b"] + 1)),
        UpperBound("upper-approx", "Our (eps, delta)-DP private binary search: n_hat <= our explicit bound "
                   "(4/alpha) sigma sqrt(2 ln(2(b+1)/beta)), sigma = 2 sqrt(b+1)/mu_GDP(eps, delta)",
                   where(learner="approx"), ("b",), bound=use(siv_bounds.n_binary_search_threshold)),
        UpperBound("upper-erm", "Non-private midpoint ERM (Thm 2.2): n_hat <= ln(2/beta)/alpha = 8.3",
                   where(learner="erm"), ("b",), bound=use(siv_bounds.n_erm_threshold)),
        Scaling("scaling-pure", "Pure exponential mechanism: n_hat grows like ln|X|, measured in Thm 3.3's "
                "variable ln|H| + ln(2/beta) (predicted exponent 1). An upper bound: Theorem 3.3's guarantee; the notes "
                "prove no pure-DP lower bound in |X|", where(learner="pure"), ("b",),
                variable=lambda p: math.log(2.0 ** p["b"] + 1) + math.log(2 / p["beta"]),
                variable_name="ln|H| + ln(2/beta)", predicted=1.0, tolerance=UP_TO_LOGS, direction="upper"),
        Scaling("scaling-approx", "Private binary search: n_hat / sqrt(ln(2(b+1)/beta)) (the search draws b + 1 "
                "noisy counts and each must steer it right, so the largest of b + 1 Gaussian noises is paid) grows "
                "like sqrt(ln|X|) (predicted exponent 1/2, up to lower-order terms). An upper bound: our "
                "explicit bound for this learner",
                where(learner="approx"), ("b",), variable=ln_x,
                variable_name="ln|X|", predicted=0.5, tolerance=UP_TO_LOGS,
                factor=lambda p: math.sqrt(math.log(2 * (p["b"] + 1) / p["beta"])),
                factor_name="sqrt(ln(2(b+1)/beta))", direction="upper"),
        # ERM's constancy in the domain is siv.thm2_2's scaling claim; here it is the baseline
    ]
    return Theorem(
        number="Theorem 3.4 (with Theorems 3.5 and 3.6)",
        title="Thresholds over an infinite domain are not privately learnable",
        statement="No (1, o(1/n))-differentially private PAC learner for thresholds on [0, 1] exists, "
                  "with any finite number of samples.",
        math="via Theorem 3.5 and the Ramsey bound of Theorem 3.6: n >= log*|X| (up to constants) on a "
             "domain X; measured here: its finite shadow on grids of 2^4 to 2^56 points (2^60 at full "
             "fidelity).",
        simulator=SivThm34(), plotter="siv.specs:thm3_4", claims=claims,
        notes=("The theorem is an impossibility over an infinite domain, and no experiment can show it; what "
               "runs here is its finite shadow: the samples our private threshold learners need on grids of "
               "2^4 to 2^56 points under the 4-point cluster, where only three thresholds are 1/4-accurate. "
               "The pure eps-DP exponential mechanism (sampled over runs of thresholds in log space, so any "
               "grid size works) needs samples growing like log|X| / eps, and that growth is real for pure "
               "DP (the packing lower bound says so); the non-private midpoint ERM stays at "
               "{n_hat: learner=erm, b=*} samples. "
               "Approximate DP needs far fewer samples as the domain grows, asymptotically: the best known "
               "learners need about log*|X| (recursive interior point; not implemented here), and our "
               "approximate learner, a private binary search over the domain's bits with Gaussian noise on "
               "b + 1 counts (exact Gaussian-DP accounting, delta = 1e-6), grows only like sqrt(log|X|) "
               "(its bound carries an extra sqrt(ln log|X|)). Its constant, the price of delta = 1e-6, is "
               "large, so at every grid we can simulate it needs more samples than the pure learner: at "
               "these sizes the square root has not yet overtaken the constant. Nothing here can show the "
               "log*|X| lower bound: log* of 2^56 is 5, and it is invisible below any grid a computer "
               "holds. Its proof is also not a proof of this page's curves: the packing step with group "
               "privacy and the Ramsey colouring (Theorem 3.6) are not simulated."))


@entry("siv.thm3_5")
def _siv_thm3_5() -> Theorem:
    from privbounds.simulators.siv.thm3_5 import SPREADS, SivThm35

    def h_size(p):
        return 2.0 ** p["b"] + 1
    claims = [UpperBound(f"upper-{sp}", f"Subsampled exponential-mechanism learner B, {sp} database: database "
                         "size n_hat <= 9 N_expmech (Thm 3.3's N at the inner learner's eps)", where(spread=sp),
                         ("b",), bound=use(siv_bounds.m_empirical_from_pac, h_size=h_size)) for sp in SPREADS]
    claims.append(Scaling(
        "scaling-logH", "B, the worse database: database size grows like ln|H| (predicted exponent 1, as "
        "its inner PAC learner; in Thm 3.3's variable ln|H| + ln(2/beta)). An upper bound: Theorem 3.5 carries "
        "Theorem 3.3's guarantee to 9n rows", lambda p: True, ("b", "spread"),
        variable=lambda p: math.log(h_size(p)) + math.log(2 / p["beta"]),
        variable_name="ln|H| + ln(2/beta)", predicted=1.0, tolerance=UP_TO_LOGS, worst_over=("spread",),
        direction="upper"))
    return Theorem(
        number="Theorem 3.5", title="A private PAC learner gives a private empirical learner on 9n rows",
        statement="If an (eps, delta)-DP learner PAC-learns H with n samples (accuracy 1/4), then some "
                  "(eps, delta)-DP algorithm outputs, on any database of 9n rows labelled by a member of H, a "
                  "hypothesis that mislabels at most a quarter of them, with probability >= 3/4 over its own "
                  "coins.",
        math="m = 9n; B(S) runs the learner on n rows of S drawn with replacement: "
             "(6 eps n/m, e^(6 eps n/m)(4n/m) delta)-DP for eps <= 1 (secrecy of the sample).",
        simulator=SivThm35(), claims=claims,
        notes=("The notes state the reduction without proof; the construction and its privacy constants "
               "(6 eps n/m, 4n/m: RECONSTRUCTED) are from the secrecy-of-the-sample lemma of Bun, Nissim, "
               "Stemmer and Vadhan, the same step as Bun-Nissim-Stemmer Theorem 2.24 and Lemma 2.25. The "
               "inner learner is Theorem 3.3's exponential mechanism over thresholds at eps = 1; databases "
               "are fixed and realisable, four consecutive grid points with even or skewed row counts (the "
               "skewed one leaves a single acceptable threshold), and success is over B's coins only. The "
               "audit runs B at the amplified epsilon on 1 row drawn from 9 at eps = 2: the lemma is stated "
               "for eps <= 1, where no instance could catch a doubled budget (its loss then stays under "
               "2 eps/3 on every event, as bns.lem2_25 explains), and at eps = 2 the declared 4/3 is still "
               "above the exact pure-DP amplification, 0.54."))


@entry("siv.thm3_6")
def _siv_thm3_6() -> Theorem:
    table = "; ".join(f"|X| = 2^{k}: n >= {siv_bounds.log_star(2 ** k)}" for k in (4, 16, 64, 65536))
    return Theorem(
        number="Theorem 3.6", title="A hypergraph Ramsey bound",
        statement="If the complete n-uniform hypergraph on V has an n-colouring of its hyperedges with no "
                  "monochromatic clique of size 15n, then |V| <= tower_n(n) (a tower of n's of height n), "
                  "i.e. n >= log*|V| up to constants.",
        math="|V| <= tower_n(n); n >= log*|V| (bounds.sivakumar.tower, log_star).",
        status=BOUND_ONLY, tested_by=("siv.thm3_4",),
        errata=(Erratum(
            "Theorem 3.6, the two forms of its conclusion",
            "|V| <= tower_n(n) (a tower of n's of height n), or equivalently n >= log*|V|",
            "|V| <= tower_n(n), hence log*|V| = O(n): n >= log*|V| only up to a constant factor",
            "log* undoes a tower of 2's and a tower of n's grows faster, so the two forms are not equivalent: "
            "|V| = 3^27 = tower_3(3) meets the first, yet log*(3^27) = 5 > 3"),),
        reason=("A combinatorial bound used in the proof of Theorem 3.4; there is nothing to sample, and the "
                "lower bound it implies, n >= log*|X|, is at most 5 for every domain a computer can hold "
                "(the table in the notes), so no experiment could tell it from a constant. Theorem 3.4's "
                "page measures the finite shadow of the impossibility it serves."),
        notes=("Implied minimal n = log*|X| (bounds.sivakumar.log_star): " + table + ". The notes' |V| <= tower_n(n) and n >= log*|V| are the same "
               "order of growth, not the same inequality (a tower of n's against a tower of 2's: "
               "tower(2, 4) = 65536, tower(3, 3) has 13 digits); constants hidden in that equivalence are "
               "not stated."))
