"""Wang, Lei, Fienberg (JMLR 2016): privacy by subsampling (Lemmas 4, 29, 31, 34),
privacy implies stability (Lemmas 8, 30), the (eps, delta) characterisation (Theorem 32,
bound-only), the phase transition in delta (Proposition 33, its finite shadow) and
high-confidence boosting (Theorem 25)."""

from __future__ import annotations

from privbounds.bounds import wlf as B
from privbounds.claims import Ceiling, MeanBound, use
from privbounds.registry import BOUND_ONLY, Erratum, Theorem, entry

LOSS = "privacy loss eps (exact)"


def _is(**kw):
    return lambda p: all(p.get(k) == v for k, v in kw.items())


def _worst(cid, text, select, keys, bound, quantity, value_range=(0.0, 1.0)):
    return MeanBound(cid, text, select, keys, bound=bound, statistic="max", quantity=quantity,
                     value_range=value_range)


@entry("wlf.lem34")
def _lem34() -> Theorem:
    from privbounds.simulators.wlf.subsample import WlfLem34

    keys = ("epsilon", "gamma")
    claims = [
        _worst("exact-form", "Largest exact privacy loss of the subsampled geometric count over the pairs tried <= "
               "the proof's log((1 + gamma (e^eps - 1)) / (1 + gamma (e^-eps - 1)))", lambda p: True, keys,
               use(B.lem34_exact_form), LOSS, (0.0, None)),
        _worst("stated", "Largest exact privacy loss <= 2 gamma (e^eps - e^-eps) (the lemma as stated; gamma <= 1/2)",
               lambda p: p["gamma"] <= 0.5, keys, use(B.lem34_bound), LOSS, (0.0, None)),
        _worst("tight-reference", "Largest exact privacy loss <= log(1 + gamma (e^eps - 1)) (the tight amplification "
               "for this neighbour relation; not the paper's)", lambda p: True, keys,
               use(B.subsample_tight_epsilon), LOSS, (0.0, None)),
    ]
    return Theorem(
        number="Lemma 34", title="Subsampling lemma for pure differential privacy",
        statement=("If A is eps-DP, then A run on a uniformly random subset of gamma n of the n rows (without "
                   "replacement) is 2 gamma (e^eps - e^-eps)-DP."),
        math="eps' <= log(1 + gamma (e^eps - 1)) - log(1 + gamma (e^-eps - 1)) <= 2 gamma (e^eps - e^-eps)",
        simulator=WlfLem34(), plotter="wlf.specs:lem34", claims=claims,
        notes=("The mechanism is the count of ones released with two-sided geometric noise (exactly eps-DP), run on "
               "floor(gamma n) of n = 100 and 400 rows; its output distribution on every neighbouring pair (k "
               "versus k + 1 ones) is an exact hypergeometric mixture, so each trial's privacy loss is exact over "
               "all outputs and the largest over the trials (which always include the extreme pairs) is the worst "
               "case. It equals the tight log(1 + gamma (e^eps - 1)) to rounding, below the proof's exact form and "
               "below the stated 2 gamma (e^eps - e^-eps), which exceeds eps itself unless gamma is small (for "
               "eps = 1 it needs gamma < 0.21). The simplification to the stated form needs gamma <= 1/2, which "
               "the lemma leaves implicit. One mechanism is checked: the experiment can refute the lemma, and "
               "shows how loose it is, but cannot prove it for every eps-DP algorithm."))


@entry("wlf.lem4")
def _lem4() -> Theorem:
    from privbounds.simulators.wlf.subsample import WlfLem4

    priv = _is(measure="privacy_loss")
    claims = [
        _worst("privacy-stated", "Geometric count on floor(sqrt n) of n rows: largest exact privacy loss <= "
               "(2/sqrt n)(e^eps - e^-eps)", priv, ("epsilon",), use(B.lem4_privacy), LOSS, (0.0, None)),
        _worst("privacy-exact-form", "Largest exact privacy loss <= Lemma 34's exact form at gamma = "
               "floor(sqrt n)/n", priv, ("epsilon",), use(B.lem4_privacy_exact_form), LOSS, (0.0, None)),
        MeanBound("rate-at-sqrt-n", "Algorithm 1 (eps = 1) on floor(sqrt n) of n rows: excess risk <= the base "
                  "learner's rate at floor(sqrt n) rows, xi(m) = 4(log|H| + 1)/(eps m) + sqrt(log|H|/(2m)) (ours)",
                  _is(measure="excess_risk_subsampled"), ("epsilon",),
                  bound=use(B.lem4_rate, h_size=lambda p: 2 ** p["bits"] + 1), quantity="excess risk"),
        # the difference ER_sub(n) - ER_base(floor(sqrt n)) is 0 in distribution (a random subset of
        # iid rows is iid): drawn in the figure as a check of the simulator, not claimed of the lemma
    ]
    return Theorem(
        number="Lemma 4", title="A constant eps can be made vanishing by subsampling sqrt(n) rows",
        statement=("If an eps-DP algorithm (0 < eps < infinity) is consistent with rate xi(n), then running it on a "
                   "random subset of sqrt(n) rows gives a (2/sqrt n)(e^eps - e^-eps)-DP algorithm consistent with "
                   "rate xi(sqrt n)."),
        math="eps(n) = (2/sqrt n)(e^eps - e^-eps); ER_sub(n) = ER(floor(sqrt n)) <= xi(floor(sqrt n))",
        simulator=WlfLem4(), plotter="wlf.specs:lem4", claims=claims,
        notes=("Privacy: the two-sided geometric count on floor(sqrt n) of n rows, exact privacy loss over every "
               "output on each neighbouring pair tried (extremes included), against the stated "
               "(2/sqrt n)(e^eps - e^-eps) and against Lemma 34's exact form at gamma = floor(sqrt n)/n; the loss "
               "equals the tight log(1 + gamma (e^eps - 1)). Rate: Algorithm 1 at eps = 1 on P-fin (64 grid "
               "points, label noise 0.1, exact risks) run on a random floor(sqrt n)-subset has, per dataset, the "
               "excess risk of Algorithm 1 on floor(sqrt n) fresh rows, because a random subset of iid rows is "
               "iid (the figure draws the difference of the two means as a check of the simulator; no claim: it "
               "is 0 in distribution). The claim is the lemma's rate at sqrt(n): the subsampled excess risk "
               "against xi(floor(sqrt n)), with xi our explicit rate of Algorithm 1 at a fixed eps, "
               "4(log|H| + 1)/(eps m) + sqrt(log|H|/(2m)) (Theorem 19's rate at a fixed eps keeps 2 eps and is "
               "above 1). The experiment checks one distribution; the transfer holds for every one."))


@entry("wlf.lem29")
def _lem29() -> Theorem:
    from privbounds.simulators.wlf.subsample import WlfLem29

    q = "delta at eps = 0 (TV), exact"
    claims = [
        _worst("exact", "The exact count on floor(sqrt n) of n rows: largest delta at eps = 0 <= floor(sqrt n)/n",
               lambda p: True, (), use(B.lem29_exact), q),
        _worst("stated", "Largest delta at eps = 0 <= 1/sqrt n (the lemma as stated)", lambda p: True, (),
               use(B.lem29_bound), q),
    ]
    return Theorem(
        number="Lemma 29", title="Any algorithm on a random sqrt(n)-subset is (0, 1/sqrt n)-DP",
        statement="For any algorithm A, running A on a uniformly random subset of sqrt(n) of the n rows is "
                  "(0, 1/sqrt n)-DP.",
        math="delta(0) = TV <= floor(sqrt n)/n <= 1/sqrt n",
        simulator=WlfLem29(), plotter="wlf.specs:lem29", claims=claims,
        notes=("A is the exact count of ones (no noise, no privacy of its own), run on m = floor(sqrt n) of n rows; "
               "the TV between its outputs on neighbouring datasets (k versus k + 1 ones) is exact (hypergeometric), "
               "and at k = 0 it equals m/n: the lemma's bound (with m = floor(sqrt n), which the paper writes as "
               "sqrt n) is attained, so it cannot be improved for arbitrary A. The stated 1/sqrt n is at least "
               "m/n. A finite experiment shows tightness on one A; the lemma's 'any algorithm' rests on the proof."))


@entry("wlf.lem31")
def _lem31() -> Theorem:
    from privbounds.simulators.wlf.count_mechanisms import gaussian_delta
    from privbounds.simulators.wlf.subsample import WlfLem31

    def base_delta(p):
        return float(gaussian_delta(p["sigma"], p["epsilon"]))

    keys = ("sigma", "epsilon", "gamma")
    q = "delta of the subsampled mechanism (exact)"
    claims = [
        _worst("stated", "Discrete Gaussian count (eps, delta(eps))-DP on floor(gamma n) of n rows: largest exact "
               "delta at eps' = log(1 + gamma e^eps (e^eps - 1)) <= gamma e^eps delta", _is(measure="delta_lemma"),
               keys, use(B.lem31_delta, delta=base_delta), q),
        _worst("tight-reference", "Largest exact delta at log(1 + gamma (e^eps - 1)) <= gamma delta (the tight "
               "amplification; not the paper's)", _is(measure="delta_tight"), keys,
               use(B.subsample_tight_delta, delta=base_delta), q),
    ]
    return Theorem(
        number="Lemma 31", title="Subsampling lemma for (eps, delta)-differential privacy",
        statement=("If A is (eps, delta)-DP, then A run on a random subset of gamma n rows (without replacement) is "
                   "(eps', delta')-DP with eps' = log(1 + gamma e^eps (e^eps - 1)) and delta' = gamma e^eps delta."),
        math="eps' = log(1 + gamma e^eps (e^eps - 1)), delta' = gamma e^eps delta",
        simulator=WlfLem31(), plotter="wlf.specs:lem31", claims=claims,
        notes=("The base mechanism is the count of ones plus discrete Gaussian noise (sigma 1 or 2), whose exact "
               "privacy profile delta(eps) (hockey-stick divergence) gives its delta at each base eps. Run on "
               "floor(gamma n) of n = 20 and 100 rows, the subsampled mechanism's exact delta at the lemma's eps' "
               "is the largest hockey-stick divergence over the neighbouring pairs tried (both orders, extremes "
               "included). It lies below gamma e^eps delta with room: the lemma carries an extra e^eps in both "
               "eps' and delta' compared with the tight (log(1 + gamma (e^eps - 1)), gamma delta), which the "
               "reference claim checks. One family of mechanisms is checked, so the experiment can refute the "
               "lemma but not prove it."))


@entry("wlf.lem8")
def _lem8() -> Theorem:
    from privbounds.simulators.wlf.privacy_stability import WlfLem8

    st = _is(measure="stability")
    keys = ("learner", "epsilon")
    q = "RO-stability (exact)"
    claims = [
        _worst("expm1", "Every learner, eps-DP: largest exact RO-stability over the pairs tried <= e^eps - 1", st,
               keys, use(B.lem8_stability), q),
        _worst("linear", "For eps <= 1: largest RO-stability <= 2 eps", lambda p: st(p) and p["epsilon"] <= 1,
               keys, use(B.lem8_stability_linear), q),
        _worst("tanh", "Largest RO-stability <= tanh(eps/2) (the TV limit of an eps-DP pair; not the paper's)", st,
               keys, use(B.pure_dp_tv), q),
        _worst("alg1-realised-tv", "Algorithm 1 (Delta q = 2/n, realised eps/2): RO-stability <= tanh(eps/4)",
               _is(measure="stability", learner="alg1"), keys, use(B.alg1_realised_tv), q),
        _worst("alg1-realised-privacy", "Algorithm 1: largest exact privacy loss max_h |ln p - ln p'| over every "
               "replacement tried <= eps/2", _is(measure="privacy_loss"), keys, use(B.alg1_realised_epsilon), LOSS,
               (0.0, None)),
    ]
    return Theorem(
        number="Lemma 8", title="Privacy implies stability",
        statement=("If 0 <= loss <= 1, any eps-DP algorithm is (e^eps - 1)-strongly-uniformly RO-stable; if eps <= 1 "
                   "it is also 2 eps-stable."),
        math="sup_z |E_{A(Z)} loss(h, z) - E_{A(Z')} loss(h, z)| <= e^eps - 1 (<= 2 eps for eps <= 1)",
        simulator=WlfLem8(), plotter="wlf.specs:lem8", claims=claims,
        notes=("Three eps-DP learners, stability computed exactly per neighbouring pair: Algorithm 1 on P-fin "
               "(random dataset, one random row, every replacement of it, sup over every test point of the "
               "threshold class), the two-sided geometric count and the geometric count on half of the rows (base "
               "eps set so that it is exactly eps-DP); for the last two the loss may be any [0, 1]-valued function "
               "of the output, so the stability is the TV distance. (Laplace-perturbed ERM is not run: its TV "
               "between neighbours has a closed form that a claim would only restate.) The geometric "
               "count reaches tanh(eps/2) exactly, the limit for any eps-DP pair, so the lemma's e^eps - 1 is "
               "loose by a factor about 2 for small eps, and about 8 against Algorithm 1 (its Delta q = 2/n makes "
               "it eps/2-DP, its measured privacy loss reaching but not passing eps/2, and its threshold class "
               "sees half of the TV limit tanh(eps/4)). Maxima over sampled pairs are lower bounds "
               "on the supremum of Definition 6, so the experiment can refute the lemma, not prove it."))


@entry("wlf.lem30")
def _lem30() -> Theorem:
    from privbounds.simulators.wlf.privacy_stability import WlfLem30, lem30_guarantee

    q = "RO-stability = TV (exact)"
    claims = [
        # for the plain discrete Gaussian, min over its own profile of e^eps - 1 + delta(eps) is delta(0),
        # the TV itself (an identity, drawn in the figure); the subsampled one is declared through
        # Lemma 31, independently of the TV measured, so the claim can fail there
        _worst("profile", "Discrete Gaussian on half the rows: largest TV over the pairs tried <= min over the "
               "declared (Lemma 31) profile of e^eps - 1 + delta", _is(learner="gaussian_sub"), ("learner", "sigma"),
               use(B.lem30_stability, epsilon=lambda p: lem30_guarantee(p)[0], delta=lambda p: lem30_guarantee(p)[1]),
               q),
        _worst("typical", "Discrete Gaussian count: largest TV <= e^eps - 1 + 1e-5 at eps = eps(delta = 1e-5)",
               _is(learner="gaussian"), ("learner", "sigma"),
               use(B.lem30_stability, epsilon=lambda p: lem30_guarantee(p, "typical")[0],
                   delta=lambda p: lem30_guarantee(p, "typical")[1]), q),
    ]
    return Theorem(
        number="Lemma 30", title="Stability of (eps, delta)-differentially private algorithms",
        statement="If A is (eps, delta)-DP and 0 <= loss <= 1, then A is (e^eps - 1 + delta)-stable.",
        math="sup_z |E_{A(Z)} loss - E_{A(Z')} loss| <= e^eps - 1 + delta",
        simulator=WlfLem30(), plotter="wlf.specs:lem30", claims=claims,
        notes=("The count plus discrete Gaussian noise (sigma 0.5 to 4) is (eps, delta(eps))-DP for every eps, "
               "delta(eps) its exact hockey-stick profile; on half of the rows its guarantee is Lemma 31's. The "
               "stability against every [0, 1]-valued loss is the TV distance, exact per neighbouring pair. "
               "Minimised over the profile, e^eps - 1 + delta(eps) is smallest at eps = 0, where it equals delta(0) "
               "= TV (its derivative e^eps (1 - P'[loss > eps]) is never negative): the lemma is exactly tight "
               "for the plain count (drawn, not claimed: the bound would be the measured TV itself); for the count on half of the "
               "rows, Lemma 31's guarantee minimised the same way is within a fraction of a percent of the TV (the TV is "
               "{tightness: profile} times it). At a typical delta = 1e-5 the bound is above 1 (says nothing) for "
               "sigma <= 4 and {slack: typical} times the TV at sigma 8 and 16. The experiment checks these mechanisms, not every (eps, delta)-DP "
               "algorithm."))


@entry("wlf.prop33")
def _prop33() -> Theorem:
    from privbounds.simulators.wlf.subsample import WlfProp33

    claims = [
        _worst("privacy", "ERM on floor(sqrt n) of n rows: largest exact delta at eps = 0 over the pairs tried <= "
               "delta~(n) = n^-1/2", _is(measure="privacy_delta"), (), use(B.prop33_subsample_delta),
               "delta at eps = 0 (TV), exact"),
        MeanBound("rate", "Its mean excess risk <= the finite-class ERM rate at floor(sqrt n) rows, "
                  "sqrt(2 log(2|H|)/m)", _is(measure="excess_risk"), (),
                  bound=use(B.prop33_erm_rate, h_size=lambda p: 2 ** p["bits"] + 1), quantity="excess risk"),
    ]
    return Theorem(
        number="Proposition 33", title="A phase transition in delta for approximately private learnability",
        statement=("If delta~(n) = omega(1/n), every learnable problem is Delta(n)-approximately privately "
                   "learnable (run a consistent learner on a delta~(n)-fraction of the rows); if delta~(n) <= "
                   "exp(-eps(n^2) n^2)/n, the threshold problem on [0, 1] is learnable but not Delta(n)-"
                   "approximately privately learnable."),
        math="(i) (0, delta~(n))-DP with rate xi(n delta~(n)); (ii) delta~(n) <= exp(-eps(n^2) n^2)/n",
        simulator=WlfProp33(), plotter="wlf.privacy:prop33", claims=claims,
        errata=(Erratum(
            "Proposition 33, proof of (ii) (the condition on delta(n) in the packing step)",
            "delta(n) <= 0.4 n e^(-eps n)", "delta(n) <= 0.4 e^(-eps (n - 1))/n",
            "rearranged, group privacy over n replacements costs n e^(-eps) delta in each window; over about "
            "e^(eps n) windows that is n e^(eps (n - 1)) delta, at most 0.4 only if n divides, as it does in the "
            "proposition's own threshold exp(-eps(n^2) n^2)/n"),),
        notes=("The finite shadow of part (i) at delta~(n) = n^-1/2: non-private ERM on floor(sqrt n) of n rows of "
               "P-fin (64 grid thresholds, label noise 0.1) is (0, floor(sqrt n)/n)-DP, measured exactly as the TV "
               "on designed neighbouring pairs (it reaches floor(sqrt n)/n), and its excess risk follows the ERM "
               "rate at sqrt(n) rows. This shows the triviality the proposition points at: a delta of order n^-1/2 "
               "permits a learner that ignores most rows and publishes some of them. Part (ii) is about an infinite "
               "domain and rates: no finite experiment can show that a problem is not learnable, so it is drawn, "
               "not measured: the threshold exp(-eps n^2)/n and the direct argument's exp(-eps n)/n on a log10 "
               "scale (below 1e-40 already at n = 100 for eps = 1). The packing step needs delta <= 0.4 "
               "e^(-eps (n-1))/n; the paper prints 0.4 n e^(-eps n)."))


def _thm25_errata() -> tuple:
    return (
        Erratum("Theorem 25, the privacy level (statement, and the end of its proof in Appendix A.6)",
                "max{eps(n/(log(3/n) + 1)), (log(3/delta) + 1)/sqrt n}-DP",
                "max{eps(n/(log(3/delta) + 1)), (log(3/delta) + 1)/sqrt n}-DP",
                "each candidate is trained on one of a + 1 = log(3/delta) + 1 disjoint parts of n/(a + 1) rows, "
                "so the base learner runs at that sample size"),
        Erratum("Theorem 25, eq. (21) in its proof (the validation step)",
                "R_hat(h_j, Z_(a+1)) - R(h_j) <= sqrt(log(2a/delta_1)/(2n)), added once to the final bound",
                "|R_hat(h_j, Z_(a+1)) - R(h_j)| <= sqrt((a + 1) log(2a/delta_1)/(2n)), added twice",
                "the validation part Z_(a+1) has n/(a + 1) rows, not n, and the chain from R(h) to the best "
                "candidate's risk passes between risk and validation risk twice (at the output and at the best "
                "candidate)"),
        Erratum("Theorem 25, the excess-risk bound (statement, against the last display of its proof)",
                "R(h) - R* <= e xi(n/(log(3/delta) + 1)) + C sqrt(log(3/delta)/n)",
                "R(h) - R* <= e xi(n/(log(3/delta) + 1)) + C log(3/delta)/sqrt n",
                "at the proof's eps = (log(3/delta) + 1)/sqrt n its selection term 8(log(3/delta) + log log(3/delta))"
                "(log(3/delta) + 1)/(eps n) is 8(log(3/delta) + log log(3/delta))/sqrt n, which no absolute C "
                "times sqrt(log(3/delta)/n) bounds as delta -> 0"),
    )


@entry("wlf.thm25")
def _thm25() -> Theorem:
    from privbounds.simulators.wlf.boosting import WlfThm25

    claims = [Ceiling("failure", "Boosting Algorithm 1: P[R(h) - R* > the proof's bound] <= delta (the failure "
                      "probability; beta in the points), where that bound is below 1", lambda p: True, ("beta",),
                      bound=use(B.thm25_failure))]
    return Theorem(
        number="Theorem 25", title="High-confidence private learning via boosting",
        statement=("If A privately learns with rate xi(n) and privacy eps(n), the boosting algorithm A' with "
                   "a = log(3/delta) is max{eps(n/(log(3/delta) + 1)), (log(3/delta) + 1)/sqrt n}-DP and with "
                   "probability at least 1 - delta its output has R(h) - R* <= e xi(n/(log(3/delta) + 1)) + "
                   "C sqrt(log(3/delta)/n)."),
        math=("P[R(h) - R* > e xi(m) + 2 sqrt((a+1) log(6a/delta)/(2n)) + 8(log(3/delta) + log a)(a+1)/(eps_v n)] "
              "<= delta, a = ceil(log(3/delta)), m = floor(n/(a+1)), eps_v = (log(3/delta) + 1)/sqrt n"),
        simulator=WlfThm25(), plotter="wlf.specs:thm25", claims=claims, errata=_thm25_errata(),
        notes=("Base learner: Algorithm 1 on P-fin (64 grid thresholds, label noise 0.1) at Example 20's eps(m); "
               "its rate xi(m) = 4(log|H| + 1)/(eps m) + sqrt(log|H|/(2m)) is ours (valid for every D; Theorem 19's "
               "rate exceeds 1 at every affordable m). Each trial runs the whole boosting learner and fails when the "
               "exact excess risk exceeds the proof's pre-simplification bound (C is unspecified, so the "
               "simplified form cannot be checked), with the Hoeffding term on the validation part's n/(a+1) rows "
               "and counted twice (the printed proof has n and once). a = ceil(log(3/delta)) since a must be an "
               "integer; the privacy statement's log(3/n) is read as log(3/delta). The bound is below 1 at every n of the "
               "curve (2^14 to 2^20) and the measured failure rate is {p_hat: failure}: the bound is many times the measured excess risk, so the "
               "experiment confirms the guarantee on this problem but cannot show the log(1/delta) form, and with an "
               "exponential-mechanism base learner, whose excess risk has a light tail, boosting has little to "
               "improve on running the base learner on all n rows."))


@entry("wlf.thm32")
def _thm32() -> Theorem:
    return Theorem(
        number="Theorem 32", title="AERM characterisation of approximately private learnability",
        statement=("Delta(n)-approximate private learnability implies an always-AERM algorithm that is "
                   "(eps(n), n^-1/2 e^eps delta(sqrt n))-DP for some eps(n) -> 0 and delta(sqrt n) in Delta(n); "
                   "conversely an (eps(n), delta(n))-DP always-AERM algorithm with delta(n) in Delta(n) is "
                   "universally consistent with rate xi(n) + e^eps(n) - 1 + delta(n)."),
        math=("eps(n) = log(1 + n^-1/2 e^eps (e^eps - 1)) (bounds.wlf.thm32_epsilon), delta(n) = n^-1/2 e^eps "
              "delta(sqrt n) (thm32_delta); rate xi(n) + e^eps(n) - 1 + delta(n)"),
        status=BOUND_ONLY, tested_by=("wlf.lem31", "wlf.lem30", "wlf.thm35", "wlf.lem10"),
        reason=("An equivalence between learnability notions, quantified over all problems and all learners; "
                "nothing in it has a measurable value of its own. Its ingredients are measured: Lemma 31 (the "
                "subsampling step that gives its privacy parameters, exact deltas of the subsampled discrete "
                "Gaussian count), Lemma 30 (the stability term e^eps - 1 + delta of the converse), Theorem 35 "
                "(stability + AERM => consistency) and Lemma 10 (the always-AERM construction)."),
        notes=("The privacy parameter eps(n) of the constructed learner is Lemma 31's eps' at gamma = n^-1/2; the "
               "theorem does not write it out. The converse needs n^-1/2 e^eps delta(sqrt n) to lie in Delta(n)."))
