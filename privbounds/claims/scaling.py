"""Scaling claims: the exponent of n_hat in one parameter against a theorem's growth law
(design notes, "Vocabulary" and "Verdicts").

The exponent of n_hat in one variable (after dividing out a logarithmic factor that the
algorithm itself pays, named from the statement, if any) is fitted with its 95% interval
(privbounds.simulators.engine.stats.fit_exponent). Where a divisor is declared, the raw
exponent of n_hat is fitted and shown as well, so a reader sees both laws.

A claim has the direction of its theorem:

- *upper* (the theorem bounds the growth from above: an algorithm's guarantee): refuted
  only when the interval lies wholly above prediction + tolerance; while it reaches above
  that, *confirmed* only if it holds the prediction and excludes every competing law above
  it (the measured growth is the bound's, not a faster law's), else *inconclusive*;
  *confirmed up to lower-order terms* when it lies above the exact
  prediction but within the tolerance; otherwise *confirmed*, with the finding "the
  bound is loose in x" when the whole interval lies below the prediction. Where the
  theorem also gives an explicit bound (``theorem_bound``) and every point's n_hat
  interval lies below it, a faster local growth is *inconclusive*, not refuted: a growth
  law with hidden constants is asymptotic, and a measurement that grows faster than the
  law while it stays under the theorem's own bound contradicts no sentence of the theorem
  (it is approaching the bound from below, as bns.thm2_19's n_hat / bound does at full
  fidelity, seed 0: 0.026 at alpha = 0.4, 0.045 at 0.2, 0.044 at 0.15);
- *lower* (a lower bound, or an attack that works up to some n_0): the mirror image;
- *tight* (two-sided: only where the paper proves matching upper and lower bounds):
  *confirmed* when the interval holds the prediction and excludes every competing law
  (by default the laws 0, 1/3, 1/2, 1, 2, 3 of the prediction's sign, other than the
  prediction); *confirmed up to lower-order terms* when it excludes the prediction but
  lies within the tolerance and excludes every competitor; *refuted* when it lies wholly
  outside the tolerance; *inconclusive* otherwise.

The tolerance is 0 for exact powers (n proportional to 1/eps for the exponential
mechanism); claims that hold only "up to logarithmic factors" declare 0.15, fixed in
advance of any run, because an unknown additive constant c in a log factor L shifts the
local exponent by about c / L.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from privbounds.claims.base import BoundRef, Claim, _label
from privbounds.claims.verdicts import CONFIRMED, INCONCLUSIVE, LOWER_ORDER, REFUTED
from privbounds.simulators.engine.stats import fit_exponent

LAWS = (0.0, 1 / 3, 0.5, 1.0, 2.0, 3.0)  # the growth laws these papers set against each other
DIRECTIONS = ("upper", "lower", "tight")
# Tolerance of scaling claims that hold up to logarithmic factors or lower-order terms
# (fixed in advance of any run: "confirms if slopes within +-0.15").
UP_TO_LOGS = 0.15


def competing_laws(predicted: float) -> tuple:
    """The default competitors of a predicted exponent: the laws of ``LAWS`` with its sign
    (0 included), other than the prediction itself."""
    sign = -1.0 if predicted < 0 else 1.0
    return tuple(sorted({sign * law for law in LAWS} - {float(predicted)}))


def _laws_text(laws) -> str:
    return ", ".join(f"{law:.3g}" for law in laws)


def tight_verdict(lo: float, hi: float, pred: float, tol: float, laws) -> tuple[str, str]:
    """Two-sided: the verdict and its reason for an exponent interval [lo, hi]."""
    holds = lo <= pred <= hi
    inside = [law for law in laws if lo <= law <= hi]
    if holds and not inside:
        return CONFIRMED, ""
    if not holds and pred - tol <= lo and hi <= pred + tol and not inside:
        return LOWER_ORDER, (f"the interval excludes {pred:g} but lies within the tolerance {tol:g} the claim "
                             "allows for lower-order terms")
    if hi < pred - tol or lo > pred + tol:
        return REFUTED, f"the interval lies outside {pred:g} +- {tol:g}, which a two-sided law does not allow"
    return INCONCLUSIVE, ("the interval also holds the competing law " + _laws_text(inside) if inside
                          else f"the interval straddles the tolerance band {pred:g} +- {tol:g}")


def one_sided_verdict(lo: float, hi: float, pred: float, tol: float, upper: bool,
                      variable: str, laws=()) -> tuple[str, str, str | None]:
    """An upper (or a lower) bound on the growth: (verdict, reason, finding). The finding
    is "loose" when the whole interval lies on the allowed side of the prediction. An
    interval that reaches past the tolerance is still a confirmation when it holds the
    prediction and excludes every competing law past it (the faster laws the paper sets
    against an upper bound): the measured growth is the bound's, not a faster one."""
    limit = pred + tol if upper else pred - tol
    near, far = (lo, hi) if upper else (hi, lo)  # the interval's ends nearest and farthest past the bound
    past = (lambda a, b: a > b) if upper else (lambda a, b: a < b)
    side, growth, kind = ("above", "faster", "upper") if upper else ("below", "slower", "lower")
    if past(near, limit):
        return REFUTED, (f"the interval lies wholly {side} {limit:g}: n grows {growth} in {variable} than the "
                         f"{kind} bound allows"), None
    if past(far, limit):
        beyond = [law for law in laws if past(law, limit)]
        if beyond and lo <= pred <= hi and not any(lo <= law <= hi for law in beyond):
            return CONFIRMED, "", None
        inside = [law for law in beyond if lo <= law <= hi]
        return INCONCLUSIVE, (f"the interval reaches {side} {limit:g}, so {growth} growth is not excluded"
                              + (f" (it holds the competing law {_laws_text(inside)})" if inside else "")), None
    if past(near, pred):
        return LOWER_ORDER, (f"the interval lies {side} {pred:g} but within the tolerance {tol:g} the claim allows "
                             "for lower-order terms"), None
    if past(pred, far):
        article = "an" if upper else "a"
        return CONFIRMED, (f"the bound is loose in {variable}: measured exponent [{lo:.3g}, {hi:.3g}] against "
                           f"{pred:g}, which {article} {kind} bound allows"), "loose"
    return CONFIRMED, "", None


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
    direction: str = ""
    # the theorem's explicit upper bound on n_hat (the one its UpperBound claim holds the
    # points to), for an upper claim: a faster local growth under it is not a refutation
    theorem_bound: BoundRef | None = None
    kind: str = field(init=False, default="scaling")

    def __post_init__(self):
        # every growth law says which way its theorem bounds it: a two-sided test of an
        # upper bound would refute a bound that is merely loose
        if self.direction not in DIRECTIONS:
            raise ValueError(f"claim {self.id}: direction must be one of {', '.join(DIRECTIONS)}, "
                             f"got {self.direction!r}")

    def laws(self) -> tuple:
        return competing_laws(self.predicted) if self.competitors is None else tuple(self.competitors)

    def evaluate(self, points, rows):
        used = [r for r in points if "n_hat" in r and self.select(r["point"])]
        if self.worst_over:
            used = worst_case(used, self.worst_over)
        finite = [r for r in used if r["n_hat"] and r["n_low"] and r["n_high"]]
        # a point that succeeds already at its smallest n has no crossing: n_hat is only "at
        # most the floor", and its interval of width zero would outweigh every real one
        ok = [r for r in finite if not r.get("floor_reached")]
        laws = self.laws()
        out = {"predicted": self.predicted, "tolerance": self.tolerance, "competitors": list(laws),
               "variable": self.variable_name, "direction": self.direction,
               "divided_by": self.factor_name, "points_used": len(ok),
               "points_censored": len(used) - len(finite), "points_at_floor": len(finite) - len(ok)}
        if len(ok) < 3:
            out.update(verdict=INCONCLUSIVE, fit=None,
                       reason=f"only {len(ok)} points with a finite n_hat interval (3 needed)"
                       + (f"; {len(finite) - len(ok)} succeed already at their smallest n" if len(finite) > len(ok)
                          else ""))
            return out
        x = np.array([self.variable(r["point"]) for r in ok], float)
        f = np.array([self.factor(r["point"]) if self.factor else 1.0 for r in ok], float)
        fit = _fit(x, ok, f)
        if self.factor:
            out["fit_raw"] = _fit(x, ok, np.ones_like(f)).as_dict()
        lo, hi, pred, tol = fit.low, fit.high, self.predicted, self.tolerance
        if self.direction == "tight":
            verdict, reason = tight_verdict(lo, hi, pred, tol, laws)
            finding = None
        else:
            verdict, reason, finding = one_sided_verdict(lo, hi, pred, tol, self.direction == "upper",
                                                         self.variable_name, laws)
            if verdict == REFUTED and self.direction == "upper" and self.theorem_bound is not None:
                verdict, reason, out["bound_slack"] = self._under_bound(used, lo, hi, reason)
        if reason:
            out["reason"] = reason
        if finding:
            out["finding"] = finding
        out.update(verdict=verdict, fit=fit.as_dict(), details=[
            {"label": _label(r["point"], self.label_keys), "x": float(xi),
             "n_hat": r["n_hat"], "n_low": r["n_low"], "n_high": r["n_high"], "factor": float(fi)}
            for r, xi, fi in zip(ok, x, f)])
        return out

    def _under_bound(self, used: list[dict], lo: float, hi: float, reason: str) -> tuple:
        """A faster-than-the-law exponent of an upper claim: still refuted if some point of
        the claim (censored ones included: no crossing found may lie above the bound) has
        an n_hat interval reaching the theorem's bound, else inconclusive (pre-asymptotic),
        with the range of the slack bound / n_high over the points."""
        bounds = [float(self.theorem_bound(r["point"])) for r in used]
        if any(not r["n_high"] or r["n_high"] >= b for r, b in zip(used, bounds)):
            return REFUTED, reason + ", and a point's n_hat interval reaches the theorem's bound", None
        slack = [b / r["n_high"] for r, b in zip(used, bounds)]
        rng = [min(slack), max(slack)]
        return INCONCLUSIVE, (f"the interval [{lo:.3g}, {hi:.3g}] lies wholly above {self.predicted + self.tolerance:g}: "
                              f"n grows faster in {self.variable_name} than the law over the tested range, but every "
                              f"point's n_hat interval lies {rng[0]:.3g}x to {rng[1]:.3g}x below the theorem's bound: "
                              "a law with hidden constants is asymptotic, so this faster local growth (pre-asymptotic) "
                              "contradicts nothing until it reaches the bound"), rng


def _fit(x, ok: list[dict], f):
    """The exponent fit of n_hat / f; the n_hat intervals are simultaneous (Bonferroni)
    ones, converted at their level."""
    return fit_exponent(x, [r["n_hat"] / fi for r, fi in zip(ok, f)],
                        [r["n_low"] / fi for r, fi in zip(ok, f)],
                        [r["n_high"] / fi for r, fi in zip(ok, f)], point_conf=ok[0]["conf"])


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
        # the worst member's n_hat is at most its floor only if every member is at its floor
        out.append({**top, "n_low": max(m["n_low"] for m in members),
                    "n_high": max(m["n_high"] for m in members),
                    "floor_reached": all(m.get("floor_reached") for m in members)})
    return out
