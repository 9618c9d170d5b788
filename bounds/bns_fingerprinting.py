"""Bounds from Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple
Concepts" (ITCS 2016, JMLR 2019), Section 4: the fingerprinting lower bounds (Lemma 4.5,
Theorems 4.3 and 4.7, Propositions 4.9 and 4.11, Corollaries 4.6 and 4.10), with the
Boneh-Shaw and Tardos codes they use. The rest of the paper's bounds are in bns.py, which
also exposes these under its own name.
"""

from __future__ import annotations

import numpy as np

from ._meta import ASYMPTOTIC, EXACT, at_least, bound, positive, unit_open

# --- Section 4 (fingerprinting lower bounds) ---------------------------------------
# Conventions of the attack experiments: the code's security is xi = 1/(6 e^eps n)
# (our reading of Cor 4.6 and Cor 4.10), the learner is (eps, delta)-DP, fails with
# probability beta, and the database holds N rows of which n carry codewords.
# A function's argument for the code's n is ``users``; an argument ``n`` is always a
# number of rows (claims fill it from a curve row's sample size).


def fp_security(n, epsilon):
    """xi = 1 / (6 e^eps n): the code security at which n e^eps xi = 1/6."""
    return 1.0 / (6.0 * np.exp(positive("epsilon", epsilon)) * at_least("n", n, 1))


@bound(EXACT, "Boneh-Shaw code Gamma_0(n, d) as we reconstructed it (Lemma 4.5)")
def bs_code_length(users, xi):
    """k = (n - 1) ceil(2 n^2 ln(2n / xi)): n - 1 column types of d columns each."""
    nn = at_least("users", users, 2)
    x = unit_open("xi", xi)
    return (nn - 1) * np.ceil(2 * nn * nn * np.log(2 * nn / x))


@bound(EXACT, "Tardos (2008) code for full collusion as we reconstructed it (Prop 4.9)")
def tardos_code_length(users, xi):
    """k = 100 n^2 ceil(ln(n / xi))."""
    nn = at_least("users", users, 2)
    x = unit_open("xi", xi)
    return 100 * nn * nn * np.ceil(np.log(nn / x))


def bs_condition(n, epsilon, delta, beta, xi):
    """Our exact condition for the Boneh-Shaw reduction (Thm 4.3 with THRESH): no
    (eps, delta)-DP learner accurate with probability >= 1 - beta on the attack databases
    exists when 1 - xi - n (e^eps xi + delta) > 2 e^eps beta.

    Why (see bns_fp_thresh): on the full coalition no column is marked, so the tracer
    accuses somebody except with probability xi; a middle user i (2..n-1) is protected
    by the secret permutation alone, so P[accuse i | D_-i] <= xi for any pirate; users 1
    and n are protected only against feasible words, P[accuse i | D_-i] <= xi + beta,
    when alpha N < (n - 1)/2 (the pirate rounds over its coalition's n - 1 points).
    Summing the DP inequality P[accuse i | D] <= e^eps P[accuse i | D_-i] + delta over i
    gives 1 - xi <= n (e^eps xi + delta) + 2 e^eps beta."""
    return 1 - xi - n * (np.exp(epsilon) * xi + delta) > 2 * np.exp(epsilon) * beta


@bound(EXACT, "Tardos (2008) completeness for a coalition of all n users (BNS Prop 4.9)")
def tardos_completeness(users, xi):
    """Tardos (2008): an innocent is accused with probability <= eps1 = xi / n (here, so
    that a union bound over the n users gives xi), and no colluder of a coalition of c
    is accused with probability <= eps2 = eps1^(c/4). With c = n we take max(xi, eps2):
    xi for n >= 4 (where eps2 <= xi), and for n < 4 the larger of the two, which is
    eps2 = (xi/n)^(n/4) except at n = 3 with xi >= 1/27 (the larger value is the
    weaker, so always valid, ceiling)."""
    nn = np.asarray(users, float)
    return np.maximum(xi, (xi / nn) ** (nn / 4))


def tardos_condition(n, epsilon, delta, beta, xi):
    """Thm 4.3 / 4.7 with a code whose soundness holds against every word (Tardos):
    impossible when (1 - beta - eps2) / n > e^eps xi + delta, eps2 =
    tardos_completeness(n, xi) (xi stands for eps2 here, true for n >= 4)."""
    return (1 - beta - tardos_completeness(n, xi)) / n > np.exp(epsilon) * xi + delta


def _most_users(k, length, condition, epsilon, delta, beta):
    """max{n >= 2 : length(n, xi_n) <= k and condition(n, ..., xi_n)} with
    xi_n = fp_security(n, eps), elementwise over k; 1 when no code fits."""
    def one(kk):
        at_least("k", kk, 1)
        best, n = 1, 2
        while length(n, fp_security(n, epsilon)) <= kk:
            if condition(n, epsilon, delta, beta, fp_security(n, epsilon)):
                best = n
            n += 1
        return best
    out = np.array([one(int(kk)) for kk in np.atleast_1d(k)], float)
    return out if np.ndim(k) else float(out[0])


@bound(EXACT, "BNS Cor 4.6 via Thm 4.3 and Rem 4.4 with the Boneh-Shaw code (our exact condition)")
def n_lb_thresh_users(k, epsilon, delta, beta):
    """n_LB(k): the most users of a Boneh-Shaw code of length <= k, at security
    xi = 1/(6 e^eps n), for which bs_condition holds."""
    return _most_users(k, bs_code_length, bs_condition, epsilon, delta, beta)


@bound(EXACT, "BNS Thm 4.3 with the padding of Rem 4.4 (our rounding)")
def rows_lb_thresh(k, alpha, epsilon, delta, beta):
    """Every (eps, delta)-DP alpha-accurate empirical k-learner for THRESH (|X| > n_LB)
    fails on some database of N rows when alpha N < (n_LB(k) - 1) / 2, so it needs
    N >= (n_LB(k) - 1) / (2 alpha) rows. (A cruder reading gives n_LB / (3 alpha); our
    pirate rounds over the n - 1 points of its coalition, see bns_fp_thresh. Below 2
    users the bound is vacuous.)"""
    n = np.asarray(n_lb_thresh_users(k, epsilon, delta, beta))
    return np.where(n >= 2, (n - 1) / (2 * unit_open("alpha", alpha)), 0.0)


@bound(ASYMPTOTIC, "BNS Cor 4.6, our asymptotic form")
def n_lb_thresh_asymptotic(k):
    """n_LB(k) ~ (3k / (4 ln k))^(1/3)."""
    kk = at_least("k", k, 3)
    return (3 * kk / (4 * np.log(kk))) ** (1 / 3)


@bound(EXACT, "BNS Cor 4.10 via Thm 4.7 with the Tardos code (our condition)")
def n_lb_agnostic_users(k, epsilon, delta, beta):
    """n_LB(k): the most users of a Tardos code of length <= k at xi = 1/(6 e^eps n)
    for which tardos_condition holds."""
    return _most_users(k, tardos_code_length, tardos_condition, epsilon, delta, beta)


@bound(EXACT, "BNS Thm 4.7 with the padding of Rem 4.8")
def rows_lb_agnostic(k, alpha, epsilon, delta, beta):
    """Every (eps, delta)-DP agnostic alpha-accurate empirical k-learner (any class
    with two concepts that differ at x0 and agree at x1) fails on some database of N
    rows when alpha N < n_LB(k), so it needs N >= n_LB(k) / alpha rows."""
    n = n_lb_agnostic_users(k, epsilon, delta, beta)
    return np.where(np.asarray(n) >= 2, np.asarray(n) / unit_open("alpha", alpha), 0.0)


@bound(ASYMPTOTIC, "BNS Cor 4.10, our asymptotic form")
def n_lb_agnostic_asymptotic(k):
    """n_LB(k) ~ sqrt(k / (100 ln k))."""
    kk = at_least("k", k, 3)
    return np.sqrt(kk / (100 * np.log(kk)))


@bound(EXACT, "BNS Thm 4.3 / 4.7: the security xi = 1/(6 e^eps n) of the attack's code bounds an innocent's accusation")
def fp_soundness_ceiling(users, epsilon):
    """P[the tracer accuses a user whose row was replaced] <= xi = fp_security(users, eps)."""
    return fp_security(users, epsilon)


@bound(EXACT, "Definition of an (n, k)-fingerprinting code with security xi (BNS Def 4.1)")
def code_error_ceiling(xi):
    """A fingerprinting code with security xi errs (accuses an innocent, or accuses
    nobody on a feasible word) with probability <= xi."""
    return unit_open("xi", xi) * 1.0


@bound(EXACT, "BNS Thm 4.3 / 4.7: differential privacy against the database with user i's row replaced")
def dp_trace_ceiling(epsilon, delta, xi):
    """P[the tracer accuses user i on D] <= e^eps xi + delta for an (eps, delta)-DP
    pirate, when user i is accused with probability <= xi once their row is replaced."""
    return np.exp(epsilon) * xi + delta


@bound(EXACT, "BNS Thm 4.7: a union bound of dp_trace_ceiling over the n users")
def dp_any_trace_ceiling(users, epsilon, delta, xi):
    """P[the tracer accuses somebody on D] <= n (e^eps xi + delta) for an (eps, delta)-DP
    learner whose every user is accused with probability <= xi once their row is replaced."""
    return np.asarray(users, float) * dp_trace_ceiling(epsilon, delta, xi)


@bound(EXACT, "BNS Thm 4.3 / 4.7 read backwards: what no (eps, delta)-DP learner can exceed, a non-private one must")
def untraced_ceiling(users, epsilon, delta, xi):
    """A learner that escapes the tracer (on the users that count, ``users`` of them) with
    probability below 1 - users (e^eps xi + delta) is traced more often than any
    (eps, delta)-DP learner may be: the ceiling a non-private learner is caught under."""
    return 1.0 - dp_any_trace_ceiling(users, epsilon, delta, xi)


@bound(EXACT, "BNS Thm 4.3 as a probability bound (our exact condition), while alpha N < (n - 1)/2")
def thresh_accuracy_ceiling_at(n, users, alpha, epsilon, delta, xi):
    """``thresh_accuracy_ceiling`` on databases of n rows where it applies (alpha n <
    (users - 1)/2, so an accurate hypothesis yields a feasible word); 1 elsewhere."""
    return np.where(np.asarray(alpha) * n < (np.asarray(users) - 1) / 2,
                    thresh_accuracy_ceiling(users, epsilon, delta, xi), 1.0)


@bound(EXACT, "BNS Thm 4.7 as a probability bound, while the padded database leaves the word feasible")
def agnostic_accuracy_ceiling_at(n, users, alpha, epsilon, delta, xi):
    """``agnostic_accuracy_ceiling`` on databases of n rows where it applies (alpha n <
    users, so an accurate hypothesis yields a feasible word); 1 elsewhere."""
    return np.where(np.asarray(alpha) * n < np.asarray(users, float),
                    agnostic_accuracy_ceiling(users, epsilon, delta, xi), 1.0)


@bound(EXACT, "BNS Thm 4.3 as a probability bound (our exact condition, see bs_condition)")
def thresh_accuracy_ceiling(users, epsilon, delta, xi):
    """Average over J in {1, n} of P[alpha-accurate on D_-J] for any (eps, delta)-DP
    learner when alpha N < (n - 1) / 2 (rearranging the sum in bs_condition):
    <= 1 - (1 - xi - n (e^eps xi + delta)) / (2 e^eps)."""
    return 1 - (1 - xi - users * (np.exp(epsilon) * xi + delta)) / (2 * np.exp(epsilon))


@bound(EXACT, "BNS Thm 4.7 as a probability bound (Tardos' completeness eps2, union bound over users)")
def agnostic_accuracy_ceiling(users, epsilon, delta, xi):
    """P[alpha-accurate on D] <= eps2 + n (e^eps xi + delta) for any (eps, delta)-DP
    agnostic learner when alpha N < n: accuracy makes the word feasible, the tracer then
    accuses somebody except with probability eps2 = tardos_completeness(n, xi), and user
    i is accused with probability at most e^eps xi + delta."""
    return tardos_completeness(users, xi) + users * (np.exp(epsilon) * xi + delta)


@bound(EXACT, "BNS Thm 4.3 with the padding of Rem 4.4, for a given Boneh-Shaw code")
def rows_lb_code(users, alpha, epsilon, delta, beta):
    """With a Boneh-Shaw code of ``users`` users at xi = 1/(6 e^eps users) for which
    bs_condition holds, an (eps, delta)-DP learner alpha-accurate with probability
    1 - beta on the attack databases needs N >= (users - 1) / (2 alpha) rows; 0 (no
    bound) when the condition fails."""
    xi = fp_security(users, epsilon)
    ok = bs_condition(users, epsilon, delta, beta, xi)
    return np.where(ok, (np.asarray(users, float) - 1) / (2 * unit_open("alpha", alpha)), 0.0)


@bound(EXACT, "BNS Thm 4.7 with the padding of Rem 4.8, for a given Tardos code")
def rows_lb_tardos_code(users, alpha, epsilon, delta, beta):
    """With a Tardos code of ``users`` users at xi = 1/(6 e^eps users) for which
    tardos_condition holds, an (eps, delta)-DP agnostic learner alpha-accurate with
    probability 1 - beta on the attack databases needs N >= users / alpha rows; 0 (no
    bound) when the condition fails."""
    xi = fp_security(users, epsilon)
    ok = tardos_condition(users, epsilon, delta, beta, xi)
    return np.where(ok, np.asarray(users, float) / unit_open("alpha", alpha), 0.0)
