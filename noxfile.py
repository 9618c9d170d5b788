"""nox sessions: tests, slow, bench, reproduce, check, lint.

Each session installs the project (editable) with the extras it needs into its own
virtual environment; ``nox -s tests`` is equivalent to the README's test command.
"""

import nox

nox.options.sessions = ["tests"]
nox.options.reuse_existing_virtualenvs = True

PY = None  # the interpreter nox runs under (any Python >= 3.10)


def _install(session, extras="test,dask"):
    session.install("-e", f".[{extras}]")


@nox.session(python=PY)
def tests(session):
    """Fast unit and integration tests (the default pytest selection)."""
    _install(session)
    session.run("pytest", *session.posargs)


@nox.session(python=PY)
def slow(session):
    """Long statistical tests (e.g. n_hat interval coverage over 1000 searches)."""
    _install(session)
    session.run("pytest", "-m", "slow", *session.posargs)


@nox.session(python=PY)
def bench(session):
    """Speed ratios measured in one run (see tests/core/test_bench.py)."""
    _install(session)
    session.run("pytest", "-m", "benchmark", "--benchmark-enable", "-s", "tests/core/test_bench.py",
                *session.posargs)


@nox.session(python=PY)
def reproduce(session):
    """Every figure, the report and the check at quick fidelity (pass e.g. -- --fidelity full)."""
    _install(session, "dask")
    session.run("privbounds", "reproduce", "--fidelity", "quick", "--jobs", "2", *session.posargs)


@nox.session(python=PY)
def check(session):
    """Run at full fidelity and compare with the committed baseline (what CI does)."""
    _install(session, "dask")
    session.run("privbounds", "run", "--fidelity", "full", "--jobs", "2", "--quiet", "--out", "check-out")
    session.run("privbounds", "check", "--out", "check-out")


@nox.session(python=PY)
def lint(session):
    session.install("ruff")
    session.run("ruff", "check", "privbounds", "bounds", "simulators", "figures", "reports",
                "tests", "noxfile.py")
