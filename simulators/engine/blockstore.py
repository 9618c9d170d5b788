"""The keyed block store: every finished Monte Carlo block of every theorem, in one file.

Not tied to one paper: the engine (runner.py) stores here the value of each block it runs
(a search block's successes, a mean block's moments, an audit block's event counts) for
all five papers' simulators, so that a run stopped by Ctrl-C or a kill, or a rerun, reuses
what is already known.

Why SQLite (the standard library's ``sqlite3``) rather than a folder of pickles: it is one
file per ``--out`` (joblib's Memory left about 43,000 files after one quick run); a
transaction is atomic, so a killed run leaves every committed block and never a
half-written one; in WAL mode a reader (``privbounds cache info``) sees a consistent store
while a run writes; and a primary-key lookup costs microseconds. Values are JSON text,
never pickles, so reading a store cannot run code.

Every value is stored with its full key (``BlockKey``: kind, theorem, point, n, block,
size, root seed, the hash of the code that computes it, and the versions of Python, numpy
and scipy) and a SHA-256 over key and value. It is returned only for that key: a row whose
key text or checksum does not match (a value copied over another's, a damaged file) is
reported, deleted and recomputed. Only the process that owns the run writes: workers
compute and return their values, so a remote worker never writes to its own disk.

The store has a cap (``max_bytes``): when the stored keys and values exceed it, the
blocks least recently used are dropped until it holds 90% of the cap.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import math
import platform
import sqlite3
import time
from dataclasses import dataclass, field, fields
from pathlib import Path

import numpy as np
import scipy

FILENAME = "blocks.sqlite"
DEFAULT_MAX_BYTES = 2 * 1024 ** 3  # a full run of all 94 theorems needs far less (docs/guide/run.md)
LEGACY = "cache"  # the joblib Memory folder of earlier versions, never read
_FORMAT = 1  # bump when the schema or the value encoding changes

VERSIONS = (("numpy", np.__version__), ("python", platform.python_version()), ("scipy", scipy.__version__))

_SCHEMA = """
CREATE TABLE IF NOT EXISTS blocks (
    digest  TEXT PRIMARY KEY,   -- SHA-256 of the key text
    key     TEXT NOT NULL,      -- the full key, canonical JSON
    value   TEXT NOT NULL,      -- the block's value, JSON
    checksum TEXT NOT NULL,     -- SHA-256 of key and value together
    theorem TEXT NOT NULL,
    code    TEXT NOT NULL,
    bytes   INTEGER NOT NULL,
    created REAL NOT NULL,
    used    REAL NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS blocks_used ON blocks(used);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


@dataclass(frozen=True)
class BlockKey:
    """Everything a block's value depends on. ``point`` is the point's canonical JSON for a
    search or mean block and ``"audit:<name>:<budget>"`` for an audit block (n = 0)."""

    kind: str  # "search" (successes or moments) or "audit" (event counts)
    theorem: str
    point: str
    n: int
    block: int
    size: int
    seed: int
    code: str
    versions: tuple = field(default=VERSIONS)

    # Both are cached on the (frozen) key: the store asks for them several times a block,
    # and dataclasses.asdict's deep copy made them most of the store's time.
    @functools.cached_property
    def _text(self) -> str:
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["versions"] = [list(v) for v in self.versions]
        return json.dumps(d, sort_keys=True, separators=(",", ":"))

    @functools.cached_property
    def _digest(self) -> str:
        return hashlib.sha256(self._text.encode()).hexdigest()

    def text(self) -> str:
        return self._text

    def digest(self) -> str:
        return self._digest


@dataclass(frozen=True)
class StoreInfo:
    """What ``privbounds cache info`` prints."""

    path: Path
    blocks: int
    stored_bytes: int  # keys and values
    file_bytes: int  # the database and its WAL on disk
    theorems: int
    codes: int
    oldest: float | None
    newest: float | None
    max_bytes: int


def encode(value) -> str:
    """A block's value as JSON: an int, or a tuple of ints or floats (floats round-trip
    exactly: json writes repr). numpy scalars become Python numbers."""
    if isinstance(value, (tuple, list)):
        return json.dumps([_plain(v) for v in value])
    return json.dumps(_plain(value))


def decode(text: str):
    v = json.loads(text)
    return tuple(v) if isinstance(v, list) else v


def _plain(v):
    if isinstance(v, (bool, np.bool_)):
        raise TypeError("a block value is a count or a float, not a bool")
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return float(v)
    raise TypeError(f"a block value is a count or a float, not {type(v).__name__}")


def _checksum(key_text: str, value_text: str) -> str:
    return hashlib.sha256(key_text.encode() + b"\0" + value_text.encode()).hexdigest()


class BlockStore:
    """One ``<out>/blocks.sqlite``. Use as a context manager (or call ``close``). Reads
    come in batches (``get_many``) and writes are committed in batches (``put_many``):
    one transaction per batch, so a kill loses at most the blocks of one batch."""

    def __init__(self, out: Path, max_bytes: int = DEFAULT_MAX_BYTES):
        if max_bytes <= 0:
            raise ValueError("max_bytes must be positive")
        self.path = Path(out) / FILENAME
        self.max_bytes = int(max_bytes)
        self.bad: list[str] = []  # rows found wrong and deleted during this session
        self._bytes: int | None = None  # stored bytes, from the first write on
        self._db = sqlite3.connect(self.path, timeout=30.0)
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")  # WAL keeps it consistent after a crash
            self._db.executescript(_SCHEMA)
            self._check_format()
        except sqlite3.DatabaseError as e:
            self._db.close()
            raise StoreError(f"{self.path}: not a privbounds block store ({e}); move it away or delete it") from None

    def _check_format(self):
        row = self._db.execute("SELECT value FROM meta WHERE name = 'format'").fetchone()
        if row is None:
            with self._db:
                self._db.execute("INSERT INTO meta VALUES ('format', ?)", (str(_FORMAT),))
        elif row[0] != str(_FORMAT):
            raise StoreError(f"{self.path}: block store format {row[0]}, this version reads {_FORMAT}; "
                             "delete it (privbounds cache prune --all) to start a new one")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        with contextlib.suppress(sqlite3.Error):
            self._db.close()

    def get_many(self, keys: list[BlockKey]) -> dict[BlockKey, object]:
        """The stored value of each key that has a valid row. A row whose key text or
        checksum does not match is recorded in ``bad`` and deleted (its block is then
        recomputed like a missing one). Marks the rows found as used now."""
        found, wrong = {}, []
        by_digest = {k.digest(): k for k in keys}
        digests = list(by_digest)
        for i in range(0, len(digests), 500):  # SQLite's limit on bound parameters
            chunk = digests[i:i + 500]
            marks = ",".join("?" * len(chunk))
            for digest, key_text, value_text, checksum in self._db.execute(
                    f"SELECT digest, key, value, checksum FROM blocks WHERE digest IN ({marks})", chunk):
                key = by_digest[digest]
                why = _invalid(key, key_text, value_text, checksum)
                if why is None:
                    try:
                        found[key] = decode(value_text)
                        continue
                    except ValueError:
                        why = "its value is not JSON"
                wrong.append(digest)
                self.bad.append(f"{key.theorem} {key.kind} block {key.block} at n = {key.n}: {why}")
        with self._db:
            now = time.time()
            if wrong:
                self._db.executemany("DELETE FROM blocks WHERE digest = ?", [(d,) for d in wrong])
            self._db.executemany("UPDATE blocks SET used = ? WHERE digest = ?",
                                 [(now, k.digest()) for k in found])
        return found

    def put_many(self, items: list[tuple[BlockKey, object]]) -> None:
        """Store values (one transaction), then drop the least recently used blocks if the
        store is over its cap."""
        if not items:
            return
        now, rows = time.time(), []
        for key, value in items:
            key_text, value_text = key.text(), encode(value)
            rows.append((key.digest(), key_text, value_text, _checksum(key_text, value_text), key.theorem,
                         key.code, len(key_text) + len(value_text), now, now))
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO blocks VALUES (?,?,?,?,?,?,?,?,?)", rows)
        if self._bytes is None:  # summed once a session, then kept up to date here
            self._bytes = self.stored_bytes()
        else:  # a replaced row is counted twice: an overestimate, corrected below
            self._bytes += sum(r[6] for r in rows)
        if self._bytes > self.max_bytes:
            self._enforce_cap()  # sums exactly, then drops the least recently used

    def stored_bytes(self) -> int:
        return int(self._db.execute("SELECT COALESCE(SUM(bytes), 0) FROM blocks").fetchone()[0])

    def _enforce_cap(self) -> int:
        total = self.stored_bytes()
        self._bytes = total
        if total <= self.max_bytes:
            return 0
        target, dropped = int(0.9 * self.max_bytes), 0
        with self._db:
            for digest, size in self._db.execute("SELECT digest, bytes FROM blocks ORDER BY used").fetchall():
                if total <= target:
                    break
                self._db.execute("DELETE FROM blocks WHERE digest = ?", (digest,))
                total -= size
                dropped += 1
        self._bytes = total
        return dropped

    def info(self) -> StoreInfo:
        n, stored, theorems, codes, oldest, newest = self._db.execute(
            "SELECT COUNT(*), COALESCE(SUM(bytes), 0), COUNT(DISTINCT theorem), COUNT(DISTINCT code), "
            "MIN(created), MAX(used) FROM blocks").fetchone()
        on_disk = sum(p.stat().st_size for p in self.path.parent.glob(FILENAME + "*") if p.is_file())
        return StoreInfo(self.path, int(n), int(stored), on_disk, int(theorems), int(codes), oldest, newest,
                         self.max_bytes)

    def codes(self) -> list[tuple[str, str, int, float]]:
        """(code hash, its theorems, blocks, last used) of each code version, most recent first."""
        return [(c, t, int(n), u) for c, t, n, u in self._db.execute(
            "SELECT code, GROUP_CONCAT(DISTINCT theorem), COUNT(*), MAX(used) FROM blocks "
            "GROUP BY code ORDER BY MAX(used) DESC")]

    def prune(self, *, older_than_days: float | None = None, codes: set[str] | None = None,
              keep_codes: set[str] | None = None, everything: bool = False) -> int:
        """Delete blocks: all of them, those not used for ``older_than_days``, those whose
        code hash is in ``codes``, or those whose code is not in ``keep_codes`` (blocks of
        code that no longer exists). Returns how many were deleted; the file shrinks."""
        if not everything and older_than_days is None and codes is None and keep_codes is None:
            raise ValueError("say what to prune")
        with self._db:
            before = self._db.execute("SELECT COUNT(*) FROM blocks").fetchone()[0]
            if everything:
                self._db.execute("DELETE FROM blocks")
            if older_than_days is not None:
                if not (older_than_days >= 0 and math.isfinite(older_than_days)):
                    raise ValueError("older_than_days must be a finite number >= 0")
                self._db.execute("DELETE FROM blocks WHERE used < ?", (time.time() - 86400 * older_than_days,))
            if codes:
                self._db.executemany("DELETE FROM blocks WHERE code = ?", [(c,) for c in codes])
            if keep_codes is not None:
                marks = ",".join("?" * len(keep_codes))
                self._db.execute(f"DELETE FROM blocks WHERE code NOT IN ({marks})", tuple(keep_codes))
            removed = before - self._db.execute("SELECT COUNT(*) FROM blocks").fetchone()[0]
        self._db.execute("VACUUM")
        return int(removed)


class StoreError(RuntimeError):
    """The store file cannot be used: one line naming the file and what to do."""


def _invalid(key: BlockKey, key_text: str, value_text: str, checksum: str) -> str | None:
    if key_text != key.text():
        return "stored under another key (a digest collision or a copied row)"
    if checksum != _checksum(key_text, value_text):
        return "its checksum does not match (a damaged or replaced value)"
    return None


def legacy_cache(out: Path) -> str | None:
    """One line about an old joblib cache folder in ``out``, or None. Its blocks were
    computed by an engine whose code hash differs from this one, so none of them could be
    reused: the folder is only reported, and ``privbounds cache prune --legacy`` deletes it."""
    folder = Path(out) / LEGACY
    if not folder.is_dir():
        return None
    return (f"privbounds: {folder} is a block cache of an earlier version (none of its blocks can be reused); "
            "delete it with 'privbounds cache prune --legacy --out ...'")
