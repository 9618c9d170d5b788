"""Bring your own learner: measure any private learner on a registered instance and set
its sample complexity beside a theorem's bounds and the theorem's own learners.

The learner protocol (duck-typed; nothing to subclass)::

    class MyLearner:
        sample_form = "rows"            # or "counts": a sample as counts over the support
        def __init__(self, epsilon=1.0):
            self.epsilon, self.delta = epsilon, 0.0     # the privacy it declares
        def fit(self, sample, rng):     # a privbounds.instances.Sample; rng: numpy Generator
            ...
            return predict              # predict(features) -> 0/1 labels ((m, k) for k concepts), or .predict

``measure`` takes the class (or any factory: it is called per parameter point with the
point's values that its signature names, such as ``epsilon`` or ``d``) or a ready
instance (then its ``epsilon`` is the only one measured). Success at a trial means
err_D(h) <= alpha, computed exactly over the instance's distribution: for k concepts,
every one of the k hypotheses; for an agnostic family, the excess error (see
``privbounds.instances``).

A measured learner becomes an entry of the registry, ``learner.<name>`` (``gallery.<name>``
for the committed learners of other libraries), whose points also run the registered
learners of the chosen theorem (``compare_to``) on the same instance family, and whose
claims are that theorem's bound claims: for each upper or lower bound a registered
private learner of the theorem is held to, the same bound applied to this learner
(``<name>-vs-<claim>``; an upper bound of another algorithm is a comparison, a lower
bound for every private learner is a real prediction about this one), and the theorem's
own claims at the points measured. Its result is a normal record: figure, report page,
``check``.

So that ``privbounds figures``, ``report`` and ``check`` find a measured entry in a later
process, ``measure`` writes its description to ``<out>/learners/<id>.json``; reading
``<out>`` registers it again (``load_saved``) without importing the learner, which only a
new run needs.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

from privbounds.learner_sim import (  # noqa: F401  (_construct, _takes, declared: used from here by others)
    LearnerSimulator,
    MappedBound,
    _construct,
    _grid_points,
    _takes,
    axis_key,
    check_measurable,
    code_identity,
    declared,
    describe,
)
from privbounds.params import ALPHA, BETA, DELTA, EPSILON, ParameterError, flag, named
from privbounds.simulators.engine.simulator import expand

NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,47}$")


# --- building the registry entry ------------------------------------------------------

def _claims(spec: dict):
    """The compared theorem's bound claims held to this learner, then the theorem's own
    claims at the points measured."""
    from privbounds.claims import BoundClaim, LowerBound, UpperBound
    from privbounds.registry import get

    thm = get(spec["compare_to"])
    name, label, key = spec["name"], spec["label"], axis_key(spec)
    pts = _grid_points(spec)
    mine, theirs = [], []
    for c in thm.claims:
        if c.kind == "privacy audit":
            continue
        for other in spec["private_beside"]:
            if isinstance(c, BoundClaim) and any(c.select({**p, key: other}) for p in pts):
                if c.kind == "lower bound" and not _as_strict(spec, thm.simulator, key, other, pts):
                    continue  # proved for a stricter privacy than this learner declares: it does not apply
                sel = _held_to(name, c.select, other, key)
                cls = UpperBound if c.kind == "upper bound" else LowerBound
                side = ("needs no more examples than the bound" if c.kind == "upper bound"
                        else "needs at least the examples of the lower bound")
                why = ("a comparison: the bound is proved for the theorem's own learner, not for this one"
                       if c.kind == "upper bound" else
                       "a lower bound of the theorem, which applies to this learner where the theorem's "
                       "conditions (its privacy notion, the learners it covers) do")
                whose = other if key == "learner" else f"{key} = {other}"
                mine.append(cls(f"{name}-vs-{c.id}", f"{label} {side} of {spec['compare_to']} #{c.id}, "
                                f"evaluated as for its learner {whose} ({why}). That claim: {c.description}", sel,
                                c.label_keys, bound=MappedBound(c.bound, other, key),
                                comparison=c.kind == "upper bound"))
                break
        if any(c.select({**p, key: o}) for p in pts for o in spec["beside"]):
            theirs.append(_only_theirs(c, tuple(spec["beside"])))
    return [*mine, *theirs]


def theirs_name(theorem_id: str) -> str:
    """How a theorem that runs one learner names it beside a measured one: its number
    (bns.ex3_5 -> "ex3_5")."""
    return theorem_id.split(".", 1)[1]


def _only_theirs(claim, beside):
    """The theorem's own claim restricted to the points of its learners (when the theorem
    has no "learner" parameter its selectors would match the measured learner's points too)."""
    select = claim.select
    return replace(claim, select=lambda p: p.get("learner") in beside and select(p))


def _as_strict(spec: dict, sim, key: str, other: str, pts: list) -> bool:
    """Whether the measured learner's declared delta is at most the delta of the theorem's
    learner ``other`` at every point: a lower bound proved for pure eps-DP learners says
    nothing of one that declares delta > 0 (an (eps, delta') learner with delta' <= delta
    is (eps, delta)-DP, so the bound holds for it)."""
    mine = spec["privacy"]["delta"]
    return all(mine <= (sim.privacy({**p, key: other}).get("delta") or 0.0) for p in pts)


def _held_to(name: str, select, other: str, key: str = "learner"):
    """A claim's point selector moved to learner ``name``: its points with ``other`` (the
    theorem's learner the claim is about, under the theorem's parameter ``key``) replaced
    by ``name``."""
    return lambda p: p.get("learner") == name and select({**p, key: other})


def build_theorem(spec: dict, learner=None):
    from privbounds.registry import Theorem, get

    thm = get(spec["compare_to"])
    sim = LearnerSimulator(spec, learner)
    return Theorem(
        number="measured learner", title=f"{spec['label']} on the {spec['instance']} instance of {spec['compare_to']}",
        statement=(f"A learner measured with privbounds: {spec['label']} ({spec['learner']}), declaring "
                   f"{_privacy_text(spec)}, on the {spec['instance']} instance of {spec['compare_to']} "
                   f"({thm.number}: {thm.title}), beside that theorem's learners "
                   f"{', '.join(spec['beside']) or '(none)'}. Settings: {spec['settings'] or 'as constructed'}."),
        math=thm.math, simulator=sim, claims=_claims(spec), plotter="learners:plot",
        notes=spec.get("notes", "") or (
            "Not a theorem's algorithm: the bounds shown are the compared theorem's, proved for its own "
            "learner (upper bounds) or for every learner with this privacy (lower bounds)."))


def _privacy_text(spec: dict) -> str:
    p = spec["privacy"]
    eps = "the epsilon of each point" if p["epsilon"] == "per point" else f"epsilon = {p['epsilon']:g}"
    return f"{eps}, delta = {p['delta']:g}"


def make_spec(learner, *, name: str, instance: str, compare_to: str, grid: dict, max_n: int,
              prefix: str = "learner", label: str | None = None, settings: str = "", notes: str = "",
              accounting: str = "", unaudited: str = "") -> dict:
    """Validate a measurement's inputs and describe it (JSON-able)."""
    from privbounds.instances import get as family
    from privbounds.registry import get

    if not isinstance(name, str) or not NAME.match(name):
        raise ParameterError(f"{flag('name')} must be 1-48 lower-case letters, digits, '-' or '_', got {name!r}")
    fam = family(instance)
    check_measurable(fam)  # before the grid, whose parameters a refused family may not have
    thm = get(compare_to)
    if thm.simulator is None:
        raise ParameterError(f"{flag('compare_to')} {compare_to} has no simulator to compare with")
    if compare_to not in (fam.theorem, *fam.also):
        raise ParameterError(f"{flag('compare_to')} {compare_to} does not use the instance {instance!r} "
                             f"(it is the instance of {', '.join((fam.theorem, *fam.also))})")
    if isinstance(max_n, bool) or not isinstance(max_n, int) or not 2 <= max_n <= 1 << 24:
        raise ParameterError(f"{flag('max_n')} must be an integer in [2, 2^24], got {max_n!r}")
    if not isinstance(grid, dict) or not grid:
        raise ParameterError(f"{flag('grid')} must be a dict {{parameter: [values]}}, e.g. {{'d': [4, 8, 12]}}")
    from privbounds.arguments import normalise_overrides

    grid = normalise_overrides(grid)
    allowed = named({**fam.params, "epsilon": EPSILON, "alpha": ALPHA, "beta": BETA, "delta": DELTA})
    where = "--set" if flag("grid").startswith("--") else "grid key"  # the command line's option is --set
    defaults = fam.defaults_for(compare_to)
    if "delta" not in defaults:  # a pure-DP theorem: it has no delta to sweep
        allowed.pop("delta")
    for k, vals in grid.items():
        if k not in allowed:
            raise ParameterError(f"{where} {k!r} is not a parameter of the instance {instance}; "
                                 f"allowed: {', '.join(allowed)}")
        for v in vals:
            allowed[k].validate(v)
    probe = _construct(learner, {"epsilon": grid.get("epsilon", [1.0])[0],
                                 **{k: v[0] for k, v in grid.items()}})
    eps, delta = declared(probe)
    per_point = _takes(learner, "epsilon")
    if not per_point:
        if "epsilon" in grid and grid["epsilon"] != [eps]:
            raise ParameterError(f"{flag('grid')} sets epsilon {grid['epsilon']}, but the learner does not take "
                                 f"epsilon (it declares {eps:g}); pass a class or factory with an epsilon argument")
        grid["epsilon"] = [eps]
    for k, v in defaults.items():  # what the theorem runs at, unless the grid says otherwise
        grid.setdefault(k, [v])
    for k in fam.params:
        if k not in grid:
            raise ParameterError(f"{'--set' if where == '--set' else 'grid'} must give {k}, a parameter of the "
                                 f"instance {instance} (its parameters: {', '.join(fam.params)})")
        # a parameter the compared theorem does not take is fixed by it (bns.thm3_1: X = 2^3)
        if k not in thm.simulator.params and k in defaults and grid[k] != [defaults[k]]:
            raise ParameterError(f"{where} {k}: {compare_to} runs the instance {instance} at {k} = {defaults[k]} "
                                 f"only, got {', '.join(map(str, grid[k]))}")
    point = fam.point_for(compare_to)
    # the compared theorem's learners, and which of them are private (their bounds apply);
    # a theorem that runs one learner (no "learner" parameter) shows it under its own id
    opts = (getattr(thm.simulator.params.get(fam.axis), "allowed", ()) if fam.axis
            else (theirs_name(compare_to),))
    base = {**point, **{k: v[0] for k, v in grid.items()}}
    key = fam.axis or "learner"
    refused = {o: _refusal(thm.simulator, key, o, point, grid) for o in opts}
    opts = [o for o in opts if not refused[o]]
    if not opts:  # nothing to compare with: say why rather than measure alone
        first = next(iter(refused.values()))
        raise ParameterError(f"{compare_to} runs none of its learners at this grid ({first}); "
                             f"change {flag('grid')}")
    private = [o for o in opts if thm.simulator.privacy({**base, key: o}).get("epsilon") is not None]
    if name in opts:
        raise ParameterError(f"{flag('name')} {name!r} is the name of one of {compare_to}'s learners; choose another")
    return {"id": f"{prefix}.{name}", "name": name, "label": label or name, "learner": describe(learner),
            "instance": instance, "theorem_point": point, "compare_to": compare_to,
            "beside": list(opts), "private_beside": private, "grid": grid, "max_n": int(max_n),
            # the theorem's learner parameter ("rule"; None: it has none), kept out when it is
            # "learner", so that the descriptions, and cache keys, of earlier measurements stay
            **({} if fam.axis == "learner" else {"axis": fam.axis}),
            "privacy": {"epsilon": "per point" if per_point else eps, "delta": delta},
            "settings": settings, "notes": notes, "code": code_identity(learner), "accounting": accounting,
            "unaudited": unaudited}


def _refusal(sim, key: str, learner: str, fixed: dict, grid: dict) -> str:
    """Why the theorem refuses to run its learner ``learner`` at some point of the grid ('' if
    it runs at every point: a theorem may allow a value of its parameter only for some of
    its claims, as bns.cor3_3 lists the advanced rule but is a pure-DP statement)."""
    try:
        for p in expand({**{k: [v] for k, v in fixed.items()}, **grid, key: [learner]}, {}):
            sim.check_point(p)
    except ParameterError as e:
        return str(e)
    return ""


def learner_entry(theorem_id: str, learner, *, instance: str, grid: dict, compare_to: str | None = None,
                  max_n: int = 1 << 20, label: str | None = None, settings: str = "", notes: str = "",
                  accounting: str = "", unaudited: str = "") -> None:
    """Register a learner as a permanent entry ``<prefix>.<name>``, built when first asked
    for: how the gallery and a plugin (``privbounds.plugins``) add learners, which then
    appear in list, run, report and check like any theorem. The prefix must be a paper
    registered with ``Paper(prefix, title, kind="learners")``."""
    from privbounds.instances import get as family
    from privbounds.registry import entry

    prefix, _, name = theorem_id.partition(".")

    def build():
        spec = make_spec(learner, name=name, instance=instance, compare_to=compare_to or family(instance).theorem,
                         grid=dict(grid), max_n=max_n, prefix=prefix, label=label, settings=settings, notes=notes,
                         accounting=accounting, unaudited=unaudited)
        return build_theorem(spec, learner)
    build.__module__ = learner.__module__  # ``privbounds show`` names the file that defines the learner
    entry(theorem_id)(build)


MEASURED = "Your learners, measured with privbounds measure"


def register(spec: dict, learner, out) -> str:
    """Make ``spec`` an entry of the registry (replacing an earlier one of that id), in
    the paper of measured learners whose baselines are kept in ``<out>/baselines``."""
    from privbounds.registry import Paper, replace_entry

    def build():
        return build_theorem(spec, learner)
    build.__module__ = __name__
    replace_entry(spec["id"], build, Paper("learner", MEASURED, baselines=str(Path(out).resolve() / "baselines"),
                                                   kind="learners"))
    return spec["id"]


def saved_path(out, theorem_id: str) -> Path:
    return Path(out) / "learners" / f"{theorem_id}.json"


def load_saved(out) -> list[str]:
    """Register the measured learners described in ``<out>/learners`` (see the module
    docstring); a description that cannot be read is named in a warning and skipped."""
    from privbounds.messages import warn
    from privbounds.registry import ids
    from privbounds.results import folder_name

    folder = Path(folder_name(out)) / "learners"
    got = []
    if not folder.is_dir():
        return got
    for path in sorted(folder.glob("learner.*.json")):
        try:
            spec = json.loads(path.read_text())
            if not isinstance(spec, dict) or spec.get("id") != path.stem:
                raise ValueError(f"it describes {spec.get('id') if isinstance(spec, dict) else spec!r}")
            if spec["id"] in ids() and (_live(spec["id"]) or _READ.get(spec["id"]) == (str(out), spec)):
                got.append(spec["id"])  # registered already, from this description or with its learner
                continue
            build_theorem(spec)  # a description that cannot be built is named here, not later
        except Exception as e:  # any defect of a file a user may have edited: one warning
            warn(f"skipping {path}: not a usable measured learner's description ({type(e).__name__}: {e})")
            continue
        register(spec, None, out)
        _READ[spec["id"]] = (str(out), spec)
        got.append(spec["id"])
    return got


_LIVE: set = set()  # ids registered in this process with their learner (not read back)
_READ: dict = {}  # id -> (out, description) it was last registered from


def _live(theorem_id: str) -> bool:
    return theorem_id in _LIVE


def mark_live(theorem_id: str) -> None:
    """``theorem_id`` was registered in this process with its learner (by ``measure``): a
    later ``load_saved`` of its folder keeps it, rather than the description read back."""
    _LIVE.add(theorem_id)
    _READ.pop(theorem_id, None)
