"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts", section 4:
lower bounds for approximate privacy from fingerprinting codes (Boneh-Shaw and Tardos
codes, the tracing attacks, padding)."""

from __future__ import annotations

from privbounds.bounds import bns as bns_bounds
from privbounds.claims import UP_TO_LOGS, Ceiling, LowerBound, Scaling, use, where
from privbounds.registry import Theorem, entry


def _fp_xi(p):
    return float(bns_bounds.fp_security(p["users"], p["epsilon"]))


_PRIVATE = lambda p: p["learner"] != "erm"  # noqa: E731


def ev(name, private=None):
    """Select the curve rows of one recorded event, for private or non-private learners."""
    return lambda p: p["event"] == name and (private is None or _PRIVATE(p) == private)


def _direct_sum_claims(databases, inequality, rows_bound, scaling_text, universe, size, direction):
    """The two claims of a corollary measured on the direct sum (Obs 3.2, advanced
    composition) over the attack databases of the largest code of length <= k (Cor 4.6,
    Cor 4.10): its rows against the lower bound, and its own growth in k once divided by
    ln|universe| + ln(2k/beta), |universe| = ``size(point)``."""
    return [
        LowerBound("lower-rows", f"Direct sum (advanced composition) on the {databases} of length <= k: {inequality}",
                   lambda p: True, ("k", "users"), bound=use(rows_bound)),
        Scaling("scaling-k-learner", scaling_text,
                lambda p: True, ("k",), variable=lambda p: p["k"], variable_name="k", predicted=0.5,
                factor=lambda p: float(bns_bounds.direct_sum_log_factor(size(p), p["k"], p["beta"])),
                factor_name=f"ln|{universe}| + ln(2k/beta)", tolerance=UP_TO_LOGS, direction=direction),
    ]


def _agnostic_attack_claims(accuracy_bound, accuracy_text):
    """Ceiling claims shared by the agnostic attacks (Thm 4.7 on POINT, Prop 4.11 on PAR)."""
    return [
        Ceiling("ceiling-completeness",
                "Every learner, database D: P[the word is feasible and the tracer accuses nobody] <= eps2 "
                "(Tardos' completeness, = xi for n >= 4, (xi/n)^(n/4) below)",
                ev("complete-fail"), ("users", "learner"),
                bound=use(bns_bounds.tardos_completeness, xi=_fp_xi)),
        Ceiling("ceiling-soundness",
                "Every learner, database D_-I (a uniform user's row replaced): P[the tracer accuses I] <= xi "
                "(Tardos' tracer is sound against every word)",
                ev("framed"), ("users", "learner"), bound=use(bns_bounds.fp_soundness_ceiling)),
        Ceiling("ceiling-dp-trace",
                "Private learners, database D: P[the tracer accuses somebody] <= n (e^eps xi + delta)",
                ev("traced", True), ("users", "learner"), bound=use(bns_bounds.dp_any_trace_ceiling, xi=_fp_xi)),
        Ceiling("ceiling-dp-accuracy",
                f"Private learners while {accuracy_text}: P[agnostic alpha-accurate on D] <= eps2 + n (e^eps xi + "
                "delta) (the theorem as a probability bound; our private learners are far from accurate there, "
                "so it would catch only a gross privacy bug)",
                ev("accurate", True), ("users", "learner"), bound=accuracy_bound),
        Ceiling("ceiling-attack-erm",
                "Non-private ERM is caught: P[the tracer accuses nobody on D] <= 1 - n (e^eps xi + delta), i.e. it is "
                "traced more often than any (eps, delta)-DP learner may be",
                ev("bottom", False), ("users", "learner"), bound=use(bns_bounds.untraced_ceiling, xi=_fp_xi)),
    ]


@entry("bns.thm4_3")
def _bns_thm4_3() -> Theorem:
    from privbounds.simulators.bns.fp_thresh import BnsThm43

    claims = [
        Ceiling("ceiling-soundness",
                "Every learner, database D_-i* (the middle user's row replaced by junk): P[the tracer "
                "accuses i*] <= xi, for any word (the secret permutation hides types i*-1 and i*)",
                ev("framed-middle"), ("users", "learner"), bound=use(bns_bounds.fp_soundness_ceiling)),
        Ceiling("ceiling-dp-trace",
                "Private learners, database D: P[the tracer accuses i*] <= e^eps xi + delta (DP against "
                "D_-i*, where soundness caps it at xi)",
                ev("accused-middle", True), ("users", "learner"),
                bound=use(bns_bounds.dp_trace_ceiling, xi=_fp_xi)),
        Ceiling("ceiling-dp-accuracy",
                "Private learners at alpha N < (n - 1)/2 (Thm 4.3 as a probability bound): P[alpha-accurate on "
                "D_-J, J uniform in {1, n}] <= 1 - (1 - xi - n(e^eps xi + delta)) / (2 e^eps)",
                ev("accurate", True), ("users", "learner"),
                bound=use(bns_bounds.thresh_accuracy_ceiling_at, xi=_fp_xi)),
        Ceiling("ceiling-attack-erm",
                "Non-private ERM is caught: P[the tracer does not accuse i* on D] <= 1 - (e^eps xi + delta), "
                "i.e. i* is accused more often than any (eps, delta)-DP learner allows",
                ev("unaccused-middle", False), ("users", "learner"),
                bound=use(bns_bounds.untraced_ceiling, users=1, xi=_fp_xi)),
    ]
    return Theorem(
        number="Theorem 4.3 (with Lemma 4.5's Boneh-Shaw code)",
        title="A compatible fingerprinting code rules out private empirical k-learners",
        statement=(
            "If an (n, k)-fingerprinting code with security xi is compatible with C, no (eps, delta)-DP "
            "empirical k-learner for C that is alpha-accurate (alpha < 1/2) with probability 1 - beta "
            "works on databases of n rows, when xi and delta are small compared with 1/n."),
        math=("Boneh-Shaw code, xi = 1/(6 e^eps n), i* = ceil(n/2): P[accuse i* | D] <= e^eps xi + delta "
              "for DP learners; P[accurate on D_-J] <= 1 - (1 - xi - n(e^eps xi + delta))/(2 e^eps) when "
              "alpha N < (n - 1)/2 (our exact condition; see notes)."),
        simulator=BnsThm43(), plotter="bns.fp:attack", claims=claims,
        notes=("The attack of the proof against the non-private ERM, the advanced-composition direct sum "
               "of exponential mechanisms (Obs 3.2) and Algorithm 2 over the tree sanitizer with advanced "
               "accounting (Cor 3.10's learner; on the 4-user code only at quick fidelity, it draws every "
               "column), with the database padded to N rows by junk rows (Rem 4.4); curves over N. Our condition differs from the simpler (1 - beta - xi)/n > "
               "e^eps xi + delta: the Boneh-Shaw tracer is sound for users 1 and n only against feasible "
               "words, so beta enters on the soundness side, through those two users only: the argument "
               "needs 1 - xi - n(e^eps xi + delta) > 2 e^eps beta. The pirate rounds over its coalition's "
               "points (not all n: the absent user's point could be labelled 1 for free). With every user "
               "coded the tracer always accuses somebody (no column is marked), so completeness is not a claim "
               "here (bns.lem4_5 checks it). The accuracy ceiling applies only while alpha N < (n - 1)/2, where "
               "our private learners are far from accurate: it would catch only a gross privacy bug. The "
               "figure shows the epsilon the attack certifies (lower 95% confidence bound from P[accused] <= "
               "e^eps P[framed] + delta, Bonferroni over the suspects)."))


@entry("bns.rem4_4")
def _bns_rem4_4() -> Theorem:
    from privbounds.simulators.bns.fp_thresh import BnsRem44

    claims = [LowerBound("lower-rows",
                         "Direct sum (advanced composition) on the attack databases: N* >= (n - 1) / (2 alpha)",
                         lambda p: True, ("users", "alpha"), bound=use(bns_bounds.rows_lb_code))]
    return Theorem(
        number="Remark 4.4",
        title="Padding: the fingerprinting lower bound grows like 1/alpha",
        statement=(
            "If some element is labelled 0 by every concept, pad the attack database with copies of that "
            "junk row: an accurate learner still yields a feasible pirate word while its allowed mistakes "
            "alpha N are fewer than half the n coded rows, so the lower bound grows by a factor 1/alpha."),
        math="N* >= (n - 1) / (2 alpha) under the condition of bns.thm4_3 (a cruder reading gives n / (3 alpha)).",
        simulator=BnsRem44(), plotter="bns.specs_lower:rem4_4", claims=claims,
        notes=("N*: rows at which the direct sum is accurate on D_-J, J uniform in {1, n} (at most what every "
               "attack database needs). N* is flat in alpha: once alpha N >= n only the all-ones threshold errs "
               "by more, and avoiding it costs ~2 ln(k(n + 2)/beta)/eps0 rows."))


@entry("bns.lem4_5")
def _bns_lem4_5() -> Theorem:
    from privbounds.simulators.bns.codes import BnsLem45
    from privbounds.simulators.bns.fingerprint import block_length

    claims = [
        Ceiling("ceiling-completeness",
                "Boneh-Shaw code: P[feasible pirate word and Trace = bottom] <= xi, for every "
                "pirate strategy and coalition size",
                where(event="completeness", part="code"), ("users", "strategy"), bound=use(bns_bounds.code_error_ceiling)),
        Ceiling("ceiling-soundness",
                "Boneh-Shaw code: P[Trace accuses a user outside the coalition] <= xi",
                where(event="soundness", part="code"), ("users", "strategy"), bound=use(bns_bounds.code_error_ceiling)),
        Ceiling("ceiling-soundness-truncated",
                "Boneh-Shaw code with shorter blocks d' = d/2^j (same tracer), coalitions of n/2: "
                "P[an innocent is accused] <= xi at every length (step 3's Hoeffding bound does not "
                "involve d)",
                where(event="soundness", part="length"), ("users", "strategy"), bound=use(bns_bounds.code_error_ceiling)),
    ]
    lengths = "; ".join(f"n = {u}: d = {block_length(u, 0.1)}, k = {(u - 1) * block_length(u, 0.1)}"
                        for u in (4, 8, 16))
    return Theorem(
        number="Lemma 4.5 (Boneh-Shaw code)",
        title="The Boneh-Shaw fingerprinting code is compatible with THRESH",
        statement=(
            "For an ordered domain with at least n + 1 elements there is an (n, k) fingerprinting "
            "code with security xi, of length k = O(n^3 log(n/xi)), whose every column is the "
            "labelling of n fixed points by a threshold."),
        math=("d = ceil(2 n^2 ln(2n/xi)), k = (n - 1) d; completeness P[c' in F(C_S) and "
              "Trace(c') = bottom] <= xi and soundness P[Trace(c') not in S] <= xi (our "
              "reconstruction of Gamma_0(n, d))."),
        simulator=BnsLem45(), plotter="bns.codes:plot", claims=claims,
        notes=(f"Code lengths at xi = 0.1: {lengths}. Curve variable: the coalition size |S| in "
               "{1, 2, n/2, n}, a uniformly random coalition of that size per trial (part = code), or the "
               "code length k = (n - 1) d' for truncated blocks d' = d/256 .. d with |S| = n/2 (part = "
               "length; 'traced' = someone guilty accused, plotted without a claim). Pirates: majority, "
               "minority, a random member's bit, interleaving (contiguous segments copied from one "
               "member each), all ones, all zeros, each under the marking assumption. The tracer reads "
               "only the block weights w(B_m), which are sampled exactly (binomial per type; a "
               "multivariate hypergeometric table for the positional interleaving pirate)."))


@entry("bns.cor4_6")
def _bns_cor4_6() -> Theorem:
    from privbounds.simulators.bns.fp_thresh import BnsCor46

    claims = _direct_sum_claims(
        "attack databases of the largest Boneh-Shaw code", "N*(k) >= (n_LB(k) - 1) / (2 alpha)",
        bns_bounds.rows_lb_thresh,
        "The learner's own growth (Obs 3.2, advanced composition): N*(k) / (ln|H| + ln(2k/beta)) "
        "grows like sqrt(k), above the lower bound's k^(1/3): the gap the paper leaves open. An upper bound: "
        "Observation 3.2's sqrt(k); Corollary 4.6's k^(1/3) does not match it",
        "H", lambda p: p["users"] + 2, "upper")
    return Theorem(
        number="Corollary 4.6",
        title="Private k-learning of thresholds needs about k^(1/3) / alpha rows",
        statement=(
            "Every (even improper) (eps, delta)-DP alpha-accurate empirical k-learner for THRESH_X needs "
            "about k^(1/3)/alpha rows (when |X| is larger than that); non-privately O(1) rows suffice."),
        math=("N >= (n_LB(k) - 1) / (2 alpha), n_LB(k) = max{n : (n - 1) ceil(2 n^2 ln(12 e^eps n^2)) <= k and "
              "1 - xi - n(e^eps xi + delta) > 2 e^eps beta}; n_LB(k) ~ (3k / (4 ln k))^(1/3)."),
        simulator=BnsCor46(), plotter="bns.specs_lower:cor4_6", claims=claims,
        notes=("Each k gets the Boneh-Shaw code of n_LB(k) users (xi = 1/(6 e^eps n)); columns beyond the "
               "code's length are constant 0. The bound function's own log-log slope tends to 1/3 (tested "
               "in tests/bns/test_fp_attacks.py)."))


@entry("bns.thm4_7")
def _bns_thm4_7() -> Theorem:
    from privbounds.simulators.bns.fp_agnostic import BnsThm47

    return Theorem(
        number="Theorem 4.7 (with Prop 4.9's Tardos code)",
        title="Agnostic lower bound from any fingerprinting code",
        statement=(
            "In the agnostic model compatibility is not needed: any (n, k)-fingerprinting code with security "
            "xi rules out (eps, delta)-DP agnostic empirical k-learners on n rows for every class with two "
            "distinct concepts."),
        math=("Impossible when (1 - beta - xi)/n > e^eps xi + delta; xi = 1/(6 e^eps n). As probability bounds: "
              "P[traced on D] <= n(e^eps xi + delta); P[accurate on D] <= xi + n(e^eps xi + delta) while alpha N < n."),
        simulator=BnsThm47(), plotter="bns.fp:attack",
        claims=_agnostic_attack_claims(use(bns_bounds.agnostic_accuracy_ceiling_at, xi=_fp_xi), "alpha N < n"),
        notes=("POINT_X with |X| = 2^10: coded rows at x0, junk rows (x1, 0...0) for users outside the coalition "
               "and for the padding of Rem 4.8; curves over the rows N. Learners: non-private ERM and the "
               "advanced-composition direct sum of exponential mechanisms (Obs 3.2). The figure shows the epsilon "
               "the attack certifies from P[accuse I | D] <= e^eps P[accuse I | D_-I] + delta (I uniform)."))


@entry("bns.rem4_8")
def _bns_rem4_8() -> Theorem:
    from privbounds.simulators.bns.fp_agnostic import BnsRem48

    claims = [LowerBound("lower-rows",
                         "Direct sum (advanced composition) on the agnostic attack databases of a 4-user Tardos "
                         "code: N* >= n / alpha",
                         lambda p: True, ("alpha",),
                         bound=use(bns_bounds.rows_lb_tardos_code))]
    return Theorem(
        number="Remark 4.8",
        title="Agnostic padding: the lower bound grows like 1/alpha",
        statement=(
            "If the two concepts also agree on some x1, pad the attack database with junk rows (x1, 0...0): "
            "the agnostic lower bound becomes Omega(n / alpha)."),
        math="N* >= n / alpha: while alpha N < n an accurate hypothesis must copy a marked column's bit.",
        simulator=BnsRem48(), plotter="bns.specs_lower:rem4_8", claims=claims,
        notes=("N* is flat in alpha: once alpha N >= n only point(x1) errs by more, and avoiding it costs "
               "~2 ln(k |X| / beta)/eps0 rows. Only the bound grows like 1/alpha."))


@entry("bns.prop4_9")
def _bns_prop4_9() -> Theorem:
    from privbounds.simulators.bns.codes import BnsProp49
    from privbounds.simulators.bns.tardos import code_length, threshold

    code = where(part="code")
    claims = [
        Ceiling("ceiling-completeness",
                "Tardos code: P[feasible pirate word and Trace = bottom] <= max(xi, (xi/n)^(n/4)) (Tardos' "
                "eps2; = xi here) at the proposition's length, for every pirate strategy and coalition size",
                lambda p: code(p) and p.get("event") == "completeness", ("users", "strategy"),
                bound=use(bns_bounds.tardos_completeness)),
        Ceiling("ceiling-soundness",
                "Tardos code: P[Trace accuses a user outside the coalition] <= xi at the proposition's "
                "length",
                lambda p: code(p) and p.get("event") == "soundness", ("users", "strategy"),
                bound=use(bns_bounds.code_error_ceiling)),
        Ceiling("ceiling-soundness-truncated",
                "Tardos code truncated to a fraction of its length (same threshold Z), full collusion: "
                "P[an innocent is accused] <= xi at every length (the proof's bound on an innocent's "
                "score only weakens as the code grows)",
                lambda p: p.get("part") == "length" and p.get("event") == "soundness", ("users", "strategy"),
                bound=use(bns_bounds.code_error_ceiling)),
    ]
    lengths = "; ".join(f"n = {u}: k = {code_length(u, 0.1)}, Z = {threshold(u, 0.1):g}" for u in (4, 8))
    return Theorem(
        number="Proposition 4.9 (Tardos code)",
        title="Tardos' fingerprinting code: length O(n^2 log(n/xi))",
        statement=(
            "There is an (n, k) fingerprinting code with security xi against coalitions of any "
            "size with length k = O(n^2 log(n/xi)); its columns are arbitrary bit vectors, so it "
            "serves the agnostic lower bounds."),
        math=("k = 100 n^2 ceil(ln(n/xi)); p_j = sin^2 r_j, r_j ~ U[t', pi/2 - t'], sin^2 t' = 1/(300 n); "
              "score_i = sum_{j: c'_j = 1} U_ij; accuse argmax if > Z = 20 n ceil(ln(n/xi)) "
              "(our reconstruction of Tardos 2008)."),
        simulator=BnsProp49(), plotter="bns.codes:plot", claims=claims,
        notes=(f"Code lengths at xi = 0.1: {lengths}. Curve variable: the coalition size |S| in "
               "{1, 2, n/2, n} (part = code), or the code length k, a fraction 1/8 .. 1 of the "
               "proposition's length with full collusion (part = length; 'traced' = someone guilty "
               "accused, plotted without a claim). Pirates as in bns.lem4_5; every pirate word is "
               "checked for feasibility. The exact Tardos code and tracer, not the Tardos-Skoric "
               "variant."))


@entry("bns.cor4_10")
def _bns_cor4_10() -> Theorem:
    from privbounds.simulators.bns.fp_agnostic import BnsCor410

    claims = _direct_sum_claims(
        "agnostic attack databases of the largest Tardos code", "N*(k) >= n_LB(k) / alpha",
        bns_bounds.rows_lb_agnostic,
        "The learner's growth (Obs 3.2, advanced composition): N*(k) / (ln|X| + ln(2k/beta)) grows like "
        "sqrt(k), the lower bound's own rate up to logarithms. Tight: on these attack databases Corollary 4.10's "
        "lower bound and the direct sum's upper bound (Observation 3.2 / Corollary 3.4, advanced "
        "composition) are both sqrt(k) up to logs",
        "X", lambda p: 2 ** 10, "tight")
    return Theorem(
        number="Corollary 4.10",
        title="Private agnostic k-learning needs about sqrt(k) rows",
        statement=(
            "For every class with at least two concepts, (eps, delta)-DP agnostic k-learning needs about "
            "sqrt(k) rows (sqrt(k)/alpha with padding); for POINT this matches the upper bound of Cor 3.9 up to "
            "logarithms and separates private PAC learning (k-free, Thm 3.13) from private agnostic learning."),
        math=("N >= n_LB(k) / alpha, n_LB(k) = max{n : 100 n^2 ceil(ln(6 e^eps n^2)) <= k and "
              "(1 - beta - xi)/n > e^eps xi + delta}; n_LB(k) ~ sqrt(k / (100 ln k))."),
        simulator=BnsCor410(), plotter="bns.specs_lower:cor4_10", claims=claims,
        notes=("Each k: the Tardos code of n_LB(k) users, xi = 1/(6 e^eps n); columns beyond its length are "
               "constant 0."))


@entry("bns.prop4_11")
def _bns_prop4_11() -> Theorem:
    from privbounds.simulators.bns.fp_agnostic import BnsProp411

    return Theorem(
        number="Proposition 4.11",
        title="Agnostic k-learning of parities under the uniform distribution",
        statement=(
            "The fingerprinting argument also rules out (eps, delta)-DP agnostic k-learning of parities under "
            "the uniform distribution with too few samples: with one user per point of {0,1}^d, Omega(2^d) "
            "rows (n/9 samples for a PAC learner, via Thm 2.24), i.e. about sqrt(k) with Tardos' code."),
        math=("Rows = the n = 2^d points of the cube; pirate bit [h_j is 1 on >= 1/4 of the cube]; alpha < 1/4. "
              "P[traced] <= n(e^eps xi + delta), P[accurate] <= xi + n(e^eps xi + delta) for DP learners."),
        simulator=BnsProp411(), plotter="bns.fp:attack",
        claims=_agnostic_attack_claims(use(bns_bounds.agnostic_accuracy_ceiling, xi=_fp_xi),
                                      "alpha < 1/4 (no padding)"),
        notes=("This is our least certain reconstruction (the statement's parameters were lost); we "
               "take n = 2^d users, a user outside the coalition keeping its point with all labels 0, and "
               "alpha = 0.2. Quick fidelity runs d = 2 (4 users, k = 9,600); full adds d = 3 (8 users, k = 44,800). "
               "Learners: ERM (best parity per column) and the advanced-composition direct sum of exponential "
               "mechanisms over PAR_d."))

