"""The scale model: how long a run of the five papers' theorems (or a user's) will take on N
workers, and how large its block store will grow, from what earlier runs measured.

Each theorem's cost is taken from the last run of it at the same fidelity and grid in the
output folder (its record's ``engine``: blocks computed and read, the seconds its computed
blocks took, its rounds; its blocks' bytes in that folder's store), and otherwise from the
costs the project measured and committed (``reports/costs/<fidelity>.json``, written from a
run of all theorems on 2 cores by ``write_costs``).

The model (``predict``): the blocks of a run are independent tasks on N one-thread workers,
except that the requests of one point follow each other. So the wall time is about the
larger of the block-seconds over N and the longest theorem's chain of rounds (each round
waits for at least one of its blocks): ``max(S / N, max_t rounds_t * mean block_t)``.
It ignores start-up and the last blocks' tail, and block seconds measured on other cores.
Every run appends what it measured beside what the model predicted before it started to
``<out>/runs.jsonl``; the report shows both.
"""

from __future__ import annotations

import importlib.util
import json
import math
import sqlite3
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from privbounds.params import Interval, ParameterError, flag
from privbounds.record import Engine
from privbounds.registry import get, papers
from privbounds.results import ResultError, load, results_dir

# beside the baselines, in the reports package (the repository's reports/ folder)
COSTS_DIR = Path(importlib.util.find_spec("privbounds.reports").origin).parent / "costs"
RUNS = "runs.jsonl"
# a stored block's bytes on disk beside its key and value (hashes, names, timestamps, the index,
# pages' slack): 426 and 437 in the quick and full stores of 8472db9 (file size / blocks - mean
# key and value)
ROW_BYTES = 430
WORKERS = Interval("workers", 1, 100_000, "both", integer=True)


@dataclass(frozen=True)
class Cost:
    """What one theorem's run at one fidelity cost: ``blocks`` (computed and read from the
    store), ``seconds`` (the block-seconds of all of them, a read block counted at the mean
    of the computed ones), ``rounds`` (the longest chain of requests of one point),
    ``store_bytes`` (its blocks' size on disk, when known) and where the numbers come from."""

    theorem: str
    blocks: int
    seconds: float
    rounds: int
    store_bytes: int | None
    source: str

    @property
    def chain(self) -> float:
        """Seconds of the theorem's longest sequence of requests: a floor on its wall time."""
        return self.rounds * self.seconds / self.blocks if self.blocks else 0.0


@dataclass(frozen=True)
class Estimate:
    """A prediction for a set of theorems on ``workers`` workers; ``missing``: the selected
    theorems with no measured cost (not in ``wall`` nor ``store_bytes``)."""

    label: str
    theorems: int
    blocks: int
    seconds: float
    wall: float
    store_bytes: int | None
    missing: tuple[str, ...]


def _from_record(out: Path, tid: str, fidelity: str, store: dict) -> Cost | None:
    try:
        rec = load(out, tid)
    except (ParameterError, ResultError):
        return None
    eng = rec.engine
    mean = block_mean(eng)
    if rec.fidelity != fidelity or rec.overrides or not mean:
        return None  # a --set run costs what its own grid costs, not the registered one's
    blocks = eng.blocks_run + eng.blocks_cached
    size = None if tid not in store else round(store[tid] * blocks)
    return Cost(tid, blocks, mean * blocks, eng.rounds, size, f"the last run in {out}")


def block_mean(engine: Engine | None) -> float | None:
    """A record's mean seconds per block: measured in its run, or carried from the run
    before when every block was read from the store (None when neither is known, or for a
    failed run, which has no engine part)."""
    if engine is None:
        return None
    if engine.block_mean is not None and engine.block_mean > 0:
        return float(engine.block_mean)
    if engine.blocks_run:
        return engine.block_seconds / engine.blocks_run
    return None


def store_bytes(out: Path) -> dict[str, float]:
    """Theorem -> estimated bytes on disk of one of its blocks in ``<out>/blocks.sqlite`` (the
    mean over its stored blocks, whatever code made them; read-only; {} when there is no
    store): a run's store is that times its blocks."""
    path = Path(out) / "blocks.sqlite"
    if not path.is_file():
        return {}
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = db.execute("SELECT theorem, AVG(bytes) + ? FROM blocks GROUP BY theorem",  # bytes: key + value
                              (ROW_BYTES,)).fetchall()
        finally:
            db.close()
    except sqlite3.Error:
        return {}
    return {t: float(b) for t, b in rows}


def committed(fidelity: str) -> dict[str, Cost]:
    """The project's measured costs at ``fidelity`` (empty when none were committed)."""
    path = COSTS_DIR / f"{fidelity}.json"
    if not path.is_file():
        return {}
    data = json.loads(path.read_text())
    src = f"the project's {fidelity} run of {data['code_version']} ({data['machine']})"
    return {tid: Cost(tid, c["blocks"], c["seconds"], c["rounds"], c.get("store_bytes"), src)
            for tid, c in data["theorems"].items()}


def costs(ids, fidelity: str, out) -> dict[str, Cost]:
    """Theorem id -> its Cost, from ``out``'s records first, then the committed costs."""
    out = Path(out)
    store = store_bytes(out) if results_dir(out).is_dir() else {}
    mine = {tid: c for tid in ids if (c := _from_record(out, tid, fidelity, store)) is not None}
    theirs = committed(fidelity)
    return {tid: mine.get(tid) or theirs[tid] for tid in ids if tid in mine or tid in theirs}


def predict(label: str, ids, known: dict[str, Cost], workers: int) -> Estimate:
    """The model's wall time and store size of ``ids`` on ``workers`` one-thread workers."""
    have = [known[t] for t in ids if t in known]
    seconds = sum(c.seconds for c in have)
    wall = max([seconds / workers] + [c.chain for c in have])
    sizes = [c.store_bytes for c in have]
    size = sum(sizes) if sizes and all(s is not None for s in sizes) else None
    return Estimate(label, len(ids), sum(c.blocks for c in have), seconds, wall, size,
                    tuple(t for t in ids if t not in known))


def plan(ids, fidelity: str, workers: int, out) -> list[Estimate]:
    """One Estimate per paper of ``ids`` (in the registry's order), then one for them all."""
    known = costs(ids, fidelity, out)
    by_paper: dict[str, list[str]] = {}
    for tid in ids:
        by_paper.setdefault(get(tid).prefix, []).append(tid)
    rows = [predict(p, by_paper[p], known, workers) for p in papers() if p in by_paper]
    return rows + [predict("all", list(ids), known, workers)]


def make_plan(ids=None, paper: str | None = None, fidelity: str = "quick", workers: int = 1,
              out="privbounds-out") -> tuple[list[Estimate], list[str]]:
    """``plan`` of the registered theorems selected by ``ids`` (ids or patterns) and
    ``paper``, with the sources of its costs (a measured learner, which runs only when
    named, is left out unless named)."""
    from privbounds.arguments import resolve_ids
    from privbounds.simulators.engine.simulator import FIDELITIES

    if fidelity not in FIDELITIES:
        raise ParameterError(f"{flag('fidelity')} must be one of {', '.join(FIDELITIES)}, got {fidelity!r}")
    if isinstance(workers, bool) or not isinstance(workers, int):
        raise ParameterError(f"{flag('workers')} must be {WORKERS.describe()}, got {workers!r}")
    try:
        WORKERS.validate(workers)
    except ParameterError:
        raise ParameterError(f"{flag('workers')} must be {WORKERS.describe()}, got {workers!r}") from None
    named = set(ids or ()) if not isinstance(ids, str) else {ids}
    chosen = [t for t in resolve_ids(ids, paper)
              if t in named or not getattr(get(t).simulator, "measured", False)]
    if not chosen:
        raise ParameterError("no theorem selected")
    rows = plan(chosen, fidelity, workers, out)
    sources = sorted({c.source for c in costs(chosen, fidelity, out).values()})
    return rows, sources


def duration(seconds: float) -> str:
    """Seconds as people read a duration: 45 s, 12 min, 3.4 h."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def size(nbytes: int | None) -> str:
    if nbytes is None:
        return "?"
    return f"{nbytes / 2**20:.1f} MiB" if nbytes < 2**30 else f"{nbytes / 2**30:.2f} GiB"


def render(rows: list[Estimate], fidelity: str, workers: int, sources: list[str]) -> str:
    """The plan as an aligned table, with where its costs come from and what it leaves out."""
    head = ("paper", "theorems", "blocks", "block-hours", f"wall on {workers}", "store")
    body = [(e.label, f"{e.theorems - len(e.missing)}/{e.theorems}" if e.missing else str(e.theorems),
             f"{e.blocks:,}", f"{e.seconds / 3600:.2f}", duration(e.wall), size(e.store_bytes)) for e in rows]
    widths = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]
    lines = [f"plan: {fidelity} fidelity on {workers} worker{'s' if workers != 1 else ''} of one thread each"]
    lines += ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
              for r in [head, *body]]
    lines += [f"costs from {s}" for s in sources]
    missing = rows[-1].missing
    if missing:
        lines.append(f"no measured cost (left out above): {', '.join(missing)}; run them once at "
                     f"{flag('fidelity')} {fidelity} to include them")
    lines.append("model: max(block-seconds / workers, the longest theorem's chain of rounds); "
                 "start-up, the last blocks' tail and slower or faster cores are not in it")
    return "\n".join(lines)


def record_run(out, *, fidelity: str, theorems: int, workers: int, backend: str, wall: float,
               predicted: Estimate | None, code_version: str, cached: int = 0) -> None:
    """Append what this run measured, beside what the model predicted before it, to
    ``<out>/runs.jsonl`` (one JSON object a line; a run that did not finish writes none).
    ``cached``: the blocks it read from the store, which the model (a run from nothing)
    does not subtract."""
    line = {"finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "fidelity": fidelity,
            "theorems": theorems, "workers": workers, "backend": backend, "wall": round(wall, 1), "cached": cached,
            "predicted": None if predicted is None or predicted.missing else round(predicted.wall, 1),
            "code_version": code_version}
    with open(Path(out) / RUNS, "a") as f:
        f.write(json.dumps(line) + "\n")


def runs(out) -> list[dict]:
    """The runs ``record_run`` logged in ``out``, oldest first (a line that does not parse is
    skipped: the log is informative, never a reason to fail)."""
    path = Path(out) / RUNS
    if not path.is_file():
        return []
    got = []
    for text in path.read_text().splitlines():
        try:
            row = json.loads(text)
        except ValueError:
            continue
        if isinstance(row, dict) and isinstance(row.get("wall"), (int, float)):
            got.append(row)
    return got


def write_costs(out, fidelity: str, machine: str) -> Path:
    """Commit-ready costs of every theorem recorded at ``fidelity`` in ``out`` (from a run
    of the registered grid), for ``committed`` to read on a machine with no run of its own."""
    from privbounds.results import available

    store = store_bytes(Path(out))
    found = {tid: _from_record(Path(out), tid, fidelity, store) for tid in available(out)}
    theorems = {tid: {k: round(v, 2) if isinstance(v, float) else v for k, v in asdict(c).items()
                      if k not in ("theorem", "source")}
                for tid, c in sorted(found.items()) if c is not None}
    versions = sorted({load(out, tid).provenance.code_version for tid in theorems})
    path = COSTS_DIR / f"{fidelity}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"fidelity": fidelity, "code_version": ", ".join(versions), "machine": machine,
                                "theorems": theorems}, indent=1) + "\n")
    return path


def ratio_text(row: dict) -> str:
    """'measured / predicted' of one logged run, or why there is no ratio."""
    pred = row.get("predicted")
    if not isinstance(pred, (int, float)) or not math.isfinite(pred) or pred <= 0:
        return "no prediction (a --set grid, or a theorem without a measured cost)"
    if row.get("cached"):
        return f"not comparable: {row['cached']:,} blocks were read from the store"
    return f"{row['wall'] / pred:.2f}"
