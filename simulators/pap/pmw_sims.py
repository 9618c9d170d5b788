"""Bassily et al., "Private Query Release Assisted by Public Data" (ICML 2020): Lemma 2.7
(PMW, Algorithm 1, answers a finite class over a finite domain from
O(sqrt(log|X| log(1/delta)) log|H| / (eps alpha^2)) private samples) and the private-only
baseline of section 1 (PMW over the whole domain, and the binary-tree release of
thresholds).

Experiments (private data only; the searched size is n):
- ``PapLem27``: PMW on THR_256 over all of [256] for alpha = 0.4 .. 0.1, and on a fixed
  random class of 64 queries over 64 points (drawn once from a fixed seed, so every trial
  and run sees the same class), over the family uniform / geometric / Dirichlet. Success:
  worst-case error <= alpha (exact). Beside the search, curves at the explicit bound's n
  whose recorded event is a failure (error > alpha), and one whose event is "the realised
  number of updates exceeds 1% of the cap c" (the analysis only caps it at c), each under
  a ceiling of beta.
- ``PapBasePriv``: THR_T for T = 2^6 .. 2^12 (2^16 at full), alpha = 0.2, by PMW over
  all of [T] and by the binary-tree release: the private-only cost that grows with T
  (the frontier of Theorem 3.1 draws it at T = 4096).

The uniform distribution is PMW's starting guess, so PMW answers it exactly; the claims
are judged on the worst member of the family.
"""

from __future__ import annotations

import numpy as np

from privbounds.bounds.pap import n_pmw_offline, n_tree_thresholds
from privbounds.params import Options
from privbounds.simulators.engine.audit import AuditCase
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.pap.audits import (
    PMW_COMPARE,
    PMW_MEASURE,
    PMW_THRESHOLD,
    ROUND,
    TREE_LEAF,
    UNITS,
    pmw_round_events,
    pmw_unit_events,
    round_uncaught,
    tree_leaf_events,
)
from privbounds.simulators.pap.common import DELTA, N_MAX, RELEASE_FIDELITY, line_probs, search_start, specs
from privbounds.simulators.pap.pmw_offline import DenseQueries, pmw, pmw_constants
from privbounds.simulators.pap.query_classes import DISTRIBUTIONS
from privbounds.simulators.pap.release import multinomial_rows, pmw_all_thresholds, tree_thresholds

RANDOM_CLASS_SEED = 20200402  # the random class is part of the experiment's definition
UPDATE_SHARE = 0.01


def random_class(size: int = 64) -> np.ndarray:
    """The fixed random +-1 class (size queries over size points)."""
    return np.where(np.random.default_rng(RANDOM_CLASS_SEED).random((size, size)) < 0.5, 1, -1).astype(np.int8)


UNIT_TEXT = {
    "pmw-round-below": ("counts (23, 16, ..., 16, 9) of n = 128 rows over [8] versus one row moved from the first "
                        "cell to the last (every threshold query's gap moves the same way)",
                        "AboveThreshold answered every query below (the run made no update)",
                        "an all-below outcome of AboveThreshold, bounded by the threshold noise alone"),
    "pmw-round-compare": ("counts (20, 12, 16, ..., 16) of n = 128 rows over [8] versus one row moved from the first "
                          "cell to the second (only the query [0, 1) moves)",
                          "the round's update is on the query [0, 1)",
                          "on this pair only that query's comparison sees a different input"),
    "pmw-round-measure": ("counts (20, 12, 16, ..., 16) of n = 128 rows over [8] versus one row moved from the first "
                          "cell to the second (only the query [0, 1) moves)",
                          "the released answer of [0, 1) exceeds its value on D, 20/128",
                          "on this pair only that query's comparison (e0/4) and measurement (e0) see different inputs"),
}


def _unit_audits() -> list[AuditCase]:
    """One round of PMW with one noise source given most of the declared budget (pap/audits.py)."""
    cases = []
    for name, (spec, units, sources) in UNITS.items():
        nb, ev, why = UNIT_TEXT[name]
        e0 = spec["e0"]
        cases.append(AuditCase(
            name, f"one round of PMW over all of [8], answering THR_8 (alpha = {spec['alpha']:g}, eps0 = {e0:g}); "
            f"declared {units * e0:g}: {why}", nb, ev, units * e0, 0.0, pmw_unit_events, dict(spec),
            trials=400_000, sources=sources, mutation_trials=200_000))
    return cases


def _pmw_audit(path: str) -> list[AuditCase]:
    e0 = ROUND["e0"]
    return [AuditCase(
        "pmw-round", f"one round of PMW ({path}): one AboveThreshold instance and one measurement at "
        f"eps0 = {e0:g} each, pure {2 * e0:g}-DP (the unit a whole run composes)",
        f"{ROUND['n']} private rows, {ROUND['c0']} at the first point, versus one of them moved to the last",
        f"the released answer of the query over the first point exceeds {ROUND['t0']:g} (+-1 scale)",
        2 * e0, 0.0, pmw_round_events, dict(ROUND), trials=600_000,
        sources=(PMW_THRESHOLD, PMW_COMPARE, PMW_MEASURE),
        uncaught=round_uncaught("1.08 -> 1.11", "1.08 -> 1.23")), *_unit_audits()]


PMW_UNAUDITED = {
    "PMW as a whole": (
        "no instance has power: a run spreads eps over up to c = floor(16 ln N / a^2) + 1 AboveThreshold "
        "instances and as many measurements, each eps0 = eps / (4 sqrt(c ln(1/delta))); at THR_256 with "
        "alpha = 0.2 (a = 0.05), eps = 1, delta = 1e-10 that is c = 35,489 and eps0 = 1.7e-4, so a doubled "
        "run moves no event's probability measurably. Its unit, one round, is audited (privacy-pmw-round, and "
        "against each of its three noises on its own: privacy-pmw-round-below, -compare, -measure)."),
}


class PapLem27(Simulator):
    theorem_id = "pap.lem2_7"
    params = {"class": Options(("thr", "random")), "measure": Options(("search", "accuracy", "updates")),
              **specs("T", "alpha", "beta", "epsilon", "delta", "dist")}
    fidelities = RELEASE_FIDELITY
    unaudited = PMW_UNAUDITED
    _alphas = {"smoke": [0.4, 0.2], "quick": [0.4, 0.2, 0.1], "full": [0.4, 0.3, 0.2, 0.15, 0.1, 0.075]}
    # the random class's answers under these distributions lie within about 0.2 of the
    # uniform start's, so above alpha = 0.2 PMW barely has to learn: its sweep starts there
    _random_alphas = {"smoke": [0.2, 0.1], "quick": [0.2, 0.1, 0.05], "full": [0.2, 0.15, 0.1, 0.075, 0.05]}
    # THR_256's searches: smoke (a test fidelity) leaves out geometric, whose PMW runs cost
    # most of the theorem's smoke run; the random class, the curves and pap.base_priv (PMW
    # over [T], T = 64 and 256) still run PMW on geometric data at smoke
    _thr_dists = {"smoke": ["uniform", "dirichlet"], "quick": list(DISTRIBUTIONS), "full": list(DISTRIBUTIONS)}

    def grid(self, fidelity, overrides):
        base = {"beta": [0.1], "epsilon": [1.0], "delta": [DELTA], "dist": list(DISTRIBUTIONS)}
        pts = expand({"class": ["thr"], "T": [256], "alpha": self._alphas[fidelity], "measure": ["search"],
                      **base, "dist": self._thr_dists[fidelity]}, overrides)
        pts += expand({"class": ["random"], "T": [64], "alpha": self._random_alphas[fidelity],
                       "measure": ["search"], **base}, overrides)
        pts += expand({"class": ["thr"], "T": [256], "alpha": [0.2], "measure": ["accuracy", "updates"], **base},
                      overrides)
        return pts

    def check_point(self, point):
        super().check_point(point)
        self.require_small_delta(point)

    def privacy(self, point):
        return {"epsilon": point["epsilon"], "delta": point["delta"],
                "accounting": "PMW (Alg 1): <= c AboveThreshold instances and c measurements of eps0 each, "
                              "advanced composition"}

    def audits(self):
        return _pmw_audit("over all of [2], answering THR_2")

    def n_range(self, point):
        return search_start(self.bound_n(point)), N_MAX

    def bound_n(self, point) -> int:
        k = point["T"] + 1 if point["class"] == "thr" else point["T"]
        return int(n_pmw_offline(point["alpha"], point["beta"], point["epsilon"], point["delta"], point["T"], k))

    def curve(self, point):
        return None if point["measure"] == "search" else [self.bound_n(point)]

    def run_trials(self, point, n, trials, rng):
        probs = line_probs(point, trials, rng)
        a = point["alpha"]
        if point["class"] == "thr":
            err, updates = pmw_all_thresholds(probs, n, a, point["epsilon"], point["delta"], rng)
        else:
            m = random_class(point["T"])
            counts = multinomial_rows(n, probs, rng)
            q01 = (1.0 + m) / 2.0
            ans, updates, _ = pmw(DenseQueries(q01, trials), (counts / n) @ q01.T, n, a / 4.0,
                                  point["epsilon"], point["delta"], rng)
            err = np.abs(2.0 * ans - 1.0 - probs @ m.T.astype(float)).max(axis=1)
        if point["measure"] == "updates":  # the event under the ceiling: many updates
            cap = pmw_constants(a / 4.0, point["epsilon"], point["delta"], n, [point["T"]])[0][0]
            return updates > UPDATE_SHARE * cap
        if point["measure"] == "accuracy":  # the event under the ceiling: failure at the bound's n
            return err > a
        return err <= a


class PapBasePriv(Simulator):
    theorem_id = "pap.base_priv"
    params = {"learner": Options(("pmw", "tree")),
              **specs("T", "alpha", "beta", "epsilon", "delta", "dist")}
    fidelities = RELEASE_FIDELITY
    unaudited = {
        **PMW_UNAUDITED,
        "binary-tree release, as a whole": (
            "its node noise is audited through one released prefix (privacy-tree-leaf); as a whole no instance "
            "has power: the tree adds Lap(2L/eps) to every node (L = log2 T + 1 levels; a replaced "
            "point changes at most 2 node counts per level), but a replaced point moves any one released prefix "
            "count by at most 1, so an event on one prefix shows at most eps/(2L) (eps/L doubled) against the "
            "whole's eps; the full loss appears only in the joint law of several prefixes, for which we have no "
            "event fixed in advance with power. The whole is not audited."),
    }
    # PMW over [T] costs about one pass over T cells per update, and the far-from-uniform
    # distributions take ~1000 updates at T = 4096 (about 10 s per block of 200 trials): that
    # size and above run at full fidelity only
    _sizes = {"smoke": [64, 256], "quick": [64, 256, 1024], "full": [64, 128, 256, 512, 1024, 2048]}

    def grid(self, fidelity, overrides):
        return expand({"learner": ["pmw", "tree"], "T": self._sizes[fidelity], "alpha": [0.2], "beta": [0.1],
                       "epsilon": [1.0], "delta": [DELTA], "dist": list(DISTRIBUTIONS)}, overrides)

    def check_point(self, point):
        super().check_point(point)
        self.require_small_delta(point)
        if point["learner"] == "tree" and point["T"] & (point["T"] - 1):
            from privbounds.params import ParameterError
            raise ParameterError(f"T must be a power of 2 for the binary-tree release, got {point['T']}")

    def privacy(self, point):
        if point["learner"] == "tree":
            return {"epsilon": point["epsilon"], "delta": 0.0,
                    "accounting": "binary tree: Lap(2L/eps) per node, l1-sensitivity 2L"}
        return {"epsilon": point["epsilon"], "delta": point["delta"],
                "accounting": "PMW (Alg 1) over all of [T], advanced composition"}

    def audits(self):
        t = TREE_LEAF
        levels = int(np.log2(t["size"])) + 1
        tree = AuditCase(
            "tree-leaf", f"the binary-tree release of THR_{t['size']} (L = {levels} levels) at eps = {t['epsilon']:g}: "
            f"its answer to [0, 1) is one leaf plus Lap(2L/eps), eps/(2L) = {t['epsilon'] / (2 * levels):g}-DP alone",
            f"{t['n']} private rows, {t['c0']} at the first cell and the rest at the last, versus one of them moved "
            "to the last", f"the released answer of [0, 1) exceeds {2 * t['c0'] / t['n'] - 1:g} (+-1 scale)",
            t["epsilon"] / (2 * levels), 0.0, tree_leaf_events, dict(t), trials=200_000, mutation_trials=200_000)
        return [*_pmw_audit("over all of [2], answering THR_2"), tree]

    def n_range(self, point):
        if point["learner"] == "tree":
            bound = n_tree_thresholds(point["alpha"], point["beta"], point["epsilon"], point["T"])
        else:
            bound = n_pmw_offline(point["alpha"], point["beta"], point["epsilon"], point["delta"], point["T"],
                                  point["T"] + 1)
        return search_start(bound), N_MAX

    def run_trials(self, point, n, trials, rng):
        probs = line_probs(point, trials, rng)
        if point["learner"] == "tree":
            err = tree_thresholds(probs, n, point["epsilon"], rng)
        else:
            err, _ = pmw_all_thresholds(probs, n, point["alpha"], point["epsilon"], point["delta"], rng)
        return err <= point["alpha"]
