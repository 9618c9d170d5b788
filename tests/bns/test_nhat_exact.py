"""Bun-Nissim-Stemmer Theorem 5.1 and Remark 5.2: the exact n_hat of the packing instances.

Remark 5.2's exact success probability (``accuracy_packing_success_exact``) against a
brute-force enumeration of every dataset, label vector and tuple of hypotheses at tiny
sizes and against the simulator's own Monte Carlo; both exact forms are nondecreasing in
n, so the exact n_hat (``stats.exact_crossing``) is the first n whose p(n) reaches 1 - beta,
checked against a dense scan; the registered n_hat claims use them and cross-check a run.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

from privbounds.claims import CONFIRMED, EXACT, INCONCLUSIVE
from privbounds.registry import get
from privbounds.simulators.bns.packing import (
    BnsRem52,
    accuracy_packing_success_exact,
    accuracy_packing_trials,
)
from privbounds.simulators.bns.thm5_1 import BnsThm51, packing_success_exact
from privbounds.simulators.engine.stats import clopper_pearson, crossing, exact_crossing
from privbounds.simulators.shared.accuracy import within
from privbounds.simulators.shared.concepts import make_class
from privbounds.simulators.shared.mechanisms import exponential_mechanism_probs


def _rem(d, k, alpha, n, epsilon=1.0, beta=0.1):
    return {"d": d, "k": k, "alpha": alpha, "epsilon": epsilon, "beta": beta, "n": n}


def _rem_brute_force(row) -> float:
    """Every dataset (each row at x0 = 0 w.p. 2 alpha, else x1 = 1), every label vector v
    (uniform), every tuple of POINT_d hypotheses with the exponential mechanism's exact
    probabilities (eps / k each, score -errors counted hypothesis by hypothesis); success is
    every column's error under P at most alpha, as the simulator scores it."""
    d, k, alpha, n = row["d"], row["k"], row["alpha"], row["n"]
    cls = make_class("point", d)
    H = np.arange(cls.size)
    at0, at1 = cls.evaluate(H, 0), cls.evaluate(H, 1)              # h(x0), h(x1) of every hypothesis
    total = 0.0
    for xs in itertools.product((0, 1), repeat=n):
        n0 = xs.count(0)
        weight = (2 * alpha) ** n0 * (1 - 2 * alpha) ** (n - n0)
        for v in itertools.product((False, True), repeat=k):
            # column j: rows at x0 labelled v_j, rows at x1 labelled 0
            probs = [exponential_mechanism_probs(-(n0 * (at0 != vj) + (n - n0) * at1), row["epsilon"] / k)
                     for vj in v]
            for h in itertools.product(range(H.size), repeat=k):
                err = [2 * alpha * (at0[hj] != vj) + (1 - 2 * alpha) * at1[hj] for hj, vj in zip(h, v)]
                if np.all(within(np.array(err), alpha)):
                    total += weight * float(np.prod([probs[j][hj] for j, hj in enumerate(h)])) / 2 ** k
    return total


@pytest.mark.parametrize("d, k, alpha", [(2, 1, 0.1), (2, 2, 0.2), (3, 2, 0.05), (2, 3, 0.3)])
def test_rem5_2_exact_sum_equals_brute_force_enumeration(d, k, alpha):
    for n in (0, 1, 2, 5):
        row = _rem(d, k, alpha, n, epsilon=1.5)
        assert accuracy_packing_success_exact(row) == pytest.approx(_rem_brute_force(row), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("k, alpha, n", [(4, 0.1, 40), (4, 0.2, 150), (8, 0.05, 600)])
def test_rem5_2_exact_sum_lies_in_the_simulators_monte_carlo_interval(k, alpha, n):
    trials = 40_000
    ok = accuracy_packing_trials(4, k, alpha, 1.0, n, trials, np.random.default_rng(5200 + n))
    lo, hi = clopper_pearson(int(ok.sum()), trials, 1 - 1e-4)
    assert lo <= accuracy_packing_success_exact(_rem(4, k, alpha, n)) <= hi


def test_rem5_2_window_is_the_full_binomial_sum_and_stays_cheap_at_large_n():
    # the full sum over n0 = 0..n, as the formula reads, against the summed window
    d, k, alpha, n, s = 4, 16, 0.05, 5000, 1.0 / 16 / 2
    n0 = np.arange(n + 1)
    g = 2.0 ** d - 2
    p1 = 1 / (1 + np.exp(-s * n) + g * np.exp(-s * n0))
    p0 = g / (g + np.exp(-s * n0) + np.exp(-s * (n - n0)))
    full = float(np.sum(stats.binom.pmf(n0, n, 2 * alpha) * ((p1 + p0) / 2) ** k))
    assert accuracy_packing_success_exact(_rem(d, k, alpha, n)) == pytest.approx(full, rel=1e-12)
    assert accuracy_packing_success_exact(_rem(4, 4096, 0.01, 10 ** 9)) == pytest.approx(1.0, abs=1e-9)


def _thm(learner, cls, d, k, n, epsilon=1.0, beta=0.1):
    return {"experiment": "search", "learner": learner, "class": cls, "d": d, "k": k, "epsilon": epsilon,
            "beta": beta, "n": n}


@pytest.mark.parametrize("p, top", [
    (lambda n: accuracy_packing_success_exact(_rem(4, 8, 0.1, n)), 900),
    (lambda n: accuracy_packing_success_exact(_rem(2, 2, 0.3, n)), 300),
    (lambda n: packing_success_exact(_thm("directsum-basic", "thresh", 4, 16, n)), 400),
    (lambda n: packing_success_exact(_thm("hash-directsum", "point", 4, 8, n)), 400)])
def test_exact_forms_are_nondecreasing_and_the_search_finds_their_first_crossing(p, top):
    # monotone on every n of a dense range, so "smallest n with p(n) >= target" and "smallest n
    # from which p stays >= target" are one number, which the bisection finds in few evaluations
    ns = np.arange(1, top + 1)
    vals = np.array([p(int(n)) for n in ns])
    assert np.all(np.diff(vals) >= -1e-12)  # round-off of the log-sum-exp near p = 1
    for target in (0.5, 0.9, 0.99):
        want = int(ns[np.argmax(vals >= target)])
        assert vals.max() >= target
        got, seen = exact_crossing(p, target)
        assert got == want and len(seen) <= 2 * np.log2(top) + 2


def test_registered_nhat_claims_decide_exactly_where_a_form_exists():
    thm = {c.id: c for c in get("bns.thm5_1").claims}["lower-nhat"]
    rem = {c.id: c for c in get("bns.rem5_2").claims}["lower-nhat"]
    assert rem.exact_success is accuracy_packing_success_exact
    assert thm.exact_success is packing_success_exact
    assert not thm.exact_where({"learner": "alg2-tree-basic"}) and thm.exact_where({"learner": "hash-directsum"})
    # the claims take the target as 1 - beta: so do these simulators
    for sim, p in ((BnsRem52(), _rem(4, 8, 0.1, 1, beta=0.2)), (BnsThm51(), _thm("hash-directsum", "point", 4, 8, 1))):
        assert sim.target(p) == 1 - p["beta"]


def _searched(point, n_hat_exact, p, trials=2000, seed=0):
    """A point's search rows and record as the engine writes them, at n around the exact n_hat,
    with success counts drawn from p (binomial draws of the learner's p(n))."""
    rng = np.random.default_rng(seed)
    ns = sorted({max(1, int(n_hat_exact * f)) for f in (0.5, 0.7, 0.85, 1.0, 1.2, 1.5, 2.0)})
    rows = [{**point, "experiment": "search", "n": n, "trials": trials,
             "successes": int(rng.binomial(trials, p({**point, "n": n})))} for n in ns]
    return rows


@pytest.mark.parametrize("theorem, point, form", [
    ("bns.rem5_2", {"d": 4, "k": 8, "alpha": 0.1, "epsilon": 1.0, "beta": 0.1}, accuracy_packing_success_exact),
    ("bns.thm5_1", {"experiment": "search", "learner": "directsum-basic", "class": "point", "d": 4, "k": 8,
                    "epsilon": 1.0, "beta": 0.1}, packing_success_exact)])
def test_registered_claim_on_counts_drawn_from_the_form_is_exact_and_agrees(theorem, point, form):
    claim = {c.id: c for c in get(theorem).claims}["lower-nhat"]
    e, _ = exact_crossing(lambda n: form({**point, "n": n}), 0.9)
    rows = _searched(point, e, form)
    conf = 0.99
    c = crossing([r["n"] for r in rows], [r["successes"] for r in rows], [r["trials"] for r in rows], 0.9, conf)
    rec = {"point": point, "trials": 14_000, "conf": conf, "n_floor": 1, **c.as_dict()}
    out = claim.evaluate([rec], rows)
    d = out["details"][0]
    assert out["verdict"] == EXACT and d["exact"] == e and d["mc_agrees"]
    assert d["slack"] == pytest.approx(e / d["bound"]) and d["mc_value"] == c.n_hat
    # counts of a learner twice as fast: the exact n_hat is no longer in their interval
    fast = [{**r, "successes": int(np.random.default_rng(r["n"]).binomial(
        r["trials"], form({**point, "n": 2 * r["n"]})))} for r in rows]
    c = crossing([r["n"] for r in fast], [r["successes"] for r in fast], [r["trials"] for r in fast], 0.9, conf)
    out = claim.evaluate([{**rec, **c.as_dict()}], fast)
    assert out["verdict"] == INCONCLUSIVE and "disagrees with the exact value" in out["reason"]
    # Algorithm 2's points stay on Monte Carlo, and a claim mixing both is plainly confirmed
    if theorem == "bns.thm5_1":
        alg2 = {**point, "learner": "alg2-tree-basic", "class": "thresh"}
        recs = [rec, {**rec, "point": alg2, "n_hat": 100, "n_low": 80, "n_high": 120, "monotone": True}]
        out = claim.evaluate(recs, rows)
        assert out["verdict"] == CONFIRMED and "exact" not in out["details"][1]
