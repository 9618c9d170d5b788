"""Findings: where theory and experiment part, gathered from the result records.

For every theorem with results, grouped by what a reader needs (design notes,
"Verdicts"): claims the measurement refutes (it contradicts the theorem's statement);
errata (a printed form that contradicts the paper's own proof: a claim on it, refuted,
beside the corrected claim; or, with no claim on the printed form, a misprint our bound
corrects, from the theorem's ``errata``, for every theorem with a page); bounds loose in
shape (a scaling claim whose exponent lies wholly below an upper bound's, or above a
lower bound's); bounds that could not fail (slack >= 100x at every point tested);
inconclusive claims with their reason; confirmations with a qualification (vacuous, up
to lower-order terms); bounds looser than 10x everywhere; constants we reconstructed
rather than the paper's; learners without a powered audit; and each theorem whose run
failed. Every finding carries its numbers and the theorem
page it comes from. ``privbounds findings`` prints them; the report's findings page
lists them.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

from privbounds.claims import CONFIRMED, ERRATUM, EXACT, INCONCLUSIVE, REFUTED, SLACK
from privbounds.record import ClaimResult, fit_text
from privbounds.results import load_valid

LOOSE = 10.0  # "looser than 10x": slack at least 10 at every point (and below 100 somewhere)

# Order in which the categories are listed, each with the sentence that heads it.
CATEGORIES = {
    "failed": "Runs that failed (no measurement, no verdict)",
    "refuted": "Refuted: the measurement contradicts the theorem's statement",
    "erratum": ("Errata: a printed form that contradicts the paper's own proof (the corrected claim is beside it, "
                "or no claim is on the printed form and our bound uses the corrected form)"),
    "shape": "Bounds loose in shape: the measured exponent lies wholly on the allowed side of the bound's",
    "could-not-fail": "Bounds that could not fail: slack >= 100x at every point tested",
    "inconclusive": "Inconclusive: the interval cannot decide (with the reason)",
    "qualified": "Confirmed only with a qualification (vacuous, or up to lower-order terms)",
    "loose": f"Bounds looser than {LOOSE:g}x at every measured point",
    "reconstructed": "Constants reconstructed by us, not the paper's",
    "unaudited": "Learners without a privacy audit that has power",
    "learners": ("Learners from other libraries and your own, where they part from the theorems' bounds (a "
                 "comparison with the theorem's algorithm, not a finding about the paper)"),
}


@dataclass
class Finding:
    """One finding: ``text`` says it in a line, with its numbers; ``numbers`` holds the same
    numbers as numbers (name -> value; None for an open interval end or a value that is not
    finite; empty where the finding is words only: a failed run, a reconstructed constant)."""

    category: str
    theorem: str
    claim: str | None
    kind: str | None
    verdict: str | None
    text: str
    page: str
    numbers: dict = field(default_factory=dict)
    # a misprint that no claim tests (privbounds.registry.Erratum as a dict), else None
    erratum: dict | None = None

    def as_dict(self) -> dict:
        out = asdict(self)
        out["numbers"] = _finite(out["numbers"])  # JSON has no inf or nan
        if out["erratum"] is None:  # the other findings keep their shape
            del out["erratum"]
        return out


def _finite(value):
    """``value`` with every float that is not finite (an estimate of -inf: no loss shown)
    replaced by None, in nested mappings and lists too."""
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return None if isinstance(value, float) and not math.isfinite(value) else value


# How a misprint without a claim is marked, wherever it is listed.
NO_CLAIM = "no claim on the printed form; our bound uses the corrected form"


def errata_findings(theorem_ids) -> list[Finding]:
    """The misprints no claim tests (``Theorem.errata``) of every theorem that has a page
    in the report: those in ``theorem_ids`` (their results), and the entries of the same
    papers that have no experiment of their own (always shown), in the registry's order."""
    from privbounds.registry import get, ids, select

    known = set(ids())
    shown = {t for t in theorem_ids if t in known}
    for prefix in {t.split(".")[0] for t in shown}:
        shown |= {t for t in select(paper=prefix) if not get(t).runnable}
    found = []
    for tid in (t for t in ids() if t in shown):
        for e in get(tid).errata:
            found.append(Finding("erratum", tid, None, "no claim", None, f"{e.line()}; {NO_CLAIM}",
                                 f"{tid}.html#errata", erratum=asdict(e)))
    return found


def _fmt(x) -> str:
    return "open" if x is None else f"{x:.3g}"


def _deciding(v: ClaimResult):
    """The point that decides a claim's verdict (a refuted point before an inconclusive one
    before a confirmed one; a vacuous point decides nothing) and how many points share its
    verdict."""
    order = {REFUTED: 0, ERRATUM: 0, INCONCLUSIVE: 1, CONFIRMED: 2, EXACT: 2}
    d = min(v.details, key=lambda d: order.get(d.verdict, 3))
    return d, sum(1 for x in v.details if x.verdict == d.verdict)


def evidence(v: ClaimResult) -> str:
    """The evidence of one verdict in a line: the fit, or the point that decides it
    (``evidence_numbers`` gives the same numbers as numbers)."""
    if v.kind == "scaling":
        return _fit_evidence(v)
    details = v.details
    if v.kind == "privacy audit":
        if not details:
            return v.reason or "the audit did not run"
        d = details[0]
        return (f"declared eps {d.epsilon:.4g} (delta {d.delta:.3g}): eps_hat {_fmt(d.eps_hat)} "
                f"(ratio {_fmt(d.ratio)}), "
                f"doubled budget {_fmt(d.eps_hat_doubled)} ({d.budgets['1']['trials']} trials per side)"
                + (f"; {v.reason}" if v.reason else ""))
    if not details:
        return "no point selected"
    d, n_bad = _deciding(v)
    if v.kind == "success ceiling":
        return (f"{d.label}: p_hat {d.p_hat:.4g} [{d.p_low:.4g}, {d.p_high:.4g}] against ceiling "
                f"{d.ceiling:.4g} ({d.trials} trials); {n_bad} of {len(details)} points {d.verdict}")
    if v.kind == "mean bound":
        what = "largest value" if d.statistic == "max" else "mean"
        iv = "" if d.statistic == "max" else f" [{d.low:.4g}, {d.high:.4g}]"
        return (f"{d.label}: {what} {d.value:.4g}{iv} against bound {d.bound:.4g} ({d.trials} "
                f"trials); {n_bad} of {len(details)} points {d.verdict}")
    floor = " (succeeds already at its smallest n)" if d.floor_reached else ""
    # a point decided on its exact n_hat shows it first, the Monte Carlo estimate beside it
    exact = (f"exact n_hat {'not reached' if d.exact is None else d.exact}, Monte Carlo "
             if d.has_exact else "")
    return (f"{d.label}: {exact}n_hat {d.n_hat} [{_fmt(d.n_low)}, {_fmt(d.n_high)}]{floor} against "
            f"bound {d.bound:.4g}, slack {_fmt(d.slack)} ({d.trials} trials); {n_bad} of "
            f"{len(details)} points {d.verdict}" + (f"; {v.reason}" if v.reason else ""))


def evidence_numbers(v: ClaimResult) -> dict:
    """The numbers of ``evidence(v)``, unrounded, by name: a fit's exponent and interval,
    an audit's epsilons, or the deciding point (its parameters under ``point``) with its
    estimate, interval, bound and slack, and how many of the claim's points share its
    verdict (a mean bound's ``statistic`` says which value it compares: "mean" or "max")."""
    if v.kind == "scaling":
        if v.fit is None:
            return {}
        raw = v.fit_raw
        return {"exponent": v.fit.exponent, "exponent_low": v.fit.low, "exponent_high": v.fit.high,
                "fit_points": v.fit.points, "predicted": v.predicted, "tolerance": v.tolerance,
                **({"raw_exponent": raw.exponent, "raw_exponent_low": raw.low, "raw_exponent_high": raw.high}
                   if raw else {})}
    if not v.details:
        return {}
    if v.kind == "privacy audit":
        d = v.details[0]
        return {"epsilon": d.epsilon, "delta": d.delta, "eps_hat": d.eps_hat, "ratio": d.ratio,
                "eps_hat_doubled": d.eps_hat_doubled, "trials_per_side": d.budgets["1"]["trials"]}
    d, n_same = _deciding(v)
    out = {"point": d.point, "trials": d.trials, "points": len(v.details), "points_with_this_verdict": n_same}
    if v.kind == "success ceiling":
        return {**out, "p_hat": d.p_hat, "p_low": d.p_low, "p_high": d.p_high, "ceiling": d.ceiling}
    if v.kind == "mean bound":
        return {**out, "statistic": d.statistic, "value": d.value, "low": d.low, "high": d.high, "bound": d.bound}
    return {**out, "n_hat": d.n_hat, "n_low": d.n_low, "n_high": d.n_high, "bound": d.bound, "slack": d.slack,
            "floor_reached": bool(d.floor_reached), **({"exact_n_hat": d.exact} if d.has_exact else {})}


def _fit_evidence(v: ClaimResult) -> str:
    """A scaling claim's evidence: its fit (``record.fit_text``), the points it used, the
    tolerance and the reason of its verdict."""
    if v.fit is None:
        return v.reason or "no fit"
    tol = f" +- {v.tolerance:g}" if v.tolerance else ""
    return (f"{fit_text(v, 3)}{tol} ({v.fit.points} points), {v.direction or 'tight'}"
            + (f"; {v.reason}" if v.reason else ""))


def _slack_range(v: ClaimResult) -> tuple | None:
    """(least, largest) slack over a bound claim's non-vacuous points, or None when a point
    has no finite least slack (an open interval end)."""
    if v.kind not in ("upper bound", "lower bound", "mean bound", "success ceiling"):
        return None
    real = [d for d in v.details if d.verdict != "vacuous"]
    ends = [d.slack_low for d in real]
    if not ends or any(e is None for e in ends):
        return None
    return min(ends), max(d.slack_high or e for d, e in zip(real, ends))


def _loose(v: ClaimResult) -> tuple[str, dict] | None:
    """The slack of a bound claim that is looser than LOOSE at every point: in words, and
    as numbers."""
    rng = _slack_range(v)
    if rng is None or rng[0] < LOOSE:
        return None
    n = sum(1 for d in v.details if d.verdict != "vacuous")
    return (f"slack at least {rng[0]:.3g} at all {n} points (largest {rng[1]:.3g})",
            {"slack_least": rng[0], "slack_largest": rng[1], "points": n})


def _category(v: ClaimResult) -> str | None:
    """Where one claim's verdict goes, if it is a finding at all."""
    if v.verdict in (REFUTED, ERRATUM, INCONCLUSIVE):
        return v.verdict
    if v.verdict == SLACK:
        return "could-not-fail"
    if v.finding == "loose":
        return "shape"
    return None if v.verdict in (CONFIRMED, EXACT) else "qualified"


def collect(out) -> list[Finding]:
    """Every finding in the results under ``out``, in category order, then theorem order."""
    from privbounds.registry import papers

    found = []
    records = load_valid(out)
    for tid, rec in records.items():
        page = f"{tid}.html"
        measured = getattr(papers().get(tid.split(".")[0]), "kind", "paper") == "learners"
        if rec.status == "failed":
            found.append(Finding("failed", tid, None, None, "failed", f"{rec.error} (traceback in {rec.log})", page))
            continue
        for what, why in rec.unaudited.items():
            found.append(Finding("unaudited", tid, None, "privacy audit", None, f"{what}: {why}", page))
        for v in rec.verdicts:
            base = dict(theorem=tid, claim=v.claim, kind=v.kind, verdict=v.verdict, page=f"{page}#{v.claim}")
            if measured and "-vs-" in v.claim:
                # a theorem's bound held to another learner: a comparison, not a finding about the paper
                if v.verdict not in (CONFIRMED, SLACK, "below the bound"):
                    found.append(Finding("learners", text=evidence(v), numbers=evidence_numbers(v), **base))
                continue
            category = _category(v)
            if category:
                found.append(Finding(category, text=evidence(v), numbers=evidence_numbers(v), **base))
            loose = None if category == "could-not-fail" else _loose(v)
            if loose:
                found.append(Finding("loose", text=loose[0], numbers=loose[1], **base))
            if "RECONSTRUCTED" in (v.bound_source or ""):
                found.append(Finding("reconstructed", text=f"bound {v.bound_name}: {v.bound_source}", **base))
    found += errata_findings(records)  # after the claims', so an erratum claim stays first in its group
    rank = {c: i for i, c in enumerate(CATEGORIES)}
    return sorted(found, key=lambda f: rank[f.category])  # stable: theorem order kept within a category
