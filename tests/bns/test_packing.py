"""Section 5 of Bun-Nissim-Stemmer (pure-DP packing bounds): Theorem 5.1's learners on
POINT and THRESH, Remark 5.2's accuracy instance, Lemma 5.3's rounding to the nearest
parity and Theorem 5.4's grid.

Privacy audits are at joint confidence 0.999 (simulators/audit.py) and each is shown to
have power on a planted bug (no budget split, halved noise). Accuracy checks use 99%
Clopper-Pearson ends. Lemma 5.3 is deterministic, so its checks are exact (exhaustive on
a small cube, constructed failures above 1/4). Seeds are fixed.
"""

import itertools
import math

import numpy as np
import pytest

from privbounds.bounds import bns
from privbounds.claims import REFUTED, Ceiling, use
from privbounds.params import ParameterError
from privbounds.simulators.bns.cor3_4 import hash_learner, n_buckets
from privbounds.simulators.bns.ex3_5 import BnsEx35
from privbounds.simulators.bns.lem5_3 import BnsLem53, corrupted_tables, noisy_sign_learner, parity_tables
from privbounds.simulators.bns.packing import BnsRem52, BnsThm54, accuracy_packing_trials
from privbounds.simulators.bns.thm5_1 import BnsThm51, packing_labels, packing_point
from privbounds.simulators.bns.walsh import round_to_parity
from privbounds.simulators.engine.audit import epsilon_lower_bound
from privbounds.simulators.engine.stats import clopper_pearson
from privbounds.simulators.shared.concepts import make_class
from privbounds.simulators.shared.learners import expmech_learner_grouped

CONF = 0.999


def rate_interval(ok, conf=0.99):
    lo, hi = clopper_pearson(int(np.sum(ok)), np.size(ok), conf)
    return float(lo), float(hi)


# --- bounds ------------------------------------------------------------------------------

def test_accuracy_packing_bound_values_and_range():
    # (k ln 2 + ln(1/2 - beta)) / (4 alpha eps)
    assert bns.packing_accuracy_lower_bound(16, 0.1, 1.0, 0.1) == pytest.approx(
        (16 * math.log(2) + math.log(0.4)) / 0.4)
    # exactly 1/alpha and 1/eps
    assert bns.packing_accuracy_lower_bound(8, 0.05, 0.5, 0.1) == pytest.approx(
        4 * bns.packing_accuracy_lower_bound(8, 0.1, 1.0, 0.1))
    assert bns.packing_accuracy_lower_bound(1, 0.1, 1.0, 0.1) < 0  # vacuous at k = 1
    for bad in ({"alpha": 0.6}, {"beta": 0.5}, {"epsilon": 0.0}, {"k": 0}):
        args = {"k": 4, "alpha": 0.1, "epsilon": 1.0, "beta": 0.1, **bad}
        with pytest.raises(ValueError, match=next(iter(bad))):
            bns.packing_accuracy_lower_bound(**args)


def test_rounding_ceiling_is_the_level_below_a_quarter_only():
    m = np.array([0, 15, 16, 17, 40])
    np.testing.assert_array_equal(bns.parity_rounding_failure_ceiling(m, 6, 1e-3), [1e-3, 1e-3, 1.0, 1.0, 1.0])


# --- Theorem 5.1: every pure learner on POINT and THRESH ----------------------------------

def test_thm5_1_grid_covers_every_pure_learner_and_both_classes():
    pts = BnsThm51().points("quick")
    combos = {(p["learner"], p["class"], p["d"]) for p in pts if p["experiment"] == "search"}
    assert combos == {("directsum-basic", "point", 1), ("directsum-basic", "point", 4),
                      ("directsum-basic", "thresh", 1), ("directsum-basic", "thresh", 4),
                      ("hash-directsum", "point", 4), ("alg2-tree-basic", "thresh", 4)}
    assert {(p["learner"], p["class"]) for p in pts if p["experiment"] == "curve"} == \
        {(le, c) for le, c, _ in combos}
    with pytest.raises(ParameterError, match="class"):
        BnsThm51().points("smoke", {"learner": ["hash-directsum"], "class": ["thresh"]})


def test_threshold_packing_point_splits_the_class():
    for d in (1, 4, 8):
        x0 = packing_point("thresh", d)
        labels = packing_labels("thresh", d, np.arange(2 ** d + 1))
        assert labels.any() and not labels.all()  # two thresholds disagree at x0
        assert abs(int(labels.sum()) - int((~labels).sum())) <= 1 and x0 == 2 ** (d - 1) - 1


@pytest.mark.parametrize("learner, cls", [("directsum-basic", "thresh"), ("hash-directsum", "point"),
                                          ("alg2-tree-basic", "thresh")])
def test_new_pure_learners_succeed_with_enough_rows(learner, cls):
    k = 8
    p = {"experiment": "search", "class": cls, "d": 4, "k": k, "epsilon": 1.0, "beta": 0.1, "learner": learner}
    n = int(math.ceil(4 * bns.n_direct_sum(2 ** 4 + 1, 1.0, k, "basic", None, 0.25, 0.1)))
    ok = BnsThm51().run_trials(p, n, 1000, np.random.default_rng(70))
    assert rate_interval(ok)[0] >= 0.9


@pytest.mark.parametrize("learner, cls", [("directsum-basic", "thresh"), ("hash-directsum", "point"),
                                          ("alg2-tree-basic", "thresh"), ("nosplit", "thresh")])
def test_packing_ceiling_holds_for_every_pure_learner_and_catches_the_planted_bug(learner, cls):
    sim = BnsThm51()
    k = 6
    p = {"experiment": "curve", "class": cls, "d": 4, "k": k, "epsilon": 0.25, "beta": 0.1, "learner": learner}
    rows = []
    for n in sim.curve(p):
        ok = sim.run_trials(p, n, 40_000, np.random.default_rng(71 + n))
        rows.append({**p, "n": n, "successes": int(ok.sum()), "trials": ok.size, "p_hat": ok.mean()})
    claim = Ceiling("c", "", lambda r: r["experiment"] == "curve", ("k",),
                    bound=use(bns.packing_success_ceiling))
    assert (claim.evaluate([], rows)["verdict"] == REFUTED) == (learner == "nosplit")


@pytest.mark.parametrize("split, bug", [(True, False), (False, True)])
def test_hash_learner_audit_on_neighbouring_packing_databases(split, bug):
    # D: n rows (x0, 1^k); D': one of them relabelled (x0, 0^k). With n where column j
    # picks x0's bucket w.p. about 0.2 (M e^(-eps0 n / 2) = 4), the event "every column
    # picks x0's bucket" has a privacy loss close to its maximum k eps0 and is not rare.
    k, eps, reps = 2, 1.0, 400_000
    eps0 = eps / k if split else eps
    M = n_buckets(0.1, 0.1, k)
    n = int(2 * math.log(M / 4) / eps0)
    rng = np.random.default_rng(72)
    counts = np.full((reps, 1), float(n))
    _, a = hash_learner(counts, np.full((reps, k, 1), float(n)), M, eps0, rng)
    _, b = hash_learner(counts, np.full((reps, k, 1), n - 1.0), M, eps0, rng)
    ev_a, ev_b = np.all(a == 0, axis=1), np.all(b == 0, axis=1)
    e = epsilon_lower_bound(int(ev_a.sum()), reps, int(ev_b.sum()), reps, 0.0, CONF)
    assert (e > eps) == bug


def test_thm5_1_is_deterministic_and_keeps_old_points_working():
    sim = BnsThm51()
    p = {"experiment": "search", "class": "thresh", "d": 4, "k": 4, "epsilon": 1.0, "beta": 0.1,
         "learner": "alg2-tree-basic"}
    a = sim.run_trials(p, 60, 500, np.random.default_rng(73))
    np.testing.assert_array_equal(a, sim.run_trials(p, 60, 500, np.random.default_rng(73)))
    old = {"experiment": "search", "d": 4, "k": 4, "epsilon": 1.0, "beta": 0.1, "learner": "directsum-basic"}
    new = {**old, "class": "point"}
    np.testing.assert_array_equal(sim.run_trials(old, 30, 500, np.random.default_rng(74)),
                                  sim.run_trials(new, 30, 500, np.random.default_rng(74)))


# --- Remark 5.2: packing with accuracy ------------------------------------------------------

def test_rem5_2_accurate_with_enough_rows():
    k, alpha = 8, 0.1
    n = int(4 * k / (alpha * 1.0) * math.log(16 * k / 0.1))
    ok = BnsRem52().run_trials({"d": 4, "k": k, "alpha": alpha, "epsilon": 1.0, "beta": 0.1}, n, 1000,
                               np.random.default_rng(75))
    assert rate_interval(ok)[0] >= 0.9


@pytest.mark.parametrize("bug", [False, True])
def test_rem5_2_bound_holds_and_a_learner_without_budget_split_breaks_it(bug):
    # at n = the bound the correct learner cannot reach 1 - beta; the planted bug (eps per
    # column instead of eps/k) does, which is what a privacy failure would look like
    k, alpha, eps, beta = 64, 0.1, 1.0, 0.1
    n = int(bns.packing_accuracy_lower_bound(k, alpha, eps, beta))
    ok = accuracy_packing_trials(4, k, alpha, eps, n, 2000, np.random.default_rng(76), eps0=eps if bug else None)
    lo, hi = rate_interval(ok)
    assert (lo >= 1 - beta) if bug else (hi < 1 - beta)


def test_rem5_2_success_is_exact_error_at_most_alpha():
    # brute force: the error under P of each of the 16 point concepts for both label values
    rng = np.random.default_rng(77)
    alpha, k = 0.2, 3
    ok = accuracy_packing_trials(4, k, alpha, 1.0, 400, 4000, rng)
    assert 0.5 < ok.mean() <= 1.0
    errs = {}
    for v in (0, 1):
        for h in range(16):
            errs[v, h] = 2 * alpha * ((h == 0) != v) + (1 - 2 * alpha) * (h == 1)
    assert [h for h in range(16) if errs[1, h] <= alpha] == [0]
    assert [h for h in range(16) if errs[0, h] <= alpha] == list(range(2, 16))


@pytest.mark.parametrize("split, bug", [(True, False), (False, True)])
def test_rem5_2_learner_audit_on_neighbouring_databases(split, bug):
    # D: 3 rows (x0, 1^k) and 5 rows (x1, 0^k); D': one x0 row moved to (x1, 0^k)
    k, eps, reps = 4, 1.0, 400_000
    eps0 = eps / k if split else eps
    rng = np.random.default_rng(78)
    cls = make_class("point", 4)
    support = np.broadcast_to(np.array([0, 1]), (reps, 2))
    labels = np.broadcast_to(np.array([[True] * k, [False] * k]), (reps, 2, k))
    a = expmech_learner_grouped(cls, support, np.broadcast_to([3, 5], (reps, 2)), labels, eps0, rng)
    b = expmech_learner_grouped(cls, support, np.broadcast_to([2, 6], (reps, 2)), labels, eps0, rng)
    ev = lambda h: np.all(h == 0, axis=1)  # noqa: E731
    e = epsilon_lower_bound(int(ev(a).sum()), reps, int(ev(b).sum()), reps, 0.0, CONF)
    assert (e > eps) == bug


def test_rem5_2_grid_and_determinism():
    sim = BnsRem52()
    pts = sim.points("quick")
    assert {p["alpha"] for p in pts if p["k"] != sim.K_FOR_ALPHA} == {0.05, 0.1, 0.2}
    assert len({p["alpha"] for p in pts if p["k"] == sim.K_FOR_ALPHA}) >= 5
    with pytest.raises(ParameterError, match="alpha"):
        sim.points("smoke", {"alpha": [0.4]})
    p = pts[3]
    np.testing.assert_array_equal(sim.run_trials(p, 300, 300, np.random.default_rng(79)),
                                  sim.run_trials(p, 300, 300, np.random.default_rng(79)))


# --- Lemma 5.3: rounding to the nearest parity ---------------------------------------------

def test_round_to_parity_is_the_nearest_parity_by_brute_force():
    d = 5
    rng = np.random.default_rng(80)
    tables = rng.random((300, 2 ** d)) < rng.random((300, 1))
    T = make_class("par", d).truth_table()                             # (32, 32)
    dist = (tables[:, None, :] != T[None, :, :]).sum(axis=-1)
    np.testing.assert_array_equal(round_to_parity(tables), np.argmin(dist, axis=1))
    np.testing.assert_array_equal(round_to_parity(tables.astype(int)), round_to_parity(tables))
    with pytest.raises(ValueError, match="tables"):
        round_to_parity(np.full((1, 8), 2))


def test_rounding_recovers_every_parity_exhaustively_below_a_quarter():
    # d = 4: every target and every set of 3 < 16/4 corrupted points
    d, X = 4, 16
    truth = parity_tables(np.arange(X), d)                                 # (16, 16)
    flips = np.zeros((560, X), dtype=bool)
    for i, s in enumerate(itertools.combinations(range(X), 3)):
        flips[i, list(s)] = True
    tables = truth[:, None, :] ^ flips[None, :, :]                        # (16, 560, 16)
    np.testing.assert_array_equal(round_to_parity(tables), np.broadcast_to(np.arange(X)[:, None], (X, 560)))


@pytest.mark.parametrize("d", [6, 8, 10])
@pytest.mark.parametrize("corruption", ["random", "worst"])
def test_rounding_exact_just_below_a_quarter(d, corruption):
    a, tables = corrupted_tables(d, 2 ** d // 4 - 1, 500, corruption, np.random.default_rng(81))
    np.testing.assert_array_equal(round_to_parity(tables), a)


@pytest.mark.parametrize("d", [4, 6, 8])
def test_constructed_failure_just_above_a_quarter_and_tie_at_a_quarter(d):
    X = 2 ** d
    a, b = 3, X - 1                                                        # two distinct parities
    ta, tb = parity_tables(a, d), parity_tables(b, d)
    disagree = np.flatnonzero(ta != tb)                                    # 2^(d-1) points
    for m, expected in ((X // 4 + 1, b), (X // 4, min(a, b))):
        h = ta.copy()
        h[disagree[:m]] ^= True                                            # moves h towards c_b
        assert (h != ta).mean() == m / X
        assert round_to_parity(h) == expected


def test_lem5_3_curve_event_is_rounding_failure():
    sim = BnsLem53()
    for corruption, m, expect in (("worst", 15, False), ("worst", 17, True), ("random", 15, False)):
        p = {"experiment": "curve", "d": 6, "corruption": corruption}
        out = sim.run_trials(p, m, 400, np.random.default_rng(82))
        assert np.all(out == expect)
    p = {"experiment": "curve", "d": 6, "corruption": "worst"}
    assert 16 in sim.curve(p) and 15 in sim.curve(p) and 17 in sim.curve(p) and max(sim.curve(p)) == 32


def test_rounded_learner_is_exact_whenever_the_improper_one_is_alpha_accurate():
    # Lemma 5.3 trial by trial, at sample sizes from hopeless to plenty
    sim = BnsLem53()
    p = {"experiment": "search", "d": 6, "k": 2, "epsilon": 1.0, "alpha": 0.2, "beta": 0.1, "learner": "histogram"}
    rng = np.random.default_rng(83)
    seen = 0
    for n in (50, 200, 400, 800, 3000):
        improper, proper, err = sim.learn(p, n, 2000, rng)
        assert np.all(proper[improper])
        assert np.all(proper[np.all(err < 0.25, axis=1)])
        seen += improper.sum()
    assert seen > 1000


def test_noisy_sign_learner_accurate_with_enough_rows_and_not_below_thm5_4():
    sim = BnsLem53()
    base = {"experiment": "search", "d": 6, "k": 4, "epsilon": 1.0, "alpha": 0.2, "beta": 0.1}
    for learner in ("histogram", "histogram-rounded"):
        p = {**base, "learner": learner}
        assert rate_interval(sim.run_trials(p, 4000, 1000, np.random.default_rng(84)))[0] >= 0.9
        n = int(bns.parity_packing_lower_bound(4, 6, 1.0, 0.1))
        assert rate_interval(sim.run_trials(p, n, 1000, np.random.default_rng(85)))[1] < 0.9


@pytest.mark.parametrize("scale, bug", [(None, False), (1.0, True)])
def test_noisy_sign_learner_audit_and_rounding_is_post_processing(scale, bug):
    # d = 2, k = 1, eps = 1: D has one row (0, label 0), D' the same row labelled 1, so the
    # signed count at 0 moves by 2 (the sensitivity). Planted bug: Lap(1/eps), half the noise.
    eps, reps = 1.0, 400_000
    rng = np.random.default_rng(86)
    s_a = np.broadcast_to(np.array([[1.0, 0, 0, 0]]), (reps, 1, 4))
    s_b = np.broadcast_to(np.array([[-1.0, 0, 0, 0]]), (reps, 1, 4))
    h_a = noisy_sign_learner(s_a, eps, rng, noise_scale=scale)
    h_b = noisy_sign_learner(s_b, eps, rng, noise_scale=scale)
    ev = lambda h: ~h[:, 0, 0]  # noqa: E731  (label 0 at x = 0)
    e = epsilon_lower_bound(int(ev(h_a).sum()), reps, int(ev(h_b).sum()), reps, 0.0, CONF)
    assert (e > eps) == bug
    # the rounded output is a function of the improper output only, so its privacy loss on
    # any event is at most the improper one's (post-processing): audit one such event
    r_a, r_b = round_to_parity(h_a)[:, 0], round_to_parity(h_b)[:, 0]
    np.testing.assert_array_equal(round_to_parity(h_a)[:, 0], r_a)  # deterministic
    er = epsilon_lower_bound(int((r_a == 0).sum()), reps, int((r_b == 0).sum()), reps, 0.0, CONF)
    if not bug:
        assert er <= eps


def test_lem5_3_determinism():
    sim = BnsLem53()
    p = {"experiment": "curve", "d": 8, "corruption": "random"}
    np.testing.assert_array_equal(sim.run_trials(p, 120, 300, np.random.default_rng(87)),
                                  sim.run_trials(p, 120, 300, np.random.default_rng(87)))


# --- Theorem 5.4: the direct sum of Example 3.5 on a grid of d and k -------------------------

def test_thm5_4_grid_and_reuse_of_ex3_5_trials():
    sim = BnsThm54()
    pts = sim.points("quick")
    assert {(p["d"], p["k"]) for p in pts} >= {(d, k) for d in (4, 6, 8) for k in (1, 2, 4, 8, 16, 32, 64)}
    assert {p["d"] for p in pts if p["k"] == sim.K_FOR_D} == set(range(2, 11))
    p = {"d": 6, "k": 4, "epsilon": 1.0, "alpha": 0.1, "beta": 0.1}
    np.testing.assert_array_equal(sim.run_trials(p, 120, 300, np.random.default_rng(88)),
                                  BnsEx35().run_trials(p, 120, 300, np.random.default_rng(88)))


def test_thm5_4_direct_sum_fails_below_the_bound():
    p = {"d": 4, "k": 32, "epsilon": 1.0, "alpha": 0.1, "beta": 0.1}
    n = int(bns.parity_packing_lower_bound(32, 4, 1.0, 0.1))
    ok = BnsThm54().run_trials(p, n, 1000, np.random.default_rng(89))
    assert rate_interval(ok)[1] < 0.9


# --- audit instances of the learners (declared budget and doubled) ---------------------------

def _audit(sim, name, seed):
    from privbounds.simulators.engine.audit import AUDIT_CONF
    case = next(c for c in sim.audits() if c.name == name)
    e, hits = {}, {}
    for budget in (1.0, 2.0):
        a, b = case.run(budget, case.trials, np.random.default_rng(seed + int(budget)))
        e[budget], hits[budget] = epsilon_lower_bound(a, case.trials, b, case.trials, case.delta, AUDIT_CONF), (a, b)
    return case, e, hits


@pytest.mark.parametrize("name", ["histogram", "histogram-rounded"])
def test_lem5_3_noisy_sign_events_audits_are_powered_and_within_the_declared_budget(name):
    case, e, hits = _audit(BnsLem53(), name, 90)
    assert e[1.0] <= case.epsilon < e[2.0]


def test_lem5_3_rounded_event_is_the_table_event():
    # the rounded learner's event happens exactly when the tables' event does (same draws)
    from privbounds.simulators.bns.lem5_3 import noisy_sign_events
    spec = {"epsilon": 1.0, "k": 2, "rows": 60}
    a = noisy_sign_events(2.0, 20_000, np.random.default_rng(91), **spec, rounded=False)
    b = noisy_sign_events(2.0, 20_000, np.random.default_rng(91), **spec, rounded=True)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])


def test_rem5_2_direct_sum_audit_is_powered_and_within_the_declared_budget():
    case, e, _ = _audit(BnsRem52(), "direct-sum", 92)
    assert e[1.0] <= case.epsilon < e[2.0]
