"""Wang, Lei and Fienberg, "Learning with Differential Privacy" (JMLR 2016): privacy by
subsampling (Lemmas 4, 29, 31 and 34) and the consistency transfer of Lemma 4.

Every lemma here runs a mechanism on a uniformly random subset of m of the n rows
(without replacement; replace-one neighbours). The privacy quantities are exact: the
mechanism is a count of ones, so its input on the subset is hypergeometric and its
output distribution an exact mixture (count_mechanisms.py). A trial is one neighbouring
pair of datasets (k versus k + 1 ones; the first two trials of every block are the
extremes k = 0 and k = n - 1, the others random), so that the largest value over the
trials (MeanBound with statistic "max") is the worst case over the pairs tried:

- Lemma 34 (pure DP, from Beimel et al.): the two-sided geometric count (exactly eps-DP)
  at rate gamma: exact privacy loss against 2 gamma (e^eps - e^-eps), against the
  proof's intermediate form, and against the tight log(1 + gamma (e^eps - 1));
- Lemma 4: the same at gamma = floor(sqrt n)/n against (2/sqrt n)(e^eps - e^-eps), and
  the consistency transfer: Algorithm 1 on P-fin run on floor(sqrt n) of n rows has the
  excess risk of Algorithm 1 on floor(sqrt n) rows (a random subset of iid rows is iid);
- Lemma 29: any algorithm (here the exact count, no noise) on floor(sqrt n) rows is
  (0, floor(sqrt n)/n)-DP, hence (0, 1/sqrt n): the exact delta at eps = 0 (the TV);
- Lemma 31 ((eps, delta)-DP): the discrete Gaussian count at rate gamma: the exact delta
  of the subsampled mechanism at the lemma's eps' against its delta' = gamma e^eps delta.

Reusable parts (Lemma 10's experiment imports them): ``subsample_histograms`` draws the
label histograms of a random m-subset of datasets given as histograms (vectorised over
trials), ``subsample_size`` is floor(gamma n) with the rate checked, and the audit event
functions of the subsampled mechanisms.
"""

from __future__ import annotations

import numpy as np

from privbounds.params import EPSILON, Interval, Options, ParameterError
from privbounds.simulators.engine.audit import AuditCase, NoiseSource, noise_sources
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.wlf import finite
from privbounds.simulators.wlf.count_mechanisms import (
    GAMMA,
    approx_delta,
    check_rate,
    discrete_gaussian_pmf,
    gaussian_delta,
    hypergeom_logpmf,
    neighbour_pairs,
    subsampled_gaussian_pmf,
    subsampled_geometric_loss,
    tv,
)

# --- reusable: subsampling datasets and subsampled mechanisms ------------------------------


def subsample_size(n: int, gamma: float) -> int:
    """m = floor(gamma n) rows (the rate checked: in (0, 1]; at least one row drawn)."""
    check_rate(gamma)
    m = int(np.floor(gamma * n + 1e-9))
    if m < 1:
        raise ParameterError(f"gamma must be at least 1/n = {1 / n:g} (one row of the {n} drawn), got {gamma!r}")
    return m


def sqrt_size(n: int) -> int:
    """floor(sqrt n): the subset size of Lemmas 4, 10, 14 and 29."""
    return int(np.floor(np.sqrt(n) + 1e-9))


def subsample_histograms(pos: np.ndarray, neg: np.ndarray, m, rng: np.random.Generator):
    """Label histograms (trials, G) of a uniformly random subset of m rows (without
    replacement) of each dataset given by its histograms (pos, neg): a multivariate
    hypergeometric draw, taken cell by cell (one conditional hypergeometric per cell,
    vectorised over trials). ``m`` may be one size or one per trial."""
    cells = np.concatenate([pos, neg], axis=-1).astype(np.int64)
    total = cells.sum(axis=-1)
    left = np.broadcast_to(np.asarray(m, np.int64), total.shape).copy()
    if np.any(left < 1) or np.any(left > total):
        raise ParameterError(f"subset size m must be in [1, n], got {m!r} for n = {total.max()}")
    rest = total.copy()
    out = np.zeros_like(cells)
    for c in range(cells.shape[-1]):  # 2G cells; the body is vectorised over trials
        good = cells[..., c]
        rest -= good
        draw = rng.hypergeometric(good, rest, left) if np.any(left) else np.zeros_like(left)
        out[..., c] = draw
        left -= draw
    g = pos.shape[-1]
    return out[..., :g], out[..., g:]


def geometric_noise(shape, epsilon, rng: np.random.Generator) -> np.ndarray:
    """Two-sided geometric noise P(j) ~ e^(-eps |j|): a difference of two geometrics."""
    p = -np.expm1(-epsilon)
    return rng.geometric(p, size=shape) - rng.geometric(p, size=shape)


def gaussian_noise(shape, sigma, rng: np.random.Generator) -> np.ndarray:
    j, pmf = discrete_gaussian_pmf(sigma)
    return rng.choice(j, size=shape, p=pmf)


def subsampled_count(k: int, n: int, m: int, trials: int, rng: np.random.Generator) -> np.ndarray:
    """The count of ones among m of n rows (k ones) drawn without replacement."""
    return rng.hypergeometric(k, n - k, m, size=trials)


def tight_pure(gamma, epsilon):
    """log(1 + gamma (e^eps - 1)): the exact privacy of the subsampled geometric count."""
    return float(np.log1p(gamma * np.expm1(epsilon)))


# the noises of the subsampled counts and the subsample itself, at the functions the
# mechanisms of Lemmas 29-34 call (the sample size m of n rows sets the rate gamma = m/n)
GEOMETRIC = NoiseSource("geometric", "geometric", "privbounds.simulators.wlf.subsample:geometric_noise",
                        param="epsilon", arg="epsilon",
                        what="two-sided geometric noise P(j) ~ e^(-eps |j|)")
GAUSSIAN = NoiseSource("gaussian", "gaussian", "privbounds.simulators.wlf.subsample:gaussian_noise", arg="sigma",
                       what="discrete Gaussian, sigma")
SUBSAMPLE = NoiseSource("subsample", "subsampling", "privbounds.simulators.wlf.subsample:subsampled_count",
                        param="rate", arg="m",
                        what="m of n rows without replacement (rate m/n)")


@noise_sources(GEOMETRIC, SUBSAMPLE)
def geometric_sub_events(budget, trials, rng, n, m, epsilon):
    """The two-sided geometric count (eps x budget) on m of n rows: D has no ones, D' one;
    E = {output >= 1}. On D' the one is drawn with probability m/n and the noise tail
    ratio is e^eps exactly, so the event's ratio is 1 + (m/n)(e^eps - 1): the audit is
    tight at the declared log(1 + gamma (e^eps - 1)), and the doubled budget gives
    log(1 + gamma (e^(2 eps) - 1))."""
    eps = epsilon * budget
    a = subsampled_count(0, n, m, trials, rng) + geometric_noise(trials, eps, rng)
    b = subsampled_count(1, n, m, trials, rng) + geometric_noise(trials, eps, rng)
    return a >= 1, b >= 1


@noise_sources(SUBSAMPLE)
def count_sub_events(budget, trials, rng, n, m):
    """The exact count (no noise: (0, m/n)-DP by Lemma 29) on m of n rows; its one
    privacy parameter is the rate m/n, which the budget multiplies. D: no ones, D': one;
    E = {count >= 1}: probability 0 on D and m/n on D'."""
    mm = int(min(n, round(m * budget)))
    return subsampled_count(0, n, mm, trials, rng) >= 1, subsampled_count(1, n, mm, trials, rng) >= 1


@noise_sources(GAUSSIAN, SUBSAMPLE)
def gaussian_sub_events(budget, trials, rng, n, m, sigma, threshold):
    """The discrete Gaussian count on m of n rows with its privacy budget x ``budget``
    (sigma / budget); D: no ones, D': one; E = {output >= threshold}."""
    s = sigma / budget
    a = subsampled_count(0, n, m, trials, rng) + gaussian_noise(trials, s, rng)
    b = subsampled_count(1, n, m, trials, rng) + gaussian_noise(trials, s, rng)
    return a >= threshold, b >= threshold


def gaussian_sub_declared(n, m, sigma, threshold):
    """The exact (eps, delta) the subsampled discrete Gaussian count has on the audit's
    event at budget 1, for declaring: eps = the event's log-ratio plus 0.05 and delta =
    the exact profile of the worst pair at that eps (so the declaration is the mechanism's
    own exact guarantee, checked by the sampler)."""
    k = np.arange(n)
    p = subsampled_gaussian_pmf(n, k, m, sigma)
    q = subsampled_gaussian_pmf(n, k + 1, m, sigma)
    W = (p.shape[1] - m - 1) // 2
    o = np.arange(p.shape[1]) - W
    ev = o >= threshold
    ratio = float(np.log(q[0, ev].sum() / p[0, ev].sum()))
    eps = ratio + 0.05
    return eps, float(np.max(approx_delta(p, q, eps)))


@noise_sources(finite.ALG1)
def alg1_sub_events(budget, trials, rng, bits=3, n=4, m=2, j=0, epsilon=2.0):
    """Algorithm 1 on P-fin run on m of n rows (Lemma 4's learner). D: n - 1 rows
    (x_{G-1}, 1) and one row (x_j, 0); D' relabels that row 1 (the instance of
    ``finite.alg1_events``); E = {h_t with t <= j}. Algorithm 1 at nominal eps x budget
    with the paper's Delta q = 2/m on its m rows (realised eps/2); the changed row is in
    the subset with probability m/n, and then the subset holds it and m - 1 rows
    (x_{G-1}, 1), else m rows (x_{G-1}, 1)."""
    g = 1 << bits
    pos = np.zeros((3, g), int)
    neg = np.zeros((3, g), int)
    pos[:, g - 1] = [m, m - 1, m - 1]
    neg[1, j] = 1  # the subset holds the row of D
    pos[2, j] += 1  # ... or of D'
    logp = finite.alg1_log_probs(finite.error_counts(pos, neg), m, epsilon * budget)
    out = []
    for row in (1, 2):
        held = rng.random(trials) < m / n
        pick = np.where(held, row, 0)
        h = finite.sample_hypotheses(logp[pick], rng)
        out.append(h <= j)
    return out[0], out[1]


# --- Lemma 34 -------------------------------------------------------------------------------


class WlfLem34(Simulator):
    """Exact privacy loss of the two-sided geometric count on a gamma-fraction of the rows."""

    theorem_id = "wlf.lem34"
    measure = "mean"
    params = {"epsilon": EPSILON, "gamma": GAMMA, "learner": Options(("geometric",))}
    SIZES = (100, 400)

    def grid(self, fidelity, overrides):
        if fidelity == "smoke":
            return expand({"learner": ["geometric"], "epsilon": [1.0], "gamma": [0.05, 0.5]}, overrides)
        return expand({"learner": ["geometric"], "epsilon": [0.5, 1.0, 2.0, 4.0],
                       "gamma": [0.01, 0.05, 0.1, 0.2, 0.5]}, overrides)

    def check_point(self, point):
        super().check_point(point)
        subsample_size(min(self.SIZES), point["gamma"])

    def curve(self, point):
        return list(self.SIZES)

    def privacy(self, point):
        from privbounds.bounds.wlf import lem34_exact_form

        g, e = point["gamma"], point["epsilon"]
        return {"epsilon": float(lem34_exact_form(g, e)), "delta": 0.0,
                "accounting": f"two-sided geometric count ({e:g}-DP) on floor(gamma n) of n rows: Lemma 34's "
                              "exact form log((1 + gamma (e^eps - 1)) / (1 + gamma (e^-eps - 1)))"}

    def audits(self):
        return [AuditCase(f"geometric-sub-g{g:g}", f"two-sided geometric count at eps = 1 on {m} of {n} rows "
                          f"(gamma = {g:g}); declared the tight log(1 + gamma (e - 1)), below Lemma 34's bounds",
                          f"{n} rows with no ones versus one", "output >= 1", tight_pure(g, 1.0), 0.0,
                          geometric_sub_events, {"n": n, "m": m, "epsilon": 1.0}, trials=200_000)
                for g, n, m in ((0.05, 100, 5), (0.5, 100, 50))]

    def run_trials(self, point, n, trials, rng):
        m = subsample_size(n, point["gamma"])
        return subsampled_geometric_loss(n, neighbour_pairs(n, trials, rng), m, point["epsilon"])


# --- Lemma 4 -----------------------------------------------------------------------------------

LEM4_MEASURES = ("privacy_loss", "excess_risk_subsampled", "excess_risk_base", "excess_risk_difference")


class WlfLem4(Simulator):
    """Lemma 4: privacy of the sqrt(n)-subsample (exact, geometric count) and the
    consistency transfer of Algorithm 1 on P-fin."""

    theorem_id = "wlf.lem4"
    measure = "mean"
    params = {"epsilon": EPSILON, "measure": Options(LEM4_MEASURES),
              "bits": Interval(2, 10, "both", integer=True)}
    LEARNER = {"privacy_loss": "geometric", "excess_risk_subsampled": "alg1_sub", "excess_risk_base": "alg1",
               "excess_risk_difference": "alg1_sub"}

    def grid(self, fidelity, overrides):
        eps = [1.0] if fidelity == "smoke" else [0.5, 1.0, 2.0]
        pts = expand({"measure": ["privacy_loss"], "epsilon": eps, "bits": [6]}, overrides)
        pts += expand({"measure": list(LEM4_MEASURES[1:]), "epsilon": [1.0], "bits": [6]}, overrides)
        return [{**p, "learner": self.LEARNER[p["measure"]]} for p in pts]

    def curve(self, point):
        if point["measure"] == "privacy_loss":
            return [16, 64, 256, 1024, 4096]
        return [100, 400, 1600, 6400, 25600]

    def privacy(self, point):
        from privbounds.bounds.wlf import lem4_privacy

        e = point["epsilon"]
        if point["measure"] == "excess_risk_base":
            return {"epsilon": e, "delta": 0.0,
                    "accounting": f"Algorithm 1 at nominal eps = {e:g} (Delta q = 2/n: realised eps/2) on "
                                  "floor(sqrt n) rows"}
        what = "two-sided geometric count" if point["measure"] == "privacy_loss" else "Algorithm 1 (nominal eps)"
        return {"epsilon": float(lem4_privacy(min(self.curve(point)), e)), "delta": 0.0,
                "accounting": f"{what} at eps = {e:g} on floor(sqrt n) of n rows: Lemma 4's "
                              "(2/sqrt n)(e^eps - e^-eps) at the smallest n of the curve (smaller at larger n)"}

    def audits(self):
        cases = [AuditCase(f"geometric-sqrt-n{n}", f"two-sided geometric count at eps = 1 on floor(sqrt n) = {m} "
                           f"of n = {n} rows; declared the tight log(1 + (m/n)(e - 1))",
                           f"{n} rows with no ones versus one", "output >= 1", tight_pure(m / n, 1.0), 0.0,
                           geometric_sub_events, {"n": n, "m": m, "epsilon": 1.0}, trials=200_000)
                 for n, m in ((16, 4), (256, 16))]
        # Alg 1 at nominal 2 (realised 1) on 2 of 4 rows: the event's exact log-ratio is
        # 0.431 (budget 1) and 0.834 (doubled); declared log(1 + (1/2)(e^1 - 1)) = 0.620
        cases.append(AuditCase("alg1-sqrt-n4", "Algorithm 1 on P-fin (bits 3) at nominal eps = 2 (realised 1) "
                               "on floor(sqrt 4) = 2 of 4 rows; declared log(1 + (1/2)(e^1 - 1))",
                               "3 rows (x_7, 1) and (x_0, 0) versus (x_0, 1)", "h_0 (the threshold below x_0)",
                               tight_pure(0.5, 1.0), 0.0, alg1_sub_events,
                               {"bits": 3, "n": 4, "m": 2, "j": 0, "epsilon": 2.0}, trials=200_000))
        cases.append(AuditCase("alg1-base", "Algorithm 1 on P-fin (bits 3, 4 rows) at nominal eps = 2: "
                               "realised eps/2 = 1 with Delta q = 2/n", "3 rows (x_7, 1) and (x_0, 0) versus (x_0, 1)",
                               "h_0", 1.0, 0.0, finite.alg1_events, {"bits": 3, "n": 4, "j": 0, "epsilon": 2.0},
                               trials=200_000))
        return cases

    def run_trials(self, point, n, trials, rng):
        m = sqrt_size(n)
        what = point["measure"]
        if what == "privacy_loss":
            return subsampled_geometric_loss(n, neighbour_pairs(n, trials, rng), m, point["epsilon"])
        prob = finite.uniform_problem(point["bits"])
        eps = point["epsilon"]

        def excess(pos, neg, size):
            errs = finite.error_counts(pos, neg)
            return finite.excess_quantities(prob, errs, finite.alg1_log_probs(errs, size, eps), size)["excess_risk"]

        out = np.zeros(trials)
        if what in ("excess_risk_subsampled", "excess_risk_difference"):
            pos, neg = prob.sample(n, trials, rng)
            out += excess(*subsample_histograms(pos, neg, m, rng), m)
        if what in ("excess_risk_base", "excess_risk_difference"):
            sign = -1.0 if what == "excess_risk_difference" else 1.0
            out += sign * excess(*prob.sample(m, trials, rng), m)  # fresh iid rows: the base learner
        return out


# --- Lemma 29 ----------------------------------------------------------------------------------


class WlfLem29(Simulator):
    """Exact delta at eps = 0 (the TV) of the exact count on floor(sqrt n) of n rows."""

    theorem_id = "wlf.lem29"
    measure = "mean"
    params = {"learner": Options(("subsample",))}
    EPS0 = 1e-3  # (0, delta)-DP is recorded with this epsilon: a declared epsilon must be positive

    def grid(self, fidelity, overrides):
        return expand({"learner": ["subsample"]}, overrides)

    def curve(self, point):
        return [16, 50, 256, 1000, 4096]  # squares, where floor(sqrt n)/n = 1/sqrt n, and not

    def privacy(self, point):
        return {"epsilon": self.EPS0, "delta": 0.25,
                "accounting": "the exact count (non-private) on floor(sqrt n) of n rows: (0, floor(sqrt n)/n)-DP "
                              "(Lemma 29), 0.25 at the smallest n = 16; recorded with eps = 0.001 since a declared "
                              "epsilon must be positive"}

    def audits(self):
        return [AuditCase(f"count-sqrt-n{n}", f"the exact count on floor(sqrt n) = {m} of n = {n} rows: "
                          f"(0, {m}/{n})-DP, declared (0.001, {m / n:g}); the budget multiplies the rate",
                          f"{n} rows with no ones versus one", "count >= 1", self.EPS0, m / n, count_sub_events,
                          {"n": n, "m": m}, trials=100_000)
                for n, m in ((16, 4), (256, 16))]

    def run_trials(self, point, n, trials, rng):
        m = sqrt_size(n)
        k = neighbour_pairs(n, trials, rng)
        return tv(np.exp(hypergeom_logpmf(n, k, m)), np.exp(hypergeom_logpmf(n, k + 1, m)))


# --- Lemma 31 ----------------------------------------------------------------------------------


def lem31_epsilon(gamma, epsilon):
    return float(np.log1p(gamma * np.exp(epsilon) * np.expm1(epsilon)))


class WlfLem31(Simulator):
    """Exact delta of the subsampled discrete Gaussian count at Lemma 31's eps' (and, for
    reference, at the tight log(1 + gamma (e^eps - 1)))."""

    theorem_id = "wlf.lem31"
    measure = "mean"
    params = {"sigma": Interval(0.25, 16, "both"), "epsilon": EPSILON, "gamma": GAMMA,
              "measure": Options(("delta_lemma", "delta_tight")),
              "learner": Options(("gaussian_sub",))}
    SIZES = (20, 100)

    def grid(self, fidelity, overrides):
        if fidelity == "smoke":
            axes = {"sigma": [1.0], "epsilon": [1.0], "gamma": [0.1, 0.5]}
        else:
            axes = {"sigma": [1.0, 2.0], "epsilon": [0.5, 1.0, 2.0], "gamma": [0.05, 0.1, 0.2, 0.5]}
        return expand({"learner": ["gaussian_sub"], **axes, "measure": ["delta_lemma", "delta_tight"]}, overrides)

    def check_point(self, point):
        super().check_point(point)
        subsample_size(min(self.SIZES), point["gamma"])

    def curve(self, point):
        return list(self.SIZES)

    def target_epsilon(self, point) -> float:
        g, e = point["gamma"], point["epsilon"]
        return lem31_epsilon(g, e) if point["measure"] == "delta_lemma" else tight_pure(g, e)

    def privacy(self, point):
        g, e, s = point["gamma"], point["epsilon"], point["sigma"]
        d = float(gaussian_delta(s, e))
        return {"epsilon": lem31_epsilon(g, e), "delta": g * np.exp(e) * d,
                "accounting": f"discrete Gaussian count (sigma {s:g}: ({e:g}, {d:.3g})-DP) on floor(gamma n) of n "
                              "rows: Lemma 31's (log(1 + gamma e^eps (e^eps - 1)), gamma e^eps delta)"}

    def audits(self):
        cases = []
        for n, m, sigma, t in ((10, 5, 1.0, 2), (20, 2, 1.0, 2)):
            eps, delta = gaussian_sub_declared(n, m, sigma, t)
            cases.append(AuditCase(
                f"gaussian-sub-g{m / n:g}", f"discrete Gaussian count (sigma = {sigma:g}) on {m} of {n} rows "
                f"(gamma = {m / n:g}); declared its exact profile at eps = the event's ratio + 0.05",
                f"{n} rows with no ones versus one", f"output >= {t}", eps, delta, gaussian_sub_events,
                {"n": n, "m": m, "sigma": sigma, "threshold": t}, trials=200_000))
        return cases

    def run_trials(self, point, n, trials, rng):
        m = subsample_size(n, point["gamma"])
        k = neighbour_pairs(n, trials, rng)
        p = subsampled_gaussian_pmf(n, k, m, point["sigma"])
        q = subsampled_gaussian_pmf(n, k + 1, m, point["sigma"])
        return approx_delta(p, q, self.target_epsilon(point))


# --- Proposition 33 (i) --------------------------------------------------------------------


@noise_sources(SUBSAMPLE)
def erm_sub_events(budget, trials, rng, bits, n, m):
    """Non-private ERM (smallest minimiser) on P-fin run on m of n rows ((0, m/n)-DP by
    Lemma 29; the budget multiplies the rate). D: n rows (x_{G-1}, 1), where ERM outputs
    h_0; D' replaces one by (x_0, 0), and ERM outputs h_1 whenever that row is drawn.
    E = {h_0}: probability 1 on D and 1 - m/n on D'."""
    g = 1 << bits
    mm = int(min(n, round(m * budget)))
    out = []
    for k in (0, 1):  # rows (x_0, 0) in the dataset
        j = subsampled_count(k, n, mm, trials, rng)
        pos = np.zeros((trials, g), int)
        neg = np.zeros((trials, g), int)
        pos[:, g - 1] = mm - j
        neg[:, 0] = j
        out.append(np.argmin(finite.error_counts(pos, neg), axis=1) == 0)
    return out[0], out[1]


class WlfProp33(Simulator):
    """Part (i) of the phase transition: ERM on a delta~(n) = n^-1/2 fraction of P-fin's
    rows; its exact delta (TV) on the designed neighbouring pairs and its excess risk."""

    theorem_id = "wlf.prop33"
    measure = "mean"
    params = {"measure": Options(("excess_risk", "privacy_delta")),
              "bits": Interval(2, 10, "both", integer=True),
              "learner": Options(("subsample",))}
    EPS0 = 1e-3

    def grid(self, fidelity, overrides):
        return expand({"learner": ["subsample"], "measure": ["excess_risk", "privacy_delta"], "bits": [6]},
                      overrides)

    def curve(self, point):
        return [100, 1000, 10_000, 100_000, 1_000_000]

    def privacy(self, point):
        return {"epsilon": self.EPS0, "delta": 0.1,
                "accounting": "non-private ERM on floor(sqrt n) of n rows: (0, floor(sqrt n)/n)-DP (Lemma 29), "
                              "0.1 at the smallest n = 100; recorded with eps = 0.001 since a declared epsilon "
                              "must be positive"}

    def audits(self):
        return [AuditCase(f"erm-sqrt-n{n}", f"ERM on P-fin (bits 3) on floor(sqrt n) = {m} of n = {n} rows: "
                          f"(0, {m}/{n})-DP, declared (0.001, {m / n:g}); the budget multiplies the rate",
                          f"{n} rows (x_7, 1) versus one of them replaced by (x_0, 0)", "ERM outputs h_0",
                          self.EPS0, m / n, erm_sub_events, {"bits": 3, "n": n, "m": m}, trials=100_000)
                for n, m in ((16, 4), (100, 10))]

    def run_trials(self, point, n, trials, rng):
        m = sqrt_size(n)
        if point["measure"] == "privacy_delta":
            # designed pairs: k rows (x_0, 0), the others (x_{G-1}, 1): ERM outputs h_0 iff no
            # (x_0, 0) row is drawn, so the TV is |P_k(none drawn) - P_{k+1}(none drawn)|
            k = neighbour_pairs(n, trials, rng)
            return np.abs(np.exp(hypergeom_logpmf(n, k, m)[:, 0]) - np.exp(hypergeom_logpmf(n, k + 1, m)[:, 0]))
        prob = finite.uniform_problem(point["bits"])
        pos, neg = subsample_histograms(*prob.sample(n, trials, rng), m, rng)
        h = np.argmin(finite.error_counts(pos, neg), axis=1)
        risk = prob.risks()
        return risk[h] - risk.min()
