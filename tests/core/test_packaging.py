"""Packaging: every package folder on disk is installed under the one import name."""

from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[2]
MAPPED = {"privbounds": "privbounds", "bounds": "privbounds.bounds", "simulators": "privbounds.simulators",
          "figures": "privbounds.figures", "reports": "privbounds.reports"}


def test_every_package_folder_is_listed_in_pyproject():
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(cfg["packages"])
    on_disk = set()
    for top, name in MAPPED.items():
        for init in (ROOT / top).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / top).parts
            on_disk.add(".".join((name, *rel)))
    assert on_disk == listed, f"missing from pyproject: {sorted(on_disk - listed)}; " \
                              f"listed but absent: {sorted(listed - on_disk)}"
    for top, name in MAPPED.items():
        assert cfg["package-dir"][name] == top


def _loaded(statements: str, names: tuple) -> tuple[list[str], int]:
    """Which of ``names`` a fresh interpreter has imported after running ``statements``,
    and how many modules it holds then."""
    import subprocess
    import sys

    code = f"import sys\n{statements}\nprint(','.join(m for m in {names!r} if m in sys.modules), len(sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    found, count = out.stdout.split(" ")  # "name,name count", the names possibly none
    return [m for m in found.split(",") if m], int(count)


def test_bounds_load_without_the_engine_pandas_or_matplotlib():
    # every module of bounds/, whichever papers there are
    found, _ = _loaded("import importlib, pkgutil, privbounds.bounds as b\n"
                       "for m in pkgutil.iter_modules(b.__path__): importlib.import_module(f'privbounds.bounds.{m.name}')",
                       ("pandas", "matplotlib", "joblib", "scipy.stats", "scipy.optimize", "privbounds.simulators",
                        "privbounds.api", "privbounds.registry"))
    assert found == []


def test_a_worker_and_the_command_line_start_without_scipy_stats_pandas_or_matplotlib():
    """What every process pays before its first block or its help text: the engine (a loky
    worker unpickles a block through it) and the command line load none of the heavy
    libraries (scipy.stats alone takes about 0.9 s to import here); a simulator or a
    command that needs one imports it itself."""
    found, _ = _loaded("import privbounds.simulators.engine.runner, privbounds.cli",
                       ("scipy.stats", "scipy.optimize", "pandas", "matplotlib"))
    assert found == []
    # every simulator module (a worker imports the one of the theorem whose block it runs);
    # two solvers need scipy.optimize
    found, count = _loaded("import importlib, pkgutil, privbounds.simulators as s\n"
                           "for m in pkgutil.walk_packages(s.__path__, 'privbounds.simulators.'): "
                           "importlib.import_module(m.name)", ("scipy.stats", "pandas", "matplotlib"))
    assert found == [] and count > 500  # > 500: the simulators were imported


def test_the_github_workflow_runs_the_tests_the_quick_check_and_keeps_the_report():
    text = (ROOT / ".github" / "workflows" / "ci.yml").read_text()
    for step in ("apt-get install -y -qq chromium", "pip install -e '.[test,dask,docs]'", "run: pytest\n",
                 "run: mkdocs build --strict", "privbounds reproduce --fidelity quick --jobs 2",
                 "actions/upload-artifact", "privbounds-out/report", "            site\n"):
        assert step in text, step


def test_ci_installs_the_example_plugin_paper_on_its_own_and_checks_it():
    """The example plugin paper is its own distribution: CI (.ci/run and the workflow)
    installs it after the built-in run, runs its tests with plugins on and checks its quick
    run against its own baseline; the built-in suite never collects its tests."""
    ex = "examples/privbounds-laplace"
    ci = (ROOT / ".ci" / "run").read_text()
    for step in (f".venv/bin/pip install -q -e {ex}", f".venv/bin/pytest {ex}/tests",
                 ".venv/bin/privbounds run --paper laplace --fidelity quick --jobs 2 --quiet --out example-out",
                 ".venv/bin/privbounds check --out example-out", "paper-laplace.html"):
        assert step in ci, step
    assert ci.index(f"pip install -q -e {ex}") > ci.index(".venv/bin/privbounds check --out ci-out")
    flow = (ROOT / ".github" / "workflows" / "ci.yml").read_text()
    for step in (f"pip install -e {ex}", f"pytest {ex}/tests", "privbounds check --out example-out"):
        assert step in flow, step
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert cfg["testpaths"] == ["tests"]
    assert (ROOT / ex / "privbounds_laplace" / "baselines" / "quick.json").is_file()
