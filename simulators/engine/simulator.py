"""The simulator interface: one experiment per theorem, and fidelity levels.

A simulator says which parameter points to run at each fidelity, how to draw a random
instance and run the learner for a batch of trials at sample size n, and what counts
as success. The engine (``runner.py``) does everything else: seeding, blocks,
parallelism, caching and the n_hat search.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass

import numpy as np

from privbounds.params import ParameterError, named, validate

FIDELITIES = ("smoke", "quick", "full")


@dataclass(frozen=True)
class Fidelity:
    """How hard the engine works on one parameter point.

    trials: the most trials an evaluated n gets (a search's n that its first block
    already decides stops there: search.py); block: trials per cached, parallel task;
    steps: geometric grid points per doubling of n (the n_hat resolution is 2^(1/steps));
    audit: multiple of each privacy audit's own trial count (``AuditCase.trials``).
    """

    trials: int
    block: int
    steps: int
    audit: float = 1.0


DEFAULT_FIDELITY = {
    "smoke": Fidelity(trials=60, block=60, steps=2, audit=0.25),
    "quick": Fidelity(trials=400, block=200, steps=4, audit=1.0),
    "full": Fidelity(trials=2000, block=250, steps=8, audit=2.0),
}


def point_key(point: dict) -> str:
    """Canonical text of a parameter point: the identity used for seeds and caching."""
    return json.dumps(point, sort_keys=True, separators=(",", ":"))


class Simulator:
    """Base class. Subclasses set ``theorem_id``, ``params`` (constraints of
    the values a user may override) and implement ``grid`` and ``run_trials``."""

    theorem_id = "?"
    params: dict = {}
    # "success": run_trials returns each trial's success (n_hat searches, success curves);
    # "mean": it returns one real value per trial (an excess risk, a stability, a privacy
    # loss), summarised per (point, n) as a mean with its interval; needs curve(point)
    measure = "success"
    fidelities = DEFAULT_FIDELITY
    # learner -> why no audit instance with power exists for it (shown on its page)
    unaudited: dict = {}
    # the trials of one block share one random instance (a sample drawn once per block): its
    # counts are one cluster, not independent trials, so ``check`` compares them with the
    # baseline's only at the baseline's seed (where they repeat exactly), never by a test
    shared_instance: bool = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # the params dict's keys name its specs: ``{"d": Interval(1, 24, ...)}`` writes "d" once
        if isinstance(cls.__dict__.get("params"), dict):
            cls.params = named(cls.params)

    def fidelity(self, name: str) -> Fidelity:
        if name not in FIDELITIES:
            raise ParameterError(f"fidelity must be one of {', '.join(FIDELITIES)}, got {name!r}")
        return self.fidelities[name]

    def points(self, fidelity: str, overrides: dict | None = None) -> list[dict]:
        """The parameter points to run. ``overrides`` replaces grid axes by user values
        (validated against ``params`` before any work starts)."""
        self.fidelity(fidelity)
        overrides = overrides or {}
        for name in overrides:
            if name not in self.params:
                raise ParameterError(
                    f"unknown parameter {name!r} for {self.theorem_id}; "
                    f"allowed: {', '.join(sorted(self.params))}")
        # one value written twice (4 and 4.0) is one point: its seeds would repeat
        overrides = {name: list(dict.fromkeys(self.params[name].canonical(v) for v in values))
                     for name, values in overrides.items()}
        for name, values in overrides.items():
            for v in values:
                self.params[name].validate(v)
        pts = [self.canonical(p) for p in self.grid(fidelity, overrides)]
        for p in pts:
            self.check_point(p)
        return pts

    def canonical(self, point: dict) -> dict:
        """Each value in the one representation its parameter spec gives it (see
        ``Interval.canonical``), so that a point's key, seed and cache entry do not
        depend on how a number was written."""
        return {k: self.params[k].canonical(v) if k in self.params else v for k, v in point.items()}

    def check_point(self, point: dict) -> None:
        """Refuse a parameter combination outside the theorem's hypotheses."""
        validate(self.params, {k: v for k, v in point.items() if k in self.params})

    def require_small_delta(self, point: dict, why: str = "") -> None:
        """Approximate privacy with delta >= 1/n would allow publishing a row: refuse a
        delta that is not below 1/n for every n the search may reach."""
        hi = self.n_range(point)[1]
        if point["delta"] * hi >= 1:
            raise ParameterError(f"delta must be < 1/n (n up to {hi}){why}, got {point['delta']}")

    # --- to implement -------------------------------------------------------------
    def grid(self, fidelity: str, overrides: dict) -> list[dict]:
        raise NotImplementedError

    def target(self, point: dict) -> float:
        """Success probability that defines n_hat: 1 - beta."""
        return 1.0 - point["beta"]

    def n_range(self, point: dict) -> tuple[int, int]:
        """Smallest n to try and the largest n the search may reach."""
        return 1, 1 << 16

    def n_floor(self, point: dict) -> int:
        """The smallest n the learner runs at (at most ``n_range``'s start). When the
        search's start already succeeds it halves n below the start, down to this floor,
        until it sees a failure; a floor reached without one is recorded."""
        return 1

    def curve(self, point: dict) -> list[int] | None:
        """Fixed sample sizes for a success curve, or None for an n_hat search."""
        return None

    def privacy(self, point: dict) -> dict:
        """The learner's declared guarantee at this point: {"epsilon", "delta",
        "accounting"}, or {"epsilon": None, ...} for a non-private learner. Recorded with
        every result and checked by the privacy audits."""
        raise NotImplementedError

    def audits(self) -> list:
        """The privacy audits of every learner this simulator runs (``AuditCase`` of
        engine/audit.py), each at a small instance chosen to be hard for it. A simulator
        of a non-private learner has none; a private learner without a powered instance
        is named in ``unaudited`` with the reason."""
        return []

    def memory(self, point: dict, n: int, trials: int) -> float | None:
        """Estimated peak bytes of one block of ``trials`` trials at sample size n, for a
        simulator whose arrays grow with a parameter a user may set beyond what n and the
        trials explain; None: no estimate (its ranges keep a block small)."""
        return None

    def block_memory(self, point: dict, fidelity: str) -> float | None:
        """``memory`` of the point's largest block: at the largest n it may run (the
        search's cap, or the curve's last n) with the fidelity's trials per block."""
        curve = self.curve(point)
        n = max(curve) if curve else self.n_range(point)[1]
        return self.memory(point, int(n), self.fidelity(fidelity).block * self.trials_factor(point))

    def trials_factor(self, point: dict) -> int:
        """Multiple of the fidelity's trial count spent at this point (curves whose
        probabilities are small need more trials for a useful interval)."""
        return 1

    def delegate(self, point: dict):
        """The simulator whose ``run_trials`` alone computes this point's trials, when this
        one hands the point over to it (a measured learner's entry runs the compared
        theorem's learners through that theorem's simulator); None: this one. The point's
        blocks are then cached under that simulator's code, so a change of the measured
        learner does not rerun them."""
        return None

    def run_trials(self, point: dict, n: int, trials: int, rng: np.random.Generator) -> np.ndarray:
        """Boolean success of ``trials`` independent trials at sample size n (with
        ``measure = "mean"``: the real value each trial measures)."""
        raise NotImplementedError


def expand(axes: dict, overrides: dict) -> list[dict]:
    """Cartesian product of grid axes (dict name -> list of values), user overrides first."""
    axes = {k: overrides.get(k, v) for k, v in axes.items()}
    names = list(axes)
    return [dict(zip(names, combo)) for combo in itertools.product(*(axes[n] for n in names))]


def sweeps(first: dict, second: dict, overrides: dict, axes: tuple) -> list[dict]:
    """"Vary x, then vary y": the points of the grid ``first``, then those of ``second``
    that ``first`` lacks. A user override of one of ``axes`` (the parameters the two
    sweeps set differently) means the user chose that axis: then only ``first`` runs,
    with the override in place."""
    pts = expand(first, overrides)
    if not set(axes) & set(overrides):
        pts += [p for p in expand(second, overrides) if p not in pts]
    return pts
