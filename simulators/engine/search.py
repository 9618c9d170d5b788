"""The n_hat search of one parameter point (design.md, "What empirical sample complexity
means here"), apart from the engine that runs its blocks (``runner.py``).

Not tied to one paper. A point's search only looks at the counts of the blocks it asked
for, and every block's seed comes from its identity (theorem, point, n, block), so the
sample sizes it visits, and n_hat, do not depend on the workers, the backend or the order.

The search, on the geometric grid of the simulator's ``n_range`` (``steps`` points per
doubling):

1. *bracket*: evaluate the grid at doublings from its start until the lower
   Clopper-Pearson end reaches 1 - beta (the success point) or the grid ends (censored);
2. *descend*: when no evaluated n below the success point has failed (upper end below
   1 - beta), nothing yet bounds n_hat from below: halve n from the grid's start, below
   it if need be, until a failure is observed or the simulator's smallest allowed n
   (``Simulator.n_floor``, 1 unless the learner cannot run on fewer rows) has been tried;
   reaching that floor without a failure is recorded (``floor_reached``), and n_low is
   then the floor, an observation rather than a default;
3. *refine*: evaluate every point of the grid, extended below its start by the same
   ratio, between the last failure and the lowest success above it.

A search whose grid start fails never descends: its visits are those of the search
without a descent.

At every n a search asks for, the engine runs the first block alone and looks at it
(``PointRun.settled``): when its Clopper-Pearson interval, at ``EARLY_SHARE`` of the
search's error level, already lies wholly below or wholly above 1 - beta, that n is
decided and its other blocks are not run; otherwise they are, and the n is decided on all
of them. The look spends its share of the level (a union bound over the two looks), so
the final intervals are taken at the rest (``search_conf``): an n is still misjudged with
probability at most the search's level. Most n of a bracket are far from the crossing,
where one block decides them; the look depends only on that block's count, whose seed
comes from its identity, so the n visited and n_hat stay the same whatever the workers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from privbounds.simulators.engine.simulator import point_key
from privbounds.simulators.engine.stats import clopper_pearson, crossing, geometric_grid

EARLY_SHARE = 0.05  # the share of a search's error level spent on the look at its first block


def search_conf(family: float, searches: int, looks: bool = True) -> float:
    """The level of each search's intervals: Bonferroni over a theorem's ``searches`` at the
    family level, less the share each n spends on the look at its first block when there
    are ``looks`` (a search whose n runs in one block has none, and keeps the whole level)."""
    return 1.0 - ((1.0 - EARLY_SHARE) if looks else 1.0) * (1.0 - family) / max(1, searches)


def early_conf(conf: float) -> float:
    """The level of the look at an n's first block, for searches whose final level is
    ``conf`` (``search_conf``): together the two looks spend the search's whole level."""
    return 1.0 - EARLY_SHARE / (1.0 - EARLY_SHARE) * (1.0 - conf)


def lattice_below(start: int, floor: int, steps: int) -> np.ndarray:
    """The grid's points below ``start`` continued downwards by the same ratio 2^(1/steps)
    (start * 2^(-j/steps), rounded), down to ``floor``, which is always one of them;
    ascending, deduplicated, empty when start <= floor."""
    if start <= floor:
        return np.empty(0, dtype=int)
    j = np.arange(1, int(np.ceil(steps * np.log2(start / floor))) + 1)
    g = np.round(start * 2.0 ** (-j / steps)).astype(int)
    return np.unique(np.append(g[(g >= floor) & (g < start)], floor))


@dataclass
class PointRun:
    """Evaluation state of one parameter point: a search for n_hat, or a fixed curve."""

    theorem_id: str
    point: dict
    target: float
    grid: np.ndarray
    curve: list | None
    steps: int
    done_ns: dict = field(default_factory=dict)  # n -> (successes, trials)
    phase: str = "bracket"
    next_index: int = 0
    hi_index: int | None = None
    privacy: dict | None = None
    measure: str = "success"  # or "mean": done_ns holds moments (mean, M2, min, max, count)
    floor: int = 1  # the smallest n the learner runs at: the descent stops there
    halvings: int = 0  # descent steps asked for so far
    floor_reached: bool = False

    @property
    def key(self) -> str:
        return point_key(self.point)

    @property
    def staged(self) -> bool:
        """Whether the engine looks at the first block of each n alone (searches of a
        success probability; a fixed curve and a mean run all their trials)."""
        return self.curve is None and self.measure == "success"

    def settled(self, successes: int, trials: int, conf: float) -> bool:
        """Whether the first block alone decides its n: its interval at ``early_conf(conf)``
        lies wholly below or wholly above the target."""
        lo, hi = clopper_pearson(successes, trials, early_conf(conf))
        return bool(lo >= self.target or hi < self.target)

    def requests(self, conf: float) -> list[int]:
        """The sample sizes to evaluate next; empty when this point is finished."""
        if self.curve is not None:
            # a curve may name an n twice (two levels of a ceiling at one integer): it is
            # one sample size, run once (its blocks would repeat the same seeds)
            return [n for n in dict.fromkeys(self.curve) if n not in self.done_ns]
        phases = {"bracket": self._bracket, "descend": self._descend, "refine": self._refine}
        while self.phase in phases:
            want = phases[self.phase](conf)
            if want is not None:  # None: the phase ended without asking; the next one goes on
                return want
        return []

    def _ends(self, conf: float):
        """Evaluated n (ascending) and their Clopper-Pearson ends."""
        ns = np.array(sorted(self.done_ns))
        s = np.array([self.done_ns[n][0] for n in ns])
        t = np.array([self.done_ns[n][1] for n in ns])
        lo, up = clopper_pearson(s, t, conf)
        return ns, lo, up

    def _bracket(self, conf: float) -> list[int] | None:
        evaluated = sorted(self.done_ns)
        if evaluated:  # what the last doubling told us
            s, t = self.done_ns[evaluated[-1]]
            lo, _ = clopper_pearson(s, t, conf)
            if lo >= self.target:
                self.hi_index = int(np.searchsorted(self.grid, evaluated[-1]))
                ns, _, up = self._ends(conf)
                failed = bool(np.any((up < self.target) & (ns < evaluated[-1])))
                self.phase = "refine" if failed else "descend"
                return None
            if self.next_index >= len(self.grid):
                self.phase = "done"  # censored: never reached the target
                return []
        n = int(self.grid[self.next_index])
        last = len(self.grid) - 1
        # Double n; make sure the grid's last point is tried before giving up.
        self.next_index = min(self.next_index + self.steps, last) if self.next_index < last else len(self.grid)
        return [n]

    def _descend(self, conf: float) -> list[int] | None:
        """One halving below the lowest n tried so far, until a failure or the floor."""
        ns, _, up = self._ends(conf)
        if up[0] < self.target:  # a failure below the success point: the bracket is closed
            self.phase = "refine"
            return None
        if ns[0] <= self.floor:
            self.floor_reached = True
            self.phase = "refine"
            return None
        # halvings of the grid's start stay on its lattice (start * 2^(-j)), so the refine
        # finds them among its points; below the floor the floor itself is tried
        self.halvings += 1
        return [max(self.floor, int(np.round(self.grid[0] * 2.0 ** -self.halvings)))]

    def _refine(self, conf: float) -> list[int]:
        ns, lo, up = self._ends(conf)
        hi_n = self.grid[self.hi_index]
        fails = ns[(up < self.target) & (ns < hi_n)]
        lo_n = fails[-1] if fails.size else self.floor - 1
        # Up to the lowest clear success above the last failure: on the bracket's path that
        # is the success point itself (no doubling below it passed); a descent may have
        # passed lower, and under monotonicity nothing above a success can move the interval.
        passes = ns[(lo >= self.target) & (ns > lo_n)]
        top = min(hi_n, passes[0]) if passes.size else hi_n
        points = np.union1d(lattice_below(int(self.grid[0]), self.floor, self.steps), self.grid)
        self.phase = "done"
        return [int(n) for n in points if lo_n < n < top and n not in self.done_ns]

    def result(self, conf: float) -> dict:
        ns = sorted(self.done_ns)
        s = [self.done_ns[n][0] for n in ns]
        # a mean's summary is (mean, M2, min, max, count): its trials are the count
        t = [self.done_ns[n][4 if self.measure == "mean" else 1] for n in ns]
        out = {"point": self.point, "conf": conf, "trials": int(sum(t)), "privacy": self.privacy}
        if self.curve is None:
            c = crossing(ns, s, t, self.target, conf, floor=self.floor)
            out.update(c.as_dict())
            out["censored"] = c.high is None
            # the record names the smallest n the search could go to and whether it got
            # there without a failure (then n_low is that n, observed, not a default)
            out["n_floor"] = int(self.floor)
            out["floor_reached"] = bool(self.floor_reached)
        return out


def point_run(sim, theorem_id: str, point: dict, fid, measure: str) -> PointRun:
    """The evaluation state of one point as its simulator declares it: a fixed curve, or a
    search on the geometric grid of ``n_range`` that may descend to ``n_floor``."""
    curve = sim.curve(point)
    lo, hi = sim.n_range(point)
    floor = int(getattr(sim, "n_floor", lambda p: 1)(point))
    if curve is None and not 1 <= floor <= lo:
        raise ValueError(f"{theorem_id}: n_floor {floor} must lie in [1, {lo}] (n_range starts at {lo}) "
                         f"at {point_key(point)}")
    return PointRun(theorem_id, point, sim.target(point) if curve is None else 1.0,
                    geometric_grid(lo, hi, fid.steps), curve, fid.steps,
                    privacy=sim.privacy(point), measure=measure, floor=floor)
