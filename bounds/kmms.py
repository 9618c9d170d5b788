"""Bounds from Kaplan, Mansour, Matias and Stemmer, "Differentially Private Learning of
Geometric Concepts" (ICML 2019, arXiv 1902.05017).

The text we work from lost fraction bars, minus signs, relations and square roots, so
the paper's shapes (n ~ k log d / (alpha eps) for conjunctions, disjunctions and
polygons; k^1.5 log d / (alpha eps) for the composition baseline) are taken as stated in
words, and every explicit constant is ours, derived in the docstrings for OUR
implementation of the Set Cover Learner (simulators/kmms/setcover.py) with its SAFE
parameterisation, so each is a theorem about that code. Where the paper-literal reading
of a constant differs, the function says so. ln is natural, log2 base 2.
"""

from __future__ import annotations

import math

import numpy as np

from ._meta import ASYMPTOTIC, EXACT, at_least, bound, positive, unit_open  # noqa: F401

# --- section 2: tools -------------------------------------------------------------------


@bound(EXACT, "KMMS Thm 2.4 (Laplace mechanism, VERBATIM density exp(-|x|/b)/(2b)); the tail "
              "P[|Lap(b)| > t] = exp(-t/b) and a union bound over the draws")
def laplace_max_ceiling(draws, ratio):
    """P[max of ``draws`` independent |Lap(b)| > ratio * b] <= draws * exp(-ratio), capped
    at 1 (each tail is exactly exp(-ratio)). With Delta = b ln(4T/beta) over T draws it is
    beta/4 (our SAFE shift); with the paper-literal Delta = b ln(T/beta) it is beta."""
    m = at_least("draws", draws, 1)
    r = np.asarray(ratio, float)
    if np.any(~np.isfinite(r)) or np.any(r < 0):
        raise ValueError(f"ratio must be >= 0, got {ratio!r}")
    return np.minimum(1.0, m * np.exp(-r))


@bound(EXACT, "KMMS Obs 2.2 (VERBATIM shape O(k log(k) VC(H))); explicit constant from Blumer, Ehrenfeucht, "
              "Haussler, Warmuth 1989, Lemma 3.2.3 (RECONSTRUCTED: not read in this paper)")
def vc_k_fold(vc, k):
    """VC(H^(AND k)), VC(H^(OR k)) <= 2 VC(H) k log2(3k) for VC(H) >= 1 and k >= 1."""
    v = at_least("vc", vc, 1)
    kk = at_least("k", k, 1)
    return 2.0 * v * kk * np.log2(3.0 * kk)

# --- section 3: the Set Cover Learner, conjunctions and disjunctions ---------------------
# Our learner runs Claim 3.1 at the internal accuracy alpha/2, T' = ceil(2k ln(4/alpha))
# rounds, so that its empirical error is <= alpha n / 2 and the finite-class Chernoff step
# below turns that into true error <= alpha. Failure budget: Laplace beta/4 (Delta), the
# T' selections beta/(2T') each, generalization beta/4.


def setcover_rounds_count(k, alpha):
    """T = ceil(2k ln(2/alpha)): the Set Cover Learner's number of rounds at accuracy alpha
    (ln, not log2: the proof needs (1 - 1/(2k))^T <= exp(-T/(2k)) = alpha/2)."""
    return int(math.ceil(2 * int(k) * math.log(2.0 / float(alpha))))


def setcover_parameters(k, alpha, beta, epsilon, delta, reading="safe") -> dict:
    """(T, b_L, Delta, eta) of the Set Cover Learner at accuracy ``alpha``.

    SAFE (ours): b_L = 2T/eps, Delta = b_L ln(4T/beta), eta = eps/(4 ln(e/delta)).
    Paper-literal (RECONSTRUCTED reading of the lost text): b_L = T/eps, Delta = b_L ln(T/beta),
    eta = eps/(4 ln(e/delta)) (Claim 3.4's eps_hat = eps/(2 ln(e/delta)) in Prop 2.5's
    density exp(eps_hat q / 2)). eta is the density exponent: exp(eta q)."""
    t = setcover_rounds_count(k, alpha)
    eta = float(epsilon) / (4.0 * math.log(math.e / float(delta)))
    if reading == "safe":
        lap = 2.0 * t / float(epsilon)
        shift = lap * math.log(4.0 * t / float(beta))
    elif reading == "literal":
        lap = t / float(epsilon)
        shift = lap * math.log(t / float(beta))
    else:
        raise ValueError(f"reading must be safe or literal, got {reading!r}")
    return {"rounds": t, "lap_scale": lap, "shift": shift, "eta": eta, "reading": reading}


def composition_parameters(k, alpha, beta, epsilon, delta, rule) -> dict:
    """The composition baseline of Ex 3.3 (ours): every round a stand-alone eps0-DP step,
    the T rounds composed (basic: eps0 = eps/T; advanced: the eps0 of
    tools.per_concept_epsilon, Dwork-Roth Thm 3.20 solved exactly at (eps, delta)). Per
    round: Lap(2/eps0) on |S0| (eps0/2), Delta0 = (2/eps0) ln(4T/beta), the exponential
    mechanism at eps0/2, density exp(eps0 q / 4)."""
    from .tools import per_concept_epsilon

    t = setcover_rounds_count(k, alpha)
    e0 = per_concept_epsilon(float(epsilon), t, rule, float(delta) if rule == "advanced" else None)
    lap = 2.0 / e0
    return {"rounds": t, "lap_scale": lap, "shift": lap * math.log(4.0 * t / float(beta)), "eta": e0 / 4.0,
            "eps0": e0, "reading": rule}


@bound(EXACT, "KMMS Thm 3.2 for our implementation: Claim 3.1's exact per-run form (from the paper's proof) at "
              "alpha/2 and a finite-class Chernoff generalization step; constants ours (RECONSTRUCTED)")
def n_setcover(alpha, beta, k, lam, shift, log_h):
    """Sample size at which our Set Cover Learner, run with T' = ceil(2k ln(4/alpha))
    rounds, shift Delta = ``shift`` and a selection that is ``lam``-good w.p. >= 1 -
    beta/(2T') per call, over a finite class with ln|H| = ``log_h``, has true error <= alpha
    w.p. >= 1 - beta (given max|w_j| <= Delta w.p. >= 1 - beta/4):

        n_32 = max( 4 T' lam / alpha,  (2 (T' + 2k) lam + 8 Delta) / alpha,
                    (8/alpha) (T' ln|H| + ln(4/beta)) ).

    Claim 3.1's exact form gives errors <= T' lam + max(n (1 - 1/(2k))^T', 2k lam + 4
    Delta) <= T' lam + max(alpha n / 4, 2k lam + 4 Delta); the first two terms make that
    <= alpha n / 2. Generalization: h_fin is an AND of T' members of H (|H|^T' sequences);
    a fixed h of error > alpha has empirical error <= alpha/2 with probability <=
    exp(-alpha n / 8) (Chernoff), so the union is <= beta/4 under the third term. (The
    paper's Theta(...) has VC(H) log k in place of our ln|H| for infinite H.)"""
    a = unit_open("alpha", alpha)
    b = unit_open("beta", beta)
    kk = at_least("k", k, 1)
    lam_ = at_least("lam", lam, 0)
    dl = at_least("shift", shift, 0)
    lh = at_least("log_h", log_h, 0)
    t = np.ceil(2 * kk * np.log(2.0 / (a / 2)))  # as setcover_rounds_count(k, alpha/2)
    return np.maximum.reduce([4 * t * lam_ / a, (2 * (t + 2 * kk) * lam_ + 8 * dl) / a,
                              (8.0 / a) * (t * lh + np.log(4.0 / b))])


def _conj_inputs(alpha, beta, k, d, params):
    t = params["rounds"]
    lam = math.log(2.0 * t * 2 * float(d) / float(beta)) / params["eta"]  # |H| = 2d, failure beta/(2T') per call
    return lam, params["shift"], math.log(2.0 * float(d))


@bound(EXACT, "KMMS Thm 3.5 (shape VERBATIM: k log d / (alpha eps)) for our learner over LIT_d with the "
              "exponential mechanism: n_32 with lambda = ln(4dT'/beta)/eta; SAFE or paper-literal constants "
              "(RECONSTRUCTED)")
def n_conj(alpha, beta, epsilon, delta, k, d, reading="safe"):
    """n_32 for CONJ_{k,d} (and DISJ_{k,d}, the same by De Morgan): the learner at alpha/2
    (T' = ceil(2k ln(4/alpha))) with ``reading``'s (b_L, Delta, eta) (setcover_parameters),
    lambda = ln(2T' * 2d / beta) / eta (the exponential mechanism over the 2d literals
    fails by more than lambda with probability <= 2d exp(-eta lambda) = beta/(2T')),
    ln|H| = ln(2d)."""
    at_least("d", d, 1)
    p = setcover_parameters(int(k), float(alpha) / 2, float(beta), float(epsilon), float(delta), reading)
    return float(n_setcover(alpha, beta, k, *_conj_inputs(alpha, beta, k, d, p)))


@bound(EXACT, "KMMS Ex 3.3 (shape VERBATIM: k^1.5 log d / (alpha eps)) for our composition baseline: n_32 with "
              "the per-round eps0 of basic or advanced composition (RECONSTRUCTED)")
def n_conj_composition(alpha, beta, epsilon, delta, k, d, rule):
    """n_32 for our composition baseline on CONJ_{k,d} (composition_parameters at alpha/2):
    Delta0 = (2/eps0) ln(4T'/beta), lambda0 = ln(4dT'/beta) / (eps0/4)."""
    at_least("d", d, 1)
    p = composition_parameters(int(k), float(alpha) / 2, float(beta), float(epsilon), float(delta), rule)
    return float(n_setcover(alpha, beta, k, *_conj_inputs(alpha, beta, k, d, p)))


@bound(EXACT, "KMMS Thm 3.2 with lambda = 0 and Delta = 0 (the non-private argmax selection, exact b_j): only "
              "the generalization term of n_32 (ours)")
def n_conj_argmax(alpha, beta, k, d):
    """n_32 with lambda = 0, Delta = 0: (8/alpha) (T' ln(2d) + ln(4/beta)), T' = ceil(2k ln(4/alpha))."""
    return float(n_setcover(alpha, beta, k, 0.0, 0.0, math.log(2.0 * float(at_least("d", d, 1)))))

# --- section 4: halfplanes and convex polygons ------------------------------------------


@bound(EXACT, "KMMS Claim 4.5 (statement as printed: every region of Select Halfplane's arrangement has area "
              ">= d^-4/4)")
def region_area_paper(d):
    """Claim 4.5's lower bound on the area of every region of the clipped dual
    arrangement: d^-4 / 4. (The printed proof, via distances between vertices, does not by
    itself bound areas; the statement is tested, not the proof.)"""
    return 0.25 / at_least("d", d, 1) ** 4


@bound(EXACT, "KMMS Claim 4.5, our sharper bound (RECONSTRUCTED: every vertex of the clipped arrangement has "
              "coordinates p/q with q <= d, so a triangle on three vertices of a region has doubled area >= "
              "1/(q1 q2 q3) >= 1/d^3)")
def region_area_ours(d):
    """1 / (2 d^3): every vertex of the clipped arrangement of lines b = y - x a ((x, y) in
    X_d^2) is a crossing of two lines ((y1 - y2)/(x1 - x2), (x1 y2 - x2 y1)/(x1 - x2)), of a
    line with a box edge (a = (y -+ 2d^2)/x or b = y -+ 2d^2 x) or a box corner: both
    coordinates share one denominator q <= d. A region is convex with non-empty interior,
    so it contains a triangle on three of its vertices, whose doubled area is a non-zero
    integer over q1 q2 q3 <= d^3. At least d^-4/4 for every d >= 1."""
    return 0.5 / at_least("d", d, 1) ** 3


@bound(EXACT, "a claim that says 'never' (Claim 4.5, the 2 eta-DP density ratio of Select Halfplane): the "
              "violation rate may not exceed this level, which is what a few hundred instances can confirm")
def never_ceiling(level):
    """The ceiling ``level`` on the rate of an event the claim says never happens (the claim
    itself: 0). Its claims are ``Ceiling(..., never=True)``: a confirmed verdict means no
    instance violated it and the interval's upper end is below ``level``; a single violation
    refutes the claim (a counterexample)."""
    return unit_open("level", level) * 1.0


@bound(EXACT, "KMMS Lemma 4.6 (VERBATIM: Pr[q(f') < nu - (8/eps) ln(2d/beta)] <= beta, density exp(eps q))")
def selection_gap_ceiling(gap, eta, d):
    """Lemma 4.6 solved for beta at the gap t = ``gap``: Select Halfplane with density
    exp(eta q) outputs q(f') < max q - t with probability at most 2d exp(-eta t / 8)
    (capped at 1). The proof's own chain gives (beta')^8 / 2 at beta' = 2d exp(-eta t/8)."""
    g = np.asarray(gap, float)
    if np.any(g < 0):
        raise ValueError(f"gap must be >= 0, got {gap!r}")
    return np.minimum(1.0, 2 * at_least("d", d, 1) * np.exp(-positive("eta", eta) * g / 8))


@bound(EXACT, "KMMS Lemma 4.6 with our region bound 1/(2d^3) (RECONSTRUCTED: the lemma's proof with area(F x D) "
              "= 32 d^4 and the good region's area >= 1/(2d^3))")
def selection_gap_ceiling_ours(gap, eta, d):
    """The proof of Lemma 4.6 with Claim 4.5 replaced by our area bound: the bad regions
    weigh at most area(F x D) e^(eta (nu - t)) = 32 d^4 e^(eta (nu - t)), N is at least
    e^(eta nu) / (2 d^3), so Pr[q(f') < max q - t] <= 64 d^7 exp(-eta t) (capped at 1)."""
    g = np.asarray(gap, float)
    if np.any(g < 0):
        raise ValueError(f"gap must be >= 0, got {gap!r}")
    return np.minimum(1.0, 64 * at_least("d", d, 1) ** 7 * np.exp(-positive("eta", eta) * g))


def halfplane_dichotomies(d):
    """N^2 - N + 2 with N = (d + 1)^2: the number of dichotomies of N points of the plane
    realisable by halfplanes is at most that of N points in general position, C(N, 3) =
    2 (1 + (N - 1) + (N - 1)(N - 2)/2) = N^2 - N + 2 (Cover 1965): a bound on the
    distinct hypotheses of HALFPLANE_d on X_d^2."""
    n = (float(d) + 1.0) ** 2
    return n * n - n + 2.0


@bound(EXACT, "KMMS Thm 4.7 (shape: k log d / (alpha eps), the statement garbled in our extracted text) for our learner over "
              "HALFPLANE_d with Select Halfplane: n_32 with Lemma 4.6's lambda = (8/eta) ln(4dT'/beta) and ln|H| "
              "<= ln(N^2 - N + 2), N = (d + 1)^2; SAFE or paper-literal constants (RECONSTRUCTED)")
def n_kgon(alpha, beta, epsilon, delta, k, d, reading="safe"):
    """n_32 (``n_setcover``) for CONVEX-k-GON over X_d^2: the learner at alpha/2 (T' =
    ceil(2k ln(4/alpha))) with ``reading``'s (b_L, Delta, eta) (setcover_parameters);
    lambda = (8/eta) ln(2d / (beta/(2T'))) = (8/eta) ln(4dT'/beta), Lemma 4.6 at failure
    beta/(2T') per call (its proof needs Claim 4.5, which holds with room: bounds
    region_area_ours); ln|H| = ln(N^2 - N + 2), N = (d + 1)^2 (``halfplane_dichotomies``:
    on X_d^2 the AND of T' halfplanes is one of at most |H|^T' labellings)."""
    dd = at_least("d", d, 1)
    p = setcover_parameters(int(k), float(alpha) / 2, float(beta), float(epsilon), float(delta), reading)
    lam = 8.0 / p["eta"] * math.log(4.0 * float(dd) * p["rounds"] / float(beta))
    return float(n_setcover(alpha, beta, k, lam, p["shift"], math.log(halfplane_dichotomies(dd))))


@bound(EXACT, "KMMS Thm 3.2 with lambda = 0 and Delta = 0 (a non-private cover whose every pick rejects >= |S0|/k "
              "remaining negatives and no positive) over HALFPLANE_d: the generalization term of n_32 (ours)")
def n_kgon_greedy(alpha, beta, k, d):
    """n_32 with lambda = 0, Delta = 0 and ln|H| = ln(N^2 - N + 2), N = (d + 1)^2: (8/alpha)
    (T' ln|H| + ln(4/beta)), T' = ceil(2k ln(4/alpha)). Our greedy picks a halfplane that
    rejects no remaining positive and the most remaining negatives (at least the |S0|/k of
    the best target edge), for at most T' rounds, so Claim 3.1's argument with lambda = 0,
    Delta = 0 applies to it."""
    dd = at_least("d", d, 1)
    return float(n_setcover(alpha, beta, k, 0.0, 0.0, math.log(halfplane_dichotomies(dd))))


@bound(EXACT, "KMMS section 4, privacy of Select Halfplane (VERBATIM: density exp(eps q) is 2 eps-DP for q of "
              "sensitivity 1)")
def select_halfplane_epsilon(eta):
    """2 eta: the privacy of one call of Select Halfplane with density exp(eta q)."""
    return 2 * positive("eta", eta)


@bound(EXACT, "KMMS Lemma 4.6 (VERBATIM): the selection slack (8/eps) ln(2d/beta)")
def selection_slack(eta, d, beta):
    """(8 / eta) ln(2d / beta): Lemma 4.6's shortfall below max q at confidence 1 - beta."""
    return 8 / positive("eta", eta) * np.log(2 * at_least("d", d, 1) / unit_open("beta", beta))

# --- section 5: unions of polygons -------------------------------------------------------
# Our learner for unions of triangles is the disjunctive Set Cover Learner with the
# finite-candidate surrogate of the paper's triangle selection (simulators/kmms/polygons.py):
# the exponential mechanism over a data-independent set of ``candidates`` triangles. The
# set-cover parameter is r, the number of triangles of the target (a simple polygon with
# v edges is v - 2 triangles), so T' = ceil(2r ln(4/alpha)).


@bound(EXACT, "KMMS Thm 5.1 (shape VERBATIM only in part: the statement is garbled in our extracted text to 'O k alpha eps log 1 "
              "alpha') for our learner with the finite-candidate surrogate selection: n_32 with lambda = ln(2T' "
              "|cands|/beta)/eta and ln|H| = ln|cands|; SAFE or paper-literal constants (RECONSTRUCTED)")
def n_union(alpha, beta, epsilon, delta, r, candidates, reading="safe"):
    """n_32 (``n_setcover``) for unions of r candidate triangles: the disjunctive learner at
    alpha/2 (T' = ceil(2r ln(4/alpha))) with ``reading``'s (b_L, Delta, eta)
    (setcover_parameters); lambda = ln(2T' |cands| / beta) / eta (the exponential mechanism
    over the |cands| candidates fails by more than lambda with probability <= |cands|
    exp(-eta lambda) = beta/(2T')); ln|H| = ln|cands| (h_fin is an OR of T' candidates).
    By De Morgan the disjunctive learner is the conjunctive one on complemented labels,
    so n_setcover's derivation applies unchanged. No d: the surrogate's candidate set is
    the same for every d (the paper's selection would bring ln d through lambda)."""
    c = at_least("candidates", candidates, 1)
    p = setcover_parameters(int(r), float(alpha) / 2, float(beta), float(epsilon), float(delta), reading)
    lam = math.log(2.0 * p["rounds"] * float(c) / float(beta)) / p["eta"]
    return float(n_setcover(alpha, beta, r, lam, p["shift"], math.log(float(c))))


@bound(EXACT, "KMMS Thm 3.2 with lambda = 0 and Delta = 0 (a non-private cover whose every pick holds no remaining "
              "negative and at least |S1|/r remaining positives) over the finite candidates: the generalization term "
              "of n_32 (ours)")
def n_union_greedy(alpha, beta, r, candidates):
    """n_32 with lambda = 0, Delta = 0 and ln|H| = ln|cands|: (8/alpha)(T' ln|cands| +
    ln(4/beta)), T' = ceil(2r ln(4/alpha)). The greedy pick (no remaining negative, most
    remaining positives) holds at least the |S1|/r of the best target triangle, so Claim
    3.1's argument with lambda = 0, Delta = 0 applies to it over at most T' rounds."""
    c = at_least("candidates", candidates, 1)
    return float(n_setcover(alpha, beta, r, 0.0, 0.0, np.log(c)))


@bound(EXACT, "KMMS Ex 3.3 carried to section 5 (ours): the composition baseline in OR mode over the finite "
              "candidates, n_32 with the per-round eps0 of basic or advanced composition (RECONSTRUCTED)")
def n_union_composition(alpha, beta, epsilon, delta, r, candidates, rule):
    """n_32 for our composition baseline (composition_parameters at alpha/2: Delta0 =
    (2/eps0) ln(4T'/beta), density exp(eps0 q / 4)) over |cands| candidates: lambda0 =
    ln(2T' |cands| / beta) / (eps0/4), ln|H| = ln|cands|."""
    c = at_least("candidates", candidates, 1)
    p = composition_parameters(int(r), float(alpha) / 2, float(beta), float(epsilon), float(delta), rule)
    lam = math.log(2.0 * p["rounds"] * float(c) / float(beta)) / p["eta"]
    return float(n_setcover(alpha, beta, r, lam, p["shift"], math.log(float(c))))


@bound(EXACT, "KMMS section 5 (VERBATIM, words): a simple polygon with k edges is a union of at most k triangles; "
              "the exact count of a triangulation, k - 2 per polygon, is standard (RECONSTRUCTED)")
def union_triangles(edges, polygons):
    """k - 2m: the triangles of a triangulation of m simple polygons with k edges in total
    (each polygon with k_i edges gives k_i - 2), at most k as the paper says."""
    k = at_least("edges", edges, 3)
    m = at_least("polygons", polygons, 1)
    if np.any(k < 3 * m):
        raise ValueError(f"edges must be at least 3 per polygon, got {edges!r} for {polygons!r} polygons")
    return k - 2.0 * m
