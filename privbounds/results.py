"""Results on disk (design.md, "Results on disk"): one tidy CSV and one JSON record per
theorem under ``<out>/results``, written atomically so that an interrupted run never
leaves a half-written file in place of an earlier good one.
"""

from __future__ import annotations

import json
import os
import tempfile
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
    write_atomic(rdir / f"{theorem_id}.csv", pd.DataFrame(rows).to_csv(index=False))
    write_atomic(rdir / f"{theorem_id}.json", json.dumps(record, indent=1, default=_jsonable))


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
    return pd.read_csv(results_dir(out) / f"{theorem_id}.csv")


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
