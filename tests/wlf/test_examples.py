"""Thresholds and examples of Wang, Lei, Fienberg (Prop 12, Thm 15, Ex 16, 17, 21, 22, 24,
Prop 26): samplers against brute force, exact privacy against an independent computation,
bad input, Definitions 3 and 13 as checkers, and planted bugs caught."""

import math

import numpy as np
import pytest

from privbounds.bounds import wlf as wb
from privbounds.params import ParameterError
from privbounds.registry.wlf.examples import is_d_learnable_run, is_privately_learnable_run
from privbounds.simulators.engine.audit import epsilon_lower_bound
from privbounds.simulators.wlf import lipschitz as L
from privbounds.simulators.wlf import subset as S
from privbounds.simulators.wlf import support as SP
from privbounds.simulators.wlf import thresholds as T


def test_interval_errors_and_probabilities_match_brute_force():
    rng = np.random.default_rng(0)
    x = np.sort(rng.random((4, 7)), axis=1)
    lab = rng.integers(0, 2, (4, 7))
    errs = T.interval_errors(lab)
    hs = np.linspace(0, 1, 20001)[:-1] + 2.5e-5
    for r in range(4):
        err_h = ((x[r][None, :] > hs[:, None]).astype(int) != lab[r][None, :]).sum(1)
        w = np.exp(-1.0 * err_h / 4)  # Alg 1 at eps = 1, Delta q = 2/n, on a fine uniform grid of h
        j = np.searchsorted(x[r], hs, side="right")
        brute = np.bincount(j, weights=w, minlength=8) / w.sum()
        logp = T.interval_log_probs(T.interval_log_lengths(x[r:r + 1], np.zeros(1), 0.0), errs[r:r + 1], 7, 1.0)
        assert np.all(errs[r, j] == err_h)
        assert np.allclose(np.exp(logp[0]), brute, atol=2e-4)


def test_tiny_windows_in_log_space():
    rng = np.random.default_rng(1)
    u, lab, c = T.cluster_data(20, 3, rng)
    g40 = T.cluster_aerm_gap(u, lab, 40, 1.0, c)
    g1000 = T.cluster_aerm_gap(u, lab, 1000, 1.0, c)  # w = 10^-1000: no float could hold it
    assert np.all(np.isfinite(g1000)) and np.allclose(g1000, 0.5) and np.all(g40 <= 0.5 + 1e-12)
    # the outside of the window errs on half the points: gap = (1/2) P(outside) + inside part
    assert np.all(T.cluster_aerm_gap(u, lab, 1, 1.0, c) < g40 - 0.05)


def test_mean_risk_against_numerical_average():
    t, a, b = np.array([0.4]), np.array([0.3]), np.array([0.5])
    for lo, hi in [(0.0, 0.35), (0.35, 0.45), (0.41, 0.9)]:
        hs = np.linspace(lo, hi, 100001)
        brute = np.abs(np.clip((hs - a) / (b - a), 0, 1) - 0.5).mean()
        assert T.mean_risk(np.array([lo]), np.array([hi]), t, a, b)[0] == pytest.approx(brute, abs=1e-5)


def test_cover_errors_match_brute_force():
    rng = np.random.default_rng(2)
    x = np.sort(rng.random((3, 9)), axis=1)
    lab = rng.integers(0, 2, (3, 9))
    cover = np.linspace(0, 1, 13)
    got = T.cover_errors(x, lab, cover)
    brute = ((x[:, None, :] > cover[None, :, None]).astype(int) != lab[:, None, :]).sum(-1)
    assert np.array_equal(got, brute)


def _exact_log_ratio_interval(eps, n=3, a=0.25, top=0.99):
    """Independent computation of the interval audit's event probabilities."""
    out = []
    for lab in (0, 1):
        # h < a: errs on the changed row iff its label is 0; a <= h < top: errs iff label 1; h >= top: errs on all 1s
        w = [a * math.exp(-eps * (1 - lab) / 4), (top - a) * math.exp(-eps * lab / 4),
             (1 - top) * math.exp(-eps * (n - 1 + lab) / 4)]
        out.append(w[0] / sum(w))
    return math.log(out[1] / out[0])


def test_interval_audit_exact_and_powered():
    assert _exact_log_ratio_interval(2.0) == pytest.approx(0.744, abs=2e-3) and _exact_log_ratio_interval(2.0) < 1
    assert _exact_log_ratio_interval(4.0) > 1.4
    rng = np.random.default_rng(3)
    a, b = T.interval_events(2, 100_000, rng)
    assert epsilon_lower_bound(a.sum(), a.size, b.sum(), b.size, 0, 0.999) > 1.0


def test_planted_bug_counting_measure_on_intervals_breaks_the_floor():
    """Alg 1 that weights every interval alike (no Lebesgue lengths) is not private on [0, 1];
    on tiny windows it finds the zero-error interval and its gap drops under the DP floor."""
    rng = np.random.default_rng(4)
    u, lab, _ = T.cluster_data(20, 5, rng)
    errs = T.interval_errors(lab)
    logp = T.interval_log_probs(np.zeros_like(errs, float), errs, 20, 1.0)
    bad_gap = T.aerm_gap(logp, errs, 20)
    assert np.all(bad_gap < float(wb.wlf_thr_dp_gap_floor(20, 0.5, 40)))


def test_grid_sampler_audit_and_loss_range():
    rng = np.random.default_rng(5)
    a, b = L.grid_events(2, 400_000, rng)
    assert epsilon_lower_bound(a.sum(), a.size, b.sum(), b.size, 0, 0.999) > 1.0
    a, b = L.grid_events(1, 400_000, rng)
    assert epsilon_lower_bound(a.sum(), a.size, b.sum(), b.size, 0, 0.999) <= 1.0
    with pytest.raises(ParameterError, match="loss must take values in \\[0, 1\\].*loss scale"):
        L.check_loss_range(np.array([0.2, 1.7]))


def test_coarse_grid_is_refused_with_one_line():
    sim = L.WlfEx21()
    with pytest.raises(ParameterError, match="^grid must be >= ") as err:
        sim.points("quick", {"grid": [20]})
    assert "\n" not in str(err.value)


def test_grid_excess_risk_matches_brute_force():
    rng = np.random.default_rng(6)
    counts = L.sample_histograms(1, 2.0, 50, 2, rng)
    table = L.loss_table(1, 2.0, 426)
    emp = counts @ table / 50
    w = np.exp(-0.5 * 50 * emp / 4 - (-0.5 * 50 * emp / 4).max(1, keepdims=True))
    p = w / w.sum(1, keepdims=True)
    brute = p @ L.risk(L.grid_points(1, 2.0, 426), 1, 2.0) - L.best_risk(1, 2.0)
    assert np.allclose(L.grid_excess_risk(counts, 1, 2.0, 426, 50, 0.5), brute)


def test_metropolis_kernel_keeps_target_and_matches_sampled_chains():
    rng = np.random.default_rng(7)
    counts = L.sample_histograms(2, 2.0, 30, 1, rng)
    logpi = L.grid_log_probs(counts, L.loss_table(2, 2.0, 9), 30, 1.0).reshape(1, 9, 9)
    kernel = L.metropolis_kernel(logpi)
    pi = np.exp(logpi)
    assert np.allclose(L.metropolis_step(pi, kernel), pi, atol=1e-12)  # stationary
    prob = np.zeros_like(pi)
    prob[0, 0, 0] = 1
    for _ in range(15):
        prob = L.metropolis_step(prob, kernel)
    pos = L.metropolis_chains(logpi[0], (0, 0), 15, 40_000, rng)
    emp = np.bincount(pos[:, 0] * 9 + pos[:, 1], minlength=81) / 40_000
    assert 0.5 * np.abs(emp - prob.ravel()).sum() < 0.03


def test_two_stage_histograms_match_rows_and_audits_are_powered():
    rng = np.random.default_rng(8)
    n, d = 300, 3
    x = rng.choice([-1.0, 1.0], size=(n, d))
    y = S.A * x[:, 0] + S.SIGMA * rng.normal(size=n)
    log_j, log_t = S.two_stage_rows(x, y, 16, 1.0, 1.0)
    v = x * np.clip(np.round(y / S.STEP) * S.STEP, -S.CLIP, S.CLIP)[:, None]
    idx = np.round((v - S.BINS[0]) / S.STEP).astype(int)
    counts = np.stack([np.bincount(idx[:, j], minlength=S.BINS.size) for j in range(d)])[None]
    emp = counts @ S.clipped_square(S.BINS[:, None], S.t_grid(16)[None, :]) / n
    lj2, lt2 = S.two_stage_log_probs(emp, n, 1.0, 1.0)
    assert np.allclose(lj2[0], log_j) and np.allclose(lt2[0], log_t)
    for stage in ("select", "line"):
        a, b = S.two_stage_events(2, 200_000, rng, stage=stage)
        assert epsilon_lower_bound(a.sum(), a.size, b.sum(), b.size, 0, 0.999) > 1.0


def test_line_risk_against_monte_carlo():
    rng = np.random.default_rng(9)
    xs = rng.choice([-1, 1], size=(400_000, 2))
    y = S.A * xs[:, 0] + S.SIGMA * rng.normal(size=400_000)
    t = np.array([0.3, 0.8])
    mc = [[S.clipped_square(xs[:, j] * y, tt).mean() for tt in t] for j in range(2)]
    assert np.allclose(S.line_risk(t, 2), mc, atol=3e-3)


def test_missing_mass_and_ex17_rows():
    p = SP.atom_masses("zipf", 5)
    counts = np.array([[3, 0, 1, 0, 0]])
    assert SP.missing_mass(p, counts)[0] == pytest.approx(p[1] + p[3] + p[4])
    rng = np.random.default_rng(10)
    assert np.all(SP.support_erm_risk(SP.atom_masses("uniform", 30), 10, 50, rng) >= 2 / 3 - 1e-12)
    z = rng.random((4, 50))
    for learner in ("empty", "support_erm"):
        for q in ("risk", "empirical_risk", "aerm_gap", "generalisation_gap"):
            assert np.all(SP.ex17_row(learner, q, z) == wb.wlf_ex17_value(learner, q))


def test_definitions_3_and_13_as_checkers():
    falling = {"uniform": {10: 0.3, 100: 0.1}, "cluster": {10: 0.4, 100: 0.2}}
    stuck = {"uniform": {10: 0.3, 100: 0.1}, "point mass": {10: 0.5, 100: 0.5}}
    assert is_d_learnable_run(falling)
    assert not is_d_learnable_run(stuck)  # one distribution of the family is not learned
    assert is_privately_learnable_run(falling, {10: 1.0, 100: 0.5})
    assert not is_privately_learnable_run(falling, {10: 1.0, 100: float("inf")})


def test_planted_wrong_formula_fails_its_claim():
    """The paper's printed Prop 12 level (0.9) is refuted by Alg 1's own worst case."""
    from privbounds.claims import REFUTED, MeanBound

    row = {"experiment": "mean", "n": 20, "mean": 0.5, "sd": 1e-9, "trials": 30, "max": 0.5, "min": 0.5,
           "epsilon": 1.0}
    printed = MeanBound("x", "printed 0.9", lambda p: True, (), upper=False, bound=lambda p: 0.9)
    assert printed.evaluate([], [row])["verdict"] == REFUTED
