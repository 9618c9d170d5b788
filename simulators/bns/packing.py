"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts", Section 5
(examples where the direct sum is optimal, pure-DP packing bounds):

- Remark 5.2 (packing with accuracy): if two concepts differ at x0 and agree at x1, every
  eps-DP (alpha, beta)-accurate k-learner needs n >= (k ln 2 + ln(1/2 - beta)) /
  (4 alpha eps) (our explicit form, RECONSTRUCTED from the proof). Experiment: the proof's
  distribution P(x0) = 2 alpha, P(x1) = 1 - 2 alpha over POINT_d with x0 = 0, x1 = 1; a
  label vector v uniform in {0,1}^k, column j labelled by c_x0 if v_j = 1 and by a point
  concept outside {x0, x1} (0 at both) otherwise. Learner: the basic-composition direct
  sum of the exponential mechanism over POINT_d (eps/k per column; grouped sampler).
  Success: every h_j has error <= alpha under P, computed exactly:
  err(h_j) = 2 alpha [h_j(x0) != v_j] + (1 - 2 alpha) [h_j(x1) = 1]; for alpha < 1/3 this
  means h_j(x0) = v_j and h_j(x1) = 0. The success probability is a small exact sum
  (``accuracy_packing_success_exact``), from which the claims compute n_hat exactly.
- Theorem 5.4 (pure-DP parities): every eps-DP k-learner for PAR_d under the uniform
  distribution needs n >= (k d ln 2 + ln(1 - beta)) / eps. Experiment: the pure direct
  sum of Example 3.5 (``bns_ex3_5.BnsEx35``, reused as is) on a grid of d and k.
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from privbounds.params import EPSILON, Interval
from privbounds.simulators.bns.ex3_5 import BnsEx35
from privbounds.simulators.engine.audit import AuditCase
from privbounds.simulators.engine.simulator import Simulator, sweeps
from privbounds.simulators.shared.accuracy import within
from privbounds.simulators.shared.audits import expmech_columns_events
from privbounds.simulators.shared.concepts import make_class
from privbounds.simulators.shared.learners import chunks, expmech_learner_grouped


def accuracy_packing_trials(d, k, alpha, epsilon, n, trials, rng, eps0=None):
    """Remark 5.2's instance and the direct sum over POINT_d (eps0 = epsilon / k per column
    unless given; a larger eps0 is a planted privacy bug for tests). Returns, per trial,
    whether every h_j has error <= alpha under P(0) = 2 alpha, P(1) = 1 - 2 alpha."""
    cls = make_class("point", d)
    eps0 = epsilon / k if eps0 is None else eps0
    ok = np.empty(trials, dtype=bool)
    for sl in chunks(trials, 8 * k):
        b = sl.stop - sl.start
        v = rng.integers(0, 2, size=(b, k)).astype(bool)
        n0 = rng.binomial(n, 2 * alpha, size=b)
        support = np.broadcast_to(np.array([0, 1]), (b, 2))
        counts = np.stack([n0, n - n0], axis=1)
        labels = np.stack([v, np.zeros_like(v)], axis=1)                   # (b, 2, k)
        h = expmech_learner_grouped(cls, support, counts, labels, eps0, rng)
        err = 2 * alpha * ((h == 0) != v) + (1 - 2 * alpha) * (h == 1)
        ok[sl] = np.all(within(err, alpha), axis=1)
    return ok


def accuracy_packing_success_exact(row: dict) -> float:
    """Remark 5.2's instance: the exact success probability p(n) that
    ``accuracy_packing_trials`` estimates, at a row (the point with its n).

    Given n0 ~ Bin(n, 2 alpha) rows at x0 (n1 = n - n0 at x1), column j runs its own
    exponential mechanism (eps0 = eps / k, score -errors, sensitivity 1, s = eps0 / 2) over
    POINT_d: if v_j = 1, c_x0 errs on no row, c_x1 on all n and the G = 2^d - 2 others on
    the n0 at x0, so the column succeeds (h = c_x0) with P1 = 1 / (1 + e^(-s n) + G e^(-s n0));
    if v_j = 0, c_x0 errs on n0 rows, c_x1 on n1 and the G others on none, and success
    (h(x0) = h(x1) = 0) has P0 = G / (G + e^(-s n0) + e^(-s n1)). Given n0 the columns are
    independent and v uniform, so

        p(n) = sum over n0 of Bin(n0; n, 2 alpha) ((P1 + P0) / 2)^k,

    summed in logs (log-sum-exp). Only n0 within 20 sqrt(n) + 1 of n 2 alpha are summed:
    by Hoeffding the rest weigh at most 2 e^-800, below the smallest double, so the sum is
    the full one to double precision while costing O(sqrt(n)) at any n.

    p is nondecreasing in n (the exact n_hat's search relies on it): P1 and P0 are each
    nondecreasing in n0 and in n1 (a row at x0 or at x1 only lowers the weights of the
    wrong hypotheses), so ((P1 + P0) / 2)^k is too; n + 1 rows are n rows plus one more at
    x0 or x1, so p(n + 1) >= p(n)."""
    from scipy import stats  # here, not at import: see engine/stats.py:_stats

    d, k, n = int(row["d"]), int(row["k"]), int(row["n"])
    q, s = 2.0 * float(row["alpha"]), float(row["epsilon"]) / k / 2.0
    half = 20.0 * np.sqrt(n) + 1.0
    n0 = np.arange(max(0, int(np.floor(n * q - half))), min(n, int(np.ceil(n * q + half))) + 1)
    log_g = np.log(2.0 ** d - 2.0)
    log_p1 = -np.logaddexp(np.logaddexp(0.0, -s * n), log_g - s * n0)
    log_p0 = log_g - np.logaddexp(log_g, np.logaddexp(-s * n0, -s * (n - n0)))
    log_column = np.logaddexp(log_p1, log_p0) - np.log(2.0)
    # the log of binom.pmf (Boost's, accurate to a few ulps), not binom.logpmf, whose
    # log-gamma differences lose digits as n grows (p off by 4e-11 at n = 1e5, 3e-7 at 1e9);
    # the terms that underflow to 0 weigh below 1e-308
    with np.errstate(divide="ignore"):
        log_pmf = np.log(stats.binom.pmf(n0, n, q))
    return float(np.exp(logsumexp(log_pmf + k * log_column)))


class BnsRem52(Simulator):
    theorem_id = "bns.rem5_2"
    params = {
        "d": Interval(2, 12, "both", integer=True),
        "k": Interval(1, 4096, "both", integer=True),
        # alpha < 1/3: then h(x1) = 1 costs 1 - 2 alpha > alpha, so success is h(x0) = v_j
        # and h(x1) = 0, the events of the proof
        "alpha": Interval(0, 1 / 3, "neither"),
        "epsilon": EPSILON,
        "beta": Interval(0, 0.5, "neither"),
    }
    _ks = {"smoke": [1, 8], "quick": [1, 2, 4, 8, 16, 32, 64], "full": [1, 2, 4, 8, 16, 32, 64, 128]}
    _alphas = {"smoke": [0.1, 0.2], "quick": [0.05, 0.1, 0.2], "full": [0.05, 0.1, 0.2]}
    # the 1/alpha scaling is fitted at one k over a wider range of alpha
    K_FOR_ALPHA = 16
    _alphas_wide = {"smoke": [0.05, 0.1, 0.2], "quick": [0.025, 0.05, 0.1, 0.2, 0.3],
                    "full": [0.0125, 0.025, 0.05, 0.1, 0.2, 0.3]}

    def grid(self, fidelity, overrides):
        base = {"d": [4], "epsilon": [1.0], "beta": [0.1]}
        return sweeps({"k": self._ks[fidelity], "alpha": self._alphas[fidelity], **base},
                      {"k": [self.K_FOR_ALPHA], "alpha": self._alphas_wide[fidelity], **base}, overrides,
                      ("k", "alpha"))

    def privacy(self, point):
        return {"epsilon": point["epsilon"], "delta": 0.0,
                "accounting": "basic composition of k exponential mechanisms over POINT_d, eps/k each"}

    def n_range(self, point):
        return 1, 1 << 18

    def audits(self):
        """Remark 5.2's learner, the direct sum over POINT_d (basic composition, eps/k per
        column, the grouped sampler of ``accuracy_packing_trials``), on the worst case of
        the exponential mechanism (audits.expmech_columns_events): a one-row sample
        (x0, 0^k) versus (x0, 1^k), every column's score moving by 1, x0's hypothesis up
        and the other 2^d - 1 down. At d = 2 (q = 1/3 of the hypotheses against x0's) the
        event "every column outputs x0" loses about 0.75 eps (1.5 eps doubled) for any
        small k; k = 2, the smallest direct sum that splits the budget, gives the event the
        largest probability (0.126 on D' doubled; 0.032 at k = 3)."""
        k = 2
        return [AuditCase("direct-sum", f"direct sum of exponential mechanisms over POINT_2, k = {k} columns at "
                          f"eps/k = {1 / k:g} each", "one row (x0 = 0, label 0) versus (x0 = 0, label 1) in every "
                          "column", "every column outputs the point x0", 1.0, 0.0, expmech_columns_events,
                          {"cls_name": "point", "d": 2, "x0": 0, "k": k, "eps0": 1.0 / k}, trials=200_000)]

    def run_trials(self, point, n, trials, rng):
        return accuracy_packing_trials(point["d"], point["k"], point["alpha"], point["epsilon"], n, trials, rng)


class BnsThm54(BnsEx35):
    """Theorem 5.4 measured on Example 3.5's learner: the same trials, a grid of d and k."""

    theorem_id = "bns.thm5_4"
    _ks = {"smoke": [1, 8], "quick": [1, 2, 4, 8, 16, 32, 64], "full": [1, 2, 4, 8, 16, 32, 64]}
    _ds = {"smoke": [4, 6], "quick": [4, 6, 8], "full": [4, 6, 8]}
    # the growth in d is fitted at one k over a wider range of d than the k grid's; k = 4
    # keeps the d = 9, 10 points cheap and the additive ln(2k/beta) small next to d ln 2
    K_FOR_D = 4
    _ds_wide = {"smoke": [4, 6, 8], "quick": [2, 3, 4, 5, 6, 7, 8, 9, 10], "full": [2, 3, 4, 5, 6, 7, 8, 9, 10]}

    def n_range(self, point):
        # start the doubling at n = k rather than 2: still below the bound k d ln 2 / eps by
        # a factor >= d ln 2 (so a learner beating the bound would show), and it spares the
        # costliest points (d = 8, k = 64: 0.4 s per n at quick) five hopeless evaluations
        return max(2, point["k"]), 1 << 20

    def grid(self, fidelity, overrides):
        base = {"epsilon": [1.0], "alpha": [0.1], "beta": [0.1]}
        return sweeps({"d": self._ds[fidelity], "k": self._ks[fidelity], **base},
                      {"d": self._ds_wide[fidelity], "k": [self.K_FOR_D], **base}, overrides, ("d", "k"))
