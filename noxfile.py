"""nox sessions: tests, slow, docs, bench, reproduce, review, check, mutations, alarms, lint, lowest, gallery, example.

Each session installs the project (editable) with the extras it needs into its own
virtual environment; ``nox -s tests`` is equivalent to the test command of the README and
of docs/getting-started.md.
"""

from pathlib import Path

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
    session.run("pytest", "-m", "slow", *session.posargs)  # the documentation's slow commands too


@nox.session(python=PY)
def docs(session):
    """The documentation site (mkdocs.yml, docs/) with warnings as errors, into site/."""
    _install(session, "docs")
    # NO_MKDOCS_2_WARNING: Material's notice about its successor, a banner, not a build warning
    session.run("mkdocs", "build", "--strict", *session.posargs, env={"NO_MKDOCS_2_WARNING": "1"})


@nox.session(python=PY)
def bench(session):
    """Speed ratios measured in one run (tests/core/test_bench.py; the hot simulators against their floor: tests/core/test_bench_floor.py; KMMS: tests/kmms/test_bench*.py)."""
    _install(session)
    session.run("pytest", "-n", "0", "-m", "benchmark", "--benchmark-enable", "-s", "tests/core/test_bench.py",
                "tests/core/test_bench_floor.py", "tests/kmms/test_bench.py", "tests/kmms/test_bench_halfplanes.py",
                *session.posargs)


@nox.session(python=PY)
def reproduce(session):
    """Every figure, the report and the check at quick fidelity (pass e.g. -- --fidelity full)."""
    _install(session, "dask")
    session.run("privbounds", "reproduce", "--fidelity", "quick", "--jobs", "2", *session.posargs)


@nox.session(python=PY)
def review(session):
    """The figure review of a run's results (pass -- --out DIR; default privbounds-out, where
    'nox -s reproduce' writes): every figure redrawn with its drawing record, the report
    rebuilt, every theorem and paper page rendered in headless Chromium at 1400 px, and
    DIR/review/ written: a contact sheet per paper (or several), problems.txt (the figures'
    readability problems; the session fails when it lists any) and index.html. Needs
    Debian's chromium; about two minutes for a quick run's 136 pages on 2 cores."""
    _install(session, "dask")
    session.run("python", "-m", "privbounds.reports.review", "--draw", *session.posargs)


@nox.session(python=PY)
def check(session):
    """Run at full fidelity and compare with the committed full baselines (CI checks quick)."""
    _install(session, "dask")
    session.run("privbounds", "run", "--fidelity", "full", "--jobs", "2", "--quiet", "--out", "check-out")
    session.run("privbounds", "check", "--out", "check-out")


@nox.session(python=PY)
def gallery(session):
    """Learners from other libraries (the gallery extra): their tests, then their quick run
    and the check against reports/baselines/gallery/quick.json (about 20 minutes on 2 cores)."""
    _install(session, "test,gallery")
    session.run("pytest", "tests/gallery", *session.posargs)
    session.run("privbounds", "run", "gallery.*", "--fidelity", "quick", "--jobs", "2", "--quiet",
                "--out", "gallery-out")
    session.run("privbounds", "check", "--out", "gallery-out")


@nox.session(python=PY)
def example(session):
    """The example plugin paper (examples/privbounds-laplace) as its own distribution: its
    tests (the common checks of privbounds.testing, with plugins on), then its quick run,
    the check against its own baseline and its report (seconds on 2 cores)."""
    _install(session, "test")
    session.install("-e", "examples/privbounds-laplace")
    session.run("pytest", "examples/privbounds-laplace/tests", *session.posargs)
    session.run("privbounds", "run", "--paper", "laplace", "--fidelity", "quick", "--jobs", "2", "--quiet",
                "--out", "example-out")
    session.run("privbounds", "check", "--out", "example-out")
    session.run("privbounds", "report", "--out", "example-out")


@nox.session(python=PY)
def mutations(session):
    """Halve each declared noise source of each privacy audit on its own and print whether the
    audit catches it (pass theorem ids or patterns, e.g. -- kmms.claim3_4 'pap.*'), then the
    mutation tests (tests/core/test_mutations.py, slow ones included)."""
    _install(session)
    session.run("python", "-m", "privbounds.simulators.engine.mutations", *session.posargs)
    session.run("pytest", "-m", "slow or not slow", "tests/core/test_mutations.py")


@nox.session(python=PY)
def alarms(session):
    """The check's false alarms on an unchanged tree: the quick run at seeds 1 to 6 against the
    committed seed-0 quick baselines (pass theorem ids or patterns to restrict it, e.g. -- 'pap.*').
    Prints each seed's exit code and regressions; the session fails if any seed raised an alarm.
    About six quick runs of wall time on 2 cores."""
    _install(session, "dask")
    alarms = []
    for seed in range(1, 7):
        out = f"alarms-out/seed{seed}"
        session.run("privbounds", "run", *session.posargs, "--fidelity", "quick", "--jobs", "2", "--quiet",
                    "--seed", str(seed), "--out", out)
        # exit 1 is an alarm to count here, not a failure of the session's command
        text = session.run("privbounds", "check", "--out", out, success_codes=[0, 1], silent=True)
        print(text)
        if "check FAILED" in text:
            alarms.append(seed)
    session.log(f"false alarms: {len(alarms)} of 6 seeds ({', '.join(map(str, alarms)) or 'none'})")
    if alarms:
        session.error(f"the check raised an alarm at seeds {alarms} on an unchanged tree")


@nox.session(python=PY)
def lint(session):
    session.install("ruff")
    session.run("ruff", "check", "privbounds", "bounds", "simulators", "figures", "reports",
                "tests", "noxfile.py", "examples", "docs/hooks")


# The smoke selection: a quick end-to-end pass through the engine (loky, threading and
# Dask backends, block cache, resume), the CLI and one smoke-fidelity run of every theorem
# with its figures and report.
SMOKE = ["-m", "not slow and not benchmark and not browser", "-x", "-q",
         "tests/core/test_engine.py", "tests/core/test_cli.py", "tests/core/test_registry.py"]


def _floor_pins() -> list[str]:
    """``name==X`` for every ``name>=X`` in pyproject.toml's dependencies and extras.

    Read at run time, so the floors live in one place only. Extras are dropped (pip does
    not accept them in a constraints file); the pin still holds for the package itself.
    """
    try:
        import tomllib
    except ImportError:  # Python 3.10: nox depends on tomli there
        import tomli as tomllib
    from packaging.requirements import Requirement

    project = tomllib.loads(Path("pyproject.toml").read_text())["project"]
    reqs = list(project.get("dependencies", []))
    for extra in project.get("optional-dependencies", {}).values():
        reqs += extra
    pins = {}
    for text in reqs:
        req = Requirement(text)
        floors = [s.version for s in req.specifier if s.operator == ">="]
        if len(floors) != 1:
            raise ValueError(f"pyproject.toml: {text!r} needs exactly one '>=' floor")
        pins[req.name] = f"{req.name}=={floors[0]}"
    return sorted(pins.values())


@nox.session(python=PY, reuse_venv=False)
def lowest(session):
    """Smoke tests with every dependency at its pyproject.toml floor (``>=X`` installed as ``==X``).

    Passing proves the floors are honest: the pinned set (core, test and dask extras) is
    installable together, and the engine, CLI, figures and report work at those versions.
    A floor that is too low (a missing API, an incompatible pair, no wheel) fails here.
    """
    pins = _floor_pins()
    constraints = Path(session.create_tmp()) / "lowest-constraints.txt"
    constraints.write_text("\n".join(pins) + "\n")
    session.log("floors: " + ", ".join(pins))
    session.install("-e", ".[test,dask]", "-c", str(constraints))
    session.run("python", "-m", "pip", "check")
    # test_engine skips its Dask test when the import fails; a broken dask floor must fail.
    session.run("python", "-c", "import dask.distributed")
    session.run("pytest", *SMOKE, *session.posargs)
