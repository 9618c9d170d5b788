"""Findings: where theory and experiment part, gathered from the result records.

For every theorem with results: each claim whose verdict is not a plain confirmation
(refuted, inconclusive, and the verdicts that qualify one, such as vacuous or confirmed
up to lower-order terms), each bound that is looser than 10x at every point it was
measured at, each claim whose bound carries constants we reconstructed rather than the
paper's, and each theorem whose run failed. Every finding carries its numbers and the
theorem page it comes from. ``privbounds findings`` prints them; the report's
findings page lists them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from privbounds.results import load_valid

LOOSE = 10.0  # "looser than 10x": n_hat / N (upper) or L / n_hat (lower) at most 1/10 everywhere

# Order in which the categories are listed, each with the sentence that heads it.
CATEGORIES = {
    "failed": "Runs that failed (no measurement, no verdict)",
    "refuted": "Refuted: the measurement contradicts the claim",
    "inconclusive": "Inconclusive: the interval cannot decide",
    "qualified": "Confirmed only with a qualification (vacuous, or up to lower-order terms)",
    "loose": f"Bounds looser than {LOOSE:g}x at every measured point",
    "reconstructed": "Constants reconstructed by us, not the paper's",
    "unaudited": "Learners without a privacy audit that has power",
    "learners": ("Learners from other libraries and your own, where they part from the theorems' bounds (a "
                 "comparison with the theorem's algorithm, not a finding about the paper)"),
}


@dataclass
class Finding:
    category: str
    theorem: str
    claim: str | None
    kind: str | None
    verdict: str | None
    numbers: str
    page: str

    def as_dict(self) -> dict:
        return asdict(self)


def _fmt(x) -> str:
    return "open" if x is None else f"{x:.3g}"


def _numbers(v: dict) -> str:
    """The evidence of one verdict in a line: the fit, or the point that decides it."""
    if v["kind"] == "scaling":
        f = v.get("fit")
        if not f:
            return v.get("reason", "no fit")
        tol = f" +- {v['tolerance']:g}" if v.get("tolerance") else ""
        return (f"exponent {f['exponent']:.3f} [{f['low']:.3f}, {f['high']:.3f}] ({f['points']} points), "
                f"predicted {v['predicted']:g}{tol}" + (f"; {v['reason']}" if v.get("reason") else ""))
    details = v.get("details") or []
    if v["kind"] == "privacy audit":
        if not details:
            return v.get("reason", "the audit did not run")
        d = details[0]
        return (f"declared eps {d['epsilon']:.4g} (delta {d['delta']:.3g}): eps_hat {_fmt(d['eps_hat'])}, "
                f"doubled budget {_fmt(d['eps_hat_doubled'])} ({d['budgets']['1']['trials']} trials per side)"
                + (f"; {v['reason']}" if v.get("reason") else ""))
    if not details:
        return "no point selected"
    order = {"refuted": 0, "inconclusive": 1, "confirmed": 2}
    d = min(details, key=lambda d: order.get(d.get("verdict"), 3))
    n_bad = sum(1 for x in details if x.get("verdict") == d.get("verdict"))
    if v["kind"] == "success ceiling":
        return (f"{d['label']}: p_hat {d['p_hat']:.4g} [{d['p_low']:.4g}, {d['p_high']:.4g}] against ceiling "
                f"{d['ceiling']:.4g} ({d['trials']} trials); {n_bad} of {len(details)} points {d['verdict']}")
    if v["kind"] == "mean bound":
        what = "largest value" if d.get("statistic") == "max" else "mean"
        iv = "" if d.get("statistic") == "max" else f" [{d['low']:.4g}, {d['high']:.4g}]"
        return (f"{d['label']}: {what} {d['value']:.4g}{iv} against bound {d['bound']:.4g} ({d['trials']} "
                f"trials); {n_bad} of {len(details)} points {d['verdict']}")
    return (f"{d['label']}: n_hat {d['n_hat']} [{_fmt(d['n_low'])}, {_fmt(d['n_high'])}] against bound "
            f"{d['bound']:.4g} ({d['trials']} trials); {n_bad} of {len(details)} points {d['verdict']}")


def _loose(v: dict) -> str | None:
    """The tightness range of a bound claim that is looser than LOOSE at every point."""
    if v["kind"] not in ("upper bound", "lower bound", "mean bound"):
        return None
    ends = [d.get("tightness_high") for d in v.get("details") or []]
    if not ends or any(e is None for e in ends) or max(ends) > 1 / LOOSE:
        return None
    lows = [d.get("tightness_low") or 0.0 for d in v["details"]]
    what = ("measured / bound" if v.get("upper", True) else "bound / measured") if v["kind"] == "mean bound" \
        else "n_hat / bound" if v["kind"] == "upper bound" else "bound / n_hat"
    return (f"{what} at most {max(ends):.3g} at all {len(ends)} points (range of the intervals "
            f"{min(lows):.3g} to {max(ends):.3g})")


def collect(out) -> list[Finding]:
    """Every finding in the results under ``out``, in category order, then theorem order."""
    from privbounds.registry import papers

    found = []
    for tid, rec in load_valid(out).items():
        page = f"{tid}.html"
        measured = getattr(papers().get(tid.split(".")[0]), "kind", "paper") == "learners"
        if rec.get("status") == "failed":
            found.append(Finding("failed", tid, None, None, "failed",
                                 f"{rec.get('error')} (traceback in {rec.get('log')})", page))
            continue
        for what, why in (rec.get("unaudited") or {}).items():
            found.append(Finding("unaudited", tid, None, "privacy audit", None, f"{what}: {why}", page))
        for v in rec.get("verdicts", []):
            base = dict(theorem=tid, claim=v["claim"], kind=v["kind"], verdict=v["verdict"], page=f"{page}#{v['claim']}")
            if measured and "-vs-" in v["claim"]:
                # a theorem's bound held to another learner: a comparison, not a finding about the paper
                if v["verdict"] != "confirmed":
                    found.append(Finding("learners", numbers=_numbers(v), **base))
                continue
            if v["verdict"] in ("refuted", "inconclusive"):
                found.append(Finding(v["verdict"], numbers=_numbers(v), **base))
            elif v["verdict"] != "confirmed":
                found.append(Finding("qualified", numbers=_numbers(v), **base))
            loose = _loose(v)
            if loose:
                found.append(Finding("loose", numbers=loose, **base))
            if "RECONSTRUCTED" in (v.get("bound_source") or ""):
                found.append(Finding("reconstructed", numbers=f"bound {v.get('bound_name')}: {v['bound_source']}",
                                     **base))
    rank = {c: i for i, c in enumerate(CATEGORIES)}
    return sorted(found, key=lambda f: rank[f.category])  # stable: theorem order kept within a category
