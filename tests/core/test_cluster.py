"""A real Dask cluster (dask.distributed) on 127.0.0.1, not tied to one paper: a scheduler
and worker processes started by the test, and the checks the client makes of every
worker before any block runs (simulators/engine/cluster.py).

The cluster tests start real processes (a scheduler, a worker, one whose environment
lacks privbounds) and take some seconds each: they are in the default suite because a
silent hang on a bad worker is the failure they guard against."""

from __future__ import annotations

import importlib.metadata
import json
import os
import platform
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import pytest

import privbounds
from privbounds.params import ParameterError
from privbounds.simulators.engine import cluster
from privbounds.simulators.engine.cluster import Environment, WorkerInfo

pytest.importorskip("dask.distributed")

# A worker started by this script cannot import privbounds (as in an environment where it
# is not installed), or, with HIDE=digest, runs privbounds with other source files.
WORKER = textwrap.dedent("""
    import os, sys
    class _Hide:
        def find_spec(self, name, path=None, target=None):
            if name == "privbounds" or name.startswith("privbounds."):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    if os.environ["HIDE"] == "import":
        sys.meta_path.insert(0, _Hide())
    else:
        from privbounds.simulators.engine import cluster
        cluster.source_digest = lambda roots=None: "0" * 16
    if __name__ == "__main__":
        from distributed.cli.dask_worker import main
        sys.exit(main())
""")


def _env(**changes) -> Environment:
    base = Environment("0.1.0", "abc", "3.11.7", "2.0.0", "1.14.0")
    return Environment(**{**base.__dict__, **changes})


W = WorkerInfo("tcp://10.0.0.5:4000", "w5", "10.0.0.5", 1, 2**30)


def test_each_failure_names_the_worker_and_what_to_install():
    mine = _env()
    missing = cluster._failure(W, importlib.metadata.PackageNotFoundError("privbounds"), None, mine)
    assert "tcp://10.0.0.5:4000 (w5) on host 10.0.0.5 has no privbounds" in missing
    assert "install the client's privbounds 0.1.0 there (its checkout or the same wheel)" in missing
    other = cluster._failure(W, "0.0.9", None, mine)
    assert "has privbounds 0.0.9, the client 0.1.0" in other
    broken = cluster._failure(W, "0.1.0", Exception("ModuleNotFoundError('numpy')"), mine)
    assert "cannot import privbounds (ModuleNotFoundError('numpy'))" in broken
    libs = cluster._failure(W, "0.1.0", _env(numpy="1.26.4", source="def"), mine)
    assert "numpy 1.26.4 (the client: 2.0.0)" in libs and "privbounds source files def (the client: abc)" in libs
    assert cluster._failure(W, "0.1.0", _env(), mine) is None
    # the same files and libraries on a CPU where numpy dispatches to other routines
    cpu = cluster._failure(W, "0.1.0", _env(simd="X86_V3"), _env(simd="X86_V3,X86_V4"))
    assert "numpy's CPU dispatch targets X86_V3 (the client: X86_V3,X86_V4)" in cpu and "NPY_DISABLE_CPU_FEATURES" in cpu
    gallery = cluster._failure(W, "0.1.0", _env(learners=""), _env(learners="scikit-learn 1.7.2"))
    assert "learner libraries none (the client: scikit-learn 1.7.2)" in gallery
    for line in (missing, other, broken, libs, cpu, gallery):
        assert "\n" not in line
    here = cluster.environment()
    assert here.simd and here.simd == cluster.environment().simd  # this machine's, the same each time


def test_the_source_digest_follows_every_file_by_its_module_name(tmp_path, monkeypatch):
    pkg = tmp_path / "digestpkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("x = 1\n")
    (pkg / "sub" / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    roots = ("digestpkg",)
    first = cluster.source_digest(roots)
    assert cluster.source_digest(roots) == first
    (pkg / "a.py").write_text("x = 2\n")
    assert cluster.source_digest(roots) != first
    (pkg / "a.py").write_text("x = 1\n")
    (pkg / "a.py").rename(pkg / "sub" / "a.py")  # the same bytes under another module name
    assert cluster.source_digest(roots) != first
    assert cluster.source_digest() == cluster.environment().source  # the package's own


def _start(cmd: list, log: Path, env: dict | None = None) -> subprocess.Popen:
    return subprocess.Popen(cmd, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True,
                            env={**os.environ, **(env or {})})


def _wait_for(check, what: str, seconds: float = 60.0):
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


class LocalDask:
    """A scheduler on 127.0.0.1 and the worker processes started on it, as separate
    processes (as on a real cluster)."""

    def __init__(self, root: Path):
        self.root, self.procs = root, {}
        file = root / "scheduler.json"
        self.procs["scheduler"] = _start(
            [sys.executable, "-m", "distributed.cli.dask_scheduler", "--scheduler-file", str(file), "--host",
             "127.0.0.1", "--port", "0", "--dashboard-address", ":0"], root / "scheduler.log")
        self.address = _wait_for(lambda: file.is_file() and json.loads(file.read_text() or "{}").get("address"),
                                 "the scheduler's address")

    def worker(self, name: str, hide: str | None = None, *extra: str) -> subprocess.Popen:
        """Start a one-thread worker (``hide``: without privbounds, or with other files;
        ``extra``: more of dask worker's options)."""
        args = [self.address, "--name", name, "--nthreads", "1", "--no-nanny", "--host", "127.0.0.1", *extra]
        log = self.root / f"{name}.log"
        if hide:
            script = self.root / "worker.py"
            script.write_text(WORKER)
            proc = _start([sys.executable, str(script), *args], log, {"HIDE": hide})
        else:
            proc = _start([sys.executable, "-m", "distributed.cli.dask_worker", *args], log)
        self.procs[name] = proc
        _wait_for(lambda: "Registered to" in log.read_text(), f"worker {name}")
        return proc

    def kill(self, name: str) -> None:
        self.procs[name].kill()
        self.procs[name].wait()

    def close(self) -> None:
        for p in self.procs.values():
            p.kill()
            p.wait()


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    """A scheduler with no workers: (address, a function that starts a worker process)."""
    dask = LocalDask(tmp_path_factory.mktemp("cluster"))
    yield dask.address, dask.worker
    dask.close()


def _run(address: str, out: Path) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "privbounds.cli", "run", "bns.obs3_2", "--fidelity", "smoke", "--seed", "7",
           "--backend", "dask", "--scheduler", address, "--quiet", "--out", str(out)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def _one_line_error(res: subprocess.CompletedProcess, *needles: str) -> str:
    assert res.returncode == 2, res.stderr
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in res.stderr, res.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def test_a_cluster_is_checked_before_any_block_and_every_block_runs_on_it(scheduler, tmp_path, monkeypatch):
    address, worker = scheduler
    # no workers yet: how to start one (the wait shortened here; the command line turns
    # the error into one line and exit 2, as below)
    monkeypatch.setattr(cluster, "WAIT_FOR_WORKERS", 0.5)
    with pytest.raises(ParameterError, match=f"the scheduler has no workers .*: dask worker {address} --nthreads 1$"):
        with cluster.dask_client(1, address):
            pass
    # one worker with one thread: every block runs on it (none in the client), same table as loky
    good = worker("good")
    res = _run(address, tmp_path / "dask")
    assert res.returncode == 0, res.stderr
    assert "1 worker on 1 host, 1 thread," in res.stderr
    record = json.loads((tmp_path / "dask" / "results" / "bns.obs3_2.json").read_text())
    assert list(record["engine"]["workers"]) == [w.address for w in _workers(address)]
    assert sum(record["engine"]["workers"].values()) == record["engine"]["blocks_run"] > 0
    privbounds.run(["bns.obs3_2"], fidelity="smoke", seed=7, jobs=2, out=tmp_path / "loky", progress=False)
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "dask" / "results" / "bns.obs3_2.csv"),
                                  pd.read_csv(tmp_path / "loky" / "results" / "bns.obs3_2.csv"))
    # a worker that cannot import privbounds: named in one line within 30 s, nothing run
    bare = worker("bare", hide="import")
    t0 = time.perf_counter()
    _one_line_error(_run(address, tmp_path / "bare"), "(bare)", "cannot import privbounds",
                    "install the client's privbounds ")
    assert time.perf_counter() - t0 < 30
    assert not (tmp_path / "bare" / "results" / "bns.obs3_2.json").exists()
    _gone(address, bare, "bare")
    # a worker with privbounds at the same release but other source files
    other = worker("other", hide="digest")
    _one_line_error(_run(address, tmp_path / "other"), "(other)", "privbounds source files 0000000000000000")
    _gone(address, other, "other")
    # in Python: the same check, and a library version that differs is named
    from dask.distributed import Client

    with Client(address, timeout="10s") as c:
        mine = cluster.environment()
        assert [w.name for w in cluster.preflight(c, address, mine)] == ["good"]
        with pytest.raises(ParameterError, match=r"differs from the client in numpy \S+ \(the client: 0\.0\)"):
            cluster.preflight(c, address, Environment(**{**mine.__dict__, "numpy": "0.0"}))
    assert good.poll() is None


def _gone(address: str, proc: subprocess.Popen, name: str) -> None:
    """Kill a worker and wait until the scheduler no longer lists it."""
    proc.kill()
    proc.wait()
    _wait_for(lambda: all(w.name != name for w in _workers(address)), f"the scheduler to drop {name}")


def _workers(address: str) -> list[WorkerInfo]:
    from dask.distributed import Client

    with Client(address, timeout="10s") as c:
        return cluster.workers(c)


def test_no_scheduler_at_the_address_is_named(monkeypatch):
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1.0)
    with pytest.raises(ParameterError, match="--scheduler tcp://127.0.0.1:9: no Dask scheduler answered"):
        with cluster.dask_client(1, "tcp://127.0.0.1:9"):
            pass


def _stored(out: Path) -> int:
    from privbounds.simulators.engine.blockstore import FILENAME, BlockStore

    if not (out / FILENAME).is_file():
        return 0
    with BlockStore(out) as store:
        return store.info().blocks


def _start_run(address: str, out: Path) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "privbounds.cli", "run", "siv.thm3_3", "--fidelity", "quick", "--backend", "dask",
           "--scheduler", address, "--quiet", "--out", str(out)]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _stop(run) -> None:
    """A client left waiting by a failed test must not outlive it."""
    if run is not None and run.poll() is None:
        run.kill()
        run.wait()


def _loky_table(out: Path) -> pd.DataFrame:
    privbounds.run(["siv.thm3_3"], fidelity="quick", jobs=2, out=out, progress=False)
    return pd.read_csv(out / "results" / "siv.thm3_3.csv")


def _kill_mid_run(tmp_path: Path, workers: list[str], victim: str, timeout: float):
    """Start a quick run of siv.thm3_3 on a fresh local cluster of ``workers``, kill
    ``victim`` (a worker, or "scheduler") once 40 blocks are stored, and wait for the run:
    (scheduler address, exit code, stderr). The client never outlives the test."""
    dask, run = LocalDask(tmp_path), None
    try:
        for name in workers:
            dask.worker(name)
        run = _start_run(dask.address, tmp_path / "dask")
        _wait_for(lambda: _stored(tmp_path / "dask") >= 40 or run.poll() is not None, "40 stored blocks")
        assert run.poll() is None, f"the run ended before {victim} could be killed"
        held = _held_by(dask.address, victim) if victim != "scheduler" else 0
        dask.kill(victim)
        _, err = run.communicate(timeout=timeout)
    finally:
        _stop(run)
        dask.close()
    RESUBMITTED[victim] = held
    return dask.address, run.returncode, err


RESUBMITTED: dict = {}  # the blocks the scheduler had given the killed worker when it was killed


def _held_by(address: str, name: str) -> int:
    """Blocks the scheduler has handed to worker ``name`` and not yet seen returned (the
    ones a kill now makes dask resubmit)."""
    from distributed import Client

    with Client(address, timeout=10) as client:
        return client.run_on_scheduler(
            lambda dask_scheduler: sum(len(ws.processing) for ws in dask_scheduler.workers.values()
                                       if ws.name == name))


@pytest.mark.slow  # a quick run on the cluster with a worker killed in it, about 20 s
def test_a_worker_killed_mid_run_leaves_the_numbers_unchanged(tmp_path):
    _, code, err = _kill_mid_run(tmp_path, ["w1", "w2"], "w2", 300)
    assert code == 0, err
    record = json.loads((tmp_path / "dask" / "results" / "siv.thm3_3.json").read_text())
    assert len(record["engine"]["workers"]) == 2  # both ran blocks, the survivor finished them
    # the kill caught blocks in flight on w2; the run finished with the loky table, so they ran again
    print(f"blocks in flight on the killed worker (dask runs them again): {RESUBMITTED['w2']}")
    assert RESUBMITTED["w2"] >= 1
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "dask" / "results" / "siv.thm3_3.csv"),
                                  _loky_table(tmp_path / "loky"))


@pytest.mark.slow  # dask's client tries to reconnect for 10 s before it gives up
def test_a_lost_scheduler_ends_the_run_in_one_line_and_the_same_command_resumes(tmp_path):
    address, code, err = _kill_mid_run(tmp_path, ["w1"], "scheduler", 120)
    assert code == 2, err
    line = [ln for ln in err.splitlines() if ln.strip()][-1]
    assert "Traceback" not in err and "Failed to reconnect" not in err, err
    assert f"the Dask scheduler {address} was lost mid-run" in line and "blocks; to resume from them" in line
    assert line.endswith(f"--scheduler {address} --quiet --out {tmp_path / 'dask'}")
    kept = _stored(tmp_path / "dask")
    assert kept >= 40
    # resumed here on loky (the blocks' keys hold no backend): the same table as a run from nothing
    resumed = privbounds.run(["siv.thm3_3"], fidelity="quick", jobs=2, out=tmp_path / "dask", progress=False)
    assert resumed["siv.thm3_3"].engine.blocks_cached >= kept
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "dask" / "results" / "siv.thm3_3.csv"),
                                  _loky_table(tmp_path / "loky"))


@pytest.mark.slow  # a quick run whose only worker dies, then a new one joins: about 30 s
def test_a_run_whose_workers_all_died_says_so_and_goes_on_when_one_joins(tmp_path, monkeypatch, capfd):
    import threading

    from privbounds.simulators.engine import progress

    monkeypatch.setattr(progress, "STALL_AFTER", 3.0)
    dask = LocalDask(tmp_path)
    result = {}
    try:
        dask.worker("w1")
        t = threading.Thread(target=lambda: result.update(privbounds.run(
            ["siv.thm3_3"], fidelity="quick", backend="dask", scheduler=dask.address, out=tmp_path / "dask",
            progress=False)))
        t.start()
        _wait_for(lambda: _stored(tmp_path / "dask") >= 40 or not t.is_alive(), "40 stored blocks")
        assert t.is_alive(), "the run ended before its worker could be killed"
        dask.kill("w1")
        note = _wait_for(lambda: "no workers left" in (said := capfd.readouterr().err) and said, "the stall note")
        assert "privbounds: no block has returned for " in note and f"dask worker {dask.address} --nthreads 1; still waiting" in note
        dask.worker("w2")
        t.join(timeout=300)
    finally:
        dask.close()
    assert not t.is_alive()
    workers = result["siv.thm3_3"].engine.workers
    assert len(workers) == 2  # the dead worker's blocks, and the rest on the one that joined
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "dask" / "results" / "siv.thm3_3.csv"),
                                  _loky_table(tmp_path / "loky"))


def test_a_worker_that_joined_after_the_check_and_differs_runs_no_block(monkeypatch):
    from privbounds.simulators.engine import runner

    mine = cluster.environment()
    other = Environment(**{**mine.__dict__, "numpy": "0.0"})
    monkeypatch.setattr(cluster, "_CHECKED", {})
    ran = []
    out = runner._checked(other, lambda: ran.append(1) or 5, ())
    assert out.value is None and ran == [] and "differs from the client in numpy" in out.error
    assert "(the client: 0.0)" in out.error
    assert runner._checked(mine, lambda: 5, ())[:2] == (5, None)  # the client's own environment runs


def test_a_worker_started_by_a_dask_nanny_reuses_freed_memory_again(monkeypatch):
    """A nanny's MALLOC_TRIM_THRESHOLD_ made every block map its arrays afresh (about twice as slow);
    the worker's first block sets glibc's thresholds back where its dynamic rule puts them."""
    from privbounds.simulators.engine import cluster

    monkeypatch.delenv("MALLOC_TRIM_THRESHOLD_", raising=False)
    assert cluster.heap_reuse() is False  # a plain process: left alone
    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "65536")
    assert cluster.heap_reuse() is (sys.platform.startswith("linux") and "glibc" in " ".join(platform.libc_ver()))


def test_the_blocks_in_flight_follow_the_workers_that_join_and_leave():
    class Client:
        threads = {"a": 1}

        def nthreads(self):
            if self.threads is None:
                raise OSError("no answer")
            return self.threads

    client = Client()
    cap = cluster.Capacity(client, every=0.0)
    assert cap() == 2
    client.threads = {"a": 1, "b": 4}  # a 4-thread worker joined
    assert cap() == 10
    client.threads = None  # the scheduler did not answer: the last count holds
    assert cap() == 10
    client.threads = {}  # every worker left: two blocks wait for the next one
    assert cap() == 2
    slow = cluster.Capacity(client, every=3600.0)
    client.threads = {"a": 2}
    assert slow() == 4
    client.threads = {"a": 8}
    assert slow() == 4  # asked again only after `every` seconds


def test_a_point_too_large_for_the_workers_memory_is_refused_before_any_block(tmp_path):
    """kmms.thm5_1 at d = 160 needs about 4.3 GiB a block (Simulator.memory): on a worker of 1 GB,
    one line and exit 2 within seconds, and no block stored."""
    dask = LocalDask(tmp_path)
    try:
        dask.worker("small", None, "--memory-limit", "1GB")
        cmd = [sys.executable, "-m", "privbounds.cli", "run", "kmms.thm5_1", "--set", "d=160", "--fidelity", "smoke",
               "--backend", "dask", "--scheduler", dask.address, "--quiet", "--out", str(tmp_path / "o")]
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    finally:
        dask.close()
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
    said, error = res.stderr.strip().splitlines()  # the cluster's size, then the refusal
    assert said.startswith("privbounds: Dask scheduler ") and "1 worker on 1 host, 1 thread, 0.9 GiB" in said
    assert error.startswith("privbounds: error: kmms.thm5_1 at ") and "d=160" in error, error
    assert "more than the smallest Dask worker thread's 0.9 GiB; give smaller values" in error and _stored(tmp_path / "o") == 0
