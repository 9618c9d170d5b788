"""Parameter constraints declared as data, and the one error type users see.

Every theorem and simulator declares its parameters with these specs (in the manner of
scikit-learn's ``Interval`` / ``StrOptions``), so one generic test can feed bad values
to every entry and every message names the parameter and its allowed range.
"""

from __future__ import annotations

import dataclasses
import math
from contextvars import ContextVar
from dataclasses import dataclass
from numbers import Integral, Real


class ParameterError(ValueError):
    """Invalid user input: a one-line message naming the parameter and what is allowed."""


# Set by the command line: errors then name options as flags (--jobs), and as the Python
# API's arguments (jobs) otherwise.
_FROM_CLI = ContextVar("privbounds_from_cli", default=False)


def flag(name: str) -> str:
    """How the user wrote argument ``name``: ``--name`` on the command line, ``name`` in Python."""
    return f"--{name.replace('_', '-')}" if _FROM_CLI.get() else name


def _finite(value) -> bool:
    """Whether a real is finite as a float (an integer of 400 digits is not: no float holds it)."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


# Below 2^53 every integral float is the integer a user wrote; above it a float is not
# exact anyway, and its %g form is the honest one (no 300-digit expansion of 1e300).
_EXACT = 2**53


def number_text(x, fmt: str = "g") -> str:
    """A number as the command line prints it: an integral one exactly (1048576 and
    1000000, not 1.04858e+06 and 1e+06), any other in ``fmt`` (``"g"``; ``""`` for repr)."""
    if isinstance(x, bool) or not isinstance(x, Real):
        return str(x)
    if isinstance(x, Integral):
        return str(int(x))
    if math.isfinite(x) and float(x).is_integer() and abs(x) < _EXACT:
        return str(int(x))
    return format(x, fmt) if fmt else repr(float(x))


def _shown(value) -> str:
    """A value as an error message quotes it: at most 40 characters (a pasted 400-digit
    number would fill the terminal)."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:20]}...({len(text)} characters)"


# The smallest positive value of a real parameter whose interval starts at 0 (``Interval.floor``):
# below it the papers' bounds leave double precision (1/alpha^2, 1/delta and log(1/beta) terms
# gave infinities, ZeroDivisionError and root finders without a sign change in 40 entries'
# bounds at alpha, beta, delta = 5e-324 or 1e-300). beta below 1e-3 asks for a success rate
# no fidelity's trials can confirm (2,000 at full: 1 - 0.0015 at best), so every search
# would run to its cap; alpha 1e-4 already asks for n around 10^8 and more.
FLOORS = {"epsilon": 1e-3, "alpha": 1e-4, "beta": 1e-3, "delta": 1e-200}
FLOOR = 1e-12  # any other real parameter that starts at 0


def _init_spec(spec, args: tuple, kwargs: dict) -> None:
    """Set a spec's fields from its arguments. The name may lead (``Interval("d", 1, 24)``,
    as a check of one value writes it) or be left out (``Interval(1, 24)``): a params
    dict's key then names the spec (``named``), so that a parameter's name is written once."""
    fields = [f.name for f in dataclasses.fields(spec)]
    if args and isinstance(args[0], str):  # the name first
        if "name" in kwargs:
            raise TypeError(f"{type(spec).__name__} got the name twice")
        args, kwargs = args[1:], {**kwargs, "name": args[0]}
    positional = [f for f in fields if f != "name"]
    if len(args) > len(positional):
        raise TypeError(f"{type(spec).__name__} takes at most {len(positional)} positional arguments")
    values = dict(zip(positional, args))
    for key, value in kwargs.items():
        if key not in fields or key in values:
            raise TypeError(f"{type(spec).__name__} got an unexpected or repeated argument {key!r}")
        values[key] = value
    for f in dataclasses.fields(spec):
        if f.name not in values and f.default is dataclasses.MISSING:
            raise TypeError(f"{type(spec).__name__} needs {f.name!r}")
        object.__setattr__(spec, f.name, values.get(f.name, f.default))


def _unnamed(spec) -> ParameterError:
    return ParameterError(f"a parameter spec without a name ({spec!r}): declare it in a params dict, whose key "
                          "names it (see privbounds.params.named), or give name=...")


@dataclass(frozen=True, init=False)
class Interval:
    """A real (or integer) parameter in an interval; ``None`` means unbounded. A real
    interval that starts at 0 also has a ``floor``: its positive values start there
    (``FLOORS``), and 0 itself stays allowed where the interval is closed at 0 (pure
    privacy's delta = 0). The floors are for what a user gives; a check of a value the code
    computes (a per-round epsilon) passes ``floor=0.0``.

    In a params dict the key names it: ``{"d": Interval(1, 24, "both", integer=True)}``
    (``named``); a check of one value names it first: ``Interval("n", 1, None).validate(n)``."""

    low: float | None
    high: float | None
    closed: str = "neither"  # "both", "left", "right" or "neither"
    integer: bool = False
    floor: float | None = None
    name: str | None = None

    def __init__(self, *args, **kwargs):
        _init_spec(self, args, kwargs)
        self.__post_init__()

    def __post_init__(self):
        # the floor follows the name (FLOORS), so an unnamed interval gets it when a key names it
        if self.name is not None and self.floor is None and not self.integer and self.low == 0:
            object.__setattr__(self, "floor", FLOORS.get(self.name, FLOOR))

    def describe(self) -> str:
        if self.integer and self.high is None and self.low is not None:
            lo = self.low if self.closed in ("both", "left") else self.low + 1
            return f"an integer >= {number_text(lo)}"
        left = "[" if self.closed in ("both", "left") or self.floor else "("
        right = "]" if self.closed in ("both", "right") else ")"
        lo = "-inf" if self.low is None else number_text(self.floor or self.low)
        hi = "inf" if self.high is None else number_text(self.high)
        kind = "an integer" if self.integer else "a number"
        zero = "0 or " if self.floor and self.closed in ("both", "left") else ""
        return f"{zero}{kind} in {left}{lo}, {hi}{right}"

    def limits(self) -> dict:
        """What ``describe`` says, as numbers (``--json``): the ends (None: unbounded), whether
        each is allowed, whether only integers are, and whether 0 is allowed below a floor."""
        floor_zero = bool(self.floor) and self.closed in ("both", "left")
        return {"integer": self.integer, "low": self.floor or self.low, "high": self.high,
                "low_closed": self.closed in ("both", "left") or bool(self.floor),
                "high_closed": self.closed in ("both", "right"), "zero_allowed": floor_zero}

    def validate(self, value) -> None:
        if self.name is None:
            raise _unnamed(self)
        ok_type = isinstance(value, Integral) if self.integer else isinstance(value, Real)
        if isinstance(value, bool) or not ok_type or (not self.integer and not _finite(value)):
            raise ParameterError(f"{self.name} must be {self.describe()}, got {_shown(value)}")
        if self.floor and 0 < value < self.floor:
            raise ParameterError(f"{self.name} must be {self.describe()}, got {_shown(value)}")
        if self.low is not None:
            if value < self.low or (value == self.low and self.closed not in ("both", "left")):
                raise ParameterError(f"{self.name} must be {self.describe()}, got {_shown(value)}")
        if self.high is not None:
            if value > self.high or (value == self.high and self.closed not in ("both", "right")):
                raise ParameterError(f"{self.name} must be {self.describe()}, got {_shown(value)}")

    def canonical(self, value):
        """The one representation of a valid value: ``int`` for integer parameters,
        ``float`` otherwise, so that ``--set epsilon=1`` and a registered ``1.0`` are one
        point (one seed, one cache entry)."""
        if isinstance(value, bool) or not isinstance(value, Real):
            return value
        if isinstance(value, Integral):
            return int(value) if self.integer or not _finite(value) else float(value)
        if self.integer:  # 4.0 is the integer 4; 4.5 stays as it is, for validate to refuse
            return int(value) if math.isfinite(value) and float(value).is_integer() else value
        return float(value)

    def bad_values(self) -> list:
        """Values just outside the allowed set, for the generic bad-input test."""
        out = [self.floor / 10] if self.floor else []
        if self.low is not None:
            out.append(self.low - 1 if self.integer else (self.low if self.closed in ("neither", "right") else self.low - 1e-9))
        if self.high is not None:
            out.append(self.high + 1 if self.integer else (self.high if self.closed in ("neither", "left") else self.high + 1e-9))
        return out


@dataclass(frozen=True, init=False)
class Options:
    """A parameter taking one of a few named values; in a params dict the key names it:
    ``{"dist": Options(("uniform", "cluster"))}``."""

    allowed: tuple
    name: str | None = None

    def __init__(self, *args, **kwargs):
        _init_spec(self, args, kwargs)

    def describe(self) -> str:
        return "one of " + ", ".join(map(str, self.allowed))

    def limits(self) -> dict:
        """The values allowed, as a list (``--json``)."""
        return {"choices": list(self.allowed)}

    def canonical(self, value):
        return value

    def validate(self, value) -> None:
        if self.name is None:
            raise _unnamed(self)
        if value not in self.allowed:
            raise ParameterError(f"{self.name} must be {self.describe()}, got {value!r}")

    def bad_values(self) -> list:
        return ["no-such-" + self.name]


# Every parameter has a finite range, so that no value a user may give makes a run's memory
# or time unbounded or its arithmetic overflow. Privacy parameters: below EPS_MIN, n grows as
# 1/epsilon past every search's cap (a run that can only end censored), and an epsilon of
# 5e-324 made a root finder fail (bns.obs3_2); above EPS_MAX, e^epsilon and its powers in the
# bounds leave double precision, and no statement of the papers is about such a guarantee.
EPS_MIN, EPS_MAX = 1e-3, 64.0

# The constraints that recur across the papers (declared once; a simulator narrows one
# by declaring its own Interval only where its theorem needs a narrower range).
EPSILON = Interval(EPS_MIN, EPS_MAX, "both")
EPSILON_AT_MOST_1 = Interval(EPS_MIN, 1, "both")  # e.g. subsampling, A_dist's proof
EPSILON_AT_MOST_4 = Interval(EPS_MIN, 4, "both")
DELTA = Interval(0, 1, "left")
APPROX_DELTA = Interval(0, 1, "neither")  # (eps, delta)-DP with delta > 0
ALPHA = Interval(0, 1, "neither")
ALPHA_BELOW_HALF = Interval(0, 0.5, "neither")  # agnostic accuracy below 1/2
BETA = Interval(0, 1, "neither")
K = Interval(1, 1 << 22, "both", integer=True)


def check_positive(name: str, value) -> None:
    """An internal check (a per-round epsilon, a sensitivity): positive and finite, with no
    user-facing floor (a per-concept epsilon of 3e-4 is a valid step of a valid run)."""
    Interval(name, 0, None, "neither", floor=0.0).validate(value)


def named(specs: dict) -> dict:
    """``specs`` with each spec named by its key (a spec already so named is kept as it is).
    A simulator's ``params`` are named when its class is made (``Simulator.__init_subclass__``);
    ``dataclasses.replace`` runs ``__post_init__`` again, so an interval gets its name's floor."""
    return {key: spec if not dataclasses.is_dataclass(spec) or getattr(spec, "name", key) == key
            else dataclasses.replace(spec, name=key) for key, spec in specs.items()}


def validate(specs: dict, values: dict) -> None:
    """Validate every value whose name has a spec; unknown names are an error too."""
    for name, value in values.items():
        if name not in specs:
            raise ParameterError(
                f"unknown parameter {name!r}; allowed: {', '.join(sorted(specs)) or 'none'}")
        named({name: specs[name]})[name].validate(value)
