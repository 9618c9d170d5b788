"""Stability-based selection (A_dist, Bun-Nissim-Stemmer Prop 3.11 / Alg 3) and the
k-free learners built on it (Alg 4 for parities, Alg 5 for points): privacy audits on epsilon and on
delta, each with a planted bug it must catch, and accuracy where the theorems promise it.
"""

import numpy as np
import pytest

from privbounds.bounds.bns import alg4_block_size, n_alg4_parities, n_alg5_points
from privbounds.simulators.bns import gf2
from privbounds.simulators.bns.audit_stability import ALG4_PAIR, _alg4_database, _alg4_value, alg4_tie_winner
from privbounds.simulators.bns.stability import alg4_parities, alg5_points, alg5_scores, label_keys, top_two
from privbounds.simulators.bns.thm3_12 import BnsThm312
from privbounds.simulators.bns.thm3_13 import BnsThm313, target_keys
from privbounds.simulators.bns.tools import BnsProp311
from privbounds.simulators.engine.audit import epsilon_lower_bound
from privbounds.simulators.engine.stats import clopper_pearson
from privbounds.simulators.shared.mechanisms import stable_choice

CONF = 0.999
M = 200_000


def buggy_choice(q1, q2, epsilon, delta, rng):
    """A_dist with Lap(1/eps) and threshold (1/eps) ln(1/delta): right for a gap of
    sensitivity 1, wrong here (the gap q1 - q2 has sensitivity 2)."""
    dist = np.asarray(q1, float) - np.asarray(q2, float)
    return dist + rng.laplace(0, 1 / epsilon, dist.shape) >= np.log(1 / delta) / epsilon


def eps_audit(choice):
    rng = np.random.default_rng(20)
    # neighbours with the same top solution: the gap moves by 2
    a = choice(np.full(M, 4.0), np.zeros(M), 1.0, 0.1, rng)
    b = choice(np.full(M, 2.0), np.zeros(M), 1.0, 0.1, rng)
    # both events, release and bottom (each checked in both directions)
    return max(epsilon_lower_bound(int(e(a).sum()), M, int(e(b).sum()), M, 0.0, CONF)
               for e in (lambda o: o, lambda o: ~o))


def test_adist_epsilon_audit():
    assert eps_audit(stable_choice) <= 1.0


def test_adist_epsilon_audit_catches_sensitivity_one_noise():
    assert eps_audit(buggy_choice) > 1.0


def delta_rate(choice, delta=0.1):
    """Neighbours where the top solution changes: on D, f1 leads by 1; on D' it trails
    by 1, so A_dist can never output it there; P[output f1 | D] must be <= delta."""
    rng = np.random.default_rng(21)
    out = choice(np.full(M, 6.0), np.full(M, 5.0), 1.0, delta, rng)
    return clopper_pearson(int(out.sum()), M, CONF)


def test_adist_delta_audit():
    lo, _ = delta_rate(stable_choice)
    assert lo <= 0.1


def test_adist_delta_audit_catches_bug():
    lo, _ = delta_rate(buggy_choice)
    assert lo > 0.1


def test_adist_releases_with_the_promised_margin():
    # Prop 3.11 (2): a gap of (4/eps) ln(1/(beta delta)) is released w.p. >= 1 - beta/2,
    # with equality for the Laplace tail: the interval must contain 1 - beta/2 exactly
    eps, delta, beta = 1.0, 1e-6, 0.1
    gap = 4 / eps * np.log(1 / (beta * delta))
    out = stable_choice(np.full(M, gap), np.zeros(M), eps, delta, np.random.default_rng(22))
    lo, hi = clopper_pearson(int(out.sum()), M, CONF)
    assert lo <= 1 - beta / 2 <= hi
    # and just under the threshold it is rarely released
    out = stable_choice(np.zeros(M), np.zeros(M), eps, delta, np.random.default_rng(23))
    assert out.mean() < 1e-4


def test_adist_refuses_bad_delta():
    with pytest.raises(ValueError, match="delta"):
        stable_choice([1.0], [0.0], 1.0, 1.0, np.random.default_rng(0))


def test_top_two_counts():
    keys = np.array([[5, 3, 5, 7, 5, 3], [1, 1, 1, 1, 1, 1], [2, 4, 6, 8, 9, 9]], dtype=np.uint64)
    pos, q1, q2 = top_two(keys)
    assert q1.tolist() == [3, 6, 2] and q2.tolist() == [2, 0, 1]
    assert keys[np.arange(3), pos].tolist() == [5, 1, 9]


# --- Algorithm 4 ---------------------------------------------------------------------------

def alg4_neighbours(m):
    """Databases D, D' (one row apart) for Alg 4 with d = 3, k = 1, blocks of s = 6: D has
    m + 1 blocks that determine v1 = 001 and m that determine v2 = 011; D' turns one v1
    block into a v2 block by relabelling its last row. Rows 1-5 of a block lie where v1
    and v2 agree (<v1 xor v2, x> = 0) and row 6 does not, so each block has full rank."""
    d, v1, v2 = 3, 1, 3
    rows = np.array([1, 4, 5, 1, 4, 2])
    lab = lambda v: np.array([bin(v & r).count("1") % 2 for r in rows], bool)
    blocks = [lab(v1)] * (m + 1) + [lab(v2)] * m
    x = np.tile(rows, 2 * m + 1)[None]
    y_d = np.concatenate(blocks)[None, :, None]
    y_d2 = y_d.copy()
    y_d2[0, 5, 0] = lab(v2)[5]   # the one changed row
    return d, x, gf2.pack(y_d), gf2.pack(y_d2), v1


@pytest.mark.parametrize("planted_bug", [False, True])
def test_alg4_end_to_end_delta_audit(planted_bug, monkeypatch):
    d, x, yd, yd2, v1 = alg4_neighbours(m=10)
    if planted_bug:
        monkeypatch.setattr("privbounds.simulators.bns.stability.stable_choice", buggy_choice)
    delta, reps = 0.1, 40_000
    rng = np.random.default_rng(24)
    hits = []
    for y in (yd, yd2):
        X, Y = np.repeat(x, reps, 0), np.repeat(y, reps, 0)
        released, sol = alg4_parities(X, Y, d, 6, 1.0, delta, rng)
        value = np.sum(gf2.unpack(sol, 1)[:, :, 0] * (1 << np.arange(d)), axis=1)
        hits.append(int(np.sum(released & (value == v1))))
    assert hits[1] == 0  # on D' v1 trails, A_dist cannot output it
    lo, _ = clopper_pearson(hits[0], reps, CONF)
    assert (lo > delta) == planted_bug


def test_alg4_accurate_at_its_bound():
    p = {"d": 8, "k": 100, "epsilon": 1.0, "delta": 1e-6, "beta": 0.1}
    n = int(n_alg4_parities(p["d"], p["epsilon"], p["delta"], p["beta"]))
    ok = BnsThm312().run_trials(p, n, 400, np.random.default_rng(25))
    lo, _ = clopper_pearson(int(ok.sum()), ok.size, CONF)
    assert lo >= 1 - p["beta"]


def test_alg4_fails_below_the_stability_margin():
    # with T blocks the gap is at most T: below (4/eps) ln(1/delta) release is rare
    p = {"d": 8, "k": 4, "epsilon": 1.0, "delta": 1e-6, "beta": 0.1}
    s = alg4_block_size(8)
    ok = BnsThm312().run_trials(p, s * 40, 400, np.random.default_rng(26))
    assert ok.mean() < 0.05


# --- Algorithm 5 ---------------------------------------------------------------------------

def _brute_force_q(x, keys):
    """Q1, Q2 by enumerating every assignment of label vectors (seen ones, or an unseen
    one of quality 0) to the points of one small database where every point is heavy."""
    import itertools
    pts = np.unique(x)
    options = []
    for p in pts:
        ks, c = np.unique(keys[x == p], return_counts=True)
        options.append(list(c) + [0])  # an unseen vector has quality 0
    values = sorted((min(combo) for combo in itertools.product(*options)), reverse=True)
    return values[0], values[1]


def test_alg5_scores_match_brute_force():
    rng = np.random.default_rng(40)
    for _ in range(60):
        m = rng.integers(1, 4)
        x = np.repeat(np.arange(m), 100)[None]                  # every point has 100 rows: heavy
        keys = rng.integers(1, 4, size=x.shape).astype(np.uint64)
        keys[0, rng.random(x.shape[1]) < 0.6] = 7                # a dominant vector, sometimes
        q1, q2, has, _ = alg5_scores(x, keys, 0.05, 1.0, 0.1, rng)
        assert has[0] and (q1[0], q2[0]) == _brute_force_q(x[0], keys[0])


def test_alg5_quality_has_sensitivity_one():
    rng = np.random.default_rng(41)
    for _ in range(200):
        x = np.repeat(np.arange(3), 100)[None]
        keys = rng.integers(1, 4, size=x.shape).astype(np.uint64)
        x2, keys2 = x.copy(), keys.copy()
        i = rng.integers(x.shape[1])
        x2[0, i], keys2[0, i] = rng.integers(3), rng.integers(1, 5)   # change one row
        a = alg5_scores(x, keys, 0.05, 1.0, 0.1, np.random.default_rng(0))
        b = alg5_scores(x2, keys2, 0.05, 1.0, 0.1, np.random.default_rng(0))
        assert abs(a[0][0] - b[0][0]) <= 1 and abs(a[1][0] - b[1][0]) <= 1


@pytest.mark.parametrize("planted_bug", [False, True])
def test_alg5_end_to_end_epsilon_audit(planted_bug, monkeypatch):
    # one heavy point x0 (at least 80 rows, above the sanitizer's threshold); D' relabels one row from v1 to v2, so the gap
    # q1 - q2 drops by 2. The gap sits at the threshold of the A_dist under test, where
    # release is most sensitive. A_dist's share of the budget is eps/2.
    eps, delta, reps = 1.0, 1e-6, M // 2
    if planted_bug:
        monkeypatch.setattr("privbounds.simulators.bns.stability.stable_choice", buggy_choice)
        gap = 30                                  # ~ (2/eps) ln(2/delta), its threshold at eps/2
    else:
        gap = 116                                 # ~ (8/eps) ln(2/delta)
    rows = max(gap + 2, 80)
    v1 = (rows + gap) // 2
    keys = np.r_[np.ones(v1), np.full(rows - v1, 2)].astype(np.uint64)[None]
    keys2 = keys.copy()
    keys2[0, 0] = 2
    x = np.zeros((1, rows), dtype=np.int64)
    rng = np.random.default_rng(42)
    hits = []
    for k in (keys, keys2):
        released, _ = alg5_points(np.repeat(x, reps, 0), np.repeat(k, reps, 0), 0.1, eps, delta, rng)
        hits.append(released)
    e = max(epsilon_lower_bound(int(ev(hits[0]).sum()), reps, int(ev(hits[1]).sum()), reps, 0.0, CONF)
            for ev in (lambda o: o, lambda o: ~o))
    assert (e > eps / 2) == planted_bug


def test_alg5_accurate_at_its_bound():
    p = {"d": 16, "k": 1024, "alpha": 0.1, "epsilon": 1.0, "delta": 1e-6, "beta": 0.1}
    n = int(np.ceil(n_alg5_points(p["alpha"], p["epsilon"], p["delta"], p["beta"])))
    ok = BnsThm313().run_trials(p, n, 400, np.random.default_rng(43))
    lo, _ = clopper_pearson(int(ok.sum()), ok.size, CONF)
    assert lo >= 1 - p["beta"]


def test_alg5_fails_when_heavy_points_are_too_rare():
    p = {"d": 16, "k": 64, "alpha": 0.1, "epsilon": 1.0, "delta": 1e-6, "beta": 0.1}
    ok = BnsThm313().run_trials(p, 300, 400, np.random.default_rng(44))
    assert ok.mean() < 0.05


def test_target_keys_equal_hashed_label_vectors():
    # the simulator's shortcut key (sum of column multipliers) identifies the same rows as
    # equal that the packed label vectors do
    rng = np.random.default_rng(45)
    X, k = 64, 70
    targets = rng.integers(0, 8, size=(5, k))
    x = rng.integers(0, 12, size=(5, 50))
    keys = target_keys(x, targets, X)
    packed = gf2.pack(x[:, :, None] == targets[:, None, :])
    full = label_keys(packed)
    for b in range(5):
        same_a = keys[b][:, None] == keys[b][None, :]
        same_b = full[b][:, None] == full[b][None, :]
        np.testing.assert_array_equal(same_a, same_b)


@pytest.mark.parametrize("planted_bug", [False, True])
def test_alg5_end_to_end_delta_audit(planted_bug, monkeypatch):
    # one heavy point x0 with 61 rows: on D label vector v1 leads v2 by one, on D' (one row
    # relabelled) v2 leads; Alg 5 can release v1 on D' never, so P[release v1 | D] must be
    # at most A_dist's share delta/2. The planted bug drops A_dist's threshold.
    delta, reps, m = 0.1, 100_000, 30
    if planted_bug:
        monkeypatch.setattr("privbounds.simulators.bns.stability.stable_choice",
                            lambda q1, q2, e, d, rng: np.asarray(q1, float) - np.asarray(q2, float)
                            + rng.laplace(0, 4 / e, np.shape(q1)) >= 0)
    keys_d = np.r_[np.ones(m + 1), np.full(m, 2)].astype(np.uint64)[None]
    keys_d2 = keys_d.copy()
    keys_d2[0, 0] = 2
    x = np.zeros((1, 2 * m + 1), dtype=np.int64)
    rng = np.random.default_rng(46)
    hits = []
    for keys in (keys_d, keys_d2):
        K = np.repeat(keys, reps, 0)
        released, (ht, hx, hrow) = alg5_points(np.repeat(x, reps, 0), K, 0.1, 1.0, delta, rng)
        v1 = np.zeros(reps, bool)
        v1[ht] = K[ht, hrow] == 1                       # the released vector at x0 is v1
        hits.append(int(np.sum(released & v1)))
    assert hits[1] == 0
    lo, _ = clopper_pearson(hits[0], reps, CONF)
    assert (lo > delta / 2) == planted_bug


# --- the audit instances of Prop 3.11, Thm 3.12 and Thm 3.13 (simulators/bns/audit_stability.py) ---

def audit_case(sim, name, seed):
    """eps_hat as declared and doubled, and the event counts, of one audit instance of
    ``sim`` at the trials it declares (its quick fidelity)."""
    case = next(c for c in sim.audits() if c.name == name)
    found = {}
    for budget in (1.0, 2.0):
        a, b = case.run(budget, case.trials, np.random.default_rng(seed + int(budget)))
        found[budget] = (epsilon_lower_bound(a, case.trials, b, case.trials, case.delta, CONF), a, b)
    return case, found


@pytest.mark.parametrize("name", ["adist-same-top", "adist-delta"])
def test_adist_events_audits_are_powered_and_within_the_declared_budget(name):
    case, found = audit_case(BnsProp311(), name, 90)
    assert found[1.0][0] <= case.epsilon < found[2.0][0]
    if name == "adist-delta":  # on D' the tie goes to the other solution: never released
        assert found[1.0][2] == found[2.0][2] == 0


@pytest.mark.parametrize("name", ["alg4-delta", "alg4-same-top"])
def test_alg4_events_audits_are_powered_and_within_the_declared_budget(name):
    case, found = audit_case(BnsThm312(), name, 91)
    assert found[1.0][0] <= case.epsilon < found[2.0][0]
    if name == "alg4-delta":
        assert found[1.0][2] == found[2.0][2] == 0


def test_alg4_tie_winner_does_not_depend_on_the_block_order():
    top = alg4_tie_winner()
    assert top in ALG4_PAIR
    for order in (ALG4_PAIR, ALG4_PAIR[::-1]):
        x, y = _alg4_database(list(order))
        _, sol = alg4_parities(x, y, 3, alg4_block_size(3), 1.0, 0.5, np.random.default_rng(0))
        assert _alg4_value(sol)[0] == top


def test_alg5_heavy_set_events_whole_audit_is_powered_and_within_the_declared_budget():
    case, found = audit_case(BnsThm313(), "alg5-whole", 92)
    assert found[1.0][0] <= case.epsilon < found[2.0][0]
    # under the doubled budget the event sits at its three Laplace tails: P_D = 1/8
    lo, hi = clopper_pearson(found[2.0][1], case.trials, CONF)
    assert lo <= 1 / 8 <= hi


def test_alg5_point_events_delta_audit_is_powered_and_within_the_declared_budget():
    case, found = audit_case(BnsThm313(), "alg5-adist-delta", 93)
    assert found[1.0][0] <= case.epsilon < found[2.0][0]
    assert found[1.0][2] == found[2.0][2] == 0
