"""What ``privbounds list`` and ``privbounds show`` print (cli.py parses their options):
the theorems with their claims and the last run's verdicts, as a table fitted to the
terminal; the instance families a learner can be measured on; one theorem or several in
full. Their ``--json`` is the same content with every number a JSON number.

A claim id longer than its column wraps inside the column (at its hyphens), so the kind
and the verdict stay aligned whatever the ids; an integral number is printed exactly
(``params.number_text``). Listing a folder that holds no results says so on stderr, with
the command that makes them: every claim would otherwise read "not run" with no hint why.
"""

from __future__ import annotations

import json
import shutil
import sys
import textwrap
from itertools import zip_longest

from privbounds.params import number_text

INDENT = "    "
GAP = "  "
# Narrower, a column would cut most claim ids into pieces too short to read; the table then
# runs past a very narrow terminal rather than becoming unreadable.
MIN_COLUMN = 12
# Room kept for the verdict before claim ids are wrapped: a verdict wraps at its spaces and
# reads well on two lines, an id cut at its hyphens less so.
VERDICT_ROOM = 16
ID_WIDTH = 12  # most theorem ids fit ("bns.prop2_20"); a longer one pushes its title right
SHOWN_GRID = 8  # grid values listed per parameter (then "...")


def columns() -> int:
    """The terminal's width ($COLUMNS, then the terminal itself; 100 for a pipe or a file)."""
    return max(40, shutil.get_terminal_size((100, 24)).columns)


def fill(text: str, indent: str = "", first: str | None = None) -> str:
    """``text`` wrapped to the terminal, its later lines at ``indent``; ids and numbers are
    never cut (a long one runs past the edge instead)."""
    return textwrap.fill(text, columns(), initial_indent=indent if first is None else first,
                         subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)


def table(rows, widths: list[int], indent: str = INDENT) -> list[str]:
    """``rows`` of cells as aligned lines: a cell wider than its column wraps inside it (at
    spaces and hyphens), and the row's other cells stay on its first line."""
    lines = []
    for row in rows:
        cells = [textwrap.wrap(str(c), w, break_on_hyphens=True) or [""] for c, w in zip(row, widths)]
        for parts in zip_longest(*cells, fillvalue=""):
            lines.append((indent + GAP.join(p.ljust(w) for p, w in zip(parts, widths))).rstrip())
    return lines


def claim_widths(rows) -> list[int]:
    """The widths of the claim, kind and verdict columns for ``rows`` (all the listing's
    claims, so that every theorem's table lines up): the claim column takes the longest id
    where the terminal has room beside the longest kind and verdict, and wraps ids beyond."""
    claim, kind, verdict = (max((len(r[i]) for r in rows), default=0) for i in range(3))
    room = columns() - len(INDENT) - 2 * len(GAP)
    claim_w = max(MIN_COLUMN, min(claim, room - kind - min(verdict, VERDICT_ROOM)))
    return [claim_w, kind, max(MIN_COLUMN, min(verdict, room - claim_w - kind))]


def _grid_text(values, most: int | None = SHOWN_GRID) -> str:
    shown = ", ".join(number_text(v, "") for v in values[:most])
    return shown + (", ..." if most is not None and len(values) > most else "")


def print_theorems(rows: list[dict]) -> None:
    """The theorems (``list``'s rows: summary, parameters, last verdicts) as text."""
    claims = [(c["id"], c["kind"], c["last_verdict"] or "not run") for s in rows for c in s["claims"]]
    widths = claim_widths(claims)
    for s in rows:
        head = f"{s['id']:<{ID_WIDTH}} "
        print(fill(f"{s['number']} - {s['title']}", " " * len(head), head))
        if s["status"] != "simulated":
            how = (f"tested by {', '.join(s['tested_by'])}" if s["tested_by"]
                   else f"not measured; see 'privbounds show {s['id']}'")
            print(fill(f"({s['status']}: {how})", INDENT + " ", INDENT))
        elif s.get("last_status") == "failed":
            print(f"{INDENT}(last run failed; see 'privbounds show {s['id']}')")
        elif s.get("last_status") == "unreadable":
            print(f"{INDENT}(its result file is unreadable: see the warning above; rerun it)")
        for line in table([(c["id"], c["kind"], c["last_verdict"] or "not run") for c in s["claims"]], widths):
            print(line)
        for prm in s["parameters"]:
            grid = prm["grid"].get("quick") or next(iter(prm["grid"].values()), [])
            print(fill(f"--set {prm['name']}=...  {prm['allowed']}; quick grid: {_grid_text(grid) or 'not on the grid'}",
                       INDENT * 2, INDENT))


def list_instances(as_json: bool) -> int:
    """``privbounds list --instances``: the families a learner can be measured on."""
    from privbounds.instances import families

    rows = [{"name": f.name, "description": f.description, "theorem": f.theorem, "also": list(f.also),
             # where another theorem runs the instance at its own values (bns.thm3_1: d = 3)
             "also_values": {t: {**f.also_points.get(t, {}), **f.also_defaults.get(t, {})} for t in f.also},
             "parameters": {k: spec.describe() for k, spec in f.params.items()},
             # the same ranges as numbers, for a program
             "limits": {k: spec.limits() for k, spec in f.params.items() if hasattr(spec, "limits")},
             "defaults": f.defaults, "grid": {} if f.measurable else f.grid, "measurable": not f.measurable,
             **({"not_measurable": f.measurable} if f.measurable else {})}
            for f in families().values()]
    if as_json:
        print(json.dumps(rows, indent=1))
        return 0
    width = max(len(r["name"]) for r in rows)

    def at(theorem, values):  # a theorem with the values it runs the instance at
        shown = ", ".join(f"{k} = {number_text(v)}" for k, v in values.items())
        return theorem + (f" [{shown}]" if values else "")

    for r, f in zip(rows, families().values()):
        also = ", ".join(at(t, r["also_values"][t]) for t in r["also"])
        print(fill(f"{r['description']} (the instance of {at(r['theorem'], f.theorem_point)}"
                   f"{'; also run by ' + also if also else ''})", " " * (width + 1), f"{r['name']:<{width}} "))
        print(fill("parameters: " + "; ".join(f"{k}: {v}" for k, v in r["parameters"].items())
                   + ("; defaults: " + ", ".join(f"{k} = {number_text(v)}" for k, v in r["defaults"].items())
                      if r["defaults"] else "")
                   + ("; measure's default grid: " + ", ".join(f"{k} = [{_grid_text(v, None)}]" for k, v in r["grid"].items())
                      if r["grid"] else ""), INDENT * 2, INDENT))
        if not r["measurable"]:  # its theorem has no n_hat to set a learner's beside
            print(fill(f"not for privbounds measure: {r['not_measurable']}", INDENT * 2, INDENT))
    return 0


def theorem_rows(ids, out) -> list[dict]:
    """``list``'s rows: each theorem's summary and parameters, its last run's status and each
    claim's last verdict, from the typed record in ``out``."""
    from privbounds import messages, results
    from privbounds.registry import get

    have = set(results.available(out))
    rows = []
    for tid in ids:
        t = get(tid)
        s = {**t.summary(), "parameters": t.parameters()}
        last = {}
        if tid in have:
            try:
                rec = results.load(out, tid)
            except results.ResultError as e:
                messages.warn(f"skipping {e}")
                s["last_status"] = "unreadable"
            else:
                s["last_status"] = rec.status
                last = {v.claim: v.verdict for v in rec.verdicts}
        for c in s["claims"]:
            c["last_verdict"] = last.get(c["id"])
        rows.append(s)
    return rows


def note_empty(out, ids, asked) -> None:
    """One line on stderr when ``out`` holds no results although some of ``ids`` could have
    some: what would otherwise be a silent column of "not run"."""
    from privbounds import results
    from privbounds.registry import get

    if any(get(t).runnable for t in ids) and not results.available(out):
        print(f"privbounds: note: {results.no_results(out, asked)}", file=sys.stderr)


def print_show(info: dict) -> None:
    """One theorem in full (``api.show``): statement, claims with their bounds and last
    verdicts, the files that implement it."""
    print(f"{info['id']}  {info['number']} - {info['title']}")
    print(f"paper:     {info['paper']}")
    print(f"status:    {info['status']}" + (f" ({info['reason']})" if info["reason"] else ""))
    if info["tested_by"]:
        print(f"tested by: {', '.join(info['tested_by'])}")
    print(f"statement: {info['statement']}")
    print(f"math:      {info['math']}")
    if info["notes"]:
        print(f"notes:     {info['notes']}")
    if info["errata"]:
        from privbounds.registry import Erratum
        from privbounds.reports.findings import NO_CLAIM

        print(f"errata in the paper ({NO_CLAIM}):")
        for e in info["errata"]:
            print(f"    {Erratum(**e).line()}")
    print("files:")
    for f in info["files"]:
        print(f"    {f}")
    if info["uses"]:
        print("uses (reusable parts, and what the simulator imports):")
        for f in info["uses"]:
            print(f"    {f}")
    if info["claims"]:
        print("claims:")
    for c in info["claims"]:
        print(f"    {c['id']} ({c['kind']}): {c['description']}")
        if c.get("bound_name"):
            print(f"        bound {c['bound_name']} [{c['bound_kind']}]: {c['bound_source']}")
        if c.get("last_verdict"):
            print(f"        last verdict: {c['last_verdict']}" + (f" ({c['last_evidence']})" if c.get("last_evidence")
                                                                  else ""))
    if info.get("unaudited"):
        print("not audited with power:")
        for what, why in info["unaudited"].items():
            print(f"    {what}: {why}")
    if info.get("last_run"):
        print(f"last run:  {info['last_run']}")
