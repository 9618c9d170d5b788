"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts",
Observation 3.2 (direct sum): run a private learner on each of the k label columns of
one sample, with the privacy budget split by basic composition (eps / k each, so the
sample size grows like k) or by the advanced composition theorem (Dwork-Roth Thm 3.20;
about eps / sqrt(2 k ln(1/delta)) each, so it grows like sqrt(k ln(1/delta))).

Experiment: THRESH_d on the 4-point cluster with every one of the k targets at p3, the
target for which only three thresholds are 1/4-accurate. (Targets p2 or p4 would make
half the domain accurate, so columns would differ in difficulty and the exponent of k
would mix in how many hard columns there are.) The learner runs independently on each
column, so this is k independent copies of the hardest single-concept instance. The
inner learner is the exponential mechanism (Thm 2.22). Success: all k hypotheses have err_D <= alpha, computed exactly.
"""

from __future__ import annotations

import numpy as np

from privbounds.bounds.tools import COMPOSITION_RULES, per_concept_epsilon
from privbounds.params import ALPHA, BETA, DELTA, EPSILON, Interval, Options, ParameterError
from privbounds.simulators.engine.audit import AuditCase
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.shared.accuracy import within
from privbounds.simulators.shared.audits import expmech_columns_events
from privbounds.simulators.shared.concepts import make_class
from privbounds.simulators.shared.instances import threshold_cluster
from privbounds.simulators.shared.learners import chunks, expmech_learner_grouped


class BnsObs32(Simulator):
    theorem_id = "bns.obs3_2"
    params = {
        "class": Options(("thresh",)),
        "d": Interval(2, 16, "both", integer=True),
        "k": Interval(1, 4096, "both", integer=True),
        "epsilon": EPSILON,
        "delta": DELTA,
        "alpha": ALPHA,
        "beta": BETA,
        "rule": Options(COMPOSITION_RULES),
    }
    _ks = {"smoke": [1, 4, 16], "quick": [1, 2, 4, 8, 16, 32, 64],
           "full": [1, 2, 4, 8, 16, 32, 64, 128, 256]}

    def grid(self, fidelity, overrides):
        return expand({"class": ["thresh"], "d": [8], "k": self._ks[fidelity],
                       "epsilon": [1.0], "delta": [1e-6], "alpha": [0.25], "beta": [0.25],
                       "rule": list(COMPOSITION_RULES)}, overrides)

    def check_point(self, point):
        super().check_point(point)
        if point["rule"] == "advanced" and point["delta"] == 0:
            raise ParameterError("delta must be in (0, 1) for advanced composition, got 0")

    def privacy(self, point):
        if point["rule"] == "basic":
            return {"epsilon": point["epsilon"], "delta": 0.0,
                    "accounting": "basic composition of k exponential mechanisms, eps / k each"}
        return {"epsilon": point["epsilon"], "delta": point["delta"],
                "accounting": "advanced composition (Dwork-Roth Thm 3.20) of k exponential mechanisms"}

    def n_range(self, point):
        return 4, 1 << 17

    unaudited = {
        "the advanced-composition direct sum as a whole": (
            "no instance has power: at k = 4 and delta = 1e-6 the split gives eps0 = 0.092 per column, so "
            "even with a doubled budget the 4 columns lose at most 4 x 0.184 = 0.73 < eps = 1, and at larger "
            "k their loss shows only on events too rare to observe. Its columns are audited one by one "
            "(privacy-column-advanced); the composition itself is Dwork-Roth Thm 3.20."),
    }

    def audits(self):
        # x0 = 63 of THRESH_8: 64 thresholds label it 1, 193 label it 0 (q = 1/3, see audits.py)
        one_row = "one row (x0 = 63, label 0) versus (x0 = 63, label 1) in every column, THRESH_8"
        eps0 = per_concept_epsilon(1.0, 4, "advanced", 1e-6)
        return [
            AuditCase("basic", "direct sum, basic composition: k = 4 columns at eps/4 = 0.25 each", one_row,
                      "all 4 hypotheses label x0 with 1", 1.0, 0.0, expmech_columns_events,
                      {"cls_name": "thresh", "d": 8, "x0": 63, "k": 4,
                       "eps0": per_concept_epsilon(1.0, 4, "basic")}, trials=400_000),
            AuditCase("column-advanced", f"one column of the advanced direct sum (k = 4, eps = 1, delta = 1e-6): "
                      f"the exponential mechanism at eps0 = {eps0:.4f}", one_row,
                      "the hypothesis labels x0 with 1", eps0, 0.0, expmech_columns_events,
                      {"cls_name": "thresh", "d": 8, "x0": 63, "k": 1, "eps0": eps0}, trials=1_000_000),
        ]

    def run_trials(self, point, n, trials, rng):
        cls = make_class(point["class"], point["d"])
        k = point["k"]
        eps0 = per_concept_epsilon(point["epsilon"], k, point["rule"], point["delta"])
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, k * 8):
            b = sl.stop - sl.start
            inst = threshold_cluster(cls.domain_size, b, k, rng)
            counts = inst.sample_counts(n, rng)
            labels = cls.evaluate(inst.targets[:, None, :], inst.support[:, :, None])  # (b, 4, k)
            h = expmech_learner_grouped(cls, inst.support, counts, labels, eps0, rng)  # (b, k)
            err = cls.exact_error(h, inst.targets, inst.support, inst.probs)
            ok[sl] = np.all(within(err, point["alpha"]), axis=-1)
        return ok
