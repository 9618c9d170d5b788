"""Wang, Lei and Fienberg, "Learning with Differential Privacy" (JMLR 2016): the Lipschitz
problem P-lip, for Example 21 (Algorithm 1 on a Lipschitz objective over a compact H in
R^d) and Proposition 26 (sampling the log-concave Algorithm 1 density by MCMC).

P-lip: logistic loss scaled into [0, 1], loss(h, (x, y)) = ln(1 + e^(-y <h, x>)) / ln(1 + e^B),
H = [-B, B]^d, ||x||_1 <= 1, so |<h, x>| <= B and the loss is in [0, 1] (A1) and
L-Lipschitz in h for the l_inf norm with L = 1 / ln(1 + e^B). D puts mass 1/m on each of m
fixed points x_j (directions uniform on the l_1 sphere times a radius uniform on [0, 1],
drawn once from a fixed public seed) and labels them y = sign(<w*, x_j>), flipped with
probability 0.1. Because x takes m values, a dataset is its histogram over the 2m cells
(x_j, y), the empirical risk of every grid hypothesis is one matrix product, and R(h) is
EXACT (a dot product with D's cell masses): no test sample and no quadrature.

Algorithm 1 runs on the grid of the given number of points per axis (spacing 2B/grid,
cell centres), with counting measure: the exponential mechanism on a finite,
data-independent cover (the grid), exactly eps-DP, with the cover's approximation cost
at most L spacing / 2 in objective. A grid too coarse for the Lipschitz constant (that cost
above the statistical rate 1/sqrt(n) at the largest n run) is refused. R* is the minimum of
the convex R over the continuous box (scipy, started at the best grid point).

Proposition 26: a random-walk Metropolis chain on the same grid (proposals: the 8
neighbouring cells, rejected outside H) has the grid distribution as its stationary law;
its distribution after t steps from a corner is propagated EXACTLY (a vector over the
cells, one Metropolis step at a time), so the total-variation distance to Algorithm 1's
distribution is exact for each dataset.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from scipy.optimize import minimize
from scipy.special import log_softmax

from privbounds.bounds.wlf import wlf_ex21_epsilon
from privbounds.params import EPSILON, Interval, Options, ParameterError
from privbounds.simulators.engine.audit import AuditCase, NoiseSource, noise_sources
from privbounds.simulators.engine.simulator import Fidelity, Simulator

SUPPORT = 32  # values of x
NOISE = 0.1
TARGETS = {1: (1.0,), 2: (1.0, -0.5)}
FIDELITIES = {"smoke": Fidelity(trials=8, block=8, steps=1, audit=0.25),
              "quick": Fidelity(trials=30, block=30, steps=1, audit=1.0),
              "full": Fidelity(trials=200, block=100, steps=1, audit=2.0)}


def lipschitz(B: float) -> float:
    """l_inf-Lipschitz constant of the scaled logistic loss in h (||x||_1 <= 1)."""
    return 1.0 / np.log1p(np.exp(B))


def scaled_logistic(margin, B: float):
    """ln(1 + e^(-margin)) / ln(1 + e^B), computed without overflow."""
    return np.logaddexp(0.0, -np.asarray(margin, float)) / np.log1p(np.exp(B))


def check_loss_range(values, what: str = "loss") -> None:
    """Refuse losses outside [0, 1] (assumption A1 of the paper; Alg 1's Delta q = 2/n needs it)."""
    v = np.asarray(values, float)
    if v.size and (np.nanmin(v) < -1e-12 or np.nanmax(v) > 1 + 1e-12 or not np.all(np.isfinite(v))):
        raise ParameterError(f"{what} must take values in [0, 1] (assumption A1), got values in "
                             f"[{np.nanmin(v):.4g}, {np.nanmax(v):.4g}]; divide it by its largest value (a loss scale)")


@lru_cache(maxsize=8)
def problem(d: int, B: float):
    """(x (m, d), cell masses (2m,) for labels +1 then -1, cell labels (2m,)) of P-lip."""
    rng = np.random.default_rng(20160000 + d)  # public design: the same points in every run
    g = rng.exponential(size=(SUPPORT, d)) * rng.choice([-1.0, 1.0], size=(SUPPORT, d))
    x = g / np.abs(g).sum(axis=1, keepdims=True) * rng.random((SUPPORT, 1))
    clean = np.where(x @ np.array(TARGETS[d]) >= 0, 1.0, -1.0)
    p_plus = np.where(clean > 0, 1 - NOISE, NOISE) / SUPPORT
    masses = np.concatenate([p_plus, 1.0 / SUPPORT - p_plus])
    labels = np.concatenate([np.ones(SUPPORT), -np.ones(SUPPORT)])
    return x, masses, labels


def grid_points(d: int, B: float, grid: int) -> np.ndarray:
    """Cell centres of the grid with ``grid`` points per axis: shape (grid^d, d)."""
    axis = -B + (np.arange(grid) + 0.5) * (2.0 * B / grid)
    mesh = np.meshgrid(*([axis] * d), indexing="ij")
    return np.stack([m.ravel() for m in mesh], axis=1)


@lru_cache(maxsize=8)
def loss_table(d: int, B: float, grid: int) -> np.ndarray:
    """loss(h_g, cell) for every cell (rows) and grid point (columns), checked in [0, 1]."""
    x, _, labels = problem(d, B)
    xs = np.concatenate([x, x])
    table = scaled_logistic(labels[:, None] * (xs @ grid_points(d, B, grid).T), B)
    check_loss_range(table)
    return table


def risk(h: np.ndarray, d: int, B: float) -> np.ndarray:
    x, masses, labels = problem(d, B)
    xs = np.concatenate([x, x])
    return scaled_logistic(labels[:, None] * (xs @ np.atleast_2d(h).T), B).T @ masses


@lru_cache(maxsize=8)
def best_risk(d: int, B: float) -> float:
    """R* over the continuous box (R is convex): L-BFGS-B from the best point of a fine grid."""
    pts = grid_points(d, B, 201 if d == 1 else 61)
    start = pts[np.argmin(risk(pts, d, B))]
    res = minimize(lambda h: float(risk(h, d, B)[0]), start, method="L-BFGS-B", bounds=[(-B, B)] * d)
    return float(min(res.fun, risk(pts, d, B).min()))


def min_grid(d: int, B: float, n_max: int) -> int:
    """Fewest grid points per axis whose approximation cost L s / 2 is <= 1/sqrt(n_max)."""
    return int(np.ceil(2.0 * B * lipschitz(B) * np.sqrt(n_max) / 2.0))


def check_grid(d: int, B: float, grid: int, n_max: int) -> None:
    need = min_grid(d, B, n_max)
    if grid < need:
        raise ParameterError(
            f"grid must be >= {need} points per axis for B = {B:g} (Lipschitz constant L = {lipschitz(B):.4g}) "
            f"up to n = {n_max}: spacing 2B/grid = {2 * B / grid:.4g} costs L*spacing/2 = "
            f"{lipschitz(B) * B / grid:.4g} > 1/sqrt(n) = {1 / np.sqrt(n_max):.4g}, got {grid}")


def sample_histograms(d: int, B: float, n: int, trials: int, rng) -> np.ndarray:
    _, masses, _ = problem(d, B)
    return rng.multinomial(n, masses, size=trials)


def grid_log_probs(counts: np.ndarray, table: np.ndarray, n: int, epsilon, sensitivity=None) -> np.ndarray:
    """Alg 1 on the grid (counting measure): ln P(h_g) = eps q / (2 Delta q) - ln Z, q = -F,
    F = empirical risk (Delta q = 2/n by default)."""
    sens = 2.0 / n if sensitivity is None else sensitivity
    emp = counts @ table / n
    return log_softmax(-(np.asarray(epsilon, float) / (2.0 * sens)) * emp, axis=-1)


def grid_excess_risk(counts, d, B, grid, n, epsilon):
    """E_{h ~ A(Z)} R(h) - R*, exact over the grid."""
    table = loss_table(d, B, grid)
    _, masses, _ = problem(d, B)
    logp = grid_log_probs(counts, table, n, epsilon)
    return np.exp(logp) @ (masses @ table) - best_risk(d, B)


# --- privacy audit of the grid sampler ----------------------------------------------------

@noise_sources(NoiseSource("alg1-grid", "expmech", "privbounds.simulators.wlf.lipschitz:grid_log_probs",
                           param="epsilon", arg="epsilon", what="Alg 1 on the grid, exp(eps q / (2 Delta q))"))
def grid_events(budget, trials, rng, B=4.0, grid=8, epsilon=2.0, threshold=3.0, others=3):
    """Audit events of Alg 1 on the P-lip grid (d = 1, n = others + 1 rows): ``others`` rows
    (x = 1, y = -1) and one row (x = 1, y = +1) (D) or (x = 1, y = -1) (D'); event
    h > threshold (the top grid point). The fixed rows push D' to the bottom of H, so the
    normaliser moves with the density: at nominal eps 2 (declared 1: Delta q = 2/n) the exact
    log-ratio is 0.534, and 1.185 with the budget doubled, on events of probability 0.007
    to 0.08 (found by a search over small instances). Runs grid_log_probs."""
    h = grid_points(1, B, grid)[:, 0]
    n = others + 1
    out = []
    for y in (1.0, -1.0):
        table = scaled_logistic(np.array([[y], [-1.0]]) * h[None, :], B)
        check_loss_range(table)
        logp = grid_log_probs(np.array([[1, others]]), table, n, epsilon * budget)
        j = np.argmax(np.broadcast_to(logp, (trials, grid)) + rng.gumbel(size=(trials, grid)), axis=1)
        out.append(h[j] > threshold)
    return out[0], out[1]


def grid_audit() -> AuditCase:
    return AuditCase("alg1-grid", "Algorithm 1 on the P-lip grid (scaled logistic loss, B = 4, 8 points), nominal "
                     "eps = 2 (Delta q = 2/n: realised eps 1)",
                     "3 rows (x = 1, y = -1) and a row (x = 1, y = +1) versus (x = 1, y = -1)",
                     "h > 3 (the top grid point)", 1.0, 0.0, grid_events, {"B": 4.0, "grid": 8, "epsilon": 2.0},
                     trials=400_000)


# --- Example 21 -----------------------------------------------------------------------------

class WlfEx21(Simulator):
    """Ex 21: Alg 1 on P-lip (d = 1, 2) with the corrected schedule eps(n), excess risk exact."""

    theorem_id = "wlf.ex21"
    measure = "mean"
    fidelities = FIDELITIES
    params = {"d": Options((1, 2)), "B": Interval(0, 8, "right"),
              "grid": Interval(2, 2000, "both", integer=True),
              "learner": Options(("alg1",))}
    sizes = {1: (50, 200, 800, 3200, 12800, 51200, 204800), 2: (50, 200, 800, 3200, 12800)}

    def grid(self, fidelity, overrides):
        pts = []
        for d in overrides.get("d", [1, 2]):
            for B in overrides.get("B", [2.0]):
                g = overrides.get("grid", [min_grid(d, B, max(self.sizes[d]))])
                pts += [{"learner": "alg1", "d": d, "B": B, "grid": k} for k in g]
        return pts

    def check_point(self, point):
        super().check_point(point)
        check_grid(point["d"], point["B"], point["grid"], max(self.curve(point)))

    def curve(self, point):
        return list(self.sizes[point["d"]])

    def epsilon(self, point, n):
        return float(wlf_ex21_epsilon(n, point["d"], point["B"], lipschitz(point["B"])))

    def privacy(self, point):
        n0 = self.curve(point)[0]
        return {"epsilon": self.epsilon(point, n0) / 2, "delta": 0.0,
                "accounting": f"Algorithm 1 on the grid at nominal eps(n) (largest at n = {n0}), Delta q = 2/n: "
                              "realised eps(n)/2"}

    def audits(self):
        return [grid_audit()]

    def memory(self, point, n, trials):
        """The loss table over the grid's g^d cells, built once a process (about 1.5 KB a cell),
        and about 40 bytes a cell a trial: measured at d = 2, g = 1,000, 1,465 MiB for the first
        2 trials, then 305 MiB for 8 and 1,221 MiB for 32 (tracemalloc's peak)."""
        cells = point["grid"] ** point["d"]
        return 1536 * cells + 40 * cells * trials

    def run_trials(self, point, n, trials, rng):
        d, B, g = point["d"], point["B"], point["grid"]
        counts = sample_histograms(d, B, n, trials, rng)
        return grid_excess_risk(counts, d, B, g, n, self.epsilon(point, n))


# --- Proposition 26 -------------------------------------------------------------------------

MOVES = [(di, dj) for di in (-1, 0, 1) for dj in (-1, 0, 1) if (di, dj) != (0, 0)]


def _shift(a, di, dj):
    """out[..., i, j] = a[..., i - di, j - dj] (zero where that is outside the grid)."""
    out = np.zeros_like(a)
    g = a.shape[-1]
    src_i = slice(max(0, -di), g - max(0, di))
    dst_i = slice(max(0, di), g - max(0, -di))
    src_j = slice(max(0, -dj), g - max(0, dj))
    dst_j = slice(max(0, dj), g - max(0, -dj))
    out[..., dst_i, dst_j] = a[..., src_i, src_j]
    return out


def metropolis_kernel(logpi: np.ndarray):
    """Acceptance probability of each of the 8 neighbour moves from every cell (0 for a
    move off the grid) and the probability of staying: logpi is (trials, g, g)."""
    ones = np.ones_like(logpi)
    accs = []
    for di, dj in MOVES:
        inside = _shift(ones, -di, -dj) > 0  # is (i + di, j + dj) on the grid
        target = _shift(logpi, -di, -dj)  # logpi at (i + di, j + dj)
        accs.append(np.where(inside, np.exp(np.minimum(0.0, np.where(inside, target, 0.0) - logpi)), 0.0) / 8.0)
    return accs, 1.0 - sum(accs)


def metropolis_step(prob: np.ndarray, kernel) -> np.ndarray:
    """One step of the random-walk Metropolis chain (8 neighbour proposals, each 1/8; a move
    off the grid or a rejection stays) applied to distributions over the grid."""
    accs, stay = kernel
    new = prob * stay
    for (di, dj), acc in zip(MOVES, accs):
        new += _shift(prob * acc, di, dj)
    return new


def metropolis_chains(logpi: np.ndarray, start: tuple, steps: int, chains: int, rng) -> np.ndarray:
    """Sampled chains (for checking metropolis_step): final cell indices (chains, 2)."""
    g = logpi.shape[-1]
    pos = np.tile(np.array(start), (chains, 1))
    moves = np.array(MOVES)
    for _ in range(steps):  # the chain is sequential in time; vectorised over chains
        prop = pos + moves[rng.integers(0, 8, chains)]
        ok = np.all((prop >= 0) & (prop < g), axis=1)
        propc = np.clip(prop, 0, g - 1)
        logr = logpi[propc[:, 0], propc[:, 1]] - logpi[pos[:, 0], pos[:, 1]]
        accept = ok & (np.log(rng.random(chains)) < logr)
        pos = np.where(accept[:, None], prop, pos)
    return pos


class WlfProp26(Simulator):
    """Prop 26: exact total variation between the Metropolis chain after t steps (from a
    corner) and Algorithm 1's grid distribution, for random datasets of P-lip (d = 2). The
    engine's n is the number of Metropolis steps t; the data size is n_data."""

    theorem_id = "wlf.prop26"
    measure = "mean"
    fidelities = FIDELITIES
    params = {"epsilon": EPSILON, "n_data": Interval(1, 1 << 17, "both", integer=True),
              "grid": Interval(2, 400, "both", integer=True), "B": Interval(0, 8, "right"),
              "learner": Options(("alg1",)), "sampler": Options(("metropolis",))}
    unaudited = {"the Metropolis chain after t steps": (
        "only approximately private: if its law is within total variation tv of Algorithm 1's on every "
        "dataset, it is (eps, (1 + e^eps) tv)-DP, and a delta that small has no audit event with power; "
        "the exact mechanism it approximates (Alg 1 on the same grid) is audited (alg1-grid)")}

    def grid(self, fidelity, overrides):
        return [{"learner": "alg1", "sampler": "metropolis", "epsilon": e, "n_data": n, "grid": 41, "B": 2.0}
                for e in overrides.get("epsilon", [1.0]) for n in overrides.get("n_data", [100, 1000])]

    def check_point(self, point):
        super().check_point(point)
        check_grid(2, point["B"], point["grid"], point["n_data"])

    def curve(self, point):
        return [10, 30, 100, 300, 1000, 3000]

    def privacy(self, point):
        return {"epsilon": point["epsilon"] / 2, "delta": 0.0,
                "accounting": "the exact target: Algorithm 1 on the grid at nominal eps (realised eps/2); the chain "
                              "after t steps adds delta = (1 + e^eps) TV_t"}

    def audits(self):
        return [grid_audit()]

    def run_trials(self, point, n, trials, rng):
        g, B, m = point["grid"], point["B"], point["n_data"]
        counts = sample_histograms(2, B, m, trials, rng)
        logpi = grid_log_probs(counts, loss_table(2, B, g), m, point["epsilon"]).reshape(trials, g, g)
        prob = np.zeros_like(logpi)
        prob[:, 0, 0] = 1.0  # start in the corner (-B, -B)
        kernel = metropolis_kernel(logpi)
        for _ in range(int(n)):  # t Metropolis steps, exact on the whole distribution
            prob = metropolis_step(prob, kernel)
        return 0.5 * np.abs(prob - np.exp(logpi)).reshape(trials, -1).sum(axis=1)


