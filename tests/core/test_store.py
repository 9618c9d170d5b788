"""The block store: a cache keyed by the code that made each block (an edit to a shared
learner recomputes exactly the blocks that use it), ``--no-cache``, canonical point
keys, the output folder's lock and the clean-up of what killed runs leave behind."""

import json
from dataclasses import asdict

import pytest

import privbounds
from privbounds.params import ParameterError
from privbounds.simulators.engine import store
from privbounds.simulators.engine.blockstore import BlockStore

TID = "siv.thm3_3"  # its simulator imports the shared learners and concepts


def _run(out, **kw):
    kw.setdefault("fidelity", "smoke")
    return privbounds.run([TID], seed=0, out=out, progress=False, backend="sequential", **kw)[TID]


def _edited(monkeypatch, module):
    """Plant an edit of ``module``'s source, as a developer saving the file would."""
    real = store._source

    def fake(name):
        found = real(name)
        if name == module and found is not None:
            return found[0] + b"\n# an edit\n", found[1]
        return found
    monkeypatch.setattr(store, "_source", fake)


def test_code_hash_follows_the_import_closure(monkeypatch):
    mod = "privbounds.simulators.siv.thm3_3"
    before = store.code_hash(mod)
    assert before == store.code_hash(mod)
    _edited(monkeypatch, "privbounds.simulators.shared.learners")  # imported by the simulator
    assert store.code_hash(mod) != before
    monkeypatch.undo()
    _edited(monkeypatch, "privbounds.simulators.engine.blocks")  # seeds every block
    assert store.code_hash(mod) != before
    monkeypatch.undo()
    for scheduling in ("runner", "pipeline", "cluster", "progress"):  # how blocks are sent, not computed
        _edited(monkeypatch, f"privbounds.simulators.engine.{scheduling}")
        assert store.code_hash(mod) == before, scheduling
        monkeypatch.undo()
    _edited(monkeypatch, "privbounds.figures.common")  # not imported by it
    assert store.code_hash(mod) == before
    monkeypatch.undo()


NESTED = b"""
import numpy as np
from scipy.stats import beta
from privbounds.simulators.bns import gf2
class A:
    def f(self):
        try:
            import privbounds.simulators.shared.learners
        except ImportError:
            from privbounds.simulators.shared.concepts import Thresholds
        else:
            pass
        finally:
            with open(__file__):
                if np.pi:
                    from privbounds.bounds import bns
                else:
                    from privbounds.params import flag
    for _ in ():
        import privbounds.results
    else:
        import privbounds.claims
match 1:
    case 1:
        import privbounds.registry
while False:
    import privbounds.learners
else:
    import privbounds.api
async def g():
    async with x:
        async for _ in x:
            import privbounds.cli
"""


def test_imports_are_found_in_every_nested_statement(monkeypatch):
    """An import inside a function, a class, try/except/else/finally, with, if/else,
    for/else, while/else, async def/with/for or a match case is found, a module imported by name ("from ... import gf2")
    is a module, and what is not ours is left out."""
    real = store._source
    monkeypatch.setattr(store, "_source", lambda name: (NESTED, False) if name == "privbounds.fake" else real(name))
    found, _ = store._imports("privbounds.fake")
    assert found == ("privbounds.api", "privbounds.bounds", "privbounds.bounds.bns", "privbounds.claims",
                     "privbounds.cli", "privbounds.learners", "privbounds.params",
                     "privbounds.registry", "privbounds.results", "privbounds.simulators.bns",
                     "privbounds.simulators.bns.gf2", "privbounds.simulators.shared.concepts",
                     "privbounds.simulators.shared.learners")


def test_an_edit_to_a_shared_learner_recomputes_its_blocks(tmp_path, monkeypatch):
    first = _run(tmp_path)
    assert first.engine.blocks_run > 0 and first.engine.blocks_cached == 0
    again = _run(tmp_path)
    assert again.engine.blocks_run == 0  # unchanged code: every block from the cache
    assert again.points == first.points
    _edited(monkeypatch, "privbounds.simulators.shared.learners")
    try:
        edited = _run(tmp_path)
    finally:
        monkeypatch.undo()
    assert edited.engine.blocks_cached == 0
    assert edited.engine.blocks_run == first.engine.blocks_run


def test_no_cache_neither_reads_nor_writes(tmp_path):
    _run(tmp_path)
    with BlockStore(tmp_path) as s:
        before = s.info().blocks
    rec = _run(tmp_path, use_cache=False)
    assert rec.engine.blocks_cached == 0 and rec.engine.blocks_run > 0
    with BlockStore(tmp_path) as s:
        assert s.info().blocks == before


def test_one_and_one_point_zero_are_one_point(tmp_path):
    a = _run(tmp_path / "a", overrides={"epsilon": [1.0]})
    b = _run(tmp_path / "b", overrides={"epsilon": [1]})
    assert json.dumps([asdict(p) for p in a.points], sort_keys=True) == json.dumps([asdict(p) for p in b.points], sort_keys=True)
    assert all(isinstance(p.point["epsilon"], float) for p in b.points)


def test_a_second_run_on_the_same_folder_is_refused(tmp_path):
    tmp_path.mkdir(exist_ok=True)
    with store.locked(tmp_path):
        with pytest.raises(ParameterError, match=r"^out .* is in use by another privbounds command"):
            _run(tmp_path)
    _run(tmp_path)  # released
    with store.locked(tmp_path):  # figures and report hold the same lock
        with pytest.raises(ParameterError, match="in use"):
            privbounds.plot(out=tmp_path)
        with pytest.raises(ParameterError, match="in use"):
            privbounds.report(out=tmp_path)


def test_leftovers_of_killed_runs_are_removed(tmp_path):
    junk = [tmp_path / "results" / ".a.json.x.tmp", tmp_path / "figures" / ".a.png.tmp"]
    for j in junk:
        j.parent.mkdir(parents=True, exist_ok=True)
        j.write_text("half")
    _run(tmp_path)
    assert not any(j.exists() for j in junk)


def test_an_old_joblib_cache_is_one_line_and_left_alone(tmp_path, capsys):
    old = tmp_path / "cache" / "joblib" / "x" / "output.pkl"
    old.parent.mkdir(parents=True)
    old.write_text("done")
    _run(tmp_path)
    err = capsys.readouterr().err
    assert err.count("earlier version") == 1 and "Traceback" not in err and old.exists()
