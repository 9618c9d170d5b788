"""Results on disk (design.md, "Results on disk"): one JSON record and one tidy CSV per
theorem under ``<out>/results``.

The record holds the table's rows too, and it is the unit: it is written atomically
(temporary file, fsync, rename), so an interrupted run never leaves a half-written
result in place of an earlier good one, nor a table that belongs to another run. The
CSV beside it is an export of the same rows for spreadsheets and pandas, written right
after the record and rewritten from it when missing (``export_csv``).
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path

import pandas as pd

from privbounds.params import ParameterError

DEFAULT_OUT = Path("privbounds-out")
_UMASK = os.umask(0)
os.umask(_UMASK)


def results_dir(out) -> Path:
    return Path(out) / "results"


def write_atomic(path: Path, data: str | bytes) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = "wb" if isinstance(data, bytes) else "w"
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes 0600; results are meant to be shared
        with os.fdopen(fd, mode) as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def save(out, theorem_id: str, record: dict, rows: list[dict]) -> None:
    rdir = results_dir(out)
    csv = rdir / f"{theorem_id}.csv"
    # the old table goes first: a crash between the two writes leaves no CSV (rebuilt from
    # the record by export_csv), never one that belongs to another run
    csv.unlink(missing_ok=True)
    write_atomic(rdir / f"{theorem_id}.json", json.dumps({**record, "rows": rows}, indent=1, default=_jsonable))
    if rows:
        write_atomic(csv, pd.DataFrame(rows).to_csv(index=False))


def export_csv(out, theorem_id: str) -> Path | None:
    """The theorem's CSV, rewritten from its record if it is missing; None without rows."""
    csv = results_dir(out) / f"{theorem_id}.csv"
    if not csv.is_file():
        rows = load(out, theorem_id).get("rows") or []
        if not rows:
            return None
        write_atomic(csv, pd.DataFrame(rows).to_csv(index=False))
    return csv


def write_log(out, name: str, text: str) -> Path:
    """Write a traceback to ``<out>/logs/<name>.log`` (or a temporary folder when ``out``
    cannot take it) and return its path."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    for folder in (Path(out) / "logs", Path(tempfile.gettempdir()) / "privbounds-logs"):
        try:
            path = folder / f"{name}.log"
            write_atomic(path, f"{stamp}\n{text}\n")
            return path.resolve()
        except OSError:
            continue
    return Path(out) / "logs" / f"{name}.log"


def _jsonable(o):
    if hasattr(o, "item"):
        return o.item()
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


def available(out) -> list[str]:
    rdir = results_dir(out)
    return sorted(p.stem for p in rdir.glob("*.json")) if rdir.is_dir() else []


def load(out, theorem_id: str) -> dict:
    path = results_dir(out) / f"{theorem_id}.json"
    if not path.is_file():
        raise ParameterError(
            f"no results for {theorem_id} in {results_dir(out)}; run 'privbounds run {theorem_id} --out {out}' first")
    return json.loads(path.read_text())


def load_rows(out, theorem_id: str) -> pd.DataFrame:
    """The theorem's table, from its record (the unit written atomically)."""
    return pd.DataFrame(load(out, theorem_id).get("rows") or [])


def check_writable(out) -> Path:
    """Create the output folder (if needed) and prove we can write there, before any work."""
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=out, prefix=".write-test-")
        os.close(fd)
        os.unlink(tmp)
    except OSError as e:
        raise ParameterError(f"--out {out} is not a writable folder ({e.strerror or e})") from None
    return out
