"""Statistics shared by every experiment: intervals, n_hat crossings, exponent fits.

Not tied to one paper. Methods (also printed in the report):

- success probabilities: exact Clopper-Pearson intervals, vectorised through
  ``scipy.stats.beta.ppf``;
- n_hat (design.md, "empirical sample complexity"): the smallest grid n whose point
  estimate reaches 1 - beta; its interval runs from the first integer n above the last
  n whose upper Clopper-Pearson end is below 1 - beta (the smallest n the learner runs
  at when none is, which the search (search.py) then has tried), to the first evaluated
  n whose lower end reaches 1 - beta;
- exact n_hat (``exact_crossing``), where the success probability p(n) has a closed form
  or a small exact sum: the smallest n with p(n) >= 1 - beta, found by doubling and
  bisection (p nondecreasing in n);
- measured means (excess risk, stability, privacy loss per trial): Student-t intervals
  from the trials' mean and standard deviation (``scipy.stats.t``; large-sample); when
  every trial gave the same value, a distribution-free interval from the values' known
  range (``mean_interval``), never a point;
- exponents: weighted least squares of log n_hat on log x, with a Student-t interval
  whose scale is inflated by the residual scatter when that exceeds the n_hat
  intervals' own width.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


def _stats():
    """scipy.stats, imported at first use: it takes a second or more to import (most of it
    generating its distributions' docstrings), and a block-running worker or a command
    that draws or lists never needs it."""
    from scipy import stats

    return stats


def clopper_pearson(successes, trials, conf: float = 0.95):
    """Two-sided exact binomial interval, elementwise. Returns (low, high) arrays."""
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    a = (1.0 - conf) / 2.0
    with np.errstate(invalid="ignore", divide="ignore"):
        low = np.where(k > 0, _stats().beta.ppf(a, k, n - k + 1), 0.0)
        high = np.where(k < n, _stats().beta.ppf(1 - a, k + 1, n - k), 1.0)
    return np.nan_to_num(low, nan=0.0), np.nan_to_num(high, nan=1.0)


@dataclass(frozen=True)
class Crossing:
    """n_hat and its interval; ``None`` ends mean "beyond the searched grid"."""

    n_hat: int | None
    low: int | None
    high: int | None
    monotone: bool

    def as_dict(self) -> dict:
        return {"n_hat": self.n_hat, "n_low": self.low, "n_high": self.high,
                "monotone": self.monotone}


def crossing(ns, successes, trials, target: float, conf: float, floor: int = 1) -> Crossing:
    """Locate where the success curve reaches ``target`` = 1 - beta.

    ``ns`` are the evaluated sample sizes (any order). The lower end is one above the
    last evaluated n whose upper interval end is still below target, so an unevaluated
    stretch of the grid can only widen the interval, never narrow it; with no such n it
    is ``floor``, the smallest sample size the learner runs at (1 unless the simulator
    says otherwise: ``Simulator.n_floor``).

    n_hat is the sample size from which the learner keeps succeeding: when the curve is
    not monotone (a trivial output can succeed at tiny n and fail once data arrive), a
    pass below the last clear failure does not count; ``monotone`` records that it
    happened.
    """
    order = np.argsort(ns)
    ns = np.asarray(ns)[order]
    s = np.asarray(successes)[order]
    t = np.asarray(trials)[order]
    p = s / t
    lo, hi = clopper_pearson(s, t, conf)

    below = np.nonzero(hi < target)[0]
    # The crossing is the smallest integer n with p(n) >= target; every n above the last
    # clear failure is still possible, so the interval starts right after it (not at the
    # next grid point, which would make the interval look narrower than the data allow).
    n_low = int(ns[below[-1]]) + 1 if below.size else int(floor)
    passing = np.nonzero(lo >= target)[0]
    after = passing[ns[passing] >= n_low]
    n_high = int(ns[after[0]]) if after.size else None
    est = np.nonzero((p >= target) & (ns >= (n_low if n_low is not None else np.inf)))[0]
    n_hat = int(ns[est[0]]) if est.size else None
    # Monotone in the sense we can test: nothing clearly passes below a clear failure.
    monotone = not (passing.size and below.size and ns[passing[0]] < ns[below[-1]])
    return Crossing(n_hat, n_low, n_high, bool(monotone))


EXACT_CAP = 1 << 30  # the exact n_hat's search gives up beyond this n: "not reached"


def exact_crossing(p: Callable[[int], float], target: float, floor: int = 1,
                   cap: int = EXACT_CAP) -> tuple[int | None, dict]:
    """The exact n_hat of a success probability ``p(n)`` known exactly: the smallest integer
    n >= ``floor`` with p(n) >= ``target``, or None when p(cap) < target.

    ``p`` must be nondecreasing in n (each exact form proves it in its docstring). Then this
    is also the smallest n from which p stays at or above the target, the definition the
    Monte Carlo n_hat estimates (``crossing`` discards a pass below a clear failure), and
    doubling from ``floor`` then bisection find it in O(log n) evaluations of p rather
    than one per n. Returns (n_hat, {n: p(n)} of the n evaluated); raises ValueError when
    those values are not in order, i.e. p is not monotone after all (beyond round-off)."""
    seen: dict = {}

    def ok(n: int) -> bool:
        seen[n] = float(p(n))
        return seen[n] >= target

    lo, hi = None, int(floor)  # lo: the largest n known to fail; hi: the next n to try
    while not ok(hi):
        if hi >= cap:
            hi = None
            break
        lo, hi = hi, min(2 * hi, cap)
    if hi is not None and lo is not None:
        while hi - lo > 1:  # invariant: p(lo) < target <= p(hi)
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    ns = sorted(seen)
    vals = np.array([seen[n] for n in ns])
    # a relative dip of 1e-9 is round-off of a sum in logs (k log(...) at k = 4096), not a trend
    if np.any(np.diff(vals) < -1e-9 * vals[1:]):
        raise ValueError(f"the exact success probability is not nondecreasing in n: {dict(zip(ns, vals))}")
    return hi, seen


def geometric_grid(n_min: int, n_max: int, steps_per_doubling: int) -> np.ndarray:
    """Integers n_min * 2^(j/steps) up to n_max, deduplicated, so doubling = steps indices."""
    j = np.arange(0, int(np.ceil(steps_per_doubling * np.log2(n_max / n_min))) + 1)
    g = np.unique(np.round(n_min * 2.0 ** (j / steps_per_doubling)).astype(int))
    return g[g <= n_max]


@dataclass(frozen=True)
class ExponentFit:
    exponent: float
    low: float
    high: float
    points: int
    method: str = "WLS of log n_hat on log x, Student-t 95% interval"

    def as_dict(self) -> dict:
        return {"exponent": self.exponent, "low": self.low, "high": self.high,
                "points": self.points, "method": self.method}


def fit_exponent(x, n_hat, n_low, n_high, conf: float = 0.95, point_conf: float | None = None) -> ExponentFit:
    """Fit n_hat ~ C x^a with a ``conf`` interval for a. Each point's log-scale sd comes
    from its n_hat interval, read as a ``point_conf`` interval (the level it was made at:
    the simultaneous, Bonferroni-adjusted one of the search; ``conf`` if not given);
    infinite ends are not allowed here."""
    x = np.asarray(x, float)
    y = np.log(np.asarray(n_hat, float))
    half = (np.log(np.asarray(n_high, float)) - np.log(np.asarray(n_low, float))) / 2
    z = _stats().norm.ppf(0.5 + (conf if point_conf is None else point_conf) / 2)
    # A zero-width interval still carries the grid's rounding; floor it so one point
    # cannot take all the weight.
    sd = np.maximum(half / z, 0.02)
    if x.size < 3:
        raise ValueError(f"an exponent fit needs at least 3 points, got {x.size}")
    X = np.column_stack([np.ones_like(x), np.log(x)])
    w = 1.0 / sd**2
    XtW = X.T * w
    cov = np.linalg.inv(XtW @ X)
    beta = cov @ XtW @ y
    resid = y - X @ beta
    dof = x.size - 2
    chi2 = float(np.sum(w * resid**2)) / dof
    se = float(np.sqrt(cov[1, 1] * max(1.0, chi2)))
    tq = _stats().t.ppf(0.5 + conf / 2, dof)
    a = float(beta[1])
    return ExponentFit(a, a - tq * se, a + tq * se, int(x.size))


def moments(values, size: int, where: str = "") -> tuple[float, float, float, float]:
    """(mean, M2, min, max) of one block's ``size`` real values (M2: the sum of squared
    deviations from the mean). Refuses a wrong shape or a value that is not finite: a
    measured mean must not silently absorb a NaN."""
    v = np.asarray(values, dtype=float)
    if v.shape != (size,):
        raise ValueError(f"{where}: run_trials returned shape {v.shape}, expected ({size},)")
    if not np.all(np.isfinite(v)):
        raise ValueError(f"{where}: run_trials returned {int(np.sum(~np.isfinite(v)))} values that are not finite")
    lo, hi = float(v.min()), float(v.max())
    mean = float(min(max(v.mean(), lo), hi))  # rounding may not leave the values' range
    return mean, float(np.sum((v - mean) ** 2)), lo, hi


def combine_moments(a, b) -> tuple:
    """Exact union of two summaries (mean, M2, min, max, count); ``a`` may be None
    (Chan, Golub and LeVeque's pairwise update, so blocks combine in any order)."""
    if a is None:
        return tuple(b)
    m1, q1, lo1, hi1, n1 = a
    m2, q2, lo2, hi2, n2 = b
    n = n1 + n2
    d = m2 - m1
    mean = m1 + d * n2 / n
    return (min(max(mean, min(lo1, lo2)), max(hi1, hi2)), q1 + q2 + d * d * n1 * n2 / n,
            min(lo1, lo2), max(hi1, hi2), n)


def mean_interval(mean, sd, trials, conf: float = 0.95, value_range=(None, None)):
    """Two-sided interval for a mean from ``trials`` values with standard deviation ``sd``
    (elementwise): Student-t (a large-sample interval) when the values spread. When every
    value was the same v, the t-interval would be a point, which no sample justifies:
    then, for values known to lie in ``value_range`` = (lo, hi), a distribution-free
    interval: all t values equal v has probability at most (1 - (mu - v)/(hi - v))^t when
    the mean is mu > v (Markov on the values' excess over v), so the mean lies within
    (hi - v)(1 - (a/2)^(1/t)) above v and (v - lo)(1 - (a/2)^(1/t)) below, a = 1 - conf;
    an end whose range is unknown is infinite. One trial: (-inf, inf) clipped to the range."""
    mean = np.asarray(mean, float)
    sd = np.asarray(sd, float)
    t = np.asarray(trials, float)
    lo_r = -np.inf if value_range[0] is None else float(value_range[0])
    hi_r = np.inf if value_range[1] is None else float(value_range[1])
    a = 1.0 - conf
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        half = _stats().t.ppf(0.5 + conf / 2, np.maximum(t - 1, 1)) * sd / np.sqrt(t)
        shrink = np.where(t > 1, 1.0 - (a / 2) ** (1.0 / np.maximum(t, 1)), 1.0)
        up = np.where(sd > 0, mean + half, mean + (hi_r - mean) * shrink)
        down = np.where(sd > 0, mean - half, mean - (mean - lo_r) * shrink)
        single = t < 2
        up = np.where(single, hi_r, up)
        down = np.where(single, lo_r, down)
    return np.where(np.isnan(down), -np.inf, down), np.where(np.isnan(up), np.inf, up)
