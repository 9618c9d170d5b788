"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts",
Theorem 3.13 with Algorithm 5: POINT_X can be PAC k-learned (realizable) with
(eps, delta)-DP from O(ln(1/(alpha beta delta)) / (alpha eps)) rows, independent of both
k and |X|.

Experiment (ours): P is a mixture of 4 points of mass 0.15 (> alpha, so every
target there must be learned), 8 points of mass 0.025 (< alpha, on the edge of the
heavy threshold 3 alpha / 8) and a uniform tail of mass 0.2 over X. Each of the k
targets is, with probability 1/2, one of the 12 support points, else a uniform point of
X (almost surely light), so both branches of step 5 are exercised. Labels are
noiseless. Success: A_dist does not output bottom and every hypothesis has
error_P(h_j, c_j) <= alpha, computed exactly from P (h_j is the point at a heavy x whose
released label vector has a 1 in coordinate j, else the constant 0).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from privbounds.params import APPROX_DELTA, BETA, EPS_MIN, Interval, ParameterError
from privbounds.simulators.bns.audit_stability import (
    ADIST_CATCHES,
    ALG1_CATCHES,
    alg5_point_events,
    alg5_whole_case,
)
from privbounds.simulators.bns.stability import alg5_points
from privbounds.simulators.engine.audit import AuditCase
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.shared.accuracy import within
from privbounds.simulators.shared.learners import chunks

HEAVY_MASS, N_HEAVY = 0.15, 4
MEDIUM_MASS, N_MEDIUM = 0.025, 8
TAIL_MASS = 1.0 - HEAVY_MASS * N_HEAVY - MEDIUM_MASS * N_MEDIUM
MASSES = np.r_[np.full(N_HEAVY, HEAVY_MASS), np.full(N_MEDIUM, MEDIUM_MASS)]


def draw_instance(domain_size, n, k, b, rng):
    """b trials of the instance: (support (b, m), rows x (b, n), targets (b, k)). The m
    support points are a random arithmetic progression with odd step (odd steps are
    invertible modulo 2^d, so the points are distinct); rows come from the mixture; a
    target is a support point w.p. 1/2, else a uniform point of X."""
    X, m = domain_size, MASSES.size
    start = rng.integers(0, X, size=(b, 1))
    step = 2 * rng.integers(0, X // 2, size=(b, 1)) + 1
    support = (start + step * np.arange(m)) % X
    comp = rng.choice(m + 1, size=(b, n), p=np.r_[MASSES, TAIL_MASS])
    tail = rng.integers(0, X, size=(b, n))
    x = np.where(comp < m, np.take_along_axis(support, np.minimum(comp, m - 1), axis=1), tail)
    on_support = rng.random((b, k)) < 0.5
    targets = np.where(on_support, np.take_along_axis(support, rng.integers(0, m, size=(b, k)), axis=1),
                       rng.integers(0, X, size=(b, k)))
    return support, x, targets


def target_keys(x, targets, domain_size):
    """Hash key of every row's label vector (1[x_i = t_j])_j without building the (n x k)
    label matrix: the sum of fixed odd multipliers of the columns j whose target is x_i
    (0 for the all-zero vector)."""
    B, k = targets.shape
    mult = (np.arange(1, k + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)) | np.uint64(1)
    code = (np.arange(B)[:, None] * domain_size + targets).ravel()
    order = np.argsort(code, kind="stable")
    sc = code[order]
    first = np.flatnonzero(np.r_[True, sc[1:] != sc[:-1]])
    sums = np.add.reduceat(np.tile(mult, B)[order], first)
    uniq = sc[first]
    rows = (np.arange(B)[:, None] * domain_size + x).ravel()
    pos = np.minimum(np.searchsorted(uniq, rows), uniq.size - 1)
    return np.where(uniq[pos] == rows, sums[pos], np.uint64(0)).reshape(x.shape)


def heavy_targets(trial, point, targets, domain_size):
    """Which targets (B, k) are among the heavy points (flat ``trial``, ``point`` arrays)
    whose released label vector has a 1 at the target's column: with realizable labels,
    a heavy x has a 1 at column j exactly when x = t_j, so h_j is the point t_j itself."""
    B = targets.shape[0]
    heavy_code = np.sort(trial * domain_size + point)
    tc = np.arange(B)[:, None] * domain_size + targets
    if not heavy_code.size:
        return np.zeros(targets.shape, bool)
    pos = np.minimum(np.searchsorted(heavy_code, tc), heavy_code.size - 1)
    return heavy_code[pos] == tc


class BnsThm313(Simulator):
    theorem_id = "bns.thm3_13"
    params = {
        "d": Interval(5, 30, "both", integer=True),
        "k": Interval(1, 1 << 16, "both", integer=True),
        "alpha": Interval(HEAVY_MASS / 4, HEAVY_MASS, "neither"),
        "epsilon": Interval(EPS_MIN, 2, "both"),
        "delta": APPROX_DELTA,
        "beta": BETA,
    }
    _ks = {"smoke": [1, 64, 4096], "quick": [1, 4, 16, 64, 256, 1024, 4096],
           "full": [1, 4, 16, 64, 256, 1024, 4096]}

    def grid(self, fidelity, overrides):
        return expand({"d": [10, 16], "k": self._ks[fidelity], "alpha": [0.1], "epsilon": [1.0],
                       "delta": [1e-6], "beta": [0.1]}, overrides)

    def check_point(self, point):
        super().check_point(point)
        # A_dist runs at eps/2, and its delta bound needs eps/2 <= 2 ln 2 (params: eps <= 2)
        self.require_small_delta(point)
        if 2 ** point["d"] < 4 * (N_HEAVY + N_MEDIUM):
            raise ParameterError(f"d must leave room for the {N_HEAVY + N_MEDIUM} support points, got {point['d']}")

    def privacy(self, point):
        return {"epsilon": point["epsilon"], "delta": point["delta"],
                "accounting": "basic composition: Alg 1 and A_dist at (eps/2, delta/2) each"}

    unaudited = {
        "Alg 1's delta inside Algorithm 5 (a point's count going from 0 to 1)": (
            "an unseen point that gains a row is released by Alg 1 with probability (1/2) e^(-(tau - 1) eps_1 / 2) "
            "= delta_1 / 4 (eps_1 = eps/2, delta_1 = delta/2, tau = 1 + (2/eps_1) ln(2/delta_1)); doubling eps_1 "
            "halves the noise and the threshold together and leaves it at delta_1 / 4 exactly (1.25e-7 at delta = "
            "1e-6), below the declared delta_1, so a doubled-budget bug cannot show on this event. Alg 1's eps share "
            "is in privacy-alg5-whole."),
    }

    def audits(self):
        """Algorithm 5 (Thm 3.13) is (eps, delta)-DP by basic composition of Alg 1 and
        A_dist at (eps/2, delta/2) each (audit_stability.py).

        alg5-whole: the whole algorithm at eps = 2, on an instance where one moved row
        costs both parts at once (Alg 1's two counts, A_dist's gap), 5/8 eps in all, 5/4
        eps doubled: the only way its eps-type loss can pass eps under the doubled budget
        (``alg5_whole_case`` says why eps = 2: half the rows, twice the margin).
        alg5-adist-delta: A_dist's delta half, which no eps-type event sees. One point of
        20 rows (heavy whatever the noise), label vector 2 on 11 rows and 1 on 9 (gap 2)
        versus 10 and 10 (one row relabelled, the count unchanged, so Alg 1 sees nothing;
        the tie goes to the smaller key 1): {vector 2 released} has probability
        (delta/2) e^(eps/4) / 2 on D and none on D'. Its power needs A_dist's eps/2 doubled
        above 2 ln 2, so it runs at eps = 2 (the largest eps of the parameters; doubled,
        A_dist releases with probability 1.36 x delta/2), and delta = 0.04 (< 1/20) makes
        delta x trials large enough. It declares A_dist's share (eps/2, delta/2): the
        whole's delta is twice that and no event of A_dist alone reaches it."""
        eps_d, delta_d, m = 2.0, 0.04, 10
        return [
            dataclasses.replace(alg5_whole_case(), uncaught={
                "sanitizer": "its counts (14 rows) sit at Alg 1's and A_dist's thresholds for the doubled budget "
                             "(about twice as high as declared), so as declared E has probability 0.0020 on D "
                             "(234 of 120,000) against delta = 0.0018: eps_hat -inf, clean and with Alg 1's noise "
                             f"alone halved (its threshold kept); {ALG1_CATCHES}"}),
            AuditCase("alg5-adist-delta", f"Algorithm 5 at eps = {eps_d:g}, delta = {delta_d:g}, alpha = 0.1: its "
                      "A_dist at (eps/2, delta/2), whose top solution changes between neighbours",
                      f"one point of {2 * m} rows with label vector 2 on {m + 1} and 1 on {m - 1} versus {m} and "
                      f"{m} (one row relabelled; the tie goes to vector 1)", "vector 2 is released at the point",
                      eps_d / 2, delta_d / 2, alg5_point_events,
                      {"epsilon": eps_d, "delta": delta_d, "alpha": 0.1, "votes_d": [[2, m + 1], [1, m - 1]],
                       "votes_d2": [[2, m], [1, m]], "event": "release-first"}, trials=200_000,
                      uncaught={
                          "adist": "a delta event: the declared budget never shows it (3,227 of 200,000 runs on D "
                                   "release vector 2, 0.016 < delta/2 = 0.02, D' never), and the gap noise halved "
                                   f"with the threshold kept releases it less often; {ADIST_CATCHES}",
                          "sanitizer": f"a delta event: the declared budget never shows it (the point's {2 * m} "
                                       "rows are heavy whatever Alg 1's noise, 3,227 of 200,000 releases on D "
                                       f"against delta/2 = 0.02); {ALG1_CATCHES}"}),
        ]

    def n_range(self, point):
        return 8, 1 << 17

    def run_trials(self, point, n, trials, rng):
        X, k, alpha = 2 ** point["d"], point["k"], point["alpha"]
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 4 * (n + k)):
            b = sl.stop - sl.start
            support, x, targets = draw_instance(X, n, k, b, rng)
            keys = target_keys(x, targets, X)
            released, (ht, hx, hrow) = alg5_points(x, keys, alpha, point["epsilon"], point["delta"], rng)
            # h_j = the heavy x whose released label vector (that of row hrow) has a 1 at j;
            # the row's label j is 1[x_row = t_j], so that x is t_j itself, if t_j is heavy
            covered = heavy_targets(ht, x[ht, hrow], targets, X)
            mass = np.full((b, k), TAIL_MASS / X)       # exact P(t_j)
            for i in range(MASSES.size):
                mass += np.where(targets == support[:, i:i + 1], MASSES[i], 0.0)
            err = np.where(covered, 0.0, mass)   # uncovered: h_j = 0 errs exactly on t_j
            ok[sl] = released & np.all(within(err, alpha), axis=1)
        return ok
