"""Code-level checks of the two fingerprinting codes of Bun, Nissim, Stemmer,
"Simultaneous Private Learning of Multiple Concepts", Section 4:

- Lemma 4.5, the Boneh-Shaw code (``fingerprint.py``), compatible with THRESH,
  k = (n - 1) ceil(2 n^2 ln(2n/xi)) columns;
- Proposition 4.9, the Tardos code (``tardos.py``), k = 100 n^2 ceil(ln(n/xi)).

Each is an (n, k) fingerprinting code with security xi: for every pirate and coalition S,
completeness P[feasible word and Trace = bottom] <= xi and soundness
P[Trace accuses a user outside S] <= xi. Both are Ceiling claims, measured as curves:
a parameter point fixes the number of users (``users``), xi, the pirate strategy and the
bounded event; the engine's curve variable "n" is the coalition size |S| in
{1, 2, users/2, users}, the coalition uniformly random among the sets of that size.

A second family of points (``part = "length"``) truncates each code: the curve variable
is then the code length k, a fraction of the stated length, and the tracer is unchanged.
It shows where tracing starts to work against the length bound ("traced": someone guilty
is accused) and that false accusations stay rare at every length, which both proofs
imply: for Tardos (full collusion |S| = users, fractions 1/8 .. 1, threshold Z kept) the
exponential-moment bound on an innocent's score only weakens as the code grows; for
Boneh-Shaw (|S| = users/2, block lengths d/256 .. d) steps 1-2 never accuse an innocent
and step 3's Hoeffding bound, conditional on K = w(R_s), does not involve d.
"""

from __future__ import annotations

from privbounds.params import Interval, Options, ParameterError
from privbounds.simulators.bns import fingerprint as bs
from privbounds.simulators.bns import tardos as td
from privbounds.simulators.engine.simulator import Fidelity, Simulator, expand

EVENTS = ("completeness", "soundness", "traced")
# Tardos' tracing switches on between 3/8 and 3/4 of its length: a linear grid resolves it
LENGTH_FRACTIONS = (1 / 8, 1 / 4, 3 / 8, 1 / 2, 5 / 8, 3 / 4, 1.0)
# Boneh-Shaw's block length has a margin of 8x to 64x: a geometric grid d/256 .. d
BS_LENGTH_FRACTIONS = tuple(2.0 ** -j for j in range(8, -1, -1))


def coalition_sizes(users: int) -> list[int]:
    return sorted({1, 2, users // 2, users})


def _two_parts(code_axes: dict, length_axes: dict, overrides: dict) -> list[dict]:
    """Points of both families: the coalition-size curves (completeness, soundness) and
    the truncated-length curves (traced, soundness). Overrides of "part" and "event"
    select families and events; each family keeps only the events it measures."""
    parts = overrides.get("part", ["code", "length"])
    events = overrides.get("event", list(EVENTS))
    rest = {k: v for k, v in overrides.items() if k not in ("part", "event")}
    out = []
    for part, axes, allowed in (("code", code_axes, ("completeness", "soundness")),
                                ("length", length_axes, ("traced", "soundness"))):
        ev = [e for e in events if e in allowed]
        if part in parts and ev:
            out += expand({**axes, "event": ev, "part": [part]}, rest)
    if not out:
        raise ParameterError("event 'traced' is measured on the length curve only (part = 'length'); "
                             f"got part={parts} and event={events}")
    return out


def code_params(max_users: int, strategies: tuple) -> dict:
    """A code check's parameters: users in [2, max_users], security xi in (0, 1), the
    pirate's strategy, the bounded event and the part (coalition curve or truncated length)."""
    return {
        "users": Interval(2, max_users, "both", integer=True),
        "xi": Interval(0, 1, "neither"),
        "strategy": Options(strategies),
        "event": Options(EVENTS),
        "part": Options(("code", "length")),
    }


def code_fidelities(smoke: tuple, quick: tuple, full: tuple) -> dict:
    """Fidelities from (trials, block) per level; 2 steps per doubling (curves, not searches)."""
    return {name: Fidelity(trials=t, block=b, steps=2) for name, (t, b) in
            (("smoke", smoke), ("quick", quick), ("full", full))}


def _traced_only_on_length(point):
    if point["part"] == "code" and point["event"] == "traced":
        raise ParameterError("event 'traced' is measured on the length curve only (part = 'length')")


class _CodeCheck(Simulator):
    accounting = "not a learner: code-level check of a fingerprinting code (no privacy claim)"

    def target(self, point):
        return 1.0

    def privacy(self, point):
        return {"epsilon": None, "delta": None, "accounting": self.accounting}

    def check_point(self, point):
        super().check_point(point)
        _traced_only_on_length(point)

    @staticmethod
    def _event(point, accused, innocent):
        # completeness: every pirate word here is feasible by construction (marked columns
        # are copied), so "feasible and bottom" is "bottom"; the simulators check it.
        return accused == bs.BOTTOM if point["event"] == "completeness" else innocent


class BnsLem45(_CodeCheck):
    theorem_id = "bns.lem4_5"
    params = code_params(64, bs.STRATEGIES)
    # block weights only: a trial costs microseconds, so spend many
    fidelities = code_fidelities((200, 200), (4000, 4000), (20000, 10000))

    def trials_factor(self, point):
        # the claims' points get 5x the trials of the (unclaimed) length curve
        return 5 if point["part"] == "code" else 1

    def grid(self, fidelity, overrides):
        if fidelity == "smoke":
            axes = {"users": [4], "xi": [0.1], "strategy": ["majority", "interleaving"]}
        else:
            axes = {"users": [4, 8, 16], "xi": [0.1], "strategy": list(bs.STRATEGIES)}
        return _two_parts(axes, axes, overrides)


    def curve(self, point):
        if point["part"] == "code":
            return coalition_sizes(point["users"])
        # k = (users - 1) d' for block lengths d' = d / 2^j: the BS length has a wide margin
        d = bs.block_length(point["users"], point["xi"])
        blocks = sorted({max(1, int(round(d * f))) for f in BS_LENGTH_FRACTIONS})
        return [(point["users"] - 1) * b for b in blocks]

    def run_trials(self, point, n, trials, rng):
        users = point["users"]
        if point["part"] == "code":
            size, d = int(n), None
        else:
            size, d = max(1, users // 2), int(n) // (users - 1)
        accused, guilty, innocent = bs.accusations(users, size, point["xi"], point["strategy"], trials, rng, d=d)
        return guilty if point["event"] == "traced" else self._event(point, accused, innocent)


class BnsProp49(_CodeCheck):
    theorem_id = "bns.prop4_9"
    params = code_params(16, td.STRATEGIES)
    # a trial at users = 8 draws a 8 x 32,000 codebook (about 3 ms): few trials, and
    # a zero count out of 100 already puts the Bonferroni-adjusted upper end below xi
    fidelities = code_fidelities((30, 30), (100, 100), (600, 150))
    length_strategies = ("majority", "interleaving", "zeros")

    def grid(self, fidelity, overrides):
        users = [4] if fidelity == "smoke" else [4, 8]
        strategies = ["majority", "interleaving"] if fidelity == "smoke" else list(td.STRATEGIES)
        code = {"users": users, "xi": [0.1], "strategy": strategies}
        length = {**code, "strategy": [s for s in self.length_strategies if s in strategies]}
        return _two_parts(code, length, overrides)


    def curve(self, point):
        if point["part"] == "code":
            return coalition_sizes(point["users"])
        full = td.code_length(point["users"], point["xi"])
        return [int(round(f * full)) for f in LENGTH_FRACTIONS]

    def run_trials(self, point, n, trials, rng):
        users, xi = point["users"], point["xi"]
        if point["part"] == "code":
            size, k = int(n), None
        else:
            size, k = users, int(n)
        accused, guilty, innocent, feasible = td.accusations(users, size, xi, point["strategy"], trials, rng, k=k)
        if point["event"] == "traced":
            return guilty
        if point["event"] == "completeness":
            return feasible & (accused == td.BOTTOM)
        return innocent
