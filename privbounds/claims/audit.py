"""Privacy-audit claims: one audit instance of a learner a theorem runs
(privbounds.simulators.engine.audit).

Its empirical epsilon lower bound eps_hat (Clopper-Pearson, joint confidence 0.999, at
the declared delta) must stay at or below the declared epsilon: *refuted* if it is
above. The same instance run with the budget doubled must find eps_hat above the
declared epsilon, or the instance could not have caught a factor-2 bug: then the verdict
is *inconclusive* (no power), never confirmed. The record gives the ratio eps_hat /
declared epsilon at the declared budget: how much of its budget the audit can see.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from privbounds.claims.base import Claim
from privbounds.claims.verdicts import CONFIRMED, INCONCLUSIVE, REFUTED
from privbounds.simulators.engine.audit import BUDGETS, epsilon_lower_bound


@dataclass
class PrivacyAudit(Claim):
    """eps_hat <= epsilon on the instance ``case`` (an AuditCase), with power: the doubled
    budget must give eps_hat > epsilon."""

    case: object = None
    kind: str = field(init=False, default="privacy audit")

    def evaluate(self, points, rows, audits=()):
        m = next((a for a in audits if a["name"] == self.case.name), None)
        if m is None:
            return {"verdict": INCONCLUSIVE, "reason": "the audit did not run", "details": []}
        eps, delta, conf = m["epsilon"], m["delta"], m["conf"]
        found = {}
        for b, r in m["budgets"].items():
            e = epsilon_lower_bound(r["hits_d"], r["trials"], r["hits_d_prime"], r["trials"], delta, conf)
            found[b] = None if not np.isfinite(e) else e  # -inf: the event never separated D from D'
        declared, doubled = (found[f"{b:g}"] for b in BUDGETS)
        powered = doubled is not None and doubled > eps
        if declared is not None and declared > eps:
            verdict = REFUTED
            reason = f"eps_hat {declared:.3f} is above the declared epsilon {eps:g}: the learner leaks more"
        elif not powered:
            verdict = INCONCLUSIVE
            reason = ("no power: with its budget doubled the learner gives eps_hat "
                      f"{'-inf' if doubled is None else f'{doubled:.3f}'}, not above {eps:g}, so this "
                      "instance could not catch a factor-2 bug")
        else:
            verdict, reason = CONFIRMED, ""
        ratio = None if declared is None else declared / eps
        detail = {"label": self.case.learner, **m, "eps_hat": declared, "eps_hat_doubled": doubled,
                  "powered": powered, "verdict": verdict, "ratio": ratio}
        # the noise sources this instance's event sees (the mutation tests halve each on its own)
        sources = [f"{s.name} ({s.kind})" for s in self.case.noise_sources]
        return {"verdict": verdict, "reason": reason, "details": [detail], "epsilon": eps, "delta": delta,
                "eps_hat": declared, "eps_hat_doubled": doubled, "powered": powered, "conf": conf,
                "ratio": ratio, "sources": sources}


def audit_claims(simulator) -> list[PrivacyAudit]:
    """One privacy-audit claim per audit instance of ``simulator``."""
    if simulator is None:
        return []
    names = [c.name for c in simulator.audits()]
    if len(names) != len(set(names)):  # the engine keys audit counts by name
        raise ValueError(f"{simulator.theorem_id}: audit names repeat: {sorted(names)}")
    return [PrivacyAudit(f"privacy-{c.name}",
                         f"{c.learner}: on {c.neighbours}, the event {c.event} bounds the privacy loss by "
                         f"eps_hat <= {c.epsilon:.4g} (declared delta {c.delta:.3g}); the doubled budget "
                         "must be caught", lambda p: True, case=c)
            for c in simulator.audits()]
