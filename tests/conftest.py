"""Shared fixtures: one smoke-fidelity run of every registered theorem per session, and
one report site (figures + HTML, every figure drawn once and its drawing recorded) built
from it, which the registry, figure, report and browser tests all read. Under pytest-xdist the workers share both: the first worker to need one
builds it under a file lock in the session's common temporary folder, the others wait for
it and read it (they never write into it).

The suite sees the built-in papers only: plugins (the gallery of other libraries'
learners, when its extra is installed here) are switched off for this process and the
commands it starts; tests/core/test_plugins.py and tests/gallery/ turn them on for their
own subprocesses. A plugin paper goes through the same common checks as the built-in ones
(privbounds.testing) in its own tests, with plugins on: examples/privbounds-laplace/tests,
which CI runs after installing it (.ci/run)."""

import fcntl
import hashlib
import os
import shutil
import sys
import time
from pathlib import Path

import pytest

os.environ["PRIVBOUNDS_NO_PLUGINS"] = "1"  # before the registry is first read

import privbounds


@pytest.fixture(scope="module")
def registry_restored():
    """The registry, and the measured learners' bookkeeping, as they were before the block:
    entries a test module measures (``learner.*``) leave with it, so that a later module's
    ``list`` does not show them, never run, in this process."""
    from privbounds import learners, registry

    registry.ids()  # discover first: a copy made before discovery would lose every built-in entry
    with pytest.MonkeyPatch.context() as mp:
        for name in ("_ENTRIES", "_BUILT", "_PAPERS"):
            mp.setattr(registry, name, dict(getattr(registry, name)))
        mp.setattr(learners, "_LIVE", set(learners._LIVE))
        mp.setattr(learners, "_READ", dict(learners._READ))
        yield


def _shared_root(tmp_path_factory):
    """The session's temporary folder, or under xdist the folder all its workers share."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _built_once(root, name, build):
    """Run ``build()`` once per session, whatever the number of workers: under a lock in
    ``root``, marked done (``root/.<name>.built``) only after it returned, so that a build
    that raised is tried again by the next worker that needs it (the smoke run then
    resumes from the blocks its store already holds)."""
    with open(root / f".{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        done = root / f".{name}.built"
        if not done.exists():
            build()
            done.touch()


@pytest.fixture(scope="session")
def smoke_out(tmp_path_factory, pytestconfig):
    """A smoke run of every theorem. Its blocks are kept between sessions in pytest's
    cache folder (a copy of the run's block store): the store reads a block only under its
    full key, code hash included, so a session recomputes exactly the theorems whose code
    changed since the last one (``pytest --cache-clear`` starts from nothing). Blocks this
    session did not use are dropped from the copy."""
    kept = None
    if getattr(pytestconfig, "cache", None) is not None:  # absent under -p no:cacheprovider
        kept = pytestconfig.cache.mkdir("privbounds-smoke-blocks")
    root = _shared_root(tmp_path_factory)
    out = root / "smoke"
    out.mkdir(exist_ok=True)
    _built_once(root, "smoke", lambda: _smoke_run(out, kept))
    return out


def _smoke_run(out, kept):
    from privbounds.simulators.engine.blockstore import FILENAME, BlockStore, StoreError

    kept = kept / FILENAME if kept is not None else None
    if kept is not None and kept.is_file():
        shutil.copyfile(kept, out / FILENAME)
    started = time.time()
    try:
        privbounds.run(fidelity="smoke", jobs=2, seed=0, out=out, progress=False)
    except StoreError:  # a kept copy of an older store format, or damaged: start from nothing
        (out / FILENAME).unlink()
        privbounds.run(fidelity="smoke", jobs=2, seed=0, out=out, progress=False)
    if kept is not None:
        with BlockStore(out) as store:  # keep this session's blocks only: the copy stays small
            store.prune(older_than_days=(time.time() - started + 1) / 86400)
        tmp = kept.with_name(kept.name + ".tmp")
        shutil.copyfile(out / FILENAME, tmp)
        tmp.replace(kept)


# Figures whose pixels a test looks at, whatever tests are selected: the papers' headline
# figures (test_registry reads their PNG files). The theorem pages a browser test paints
# are added from the selected tests (``_painted``).
HEADLINES = ("paper-*", "*.headline")


def _painted(session) -> tuple:
    """Name patterns of the theorem figures whose page a selected browser test opens (it
    paints the figure, or loads the page with its images): the same on every xdist
    worker (each collects, and deselects, the whole suite)."""
    names = set()
    for item in session.items:
        if item.get_closest_marker("browser") is not None and hasattr(item, "callspec"):
            names |= {v for k, v in item.callspec.params.items() if k in ("tid", "name") and isinstance(v, str)}
    return tuple(p for name in sorted(names) for p in (name, f"{name}-*"))


@pytest.fixture(scope="session")
def smoke_site(smoke_out, request):
    """A copy of ``smoke_out``'s results with every figure drawn once and the report built
    (once per session), in a folder of its own: drawing takes ``<out>/.lock``, and a test
    that runs a command on ``smoke_out`` must never meet it held. Every figure is laid out
    and recorded (``<name>.drawn.json``: what it drew and its readability problems, which
    the figure tests read); only those whose pixels a selected test looks at are rendered,
    as PNG (SVG output is tested on its own, in test_registry.py and test_report_pages.py).
    The site is kept in pytest's cache folder under the key of the code that built it
    (``_code_key``): a session on unchanged code copies it instead of drawing again."""
    site = smoke_out.parent / "site"
    png = HEADLINES + _painted(request.session)
    cache = getattr(request.config, "cache", None)
    kept = cache.mkdir("privbounds-smoke-site") / _code_key(png) if cache is not None else None

    def build():
        shutil.rmtree(site, ignore_errors=True)  # what a failed build left
        if kept is not None and kept.is_dir():
            shutil.copytree(kept, site)
            return
        shutil.copytree(smoke_out / "results", site / "results")
        privbounds.plot(out=site, jobs=2, svg=False, png=png, record=True)
        privbounds.report(out=site)
        if kept is not None:
            _keep(site, kept)

    _built_once(smoke_out.parent, "site", build)
    return site


KEPT_SITES = 3  # sites kept (a selection of tests renders its own figures: its own key)


def _keep(site: Path, kept: Path) -> None:
    """Copy the built site into the cache under its key, atomically (a copy under a
    temporary name, then renamed: a concurrent session sees all of it or none), and drop
    the oldest kept sites beyond ``KEPT_SITES``."""
    tmp = kept.with_name(f".{kept.name}.{os.getpid()}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(site, tmp)
    try:
        tmp.rename(kept)
    except OSError:  # another session kept the same site first
        shutil.rmtree(tmp, ignore_errors=True)
    others = sorted((p for p in kept.parent.iterdir() if not p.name.startswith(".")), key=lambda p: p.stat().st_mtime)
    for old in others[:-KEPT_SITES]:
        shutil.rmtree(old, ignore_errors=True)


def _code_key(png: tuple) -> str:
    """What a kept smoke site was built from: every file of the installed package (its
    code, templates and style, in each of its folders), the versions of Python and of
    every installed distribution, this file, and the figures rendered. Any change builds
    anew. The smoke results it holds are a function of these (the blocks are seeded by
    content), up to their timings."""
    from importlib import metadata

    import privbounds.bounds
    import privbounds.figures
    import privbounds.reports
    import privbounds.simulators

    h = hashlib.sha256(f"{sys.version}|{png}".encode())
    # every installed distribution's version (the site's libraries and privbounds' own,
    # which the pages print), and this file, which says how the site is built
    for dist in sorted(f"{d.metadata['Name']} {d.version}" for d in metadata.distributions()):
        h.update(f"|{dist}".encode())
    h.update(Path(__file__).read_bytes())
    roots = {Path(m.__file__).parent for m in (privbounds, privbounds.bounds, privbounds.figures,
                                               privbounds.reports, privbounds.simulators)}
    for root in sorted(roots):
        for f in sorted(root.rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts:
                h.update(f"|{f.relative_to(root.parent)}|".encode() + f.read_bytes())
    return h.hexdigest()[:16]


def pytest_collection_modifyitems(config, items):
    """The unit checks that a registered privacy-audit instance has power and stays within
    its budget (``test_*_powered*``, 42 cases, about 33 s) run in ``nox -s slow``: every
    quick run, CI's included, evaluates the same instances as the theorems' privacy-audit
    claims, doubled budget included, and the check compares their counts with the baseline."""
    for item in items:
        if "_powered" in item.originalname:
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def run_cli():
    """Run ``privbounds`` in this process: ``run_cli(argv, capsys)`` gives (exit code,
    stdout, stderr), an argparse error's exit code included."""
    from privbounds.cli import main

    def run(argv, capsys):
        try:
            code = main(argv)
        except SystemExit as e:  # argparse errors
            code = e.code
        cap = capsys.readouterr()
        return code, cap.out, cap.err

    return run

