"""Claims (testable predictions of a theorem) and their verdicts.

Kinds, as defined in design.md:

- ``UpperBound``: the learner's n_hat interval must lie at or below N(params);
  tightness n_hat / N.
- ``LowerBound``: n_hat's interval must lie at or above L(params); tightness L / n_hat.
  A lower bound at or below 0 says nothing: that point's verdict is *vacuous*.
- ``Ceiling``: the measured success probability p(n) must stay under c(n); its
  Clopper-Pearson intervals are Bonferroni-adjusted over the claim's non-vacuous points.
  A ceiling at or above 1 says nothing: that point's verdict is *vacuous*.
- ``Scaling``: the exponent of n_hat in one parameter (after dividing out the bound's
  declared logarithmic factor, if any), with its 95% interval, against the predicted
  exponent and the competing laws its paper sets against it (by default the laws 0,
  1/3, 1/2, 1, 2, 3 of the prediction's sign, other than the prediction). Four outcomes:
  *confirmed* when the interval holds the prediction and excludes every competing law;
  *confirmed up to lower-order terms* when it excludes the prediction but lies within
  the claim's declared tolerance of it and excludes every competing law; *refuted* when
  it lies wholly outside the tolerance; *inconclusive* otherwise (too wide to exclude a
  competitor). The tolerance is 0 for exact powers (n proportional to 1/eps for the
  exponential mechanism); claims that hold only "up to logarithmic factors" declare
  0.15, fixed in advance of any run, because an unknown additive constant c in a
  log factor L shifts the local exponent by about c / L.

- ``MeanBound``: a measured mean (excess risk, generalisation gap, stability, privacy
  loss: one value per trial, from a simulator with ``measure = "mean"``) at each n
  against a bound curve B(params, n). An upper bound is *confirmed* where the mean's
  Student-t interval (Bonferroni-adjusted over the claim's non-vacuous points) lies at or
  below B, *refuted* where it lies above, else *inconclusive*; a lower bound the mirror
  image. With ``statistic="max"`` the claim bounds a worst case (a supremum over
  datasets or neighbours): the largest value over every instance tried is compared
  with B, and one value above B refutes it (a counterexample); "confirmed" then means
  "on every instance tried", and the page gives their number. A bound outside the
  quantity's range (an upper bound at or above its largest possible value) says
  nothing: *vacuous*.
- ``PrivacyAudit``: one audit instance of a learner the theorem runs (engine/audit.py).
  Its empirical epsilon lower bound eps_hat (Clopper-Pearson, joint confidence 0.999, at
  the declared delta) must stay at or below the declared epsilon: *refuted* if it is
  above. The same instance run with the budget doubled must find eps_hat above the
  declared epsilon, or the instance could not have caught a factor-2 bug: then the
  verdict is *inconclusive* (no power), never confirmed.

A claim over several points is refuted if any point is, vacuous if every point is,
otherwise the weakest verdict of its non-vacuous points.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from privbounds.simulators.engine.audit import BUDGETS, epsilon_lower_bound
from privbounds.simulators.engine.stats import clopper_pearson, fit_exponent, mean_interval

CONFIRMED, REFUTED, INCONCLUSIVE = "confirmed", "refuted", "inconclusive"
LOWER_ORDER = "confirmed up to lower-order terms"
VACUOUS = "vacuous"
VERDICTS = (CONFIRMED, LOWER_ORDER, INCONCLUSIVE, VACUOUS, REFUTED)
# How good a verdict is, for the check ("got worse"): a vacuous bound tests nothing.
ORDER = {REFUTED: 0, INCONCLUSIVE: 1, VACUOUS: 1, LOWER_ORDER: 2, CONFIRMED: 3}
LAWS = (0.0, 1 / 3, 0.5, 1.0, 2.0, 3.0)  # the growth laws these papers set against each other


def competing_laws(predicted: float) -> tuple:
    """The default competitors of a predicted exponent: the laws of ``LAWS`` with its sign
    (0 included), other than the prediction itself."""
    sign = -1.0 if predicted < 0 else 1.0
    return tuple(sorted({sign * law for law in LAWS} - {float(predicted)}))

# Tolerance of scaling claims that hold up to logarithmic factors or lower-order terms
# (fixed in advance of any run: "confirms if slopes within +-0.15").
UP_TO_LOGS = 0.15


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


def combine(verdicts: list[str]) -> str:
    if not verdicts:
        return INCONCLUSIVE
    real = [v for v in verdicts if v != VACUOUS]
    if not real:
        return VACUOUS
    return min(real, key=ORDER.__getitem__)


def _label(point: dict, keys) -> str:
    return ", ".join(f"{k}={point[k]}" for k in keys if k in point)


@dataclass
class Claim:
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
    B (tightness n_hat / B), a lower bound at or above it (tightness B / n_hat)."""

    bound: BoundRef = None
    upper: bool = field(init=False, default=True)

    def evaluate(self, points, rows):
        details = []
        for r in points:
            p = r["point"]
            if "n_hat" not in r or not self.select(p):
                continue
            B = float(self.bound(p))
            vacuous = not self.upper and B <= 0
            if vacuous:
                # a lower bound at or below 0 (small k in a packing bound) says nothing; taking
                # it as 0 keeps the tightness interval B/hi .. B/lo in order
                B = 0.0
            lo, hi, nh = r["n_low"], r["n_high"], r["n_hat"]
            if self.upper:
                good, bad = hi is not None and hi <= B, lo is not None and lo > B
                tight = (None if nh is None else nh / B, None if lo is None else lo / B,
                         None if hi is None else hi / B)
            else:
                good, bad = lo is not None and lo >= B, hi is not None and hi < B
                tight = (None if not nh else B / nh, None if hi is None else B / hi,
                         None if not lo else B / lo)
            details.append({
                "label": _label(p, self.label_keys), "point": p, "bound": B,
                "n_hat": nh, "n_low": lo, "n_high": hi, "trials": r["trials"],
                "conf": r["conf"], "monotone": r["monotone"],
                "verdict": VACUOUS if vacuous else CONFIRMED if good else REFUTED if bad else INCONCLUSIVE,
                "tightness": tight[0], "tightness_low": tight[1], "tightness_high": tight[2]})
        return {"verdict": combine([d["verdict"] for d in details]), "details": details}


@dataclass
class UpperBound(BoundClaim):
    kind: str = field(init=False, default="upper bound")


@dataclass
class LowerBound(BoundClaim):
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
            measured = ("successes", "trials", "p_hat", "ci_low", "ci_high")
            for (row, c), p_lo, p_hi in zip(keep, lo, hi):
                v = (VACUOUS if c >= 1.0 else REFUTED if self.never and row["successes"] > 0
                     else CONFIRMED if p_hi <= c else REFUTED if p_lo > c else INCONCLUSIVE)
                details.append({"label": _label(row, self.label_keys) + f", n={row['n']}",
                                "point": {k: row[k] for k in row if k not in measured},
                                "n": row["n"], "ceiling": c, "p_hat": row["p_hat"],
                                "p_low": float(p_lo), "p_high": float(p_hi), "trials": row["trials"],
                                "conf": conf, "verdict": v})
        return {"verdict": combine([d["verdict"] for d in details]), "details": details,
                "conf": conf}


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
    family_conf: float = 0.95
    kind: str = field(init=False, default="mean bound")

    def __post_init__(self):
        if self.statistic not in ("mean", "max"):
            raise ValueError(f"claim {self.id}: statistic must be 'mean' or 'max', got {self.statistic!r}")
        if self.exact and self.statistic == "max":
            raise ValueError(f"claim {self.id}: a worst case is already compared value by value; exact is for means")
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
                            "tightness_high": tight[2]})
        return {"verdict": combine([d["verdict"] for d in details]), "details": details, "conf": conf,
                "statistic": self.statistic, "quantity": self.quantity, "upper": self.upper}


@dataclass
class Scaling(Claim):
    """n_hat / factor(point) ~ C * variable(point)^predicted over the selected points."""

    variable: Callable[[dict], float] = None
    variable_name: str = "x"
    predicted: float = 1.0
    factor: Callable[[dict], float] | None = None
    factor_name: str | None = None
    tolerance: float = 0.0
    competitors: tuple | None = None  # None: competing_laws(predicted)
    # parameters a theorem quantifies over with "for every" (e.g. the distribution): the
    # fit uses, at each setting of the others, the worst (largest) n_hat among them
    worst_over: tuple = ()
    # the direction of the theorem: "upper" (it bounds the growth from above), "lower" (from
    # below) or "tight" (the paper proves matching upper and lower bounds)
    direction: str | None = None
    kind: str = field(init=False, default="scaling")

    def laws(self) -> tuple:
        return competing_laws(self.predicted) if self.competitors is None else tuple(self.competitors)

    def evaluate(self, points, rows):
        used = [r for r in points if "n_hat" in r and self.select(r["point"])]
        if self.worst_over:
            used = worst_case(used, self.worst_over)
        ok = [r for r in used if r["n_hat"] and r["n_low"] and r["n_high"]]
        laws = self.laws()
        out = {"predicted": self.predicted, "tolerance": self.tolerance, "competitors": list(laws),
               "variable": self.variable_name,
               "divided_by": self.factor_name, "points_used": len(ok),
               "points_censored": len(used) - len(ok)}
        if len(ok) < 3:
            out.update(verdict=INCONCLUSIVE, fit=None,
                       reason=f"only {len(ok)} points with a finite n_hat interval (3 needed)")
            return out
        x = np.array([self.variable(r["point"]) for r in ok], float)
        f = np.array([self.factor(r["point"]) if self.factor else 1.0 for r in ok], float)
        # the n_hat intervals are simultaneous (Bonferroni) ones: convert them at their level
        fit = fit_exponent(x, [r["n_hat"] / fi for r, fi in zip(ok, f)],
                           [r["n_low"] / fi for r, fi in zip(ok, f)],
                           [r["n_high"] / fi for r, fi in zip(ok, f)], point_conf=ok[0]["conf"])
        lo, hi, pred, tol = fit.low, fit.high, self.predicted, self.tolerance
        holds = lo <= pred <= hi
        inside = [law for law in laws if lo <= law <= hi]
        if holds and not inside:
            verdict = CONFIRMED
        elif not holds and pred - tol <= lo and hi <= pred + tol and not inside:
            verdict = LOWER_ORDER
            out["reason"] = (f"the interval excludes {pred:g} but lies within the tolerance {tol:g} "
                             "the claim allows for lower-order terms")
        elif hi < pred - tol or lo > pred + tol:
            verdict = REFUTED
        else:
            verdict = INCONCLUSIVE
            out["reason"] = ("the interval also holds the competing law " + ", ".join(f"{law:.3g}" for law in inside)
                             if inside else f"the interval straddles the tolerance band {pred:g} +- {tol:g}")
        out.update(verdict=verdict, fit=fit.as_dict(), details=[
            {"label": _label(r["point"], self.label_keys), "x": float(xi),
             "n_hat": r["n_hat"], "n_low": r["n_low"], "n_high": r["n_high"], "factor": float(fi)}
            for r, xi, fi in zip(ok, x, f)])
        return out


def worst_case(results: list[dict], over: tuple) -> list[dict]:
    """One result per setting of the parameters other than ``over``: the one with the
    largest n_hat, its interval the elementwise maximum of the group's ends (the maximum
    of quantities each inside its interval lies between the maxima of the ends). A group
    with a censored member (no crossing found) is censored."""
    groups: dict = {}
    for r in results:
        key = tuple(sorted((k, v) for k, v in r["point"].items() if k not in over))
        groups.setdefault(key, []).append(r)
    out = []
    for members in groups.values():
        if any(not (m["n_hat"] and m["n_low"] and m["n_high"]) for m in members):
            out.append({**members[0], "n_hat": None, "n_low": None, "n_high": None})
            continue
        top = max(members, key=lambda m: m["n_hat"])
        out.append({**top, "n_low": max(m["n_low"] for m in members),
                    "n_high": max(m["n_high"] for m in members)})
    return out


@dataclass
class PrivacyAudit(Claim):
    """eps_hat <= epsilon on the instance ``case`` (an AuditCase), with power: the doubled
    budget must give eps_hat > epsilon."""

    case: object = None
    kind: str = field(init=False, default="privacy audit")

    def evaluate(self, points, rows, audits=()):
        m = next((a for a in audits if a["name"] == self.case.name), None)
        if m is None:
            return {"verdict": INCONCLUSIVE, "reason": "the audit did not run", "details": []}
        eps, delta, conf = m["epsilon"], m["delta"], m["conf"]
        found = {}
        for b, r in m["budgets"].items():
            e = epsilon_lower_bound(r["hits_d"], r["trials"], r["hits_d_prime"], r["trials"], delta, conf)
            found[b] = None if not np.isfinite(e) else e  # -inf: the event never separated D from D'
        declared, doubled = (found[f"{b:g}"] for b in BUDGETS)
        powered = doubled is not None and doubled > eps
        if declared is not None and declared > eps:
            verdict = REFUTED
            reason = f"eps_hat {declared:.3f} is above the declared epsilon {eps:g}: the learner leaks more"
        elif not powered:
            verdict = INCONCLUSIVE
            reason = ("no power: with its budget doubled the learner gives eps_hat "
                      f"{'-inf' if doubled is None else f'{doubled:.3f}'}, not above {eps:g}, so this "
                      "instance could not catch a factor-2 bug")
        else:
            verdict, reason = CONFIRMED, ""
        detail = {"label": self.case.learner, **m, "eps_hat": declared, "eps_hat_doubled": doubled,
                  "powered": powered, "verdict": verdict}
        return {"verdict": verdict, "reason": reason, "details": [detail], "epsilon": eps, "delta": delta,
                "eps_hat": declared, "eps_hat_doubled": doubled, "powered": powered, "conf": conf}


def audit_claims(simulator) -> list[PrivacyAudit]:
    """One privacy-audit claim per audit instance of ``simulator``."""
    if simulator is None:
        return []
    names = [c.name for c in simulator.audits()]
    if len(names) != len(set(names)):  # the engine keys audit counts by name
        raise ValueError(f"{simulator.theorem_id}: audit names repeat: {sorted(names)}")
    return [PrivacyAudit(f"privacy-{c.name}",
                         f"{c.learner}: on {c.neighbours}, the event {c.event} bounds the privacy loss by "
                         f"eps_hat <= {c.epsilon:.4g} (declared delta {c.delta:.3g}); the doubled budget "
                         "must be caught", lambda p: True, case=c)
            for c in simulator.audits()]


def evaluate_claims(claims, points, rows, audits=()) -> list[dict]:
    """Verdict records for ``results/<id>.json``: claim id, kind, verdict, evidence."""
    out = []
    for c in claims:
        rec = {"claim": c.id, "kind": c.kind, "description": c.description, **c.bound_meta()}
        rec.update(c.evaluate(points, rows, audits) if isinstance(c, PrivacyAudit) else c.evaluate(points, rows))
        out.append(rec)
    return out
