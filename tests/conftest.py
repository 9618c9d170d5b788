"""Shared fixtures: one smoke-fidelity run of every registered theorem per session."""

import pytest

import privbounds


@pytest.fixture(scope="session")
def smoke_out(tmp_path_factory):
    out = tmp_path_factory.mktemp("smoke")
    privbounds.run(fidelity="smoke", jobs=1, seed=0, out=out, progress=False)
    return out
