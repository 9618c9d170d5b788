"""Privacy auditing: an empirical lower bound on epsilon from neighbouring inputs.

For a mechanism M, neighbouring inputs D, D' and an output event E fixed in advance,
(eps, delta)-DP requires P[M(D) in E] <= e^eps P[M(D') in E] + delta. With Monte Carlo
counts, the Clopper-Pearson lower end of P[M(D) in E] and the upper end of
P[M(D') in E] give, with the stated confidence, a lower bound
    eps_hat = ln((p_low - delta) / q_high)
on the epsilon that M can possibly have. A correct mechanism gives eps_hat <= eps (up to
the interval's failure probability); a bug that weakens privacy enough pushes eps_hat
above eps. Both directions (E on D versus D', and D' versus D) are checked.

Every simulator lists its audit instances (``Simulator.audits``, ``AuditCase`` below):
for each learner it runs, neighbouring inputs chosen to be hard for it and an event on
which its privacy loss shows. The engine runs each instance twice, as declared and with
its privacy budget doubled, in seeded and cached blocks like any other; the
``PrivacyAudit`` claim (privbounds.claims) then requires eps_hat <= eps for the declared
run, and calls the instance *powered* only if the doubled run gives eps_hat > eps (so
that the instance could have caught a factor-2 bug).

Power against the doubled budget is not power against each noise source: a learner that
adds two noises can lose half of one and still pass an audit whose event sees mostly the
other. So an instance also declares its noise sources (``NoiseSource``): for each, the
call site in the learner's own code path where its scale (or the epsilon it spends) is
computed or passed. engine/mutations.py weakens one site at a time (halves that one
scale) and runs the instance, clean and mutated, with the engine's own functions: a source
is covered when the mutated learner is refuted and the clean one is not. An instance that
cannot catch one of its sources says why in ``AuditCase.uncaught``, with numbers, and
names what catches that source instead (another instance of the same site, a unit test,
or that its event is a delta event the declared budget never shows).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from privbounds.simulators.engine.stats import clopper_pearson

AUDIT_CONF = 0.999  # joint confidence of one eps_hat (both directions, both interval ends)
BUDGETS = (1.0, 2.0)  # as declared, and doubled (the power check)
AUDIT_BLOCK = 50_000  # trials per side in one cached, parallel audit block


def epsilon_lower_bound(hits_a: int, trials_a: int, hits_b: int, trials_b: int,
                        delta: float = 0.0, conf: float = 0.95) -> float:
    """Lower confidence bound on eps from event counts under two neighbouring inputs.

    ``conf`` is the joint confidence: each of the four one-sided interval ends uses
    (1 - conf) / 4 (two directions, two ends each), via two-sided intervals at
    1 - (1 - conf) / 2."""
    level = 1 - (1 - conf) / 2
    pa_lo, pa_hi = clopper_pearson(hits_a, trials_a, level)
    pb_lo, pb_hi = clopper_pearson(hits_b, trials_b, level)
    best = -np.inf
    for num, den in ((pa_lo, pb_hi), (pb_lo, pa_hi)):
        if num - delta > 0 and den > 0:
            best = max(best, float(np.log((num - delta) / den)))
    return best


KINDS = ("laplace", "gaussian", "geometric", "expmech", "svt-threshold", "svt-query", "subsampling",
         "randomised-response", "other")
PARAMS = {"scale": 0.5, "epsilon": 2.0, "rate": 2.0}  # the factor that weakens privacy by about 2


@dataclass(frozen=True)
class NoiseSource:
    """One noise source of a learner and the call site that sets its strength.

    ``site`` = "module:attribute", a name the learner's code looks up at call time (a
    module-level function or constant of the module that draws the noise), so that
    patching it changes exactly this source and nothing recomputes the constant beside it:
    - ``arg`` None, a function: what it returns is the parameter (e.g. ``threshold_scale``
      returning 2/(eps0 n)); a number: the attribute is the parameter;
    - ``arg`` a parameter name: the site is a mechanism imported into the learner's module
      under that name (e.g. ``laplace_mechanism`` in simulators/kmms/setcover.py, called there
      once) and ``arg`` is the argument carrying the parameter.
    ``param`` says which way it weakens privacy: "scale" (a noise scale or temperature:
    halved), "epsilon" (a per-mechanism epsilon or inverse temperature: doubled), "rate"
    (a sampling probability: doubled, at most 1; or a subsample size m of n rows, an
    integer: doubled)."""

    name: str  # unique within its audit instance, e.g. "count-laplace"
    kind: str  # one of KINDS
    site: str  # "privbounds.simulators.kmms.setcover:laplace_mechanism"
    param: str = "scale"
    arg: str | None = None
    what: str = ""  # the scale in the paper's terms, e.g. "b_L, Lap(b_L) on |S0| every round"

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"noise source {self.name}: kind must be one of {', '.join(KINDS)}, got {self.kind!r}")
        if self.param not in PARAMS:
            raise ValueError(f"noise source {self.name}: param must be one of {', '.join(PARAMS)}, got {self.param!r}")
        if ":" not in self.site:
            raise ValueError(f"noise source {self.name}: site must be 'module:attribute', got {self.site!r}")

    def weaken(self, value, factor: float = 2.0):
        """The parameter with privacy weakened by ``factor`` (2: half the noise)."""
        f = PARAMS[self.param] ** (np.log(factor) / np.log(2.0))
        if self.param == "rate" and isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            return int(round(value * f))  # a subsample size m of n rows: the rate m/n grows by f
        out = np.asarray(value, float) * f
        if self.param == "rate":
            out = np.minimum(out, 1.0)
        return float(out) if np.ndim(value) == 0 and not isinstance(value, np.ndarray) else out


def noise_sources(*sources: NoiseSource):
    """Decorator for an events function: the noise sources of the learner it runs, for every
    instance built on it that does not list its own (``AuditCase.noise_sources``)."""
    def mark(fn):
        fn.noise_sources = tuple(sources)
        return fn
    return mark


@dataclass(frozen=True)
class AuditCase:
    """One audit instance of a learner that a theorem runs.

    ``events(budget, trials, rng, **spec)`` runs the learner ``trials`` times on D and
    ``trials`` times on D', with every privacy parameter it spends multiplied by
    ``budget`` (1: as declared; 2: the doubled budget of the power check), and returns
    the two boolean arrays "output in E". It must be a module-level function (the engine
    sends it to worker processes and hashes its module for the cache). ``trials`` is the
    number per side and budget at quick fidelity (the fidelity scales it)."""

    name: str  # the claim is "privacy-<name>"
    learner: str  # which learner of the theorem, with its budget split
    neighbours: str  # D versus D'
    event: str  # E, fixed before sampling
    epsilon: float  # declared
    delta: float
    events: Callable
    spec: dict = field(default_factory=dict)
    trials: int = 200_000
    sources: tuple = ()  # NoiseSource of every noise the event sees (mutation tests weaken each)
    mutation_trials: int = 0  # trials per side for a mutation test (0: min(trials, 200_000))
    # source name -> why halving that source is not caught by THIS instance, with the
    # numbers, and what catches it instead (another instance of the same site, a unit test,
    # or "a delta event: the declared budget never shows it"); "-" for an instance that
    # declares no source. engine/mutations.py prints it in the table's "why not" column.
    uncaught: dict = field(default_factory=dict)

    def run(self, budget: float, trials: int, rng: np.random.Generator) -> tuple[int, int]:
        a, b = self.events(budget, trials, rng, **self.spec)
        a, b = np.asarray(a, bool), np.asarray(b, bool)
        if a.shape != (trials,) or b.shape != (trials,):
            raise ValueError(f"audit {self.name}: events returned shapes {a.shape}, {b.shape}, "
                             f"expected ({trials},) each")
        return int(a.sum()), int(b.sum())

    @property
    def noise_sources(self) -> tuple:
        """The instance's own ``sources``, else those its events function declares."""
        return tuple(self.sources) or tuple(getattr(self.events, "noise_sources", ()))

    def describe(self) -> dict:
        return {"name": self.name, "learner": self.learner, "neighbours": self.neighbours,
                "event": self.event, "epsilon": self.epsilon, "delta": self.delta}
