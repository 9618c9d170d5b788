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
import shlex
import tempfile
import time
from pathlib import Path

from privbounds.messages import warn
from privbounds.params import ParameterError, flag
from privbounds.record import Record, RecordShapeError

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


def save(out, theorem_id: str, record: dict, rows: list[dict]) -> Record:
    """Write the record (and its rows) and return it as it will be read back, typed: a
    record the run cannot read is a bug found here, not by the next command."""
    rdir = results_dir(out)
    csv = rdir / f"{theorem_id}.csv"
    # the old table goes first: a crash between the two writes leaves no CSV (rebuilt from
    # the record by export_csv), never one that belongs to another run
    csv.unlink(missing_ok=True)
    text = json.dumps({**record, "rows": rows}, indent=1, default=_jsonable)
    write_atomic(rdir / f"{theorem_id}.json", text)
    if rows:
        write_atomic(csv, _table(rows).to_csv(index=False))
    return Record.parse(json.loads(text))


def _table(rows: list[dict]):
    """pandas' DataFrame of ``rows``, pandas imported here: reading records, listing and
    reporting never need it (its import is most of a second)."""
    import pandas as pd

    return pd.DataFrame(rows)


def export_csv(out, theorem_id: str) -> Path | None:
    """The theorem's CSV, rewritten from its record if it is missing; None without rows."""
    csv = results_dir(out) / f"{theorem_id}.csv"
    if not csv.is_file():
        rows = list(load(out, theorem_id).rows)
        if not rows:
            return None
        write_atomic(csv, _table(rows).to_csv(index=False))
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


class ResultError(ParameterError):
    """A file privbounds reads (a result record, a baseline, a cache entry) is unreadable or
    of the wrong shape; the message names the file and what is wrong with it."""


FIDELITIES = ("smoke", "quick", "full")
STATUSES = ("finished", "failed")


def record_problem(data, theorem_id: str) -> tuple[Record | None, str | None]:
    """The typed record of ``data`` (a JSON object) as the result of ``theorem_id``, or what is
    wrong with it: a field missing, unknown or of the wrong type (``Record.parse``), a value
    out of its vocabulary, or claims that are not the theorem's (another version wrote it)."""
    from privbounds.claims import VERDICTS
    from privbounds.registry import get

    if isinstance(data, dict) and not isinstance(data.get("id"), str):
        return None, "has no theorem id (not a result record written by privbounds)"
    try:
        rec = Record.parse(data)
    except RecordShapeError as e:
        return None, str(e)
    if rec.provenance is None:
        return None, "has no provenance"
    if rec.id != theorem_id:
        return None, f"holds the result of {rec.id!r}, not of {theorem_id}"
    if rec.status not in STATUSES:
        return None, f"status must be one of {', '.join(STATUSES)}, found {rec.status!r}"
    if rec.fidelity not in FIDELITIES:
        return None, f"fidelity must be one of {', '.join(FIDELITIES)}, found {rec.fidelity!r}"
    if not all(isinstance(v, list) and v for v in rec.overrides.values()):
        return None, "overrides must map each parameter to a list of values"
    if rec.status == "failed":
        return (rec, None) if rec.error is not None else (None, "a failed run must say its error")
    for v in rec.verdicts:
        if v.verdict not in VERDICTS:
            return None, f"claim {v.claim!r} has verdict {v.verdict!r}, not one of {', '.join(VERDICTS)}"
    claims = [c.id for c in get(theorem_id).claims]
    found = [v.claim for v in rec.verdicts]
    if found != claims:
        return None, (f"its verdicts are for claims {', '.join(map(str, found)) or 'none'}, but {theorem_id} has "
                      f"{', '.join(claims)} (written by another version of privbounds)")
    return rec, None


def available(out) -> list[str]:
    """Registered theorem ids with a record under ``<out>/results``; any other JSON file there
    (a copy, a stray note) is named in a warning and left alone. Learners measured into
    ``out`` (``privbounds.measure``) are ids once registered from their descriptions
    (``learners.load_saved``: ``api.available`` and every command do that first)."""
    from privbounds.registry import ids as registered

    rdir = results_dir(out)
    if not rdir.is_dir():
        return []
    known = set(registered())
    have = []
    for p in sorted(rdir.glob("*.json")):
        if p.stem in known:
            have.append(p.stem)
        else:
            warn(f"skipping {p}: not the result of a registered theorem (its name must be <id>.json)")
    return have


def run_command(out, ids=(), paper: str | None = None) -> str:
    """The command that makes the results of ``ids`` (patterns too) in ``out``, quoted for a shell."""
    words = ["privbounds", "run", *ids, *(["--paper", paper] if paper else []), "--out", str(out)]
    return shlex.join(words)


def no_results(out, ids=()) -> str:
    """Why ``out`` holds no results, naming the folder and how to make them, in a line: the
    error of a command that reads results, the note of one that lists theorems."""
    what = "does not exist, so it holds no results" if not Path(out).exists() else "holds no results"
    return f"{flag('out')} {out} {what}; make them with: {run_command(out, ids)}"


def load(out, theorem_id: str) -> Record:
    """The theorem's typed record, validated (``record_problem``); ResultError names the file."""
    path = results_dir(out) / f"{theorem_id}.json"
    if not path.is_file():
        raise ParameterError(
            f"no results for {theorem_id} in {results_dir(out)}; run 'privbounds run {theorem_id} --out {out}' first")
    rerun = f"rerun 'privbounds run {theorem_id} --out {out}'"
    try:
        rec = json.loads(path.read_text())
    except OSError as e:
        raise ResultError(f"{path}: cannot be read ({e.strerror or e})") from None
    except ValueError as e:
        raise ResultError(f"{path}: not valid JSON ({e}); {rerun}") from None
    rec, problem = record_problem(rec, theorem_id)
    if problem:
        raise ResultError(f"{path}: {problem}; {rerun}")
    return rec


def overrides_text(rec: Record) -> str:
    """The ``--set`` options a record was run with ('' for the registered grid)."""
    return " ".join(f"--set {k}={','.join(map(str, v))}" for k, v in rec.overrides.items())


def load_valid(out, ids=None) -> dict[str, Record]:
    """theorem id -> record for ``ids`` (default: all available), skipping, with a warning
    that names the file, every record that does not validate."""
    records = {}
    for tid in available(out) if ids is None else ids:
        try:
            records[tid] = load(out, tid)
        except ResultError as e:
            warn(f"skipping {e}")
    return records


def load_rows(out, theorem_id: str):
    """The theorem's table, from its record (the unit written atomically)."""
    return load(out, theorem_id).table()


def folder_name(out):
    """``out`` as given, once it is a name a folder can have: a string or path, without NUL
    bytes, no component longer than the file system allows (a ParameterError otherwise)."""
    if not isinstance(out, (str, os.PathLike)):
        raise ParameterError(f"{flag('out')} must be a folder's name, got {out!r}"[:200])
    text = os.fspath(out)
    if "\0" in text:
        raise ParameterError(f"{flag('out')} must be a folder's name, got one with a NUL byte: {text!r}"[:200])
    longest = max((len(os.fsencode(part)) for part in Path(text).parts), default=0)
    if longest > 255:  # NAME_MAX on Linux, macOS and Windows
        raise ParameterError(f"{flag('out')} has a path component of {longest} bytes, more than the 255 a "
                             "file name may have")
    return out


def check_writable(out, *sub: str) -> Path:
    """Create the output folder (and its subfolders ``sub``, if given) and prove we can
    write there, before any work; a ParameterError names the folder otherwise."""
    out = Path(folder_name(out))
    for folder in [out] + [out / s for s in sub]:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".write-test-")
            os.close(fd)
            os.unlink(tmp)
        except OSError as e:
            where = f"{flag('out')} {out}" if folder == out else f"{flag('out')} {out}: {folder}"
            why = "a file of that name is in the way" if folder.exists() and not folder.is_dir() else e.strerror or e
            raise ParameterError(f"{where} is not a writable folder ({why})") from None
    return out
