"""``privbounds report``: a static HTML site (Jinja2) that opens without a server.

``<out>/report/index.html`` lists every theorem with its verdicts; one page per paper
opens with the paper's headline figures (each paper's ``figures``) and lists its
theorems; one page per theorem
shows the statement, the figure, a verdict table per claim with intervals and trial
counts, links to the data and the run's provenance. Figures and data are copied into
the site so that the folder can be moved or published as it is.
"""

from __future__ import annotations

import re
import shutil
import time
from importlib import metadata
from pathlib import Path

from jinja2 import Environment, PackageLoader, select_autoescape

from privbounds.bounds._meta import origin
from privbounds.claims import ABOVE, BELOW, EXACT, LOWER_ORDER, MEANING, SLACK, VERDICTS
from privbounds.notes import shown as notes_shown
from privbounds.params import ParameterError
from privbounds.record import ClaimResult, Record
from privbounds.registry import ids as registered_ids
from privbounds.reports import openkey
from privbounds.reports.findings import NO_CLAIM
from privbounds.results import (
    available,
    export_csv,
    load_valid,
    no_results,
    overrides_text,
    results_dir,
    write_atomic,
)

TEMPLATES = Path(__file__).resolve().parent / "templates"


def _fmt(x, digits=3):
    if x is None:
        return "—"
    if isinstance(x, float):
        return f"{x:.{digits}g}"
    return str(x)


def _interval(lo, hi, digits=3):
    return f"[{_fmt(lo, digits) if lo is not None else 'open'}, {_fmt(hi, digits) if hi is not None else 'open'}]"


def sources(prefix: str) -> list[dict]:
    """Every bound the paper's claims use, once, with its kind, source and origin: the
    paper page's notes on where its formulas come from."""
    from privbounds.registry import get, select

    seen = {}
    for tid in select(paper=prefix):
        for c in get(tid).claims:
            fn = getattr(getattr(c, "bound", None), "fn", None)
            if fn is None:
                continue
            name = f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__}"
            entry = seen.setdefault(name, {"name": name, "kind": getattr(fn, "kind", ""),
                                           "source": getattr(fn, "source", ""),
                                           "origin": origin(getattr(fn, "source", "")), "claims": []})
            entry["claims"].append(f"{tid}#{c.id}")
    order = {"paper": 0, "ours": 1, "reconstructed": 2}
    return sorted(seen.values(), key=lambda e: (order[e["origin"]], e["name"]))


FOLD = 20  # a claim table longer than this is summarised, with the full table folded away


def ceiling_summary(v: ClaimResult) -> list[dict]:
    """A long success-ceiling table in a few rows: per verdict, how many points and the
    ranges of p_hat, of the intervals' upper ends and of the ceilings."""
    def rng(vals, digits=4):
        vals = [x for x in vals if x is not None]
        if not vals:
            return "—"
        lo, hi = min(vals), max(vals)
        return _fmt(lo, digits) if lo == hi else f"{_fmt(lo, digits)} to {_fmt(hi, digits)}"
    rows = []
    for verdict in [*VERDICTS, *sorted({d.verdict for d in v.details} - set(VERDICTS))]:
        mine = [d for d in v.details if d.verdict == verdict]
        if mine:
            rows.append({"verdict": verdict, "n": len(mine), "p_hat": rng([d.p_hat for d in mine]),
                         "p_high": rng([d.p_high for d in mine]), "ceiling": rng([d.ceiling for d in mine])})
    return rows


ROW_COLUMNS = {"theorem", "n", "trials", "successes", "p_hat", "mean", "sd", "ci_low", "ci_high", "min", "max", "conf",
               "experiment", "seed", "code_version"}


def varying_keys(rows) -> list[str]:
    """The parameters that tell a record's rows apart (the columns of its table of
    measured values), in the rows' order."""
    keys = [k for k in (rows[0] if rows else {}) if k not in ROW_COLUMNS]
    return [k for k in keys if len({str(r.get(k)) for r in rows}) > 1]


def natural_key(theorem_id: str) -> tuple:
    """Sort key that puts bns.thm2_7 before bns.thm2_11 (numbers compared as numbers)."""
    return tuple(int(t) if t.isdigit() else t for t in re.split(r"(\d+)", theorem_id))


def verdict_reason(v: ClaimResult) -> str:
    """One line saying why a claim's verdict is not a plain 'confirmed': the claim's own
    reason when it gives one, else the first point that decided it, with its numbers."""
    if v.verdict == "confirmed" and not v.finding:
        return ""
    if v.reason:
        return v.reason
    if v.verdict in MEANING:
        return MEANING[v.verdict]
    pts = [d for d in v.details if d.verdict == v.verdict]
    if not pts:
        return ""
    d, n = pts[0], len(pts)
    where = f"at {d.label or 'a point'}" + (f" (and {n - 1} more point{'s' if n > 2 else ''})" if n > 1 else "")
    if d.ceiling is not None:
        lo, hi, c = _fmt(d.p_low, 4), _fmt(d.p_high, 4), _fmt(d.ceiling, 4)
        seen = round((d.p_hat or 0) * (d.trials or 0))
        above = d.p_low is not None and d.p_low > d.ceiling
        what = {"vacuous": f"the ceiling {c} is at or above 1, so it says nothing",
                "refuted": (f"the success rate's interval [{lo}, {hi}] lies above the ceiling {c}" if above else
                            f"the claim says the event never happens, and it happened in {seen} of "
                            f"{d.trials} trials"),
                "inconclusive": f"the success rate's interval [{lo}, {hi}] holds the ceiling {c}"}
    elif v.kind == "mean bound":
        b, val = _fmt(d.bound, 4), _fmt(d.value, 4)
        side = "above" if v.upper in (True, None) else "below"
        if d.statistic == "max":
            what = {"vacuous": f"the bound {b} is outside the quantity's range, so it says nothing",
                    "refuted": f"a measured value {val} lies {side} the bound {b} (a counterexample among "
                               f"{d.trials} instances)"}
        else:
            iv = _interval(d.low, d.high, 4)
            what = {"vacuous": f"the bound {b} is outside the quantity's range, so it says nothing",
                    "refuted": f"the mean's interval {iv} lies {side} the bound {b}",
                    "inconclusive": f"the mean's interval {iv} holds the bound {b}"}
    else:
        b, iv = _fmt(d.bound, 4), _interval(d.n_low, d.n_high)
        if d.floor_reached:
            iv += " (succeeds already at its smallest n)"
        side = "above" if v.kind == "upper bound" else "below"
        # a point with an exact n_hat is decided on it, not on the interval
        refuted = (f"the exact n_hat {_fmt(d.exact)} (Monte Carlo interval {iv}) lies {side} the bound {b}"
                   if d.has_exact else f"the interval {iv} of n_hat lies {side} the bound {b}")
        what = {"vacuous": f"the bound {b} is at or below 0 (or not finite), so it says nothing",
                "refuted": refuted,
                "inconclusive": f"the interval {iv} of n_hat holds the bound {b} (or has an open end)",
                "confirmed up to lower-order terms": f"the interval {iv} of n_hat against the bound {b}"}
    return f"{where}, {what.get(v.verdict, v.verdict)}"


# How a scaling claim's direction reads on its page.
DIRECTION = {"upper": "an upper bound on the growth (refuted only by faster growth)",
             "lower": "a lower bound on the growth (refuted only by slower growth)",
             "tight": "a two-sided law (the paper proves matching upper and lower bounds)"}


def vclass(verdict: str) -> str:
    """A verdict as one CSS class name ("confirmed up to lower-order terms" has spaces)."""
    return {LOWER_ORDER: "lower-order", SLACK: "slack", EXACT: "exact", ABOVE: "above", BELOW: "below"}.get(verdict, verdict)


def notes_text(rec: Record, records: dict | None = None) -> str:
    """A theorem's notes with their placeholders filled from its record (privbounds.notes);
    ``records``, every record of the site, for a placeholder naming another theorem's claim."""
    return notes_shown(rec, (records or {}).get)


def environment() -> Environment:
    env = Environment(loader=PackageLoader("privbounds.reports", "templates"),
                      autoescape=select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True)
    env.filters["fmt"] = _fmt
    env.filters["vclass"] = vclass
    # what prints an open end marks the page's key (reports/openkey.py)
    env.globals["interval"] = openkey.marking(_interval)
    env.globals["varying_keys"] = varying_keys
    env.filters["overrides"] = overrides_text
    env.filters["why"] = openkey.marking(verdict_reason)
    env.filters["origin"] = origin
    env.filters["summary"] = ceiling_summary
    env.filters["notes"] = openkey.marking(notes_text)
    env.globals["FOLD"] = FOLD
    env.globals["DIRECTION"] = DIRECTION
    env.globals["NO_CLAIM"] = NO_CLAIM
    openkey.register(env)
    return env


def _copy_figure(src: Path, site: Path) -> dict:
    """Copy a drawn PNG and its SVG into the site; the page's links to them (no SVG link,
    and no stale SVG copy, for a figure drawn PNG only with --no-svg)."""
    shutil.copy2(src, site / "figures" / src.name)
    svg = src.with_suffix(".svg")
    if svg.is_file():
        shutil.copy2(svg, site / "figures" / svg.name)
    else:
        (site / "figures" / svg.name).unlink(missing_ok=True)
    return {"png": f"figures/{src.name}", "svg": f"figures/{svg.name}" if svg.is_file() else None}


def _totals(own: list) -> dict:
    """The index's counts over the papers' theorem pages."""
    return {"theorems": sum(1 for p in own if p["rec"].verdicts),
            "claims": sum(len(p["rec"].verdicts) for p in own),
            "failed": sum(1 for p in own if p["rec"].status == "failed"),
            "unsimulated": sum(1 for p in own if p["rec"].status in ("bound-only", "summary")),
            "verdicts": {v: n for v in VERDICTS
                         if (n := sum(1 for p in own for x in p["rec"].verdicts if x.verdict == v))}}


def build(out: Path) -> Path:
    records = load_valid(out)  # an unreadable record is named in a warning and left out
    if not records:
        if not available(out):
            raise ParameterError(no_results(out))
        raise ParameterError(f"no readable results in {results_dir(out)}; run 'privbounds run --out {out}' first")
    site = Path(out) / "report"
    (site / "figures").mkdir(parents=True, exist_ok=True)
    (site / "data").mkdir(parents=True, exist_ok=True)
    env = environment()
    env.globals["records"] = records  # the notes' placeholders may quote another theorem's claim
    common = {"generated": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "version": metadata.version("privbounds")}
    pages = []
    for tid, rec in records.items():
        figs = []  # the theorem's figure, then its parts <id>-<part> in name order
        folder = Path(out) / "figures"
        for old in [*(site / "figures").glob(f"{tid}-*.*"), *(site / "figures").glob(f"{tid}.*")]:
            old.unlink(missing_ok=True)  # a figure or part no longer drawn is not shown stale
        for src in [folder / f"{tid}.png", *sorted(folder.glob(f"{tid}-*.png"))]:
            if not src.is_file():
                continue
            figs.append({**_copy_figure(src, site), "part": src.stem[len(tid) + 1:] if src.stem != tid else None})
        shutil.copy2(results_dir(out) / f"{tid}.json", site / "data" / f"{tid}.json")
        csv = export_csv(out, tid)
        if csv is not None:
            shutil.copy2(csv, site / "data" / csv.name)
        counts = {}
        for v in rec.verdicts:
            counts[v.verdict] = counts.get(v.verdict, 0) + 1
        guarantees = sorted({(p.privacy.epsilon, p.privacy.delta, p.privacy.accounting) for p in rec.points},
                            key=lambda g: (g[2], str(g[0]), str(g[1])))
        page = f"{tid}.html"
        pages.append({"id": tid, "page": page, "rec": rec, "counts": counts})
        html = env.get_template("theorem.html").render(root="", rec=rec, figs=figs, tid=tid, errata=errata(tid),
                                                       guarantees=guarantees, key=openkey.Key(), **common)
        write_atomic(site / page, html)
    pages += _unsimulated_pages(site, env, {p["id"].split(".")[0] for p in pages}, common)
    order = {tid: i for i, tid in enumerate(registered_ids())}
    pages.sort(key=lambda p: order.get(p["id"], len(order)))  # the registry's order is each paper's
    from privbounds.registry import papers as known

    # the totals are the papers' theorems: measured learners (their comparisons) are not counted
    own = [p for p in pages if getattr(known().get(p["id"].split(".")[0]), "kind", "paper") == "paper"]
    totals = _totals(own)
    papers = []
    for prefix in sorted({p["id"].split(".")[0] for p in pages}):
        members = [p for p in pages if p["id"].split(".")[0] == prefix]
        figs = []
        # a paper's headline figures: paper-<prefix>-<class>.png (BNS) or <prefix>.headline.png
        heads = sorted((Path(out) / "figures").glob(f"paper-{prefix}-*.png"))
        heads += sorted((Path(out) / "figures").glob(f"{prefix}.headline.png"))
        for src in heads:
            figs.append({**_copy_figure(src, site), "name": src.stem})
        page = f"paper-{prefix}.html"
        kind = getattr(known().get(prefix), "kind", "paper")
        papers.append({"prefix": prefix, "page": page, "title": members[0]["rec"].paper, "n": len(members),
                       "kind": kind})
        write_atomic(site / page, env.get_template("paper.html").render(
            root="", title=members[0]["rec"].paper, pages=members, figs=figs,
            headline_ids=_headline_ids(prefix), caption=_headline_caption(prefix), sources=sources(prefix),
            verdicts=VERDICTS, key=openkey.Key(),
            censored=bool(figs) and any(openkey.censored(records[t]) for t in _headline_ids(prefix) if t in records),
            **common))
    from privbounds.reports.findings import CATEGORIES, collect

    found = collect(out)
    write_atomic(site / "findings.html", env.get_template("findings.html").render(
        root="", groups=[(c, h, [f for f in found if f.category == c]) for c, h in CATEGORIES.items()],
        key=openkey.Key(), **common))
    write_atomic(site / "index.html", env.get_template("index.html").render(
        root="", pages=pages, papers=papers, n_findings=len(found), totals=totals, verdicts=VERDICTS,
        runs=_runs(out), key=openkey.Key(), **common))
    shutil.copy2(TEMPLATES / "style.css", site / "style.css")
    shutil.copy2(TEMPLATES / "table.js", site / "table.js")
    return site / "index.html"


def _runs(out: Path) -> list[dict]:
    """The runs logged in ``out`` (privbounds.plan), latest first, with the scale model's
    prediction beside what each took."""
    from privbounds.plan import duration, ratio_text, runs

    return [{**r, "wall_text": duration(r["wall"]),
             "predicted_text": duration(r["predicted"]) if isinstance(r.get("predicted"), (int, float)) else "-",
             "ratio": ratio_text(r)} for r in reversed(runs(out))][:20]


def _unsimulated_pages(site: Path, env, prefixes, common) -> list[dict]:
    """Pages for the bound-only and summary entries of the papers shown, so that a reader
    sees that every result of the paper was considered, and where it is tested."""
    from privbounds.registry import get, select

    pages = []
    for prefix in sorted(prefixes):
        for tid in select(paper=prefix):
            thm = get(tid)
            if thm.runnable:
                continue
            # a page of the same shape as a result's, without a run (no provenance)
            rec = Record.parse({**thm.summary(), "math": thm.math, "notes": thm.notes, "fidelity": "—"})
            page = f"{tid}.html"
            pages.append({"id": tid, "page": page, "rec": rec, "counts": {}})
            write_atomic(site / page, env.get_template("theorem.html").render(
                root="", rec=rec, figs={}, tid=tid, errata=thm.errata, guarantees=[], **common))
    return pages


def errata(theorem_id: str) -> tuple:
    """The paper's misprints in a theorem that no claim tests, from the registry (a record
    written before its entry had them still shows them); none for an id it does not hold."""
    from privbounds.registry import get

    return get(theorem_id).errata if theorem_id in registered_ids() else ()


def _headline_caption(prefix: str) -> str:
    from privbounds.figures import headline_caption

    return headline_caption(prefix)


def _headline_ids(prefix: str) -> list[str]:
    """The theorems whose results a paper's headline figures draw (for the hint shown
    when those figures are missing)."""
    from privbounds.figures import headline_ids

    return headline_ids(prefix)
