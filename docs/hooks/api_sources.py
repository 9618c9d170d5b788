"""MkDocs hook: the source tree the API reference reads, as Python imports it.

pyproject.toml maps the folders bounds/, simulators/, figures/ and reports/ into the one
import name ``privbounds`` (setuptools ``package-dir``). An installed wheel has them in
place, but an editable install resolves them through an import hook that griffe, which
reads source files without importing them, does not run: it finds ``privbounds`` and
none of ``privbounds.figures`` and the rest. So, before the build, this hook lays out
``build/api-sources/privbounds`` as the installed package looks: a symbolic link to each
entry of privbounds/ and one per mapped folder, named as pyproject.toml maps it. The
mkdocstrings handler searches that folder first (``paths`` in mkdocs.yml). Read from
pyproject.toml at every build, so the mapping is stated once.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the test extra installs tomli there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
TREE = ROOT / "build" / "api-sources"


def mapped_folders(root: Path = ROOT) -> dict[str, Path]:
    """{subpackage name under privbounds: folder} from pyproject.toml's package-dir."""
    package_dir = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    return {name.split(".", 1)[1]: root / folder for name, folder in package_dir.items()
            if name.startswith("privbounds.") and name.count(".") == 1}


def lay_out(root: Path = ROOT, tree: Path = TREE) -> Path:
    """Write ``tree/privbounds`` (links only) and return it."""
    pkg = tree / "privbounds"
    shutil.rmtree(tree, ignore_errors=True)
    pkg.mkdir(parents=True)
    for entry in (root / "privbounds").iterdir():
        if entry.name != "__pycache__":
            (pkg / entry.name).symlink_to(entry)
    for name, folder in mapped_folders(root).items():
        (pkg / name).symlink_to(folder)
    return pkg


def on_startup(**kwargs):
    # before any plugin's on_config: mkdocstrings reads its handler's paths there
    lay_out()
