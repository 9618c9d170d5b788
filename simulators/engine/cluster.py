"""Running blocks on a Dask cluster (dask.distributed). Not tied to one paper: it serves
every theorem's blocks, as the engine's executor (runner.py).

Before any work, every worker is checked (``preflight``): it must import privbounds at
the client's release and source files, with the client's Python, numpy and scipy (their
versions are part of every block's key in the store, which the client writes: a worker
with another numpy would compute blocks filed under the client's versions). A worker
that fails is named in one line with what to install where, and the run stops before
its first block (exit 2), instead of waiting on workers that die on import. The first
question asked of a worker uses only the standard library, so that a worker without
privbounds can still answer it.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import importlib.util
import logging
import math
import os
import platform
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

from privbounds.params import ParameterError

CONNECT_TIMEOUT = 10.0  # seconds for the scheduler to answer
WAIT_FOR_WORKERS = 10.0  # seconds for a named scheduler's first worker to connect
ANSWER_WITHIN = 15.0  # seconds for the workers to answer each question of the check
# the packages whose files a worker runs: the source digest covers all of them, keyed by
# module name, so an editable install and a wheel of the same files agree
_ROOTS = ("privbounds", "privbounds.bounds", "privbounds.simulators", "privbounds.figures", "privbounds.reports")


class ClusterLost(RuntimeError):
    """The scheduler went away during a run: what was kept, for a one-line message;
    ``resumable`` when finished blocks are in the store."""

    def __init__(self, message: str, resumable: bool = True):
        super().__init__(message)
        self.resumable = resumable


@dataclass(frozen=True)
class Environment:
    """What a process that runs blocks must share with the client: our files and release, the
    libraries whose arithmetic a block's numbers come from, and the vector instructions numpy
    picks its routines by (its exp, log and sums differ in the last bits between them, and a
    last bit can move a comparison), so that any worker gives the client's numbers."""

    privbounds: str
    source: str  # SHA-256 of the package's Python files, by module name
    python: str
    numpy: str
    scipy: str
    simd: str = ""  # numpy's dispatch targets this CPU runs (NPY_DISABLE_CPU_FEATURES narrows them)
    learners: str = ""  # scikit-learn and diffprivlib, which the gallery's learners run

    def differences(self, other: Environment) -> list[str]:
        """'name X (the client: Y)' for each field of ``self`` that differs from ``other``."""
        names = {"source": "privbounds source files", "simd": "numpy's CPU dispatch targets",
                 "learners": "learner libraries"}
        return [f"{names.get(k, k)} {getattr(self, k) or 'none'} (the client: {getattr(other, k) or 'none'})"
                for k in ("privbounds", "source", "python", "numpy", "scipy", "simd", "learners")
                if getattr(self, k) != getattr(other, k)]


@dataclass(frozen=True)
class WorkerInfo:
    address: str
    name: str
    host: str
    threads: int
    memory: int  # bytes (0: no limit declared)


def source_digest(roots: tuple = _ROOTS) -> str:
    """SHA-256 over the Python files of privbounds and its mapped packages (``roots``), each
    named by its module (``privbounds.simulators.engine.cluster``), in sorted order."""
    files: dict[str, bytes] = {}
    for root in roots:
        spec = importlib.util.find_spec(root)
        for where in (spec.submodule_search_locations or []) if spec else []:
            base = Path(where)
            for f in base.rglob("*.py"):
                files[".".join((root, *f.relative_to(base).with_suffix("").parts))] = f.read_bytes()
    h = hashlib.sha256()
    for name in sorted(files):
        h.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return h.hexdigest()[:16]


def environment() -> Environment:
    """This process's environment (run on the client and, by ``preflight``, on each worker)."""
    import numpy
    import scipy

    return Environment(importlib.metadata.version("privbounds"), source_digest(), platform.python_version(),
                       numpy.__version__, scipy.__version__, _simd(), _learners())


def _simd() -> str:
    """numpy's dispatch targets that this CPU runs ('X86_V3,X86_V4'), '?' where numpy does not say."""
    try:
        from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    except ImportError:
        return "?"
    return ",".join(t for t in __cpu_dispatch__ if __cpu_features__.get(t))


def _learners() -> str:
    """The installed versions of the other libraries whose learners the gallery runs."""
    found = []
    for name in ("scikit-learn", "diffprivlib"):
        try:
            found.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            pass
    return ", ".join(found)


def workers(client) -> list[WorkerInfo]:
    """The scheduler's workers, all of them (some dask releases list the first five only
    unless asked for all; older ones take no such argument)."""
    try:
        info = client.scheduler_info(n_workers=-1)
    except TypeError:
        info = client.scheduler_info()
    return [WorkerInfo(a, str(w.get("name", a)), str(w.get("host", a)), int(w.get("nthreads", 0)),
                       int(w.get("memory_limit") or 0)) for a, w in sorted(info.get("workers", {}).items())]


def _why(e: BaseException) -> str:
    """An exception as one short text (dask wraps a worker's own in a plain Exception)."""
    return str(e) if type(e) is Exception else f"{type(e).__name__}: {e}"


class _NoAnswer(Exception):
    """A worker listed by the scheduler that gave no answer (it left, or joined, during the
    check, or its connection failed)."""


def _failure(w: WorkerInfo, version, env, mine: Environment) -> str | None:
    """Why worker ``w`` cannot run the client's blocks, or None. ``version`` is its
    answer to the standard-library question (privbounds' installed version, or the
    exception), ``env`` its Environment (or the exception)."""
    named = f" ({w.name})" if w.name != w.address else ""
    where = f"worker {w.address}{named} on host {w.host}"
    fix = (f"install the client's privbounds {mine.privbounds} there (its checkout or the same wheel), in the "
           f"Python {mine.python} environment the worker runs")
    if isinstance(version, _NoAnswer) or isinstance(env, _NoAnswer) or isinstance(version, OSError):
        return f"{where} did not answer the check (it left or joined meanwhile, or its connection failed): run again"
    if isinstance(version, importlib.metadata.PackageNotFoundError):
        return f"{where} has no privbounds: {fix}"
    if isinstance(version, BaseException):
        return f"{where} failed the check ({_why(version)}): {fix}"
    if version != mine.privbounds:
        return f"{where} has privbounds {version}, the client {mine.privbounds}: {fix}"
    if isinstance(env, BaseException):
        return f"{where} cannot import privbounds ({_why(env)}): {fix}"
    diff = env.differences(mine)
    if diff:
        return f"{where} differs from the client in {'; '.join(diff)}: {advice(env, mine)}"
    return None


def advice(env: Environment, mine: Environment) -> str:
    """What to do about a worker whose Environment differs from the client's ``mine``."""
    if all(getattr(env, k) == getattr(mine, k) for k in ("privbounds", "source", "python", "numpy", "scipy",
                                                         "learners")):
        return ("numpy picks other routines on that CPU, whose last bits differ: use workers with the client's "
                "CPU features, or start the client and every worker with NPY_DISABLE_CPU_FEATURES naming the "
                "targets they do not all have")
    return ("install the client's privbounds and the same numpy, scipy, learner libraries and Python there "
            "(numpy's, scipy's and Python's versions are part of every stored block's key)")


def _ask(client, fn, *args, workers=None) -> dict:
    """``client.run`` with a deadline: a hung worker must not hang the check."""
    import concurrent.futures as cf

    pool = cf.ThreadPoolExecutor(1)
    try:
        return pool.submit(client.run, fn, *args, workers=workers, on_error="return").result(timeout=ANSWER_WITHIN)
    except cf.TimeoutError:
        raise ParameterError(f"some workers did not answer the check within {ANSWER_WITHIN:g} s (overloaded or "
                             "hung): see the scheduler's list of workers, and run again") from None
    finally:
        pool.shutdown(wait=False)


def _check_once(client, mine: Environment) -> tuple[list[WorkerInfo], list[str]]:
    """(the workers listed after the check, why each that fails does): every worker the
    scheduler lists once both questions are answered, so one that joined meanwhile is
    not passed unasked."""
    versions = _ask(client, importlib.metadata.version, "privbounds")
    ok = [a for a, v in versions.items() if v == mine.privbounds]
    envs = _ask(client, environment, workers=ok) if ok else {}
    ws = workers(client)
    none = _NoAnswer()
    return ws, [f for w in ws if (f := _failure(w, versions.get(w.address, none),
                                                envs.get(w.address, none if versions.get(w.address) == mine.privbounds
                                                         else None), mine))]


def preflight(client, address: str, mine: Environment) -> list[WorkerInfo]:
    """Check every worker of ``client`` against the client's environment ``mine`` before
    any block is submitted; raise ParameterError (one line: the first failing worker, what
    to install, how many others fail) or return the workers. A check whose list of
    workers changed while it ran is made again (three times at most)."""
    if not workers(client):
        with contextlib.suppress(Exception):  # asyncio or dask's own TimeoutError
            client.wait_for_workers(1, timeout=WAIT_FOR_WORKERS)
    if not workers(client):
        raise ParameterError(f"--scheduler {address}: the scheduler has no workers (waited {WAIT_FOR_WORKERS:g} s); "
                             f"start one where the client's privbounds {mine.privbounds} is installed: "
                             f"dask worker {address} --nthreads 1")
    for _ in range(3):
        ws, failures = _check_once(client, mine)
        if not any("did not answer" in f for f in failures):
            break
    if failures:
        more = f" (and {len(failures) - 1} more of {len(ws)} workers fail this check)" if len(failures) > 1 else ""
        raise ParameterError(f"--scheduler {address}: {failures[0]}{more}")
    return ws


_CHECKED: dict = {}  # in a worker: the client environments already compared with this one


class Capacity:
    """How many blocks to keep in flight on a Dask cluster: twice its worker threads, asked
    of the scheduler at most every ``every`` seconds, so that workers that join mid-run get
    blocks too (and a cluster that lost workers is not flooded)."""

    def __init__(self, client, every: float = 5.0):
        self.client, self.every, self.asked, self.value = client, every, -math.inf, 2

    def __call__(self) -> int:
        now = time.monotonic()
        if now - self.asked >= self.every:
            self.asked = now
            with contextlib.suppress(Exception):  # a scheduler that does not answer: the last count
                self.value = 2 * max(1, sum(self.client.nthreads().values()))
        return self.value


def mismatch(mine: Environment) -> str | None:
    """In a worker, before a block: how this process differs from the client's ``mine``
    (a worker that joined after the check), or None; computed once per process."""
    if mine not in _CHECKED:
        heap_reuse()
        diff = environment().differences(mine)
        _CHECKED[mine] = f"worker {worker_name()} differs from the client in {'; '.join(diff)}" if diff else None
    return _CHECKED[mine]


# glibc's mallopt parameters, and the largest threshold its own dynamic rule reaches (64-bit)
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD, MMAP_MAX = -1, -3, 32 << 20


def heap_reuse() -> bool:
    """Let this worker reuse freed memory for its next arrays, as a plain Python process does.
    A Dask nanny starts its worker with MALLOC_TRIM_THRESHOLD_=65536, which also turns off
    glibc's dynamic mmap threshold: every array over 128 KiB is then mapped and unmapped
    afresh, and our blocks ran about twice as slow (pap.base_priv at n = 1,382,568: 10.9 s against 5.5
    s for 4 blocks of 250 trials). Setting both thresholds where the dynamic rule would take
    them (32 MiB and twice that) restored it (4.2 s). Only where a nanny set the variable, on
    glibc; True when done."""
    if "MALLOC_TRIM_THRESHOLD_" not in os.environ or not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None)
        return bool(libc.mallopt(M_MMAP_THRESHOLD, MMAP_MAX) and libc.mallopt(M_TRIM_THRESHOLD, 2 * MMAP_MAX))
    except (OSError, AttributeError):  # not glibc: nothing to undo
        return False


def describe(ws: list[WorkerInfo]) -> str:
    """'2 workers on 1 host, 4 threads, 15.6 GiB' (memory when every worker declares it)."""
    hosts = len({w.host for w in ws})
    mem = f", {sum(w.memory for w in ws) / 2**30:.1f} GiB" if all(w.memory for w in ws) else ""
    return (f"{len(ws)} worker{'s' if len(ws) != 1 else ''} on {hosts} host{'s' if hosts != 1 else ''}, "
            f"{sum(w.threads for w in ws)} thread{'s' if sum(w.threads for w in ws) != 1 else ''}{mem}")


@contextlib.contextmanager
def dask_client(jobs: int, scheduler: str | None, say=None):
    """A checked client: of the scheduler at ``scheduler``, or of a local cluster of
    ``jobs`` one-thread worker processes. ``say(line)`` is told the cluster's size."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as e:  # pragma: no cover - depends on the extra
        raise ParameterError("backend dask needs the optional extra: pip install 'privbounds[dask]'") from e
    cluster = None
    if scheduler:
        with warnings.catch_warnings():
            # dask's own version warning on connecting: preflight names the worker instead
            warnings.filterwarnings("ignore", message=".*[Mm]ismatched versions.*")
            try:
                client = Client(scheduler, timeout=f"{CONNECT_TIMEOUT:g}s")
            except (OSError, TimeoutError, ValueError) as e:
                raise ParameterError(f"--scheduler {scheduler}: no Dask scheduler answered ({e})") from None
    else:
        cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    # a lost scheduler: the engine says what was kept in one line; dask's own log lines
    # ("Failed to reconnect to scheduler ...", "Batched Comm Closed" and comm tracebacks
    # from tornado's loop) would come on top of it: silenced while the run lasts
    quiet = [logging.getLogger(name) for name in ("distributed", "distributed.client", "distributed.batched",
                                                  "distributed.core", "tornado.application")]
    levels = [q.level for q in quiet]
    try:
        mine = environment()
        ws = preflight(client, scheduler or "local cluster", mine)
        if say is not None and scheduler:
            say(f"Dask scheduler {scheduler}: {describe(ws)}; every worker runs privbounds "
                f"{mine.privbounds} with the client's files and libraries")
        for q in quiet:
            q.setLevel(logging.CRITICAL + 1)
        yield client, mine
    finally:
        with contextlib.suppress(Exception):  # a client whose scheduler is gone closes itself
            client.close()
        for q, level in zip(quiet, levels):
            q.setLevel(level)
        if cluster is not None:
            cluster.close()


def client_health(client, address: str | None) -> tuple[str | None, str]:
    """(why a client can get no more results, or None while it runs or still reconnects to
    its scheduler; its workers in a few words, for a run that waits)."""
    status = str(getattr(client, "status", "running"))
    if status not in ("running", "connecting", "newly-created"):
        return f"the Dask client is {status}", ""
    if status != "running":  # reconnecting: its list of workers is the last one it had
        return None, "; the client is reconnecting to its scheduler"
    try:
        n = len(workers(client))
    except Exception:  # noqa: BLE001 - a scheduler that does not answer now: say nothing more
        return None, ""
    if n == 0:
        return None, ("; the scheduler has no workers left" +
                      (f": start one with dask worker {address} --nthreads 1" if address else ""))
    return None, f"; {n} worker{'s' if n != 1 else ''} connected"


def worker_name() -> str:
    """The Dask worker running a block (its address), for the record; "" elsewhere (a
    local process's host name and pid would only leak into the published results)."""
    dist = sys.modules.get("distributed")
    if dist is not None:
        with contextlib.suppress(ValueError, AttributeError):
            return dist.get_worker().address
    return ""
