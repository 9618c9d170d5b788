"""Provenance of the five papers' result records: the code version (package and git commit)
and the run's settings and libraries, written into every record by ``privbounds.run``."""

from __future__ import annotations

import platform
import subprocess
import time
from importlib import metadata
from pathlib import Path


def code_version() -> str:
    """Package version plus the git commit of the source tree, when there is one."""
    version = metadata.version("privbounds")
    try:
        here = Path(__file__).resolve().parent
        commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=here,
                                capture_output=True, text=True, timeout=5).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=here,
                               capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit, dirty = "", ""
    return f"{version}+{commit}{'.dirty' if dirty else ''}" if commit else version


def provenance(version: str, fidelity, seed, jobs, backend, wall, command) -> dict:
    """What a result record says of the run that made it: ``version`` (``code_version``, asked
    of git once a run, not once a theorem), the command, the settings, the libraries."""
    pkgs = {}
    for name in ("numpy", "scipy", "pandas", "joblib", "matplotlib", "seaborn", "jinja2"):
        try:
            pkgs[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    return {"code_version": version, "command": command,
            "fidelity": fidelity, "seed": seed, "jobs": jobs, "backend": backend,
            "wall_seconds": round(wall, 3), "python": platform.python_version(),
            "platform": platform.platform(), "packages": pkgs,
            "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
