"""Wang, Lei and Fienberg, "Learning with Differential Privacy" (JMLR 2016): thresholds on
[0, 1] with 0-1 loss (P-thr), for Proposition 12 (learnable but not privately learnable),
Theorem 15 (private D-learnability under a density bound) and Example 24 (Algorithm 1 on a
data-independent cover).

H = thresholds h in [0, 1], h(x) = 1 iff x > h; loss 1{h(x) != y}. Algorithm 1 with the
paper's Delta q = 2/n samples h with density (w.r.t. a base measure) proportional to
exp(-eps * errors(h) / 4).

- Lebesgue base measure (``interval_log_probs``): the n sorted points cut [0, 1] into n + 1
  intervals on which the error count is constant, so Alg 1 picks interval j with
  probability proportional to length_j exp(-eps errors_j / 4), then h uniformly inside.
  Everything is in LOG SPACE: a dataset is x = base + w u with its relative positions u
  in [-1/2, 1/2] and ln w kept separately, so the inner lengths are ln w + ln(du) and a
  window of width 10^-40 (or 10^-1000) loses nothing. Exact over h; only the data are
  random.
- A cover (``cover_log_probs``, Ex 24): the points {0, r, 2r, ..., 1}, r = alpha / c, with
  counting measure: Alg 1 on a finite class (simulators/wlf/finite.py's algorithm).

Risks are exact: for x uniform on an interval J (density c on J) and clean labels from a
target t, R(h) = |F(h) - F(t)| with F the CDF, and its mean over an interval of thresholds
is a difference of the integral of F (``mean_risk``). Realised privacy: the true
sensitivity of the empirical risk is 1/n, so Alg 1 at nominal eps is eps/2-DP; the audits
declare eps/2.
"""

from __future__ import annotations

import numpy as np
from scipy.special import log_softmax

from privbounds.bounds.wlf import wlf_cover_size, wlf_ex20_epsilon
from privbounds.params import EPSILON, Interval, Options
from privbounds.simulators.engine.audit import AuditCase, NoiseSource, noise_sources
from privbounds.simulators.engine.simulator import Fidelity, Simulator
from privbounds.simulators.wlf.finite import alg1_events

LN10 = np.log(10.0)
FIDELITIES = {"smoke": Fidelity(trials=8, block=8, steps=1, audit=0.25),
              "quick": Fidelity(trials=30, block=30, steps=1, audit=1.0),
              "full": Fidelity(trials=200, block=100, steps=1, audit=2.0)}


# --- datasets ------------------------------------------------------------------------------

def cluster_data(n: int, trials: int, rng: np.random.Generator):
    """Prop 12's cluster datasets: relative positions u, half uniform in [-1/2, 0) labelled 0
    and half in (0, 1/2] labelled 1 (the window's centre is the zero-error threshold);
    returned sorted, with labels (trials, n) and a random centre in [0.25, 0.75]."""
    half = n // 2
    left = -0.5 * rng.random((trials, half))
    right = 0.5 * (1.0 - rng.random((trials, n - half)))
    u = np.sort(np.concatenate([left, right], axis=1), axis=1)
    labels = np.concatenate([np.zeros((trials, half), int), np.ones((trials, n - half), int)], axis=1)
    return u, labels, rng.uniform(0.25, 0.75, trials)


def interval_support(c: float, target: np.ndarray):
    """D_c's worst members: x uniform on J of length 1/c centred on the target (J = [0, 1] at c = 1)."""
    if c <= 1:
        return np.zeros_like(target), np.ones_like(target)
    return target - 0.5 / c, target + 0.5 / c


def density_data(n: int, trials: int, c: float, rng: np.random.Generator):
    """Sorted x ~ U(J) with clean labels 1{x > t}, t ~ U[0.25, 0.75]: (x, labels, t, a, b)."""
    t = rng.uniform(0.25, 0.75, trials)
    a, b = interval_support(c, t)
    x = np.sort(a[:, None] + (b - a)[:, None] * rng.random((trials, n)), axis=1)
    return x, (x > t[:, None]).astype(int), t, a, b


# --- Algorithm 1 with Lebesgue base measure ------------------------------------------------

def interval_errors(labels: np.ndarray) -> np.ndarray:
    """Error count of the thresholds in each of the n + 1 intervals (sorted data): the
    positives at or below h plus the negatives above it. Shape (trials, n + 1)."""
    zero = np.zeros(labels.shape[:-1] + (1,), int)
    pos_before = np.concatenate([zero, np.cumsum(labels, axis=-1)], axis=-1)
    neg_before = np.arange(labels.shape[-1] + 1) - pos_before
    return pos_before + (neg_before[..., -1:] - neg_before)


def interval_log_lengths(u: np.ndarray, base, log_scale) -> np.ndarray:
    """ln length of the n + 1 intervals of [0, 1] cut by x = base + e^log_scale u (sorted u):
    the two outer ones from their ends, the inner ones as ln w + ln(du) (no cancellation)."""
    base = np.asarray(base, float)[..., None]
    ls = np.asarray(log_scale, float)[..., None]
    scale = np.exp(ls)  # may underflow to 0 for tiny windows: the outer lengths are then exact anyway
    first = np.log(base + scale * u[..., :1])
    last = np.log1p(-(base + scale * u[..., -1:]))
    with np.errstate(divide="ignore"):
        inner = ls + np.log(np.diff(u, axis=-1))
    return np.concatenate([first, inner, last], axis=-1)


def alg1_weights(errors: np.ndarray, n: int, epsilon, sensitivity: float | None = None) -> np.ndarray:
    """The exponent eps q / (2 Delta q) of Alg 1 with q = -errors / n (Delta q = 2/n by default)."""
    sens = 2.0 / n if sensitivity is None else sensitivity
    eps = np.asarray(epsilon, float)
    if np.any(eps <= 0):
        raise ValueError(f"epsilon must be > 0, got {epsilon!r}")
    return -(eps / (2.0 * sens)) * (errors / n)


def interval_log_probs(log_len: np.ndarray, errors: np.ndarray, n: int, epsilon,
                       sensitivity: float | None = None) -> np.ndarray:
    """ln P(Alg 1 picks interval j), by log-sum-exp over ln length + exponent."""
    return log_softmax(log_len + alg1_weights(errors, n, epsilon, sensitivity), axis=-1)


def sample_thresholds(logp: np.ndarray, left: np.ndarray, length: np.ndarray, rng) -> np.ndarray:
    """h ~ Alg 1: an interval by Gumbel-max on its log-probability, then uniform inside."""
    j = np.argmax(logp + rng.gumbel(size=logp.shape), axis=-1)
    rows = np.arange(logp.shape[0])
    return left[rows, j] + rng.random(logp.shape[0]) * length[rows, j]


def aerm_gap(logp: np.ndarray, errors: np.ndarray, n: int) -> np.ndarray:
    """E_{h~A(Z)} R_hat(h, Z) - R_hat*(Z), exact over h."""
    return np.sum(np.exp(logp) * errors, axis=-1) / n - errors.min(axis=-1) / n


def cluster_aerm_gap(u, labels, log10_inv_w, epsilon, base=0.5, sensitivity=None) -> np.ndarray:
    """AERM gap of Alg 1 on the cluster dataset of relative positions u in a window of width
    10^-log10_inv_w (translation invariant: the outside of the window always has length 1 - w
    times span and half the points wrong)."""
    n = u.shape[-1]
    errs = interval_errors(labels)
    log_len = interval_log_lengths(u, np.broadcast_to(base, u.shape[:-1]), -log10_inv_w * LN10)
    return aerm_gap(interval_log_probs(log_len, errs, n, epsilon, sensitivity), errs, n)


def _cdf_integral(x, a, b):
    """Phi(x) = integral_0^x F, F the CDF of U(a, b)."""
    c = 1.0 / (b - a)
    return 0.5 * c * (np.clip(x, a, b) - a) ** 2 + np.maximum(0.0, x - b)


def mean_risk(lo, hi, t, a, b):
    """Mean of R(h) = |F(h) - F(t)| over h uniform in [lo, hi] (clean labels, x ~ U(a, b))."""
    def F(x):
        return np.clip((x - a) / (b - a), 0.0, 1.0)
    ft = F(t)
    r_lo, r_hi = np.maximum(lo, t), np.maximum(hi, t)
    l_lo, l_hi = np.minimum(lo, t), np.minimum(hi, t)
    right = _cdf_integral(r_hi, a, b) - _cdf_integral(r_lo, a, b) - ft * (r_hi - r_lo)
    left = ft * (l_hi - l_lo) - (_cdf_integral(l_hi, a, b) - _cdf_integral(l_lo, a, b))
    length = hi - lo
    short = length < 1e-9  # below this the difference of integrals loses its digits
    with np.errstate(divide="ignore", invalid="ignore"):
        avg = (right + left) / np.where(short, 1.0, length)
    return np.where(short, np.abs(F(0.5 * (lo + hi)) - ft), avg)


def lebesgue_quantities(x, labels, t, a, b, epsilon, sensitivity=None):
    """(AERM gap, excess risk) of Alg 1 with Lebesgue measure on each dataset, exact over h."""
    n = x.shape[-1]
    errs = interval_errors(labels)
    logp = interval_log_probs(interval_log_lengths(x, np.zeros(x.shape[0]), 0.0), errs, n, epsilon,
                              sensitivity)
    edges = np.concatenate([np.zeros((x.shape[0], 1)), x, np.ones((x.shape[0], 1))], axis=1)
    risk = mean_risk(edges[:, :-1], edges[:, 1:], t[:, None], a[:, None], b[:, None])
    return aerm_gap(logp, errs, n), np.sum(np.exp(logp) * risk, axis=-1)  # R* = 0 (clean labels)


# --- Algorithm 1 on Ex 24's cover ----------------------------------------------------------

def cover_errors(x, labels, cover):
    """Error count of every cover threshold on each sorted dataset (batched searchsorted:
    rows shifted apart by 2 so one sorted array holds them all)."""
    trials, n = x.shape
    shift = 2.0 * np.arange(trials)[:, None]
    idx = np.searchsorted((x + shift).ravel(), (cover[None, :] + shift).ravel(), side="right")
    idx = idx.reshape(trials, cover.size) - n * np.arange(trials)[:, None]  # points <= h per row
    pos = np.concatenate([np.zeros((trials, 1), int), np.cumsum(labels, axis=1)], axis=1)
    neg_total_ = n - pos[:, -1:]
    below_pos = np.take_along_axis(pos, idx, axis=1)
    below_neg = idx - below_pos
    return below_pos + (neg_total_ - below_neg)


def cover_quantities(x, labels, t, a, b, c, alpha, epsilon):
    """(AERM gap, excess risk) of Alg 1 (counting measure) on the cover {0, r, ..., 1}, r = alpha/c."""
    n = x.shape[-1]
    size = int(wlf_cover_size(c, alpha))
    cover = np.minimum(np.arange(size) * (alpha / c), 1.0)
    errs = cover_errors(x, labels, cover)
    logp = log_softmax(alg1_weights(errs, n, epsilon), axis=-1)
    risk = np.abs(np.clip((cover[None, :] - a[:, None]) / (b - a)[:, None], 0, 1)
                  - np.clip((t - a) / (b - a), 0, 1)[:, None])
    return aerm_gap(logp, errs, n), np.sum(np.exp(logp) * risk, axis=-1)


# --- privacy audit of the interval sampler -------------------------------------------------

@noise_sources(NoiseSource("alg1-lebesgue", "expmech", "privbounds.simulators.wlf.thresholds:interval_log_probs",
                           param="epsilon", arg="epsilon", what="Alg 1 on thresholds, exp(eps q / (2 Delta q))"))
def interval_events(budget, trials, rng, n=3, a=0.25, top=0.99, epsilon=2.0):
    """Audit events of Alg 1 with Lebesgue measure on thresholds: n - 1 rows (top, 1) and one
    row at x = a labelled 0 (D) or 1 (D'); event h < a. The thresholds below a err on the
    changed row under D only, those between a and top under D' only, so both the density
    and the normaliser move: at nominal eps 2 (declared eps/2 = 1) the exact log-ratio is
    0.744, and 1.478 with the budget doubled. Runs the same sampler as the experiments."""
    x = np.full(n, top)
    x[0] = a
    out = []
    for lab in (0, 1):
        labels = np.ones((1, n), int)
        labels[0, 0] = lab
        u = np.sort(x)[None, :]
        errs = interval_errors(labels)
        log_len = interval_log_lengths(u, np.zeros(1), 0.0)
        logp = np.broadcast_to(interval_log_probs(log_len, errs, n, epsilon * budget), (trials, n + 1))
        left = np.broadcast_to(np.concatenate([[0.0], u[0]]), (trials, n + 1))
        h = sample_thresholds(logp, left, np.broadcast_to(np.exp(log_len), (trials, n + 1)), rng)
        out.append(h < a)
    return out[0], out[1]


def interval_audit() -> AuditCase:
    return AuditCase("alg1-lebesgue", "Algorithm 1 on thresholds, Lebesgue base measure, nominal eps = 2 "
                     "(Delta q = 2/n: realised eps 1)", "2 rows (0.99, 1) and a row (0.25, 0) versus (0.25, 1)",
                     "h < 0.25", 1.0, 0.0, interval_events, {"n": 3, "a": 0.25, "epsilon": 2.0})


def cover_audit() -> AuditCase:
    return AuditCase("alg1-cover", "Algorithm 1 on a finite cover of thresholds (counting measure), nominal "
                     "eps = 2 (realised 1)", "3 rows (x_7, 1) and a row (x_0, 0) versus (x_0, 1) on an 8-point grid",
                     "h_t with t <= 0", 1.0, 0.0, alg1_events, {"bits": 3, "n": 4, "j": 0, "epsilon": 2.0})


# --- simulators ------------------------------------------------------------------------------

SUP_DECADES = tuple(range(1, 41))  # the windows 10^-1 .. 10^-40 of the worst-case search


class WlfProp12(Simulator):
    """Prop 12: Algorithm 1 (Lebesgue) on cluster datasets of width w (AERM gap against
    ln(1/w)), its worst case over w, and a smooth D for contrast."""

    theorem_id = "wlf.prop12"
    measure = "mean"
    fidelities = FIDELITIES
    params = {"epsilon": EPSILON, "log10_inv_w": Interval(0, 1000, "right"),
              "data": Options(("cluster", "worst", "smooth")),
              "quantity": Options(("aerm_gap", "excess_risk")),
              "learner": Options(("alg1",))}
    _decades = {"smoke": [1, 10, 40], "quick": [1, 2, 3, 5, 8, 12, 16, 20, 30, 40],
                "full": [1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16, 18, 20, 25, 30, 35, 40]}

    def grid(self, fidelity, overrides):
        eps = overrides.get("epsilon", [0.5, 1.0])
        decades = overrides.get("log10_inv_w", self._decades[fidelity])
        pts = []
        for e in eps:
            pts += [{"learner": "alg1", "data": "cluster", "quantity": "aerm_gap", "epsilon": e,
                     "log10_inv_w": k} for k in decades]
            pts.append({"learner": "alg1", "data": "worst", "quantity": "aerm_gap", "epsilon": e,
                        "log10_inv_w": max(decades)})
            pts += [{"learner": "alg1", "data": "smooth", "quantity": q, "epsilon": e}
                    for q in ("aerm_gap", "excess_risk")]
        return pts

    def curve(self, point):
        if point["data"] == "smooth":
            return [20, 50, 100, 200, 400, 800, 1600, 3200]
        return [20, 50, 100, 200]

    def privacy(self, point):
        return {"epsilon": point["epsilon"] / 2, "delta": 0.0,
                "accounting": f"Algorithm 1 at nominal eps = {point['epsilon']:g} with Delta q = 2/n: realised eps/2"}

    def audits(self):
        return [interval_audit()]

    def run_trials(self, point, n, trials, rng):
        eps = point["epsilon"]
        if point["data"] == "smooth":
            x, labels, t, a, b = density_data(n, trials, 1.0, rng)
            gap, er = lebesgue_quantities(x, labels, t, a, b, eps)
            return gap if point["quantity"] == "aerm_gap" else er
        u, labels, centre = cluster_data(n, trials, rng)
        if point["data"] == "cluster":
            return cluster_aerm_gap(u, labels, point["log10_inv_w"], eps, centre)
        # the worst case over the family of windows 10^-1 .. 10^-k, per dataset
        ks = [k for k in SUP_DECADES if k <= point["log10_inv_w"]] or [point["log10_inv_w"]]
        return np.max([cluster_aerm_gap(u, labels, k, eps, centre) for k in ks], axis=0)


def _lebesgue_epsilon(n):
    """Thm 15's schedule eps(n) = sqrt(ln n / n)."""
    return float(np.sqrt(np.log(n) / n))


class WlfThm15(Simulator):
    """Thm 15 / Ex 24: Alg 1 on thresholds for D with density <= c, with Lebesgue measure
    (eps(n) = sqrt(ln n / n)) or on Ex 24's cover (eps(n) = sqrt((M + ln n)/n))."""

    theorem_id = "wlf.thm15"
    measure = "mean"
    fidelities = FIDELITIES
    params = {"c": Interval(1, 1e6, "both"), "alpha": Interval(0, 1, "neither"),
              "learner": Options(("alg1", "net")),
              "quantity": Options(("aerm_gap", "excess_risk"))}
    learners = ("alg1", "net")
    sizes = (100, 300, 1000, 3000, 10000, 30000)

    def grid(self, fidelity, overrides):
        pts = []
        for learner in self.learners:
            for c in overrides.get("c", [1.0, 10.0, 100.0, 1000.0]):
                for q in ("aerm_gap", "excess_risk"):
                    p = {"learner": learner, "c": c, "quantity": q}
                    if learner == "net":
                        p["alpha"] = overrides.get("alpha", [0.05])[0]
                    pts.append(p)
        return pts

    def curve(self, point):
        return list(self.sizes)

    def epsilon(self, point, n):
        if point["learner"] == "alg1":
            return _lebesgue_epsilon(n)
        return float(wlf_ex20_epsilon(n, np.log2(wlf_cover_size(point["c"], point["alpha"]))))

    def privacy(self, point):
        n0 = self.curve(point)[0]
        return {"epsilon": self.epsilon(point, n0) / 2, "delta": 0.0,
                "accounting": f"Algorithm 1 at nominal eps(n) (largest at n = {n0}), Delta q = 2/n: realised eps(n)/2"}

    def audits(self):
        return [interval_audit(), cover_audit()] if "alg1" in self.learners else [cover_audit()]

    def memory(self, point, n, trials):
        """The cover learner's tables, trials x |cover| (|cover| = c/alpha + 1), about 40 bytes a
        cell (tracemalloc's peak, 4 trials at n = 100, alpha = 0.05: 3.2 MiB at c = 1,000,
        32.1 MiB at c = 10^4, 3,204 MiB at c = 10^6); the Lebesgue learner's are small."""
        if point["learner"] != "net":
            return None
        return 48 * trials * float(wlf_cover_size(point["c"], point["alpha"]))

    def run_trials(self, point, n, trials, rng):
        c = point["c"]
        x, labels, t, a, b = density_data(n, trials, c, rng)
        eps = self.epsilon(point, n)
        if point["learner"] == "alg1":
            gap, er = lebesgue_quantities(x, labels, t, a, b, eps)
        else:
            gap, er = cover_quantities(x, labels, t, a, b, c, point["alpha"], eps)
        return gap if point["quantity"] == "aerm_gap" else er


class WlfEx24(WlfThm15):
    """Ex 24: the cover learner alone, c = 1 .. 1000."""

    theorem_id = "wlf.ex24"
    learners = ("net",)
