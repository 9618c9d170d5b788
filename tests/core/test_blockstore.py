"""The keyed block store (simulators/engine/blockstore.py): values come back only for
their own key, bit for bit; a swapped or damaged row is caught; a version change is a
miss; the cap and the prune commands drop what they say."""

from __future__ import annotations

import dataclasses
import sqlite3

import pytest

from privbounds.simulators.engine.blockstore import (
    FILENAME,
    BlockKey,
    BlockStore,
    StoreError,
    decode,
    encode,
    legacy_cache,
)


def key(block=0, n=100, **kw) -> BlockKey:
    base = dict(kind="search", theorem="siv.thm3_3", point='{"d":4}', n=n, block=block, size=1000,
                seed=0, code="abc123")
    return BlockKey(**{**base, **kw})


def test_values_round_trip_exactly(tmp_path):
    values = {key(0): 637, key(1): (0.1 + 0.2, 1e-300, -2.5, float("inf")), key(2, kind="audit"): (3, 4)}
    with BlockStore(tmp_path) as s:
        s.put_many(list(values.items()))
    with BlockStore(tmp_path) as s:  # a new process would open it the same way
        assert s.get_many(list(values)) == values
        assert s.get_many([key(3)]) == {}
    assert (tmp_path / FILENAME).is_file()


def test_encode_refuses_what_is_not_a_count_or_float():
    assert decode(encode(5)) == 5 and decode(encode((1, 2))) == (1, 2)
    for bad in (True, "7", None, [[1]]):
        with pytest.raises(TypeError):
            encode(bad)


@pytest.mark.parametrize("field,value", [("seed", 1), ("code", "abc124"), ("size", 999), ("n", 101),
                                         ("versions", (("numpy", "0.0"), ("python", "3"), ("scipy", "1")))])
def test_any_change_of_the_key_is_a_miss(tmp_path, field, value):
    """Seed, code, size, n and the versions of Python, numpy and scipy are all part of the key:
    a numpy upgrade recomputes every block."""
    with BlockStore(tmp_path) as s:
        s.put_many([(key(), 10)])
        assert s.get_many([dataclasses.replace(key(), **{field: value})]) == {}
        assert s.get_many([key()]) == {key(): 10}


def test_a_value_copied_over_another_rows_is_detected_and_dropped(tmp_path):
    with BlockStore(tmp_path) as s:
        s.put_many([(key(0), 641), (key(1), 1258)])
    db = sqlite3.connect(tmp_path / FILENAME)
    with db:  # copy row 0's value (and its checksum) over row 1's, as a stray copy would
        value, checksum = db.execute("SELECT value, checksum FROM blocks WHERE digest = ?",
                                     (key(0).digest(),)).fetchone()
        db.execute("UPDATE blocks SET value = ?, checksum = ? WHERE digest = ?", (value, checksum, key(1).digest()))
    db.close()
    with BlockStore(tmp_path) as s:
        assert s.get_many([key(0), key(1)]) == {key(0): 641}
        assert len(s.bad) == 1 and "checksum" in s.bad[0]
        assert s.get_many([key(1)]) == {}  # deleted: it will be recomputed


def test_a_row_under_another_key_is_detected(tmp_path):
    with BlockStore(tmp_path) as s:
        s.put_many([(key(0), 5)])
    db = sqlite3.connect(tmp_path / FILENAME)
    with db:  # the row keeps its digest but claims another key
        db.execute("UPDATE blocks SET key = ? WHERE digest = ?", (key(9).text(), key(0).digest()))
    db.close()
    with BlockStore(tmp_path) as s:
        assert s.get_many([key(0)]) == {}
        assert "another key" in s.bad[0]


def test_a_file_that_is_not_a_store_is_one_error(tmp_path):
    (tmp_path / FILENAME).write_bytes(b"not a database at all" * 100)
    with pytest.raises(StoreError, match=FILENAME):
        BlockStore(tmp_path)


def test_the_cap_drops_the_least_recently_used(tmp_path):
    with BlockStore(tmp_path, max_bytes=10 ** 9) as s:
        s.put_many([(key(b), b) for b in range(20)])
        per_row = s.stored_bytes() / 20
    with BlockStore(tmp_path, max_bytes=int(per_row * 25)) as s:
        s.get_many([key(0)])  # used now: it must survive
        s.put_many([(key(b), b) for b in range(20, 30)])
        assert s.stored_bytes() <= int(per_row * 25)
        kept = s.get_many([key(b) for b in range(30)])
        dropped = {b for b in range(30) if key(b) not in kept}
        # only blocks that were neither just used nor just written go
        assert dropped and dropped <= set(range(1, 20))


def test_prune(tmp_path):
    with BlockStore(tmp_path) as s:
        s.put_many([(key(b), b) for b in range(4)] + [(key(b, code="old"), b) for b in range(3)])
        assert s.info().blocks == 7 and s.info().codes == 2
        assert s.prune(codes={"old"}) == 3
        assert s.prune(keep_codes={"abc123"}) == 0
        assert s.prune(older_than_days=1) == 0
        assert s.prune(older_than_days=0) == 4
        s.put_many([(key(), 1)])
        assert s.prune(everything=True) == 1 and s.info().blocks == 0
        with pytest.raises(ValueError):
            s.prune()


def test_legacy_cache_is_one_line(tmp_path):
    assert legacy_cache(tmp_path) is None
    (tmp_path / "cache" / "joblib").mkdir(parents=True)
    line = legacy_cache(tmp_path)
    assert "\n" not in line and "prune --legacy" in line


def test_cache_info_and_prune_from_the_command_line(tmp_path, capsys):
    from privbounds.cli import main

    with BlockStore(tmp_path) as s:
        s.put_many([(key(b), b) for b in range(3)] + [(key(0, code="old"), 1)])
    assert main(["cache", "info", "--codes", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "4 blocks of 1 theorems, 2 code versions" in out and "old" in out
    assert main(["cache", "prune", "--code", "old", "--out", str(tmp_path)]) == 0
    assert "removed 1 blocks; 3 left" in capsys.readouterr().out
    assert main(["cache", "prune", "--out", str(tmp_path)]) == 2  # nothing said: refused in one line
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["cache", "prune", "--all", "--out", str(tmp_path)]) == 0
    assert "removed 3 blocks; 0 left" in capsys.readouterr().out
    with pytest.raises(SystemExit) as e:  # argparse's refusal: one line, exit 2
        main(["run", "siv.thm2_2", "--cache-max", "12 parsecs", "--out", str(tmp_path)])
    assert e.value.code == 2 and "--cache-max" in capsys.readouterr().err
