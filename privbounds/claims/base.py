"""Claims on a bound: the testable predictions of a theorem that compare a measurement
with a bound function of ``privbounds.bounds`` (design notes, "Vocabulary").

- ``UpperBound``: the learner's n_hat interval must lie at or below N(params);
  tightness n_hat / N, slack N / n_hat.
- ``LowerBound``: n_hat's interval must lie at or above L(params); tightness L / n_hat,
  slack n_hat / L. A lower bound at or below 0 says nothing: that point is *vacuous*.
  Either may take the success probability p(n) in exact form (``exact_success``): the
  point is then decided on the exact n_hat, and the interval cross-checks it.
- ``Ceiling``: the measured success probability p(n) must stay under c(n); its
  Clopper-Pearson intervals are Bonferroni-adjusted over the claim's non-vacuous points.
  A ceiling at or above 1 says nothing: that point's verdict is *vacuous*.
- ``MeanBound``: a measured mean (excess risk, generalisation gap, stability, privacy
  loss: one value per trial, from a simulator with ``measure = "mean"``) at each n
  against a bound curve B(params, n). An upper bound is *confirmed* where the mean's
  Student-t interval (Bonferroni-adjusted over the claim's non-vacuous points) lies at or
  below B, *refuted* where it lies above, else *inconclusive*; a lower bound the mirror
  image. With ``statistic="max"`` the claim bounds a worst case (a supremum over
  datasets or neighbours): the largest value over every instance tried is compared
  with B, and one value above B refutes it (a counterexample); "confirmed" then means
  "on every instance tried", and the page gives their number. A bound outside the
  quantity's range says nothing: *vacuous*.

Every point carries its slack (privbounds.claims.verdicts); a confirmed claim whose least
slack is at least 100 at every point is *confirmed (slack >= 100x)*. A bound claim marked
``comparison`` (a bound of the theorem's algorithm held to a learner the theorem is not
about) says *below* or *above the bound* instead of confirmed or refuted.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from privbounds.claims.verdicts import (
    ABOVE,
    BELOW,
    CONFIRMED,
    EXACT,
    INCONCLUSIVE,
    REFUTED,
    VACUOUS,
    combine,
    slack_of,
    with_slack,
)
from privbounds.simulators.engine.stats import clopper_pearson, crossing, exact_crossing, mean_interval


@dataclass(frozen=True)
class BoundRef:
    """A bound function of ``privbounds.bounds`` and how a parameter point maps onto its
    arguments. Each argument is taken from ``args`` (a constant, or a function of the
    point for a derived value such as |H| = 2^d + 1), else from the point entry of the
    same name, else from the function's default. A bound is thus written once, in
    ``bounds/``: the claim, its figure and ``privbounds show`` all evaluate this."""

    fn: Callable
    args: dict = field(default_factory=dict)

    def __call__(self, point: dict) -> float:
        kw = {}
        for name, par in inspect.signature(self.fn).parameters.items():
            if name in self.args:
                v = self.args[name]
                kw[name] = v(point) if callable(v) else v
            elif name in point:
                kw[name] = point[name]
            elif par.default is inspect.Parameter.empty:
                raise KeyError(f"bound {self.name}: argument {name!r} is neither mapped nor a parameter "
                               f"of the point {sorted(point)}")
        return float(self.fn(**kw))

    @property
    def name(self) -> str:
        return f"{self.fn.__module__}.{self.fn.__name__}"


def use(fn: Callable, **args) -> BoundRef:
    """The claim's bound: ``fn`` (a tagged function of privbounds.bounds) with ``args``
    mapping the arguments that are not point parameters of the same name."""
    return BoundRef(fn, args)


def where(**kw) -> Callable[[dict], bool]:
    """A claim's point selector: every named parameter has the given value."""
    return lambda p: all(p.get(k) == v for k, v in kw.items())


def _slack_fields(bound, value, low, high, upper: bool) -> dict:
    """The slack columns of one point (all None for a vacuous bound)."""
    slack = (None, None, None) if bound is None else slack_of(float(bound), float(value), float(low),
                                                                 float(high), upper)
    return {"slack": slack[0], "slack_low": slack[1], "slack_high": slack[2]}


# Family-wise confidence of a claim's Monte Carlo cross-check of its closed forms: a correct
# simulator makes a closed-form claim inconclusive in at most 0.1% of runs (at the claim's own
# 95% it would in up to 5%, and the check would see verdicts move for no reason).
CROSS_CHECK = 0.999


def cross_checked(out: dict, details: list[dict], what: str) -> dict:
    """A claim decided on closed forms whose Monte Carlo estimate misses the exact value at
    some point: the simulator disagrees with arithmetic, a bug to find, not a verdict on the
    theorem, so the claim is inconclusive and says where."""
    off = [d for d in details if d.get("mc_agrees") is False]
    if off:
        d = off[0]
        out.update(verdict=INCONCLUSIVE, reason=(
            f"the Monte Carlo {what} disagrees with the exact value at {len(off)} points (first {d['label']}: "
            f"exact {_num(d['exact'])}, Monte Carlo interval [{_num(d['mc_low'])}, {_num(d['mc_high'])}], joint "
            f"confidence {CROSS_CHECK:g}): the simulator does not compute what the claim says"))
    return out


def _num(x) -> str:
    """A number of a cross-check's message; None is an open end ("not reached")."""
    return "not reached" if x is None else f"{x:.6g}"


def _label(point: dict, keys) -> str:
    return ", ".join(f"{k}={point[k]}" for k in keys if k in point)


@dataclass
class Claim:
    """One testable prediction of a theorem: ``id`` (unique within the theorem), a
    ``description`` in words, ``select`` (which parameter points it speaks about) and
    ``label_keys`` (the parameters that name a point in tables and the generic figure, the
    last one its x axis). ``erratum`` and ``corrected`` mark a claim on a printed form that
    contradicts the paper's own proof. Its kinds are the subclasses."""

    id: str
    description: str
    select: Callable[[dict], bool]
    label_keys: tuple = ()
    # a claim on a printed form that contradicts the paper's own proof: what the misprint is,
    # and the id of the corrected claim shown beside it; a measurement against it is an "erratum"
    erratum: str = ""
    corrected: str = ""
    kind: str = field(init=False, default="?")

    def summary(self) -> dict:
        return {"id": self.id, "kind": self.kind, "description": self.description, **self.bound_meta()}

    def bound_meta(self) -> dict:
        ref = getattr(self, "bound", None)
        if ref is None:
            return {"bound_kind": None, "bound_source": None}
        return {"bound_kind": getattr(ref.fn, "kind", None), "bound_source": getattr(ref.fn, "source", None),
                "bound_name": ref.name}


@dataclass
class BoundClaim(Claim):
    """n_hat against a bound B(params): an upper bound needs n_hat's interval at or below
    B (tightness n_hat / B), a lower bound at or above it (tightness B / n_hat).

    With ``exact_success`` (the success probability p(n) in closed form or as a small exact
    sum: a function of the row, the point with its n) at the points ``exact_where`` selects,
    n_hat is computed exactly: the *exact n_hat* is the smallest integer n >= the point's
    n_floor with p(n) >= the target 1 - beta (``exact_target``), by ``stats.exact_crossing``.
    The exact form must be nondecreasing in n, as each registered one proves (more data
    never hurts those learners on those instances): then this is also the smallest n from
    which p stays at or above the target, what the Monte Carlo search estimates. The point
    is decided on it, *confirmed (exact)* or *refuted*, with tightness and slack (bound /
    exact n_hat for an upper bound, exact n_hat / bound for a lower one) of the exact value;
    the Monte Carlo n_hat is shown beside it and cross-checks the simulator: its interval,
    recomputed from the point's counts at the joint level ``CROSS_CHECK``, must hold the
    exact n_hat, or the claim is inconclusive and says where (as ``MeanBound.closed_form``).
    A claim with points of both kinds is *confirmed* (not exact) when all are confirmed."""

    bound: BoundRef = None
    # the bound is held to a learner the theorem is not about: "above / below the bound"
    comparison: bool = False
    exact_success: Callable[[dict], float] | None = None
    exact_where: Callable[[dict], bool] | None = None  # None: every point of the claim
    exact_target: Callable[[dict], float] | None = None  # None: 1 - beta (Simulator.target's default)
    upper: bool = field(init=False, default=True)

    def _has_exact(self, point: dict) -> bool:
        return self.exact_success is not None and (self.exact_where is None or self.exact_where(point))

    def evaluate(self, points, rows):
        mine = [r for r in points if "n_hat" in r and self.select(r["point"])]
        # the cross-check's family: every point decided on an exact n_hat
        m = max(1, sum(1 for r in mine if self._has_exact(r["point"])))
        details = [self._point(r, rows, 1 - (1 - CROSS_CHECK) / m) for r in mine]
        out = {"verdict": with_slack(combine([d["verdict"] for d in details]), details), "details": details,
               "comparison": self.comparison}
        return cross_checked(out, details, "n_hat interval")

    def _point(self, r: dict, rows, conf_x: float) -> dict:
        """One point's record: its bound, n_hat (Monte Carlo, and exact where there is a
        form), tightness, slack and verdict."""
        p = r["point"]
        B = float(self.bound(p))
        vacuous = not self.upper and B <= 0
        if vacuous:
            # a lower bound at or below 0 (small k in a packing bound) says nothing; taking
            # it as 0 keeps the tightness interval B/hi .. B/lo in order
            B = 0.0
        lo, hi, nh = r["n_low"], r["n_high"], r["n_hat"]
        exact = self._exact(r, rows, conf_x) if self._has_exact(p) else None
        if exact is not None:
            # decided on the exact n_hat: a point, whose tightness and slack are the exact ones
            e = exact["exact"]
            nh_, lo_, hi_ = (None, None, None) if e is None else (e, e, e)
            # an exact n_hat beyond the cap is above any bound we evaluate
            good = (e is not None and e <= B) if self.upper else (e is None or e >= B)
            bad = not good
        else:
            nh_, lo_, hi_ = nh, lo, hi
            if self.upper:
                good, bad = hi is not None and hi <= B, lo is not None and lo > B
            else:
                good, bad = lo is not None and lo >= B, hi is not None and hi < B
        if self.upper:
            tight = tuple(None if x is None else x / B for x in (nh_, lo_, hi_))
        else:
            tight = (None if not nh_ else B / nh_, None if hi_ is None else B / hi_, None if not lo_ else B / lo_)
        slack = (None, None, None) if vacuous else slack_of(B, nh_, lo_, hi_, self.upper)
        verdict = VACUOUS if vacuous else self._word(good, bad)
        if exact is not None and verdict == CONFIRMED:
            verdict = EXACT
        return {
            "label": _label(p, self.label_keys), "point": p, "bound": B,
            "n_hat": nh, "n_low": lo, "n_high": hi, "trials": r["trials"],
            "conf": r["conf"], "monotone": r["monotone"],
            # succeeded already at the smallest n the learner runs at: n_hat is at most that
            "floor_reached": bool(r.get("floor_reached")), "n_floor": r.get("n_floor"),
            "verdict": verdict, **(exact or {}),
            "tightness": tight[0], "tightness_low": tight[1], "tightness_high": tight[2],
            "slack": slack[0], "slack_low": slack[1], "slack_high": slack[2]}

    def _exact(self, r: dict, rows, conf_x: float) -> dict:
        """The exact n_hat of a point and its cross-check: the Monte Carlo interval from the
        point's own counts at level ``conf_x`` (the recorded interval, at the search's level,
        when the counts are not at hand). An open upper end holds any n above the lower."""
        p = r["point"]
        target = float(self.exact_target(p)) if self.exact_target else 1.0 - float(p["beta"])
        floor = int(r.get("n_floor") or 1)
        e, _ = exact_crossing(lambda n: self.exact_success({**p, "n": n}), target, floor)
        mine = [x for x in rows or () if x.get("experiment", "search") == "search" and "successes" in x
                and all(x.get(k) == v for k, v in p.items())]
        if mine:
            c = crossing([x["n"] for x in mine], [x["successes"] for x in mine], [x["trials"] for x in mine],
                         target, conf_x, floor)
            lo, hi, conf = c.low, c.high, conf_x
        else:
            lo, hi, conf = r["n_low"], r["n_high"], r["conf"]
        agrees = (hi is None) if e is None else (lo is None or lo <= e) and (hi is None or e <= hi)
        return {"exact": e, "exact_target": target, "mc_value": r["n_hat"], "mc_low": lo, "mc_high": hi,
                "mc_conf": conf, "mc_agrees": bool(agrees)}

    def _word(self, good: bool, bad: bool) -> str:
        """The verdict of one point: on the bound's side (good), across it (bad), or neither."""
        if self.comparison:
            # the side of the bound the learner is on; a theorem about another learner is not tested
            return (BELOW if self.upper else ABOVE) if good else (ABOVE if self.upper else BELOW) if bad \
                else INCONCLUSIVE
        return CONFIRMED if good else REFUTED if bad else INCONCLUSIVE


@dataclass
class UpperBound(BoundClaim):
    """n_hat at or below the bound at every selected point: *confirmed* when n_hat's
    interval lies at or below it, *refuted* when above, *inconclusive* when it holds it."""

    kind: str = field(init=False, default="upper bound")


@dataclass
class LowerBound(BoundClaim):
    """n_hat at or above the bound at every selected point (the mirror image of
    ``UpperBound``); a bound at or below 0 says nothing there: *vacuous*."""

    kind: str = field(init=False, default="lower bound")
    upper: bool = field(init=False, default=False)


@dataclass
class Ceiling(Claim):
    """p(n) <= bound(point with its n) at every measured n where the ceiling is below 1."""

    bound: BoundRef = None
    family_conf: float = 0.95
    # the claim says the event never happens (a theorem's "for every", checked on instances):
    # one observed event is a counterexample and refutes it, whatever the interval says
    never: bool = False
    # the event's probability in closed form (a function of the row): the verdict is decided
    # on it, and the Monte Carlo rate cross-checks the simulator (as MeanBound.closed_form)
    closed_form: Callable[[dict], float] | None = None
    kind: str = field(init=False, default="success ceiling")

    def evaluate(self, points, rows):
        keep = []
        for row in rows:
            if row.get("experiment") != "curve" or not self.select(row):
                continue
            keep.append((row, self.bound(row)))  # the row is the point with its n
        # a ceiling at or above 1 tests nothing: shown as vacuous, and not in the family
        m = max(1, sum(1 for _, c in keep if c < 1.0))
        conf = 1 - (1 - self.family_conf) / m
        details = []
        if keep:
            s = np.array([r["successes"] for r, _ in keep])
            t = np.array([r["trials"] for r, _ in keep])
            lo, hi = clopper_pearson(s, t, conf)
            x_lo, x_hi = clopper_pearson(s, t, 1 - (1 - CROSS_CHECK) / m)
            measured = ("successes", "trials", "p_hat", "ci_low", "ci_high")
            for (row, c), p_lo, p_hi, m_lo, m_hi in zip(keep, lo, hi, x_lo, x_hi):
                v = (VACUOUS if c >= 1.0 else REFUTED if self.never and row["successes"] > 0
                     else CONFIRMED if p_hi <= c else REFUTED if p_lo > c else INCONCLUSIVE)
                exact = None
                if self.closed_form is not None:
                    e = float(self.closed_form(row))
                    exact = {"exact": e, "mc_value": float(row["p_hat"]), "mc_low": float(m_lo),
                             "mc_high": float(m_hi), "mc_agrees": bool(m_lo - 1e-12 <= e <= m_hi + 1e-12)}
                    v = v if v == VACUOUS else EXACT if e <= c else REFUTED
                details.append({"label": _label(row, self.label_keys) + f", n={row['n']}",
                                "point": {k: row[k] for k in row if k not in measured},
                                "n": row["n"], "ceiling": c, "p_hat": row["p_hat"],
                                "p_low": float(p_lo), "p_high": float(p_hi), "trials": row["trials"],
                                "conf": conf, "verdict": v, **(exact or {}),
                                **_slack_fields(None if c >= 1.0 else c, row["p_hat"], p_lo, p_hi, True)})
        out = {"verdict": with_slack(combine([d["verdict"] for d in details]), details), "details": details,
               "conf": conf}
        return cross_checked(out, details, "rate")


MEAN_FIELDS = ("mean", "sd", "ci_low", "ci_high", "min", "max", "trials", "conf")


@dataclass
class MeanBound(Claim):
    """A measured mean (or the largest measured value) at every n against B(point, n)."""

    bound: BoundRef = None
    upper: bool = True
    statistic: str = "mean"  # or "max": a worst case over the instances tried
    quantity: str = "measured value"  # what one trial measures, for figures and the report
    # the quantity's possible range: an upper bound at or above its top (a lower bound at or
    # below its bottom) is vacuous, and it bounds the interval of a mean whose trials all
    # gave one value; the default suits risks, gaps and probabilities; None: unbounded
    value_range: tuple = (0.0, 1.0)
    # every trial computes the quantity itself, with no randomness in it (e.g. the risk of a
    # learner whose output does not depend on the data): its mean is then a point, not an
    # estimate. Otherwise trials that all gave one value get a distribution-free interval.
    exact: bool = False
    # the quantity's expectation in closed form (a function of the row: the point with its n):
    # the verdict is then decided on that value, "confirmed (exact)" or refuted, and the
    # Monte Carlo mean cross-checks the simulator (its interval must hold the exact value)
    closed_form: Callable[[dict], float] | None = None
    family_conf: float = 0.95
    kind: str = field(init=False, default="mean bound")

    def __post_init__(self):
        if self.statistic not in ("mean", "max"):
            raise ValueError(f"claim {self.id}: statistic must be 'mean' or 'max', got {self.statistic!r}")
        if self.exact and self.statistic == "max":
            raise ValueError(f"claim {self.id}: a worst case is already compared value by value; exact is for means")
        if self.closed_form is not None and self.statistic == "max":
            raise ValueError(f"claim {self.id}: a closed form is of an expectation; a worst case has none")
        if self.statistic == "max" and not self.upper:
            raise ValueError(f"claim {self.id}: a largest value can only be checked against an upper bound")

    def _vacuous(self, b: float) -> bool:
        lo, hi = self.value_range
        return (self.upper and hi is not None and b >= hi) or (not self.upper and lo is not None and b <= lo)

    def evaluate(self, points, rows):
        keep = [(row, self.bound(row)) for row in rows
                if row.get("experiment") == "mean" and self.select(row)]
        m = max(1, sum(1 for _, b in keep if not self._vacuous(b)))
        conf = 1 - (1 - self.family_conf) / m
        details = []
        for row, b in keep:
            if self.statistic == "max":
                val = lo = hi = float(row["max"])
                # a counterexample beyond rounding refutes the supremum bound
                bad = val > b + 1e-9 * max(1.0, abs(b))
                v = VACUOUS if self._vacuous(b) else REFUTED if bad else CONFIRMED
            else:
                val = float(row["mean"])
                lo, hi = (val, val) if self.exact and row["sd"] == 0 else \
                    (float(x) for x in mean_interval(val, row["sd"], row["trials"], conf, self.value_range))
                good, worse = (hi <= b, lo > b) if self.upper else (lo >= b, hi < b)
                v = VACUOUS if self._vacuous(b) else CONFIRMED if good else REFUTED if worse else INCONCLUSIVE
            # a vacuous point stays vacuous: its closed form decides nothing
            exact = None if v == VACUOUS else self._exact(row, b, 1 - (1 - CROSS_CHECK) / m)
            if exact:
                v, val, lo, hi = exact.pop("verdict"), exact["exact"], exact["exact"], exact["exact"]
            if self.upper:
                tight = [x / b if b > 0 else None for x in (val, lo, hi)]
            else:
                tight = [b / x if x > 0 else None for x in (val, hi, lo)]
            details.append({"label": _label(row, self.label_keys) + f", n={row['n']}",
                            "point": {k: row[k] for k in row if k not in MEAN_FIELDS},
                            "n": row["n"], "bound": float(b), "statistic": self.statistic,
                            "value": val, "low": lo, "high": hi, "sd": float(row["sd"]),
                            "trials": int(row["trials"]), "max": float(row["max"]), "conf": conf,
                            "verdict": v, "tightness": tight[0], "tightness_low": tight[1],
                            "tightness_high": tight[2], **(exact or {}),
                            **_slack_fields(None if self._vacuous(b) else b, val, lo, hi, self.upper)})
        out = {"verdict": with_slack(combine([d["verdict"] for d in details]), details), "details": details,
               "conf": conf, "statistic": self.statistic, "quantity": self.quantity, "upper": self.upper}
        return cross_checked(out, details, "mean")

    def _exact(self, row: dict, b: float, conf: float) -> dict | None:
        """The point decided on the closed form, with the Monte Carlo interval (at the
        cross-check's level ``conf``) beside it."""
        if self.closed_form is None:
            return None
        e = float(self.closed_form(row))
        lo, hi = (float(x) for x in mean_interval(float(row["mean"]), row["sd"], row["trials"], conf,
                                                  self.value_range))
        good = e <= b if self.upper else e >= b
        return {"exact": e, "mc_value": float(row["mean"]), "mc_low": lo, "mc_high": hi,
                "mc_agrees": bool(lo - 1e-12 <= e <= hi + 1e-12), "verdict": EXACT if good else REFUTED}
