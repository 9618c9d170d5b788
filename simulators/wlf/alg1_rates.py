"""Wang, Lei and Fienberg, "Learning with Differential Privacy" (JMLR 2016), section 4:
Algorithm 1 (the exponential mechanism for regularised ERM) on the finite problem P-fin,
measured as functions of n against the rates of Theorem 19 (eq. 11), Example 20,
Lemma 36 (utility, eq. 17, and the tail eq. 19 of its proof), Lemma 37 (universal AERM,
corrected and printed), Corollary 9 (privacy + AERM => consistency) and the sufficiency
face of Theorem 7; and the realised privacy loss of Algorithm 1 itself.

Each trial draws one dataset Z ~ D^n and returns one exact number (exact over h ~ A(Z)):
the excess risk E_h R(h) - R*, the AERM gap E_h R_hat(h, Z) - R_hat*(Z), the
generalisation gap E_h [R(h) - R_hat(h, Z)], the utility gap E_h F(Z, h) - F* (F = R_hat +
g_n), the tail P_h[F(Z, h) > F* + 2t] at Lemma 36's t, or the privacy loss
max_h |log p_Z(h) - log p_Z'(h)| over every neighbour Z' of Z at one position. Only the
draw of Z is Monte Carlo.

Two exact routes to the same numbers (a test checks them against each other):

- ``finite.py`` (full arrays over the 2^M + 1 thresholds) for M <= 10, and whenever a
  regulariser g_n is used (it varies inside runs);
- runs, for M = 16 without a regulariser: between consecutive data points the empirical
  error is constant, so Algorithm 1 with counting measure puts weight
  (run length) x exp(-eps errors / 4) on each run, and E_h R is a run's mean of R (prefix
  sums of R over the grid, computed once). Cost O(n) per trial instead of O(2^M).

Privacy: the paper's Delta q = 2/n for a loss in [0, 1] makes Algorithm 1 "at eps"
eps/2-DP (the empirical risk's replace-one sensitivity is 1/n); every point declares the
realised eps/2 and the figures show both. Example 20's schedule eps(n) =
sqrt((M + log n)/n) is the nominal eps.
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from privbounds.bounds import wlf as wlf_bounds
from privbounds.params import EPSILON, EPSILON_AT_MOST_1, Interval, Options, ParameterError
from privbounds.simulators.engine.audit import AuditCase
from privbounds.simulators.engine.simulator import Fidelity, Simulator, expand
from privbounds.simulators.wlf import finite

NOISE = 0.1  # label noise of P-fin's distributions (agnostic)
FULL_ROUTE_MAX_BITS = 10  # above this, g_n = 0 experiments use the run representation
QUANTITIES = ("excess_risk", "aerm_gap", "gen_gap", "utility_gap", "tail", "privacy_loss")

# n from 50 to n_max on a geometric grid of ratio n_ratio (4 at quick, 2 at full)
N_MAX = {"smoke": 200, "quick": 12800, "full": 12800}
N_RATIO = {"smoke": 4, "quick": 4, "full": 2}
FIDELITIES = {
    "smoke": Fidelity(trials=40, block=40, steps=2, audit=0.25),
    "quick": Fidelity(trials=200, block=200, steps=2, audit=1.0),
    "full": Fidelity(trials=1000, block=250, steps=2, audit=2.0),
}
N_MAX_SPEC = Interval(50, 1 << 20, "both", integer=True)
N_RATIO_SPEC = Options((2, 4))


def n_grid(point: dict, start: int = 50) -> list[int]:
    """start, start r, start r^2, ... up to n_max."""
    out, n = [], start
    while n <= point["n_max"]:
        out.append(n)
        n *= point["n_ratio"]
    return out


BITS = Interval(1, 16, "both", integer=True)
DIST = Options(("uniform", "cluster"))
SCHEDULE = Options(("ex20", "fixed"))
REGULARISER = Options(("none", "sqrt"))


# --- the problem and the learner's parameters at a point -----------------------------------

def problem_of(point: dict) -> finite.Problem:
    """P-fin with M bits: x uniform on the grid (spread) or on 4 grid points around the
    target (concentrated), labels by the middle threshold flipped with probability 0.1."""
    make = finite.uniform_problem if point["dist"] == "uniform" else finite.cluster_problem
    return make(point["bits"], NOISE)


def epsilon_of(point: dict, n) -> float:
    """Algorithm 1's nominal eps at sample size n: fixed, or Example 20's
    sqrt((M + log n)/n)."""
    if point.get("schedule", "fixed") == "ex20":
        return float(wlf_bounds.ex20_epsilon(n, point["bits"]))
    return float(point["epsilon"])


def zeta_of(point: dict, n) -> float:
    """sup_h |g_n(h)|: 0 without a regulariser, 1/sqrt(n) for g_n(h_t) = (t/G)/sqrt(n)."""
    return 1.0 / float(np.sqrt(n)) if point.get("regulariser", "none") == "sqrt" else 0.0


def regulariser(point: dict, n: int, size: int) -> np.ndarray:
    """g_n over the thresholds h_0..h_G: a penalty t/G in [0, 1] (it prefers small
    thresholds, so it biases the output by up to zeta), scaled by 1/sqrt(n)."""
    return np.arange(size + 1) / size * zeta_of(point, n)


def h_size(point: dict) -> int:
    """|H| = 2^M + 1 thresholds: A2's K for counting measure."""
    return (1 << point["bits"]) + 1


def tail_t(n: int, eps: float, k: int, rho: float = 0.0) -> float:
    """Lemma 36's t = 4[(rho + 2) log n + log K]/(eps n)."""
    return 4.0 * ((rho + 2.0) * np.log(n) + np.log(k)) / (eps * n)


def tail_ratio(logp, gap, weight, n: int, eps: float, hypotheses: int) -> np.ndarray:
    """Per dataset, the tail of Lemma 36's proof against its own bound, eq. (18):
    P_h[F(Z, h) > F* + 2t] / ((|H| / |S_t(Z)|) e^(-eps n t / 4)), S_t = {h : F <= F* + t},
    at the lemma's t (counting measure; ``weight``: how many thresholds each column holds).
    In log space, so a tail of 1e-300 is still compared with its bound. At most 1 for every
    dataset if eq. (18) holds; eq. (19) is its expectation under assumption A2."""
    t = tail_t(n, eps, hypotheses)
    with np.errstate(divide="ignore"):
        log_tail = logsumexp(np.where(gap > 2 * t, logp, -np.inf), axis=-1)
        log_st = np.log(np.sum(np.where(gap <= t, weight, 0), axis=-1))
    log_bound = np.log(hypotheses) - log_st - eps * n * t / 4.0
    return np.exp(np.minimum(log_tail - log_bound, 700.0))


# --- exact quantities, full route -----------------------------------------------------------

def full_quantities(problem: finite.Problem, pos, neg, n: int, eps: float, g=None,
                    sensitivity: float | None = None) -> dict:
    """Every quantity of one batch of datasets (label histograms), exact over h, with
    Algorithm 1 on F = R_hat + g (g over the thresholds, or None)."""
    errors = finite.error_counts(pos, neg)
    objective = errors if g is None else errors + n * g  # F = objective / n
    logp = finite.alg1_log_probs(objective, n, eps, sensitivity)
    out = finite.excess_quantities(problem, errors, logp, n)
    p = np.exp(logp)
    f = objective / n
    gap_f = f - f.min(axis=-1, keepdims=True)
    out["utility_gap"] = np.sum(p * gap_f, axis=-1)
    out["tail"] = tail_ratio(logp, gap_f, np.ones_like(gap_f), n, eps, problem.hypotheses)
    return out


# --- exact quantities, run route ------------------------------------------------------------

def draw_runs(problem: finite.Problem, n: int, trials: int, rng: np.random.Generator):
    """A batch of datasets as sorted positions with label counts: (positions, pos, neg),
    each (trials, K). On a small support, one multinomial over its cells (K = support
    size); otherwise the n sorted sample points themselves (K = n; equal positions give
    empty runs)."""
    support = np.flatnonzero(problem.p)
    one = problem.label_one()[support]
    if support.size <= 2 * n:
        w = problem.p[support]
        cells = np.concatenate([w * one, w * (1 - one)])
        counts = rng.multinomial(n, cells / cells.sum(), size=trials)
        k = support.size
        return np.broadcast_to(support, (trials, k)), counts[:, :k], counts[:, k:]
    w = problem.p[support] / problem.p[support].sum()
    x = np.sort(support[rng.choice(support.size, size=(trials, n), p=w)], axis=1)
    y = rng.random((trials, n)) < problem.label_one()[x]
    return x, y.astype(np.int64), (~y).astype(np.int64)


def run_quantities(problem: finite.Problem, positions, pos, neg, n: int, eps: float) -> dict:
    """The quantities of ``full_quantities`` (g = 0) from the run representation.

    Run k (k = 0..K) holds the thresholds t with positions[k-1] < t <= positions[k]
    (positions[-1] = -1, positions[K] = G): every threshold in it errs on the positives
    before position k and the negatives from k on."""
    trials, k = positions.shape
    size = problem.size
    pad_lo = np.full((trials, 1), -1)
    pad_hi = np.full((trials, 1), size)
    edges = np.concatenate([pad_lo, positions, pad_hi], axis=1)
    start, end = edges[:, :-1] + 1, edges[:, 1:]  # run k: thresholds start..end
    length = end - start + 1
    zero = np.zeros((trials, 1), np.int64)
    cum_pos = np.concatenate([zero, np.cumsum(pos, axis=1)], axis=1)
    cum_neg = np.concatenate([zero, np.cumsum(neg, axis=1)], axis=1)
    errors = cum_pos + (cum_neg[:, -1:] - cum_neg)
    nonempty = length > 0
    with np.errstate(divide="ignore"):
        logw = np.where(nonempty, np.log(np.maximum(length, 1)), -np.inf) - (eps / 4.0) * errors
    logp = logw - logsumexp(logw, axis=1, keepdims=True)
    p = np.exp(logp)
    risk = problem.risks()
    cum_r = np.concatenate([[0.0], np.cumsum(risk)])
    mean_r = np.where(nonempty, (cum_r[np.minimum(end + 1, size + 1)] - cum_r[np.minimum(start, size + 1)])
                      / np.maximum(length, 1), 0.0)
    emp = errors / n
    best = np.min(np.where(nonempty, emp, np.inf), axis=1, keepdims=True)
    e_risk = np.sum(p * mean_r, axis=1)
    e_emp = np.sum(p * emp, axis=1)
    gap = emp - best
    return {"excess_risk": e_risk - risk.min(), "aerm_gap": e_emp - best[:, 0],
            "generalisation_gap": e_risk - e_emp, "utility_gap": e_emp - best[:, 0],
            "tail": tail_ratio(np.where(nonempty, logp, -np.inf), np.where(nonempty, gap, np.inf), length, n, eps,
                               problem.hypotheses)}


# --- the privacy loss of Algorithm 1 ----------------------------------------------------------

def privacy_loss(problem: finite.Problem, pos, neg, n: int, eps: float, sensitivity: float | None,
                 rng: np.random.Generator) -> np.ndarray:
    """Per dataset: max over the 2G replacements of one of its points (chosen at random,
    in proportion to the counts) and over h of |log p_Z(h) - log p_Z'(h)|, exact."""
    trials = pos.shape[0]
    cell = finite.replaced_cell(np.concatenate([pos, neg], axis=1), rng.random(trials) * n)  # the replaced point
    base = finite.alg1_log_probs(finite.error_counts(pos, neg), n, eps, sensitivity)
    worst = np.zeros(trials)
    for _, lp in finite.replacements(pos, neg, cell, n, eps, sensitivity):  # every replacement value (x_j, y)
        worst = np.maximum(worst, np.max(np.abs(lp - base), axis=1))
    return worst


# --- the measurement of one point ---------------------------------------------------------------

def measure(point: dict, n: int, trials: int, rng: np.random.Generator) -> np.ndarray:
    """One value per trial: the point's ``quantity`` (see the module docstring)."""
    problem = problem_of(point)
    eps = epsilon_of(point, n)
    q = point["quantity"]
    if q == "privacy_loss":
        pos, neg = problem.sample(n, trials, rng)
        sens = point.get("delta_q_n", 2.0) / n
        return privacy_loss(problem, pos, neg, n, eps, sens, rng)
    key = "generalisation_gap" if q == "gen_gap" else q
    if point.get("regulariser", "none") == "none" and point["bits"] > FULL_ROUTE_MAX_BITS:
        out = run_quantities(problem, *draw_runs(problem, n, trials, rng), n, eps)
        return out[key]
    g = regulariser(point, n, problem.size) if point.get("regulariser", "none") != "none" else None
    pos, neg = problem.sample(n, trials, rng)
    return full_quantities(problem, pos, neg, n, eps, g)[key]


def alg1_case(name: str = "alg1") -> AuditCase:
    """Algorithm 1's audit instance (finite.alg1_events): nominal eps 2 with the paper's
    Delta q = 2/n, declared at the realised eps/2 = 1."""
    return AuditCase(name, "Algorithm 1 at nominal eps = 2 with Delta q = 2/n (realised eps/2 = 1)",
                     "3 rows (x_7, 1) plus (x_0, 0) versus (x_0, 1) (M = 3, n = 4)",
                     "output h_0 (labels x_0 with 1)", 1.0, 0.0, finite.alg1_events,
                     {"bits": 3, "n": 4, "j": 0, "epsilon": 2.0}, trials=60_000)


class Alg1Mean(Simulator):
    """Algorithm 1 on P-fin, one exact quantity per dataset. Subclasses give ``axes``."""

    measure = "mean"
    fidelities = FIDELITIES
    params = {"bits": BITS, "dist": DIST, "schedule": SCHEDULE, "epsilon": EPSILON_AT_MOST_1,
              "regulariser": REGULARISER, "quantity": Options(QUANTITIES),
              "learner": Options(("alg1",)), "n_max": N_MAX_SPEC, "n_ratio": N_RATIO_SPEC}

    def curve(self, point):
        return n_grid(point)

    def check_point(self, point):
        super().check_point(point)
        if point.get("schedule") == "fixed" and "epsilon" not in point:
            raise ParameterError("epsilon must be given with schedule=fixed")

    def privacy(self, point):
        ns = self.curve(point)
        if point.get("schedule") == "ex20":
            eps = max(epsilon_of(point, n) for n in ns)
            return {"epsilon": eps / 2, "delta": 0.0,
                    "accounting": "Algorithm 1 at eps(n) = sqrt((M + log n)/n) with Delta q = 2/n: eps(n)/2-DP "
                                  f"at each n (the largest, at n = {min(ns)}, given)"}
        return {"epsilon": point["epsilon"] / 2, "delta": 0.0,
                "accounting": "Algorithm 1 at nominal eps with Delta q = 2/n: eps/2-DP (loss in [0, 1])"}

    def audits(self):
        return [alg1_case()]

    def run_trials(self, point, n, trials, rng):
        return measure(point, int(n), int(trials), rng)

    # datasets per n, as a multiple of the fidelity's: the gaps of Lemmas 36 and 37 underflow
    # to 0 at large n and fixed eps, and trials that all give one value bound a mean only to
    # about ln(2m/0.05)/trials (engine.stats.mean_interval); 3 x 200 resolves their bounds there
    datasets = 1

    def trials_factor(self, point):
        return self.datasets

    def grid(self, fidelity, overrides):
        base = {"n_max": [N_MAX[fidelity]], "n_ratio": [N_RATIO[fidelity]]}
        return self.axes(fidelity, base, overrides)

    def axes(self, fidelity, base, overrides):
        raise NotImplementedError


def schedule_points(axes: dict, fixed: list, overrides: dict, ex20: bool = True) -> list[dict]:
    """The grid ``axes`` under Example 20's eps(n) (if ``ex20``) and under each fixed eps.
    A user's ``--set epsilon=...`` keeps the fixed schedule only, at those values."""
    sched = list(overrides.get("schedule", (["ex20"] if ex20 else []) + (["fixed"] if fixed else [])))
    if "epsilon" in overrides:
        sched = ["fixed"]
    rest = {k: v for k, v in overrides.items() if k != "schedule"}
    pts = []
    for s in sched:
        extra = {"schedule": [s]} if s == "ex20" else {"schedule": ["fixed"], "epsilon": list(fixed) or [0.5]}
        pts += [p for p in expand({**axes, **extra}, rest) if p not in pts]
    return pts


def _axes(base: dict, **kw) -> dict:
    return {**base, "learner": ["alg1"], "regulariser": ["none"], **{k: list(v) for k, v in kw.items()}}


class Ex20(Alg1Mean):
    """Example 20: excess risk under eps(n), M = 4, 8, 16 bits, spread and concentrated D."""

    theorem_id = "wlf.ex20"

    def axes(self, fidelity, base, overrides):
        return schedule_points(_axes(base, bits=[4, 8, 16], dist=["uniform", "cluster"],
                                     quantity=["excess_risk"]), [], overrides)


class Thm19(Alg1Mean):
    """Theorem 19: excess risk, with and without a regulariser, under eps(n) and fixed eps."""

    theorem_id = "wlf.thm19"

    def axes(self, fidelity, base, overrides):
        fixed = [0.5] if fidelity == "smoke" else [0.1, 0.5, 1.0]
        return schedule_points(_axes(base, bits=[8], dist=["uniform", "cluster"], regulariser=["none", "sqrt"],
                                     quantity=["excess_risk"]), fixed, overrides)


class Lem36(Alg1Mean):
    """Lemma 36: the utility gap at fixed eps (M = 4, 8, 16; with a regulariser at M = 8)
    and the tail of its proof's eq. (19) (M = 8)."""

    theorem_id = "wlf.lem36"
    datasets = 3

    def axes(self, fidelity, base, overrides):
        fixed = [0.5] if fidelity == "smoke" else [0.1, 0.5, 1.0]
        dists = ["uniform", "cluster"]
        pts = schedule_points(_axes(base, bits=[4, 8, 16], dist=dists, quantity=["utility_gap"]), fixed,
                              overrides, ex20=False)
        pts += schedule_points(_axes(base, bits=[8], dist=dists, quantity=["utility_gap"], regulariser=["sqrt"]),
                               [0.5], overrides, ex20=False)
        return [p for i, p in enumerate(pts) if p not in pts[:i]]


class Lem37(Alg1Mean):
    """Lemma 37: the AERM gap (M = 4, 8, 16; a regulariser at M = 8) under eps(n) and eps = 0.5."""

    theorem_id = "wlf.lem37"
    datasets = 3

    def axes(self, fidelity, base, overrides):
        dists = ["uniform", "cluster"]
        pts = schedule_points(_axes(base, bits=[4, 8, 16], dist=dists, quantity=["aerm_gap"]), [0.5], overrides)
        pts += schedule_points(_axes(base, bits=[8], dist=dists, quantity=["aerm_gap"], regulariser=["sqrt"]),
                               [0.5], overrides)
        return [p for i, p in enumerate(pts) if p not in pts[:i]]


class Thm7(Alg1Mean):
    """Theorem 7's sufficiency face: AERM gap, generalisation gap and excess risk of
    Algorithm 1 under eps(n) (M = 8)."""

    theorem_id = "wlf.thm7"

    def axes(self, fidelity, base, overrides):
        return schedule_points(_axes(base, bits=[8], dist=["uniform", "cluster"],
                                     quantity=["aerm_gap", "gen_gap", "excess_risk"]), [], overrides)


class Alg1Privacy(Alg1Mean):
    """Algorithm 1: the realised privacy loss over every neighbour at one position of
    each dataset, with the paper's Delta q = 2/n and the true sensitivity 1/n (M = 4)."""

    theorem_id = "wlf.alg1"
    params = {**Alg1Mean.params, "epsilon": EPSILON, "delta_q_n": Options((1.0, 2.0))}

    def axes(self, fidelity, base, overrides):
        fixed = [1.0] if fidelity == "smoke" else [0.25, 1.0, 4.0]
        return schedule_points(_axes(base, bits=[4], dist=["uniform", "cluster"], quantity=["privacy_loss"],
                                     delta_q_n=[2.0, 1.0]), fixed, overrides, ex20=False)

    def privacy(self, point):
        e = point["epsilon"] / point["delta_q_n"]
        return {"epsilon": e, "delta": 0.0,
                "accounting": f"Algorithm 1 at nominal eps with Delta q = {point['delta_q_n']:g}/n: "
                              f"eps/{point['delta_q_n']:g}-DP (loss in [0, 1])"}

    def audits(self):
        """The paper's Delta q = 2/n (declared eps/2) and the true sensitivity 1/n
        (declared eps), on finite.alg1_events' instance."""
        return [alg1_case("alg1-paper-sensitivity"),
                AuditCase("alg1-true-sensitivity", "Algorithm 1 at eps = 2 with Delta q = 1/n (eps-DP)",
                          "3 rows (x_7, 1) plus (x_0, 0) versus (x_0, 1) (M = 3, n = 4)",
                          "output h_0 (labels x_0 with 1)", 2.0, 0.0, finite.alg1_events,
                          {"bits": 3, "n": 4, "j": 0, "epsilon": 2.0, "sensitivity": 0.25}, trials=60_000)]
