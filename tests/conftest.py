"""Shared fixtures: one smoke-fidelity run of every registered theorem per session, and
one report site (figures + HTML) built from it, which the registry, report and browser
tests all read."""

import pytest

import privbounds


@pytest.fixture(scope="session")
def smoke_out(tmp_path_factory):
    out = tmp_path_factory.mktemp("smoke")
    privbounds.run(fidelity="smoke", jobs=2, seed=0, out=out, progress=False)
    return out


@pytest.fixture(scope="session")
def smoke_site(smoke_out):
    """``smoke_out`` with every figure drawn and the report built (once per session)."""
    privbounds.plot(out=smoke_out, jobs=2)
    privbounds.report(out=smoke_out)
    return smoke_out
