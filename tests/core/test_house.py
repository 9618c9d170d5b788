"""The house's order (issue 31): no import circle among privbounds' modules, the mapped
packages (bounds/, simulators/, figures/, reports/) included, imports inside functions and
relative imports counted (a module loaded by name through importlib is not seen), so that
the registry and the results on disk never reach up into the API."""

import ast
import importlib.util
from pathlib import Path

ROOTS = ("privbounds", "privbounds.bounds", "privbounds.simulators", "privbounds.figures", "privbounds.reports")


def _modules() -> dict[str, Path]:
    mods = {}
    for root in ROOTS:
        base = Path(importlib.util.find_spec(root).submodule_search_locations[0])
        for f in base.rglob("*.py"):
            parts = f.relative_to(base).with_suffix("").parts
            if root == "privbounds" and parts[0] in ("bounds", "simulators", "figures", "reports"):
                continue  # an editable install's own folders are the mapped packages above
            name = ".".join((root, *parts))
            mods[name.removesuffix(".__init__")] = f
    return mods


def _imports(mods: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the modules of ours it imports (at the top or inside a function)."""
    graph = {m: set() for m in mods}
    for m, f in mods.items():
        package = m if f.name == "__init__.py" else m.rpartition(".")[0]
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # from .x import y, from .. import z: resolved from this package
                    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join(up + ([base] if base else []))
                names = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                while name and name not in mods:  # a name defined in a module: that module
                    name = name.rpartition(".")[0]
                if name and name != m:
                    graph[m].add(name)
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while not comp or comp[-1] != v:
                comp.append(stack.pop())
                on.discard(comp[-1])
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle():
    mods = _modules()
    assert "privbounds.simulators.engine.runner" in mods and "privbounds.api" in mods
    assert _circles(_imports(mods)) == []


def test_the_circle_finder_finds_a_circle():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_relative_imports_are_followed():
    graph = _imports(_modules())
    assert "privbounds.bounds._meta" in graph["privbounds.bounds.bns"]  # bounds/bns.py: from ._meta import ...
