"""The baselines of ``privbounds check`` (check.py): what a run's record keeps for the
comparison, and the committed files that hold it.

Not tied to one paper: one file per paper and fidelity (``reports/baselines/<paper>/
<fidelity>.json``, or ``<fidelity>.json`` in the folder a plugin's paper names in
``Paper.baselines``) holds, per theorem of the five papers (or of a plugin), every claim's
verdict, intervals and bound values keyed by where they were evaluated, the success
counts of every (parameter point, n) the run evaluated, each point's n_hat and each
privacy audit's event counts (``summarise``); ``read_baseline`` validates a file.
"""

from __future__ import annotations

import json
from pathlib import Path

from privbounds.params import ParameterError
from privbounds.record import ClaimResult, Record
from privbounds.results import ResultError
from privbounds.simulators.engine.simulator import point_key

BASELINE_DIR = Path(__file__).resolve().parent / "baselines"
FORMAT = 3  # baseline layout: claims, counts by point then n, n_hat and audits per theorem
MEASURED = {"trials", "successes", "p_hat", "ci_low", "ci_high", "conf", "seed", "code_version",
            "mean", "sd", "min", "max"}


TIGHTNESS_KINDS = ("upper bound", "lower bound", "mean bound")  # claims whose points have a tightness


def _intervals(verdict: ClaimResult) -> dict:
    """label -> [low, high] of the tightness or exponent intervals of one claim (a point's
    tightness may be [null, null]: no interval there, kept so that one appearing shows)."""
    if verdict.kind == "scaling":
        return {"exponent": [verdict.fit.low, verdict.fit.high]} if verdict.fit else {}
    if verdict.kind not in TIGHTNESS_KINDS:
        return {}
    return {d.label: [d.tightness_low, d.tightness_high] for d in verdict.details}


def _values(verdict: ClaimResult) -> dict:
    """Where the claim's bound was evaluated -> its value (bound, ceiling or declared epsilon)."""
    if verdict.kind == "privacy audit":
        return {"epsilon": verdict.epsilon, "delta": verdict.delta}
    out = {}
    for d in verdict.details:
        if d.bound is not None:
            out[point_key(d.point)] = d.bound
        elif d.ceiling is not None:
            out[f"{point_key(d.point)}|{d.n}"] = d.ceiling
    return out


def _where(values: dict) -> dict:
    """A claim's bound values keyed by where they were evaluated, without what was measured
    there (a row's interval level moves with the engine's looks, not with the claim)."""
    out = {}
    for k, v in values.items():
        head, bar, n = k.partition("|")
        try:
            point = json.loads(head)
        except ValueError:  # "epsilon", "delta": a privacy audit's declared budget
            out[k] = v
            continue
        out[point_key({a: b for a, b in point.items() if a not in MEASURED}) + bar + n] = v
    return out


def _row_point(row: dict) -> str:
    """A row's point and experiment, without its n, its theorem (the entry's key already)
    and what was measured."""
    return point_key({k: v for k, v in row.items() if k not in MEASURED | {"n", "theorem"}})


def _counts(rows) -> dict:
    """point -> {n: [successes, trials]}: one entry per point keeps the baseline small."""
    out: dict = {}
    for r in rows:
        if r.get("experiment") != "mean":
            out.setdefault(_row_point(r), {})[str(r["n"])] = [r["successes"], r["trials"]]
    return out


def _means(rows) -> dict:
    """point -> {n: [mean, sd, trials, max]} of the rows that measure a mean."""
    out: dict = {}
    for r in rows:
        if r.get("experiment") == "mean":
            out.setdefault(_row_point(r), {})[str(r["n"])] = [r["mean"], r["sd"], r["trials"], r["max"]]
    return out


def summarise(record: Record) -> dict:
    """What the baseline keeps of a record: verdicts, intervals and bound values per claim,
    the counts and means per point and n, n_hat per searched point, the audits' counts."""
    return {
        "seed": record.provenance.seed,
        "claims": {v.claim: {"verdict": v.verdict, "intervals": _intervals(v), "values": _values(v)}
                   for v in record.verdicts},
        "counts": _counts(record.rows),
        "means": _means(record.rows),
        "n_hat": {point_key(p.point): [p.n_hat, p.n_low, p.n_high] for p in record.points if p.searched},
        "audits": {a.name: {b: [r["hits_d"], r["hits_d_prime"], r["trials"]] for b, r in a.budgets.items()}
                   for a in record.audits},
    }


# --- baselines -------------------------------------------------------------------------------

def baseline_path(paper: str, fidelity: str) -> Path:
    """The paper's baseline file: in its ``Paper.baselines`` folder when it names one (a
    plugin's paper keeps its baselines in its own package), else under ``BASELINE_DIR``."""
    from privbounds.registry import papers

    own = getattr(papers().get(paper), "baselines", None)
    return Path(own) / f"{fidelity}.json" if own is not None else BASELINE_DIR / paper / f"{fidelity}.json"


ENTRY_KEYS = {"seed": int, "claims": dict, "counts": dict, "n_hat": dict, "audits": dict}


def read_baseline(path: Path) -> dict:
    """A baseline file, validated: the top-level fields and every entry's (``summarise``)."""
    rebuild = "rebuild it with 'privbounds check --update' from a run of an unchanged tree"
    try:
        data = json.loads(Path(path).read_text())
    except OSError as e:
        raise ResultError(f"baseline {path}: cannot be read ({e.strerror or e})") from None
    except ValueError as e:
        raise ResultError(f"baseline {path}: not valid JSON ({e}); {rebuild}") from None
    if not isinstance(data, dict):
        raise ResultError(f"baseline {path}: a JSON object is expected, found {type(data).__name__}; {rebuild}")
    if not isinstance(data.get("theorems"), dict):
        raise ResultError(f"baseline {path}: has no 'theorems' object; {rebuild}")
    for tid, entry in data["theorems"].items():
        bad = [k for k, t in ENTRY_KEYS.items() if not isinstance(entry, dict) or not isinstance(entry.get(k), t)]
        if bad:
            raise ResultError(f"baseline {path}: the entry of {tid} lacks {', '.join(bad)} or has the wrong type; "
                              f"{rebuild}")
    return data


def _load_baselines(paths: dict, fid: str) -> dict:
    """theorem id -> baseline entry, from every paper's file that exists."""
    out = {}
    for path in paths.values():
        if not path.is_file():
            continue
        data = read_baseline(path)
        if data.get("fidelity") != fid:
            raise ParameterError(f"baseline {path} is for fidelity {data.get('fidelity')}, results are {fid}")
        if data.get("format") != FORMAT:
            raise ParameterError(f"baseline {path} predates the counts it must hold; rebuild it with "
                                 "'privbounds check --update' from a run of an unchanged tree")
        out.update(data.get("theorems", {}))
    return out
