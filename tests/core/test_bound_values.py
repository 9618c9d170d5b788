"""Pin every bound function of ``privbounds.bounds`` to values worked out by hand.

A *bound function* is one tagged by ``bound(kind, source)`` (bounds/_meta.py), i.e. it
has ``.kind`` and ``.source``. They are found by name over every public module of
``privbounds.bounds``. This file is the machinery only; the hand values live with each
paper, one ``bound_pins.py`` per test folder, holding the pins of the functions *defined*
(``fn.__module__``) in that paper's module:

- tests/core/bound_pins.py: privbounds.bounds.tools, plus ``HELPERS`` (the untagged shared
  helpers advanced_composition_epsilon and per_concept_epsilon);
- tests/siv/bound_pins.py: privbounds.bounds.sivakumar;
- tests/bns/bound_pins.py: privbounds.bounds.bns.

Every ``tests/*/bound_pins.py`` is loaded (under the module name ``bound_pins_<folder>``)
and its tables are merged; a name pinned in two files is an error. A pins file is a plain
module (no __init__.py needed, and it imports no other pins file) that may define:

- ``PINNED``: name -> [(kwargs, expected), ...], at least two points per bound function
  (three or four where it has branches: a max() of terms, basic vs advanced composition,
  a cap, a vacuous case, the condition of an ``_at`` variant, ...);
- ``DOCSTRING_DISAGREEMENTS``: name -> [(kwargs, expected, reason), ...], points where a
  function's value is not its own docstring's formula: the expected value is the
  docstring's, the case is xfail(strict=True), and the reason says what differs;
- ``SOLVED_BY_ROOT_FINDER``: names whose value goes through a root finder (compared at
  rel 1e-6 instead of 1e-9, as is every point with ``rule="advanced"``);
- ``HELPERS``: name -> points, for untagged helpers, looked up by name over the same modules;
- ``check_*()`` functions: re-checks of its own literals (bisection roots and the like),
  each called by ``test_pinned_literals_are_right``.

To add a paper: write tests/<paper>/bound_pins.py with a docstring and those tables for
the functions its bounds module defines. Nothing here changes;
``test_every_bound_function_is_pinned`` fails until each new bound function has >= 2 points.

How the expected values were obtained, in every pins file: never from privbounds. Each
one is the formula of the function's docstring (cross-checked with
the papers' statements) evaluated by hand
with plain ``math``, written out with the hand-simplified constants (e.g. 4 / (0.25 *
0.25) = 64) and, for max() terms, the value of every term so the winning branch is
visible. Probability ceilings are pinned as their docstrings state them (capped at 1 or
floored at 0 only where the docstring says so). Where a formula needs a root, the root is
a literal found in a scratch shell by plain bisection of the stated condition, and a
``check_*`` function of the same pins file re-checks it.
"""

import importlib
import importlib.util
import inspect
import pkgutil
from pathlib import Path

import numpy as np
import pytest

import privbounds.bounds

TESTS = Path(__file__).parents[1]


# --- the pins of every paper ---------------------------------------------------------------

def _load_pins():
    """folder name -> the loaded module of tests/<folder>/bound_pins.py."""
    pins = {}
    for path in sorted(TESTS.glob("*/bound_pins.py")):
        name = f"bound_pins_{path.parent.name}"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        pins[path.parent.name] = module
    assert "core" in pins, f"tests/core/bound_pins.py not found under {TESTS}"
    return pins


def _merged(table):
    """The union of ``table`` (e.g. "PINNED") over all pins files; a name in two files is an error."""
    merged, owner = {}, {}
    for folder, module in PINS.items():
        for name, points in getattr(module, table, {}).items():
            if name in merged:
                raise ValueError(f"{name} is in the {table} of both tests/{owner[name]}/bound_pins.py "
                                 f"and tests/{folder}/bound_pins.py")
            merged[name], owner[name] = points, folder
    return merged


PINS = _load_pins()
PINNED = _merged("PINNED")
DOCSTRING_DISAGREEMENTS = _merged("DOCSTRING_DISAGREEMENTS")
HELPERS = _merged("HELPERS")
SOLVED_BY_ROOT_FINDER = set().union(*(getattr(m, "SOLVED_BY_ROOT_FINDER", set()) for m in PINS.values()))


def _rel(name, kwargs):
    if name in SOLVED_BY_ROOT_FINDER or kwargs.get("rule") == "advanced":
        return 1e-6
    return 1e-9


# --- discovery and comparison ----------------------------------------------------------

def _bounds_modules():
    """Every public module of privbounds.bounds (names starting with _ skipped)."""
    return [importlib.import_module(f"privbounds.bounds.{m.name}")
            for m in pkgutil.iter_modules(privbounds.bounds.__path__)
            if not m.name.startswith("_")]


def _bound_functions():
    """name -> bound function, over all modules (deduplicated by identity, so a function
    re-imported by another module counts once). Two distinct functions sharing one name
    would make the lookup ambiguous, so that is an error."""
    found = {}
    for mod in _bounds_modules():
        for obj in vars(mod).values():
            if callable(obj) and hasattr(obj, "kind") and hasattr(obj, "source"):
                found[id(obj)] = obj
    by_name = {}
    for fn in found.values():
        assert fn.__name__ not in by_name, f"two bound functions named {fn.__name__}"
        by_name[fn.__name__] = fn
    return by_name


def _mismatch(name, kwargs, expected):
    """None if bound function ``name`` at ``kwargs`` matches ``expected``, else a message."""
    fn = _bound_functions()[name]
    actual = np.asarray(fn(**kwargs), dtype=float)
    if actual.shape != ():
        return f"{name}(**{kwargs}) returned shape {actual.shape}, not a scalar"
    rel = _rel(name, kwargs)
    if float(actual) == pytest.approx(expected, rel=rel, abs=0):
        return None
    return f"{name}(**{kwargs}) = {float(actual)!r}, hand value {expected!r} (rel {rel})"


CASES = [pytest.param(name, kwargs, expected, id=f"{name}-{i}")
         for name, points in PINNED.items() for i, (kwargs, expected) in enumerate(points)]
CASES += [pytest.param(name, kwargs, expected, id=f"{name}-docstring-{i}",
                       marks=pytest.mark.xfail(strict=True, reason=reason))
          for name, points in DOCSTRING_DISAGREEMENTS.items()
          for i, (kwargs, expected, reason) in enumerate(points)]


@pytest.mark.parametrize("name, kwargs, expected", CASES)
def test_bound_function_matches_hand_value(name, kwargs, expected):
    problem = _mismatch(name, kwargs, expected)
    assert problem is None, problem


def test_every_bound_function_is_pinned():
    functions = _bound_functions()
    assert len(functions) >= 45          # discovery works (51 in sivakumar, tools and bns now)
    thin = sorted(n for n in functions if len(PINNED.get(n, [])) < 2)
    assert not thin, f"bound functions without >= 2 pinned points: {thin}"
    stale = sorted((set(PINNED) | set(DOCSTRING_DISAGREEMENTS)) - set(functions))
    assert not stale, f"PINNED names that are not bound functions: {stale}"


# --- untagged helpers that bound functions build on -----------------------------------
# Not bound functions (no kind/source), so not in PINNED; looked up by name over the
# modules of privbounds.bounds all the same, so a move between modules does not lose them.

def _helper(name):
    """The one function called ``name`` in the modules of privbounds.bounds."""
    found = {id(obj): obj for mod in _bounds_modules()
             if callable(obj := getattr(mod, name, None))}
    assert len(found) == 1, f"{len(found)} functions named {name} in privbounds.bounds"
    return next(iter(found.values()))


@pytest.mark.parametrize("name, kwargs, expected", [
    pytest.param(name, kwargs, expected, id=f"{name}-{i}")
    for name, points in HELPERS.items() for i, (kwargs, expected) in enumerate(points)])
def test_helper_matches_hand_value(name, kwargs, expected):
    actual = float(_helper(name)(**kwargs))
    assert actual == pytest.approx(expected, rel=1e-9, abs=0), (name, kwargs)


# --- the literals are right ----------------------------------------------------------
# Each pins file re-checks its own literals in its check_*() functions.

@pytest.mark.parametrize("check", [
    pytest.param(fn, id=f"{folder}-{name}")
    for folder, module in PINS.items()
    for name, fn in vars(module).items()
    if name.startswith("check_") and inspect.isfunction(fn) and fn.__module__ == module.__name__])
def test_pinned_literals_are_right(check):
    check()


# --- the test has teeth ----------------------------------------------------------------

@pytest.mark.parametrize("name", ["n_alg5_points", "packing_lower_bound", "n_expmech_learner",
                                  "expmech_failure_ceiling", "n_pmw"])
def test_doubling_a_bound_function_is_caught(monkeypatch, name):
    original = _bound_functions()[name]
    points = PINNED[name]
    assert all(_mismatch(name, kw, ex) is None for kw, ex in points)

    def doubled(*args, **kwargs):
        return 2 * original(*args, **kwargs)
    doubled.kind, doubled.source, doubled.__name__ = original.kind, original.source, name
    for mod in _bounds_modules():       # every module that holds it (bns re-imports sivakumar's)
        if getattr(mod, name, None) is original:
            monkeypatch.setattr(mod, name, doubled)

    assert _bound_functions()[name] is doubled
    problems = [_mismatch(name, kw, ex) for kw, ex in points]
    assert all(p is not None for p in problems), problems
