"""`privbounds new paper NAME` and `privbounds new theorem ID`: the files of a new plugin
paper, or of a new theorem of an existing paper (built-in or plugin), written from the
templates in privbounds/scaffold_templates (string.Template).

Not tied to one paper. What is written passes the common checks (privbounds.testing) as
it stands, with one exception a new theorem must fix by running it: its quick baseline.
The template's theorem is a real one to replace (the Laplace mean of Bernoulli rows within
alpha of p, with a Hoeffding + Laplace-tail upper bound and an audit of its one noise
source), so that the first `privbounds run` of a new paper already runs, draws its figure
with the generic plotter and reaches a verdict.
"""

from __future__ import annotations

import keyword
import re
from collections import Counter
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from string import Template

from privbounds.params import ParameterError

TEMPLATES = Path(__file__).resolve().parent / "scaffold_templates"
PREFIX = re.compile(r"[a-z][a-z0-9]{0,15}")
NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
BUILT_IN_SOURCE = "ours: Hoeffding's inequality and the Laplace tail, each at beta / 2 (template)"


@dataclass(frozen=True)
class Write:
    """One file the scaffold writes: new (refused if it exists) or appended to."""

    path: Path
    text: str
    append: bool = False


def _render(template: str, **values) -> str:
    return Template((TEMPLATES / f"{template}.tmpl").read_text()).substitute(values)


def _prefix(name: str) -> str:
    if not PREFIX.fullmatch(name or "") or keyword.iskeyword(name):
        raise ParameterError(f"NAME must be a paper prefix of 1 to 16 lower-case letters and digits, starting "
                             f"with a letter, got {name!r}")
    from privbounds.registry import papers

    if name in papers():
        raise ParameterError(f"NAME {name!r} is already a registered paper ({papers()[name].title})")
    return name


def _theorem_values(tid: str, sim_mod: str, bounds_mod: str, title: str) -> dict:
    prefix, name = tid.split(".")
    cls = "".join(w.capitalize() for w in name.split("_"))
    # the builder's imports, in the order isort gives them (one block, by module)
    imports = sorted([f"from {bounds_mod} import n_{name}", "from privbounds.claims import UpperBound, use",
                      "from privbounds.registry import Theorem", f"from {sim_mod} import {cls}"])
    return {"tid": tid, "entry_imports": "\n".join(f"    {line}" for line in imports), "prefix": prefix, "name": name, "cls": cls,
            "sim_mod": sim_mod, "bounds_mod": bounds_mod, "bound_fn": f"n_{name}", "title": title,
            "number": name, "source": BUILT_IN_SOURCE, "extra_imports": ""}


def paper_files(prefix: str, root: Path, title: str | None = None) -> list[Write]:
    """The files of a new plugin distribution ``root/privbounds-<prefix>`` with one theorem,
    ``<prefix>.thm1``."""
    prefix = _prefix(prefix)
    pkg, dist = f"privbounds_{prefix}", f"privbounds-{prefix}"
    title = title or f"The {prefix} paper (a privbounds plugin: replace by its citation)"
    base = Path(root) / dist
    v = {"prefix": prefix, "pkg": pkg, "dist": dist, "title": title}
    thm = _theorem_values(f"{prefix}.thm1", f"{pkg}.thm1", f"{pkg}.bounds", title)
    return [Write(base / "pyproject.toml", _render("paper_pyproject.toml", **v)),
            Write(base / "README.md", _render("paper_README.md", **v)),
            Write(base / pkg / "__init__.py", _render("paper_init.py", **v)),
            Write(base / pkg / "bounds.py", _render("paper_bounds.py", **v) + "\n\n" + _render("bound.py", **thm)),
            Write(base / pkg / "thm1.py", _plugin_theorem(thm)),
            Write(base / pkg / "baselines" / "README.md", _render("baselines_README.md", **v)),
            Write(base / "tests" / "test_common.py", _render("paper_tests.py", **v))]


def _plugin_theorem(values: dict) -> str:
    """A plugin's theorem module: the simulator, its audit and its registry entry."""
    values = {**values, "extra_imports": "from privbounds.registry import entry\n"}
    return _render("simulator.py", **values) + "\n\n" + _render("entry.py", **values)


def _theorem_id(tid: str) -> tuple[str, str]:
    from privbounds import registry

    prefix, dot, name = (tid or "").partition(".")
    if not dot or not NAME.fullmatch(name) or keyword.iskeyword(name):
        raise ParameterError(f"ID must be <paper>.<name>, a name of lower-case letters, digits and _ starting "
                             f"with a letter, got {tid!r}")
    if prefix not in registry.papers():
        raise ParameterError(f"ID {tid!r}: no paper {prefix!r}; the papers are {', '.join(registry.papers())} "
                             f"('privbounds new paper {prefix}' makes one)")
    if tid in registry.ids():
        raise ParameterError(f"ID {tid!r} is already registered (by {registry.module_of(tid)})")
    if registry.papers()[prefix].kind != "paper":  # learners are measured ('privbounds measure'), not written
        raise ParameterError(f"ID {tid!r}: {prefix!r} holds learners, not a paper's theorems; 'privbounds "
                             f"measure' adds a learner")
    if not registry.select(paper=prefix):
        raise ParameterError(f"ID {tid!r}: paper {prefix!r} has no theorem to take its files' places from")
    return prefix, name


def theorem_files(tid: str) -> list[Write]:
    """The files of a new theorem ``tid`` of a registered paper: for a plugin's, one module
    in its package and its bound appended to the package's bounds.py; for a built-in
    paper's, its simulator under simulators/<paper>/, its bound appended to the paper's
    bounds module and its entry in the paper's registry module (a new module of the
    paper's registry package, or appended to its one module)."""
    from privbounds import registry

    prefix, name = _theorem_id(tid)
    paper = registry.papers()[prefix]
    home = import_module(registry.module_of(registry.select(paper=prefix)[0]))
    if not home.__name__.startswith("privbounds."):  # a plugin: everything in its package
        pkg = home.__name__.split(".")[0]
        folder = Path(import_module(pkg).__file__).parent
        v = _theorem_values(tid, f"{pkg}.{name}", f"{pkg}.bounds", paper.title)
        return [Write(folder / f"{name}.py", _plugin_theorem(v)),
                Write(folder / "bounds.py", "\n\n" + _render("bound.py", **v), append=True)]
    bounds_mod = _bounds_module(prefix)
    v = _theorem_values(tid, f"privbounds.simulators.{prefix}.{name}", bounds_mod, paper.title)
    sims = Path(import_module(f"privbounds.simulators.{prefix}").__file__).parent
    out = [Write(sims / f"{name}.py", _render("simulator.py", **v)),
           Write(Path(import_module(bounds_mod).__file__), "\n\n" + _render("bound.py", **v), append=True)]
    reg = import_module(f"privbounds.registry.{prefix}")
    if Path(reg.__file__).name == "__init__.py":  # a package: the theorem's own module
        head = f'"""{paper.title}: {tid} (template: replace)."""\n\nfrom privbounds.registry import entry\n\n\n'
        return out + [Write(Path(reg.__file__).parent / f"{name}.py", head + _render("entry.py", **v))]
    return out + [Write(Path(reg.__file__), "\n\n" + _render("entry.py", **v), append=True)]


def _bounds_module(prefix: str) -> str:
    """The bounds module most of a built-in paper's claims use."""
    from privbounds import registry

    mods = Counter(c.bound.fn.__module__ for tid in registry.select(paper=prefix)
                   for c in registry.get(tid).claims if getattr(c, "bound", None) is not None)
    mods = [m for m, _ in mods.most_common() if m.startswith("privbounds.bounds.")]
    if not mods:
        raise ParameterError(f"ID: paper {prefix!r} has no claim with a bound, so no bounds module to add to")
    return mods[0]


def write(files: list[Write]) -> list[Path]:
    """Write ``files``: every new one must not exist yet (checked before any is written)."""
    taken = [w.path for w in files if not w.append and w.path.exists()]
    if taken:
        raise ParameterError(f"{taken[0]} already exists; nothing was written")
    for w in files:
        w.path.parent.mkdir(parents=True, exist_ok=True)
        if w.append:
            with w.path.open("a") as f:
                f.write(w.text)
        else:
            w.path.write_text(w.text)
    return [w.path for w in files]


# --- the command line ---------------------------------------------------------------------------

def add_parser(sub) -> None:
    sp = sub.add_parser("new", help="write the files of a new plugin paper or of a new theorem")
    what = sp.add_subparsers(dest="what", required=True, metavar="{paper,theorem}",
                             help="paper: a plugin distribution; theorem: one theorem of a registered paper")
    paper = what.add_parser("paper", help="a plugin distribution privbounds-NAME with one theorem, its tests "
                                          "and a folder for its baselines")
    paper.add_argument("name", metavar="NAME", help="the paper's prefix, e.g. laplace (ids NAME.thm1, ...)")
    paper.add_argument("--dir", default=".", metavar="DIR", help="where to write privbounds-NAME (default: .)")
    paper.add_argument("--title", help="the paper's citation (default: a placeholder)")
    thm = what.add_parser("theorem", help="a theorem of a registered paper: simulator, bound and entry")
    thm.add_argument("id", metavar="ID", help="<paper>.<name>, e.g. laplace.thm2")


def main(args) -> int:
    if args.what == "paper":
        root = Path(args.dir)
        if root.exists() and not root.is_dir():
            raise ParameterError(f"--dir {args.dir} is not a folder")
        try:
            paths = write(paper_files(args.name, root, args.title))
        except OSError as e:
            raise ParameterError(f"--dir {args.dir}: cannot be written ({e.strerror or e})") from None
        base = root / f"privbounds-{args.name}"
        print(f"wrote {len(paths)} files under {base}; next: pip install -e {base} && pytest {base / 'tests'}")
    else:
        paths = write(theorem_files(args.id))
        print("\n".join(f"wrote {p}" for p in paths))
        print(f"next: privbounds run {args.id} --fidelity quick --out OUT, then 'privbounds check --update "
              f"--out OUT' for its baseline")
    return 0
