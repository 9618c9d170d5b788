"""``privbounds check``: the regression check on verdicts and bound tightness.

Compares ``<out>/results/*.json`` with the committed baselines of the same fidelity, one
file per paper (``reports/baselines/<paper>/<fidelity>.json``), so that adding a theorem to
one paper touches only that paper's file. A regression is:

- a claim whose verdict got worse (confirmed > inconclusive > refuted);
- a tightness interval (n_hat / N or L / n_hat, per parameter point) or a fitted
  exponent's interval that no longer overlaps the baseline's;
- a claim or theorem that the baseline has no entry for, or that vanished from the
  results (the baseline must be updated on purpose, with ``check --update``).

Because a seed fixes every number, an unchanged code base reproduces the baseline
exactly; intervals that merely move within their own width are not regressions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from privbounds.claims import ORDER
from privbounds.params import ParameterError
from privbounds.results import available, load, write_atomic

BASELINE_DIR = Path(__file__).resolve().parent / "baselines"


@dataclass
class Outcome:
    exit_code: int
    lines: list = field(default_factory=list)
    regressions: list = field(default_factory=list)


def _intervals(verdict: dict) -> dict:
    """label -> [low, high] of what the check tracks for one claim."""
    out = {}
    if verdict["kind"] == "scaling":
        if verdict.get("fit"):
            out["exponent"] = [verdict["fit"]["low"], verdict["fit"]["high"]]
        return out
    for d in verdict.get("details", []):
        if "tightness_low" in d:
            out[d["label"]] = [d["tightness_low"], d["tightness_high"]]
    return out


def summarise(record: dict) -> dict:
    return {v["claim"]: {"verdict": v["verdict"], "intervals": _intervals(v)}
            for v in record["verdicts"]}


def _overlap(a, b) -> bool:
    lo1, hi1 = (float("-inf") if a[0] is None else a[0]), (float("inf") if a[1] is None else a[1])
    lo2, hi2 = (float("-inf") if b[0] is None else b[0]), (float("inf") if b[1] is None else b[1])
    return lo1 <= hi2 and lo2 <= hi1


def baseline_path(paper: str, fidelity: str) -> Path:
    return BASELINE_DIR / paper / f"{fidelity}.json"


def _load_baselines(paths: dict, fid: str) -> dict:
    """theorem id -> baseline entry, from every paper's file that exists."""
    out = {}
    for path in paths.values():
        if not path.is_file():
            continue
        data = json.loads(path.read_text())
        if data.get("fidelity") != fid:
            raise ParameterError(f"baseline {path} is for fidelity {data.get('fidelity')}, results are {fid}")
        out.update(data.get("theorems", {}))
    return out


def run_check(out: Path, baseline=None, update: bool = False, fidelity: str | None = None,
              ids=None) -> Outcome:
    ids = list(ids) if ids else available(out)
    if not ids:
        raise ParameterError(f"no results in {Path(out) / 'results'}; run 'privbounds run --out {out}' first")
    records = {tid: load(out, tid) for tid in ids}
    for tid, rec in records.items():
        if rec.get("overrides"):
            sets = " ".join(f"--set {k}={','.join(map(str, v))}" for k, v in rec["overrides"].items())
            raise ParameterError(f"results for {tid} in {out} were run with {sets}; the check compares "
                                 "the registered grids, so rerun without --set")
    fids = {r["fidelity"] for r in records.values()}
    if len(fids) > 1:
        raise ParameterError(f"results in {out} mix fidelities {sorted(fids)}; rerun them at one fidelity")
    fid = fids.pop()
    if fidelity is not None and fidelity != fid:
        raise ParameterError(f"--fidelity {fidelity} does not match the results' fidelity {fid}")
    current = {tid: summarise(rec) for tid, rec in records.items()}
    seeds = {rec["provenance"]["seed"] for rec in records.values()}
    # one file per paper; --baseline names a single file that holds every paper's entries
    papers = sorted({tid.split(".")[0] for tid in current})
    if baseline:
        paths = {"*": Path(baseline)}
    else:
        from privbounds.registry import papers as known

        paths = {p: baseline_path(p, fid) for p in sorted(set(papers) | set(known()))}

    if update:
        failed = [tid for tid, rec in records.items() if rec.get("status") == "failed"]
        if failed:
            raise ParameterError(f"results of {', '.join(failed)} in {out} are failed runs; "
                                 "a baseline is made from finished runs only")
        written = []
        for paper, path in paths.items():
            mine = {tid: s for tid, s in current.items() if paper in ("*", tid.split(".")[0])}
            if not mine:
                continue
            data = {"fidelity": fid, "seeds": sorted(seeds), "theorems": {}}
            if path.is_file():  # keep theorems that were not rerun
                data["theorems"] = json.loads(path.read_text()).get("theorems", {})
            data["theorems"].update(mine)
            write_atomic(path, json.dumps(data, indent=1, sort_keys=True) + "\n")
            written.append(f"{path} ({len(mine)} theorems written, {len(data['theorems'])} in the file)")
        return Outcome(0, [f"baseline updated: {w}" for w in written])

    if not any(path.is_file() for path in paths.values()):
        if baseline is None and fid == "smoke":
            raise ParameterError("smoke results have no committed baseline (there are quick and full ones); "
                                 "run at --fidelity quick to check")
        where = baseline or BASELINE_DIR / "<paper>" / f"{fid}.json"
        raise ParameterError(f"no baseline at {where}; create one with 'privbounds check --update'")
    base = {"theorems": _load_baselines(paths, fid)}
    names = ", ".join(sorted({f"{p.parent.name}/{p.name}" if p.parent != BASELINE_DIR else p.name
                              for p in paths.values() if p.is_file()}))

    lines, regs = [], []
    for tid, rec in records.items():
        if rec.get("status") == "failed":
            regs.append(f"{tid}: the run failed ({rec.get('error')}; traceback in {rec.get('log')})")
    for tid, claims in current.items():
        if records[tid].get("status") == "failed":
            continue  # reported above; its claims have no measurement to compare
        bt = base["theorems"].get(tid)
        if bt is None:
            regs.append(f"{tid}: no baseline entry (run 'privbounds check --update')")
            continue
        for cid, now in claims.items():
            was = bt.get(cid)
            if was is None:
                regs.append(f"{tid} {cid}: new claim without a baseline entry")
                continue
            if ORDER[now["verdict"]] < ORDER[was["verdict"]]:
                regs.append(f"{tid} {cid}: verdict {was['verdict']} -> {now['verdict']}")
            for label, iv in now["intervals"].items():
                old = was["intervals"].get(label)
                if old is not None and not _overlap(iv, old):
                    regs.append(f"{tid} {cid} [{label}]: interval {_fmt(iv)} no longer overlaps "
                                f"baseline {_fmt(old)}")
            lines.append(f"{tid:<12} {cid:<24} {now['verdict']:<12} (baseline {was['verdict']})")
        for cid in bt:
            if cid not in claims:
                regs.append(f"{tid} {cid}: claim in the baseline but not in the results")
    for tid in sorted(set(base["theorems"]) - set(current)):
        lines.append(f"{tid:<12} not checked: no results in {out}")
    status = "FAILED" if regs else "ok"
    lines += [f"REGRESSION {r}" for r in regs]
    # a partial run is checked as far as it goes; say plainly how far that is
    unchecked = len(set(base["theorems"]) - set(current))
    lines.append(f"check {status}: {len(current)} theorems, "
                 f"{sum(len(c) for c in current.values())} claims, {len(regs)} regressions "
                 f"(baselines {names})"
                 + (f"; {unchecked} baseline theorems have no results in {out} and were not checked"
                    if unchecked else ""))
    return Outcome(1 if regs else 0, lines, regs)


def _fmt(iv) -> str:
    return "[" + ", ".join("open" if v is None else f"{v:.3g}" for v in iv) + "]"
