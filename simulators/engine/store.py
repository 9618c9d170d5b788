"""Which code produced a stored block (its code hash), and the output folder's lock.

A cached block is reused only when the code that would recompute it is unchanged. Its
key holds ``code_hash`` of the simulator's module: a SHA-256 over the source of that
module, of the engine's runner (which seeds and runs blocks), and of every module of ours
they import, followed transitively (read from the import statements, so a change to a
shared learner invalidates exactly the blocks of the simulators that use it). Figures,
reports and the registry's prose are not in it, so editing them never throws results
away.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import importlib.util
import os
import sys
from pathlib import Path

ROOT = "privbounds"


def _resolve(name: str, level: int, package: str) -> str:
    if level == 0:
        return name
    base = package.rsplit(".", level - 1)[0] if level > 1 else package
    return f"{base}.{name}" if name else base


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _source(module: str) -> tuple[bytes, bool] | None:
    """(source bytes, is a package) of a module, None if it has no .py file. A script run
    as ``__main__`` has no import spec: its file is read instead."""
    try:
        spec = importlib.util.find_spec(module)
    except ValueError:  # __main__ (a script or a notebook) has __spec__ = None
        spec = None
        path = getattr(sys.modules.get(module), "__file__", None)
        if path and str(path).endswith(".py") and Path(path).is_file():
            return Path(path).read_bytes(), False
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin).read_bytes(), spec.submodule_search_locations is not None


def _statements(tree: ast.AST):
    """Every statement of ``tree``, nested ones included (an import is a statement, so the
    expressions, most of a module's nodes, need not be visited)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            children = getattr(node, field, None)
            if isinstance(children, list):
                todo.extend(children)


def _imports(module: str) -> tuple[tuple[str, ...], bytes]:
    """(modules of ours that ``module`` imports, its source bytes), read from disk now."""
    found_source = _source(module)
    if found_source is None:
        return (), b""
    source, is_package = found_source
    package = module if is_package else module.rpartition(".")[0]
    found = []
    for node in _statements(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(node.module or "", node.level, package)
            found.append(base)
            # "from privbounds.simulators.bns import gf2" imports a module, not a name; asked of
            # our own packages only (find_spec of "scipy.stats.beta" would import scipy.stats)
            if base == ROOT or base.startswith(ROOT + "."):
                found += [f"{base}.{a.name}" for a in node.names if _is_module(f"{base}.{a.name}")]
    ours = sorted({m for m in found if m == ROOT or m.startswith(ROOT + ".")} - {ROOT})
    return tuple(m for m in ours if _is_module(m)), source


def closure(*modules: str, memo: dict | None = None) -> list[str]:
    """``modules`` and every module of ours they import, followed transitively, sorted.
    ``memo`` (module -> _imports result) lets several calls of one run share the reads."""
    memo = {} if memo is None else memo
    seen, todo = set(), list(modules)
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        if m not in memo:
            memo[m] = _imports(m)
        todo += memo[m][0]
    return sorted(seen)


# What computes a block besides its simulator: blocks.py draws each block's generator
# (block_seed) and calls the simulator; a change there must invalidate every block (and a
# change to the scheduling around it, in runner.py and the modules it imports, must not).
ENGINE = "privbounds.simulators.engine.blocks"


def code_hash(module: str, memo: dict | None = None) -> str:
    """SHA-256 (hex, 16 characters) over the source of ``closure(module, ENGINE)``, read
    from disk at each call (so an edit made in a long-lived session is seen)."""
    memo = {} if memo is None else memo
    h = hashlib.sha256()
    for m in closure(module, ENGINE, memo=memo):
        h.update(m.encode() + b"\0" + memo[m][1] + b"\0")
    return h.hexdigest()[:16]


def clean_temporary(out: Path) -> int:
    """Remove what killed runs leave behind: our own ``.<name>.tmp`` files (the block
    store needs no cleaning: SQLite rolls back an unfinished transaction itself). Called
    under the lock, which every command that writes into ``<out>`` holds (run, figures,
    report), so no live command is writing them."""
    removed = 0
    for pattern in ("results/.*.tmp", "figures/.*.tmp", "report/**/.*.tmp"):
        for p in Path(out).glob(pattern):
            with contextlib.suppress(OSError):
                p.unlink()
                removed += 1
    return removed


@contextlib.contextmanager
def locked(out: Path):
    """Hold ``<out>/.lock`` while a command writes into ``<out>`` (run, figures, report); a
    second one on the same folder is refused at once rather than interleaving its writes
    with ours."""
    import fcntl

    from privbounds.params import ParameterError, flag

    path = Path(out) / ".lock"
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            other = os.pread(fd, 64, 0).decode(errors="replace").strip() or "?"
            raise ParameterError(f"{flag('out')} {out} is in use by another privbounds command (pid {other}); "
                                 f"wait for it or choose another {flag('out')}") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield
    finally:
        os.close(fd)

