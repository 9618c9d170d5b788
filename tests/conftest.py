"""Shared fixtures: one smoke-fidelity run of every registered theorem per session, and
one report site (figures + HTML) built from it, which the registry, report and browser
tests all read.

The suite sees the built-in papers only: plugins (the gallery of other libraries'
learners, when its extra is installed here) are switched off for this process and the
commands it starts; tests/core/test_plugins.py and tests/gallery/ turn them on for their
own subprocesses."""

import os
import shutil
import time

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


@pytest.fixture(scope="session")
def smoke_out(tmp_path_factory, pytestconfig):
    """A smoke run of every theorem. Its blocks are kept between sessions in pytest's
    cache folder (a copy of the run's block store): the store reads a block only under its
    full key, code hash included, so a session recomputes exactly the theorems whose code
    changed since the last one (``pytest --cache-clear`` starts from nothing). Blocks this
    session did not use are dropped from the copy."""
    from privbounds.simulators.engine.blockstore import FILENAME, BlockStore, StoreError

    out = tmp_path_factory.mktemp("smoke")
    kept = None
    if getattr(pytestconfig, "cache", None) is not None:  # absent under -p no:cacheprovider
        kept = pytestconfig.cache.mkdir("privbounds-smoke-blocks") / FILENAME
        if kept.is_file():
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
    return out


@pytest.fixture(scope="session")
def smoke_site(smoke_out):
    """``smoke_out`` with every figure drawn and the report built (once per session)."""
    privbounds.plot(out=smoke_out, jobs=2)
    privbounds.report(out=smoke_out)
    return smoke_out


def pytest_collection_modifyitems(config, items):
    """The unit checks that a registered privacy-audit instance has power and stays within
    its budget (``test_*_powered*``, 42 cases, about 33 s) run in ``nox -s slow``: every
    quick run, CI's included, evaluates the same instances as the theorems' privacy-audit
    claims, doubled budget included, and the check compares their counts with the baseline."""
    for item in items:
        if "_powered" in item.originalname:
            item.add_marker(pytest.mark.slow)
