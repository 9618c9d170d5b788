"""Sivakumar, "A Basic Overview of Private PAC Learning", Theorem 3.3: the exponential-
mechanism learner for a finite class is eps-DP and learns with O(log|H| / eps) samples;
beside it the non-private ERM baselines of Theorems 2.1 (finite classes) and 2.2
(thresholds, O(1) samples whatever the domain).

Experiment: THRESH_d and POINT_d on the hard instances of ``instances.py`` (4-point
cluster; target plus decoy), d = 4 .. 16, alpha = beta = 1/4 as in the notes. Success:
err_D(h) <= alpha, computed exactly from the distribution.

Privacy audit of the exponential-mechanism learner (engine/audit.py; the shared
``audits.expmech_columns_events`` with k = 1, which runs the same grouped learner as
``run_trials``): one row at x0 whose label flips from 0 to 1, so the hypotheses
labelling x0 with 1 gain 1 in score and all others lose 1, the mechanism's worst case.
x0 is placed where few hypotheses label it 1 (THRESH_16: x0 = 3, 4 thresholds against
13; POINT_16: x0 = 0, 1 point against 15), which brings the exact log-ratio of "h(x0) = 1" close to
eps: 0.76 (THRESH) and 0.94 (POINT) at eps = 1, 1.50 and 1.86 with the budget doubled,
on events of probability 0.02 to 0.46. ERM is not private and has no audit.
"""

from __future__ import annotations

import numpy as np

from privbounds.params import ALPHA, BETA, EPSILON, Interval, Options
from privbounds.simulators.engine.audit import AuditCase
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.shared.accuracy import within
from privbounds.simulators.shared.audits import expmech_columns_events
from privbounds.simulators.shared.concepts import make_class
from privbounds.simulators.shared.instances import point_pair, threshold_cluster
from privbounds.simulators.shared.learners import (
    chunks,
    erm_first_consistent,
    erm_middle_consistent,
    expmech_learner_grouped,
)

LEARNERS = ("expmech", "erm")


class SivThm33(Simulator):
    theorem_id = "siv.thm3_3"
    params = {
        "class": Options(("thresh", "point")),
        "d": Interval(2, 20, "both", integer=True),
        "epsilon": EPSILON,
        "alpha": ALPHA,
        "beta": BETA,
        "learner": Options(LEARNERS),
    }
    # domain sweep at eps = 1 for both learners, epsilon sweep for the private learner
    _grids = {
        "smoke": ([4, 10, 16], [0.25, 0.5, 1.0], 10),
        "quick": ([4, 6, 8, 10, 12, 14, 16], [0.125, 0.25, 0.5, 1.0], 10),
        "full": (list(range(4, 17)), [0.0625, 0.125, 0.25, 0.5, 1.0], 10),
    }

    def grid(self, fidelity, overrides):
        ds, epss, d_eps = self._grids[fidelity]
        base = {"alpha": [0.25], "beta": [0.25]}
        pts = expand({"class": ["thresh", "point"], "d": ds, "epsilon": [1.0],
                      "learner": list(LEARNERS), **base}, overrides)
        pts += expand({"class": ["thresh", "point"], "d": [d_eps], "epsilon": epss,
                       "learner": ["expmech"], **base}, overrides)
        unique = {tuple(sorted(p.items())): p for p in pts}
        return list(unique.values())

    def privacy(self, point):
        if point["learner"] == "expmech":
            return {"epsilon": point["epsilon"], "delta": 0.0,
                    "accounting": "exponential mechanism, sensitivity 1"}
        return {"epsilon": None, "delta": None, "accounting": "non-private ERM"}

    def n_range(self, point):
        return 1, 1 << 14

    def audits(self):
        one_row = "one row (x0 = {x0}, label 0) versus (x0 = {x0}, label 1), {cls}"
        return [AuditCase(f"expmech-{cls}", f"the exponential-mechanism learner over {name}_16 at eps = 1",
                          one_row.format(x0=x0, cls=f"{name}_16"), "h labels x0 with 1", 1.0, 0.0,
                          expmech_columns_events, {"cls_name": cls, "d": 4, "x0": x0, "k": 1, "eps0": 1.0},
                          trials=200_000)
                for cls, name, x0 in (("thresh", "THRESH", 3), ("point", "POINT", 0))]

    def run_trials(self, point, n, trials, rng):
        cls = make_class(point["class"], point["d"])
        private = point["learner"] == "expmech"
        ok = np.empty(trials, dtype=bool)
        # the private learner works on the sample's support only; ERM scans every hypothesis
        for sl in chunks(trials, 8 if private else cls.size):
            b = sl.stop - sl.start
            if point["class"] == "thresh":
                inst = threshold_cluster(cls.domain_size, b, 1, rng)
            else:
                inst = point_pair(cls.domain_size, b, rng)
            counts = inst.sample_counts(n, rng)
            labels = cls.evaluate(inst.targets, inst.support)  # (b, m): targets (b, 1)
            if private:
                h = expmech_learner_grouped(cls, inst.support, counts, labels, point["epsilon"], rng)
            else:
                pos, neg = cls.histograms_from_counts(inst.support, counts, labels)
                erm = erm_middle_consistent if point["class"] == "thresh" else erm_first_consistent
                h = erm(cls, pos, neg)
            err = cls.exact_error(h, inst.targets, inst.support, inst.probs)
            ok[sl] = np.all(within(err, point["alpha"]), axis=-1)
        return ok
