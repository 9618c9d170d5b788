"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts":

- Corollary 3.4 (direct sum for any finite C, here POINT_X): the exponential mechanism
  over all of C on each column (Obs 3.2 over Thm 2.22) agnostically and properly
  k-learns with n = O((ln|C| + ln(k/beta))(k/(alpha eps) + 1/alpha^2)) under pure
  privacy, and with sqrt(k ln(1/delta)) in place of k under approximate privacy. Unlike
  Algorithm 2 (Cor 3.9) it pays ln|C| = ln|X|.
- Corollary 3.3 (POINT, improper, pure): the direct sum over an improper point learner
  whose cost does not depend on |X|. The paper imports that learner (probabilistic
  representations); we run an implementable SUBSTITUTE of ours: per column, a fresh
  public random hash g: X -> [M], M = ceil(2/(alpha beta0)), beta0 = beta/k, and the
  exponential mechanism (eps/k) over the M bucket hypotheses 1[g(x) = b] and the
  constant 0.

Both run on the agnostic POINT instance of bns.cor3_9 (32 support points, label noise
0.1), so the three corollaries can be compared on one instance. Hypotheses that agree
on the whole sample share one score and are sampled as a group (Gumbel-max with log
weights): the |X| - 32 point concepts outside the support for Cor 3.4, the buckets with
no support point together with the constant 0 for Cor 3.3. The excess error of a
group member is the same for all members except the target itself, whose chance of
being drawn is accounted exactly.

Privacy audits (engine/audit.py; ``point_columns_events``, ``hash_columns_events``).
Both learners are the exponential mechanism per column, so their worst case is a row
at a point x0 whose labels flip: the hypotheses labelling x0 with 1 (point(x0), or
x0's bucket) gain 1 in score and all others lose 1. With G competitors of equal score
(|X| - 1 other points, or M buckets and the constant 0) and a lead s of x0's
hypothesis, one column picks it with probability p = 1 / (1 + G e^(-eps0 s / 2)), and
the log-ratio of that event between D and D' is eps0 - ln(1 + p (e^eps0 - 1)): close to
eps0 only while p is small, yet k columns together show it only on events of
probability about p^k. The instances below are n rows at x0, n - 1 or all of them
labelled 1 in every column, with n chosen so that p is a few tenths at the doubled
budget (the power check) for the whole learner at k = 4, and about 0.1 for a single
column of the advanced split.
"""

from __future__ import annotations

import numpy as np

from privbounds.bounds.tools import COMPOSITION_RULES, per_concept_epsilon
from privbounds.params import ParameterError
from privbounds.simulators.bns.cor3_9 import MASSES, NOISE, point_instance
from privbounds.simulators.bns.specs import k_learner_params
from privbounds.simulators.engine.audit import AuditCase, NoiseSource, noise_sources
from privbounds.simulators.engine.simulator import Simulator, sweeps
from privbounds.simulators.shared.accuracy import within
from privbounds.simulators.shared.learners import chunks
from privbounds.simulators.shared.mechanisms import exponential_mechanism

DELTA = 1e-8


def _mass(x, support):
    return np.sum(np.where(support[:, None, :] == x[:, :, None], MASSES, 0.0), axis=-1)


def direct_sum_points(support, counts, positives, domain_size, eps0, rng):
    """Exponential mechanism over all of POINT_X per column. Returns (slot (B, k), index
    of the chosen support point or m for "a point outside the support", which is a
    uniform member of that group)."""
    B, k, m = positives.shape
    err = np.concatenate([counts[:, None, :] - 2.0 * positives, np.zeros((B, k, 1))], axis=-1)
    log_w = np.r_[np.zeros(m), np.log(domain_size - m)]
    return exponential_mechanism(-err, eps0, rng, log_weight=log_w)


def hash_learner(counts, positives, n_buckets, eps0, rng):
    """Cor 3.3's substitute learner per column: hash the support points to buckets
    (fresh, public, data-independent), score each occupied bucket by its errors and
    sample with the exponential mechanism; "empty bucket or constant 0" is one group of
    n_buckets - occupied + 1 equal-score hypotheses. Returns (g (B, k, m) bucket of each
    support point, choice (B, k): a support slot whose bucket is chosen, or m)."""
    B, k, m = positives.shape
    g = rng.integers(0, n_buckets, size=(B, k, m))
    same = g[..., :, None] == g[..., None, :]                                # (B, k, m, m)
    e = counts[:, None, :] - 2.0 * positives                                 # error minus P_j
    bucket_err = np.einsum("bkuv,bkv->bku", same, e)
    first = ~np.any(same & np.tri(m, k=-1, dtype=bool), axis=-1)           # first member of its bucket
    occupied = first.sum(axis=-1)
    err = np.concatenate([bucket_err, np.zeros((B, k, 1))], axis=-1)
    log_w = np.concatenate([np.where(first, 0.0, -np.inf),
                            np.log(n_buckets - occupied + 1.0)[..., None]], axis=-1)
    return g, exponential_mechanism(-err, eps0, rng, log_weight=log_w)


def n_buckets(alpha, beta, k):
    return int(np.ceil(2.0 / (alpha * beta / k)))


@noise_sources(NoiseSource("columns", "expmech", "privbounds.simulators.bns.cor3_4:direct_sum_points",
                           param="epsilon", arg="eps0",
                           what="each column's exponential mechanism, at eps0"))
def point_columns_events(budget, trials, rng, d, k, eps0, rows, positives, reveal=None):
    """Audit of ``direct_sum_points`` (Cor 3.4 / Thm 2.22) on k label columns of ``rows``
    rows at x0 = 0 of POINT_(2^d): D has ``positives`` of them labelled 1 in every column,
    D' one more (one row's k labels flip from 0 to 1). E = {at least ``reveal`` (default:
    all k) columns choose point(x0)}. Each column runs at eps0 * budget."""
    need = k if reveal is None else reveal
    out = []
    for extra in (0, 1):
        hits = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 4 * k):
            b = sl.stop - sl.start
            support = np.zeros((b, 1), dtype=np.int64)
            counts = np.full((b, 1), float(rows))
            pos = np.full((b, k, 1), float(positives + extra))
            slot = direct_sum_points(support, counts, pos, 2 ** d, eps0 * budget, rng)
            hits[sl] = np.sum(slot == 0, axis=1) >= need
        out.append(hits)
    return out[0], out[1]


@noise_sources(NoiseSource("columns", "expmech", "privbounds.simulators.bns.cor3_4:hash_learner",
                           param="epsilon", arg="eps0",
                           what="each column's exponential mechanism over buckets, at eps0"))
def hash_columns_events(budget, trials, rng, k, buckets, eps0, rows, positives, reveal=None):
    """Audit of ``hash_learner`` (Cor 3.3's substitute) on the instance of
    ``point_columns_events``: ``rows`` rows at one point x0, ``positives`` (D) or one more
    (D') labelled 1 in every column; E = {at least ``reveal`` (default: all k) columns
    choose x0's bucket}. The hash is public data: both sides draw it the same way, and
    with one support point it only names x0's bucket (the other ``buckets`` - 1 buckets
    and the constant 0 form the competing group either way)."""
    need = k if reveal is None else reveal
    out = []
    for extra in (0, 1):
        hits = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 8 * k):
            b = sl.stop - sl.start
            counts = np.full((b, 1), float(rows))
            pos = np.full((b, k, 1), float(positives + extra))
            _, choice = hash_learner(counts, pos, buckets, eps0 * budget, rng)
            hits[sl] = np.sum(choice == 0, axis=1) >= need
        out.append(hits)
    return out[0], out[1]


def _at_x0(rows):
    """D versus D' of the audits: ``rows`` rows at x0, the last one's labels flipped."""
    if rows == 1:
        return "one row (x0 = 0, label 0) versus (x0 = 0, label 1) in every column"
    return (f"{rows} rows at x0 = 0, {rows - 1} labelled 1 in every column and one labelled 0, versus that row "
            "labelled 1 too")


class _PointDirectSum(Simulator):
    params = k_learner_params(6, 30, 1 << 12)
    K_FOR_X = 16

    def n_range(self, point):
        return 8, 1 << 22

    def check_point(self, point):
        super().check_point(point)
        if point["rule"] == "advanced":
            self.require_small_delta(point)

    def privacy(self, point):
        if point["rule"] == "basic":
            return {"epsilon": point["epsilon"], "delta": 0.0,
                    "accounting": "basic composition of k exponential mechanisms, eps/k each (pure)"}
        return {"epsilon": point["epsilon"], "delta": point["delta"],
                "accounting": "advanced composition of k exponential mechanisms (Dwork-Roth Thm 3.20)"}


class BnsCor34(_PointDirectSum):
    theorem_id = "bns.cor3_4"
    _ks = {"smoke": [1, 16], "quick": [1, 4, 16, 32, 64, 128, 256], "full": [1, 2, 4, 8, 16, 32, 64, 128, 256]}
    _ds = {"smoke": [8, 16], "quick": [6, 10, 14, 18, 22], "full": [6, 8, 10, 12, 14, 16, 18, 20, 22]}

    unaudited = {
        "the advanced-composition direct sum as a whole": (
            "no instance has power: at k = 4 and delta = 1e-8 the split gives eps0 = 0.080 per column, so even "
            "with a doubled budget the 4 columns lose at most 4 x 0.160 = 0.64 < eps = 1, and at the grid's "
            "larger k (up to 256, eps0 down to 0.010) their loss shows only on events far too rare to observe. Its "
            "columns are audited one by one (privacy-column-advanced); the composition is Dwork-Roth Thm 3.20."),
    }

    def audits(self):
        # POINT_64 (d = 6, the grid's smallest domain): 63 competing points. Whole learner at
        # k = 4, eps/4 each: 14 rows give point(x0) a lead of 12 (14 on D'), so a column picks it
        # w.p. 0.07 as declared and 0.24 with the budget doubled, where 4 columns lose up to
        # 4 x 0.35. One column of the advanced split (eps0 = 0.080 at k = 4): 22 rows, a lead of
        # 20, p = 0.07 at the doubled budget, where the column's loss is 0.15 of at most 0.16.
        eps0 = per_concept_epsilon(1.0, 4, "advanced", DELTA)
        return [
            AuditCase("basic", "direct sum, basic composition: k = 4 columns at eps/4 = 0.25 each, POINT_64",
                      _at_x0(14), "all 4 columns choose point(x0)", 1.0, 0.0, point_columns_events,
                      {"d": 6, "k": 4, "eps0": per_concept_epsilon(1.0, 4, "basic"), "rows": 14, "positives": 13},
                      trials=1_000_000),
            AuditCase("column-advanced", f"one column of the advanced direct sum (k = 4, eps = 1, delta = {DELTA:g}): "
                      f"the exponential mechanism over POINT_64 at eps0 = {eps0:.4f}", _at_x0(22),
                      "the column chooses point(x0)", eps0, 0.0, point_columns_events,
                      {"d": 6, "k": 1, "eps0": eps0, "rows": 22, "positives": 21}, trials=4_000_000),
        ]

    def grid(self, fidelity, overrides):
        base = {"alpha": [0.1], "epsilon": [1.0], "delta": [DELTA], "beta": [0.1]}
        return sweeps({"d": [10], "k": self._ks[fidelity], "rule": list(COMPOSITION_RULES), **base},
                      {"d": self._ds[fidelity], "k": [self.K_FOR_X], "rule": ["basic"], **base}, overrides, ("d", "k"))

    def run_trials(self, point, n, trials, rng):
        k, X = point["k"], 2 ** point["d"]
        m = MASSES.size
        eps0 = per_concept_epsilon(point["epsilon"], k, point["rule"], point["delta"])
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 4 * k * (m + 1)):
            b = sl.stop - sl.start
            support, counts, targets, positives = point_instance(point["d"], n, k, b, rng)
            slot = direct_sum_points(support, counts, positives, X, eps0, rng)
            h = np.take_along_axis(support, np.minimum(slot, m - 1), axis=1)
            outside = slot == m
            # a uniform point outside the support is the target with probability 1/(|X| - m)
            # when the target is outside the support too; any other costs its target's mass
            hit = outside & (_mass(targets, support) == 0) & ~np.any(support[:, None, :] == targets[:, :, None], -1) \
                & (rng.random(outside.shape) < 1.0 / (X - m))
            excess = np.where(outside, np.where(hit, 0.0, (1 - 2 * NOISE) * _mass(targets, support)),
                              np.where(h == targets, 0.0, (1 - 2 * NOISE) * (_mass(targets, support) + _mass(h, support))))
            ok[sl] = np.all(within(excess, point["alpha"]), axis=1)
        return ok


class BnsCor33(_PointDirectSum):
    theorem_id = "bns.cor3_3"
    _ks = {"smoke": [1, 16], "quick": [1, 4, 16, 32, 64, 128, 256], "full": [1, 2, 4, 8, 16, 32, 64, 128, 256]}
    _ds = {"smoke": [8, 16], "quick": [6, 10, 14, 18, 22], "full": [6, 8, 10, 12, 14, 16, 18, 20, 22]}

    def grid(self, fidelity, overrides):
        base = {"rule": ["basic"], "alpha": [0.1], "epsilon": [1.0], "delta": [DELTA], "beta": [0.1]}
        return sweeps({"d": [16], "k": self._ks[fidelity], **base},
                      {"d": self._ds[fidelity], "k": [self.K_FOR_X], **base}, overrides, ("d", "k"))

    def check_point(self, point):
        super().check_point(point)
        if point["rule"] != "basic":
            raise ParameterError("rule must be basic for Cor 3.3 (a pure-DP statement), got "
                                 f"{point['rule']!r}")

    def audits(self):
        # the whole learner at k = 4, eps/4 each, M = 800 buckets (alpha = beta = 0.1, as in the
        # grid): x0's bucket competes with 799 empty buckets and the constant 0. 23 rows give
        # it a lead of 21 (23 on D'): p = 0.02 as declared and 0.20 with the budget doubled.
        k = 4
        return [AuditCase("hash-basic", f"hash-learner direct sum (Cor 3.3 substitute), basic composition: k = {k} "
                          f"columns at eps/{k} = 0.25 each over M = {n_buckets(0.1, 0.1, k)} public hash buckets "
                          "and the constant 0", _at_x0(23), f"all {k} columns choose x0's bucket", 1.0, 0.0,
                          hash_columns_events, {"k": k, "buckets": n_buckets(0.1, 0.1, k), "eps0": 1.0 / k,
                                                "rows": 23, "positives": 22}, trials=1_000_000)]

    def run_trials(self, point, n, trials, rng):
        k = point["k"]
        m = MASSES.size
        M = n_buckets(point["alpha"], point["beta"], k)
        eps0 = point["epsilon"] / k
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 4 * k * m * (m + 2)):
            b = sl.stop - sl.start
            support, counts, targets, positives = point_instance(point["d"], n, k, b, rng)
            g, choice = hash_learner(counts, positives, M, eps0, rng)
            in_group = choice == m
            chosen_bucket = np.take_along_axis(g, np.minimum(choice, m - 1)[..., None], axis=-1)[..., 0]
            members = (g == chosen_bucket[..., None]) & ~in_group[..., None]          # (b, k, m)
            p_bucket = np.sum(members * MASSES, axis=-1)
            is_t = support[:, None, :] == targets[:, :, None]                        # (b, k, m)
            p_t = np.sum(is_t * MASSES, axis=-1)
            t_in = np.any(members & is_t, axis=-1)
            # err_P(h) - OPT = (1 - 2 eta) P(h != c_t) = (1 - 2 eta)(P(b) + P(t) - 2 P(t) [t in b])
            excess = (1 - 2 * NOISE) * (p_bucket + p_t - 2 * p_t * t_in)
            ok[sl] = np.all(within(excess, point["alpha"]), axis=1)
        return ok


class BnsThm222(BnsCor34):
    """Theorem 2.22 (the generic learner of Kasiviswanathan et al.) on its own: the
    exponential mechanism over POINT_X with k = 1, against ln|C| and eps."""

    theorem_id = "bns.thm2_22"
    _ds = {"smoke": [8, 16], "quick": [6, 10, 14, 18, 22], "full": [6, 8, 10, 12, 14, 16, 18, 20, 22]}
    _eps = {"smoke": [1.0, 0.25], "quick": [2.0, 1.0, 0.5, 0.25, 0.125], "full": [4.0, 2.0, 1.0, 0.5, 0.25, 0.125]}
    unaudited = {}  # k = 1: the learner is one exponential mechanism, audited whole

    def audits(self):
        # one row at x0 of POINT_64: point(x0) competes with 63 points (q = 1/63), so the
        # loss of "h = point(x0)" is 0.98 of eps = 1 (1.96 with the budget doubled), on an
        # event of probability 0.006 to 0.04
        return [AuditCase("expmech", "the exponential mechanism over POINT_64 at eps = 1 (k = 1)", _at_x0(1),
                          "h = point(x0)", 1.0, 0.0, point_columns_events,
                          {"d": 6, "k": 1, "eps0": per_concept_epsilon(1.0, 1, "basic"), "rows": 1, "positives": 0},
                          trials=200_000)]

    def grid(self, fidelity, overrides):
        base = {"k": [1], "rule": ["basic"], "alpha": [0.1], "delta": [DELTA], "beta": [0.1]}
        return sweeps({"d": self._ds[fidelity], "epsilon": [1.0], **base},
                      {"d": [10], "epsilon": self._eps[fidelity], **base}, overrides, ("d", "epsilon"))
