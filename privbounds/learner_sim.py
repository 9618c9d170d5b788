"""The simulator of a measured learner (``privbounds.learners``, "bring your own learner"):
it runs any duck-typed private learner on a registered instance family and counts its
successes, err_D(h) <= alpha computed exactly over the instance's distribution, beside the
registered learners of the theorem it is compared to (one of the five papers' upper or
lower bound theorems: Sivakumar et al.'s, BNS's, PAP's, KMMS's or WLF's).

What a learner declares (``declared``: its epsilon and delta), how it is built at a
parameter point (``_construct``) and how its code is identified for the block store
(``code_identity``) live here too; building the registry entry, saving it and ``measure``
stay in learners.py.
"""

from __future__ import annotations

import hashlib
import inspect
import math
import sys
from dataclasses import replace
from importlib import metadata
from pathlib import Path

import numpy as np

from privbounds.params import ALPHA, BETA, DELTA, EPSILON, Options, ParameterError, named
from privbounds.simulators.engine.simulator import Simulator, expand

FORMS = ("rows", "counts")


def _construct(learner, point: dict):
    """The learner object for one parameter point."""
    if hasattr(learner, "fit") and not inspect.isclass(learner):
        return learner
    try:
        sig = inspect.signature(learner)
    except (TypeError, ValueError):
        return learner()
    return learner(**{k: point[k] for k in sig.parameters if k in point})


def declared(obj) -> tuple[float, float]:
    """(epsilon, delta) a learner object declares; a one-line error if it does not."""
    eps = getattr(obj, "epsilon", None)
    delta = getattr(obj, "delta", 0.0)
    if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not eps > 0:
        raise ParameterError(f"the learner {type(obj).__name__} must declare its privacy as an attribute "
                             f"epsilon > 0, got {eps!r}")
    if isinstance(delta, bool) or not isinstance(delta, (int, float)) or not 0 <= delta < 1:
        raise ParameterError(f"the learner {type(obj).__name__} declares delta {delta!r}; it must be in [0, 1)")
    form = getattr(obj, "sample_form", "rows")
    if form not in FORMS:
        raise ParameterError(f"the learner {type(obj).__name__} has sample_form {form!r}; "
                             f"it must be one of {', '.join(FORMS)}")
    if not callable(getattr(obj, "fit", None)):
        raise ParameterError(f"the learner {type(obj).__name__} has no fit(sample, rng) method")
    return float(eps), float(delta)


def check_measurable(fam) -> None:
    """A family whose theorem bounds something other than a sample size (a mean excess
    risk at each n, say) gives ``measure`` nothing to compare with: one line naming the
    instance and the family's reason."""
    if fam.measurable:
        raise ParameterError(f"the instance {fam.name} cannot be measured: {fam.measurable}")


def _takes(learner, name: str) -> bool:
    if hasattr(learner, "fit") and not inspect.isclass(learner):
        return False
    try:
        return name in inspect.signature(learner).parameters
    except (TypeError, ValueError):
        return False


def describe(learner) -> str:
    """module:qualname of a learner (its class for an instance)."""
    obj = learner if (inspect.isclass(learner) or inspect.isfunction(learner)) else type(learner)
    return f"{obj.__module__}:{obj.__qualname__}"


def code_identity(learner) -> str:
    """What of a learner's code the cache key holds: for one defined in ``__main__`` (a
    script, a notebook) its code and the globals it reads, as the engine hashes classes of
    ``__main__``; otherwise its source file; and, either way, the versions of the
    distributions its module uses (diffprivlib, scikit-learn, numpy: whatever it imported)."""
    from privbounds.simulators.engine.runner import _main_code

    obj = learner if (inspect.isclass(learner) or inspect.isfunction(learner)) else type(learner)
    parts = [describe(learner)]
    if obj.__module__ == "__main__":
        parts.append(_main_code(obj))
    else:
        try:
            parts.append(hashlib.sha256(Path(inspect.getfile(obj)).read_bytes()).hexdigest())
        except (TypeError, OSError):  # a built-in or a class without a file: its name only
            pass
    mod = sys.modules.get(obj.__module__)
    tops = {obj.__module__.split(".")[0]}
    for v in vars(mod).values() if mod is not None else ():
        name = v.__name__ if inspect.ismodule(v) else getattr(v, "__module__", None)
        if isinstance(name, str):
            tops.add(name.split(".")[0])
    dists = metadata.packages_distributions()
    parts += sorted({f"{d}=={metadata.version(d)}" for top in tops for d in dists.get(top, [])})
    return "|".join(parts)


class MappedBound:
    """A claim's bound evaluated at the point as the theorem's own learner ``learner``
    would see it (the same parameters, that learner's name): the theorem's bound set
    beside another learner's n_hat."""

    def __init__(self, ref, learner: str, key: str = "learner"):
        self.ref, self.learner, self.key, self.fn, self.args = ref, learner, key, ref.fn, ref.args

    def __call__(self, point: dict) -> float:
        return self.ref({**point, self.key: self.learner})

    @property
    def name(self) -> str:
        return self.ref.name


# --- the simulator --------------------------------------------------------------------


class LearnerSimulator(Simulator):
    """A user's learner on an instance family, beside the registered learners of the
    family's theorem. ``learner`` may be None for an entry read back from a results
    folder (``load_saved``): it can then be drawn, reported and checked, not run."""

    def __init__(self, spec: dict, learner=None):
        from privbounds.instances import get as family
        from privbounds.registry import get

        self.spec = spec
        self.theorem_id = spec["id"]
        self.learner = learner
        self.family = family(spec["instance"])
        check_measurable(self.family)  # a description read back from a folder, say
        self.compare = get(spec["compare_to"]).simulator
        name, beside = spec["name"], tuple(spec["beside"])
        fixed = {k: Options((v,)) for k, v in spec["theorem_point"].items()}
        # the compared theorem's parameter that names its learners ("learner", or "rule" for a
        # theorem whose variants are accountings): every point carries it as well, so that the
        # theorem's claims select their own points
        self.key = axis_key(spec)
        self.params = {**fixed, **self.family.params, "epsilon": EPSILON, "alpha": ALPHA, "beta": BETA,
                       "delta": DELTA, "learner": Options((name, *beside))}
        if self.key != "learner":
            self.params[self.key] = Options((name, *beside))
        self.params = named(self.params)  # an instance's own params: named here, not by the class
        self.unaudited = {name: spec.get("unaudited") or (
            "no audit ran with this measurement; audit it with 'privbounds audit' (docs/guide/audit.md)")}
        # the compared theorem's trial counts, but at least enough to show success 1 - beta at
        # all (a search that cannot stop runs the measured learner up to max_n): the engine
        # certifies it when the lower two-sided Clopper-Pearson end of t successes in t trials,
        # (a/2)^(1/t) at its level a (search_conf: 0.05/m over the m searches, less the look
        # at the first block), reaches 1 - beta (kmms's smoke fidelity, 20 trials, cannot at
        # beta = 0.1)
        from privbounds.simulators.engine.runner import FAMILY_CONF
        from privbounds.simulators.engine.search import search_conf

        m = len(_grid_points(spec)) * (1 + len(beside))
        beta = min(spec["grid"].get("beta", [0.1]))
        least = math.ceil(math.log((1 - search_conf(FAMILY_CONF, m)) / 2) / math.log(1 - beta))
        self.fidelities = {k: v if v.trials >= least else replace(v, trials=least, block=least)
                           for k, v in self.compare.fidelities.items()}

    def check_point(self, point):
        super().check_point(point)
        # the compared theorem's own conditions (a k-gon must fit its grid, delta < 1/n, ...)
        # hold at every point, the measured learner's included
        if self.spec["beside"]:
            learner = point["learner"] if point["learner"] in self.spec["beside"] else self.spec["beside"][0]
            self.compare.check_point({**self._theirs(point), self.key: learner})

    @property
    def measured(self) -> bool:
        """A user's measurement (``learner.<name>``), as opposed to a registered entry of the
        gallery or a plugin: run only when named."""
        return self.spec["id"].startswith("learner.")

    @property
    def not_runnable(self) -> str:
        """Why this entry cannot run here ('' if it can)."""
        if self.learner is not None:
            return ""
        return (f"{self.theorem_id} was read back from a results folder without its learner "
                f"({self.spec['learner']}); rerun privbounds.measure (or 'privbounds measure') to run it")

    def grid(self, fidelity, overrides):
        axes = {**{k: [v] for k, v in self.spec["theorem_point"].items()}, **self.spec["grid"]}
        pts = expand({**axes, "learner": [self.spec["name"]]}, overrides)
        pts += expand({**axes, "learner": list(self.spec["beside"])}, overrides)
        if self.key != "learner":
            pts = [{**p, self.key: p["learner"]} for p in pts]
        return pts

    def privacy(self, point):
        if point["learner"] != self.spec["name"]:
            return self.compare.privacy(self._theirs(point))
        if self.learner is not None:  # what the object made for this point declares
            eps, delta = self._declared(point)
        else:  # read back without its learner: what the description recorded
            p = self.spec["privacy"]
            eps, delta = (point["epsilon"] if p["epsilon"] == "per point" else p["epsilon"]), p["delta"]
        return {"epsilon": eps, "delta": delta,
                "accounting": self.spec.get("accounting") or f"declared by {self.spec['label']}"}

    def _declared(self, point) -> tuple[float, float]:
        """The learner made for ``point`` and its declaration, which must be the point's epsilon
        when the learner takes epsilon (else the figure would chart it at a budget it does not
        keep)."""
        eps, delta = declared(_construct(self.learner, point))
        if self.spec["privacy"]["epsilon"] == "per point" and not np.isclose(eps, point["epsilon"]):
            raise ParameterError(f"the learner made with epsilon = {point['epsilon']:g} declares epsilon = {eps:g}; "
                                 "a learner that takes epsilon must declare the epsilon it was given")
        return eps, delta

    def n_range(self, point):
        if point["learner"] != self.spec["name"]:
            return self.compare.n_range(self._theirs(point))
        # an instance whose samples are held as rows caps n (the search is then censored there);
        # with k concepts a rows sample, not a counts one, caps n k
        inst = self.family.make(**{k: point[k] for k in self.family.params})
        form = "rows" if self.learner is None else getattr(_construct(self.learner, point), "sample_form", "rows")
        cap = inst.rows_n_max if form == "rows" else inst.n_max
        return 1, int(self.spec["max_n"]) if cap is None else min(int(self.spec["max_n"]), cap)

    def n_floor(self, point):
        # the compared theorem's learners run down to its own floor; a measured one from n = 1
        return self.compare.n_floor(self._theirs(point)) if point["learner"] != self.spec["name"] else 1

    def delegate(self, point):
        """The compared theorem's simulator runs its own learners' points: their blocks do
        not depend on the measured learner, and are reused when only it changes."""
        return None if point["learner"] == self.spec["name"] else self.compare

    def _theirs(self, point):
        return {k: v for k, v in point.items() if k in self.compare.params}

    def digest_state(self):
        """What the cache key hashes of this object: the description, the compared
        simulator, and the learner's settings when it is an object (a class or factory, a
        lambda included, counts through ``code_identity``: pickling a lambda by reference
        would fail)."""
        learner = self.learner
        if learner is None or inspect.isclass(learner) or inspect.isfunction(learner):
            learner = describe(learner) if learner is not None else None
        return {"spec": self.spec, "compare": self.compare, "learner": learner}

    def provenance(self) -> dict:
        """What a result record's provenance adds for a measured learner."""
        return {"learner": self.spec["learner"], "learner_code": self.spec.get("code", ""),
                "learner_settings": self.spec.get("settings", "")}

    def code_identity(self) -> str:
        """The learner's code (``spec["code"]``) and the compared theorem's simulator's, whose
        learners this entry runs too (an edit there must not reuse their blocks)."""
        from privbounds.simulators.engine.store import code_hash

        return f"{self.spec.get('code', '')}|{code_hash(type(self.compare).__module__)}"

    def run_trials(self, point, n, trials, rng):
        if point["learner"] != self.spec["name"]:
            return self.compare.run_trials(self._theirs(point), n, trials, rng)
        if self.learner is None:
            raise ParameterError(self.not_runnable)
        inst = self.family.make(**{k: point[k] for k in self.family.params})
        self._declared(point)
        obj = _construct(self.learner, point)
        form = getattr(obj, "sample_form", "rows")
        draws = inst.draw(n, trials, rng)
        ok = np.empty(trials, dtype=bool)
        # a user's learner fits one sample per call: this loop is over its fits, and the
        # engine runs the blocks of trials in parallel
        for i in range(trials):
            h = obj.fit(draws.sample(i, form, rng), rng)
            ok[i] = draws.error(i, h) <= point["alpha"] + 1e-12  # every one of its k hypotheses
        return ok


def axis_key(spec: dict) -> str:
    """The compared theorem's parameter that names its learners in a description (older
    descriptions have none: "learner"; a theorem without one: "learner", which it ignores)."""
    return spec.get("axis") or "learner"


def _grid_points(spec: dict) -> list[dict]:
    axes = {**{k: [v] for k, v in spec["theorem_point"].items()}, **spec["grid"]}
    return expand(axes, {})
