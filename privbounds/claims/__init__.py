"""Claims (testable predictions of a theorem) and their verdicts.

Kinds, as defined in the design notes: bounds on n_hat (``UpperBound``, ``LowerBound``),
success ceilings (``Ceiling``) and bounds on a measured mean (``MeanBound``) in
``base``; growth laws (``Scaling``) in ``scaling``; privacy audits (``PrivacyAudit``) in
``audit``. The verdict vocabulary, shared by every part of the product, is in
``verdicts``.

A claim over several points is refuted if any point is, vacuous if every point is,
otherwise the weakest verdict of its non-vacuous points. A claim marked ``erratum`` is
on a printed form that contradicts the paper's own proof: a refutation of it is reported
as an *erratum*, beside the claim on the corrected form (``corrected``).
"""

from __future__ import annotations

from privbounds.claims.audit import PrivacyAudit, audit_claims
from privbounds.claims.base import (
    BoundClaim,
    BoundRef,
    Ceiling,
    Claim,
    LowerBound,
    MeanBound,
    UpperBound,
    use,
    where,
)
from privbounds.claims.scaling import DIRECTIONS, LAWS, UP_TO_LOGS, Scaling, competing_laws, worst_case
from privbounds.claims.verdicts import (
    ABOVE,
    BELOW,
    CONFIRMED,
    ERRATUM,
    EXACT,
    INCONCLUSIVE,
    LOWER_ORDER,
    MEANING,
    ORDER,
    REFUTED,
    SLACK,
    SLACK_LIMIT,
    VACUOUS,
    VERDICTS,
    combine,
)

__all__ = [
    "ABOVE", "BELOW", "CONFIRMED", "DIRECTIONS", "ERRATUM", "EXACT", "INCONCLUSIVE", "LAWS", "LOWER_ORDER", "MEANING",
    "ORDER", "REFUTED", "SLACK", "SLACK_LIMIT", "UP_TO_LOGS", "VACUOUS", "VERDICTS", "BoundClaim", "BoundRef",
    "Ceiling", "Claim", "LowerBound", "MeanBound", "PrivacyAudit", "Scaling", "UpperBound", "audit_claims",
    "combine", "competing_laws", "evaluate_claims", "use", "where", "worst_case"]


def evaluate_claims(claims, points, rows, audits=()) -> list[dict]:
    """Verdict records for ``results/<id>.json``: claim id, kind, verdict, evidence."""
    out = []
    for c in claims:
        rec = {"claim": c.id, "kind": c.kind, "description": c.description, **c.bound_meta()}
        rec.update(c.evaluate(points, rows, audits) if isinstance(c, PrivacyAudit) else c.evaluate(points, rows))
        if c.erratum:
            # the printed form, not what the proof gives: its refutation is the paper's misprint
            rec.update(erratum=c.erratum, corrected=c.corrected)
            if rec["verdict"] == REFUTED:
                rec["verdict"] = ERRATUM
        out.append(rec)
    return out
