"""Private Multiplicative Weights sanitizer (simulators/bns/pmw.py): privacy audit with a
planted bug, accuracy at the theorem's sample size (and failure far below it), agreement
with a line-by-line reference of Dwork-Roth's OnlineMW, determinism, bad inputs.

Audits use joint confidence 0.999 and fixed seeds, as in test_privacy.py.
"""

import dataclasses
import math

import numpy as np
import pytest
from scipy import stats

from privbounds.bounds.tools import SQRT512
from privbounds.bounds.tools import advanced_composition_epsilon as advanced_composition
from privbounds.simulators.bns.pmw import (
    PMWResult,
    pmw_parameters,
    pmw_run,
    pmw_sample_size,
    pmw_sanitize,
)
from privbounds.simulators.engine.audit import epsilon_lower_bound
from privbounds.simulators.engine.stats import clopper_pearson

CONF = 0.999


def points_and_thresholds(X):
    """All point queries {x} and all thresholds {x < t}, t = 1..X-1 (2X - 1 queries)."""
    z = np.arange(X)
    return np.vstack([np.eye(X, dtype=bool), z[None, :] < np.arange(1, X)[:, None]])


# --- Privacy audit -------------------------------------------------------------------
#
# Instance (tuned so that the planted bug is visible): |X| = 16, queries = the 16 point
# queries, then b = {0, 1} last. n = 160000, alpha = 0.9 (T = 0.6, c = 124), eps = 1,
# delta = 1e-6. Point 0 holds 1/16 + T of the rows, so query a = {0} sits exactly at the
# threshold: f'_a = T; D has one more row at point 1 than at 1/16 (f'_b = T + 1/n), D'
# has that row moved to point 2 (f'_b = T = f'_a). Event, fixed in advance: "the
# synthetic distribution boosts point 1 over point 2 but not point 0 over point 1", i.e.
# query b got an upward update and query a none: b fired in the AboveThreshold instance
# where a (asked first) stayed below. Without query noise (the planted bug) that needs
# f'_b >= T_hat > f'_a, impossible on D' and of probability ~ 1/(2 sigma n) = 1/500 on D.

AUDIT_N, AUDIT_X, AUDIT_M = 160_000, 16, 200_000
AUDIT_ALPHA, AUDIT_EPS, AUDIT_DELTA = 0.9, 1.0, 1e-6


def audit_instance():
    queries = np.vstack([np.eye(AUDIT_X, dtype=bool), (np.arange(AUDIT_X) < 2)[None]])
    base = np.zeros(AUDIT_X, np.int64)
    base[0] = AUDIT_N // 16 + round(0.6 * AUDIT_N)  # 1/16 + T
    base[1] = AUDIT_N // 16
    rest = AUDIT_N - base.sum()
    base[2:] = rest // 14
    base[2:2 + rest % 14] += 1
    d, d2 = base.copy(), base.copy()
    d[1] += 1
    d[2] -= 1  # D' = D with one row replaced (moved from point 1 to point 2)
    return queries, d, d2


def boosts_b_not_a(res: PMWResult, eta: float):
    lw = np.log(res.synthetic)
    return (lw[:, 1] - lw[:, 2] > eta / 2) & (lw[:, 0] - lw[:, 1] < eta / 2)


def run_audit(params, seed):
    queries, d, d2 = audit_instance()
    rng = np.random.default_rng(seed)
    ra = pmw_run(np.broadcast_to(d, (AUDIT_M, AUDIT_X)), queries, params, rng)
    rb = pmw_run(np.broadcast_to(d2, (AUDIT_M, AUDIT_X)), queries, params, rng)
    out = {}
    for name, event in (("b_not_a", lambda r: boosts_b_not_a(r, params.eta)),
                        ("no_update", lambda r: r.updates == 0)):
        a, b = event(ra), event(rb)
        out[name] = (int(a.sum()), int(b.sum()),
                     epsilon_lower_bound(int(a.sum()), a.size, int(b.sum()), b.size, params.delta, CONF))
    return out


def audit_params():
    return pmw_parameters(AUDIT_N, AUDIT_X, AUDIT_X + 1, AUDIT_ALPHA, AUDIT_EPS, AUDIT_DELTA)


def test_audit_instance_is_as_described():
    queries, d, d2 = audit_instance()
    p = audit_params()
    assert d.sum() == d2.sum() == AUDIT_N and np.abs(d - d2).sum() == 2  # one row replaced
    assert p.cutoff == 124 and p.threshold == pytest.approx(0.6)
    f_a, f_b = d[0] / AUDIT_N - 1 / 16, (d[0] + d[1]) / AUDIT_N - 2 / 16
    assert f_a == pytest.approx(p.threshold, abs=1e-12)
    assert f_b - f_a == pytest.approx(1 / AUDIT_N)
    assert (d2[0] + d2[1]) / AUDIT_N - 2 / 16 == pytest.approx(f_a, abs=1e-12)


def test_pmw_audit_stays_below_epsilon():
    out = run_audit(audit_params(), seed=30)
    print("correct PMW: (hits D, hits D', eps_hat) per event:", out)
    for _, _, e in out.values():
        assert e <= AUDIT_EPS


def test_pmw_audit_catches_missing_query_noise():
    # planted bug: the comparisons f'_j + Lap(2 sigma) >= T_hat lose their Lap(2 sigma)
    buggy = dataclasses.replace(audit_params(), query_scale=0.0)
    out = run_audit(buggy, seed=30)
    print("PMW without query noise: (hits D, hits D', eps_hat) per event:", out)
    hits_d, hits_d2, e = out["b_not_a"]
    assert hits_d2 == 0  # impossible on D' without query noise
    assert e > AUDIT_EPS + 1.0  # caught with a clear margin


def test_accounting_constants():
    p = pmw_parameters(10_000, 64, 127, 0.3, 1.0, 1e-6)
    c, l2d = p.cutoff, math.log(2 / 1e-6)
    assert c == math.ceil(4 * math.log(64) / 0.1**2)
    assert p.eps_sparse + p.eps_numeric / 2 == pytest.approx(1.0)
    # sigma = 2 Delta / eps_AT (AboveThreshold), Delta = 1/n; the advanced-composition
    # first term is exactly eps1 / 2 and the whole bound stays within epsilon
    assert p.threshold_scale == pytest.approx(2 / (p.eps_above_threshold * 10_000))
    assert math.sqrt(2 * c * l2d) * p.eps_above_threshold == pytest.approx(p.eps_sparse / 2)
    assert advanced_composition(p.eps_above_threshold, c, 0.5e-6) <= p.eps_sparse
    assert p.epsilon_spent <= 1.0
    assert p.query_scale == 2 * p.threshold_scale
    # noise scales are in fraction units: they shrink like 1/n
    assert pmw_parameters(20_000, 64, 127, 0.3, 1.0, 1e-6).numeric_scale == pytest.approx(p.numeric_scale / 2)


# --- Accuracy ------------------------------------------------------------------------

ACC_X, ACC_ALPHA, ACC_BETA, ACC_EPS, ACC_DELTA = 16, 0.3, 0.1, 1.0, 1e-6


def accuracy_run(n, trials, seed):
    rng = np.random.default_rng(seed)
    queries = points_and_thresholds(ACC_X)
    p = np.exp(-0.4 * np.arange(ACC_X))
    hist = rng.multinomial(n, p / p.sum(), size=trials)
    res = pmw_sanitize(hist, queries, ACC_ALPHA, ACC_EPS, ACC_DELTA, rng)
    err = np.abs(res.answers - hist @ queries.T / n).max(axis=1)
    return err, res


def test_accurate_at_the_theorem_sample_size():
    n = pmw_sample_size(ACC_ALPHA, ACC_BETA, ACC_EPS, ACC_DELTA, ACC_X, 2 * ACC_X - 1)
    err, res = accuracy_run(n, 2000, seed=40)
    ok = int(np.sum(err <= ACC_ALPHA))
    low, _ = clopper_pearson(ok, err.size, CONF)
    print(f"n = {n}: {ok}/{err.size} within alpha, max error {err.max():.3f}, "
          f"updates mean {res.updates.mean():.1f} max {res.updates.max()}")
    assert low >= 1 - ACC_BETA
    assert np.all(res.updates <= pmw_parameters(n, ACC_X, 2 * ACC_X - 1, ACC_ALPHA, ACC_EPS, ACC_DELTA).cutoff)


def test_not_accurate_with_very_few_rows():
    err, _ = accuracy_run(50, 300, seed=41)
    ok = int(np.sum(err <= ACC_ALPHA))
    _, high = clopper_pearson(ok, err.size, CONF)
    print(f"n = 50: {ok}/{err.size} within alpha")
    assert high < 1 - ACC_BETA


def test_sample_size_matches_theorem_4_15():
    """source_only is Dwork-Roth Thm 4.15 solved for n, with k = 2|Q|(c + 1) queries in
    the stream (c + 1 passes) and c rounded up; the full value adds the numeric term."""
    a, X, Q, beta, eps, delta = 0.1, 256, 513, 0.05, 0.5, 1e-8
    p = pmw_parameters(1, X, Q, 3 * a, eps, delta)
    k = 2 * Q * (p.cutoff + 1)
    book = ((2 + 32 * math.sqrt(2)) * math.sqrt(math.log(X) * math.log(2 / delta))
            * (math.log(k) + math.log(16 * math.log(X) / (a**2 * beta))) / (eps * a**2))
    n_src = pmw_sample_size(3 * a, beta, eps, delta, X, Q, source_only=True)
    assert n_src == pytest.approx(book, rel=1e-3)
    assert pmw_sample_size(3 * a, beta, eps, delta, X, Q) >= n_src
    # the scaling of BNS Thm 2.19: ~ 1/eps, ~ sqrt(log 1/delta), ~ 1/alpha^2 up to logs
    assert pmw_sample_size(3 * a, beta, 2 * eps, delta, X, Q) == pytest.approx(
        pmw_sample_size(3 * a, beta, eps, delta, X, Q) / 2, rel=1e-6)


def test_large_n_is_numerically_safe():
    rng = np.random.default_rng(42)
    X = 256
    queries = points_and_thresholds(X)
    p = np.exp(-0.05 * np.arange(X))
    hist = rng.multinomial(10**7, p / p.sum(), size=20)
    res = pmw_sanitize(hist, queries, 0.3, 1.0, 1e-6, rng)
    assert np.all(np.isfinite(res.synthetic)) and np.all(res.synthetic > 0)
    np.testing.assert_allclose(res.synthetic.sum(axis=1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(res.answers, res.synthetic @ queries.T)
    assert np.abs(res.answers - hist @ queries.T / 10**7).max() <= 0.3


# --- Agreement with the book's sequential algorithm ------------------------------------

def reference_pmw(x, queries, p, rng):
    """Dwork-Roth OnlineMW via NumericSparse, written query by query for one trial, as a
    sanitizer (passes until one makes no update). x: the sample as a distribution."""
    A = np.full(x.size, 1.0 / x.size)
    T, c = p.threshold, p.cutoff
    state = {"thr": T + rng.laplace(0, p.threshold_scale), "count": 0}

    def numeric_sparse(value):
        if value + rng.laplace(0, p.query_scale) >= state["thr"]:
            state["count"] += 1
            state["thr"] = T + rng.laplace(0, p.threshold_scale)
            return value + rng.laplace(0, p.numeric_scale)
        return None

    updates = 0
    for _ in range(p.max_passes):
        changed = False
        for q in queries:
            fa, fx = A[q].sum(), x[q].sum()
            e1 = numeric_sparse(fx - fa)
            e2 = numeric_sparse(fa - fx) if state["count"] < c else None  # halted?
            if e1 is None and e2 is None:
                continue
            v = fa + e1 if e1 is not None else fa - e2
            r = q if v < fa else ~q
            A = A * np.exp(-p.eta * r)
            A /= A.sum()
            updates += 1
            changed = True
            if state["count"] >= c:
                return A, updates
        if not changed:
            break
    return A, updates


@pytest.mark.parametrize("n, hist", [
    (4000, [2600, 900, 300, 100, 50, 30, 10, 10]),  # a few updates, some in the wrong direction
    (40, [26, 9, 3, 1, 1, 0, 0, 0]),  # noise-driven: NumericSparse halts after c "above"s
])
def test_batched_run_matches_the_sequential_algorithm_in_distribution(n, hist):
    X, trials = 8, 1500
    queries = points_and_thresholds(X)
    hist = np.array(hist)
    p = pmw_parameters(n, X, queries.shape[0], 0.9, 1.0, 1e-6)
    rng = np.random.default_rng(50)
    ref = [reference_pmw(hist / n, queries, p, rng) for _ in range(trials)]
    ref_upd = np.array([u for _, u in ref])
    ref_syn = np.array([a for a, _ in ref])
    res = pmw_run(np.broadcast_to(hist, (trials, X)), queries, p, np.random.default_rng(51))
    print(f"n = {n}: updates (reference) {np.bincount(ref_upd)}; (batched) {np.bincount(res.updates)}")
    assert ref_upd.std() > 0.5  # the instance is noisy enough to be a real comparison
    top = max(ref_upd.max(), res.updates.max()) + 1
    table = np.array([np.bincount(ref_upd, minlength=top), np.bincount(res.updates, minlength=top)])
    table = table[:, table.sum(axis=0) > 0]
    assert stats.chi2_contingency(table)[1] > 1e-3
    for j in range(X):
        assert stats.ks_2samp(ref_syn[:, j], res.synthetic[:, j]).pvalue > 1e-4


# --- Determinism and inputs ------------------------------------------------------------

def test_same_seed_same_output():
    rng = np.random.default_rng(60)
    queries = points_and_thresholds(32)
    hist = rng.multinomial(5000, np.full(32, 1 / 32) + np.linspace(-0.02, 0.02, 32), size=100)
    r1 = pmw_sanitize(hist, queries, 0.5, 1.0, 1e-5, np.random.default_rng(7))
    r2 = pmw_sanitize(hist, queries, 0.5, 1.0, 1e-5, np.random.default_rng(7))
    r3 = pmw_sanitize(hist, queries, 0.5, 1.0, 1e-5, np.random.default_rng(8))
    for a, b in zip(r1, r2):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(r1.synthetic, r3.synthetic)
    assert r1.synthetic.shape == (100, 32) and r1.answers.shape == (100, 63) and r1.updates.shape == (100,)


def good_args():
    X = 16
    return dict(hist=np.full((3, X), 10), queries=points_and_thresholds(X), alpha=0.3, epsilon=1.0,
                delta=1e-6, rng=np.random.default_rng(0))


@pytest.mark.parametrize("name, change", [
    ("epsilon", dict(epsilon=-1.0)),
    ("epsilon", dict(epsilon=0.0)),
    ("epsilon", dict(epsilon=1e4, delta=0.5)),  # too large for advanced composition
    ("delta", dict(delta=0.0)),
    ("delta", dict(delta=1.0)),
    ("alpha", dict(alpha=0.0)),
    ("alpha", dict(alpha=1.5)),
    ("hist", dict(hist=-np.ones((3, 16), int))),
    ("hist", dict(hist=np.full((3, 16), 1.5))),
    ("hist", dict(hist=np.full(16, 10))),
    ("hist", dict(hist=np.vstack([np.full(16, 10), np.full(16, 11)]))),
    ("queries", dict(queries=np.ones((4, 16), int))),
    ("queries", dict(queries=np.ones((4, 15), bool))),
    ("domain_size", dict(hist=np.full((2, 1), 5), queries=np.ones((1, 1), bool))),
    ("rng", dict(rng=np.random.RandomState(0))),
])
def test_bad_inputs_raise_value_error_naming_the_parameter(name, change):
    args = good_args() | change
    with pytest.raises(ValueError) as info:
        pmw_sanitize(**args)
    msg = str(info.value)
    assert msg.startswith(name + " ") and "\n" not in msg


def test_sample_size_rejects_bad_beta():
    with pytest.raises(ValueError, match=r"^beta "):
        pmw_sample_size(0.3, 0.0, 1.0, 1e-6, 16, 31)


# --- the simulators' audit instances (engine/audit.py), as the engine runs them ------------

def run_audit_case(sim, name, seed):
    from privbounds.simulators.engine.audit import AUDIT_CONF, BUDGETS
    case = next(c for c in sim.audits() if c.name == name)
    found = []
    for i, budget in enumerate(BUDGETS):
        a, b = case.run(budget, case.trials, np.random.default_rng(seed + i))
        found.append(epsilon_lower_bound(a, case.trials, b, case.trials, case.delta, AUDIT_CONF))
    return case, found


def test_one_round_is_one_above_threshold_instance():
    from privbounds.simulators.bns.thm2_19 import BnsThm219, one_round, round_epsilon, threshold_queries
    a = BnsThm219.AUDIT_ROUND
    params = pmw_parameters(sum(a["hist"]), 8, 9, a["alpha"], a["epsilon"], a["delta"])
    assert params.cutoff == 533
    assert round_epsilon(params) == pytest.approx(params.eps_above_threshold + params.eps_numeric
                                                  / math.sqrt(32 * params.cutoff * math.log(2 / params.delta)))
    res = pmw_run(np.broadcast_to(np.array(a["hist"]), (20_000, 8)), threshold_queries(8), one_round(params),
                  np.random.default_rng(70))
    assert res.updates.max() == 1 and 0 < res.updates.mean() < 1


@pytest.mark.parametrize("sim_name", ["bns.thm2_19", "bns.lem3_6"])
def test_pmw_round_events_are_powered(sim_name):
    from privbounds.simulators.bns.thm2_19 import BnsThm219
    from privbounds.simulators.bns.thm3_1 import BnsLem36
    case, (declared, doubled) = run_audit_case(BnsThm219() if sim_name == "bns.thm2_19" else BnsLem36(),
                                               "pmw-round", 71)
    assert declared <= case.epsilon < doubled


@pytest.mark.parametrize("name", ["column-basic", "column-advanced"])
def test_alg2_pmw_events_are_powered(name):
    from privbounds.simulators.bns.thm3_1 import BnsLem36
    case, (declared, doubled) = run_audit_case(BnsLem36(), name, 73)
    assert declared <= case.epsilon < doubled


# --- the numeric answer's noise, measured (no audit instance can see it: thm2_19 docstring) --

def numeric_sign_pvalue(seed: int, trials: int = 20_000) -> float:
    """One PMW round (``one_round``) on X = {0, 1}, n = 10,000 rows, 9,500 at 0, at alpha =
    0.3, eps = 1, delta = 1e-6: the plus slot of the prefix [0, 1) is g = 0.45 against the
    threshold 2a = 0.2 and its Lap(0.075) comparison noise, so it is the first "above" in
    89% of the runs (its minus slot, at -0.45, practically never). The update it makes
    goes down exactly when its numeric answer g + Lap(b) is negative, probability
    exp(-g / b) / 2: the released direction measures b. Returns the two-sided binomial
    p-value of the down updates against the scale the module docstring declares,
    b = sqrt(32 c ln(2/delta)) / (eps2 n), computed here and not by the learner."""
    from privbounds.simulators.bns.thm2_19 import one_round, threshold_queries
    n, alpha, eps, delta = 10_000, 0.3, 1.0, 1e-6
    hist = np.array([9_500, 500])
    params = pmw_parameters(n, 2, 3, alpha, eps, delta)  # the learner's own constants, through its scale sites
    declared = math.sqrt(32 * params.cutoff * math.log(2 / delta)) / (2 / (SQRT512 + 1) * eps * n)
    res = pmw_run(np.broadcast_to(hist, (trials, 2)), threshold_queries(2), one_round(params),
                  np.random.default_rng(seed))
    lr = np.log(res.synthetic[:, 0] / res.synthetic[:, 1])
    up, down = int((lr > params.eta / 2).sum()), int((lr < -params.eta / 2).sum())
    return stats.binomtest(down, up + down, 0.5 * math.exp(-0.45 / declared)).pvalue


def test_numeric_answer_noise_has_the_declared_scale():
    """The numeric answer's noise has the declared scale (P[down] 0.173 at 20,000 runs),
    and halving it at its site (``pmw.numeric_answer_scale``, the harness's ``weakened``)
    makes the measured direction disagree (P[down] 0.059): what catches a bug there."""
    from privbounds.simulators.bns.thm2_19 import PMW_SOURCES
    from privbounds.simulators.engine.mutations import weakened

    assert numeric_sign_pvalue(80) >= 1e-3
    numeric = next(s for s in PMW_SOURCES if s.name == "numeric")
    with weakened(numeric) as calls:
        assert numeric_sign_pvalue(80) < 1e-3
    assert calls[0] > 0
