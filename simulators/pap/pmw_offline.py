"""Offline private multiplicative weights over a finite class and domain, as Algorithm 1
of Bassily et al., "Private Query Release Assisted by Public Data" (ICML 2020) uses it,
batched over trials.

The paper gives only PMW's interface (private data over a finite domain, a finite class
answered in any fixed order, accuracy (alpha, beta), privacy (eps, delta); output a
data structure). The internals and every constant are ours: Hardt and Rothblum's
mechanism built from AboveThreshold (Dwork and Roth, Thm 3.23) and advanced
composition, parameterised so that the explicit bound ``bounds.pap.n_pmw_offline`` is
a theorem about this code. It differs from ``pmw.py`` (the Dwork-Roth NumericSparse
parameterisation Bun et al. use), which repeats passes until one is clean; this one makes
a single pass, as the PAP paper describes.

One trial, 0/1 scale, empirical accuracy target a, domain of N cells, K queries:
- c = floor(16 ln N / a^2) + 1 (update cap), eps0 = eps / (4 sqrt(c ln(1/delta))),
  eta = a/4, threshold 3a/4; noise scales (Delta = 1/n, a replaced row moves every
  empirical answer by at most 1/n): threshold 2/(eps0 n), comparison 4/(eps0 n),
  measurement 1/(eps0 n).
- A = uniform; rho ~ Lap(2/(eps0 n)). For each query k in a random order drawn
  without looking at the data: gap g = |q_k(sample) - q_k(A)|; if g + Lap(4/(eps0 n)) <
  3a/4 + rho, answer q_k(A) ("bottom"); else measure v = q_k(sample) + Lap(1/(eps0 n)),
  answer clip(v, 0, 1), move A by exp(-eta r) with r = 1 - q_k if v > q_k(A) else q_k,
  renormalise, redraw rho ("top"). After c tops the rest is answered from A.
- Privacy: between two tops the comparisons form one AboveThreshold instance (eps0-DP);
  with <= c instances and <= c measurements (eps0-DP each), advanced composition over 2c
  mechanisms gives sqrt(4c ln(1/delta)) eps0 + 2c eps0 (e^eps0 - 1) <= eps/2 + eps^2 /
  (4 ln(1/delta)) <= eps for eps <= 1, delta < 1/e: (eps, delta)-DP
  (``epsilon_spent`` evaluates the exact expression).

Batching: the weight state A has a leading trial axis, so one numpy operation advances
every trial. Between two tops A is fixed, so all of a trial's remaining comparisons are
drawn at once and the first "top" is found with argmax; the draws after it are discarded
(they are fresh, independent noise, so the law is that of the sequential algorithm).
Noise is drawn for a window of the next 128 queries only: a round ends at the window's
first top, or answers the whole window "bottom". The number of rounds is about the
largest realised number of updates plus K/128.

Three query structures (the ``answers``/``update`` pair of each):
- ``RangeQueries``: each query is a contiguous range of cells, per trial (thresholds,
  intervals and points on a line, after the public cover): answers by prefix sums,
  O(N + K) per trial and round.
- ``DenseQueries``: one 0/1 matrix shared by every trial (a small finite class).
- ``ProductQueries``: decision stumps; A stays a product distribution (each update
  multiplies by a factor of one coordinate), stored as its marginals, O(J) per update.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from privbounds.bounds.tools import advanced_composition_epsilon
from privbounds.params import ParameterError


@dataclass
class RangeQueries:
    """Per trial: cell_ok (trials, N) marks real cells (the rest is padding); query k of
    trial i covers cells lo[i, k] <= c < hi[i, k]; query_ok (trials, K) marks real queries.
    The state is the synthetic distribution's weights; answers come from its prefix sums
    (keeping the prefix sums as the state instead makes each update several passes over
    the row, which measured slower than one cumulative sum per round)."""

    lo: np.ndarray
    hi: np.ndarray
    query_ok: np.ndarray
    cell_ok: np.ndarray

    def initial(self) -> np.ndarray:
        w = self.cell_ok.astype(float)
        return w / w.sum(axis=1, keepdims=True)

    def domain_sizes(self) -> np.ndarray:
        return self.cell_ok.sum(axis=1)

    def answers(self, state: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        # index the window directly: lo[rows] first would copy every live row's K entries
        return range_sums(state[rows], self.lo[rows[:, None], cols], self.hi[rows[:, None], cols])

    def update(self, state, rows, k, toward, eta):
        """toward: the query's answer must grow (v > q(A)): penalise the complement."""
        cells = np.arange(state.shape[1])[None, :]
        inside = (cells >= self.lo[rows, k][:, None]) & (cells < self.hi[rows, k][:, None])
        w = state[rows]  # a copy; multiplied in place where penalised (x * 1.0 elsewhere is x)
        np.multiply(w, math.exp(-eta), out=w, where=inside != toward[:, None])
        w /= w.sum(axis=1, keepdims=True)
        state[rows] = w


def range_sums(values: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """sum of values[i, lo[i,k]:hi[i,k]] for every i, k, by prefix sums."""
    pre = np.empty((values.shape[0], values.shape[1] + 1))
    pre[:, 0] = 0.0
    np.cumsum(values, axis=1, out=pre[:, 1:])
    return np.take_along_axis(pre, hi, axis=1) - np.take_along_axis(pre, lo, axis=1)


@dataclass
class DenseQueries:
    """One 0/1 query matrix (K, N) shared by all trials."""

    matrix: np.ndarray
    trials: int

    def __post_init__(self):
        self.query_ok = np.ones((self.trials, self.matrix.shape[0]), bool)

    def initial(self) -> np.ndarray:
        return np.full((self.trials, self.matrix.shape[1]), 1.0 / self.matrix.shape[1])

    def domain_sizes(self) -> np.ndarray:
        return np.full(self.trials, self.matrix.shape[1])

    def answers(self, state, rows, cols):
        return np.take_along_axis(state[rows] @ self.matrix.T, cols, axis=1)

    def update(self, state, rows, k, toward, eta):
        q = self.matrix[k].astype(bool)
        w = state[rows] * np.where(q != toward[:, None], math.exp(-eta), 1.0)
        state[rows] = w / w.sum(axis=1, keepdims=True)


@dataclass
class ProductQueries:
    """Stumps over {+-1}^J: query k answers P(x_k = +1); coord_ok (trials, J) marks real
    coordinates. The state is the vector of marginals P_A(x_k = +1)."""

    coord_ok: np.ndarray

    @property
    def query_ok(self):
        return self.coord_ok

    def initial(self) -> np.ndarray:
        return np.full(self.coord_ok.shape, 0.5)

    def domain_sizes(self) -> np.ndarray:
        return 2.0 ** self.coord_ok.sum(axis=1)  # N = 2^J; only ln N is used

    def answers(self, state, rows, cols):
        return state[rows[:, None], cols]

    def update(self, state, rows, k, toward, eta):
        a = state[rows, k]
        # toward: penalise x_k = -1 (mass 1 - a) by e^-eta, else penalise x_k = +1
        f = math.exp(-eta) if np.isscalar(eta) else np.exp(-eta)
        state[rows, k] = np.where(toward, a / (a + (1 - a) * f), a * f / (a * f + 1 - a))


# queries compared per round: noise is drawn for a window after the current position only
# (a top ends the round early, so most of a full-length draw would be discarded)
WINDOW = 128


def _fill(answers, rows, cols, mask, values):
    """answers[rows[i], cols[i, j]] = values[i, j] where mask[i, j]."""
    i, j = np.nonzero(mask)
    answers[rows[i], cols[i, j]] = values[i, j]


# The three noise scales, one function each: every run (a whole one and an audit's one
# round) takes its scales from here, and a privacy audit's mutation test
# (engine/mutations.py) halves one of them by patching its name in this module.

def threshold_scale(eps0, n):
    """AboveThreshold's threshold noise, Lap(2 Delta / eps0) with Delta = 1/n."""
    return 2.0 / (eps0 * n)


def compare_scale(eps0, n):
    """AboveThreshold's comparison noise, Lap(4 Delta / eps0) on every gap."""
    return 4.0 / (eps0 * n)


def measure_scale(eps0, n):
    """The measurement of a "top" query, Lap(Delta / eps0)."""
    return 1.0 / (eps0 * n)


def pmw_constants(accuracy01, epsilon, delta, n, domain_sizes):
    """(cap, eps0, threshold, eta, b_threshold, b_compare, b_measure) per trial."""
    a = float(accuracy01)
    ln_n = np.log(np.maximum(np.asarray(domain_sizes, float), 1.0))
    cap = np.floor(16.0 * ln_n / a**2) + 1
    eps0 = epsilon / (4.0 * np.sqrt(cap * math.log(1.0 / delta)))
    return cap, eps0, 0.75 * a, a / 4.0, threshold_scale(eps0, n), compare_scale(eps0, n), measure_scale(eps0, n)


def epsilon_spent(epsilon: float, delta: float, domain_size: float, accuracy01: float) -> float:
    """The exact advanced-composition epsilon of one run (2c mechanisms of eps0 each, slack
    delta); at most ``epsilon`` for epsilon <= 1, delta < 1/e."""
    cap, eps0, *_ = pmw_constants(accuracy01, epsilon, delta, 1, [domain_size])
    return float(advanced_composition_epsilon(float(eps0[0]), int(2 * cap[0]), delta))


def check_pmw_inputs(n, accuracy01, epsilon, delta):
    if n < 1:
        raise ParameterError(f"n (private sample size) must be >= 1, got {n}")
    if not 0 < accuracy01 < 1:
        raise ParameterError(f"alpha must be in (0, 1), got accuracy {accuracy01}")
    if not 0 < epsilon <= 1:
        raise ParameterError(f"epsilon must be in (0, 1] for PMW's accounting, got {epsilon}")
    if not 0 < delta < 1 / math.e:
        raise ParameterError(f"delta must be in (0, 1/e), got {delta}")
    if delta * n >= 1:
        raise ParameterError(f"delta must be < 1/n = {1 / n:.3g}, got {delta}")


def pmw(queries, empirical: np.ndarray, n: int, accuracy01: float, epsilon: float, delta: float,
        rng: np.random.Generator, one_round: float | None = None):
    """Run Algorithm 1 on every trial. ``empirical`` (trials, K): each query's 0/1 answer on
    the private sample (its only access to the data). Returns (answers (trials, K) on the
    0/1 scale, realised updates (trials,), final synthetic state).

    ``one_round=e`` (privacy audits only): the same code with the cap set to 1 and the
    per-mechanism epsilon eps0 set to e, so the run is one AboveThreshold instance and one
    measurement, pure 2e-DP: the unit the whole run composes."""
    check_pmw_inputs(n, accuracy01, epsilon, delta)
    trials, k_max = empirical.shape
    ok = queries.query_ok
    cap, eps0, thr, eta, b_thr, b_cmp, b_mes = pmw_constants(
        accuracy01, epsilon, delta, n, queries.domain_sizes())
    if one_round is not None:
        cap = np.ones_like(cap)
        eps0 = np.full_like(eps0, one_round)
        b_thr, b_cmp, b_mes = threshold_scale(eps0, n), compare_scale(eps0, n), measure_scale(eps0, n)
    # the data-independent random order: real queries first, shuffled, padding last
    order = np.argsort(rng.random((trials, k_max)) + 2.0 * ~ok, axis=1)
    emp = np.take_along_axis(empirical, order, axis=1)
    ok_o = np.take_along_axis(ok, order, axis=1)
    state = queries.initial()
    rho = rng.laplace(0.0, b_thr)
    pos = np.zeros(trials, dtype=np.int64)
    updates = np.zeros(trials, dtype=np.int64)
    answers = np.zeros((trials, k_max))
    done = ~ok_o.any(axis=1)
    n_ok = ok_o.sum(axis=1)
    width = min(WINDOW, k_max)
    while not done.all():
        rows = np.nonzero(~done)[0]
        # the next ``width`` queries of each live trial (clamped at the end; the clamped
        # repeats are masked out by ``live``)
        cols = np.minimum(pos[rows, None] + np.arange(width)[None, :], k_max - 1)
        live = (pos[rows, None] + np.arange(width)[None, :] < n_ok[rows, None])
        at = rows[:, None]  # (rows, window) indexing, never a copy of whole rows
        cur = queries.answers(state, rows, order[at, cols])
        gap = np.abs(emp[at, cols] - cur)
        halted = updates[rows] >= cap[rows]
        noisy = gap + rng.laplace(0.0, b_cmp[rows, None], gap.shape)
        above = live & (noisy >= thr + rho[rows, None]) & ~halted[:, None]
        has = above.any(axis=1)
        first = np.where(has, above.argmax(axis=1), width)
        bottom = live & (np.arange(width)[None, :] < first[:, None])
        _fill(answers, rows, cols, bottom, cur)
        top = np.nonzero(has)[0]
        if top.size:
            r, w = rows[top], first[top]
            k = cols[top, w]
            v = emp[r, k] + rng.laplace(0.0, b_mes[r])
            answers[r, k] = np.clip(v, 0.0, 1.0)
            toward = v > cur[top, w]
            queries.update(state, r, order[r, k], toward, eta)
            updates[r] += 1
            rho[r] = rng.laplace(0.0, b_thr[r])
            pos[r] = k + 1
        pos[rows[~has]] += width  # a window without a top: all its queries answered "bottom"
        done |= pos >= n_ok
    out = np.empty_like(answers)
    np.put_along_axis(out, order, answers, axis=1)
    return out, updates, state
