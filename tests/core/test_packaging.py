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


def test_bounds_load_without_the_engine_pandas_or_matplotlib():
    import subprocess
    import sys

    # every module of bounds/, whichever papers there are
    code = ("import importlib, pkgutil, sys, privbounds.bounds as b; "
            "[importlib.import_module(f'privbounds.bounds.{m.name}') for m in pkgutil.iter_modules(b.__path__)]; "
            "bad = [m for m in ('pandas', 'matplotlib', 'joblib', 'scipy.stats', 'scipy.optimize', "
            "'privbounds.simulators', 'privbounds.api', 'privbounds.registry') if m in sys.modules]; "
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_a_worker_and_the_command_line_start_without_scipy_stats_pandas_or_matplotlib():
    """What every process pays before its first block or its help text: the engine (a loky
    worker unpickles a block through it) and the command line load none of the heavy
    libraries (scipy.stats alone took 1.3-1.8 s to import here); a simulator or a command
    that needs one imports it itself."""
    import subprocess
    import sys

    # the engine and the command line; then every simulator module (a worker imports the
    # one of the theorem whose block it runs), of which two solvers need scipy.optimize
    code = ("import importlib, pkgutil, sys, privbounds.simulators as s, privbounds.simulators.engine.runner, "
            "privbounds.cli; heavy = lambda *ms: ','.join(m for m in ms if m in sys.modules); "
            "print(heavy('scipy.stats', 'scipy.optimize', 'pandas', 'matplotlib')); "
            "[importlib.import_module(m.name) for m in pkgutil.walk_packages(s.__path__, 'privbounds.simulators.')]; "
            "print(heavy('scipy.stats', 'pandas', 'matplotlib') + '|' + str(len(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    engine, simulators = out.stdout.splitlines()
    loaded, count = simulators.split("|")
    assert engine == "" and loaded == "" and int(count) > 500, out.stdout  # > 500: the simulators were imported


def test_the_github_workflow_runs_the_tests_the_quick_check_and_keeps_the_report():
    text = (ROOT / ".github" / "workflows" / "ci.yml").read_text()
    for step in ("apt-get install -y -qq chromium", "pip install -e '.[test,dask]'", "run: pytest\n",
                 "privbounds reproduce --fidelity quick --jobs 2", "actions/upload-artifact", "privbounds-out/report"):
        assert step in text, step
