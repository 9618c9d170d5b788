"""The Set Cover Learner of Kaplan, Mansour, Matias and Stemmer, "Differentially Private
Learning of Geometric Concepts" (ICML 2019, section 3), batched over trials.

For a class C contained in H^(AND k) the learner runs T rounds (T fixed in advance, never
stopped early: the number of rounds is data independent). In round j, with S1 / S0 the
positive / negative examples still in the sample:

    w_j ~ Lap(b_L),  b_j = |S0| + w_j - Delta,
    q(h) = min(#h_0(S0) - b_j / k, -#h_0(S1))      for every h in H,
    h_j = the selection procedure's choice (exponential mechanism: density exp(eta q)),
    delete every example that h_j labels 0;

and outputs h_fin = h_1 AND ... AND h_T. The disjunctive form (``mode="or"``, the paper's
"straightforward modification", used for DISJ and for unions of polygons) swaps the
roles of the labels: b_j = |S1| + w_j - Delta, q(h) = min(#h_1(S1) - b_j / k,
-#h_1(S0)), delete every example that h_j labels 1, output h_1 OR ... OR h_T. By De Morgan
it is the conjunctive learner run on the complemented labels with the negated class.

Interface (fixed; other experiments code against it)::

    run_setcover(c1, c0, k, rounds, lap_scale, shift, select, rng, mode="and") -> SetCoverRun

- ``c1``, ``c0``: (trials, atoms) counts of positive / negative examples at each atom. An
  atom is a distinct example: a row of a Boolean sample with weight 1, or a grid point
  with its multinomial count. The caller's arrays are never modified.
- ``rounds`` (T), ``lap_scale`` (b_L) and ``shift`` (Delta) as ``safe_parameters``,
  ``literal_parameters`` or a nominal setting give them. ``lap_scale = 0`` means no noise
  (b_j = |S0| - Delta exactly; with ``shift = 0`` the non-private sanity baseline).
- ``select(c1_alive, c0_alive, threshold, rng) -> (choice, rejects, q_chosen, q_max)``:
  one round's selection over all live trials at once. It receives the alive counts in
  their label positions IN BOTH MODES (c1_alive = positives, c0_alive = negatives) and
  ``threshold`` = b_j / k, shape (trials,). In "and" mode it scores
  q(h) = min(#h_0(S0) - threshold, -#h_0(S1)) and ``rejects`` are the atoms the chosen h
  labels 0; in "or" mode q(h) = min(#h_1(S1) - threshold, -#h_1(S0)) and ``rejects`` are
  the atoms it labels 1. ``choice``: (trials,) int ids of the chosen hypotheses
  (class-specific); ``rejects``: (trials, atoms) bool, the atoms deleted;
  ``q_chosen``, ``q_max``: (trials,) exact. A selector built by ``finite_selector``
  carries its mode and ``run_setcover`` refuses a mismatch.

Rounds are sequential; each round is array operations over all trials. The loop itself
(``setcover_rounds``) runs over any *state* with ``cover_size``, ``select``, ``delete``
and ``errors``: ``AtomState`` here (the interface above), and the exact product-form
state of simulators/kmms/conjunctions.py for Boolean samples too large to hold as rows. So
there is one learner, whatever represents the sample.

Claim 3.1 (exact per-run form, derived from the paper's proof; see ``SetCoverRun``) is
evaluated at the end of every run: on the event max_j |w_j| <= Delta a violation is a
bug, and ``setcover_rounds`` raises ``Claim31Violation``.

Parameter readings (bounds/kmms.py, ``setcover_parameters``): SAFE (ours, the default)
T = ceil(2k ln(2/alpha)), b_L = 2T/eps, Delta = b_L ln(4T/beta), eta = eps/(4 ln(e/delta));
paper-literal b_L = T/eps, Delta = b_L ln(T/beta), eta = eps/(4 ln(e/delta)) (Claim 3.4's
eps_hat = eps/(2 ln(e/delta)) in Prop 2.5's density exp(eps_hat q / 2)).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from privbounds.bounds.kmms import setcover_parameters
from privbounds.params import ParameterError
from privbounds.simulators.shared.mechanisms import exponential_mechanism, laplace_mechanism

MODES = ("and", "or")
READINGS = ("safe", "literal")


class Claim31Violation(RuntimeError):
    """Claim 3.1's exact per-run inequality failed on the event max_j |w_j| <= Delta: a bug
    of the learner (or of the selection's reported qualities), never a finding."""


# --- parameters ----------------------------------------------------------------------------

def _check(k, alpha, beta, epsilon, delta, strict_claim34: bool = True) -> None:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ParameterError(f"k must be an integer >= 1, got {k!r}")
    for name, v in (("alpha", alpha), ("beta", beta)):
        if not (isinstance(v, (int, float)) and 0 < v < 1):
            raise ParameterError(f"{name} must be a number in (0, 1), got {v!r}")
    hi = 1.0 if strict_claim34 else math.inf
    if not (isinstance(epsilon, (int, float)) and 0 < epsilon < hi):
        raise ParameterError(f"epsilon must be a number in (0, 1) (Claim 3.4 needs eps < 1), got {epsilon!r}")
    if not (isinstance(delta, (int, float)) and 0 < delta < 1 / math.e):
        raise ParameterError(f"delta must be a number in (0, 1/e) (Claim 3.4 needs delta < 1/e), got {delta!r}")


def safe_parameters(k, alpha, beta, epsilon, delta) -> dict:
    """SAFE reading (ours): T = ceil(2k ln(2/alpha)), b_L = 2T/eps (the Laplace part costs
    eps/2), Delta = b_L ln(4T/beta) (P[max_j |w_j| > Delta] <= beta/4), eta = eps/(4
    ln(e/delta)) (the selections, Gupta et al.'s accounting at eps/2). Claim 3.4's range:
    eps in (0, 1), delta in (0, 1/e). Returns dict(rounds, lap_scale, shift, eta, reading)."""
    _check(k, alpha, beta, epsilon, delta)
    return setcover_parameters(int(k), float(alpha), float(beta), float(epsilon), float(delta), "safe")


def literal_parameters(k, alpha, beta, epsilon, delta) -> dict:
    """Paper-literal reading (as far as the text shows it): T = ceil(2k ln(2/alpha)),
    b_L = T/eps, Delta = b_L ln(T/beta), eta = eps/(4 ln(e/delta)) (Claim 3.4's
    eps_hat = eps/(2 ln(e/delta)) in Prop 2.5's exp(eps_hat q / 2)). Same keys as
    ``safe_parameters``."""
    _check(k, alpha, beta, epsilon, delta)
    return setcover_parameters(int(k), float(alpha), float(beta), float(epsilon), float(delta), "literal")


def reading_parameters(reading: str, k, alpha, beta, epsilon, delta) -> dict:
    if reading not in READINGS:
        raise ParameterError(f"reading must be one of {', '.join(READINGS)}, got {reading!r}")
    return (safe_parameters if reading == "safe" else literal_parameters)(k, alpha, beta, epsilon, delta)


# --- the record of a run ---------------------------------------------------------------------

@dataclass
class SetCoverRun:
    """Everything one batch of runs did. Per round (trials, T): ``chosen`` ids, Laplace
    draws ``w``, thresholds' ``b``, ``q_chosen`` and the exact ``q_max``. Per trial:
    ``n0`` (initial number of examples of the covered label: negatives in "and" mode,
    positives in "or" mode) and ``errors`` (examples of S that h_fin misclassifies)."""

    mode: str
    k: int
    rounds: int
    lap_scale: float
    shift: float
    chosen: np.ndarray
    w: np.ndarray
    b: np.ndarray
    q_chosen: np.ndarray
    q_max: np.ndarray
    n0: np.ndarray
    errors: np.ndarray

    @property
    def lambda_r(self) -> np.ndarray:
        """Realised worst shortfall below 0: max_j max(0, -q_j(h_j)) (the proof only uses
        max_f q(f) >= 0, so the shortfall is measured against 0)."""
        return np.maximum(0.0, -self.q_chosen).max(axis=1) if self.rounds else np.zeros(len(self.n0))

    @property
    def max_abs_w(self) -> np.ndarray:
        return np.abs(self.w).max(axis=1) if self.rounds else np.zeros(len(self.n0))

    @property
    def noise_ok(self) -> np.ndarray:
        """The event of Claim 3.1's proof: every |w_j| <= Delta."""
        return self.max_abs_w <= self.shift

    def claim31_bound(self) -> np.ndarray:
        """Exact per-run form of Claim 3.1 (derived from the paper's proof): on max|w_j| <=
        Delta, errors <= T lambda_r + max(n0 (1 - 1/(2k))^T, 2k lambda_r + 4 Delta).
        (T lambda_r bounds the protected-label examples deleted; while the covered label
        has >= 2k lambda_r + 4 Delta examples each round removes >= 1/(2k) of them.)"""
        lam = self.lambda_r
        return (self.rounds * lam + np.maximum(self.n0 * (1.0 - 1.0 / (2 * self.k)) ** self.rounds,
                                               2 * self.k * lam + 4.0 * self.shift))

    def claim31_holds(self) -> np.ndarray:
        """True where the exact inequality holds or its event (max|w_j| <= Delta) failed."""
        tol = 1e-9 * np.maximum(1.0, self.claim31_bound())
        return (~self.noise_ok) | (self.errors <= self.claim31_bound() + tol)

    def paper_bound(self, alpha: float, n) -> np.ndarray:
        """Claim 3.1 as the paper states it, with the realised lambda_r:
        max(alpha n / 2, 4 Delta) + 4 k lambda_r ln(2/alpha). It follows from the exact form
        when T = ceil(2k ln(2/alpha)) and ln(2/alpha) >= 1 + 1/(2k)."""
        return np.maximum(alpha * np.asarray(n, float) / 2, 4.0 * self.shift) + \
            4 * self.k * self.lambda_r * math.log(2.0 / alpha)

    def check(self) -> None:
        bad = ~self.claim31_holds()
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise Claim31Violation(
                f"Claim 3.1 violated in {int(bad.sum())} of {bad.size} runs with max|w_j| <= Delta: e.g. "
                f"errors {self.errors[i]:g} > bound {self.claim31_bound()[i]:g} (n0 {self.n0[i]:g}, "
                f"lambda_r {self.lambda_r[i]:g}, Delta {self.shift:g}, T {self.rounds}, k {self.k})")


# --- the loop, over any state ----------------------------------------------------------------

def setcover_rounds(state, k: int, rounds: int, lap_scale: float, shift: float, rng: np.random.Generator,
                    mode: str = "and", check: bool = True) -> SetCoverRun:
    """Run the Set Cover Learner's T rounds on ``state`` (all trials at once) and check
    Claim 3.1 in every run (``check``; only the tests of the check itself turn it off).

    A state has ``trials``, ``cover_size()`` (|S0| in "and" mode, |S1| in "or" mode, per
    trial), ``select(threshold, rng) -> (choice, q_chosen, q_max)``, ``delete(choice, rng)``
    and ``errors()`` (examples of S misclassified by h_fin)."""
    if mode not in MODES:
        raise ParameterError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    if int(k) < 1:
        raise ParameterError(f"k must be an integer >= 1, got {k!r}")
    if rounds < 0 or lap_scale < 0 or shift < 0:
        raise ParameterError(f"rounds, lap_scale and shift must be >= 0, got {rounds}, {lap_scale}, {shift}")
    trials = state.trials
    shape = (trials, int(rounds))
    chosen = np.zeros(shape, dtype=np.int64)
    w_all, b_all, qc_all, qm_all = (np.zeros(shape) for _ in range(4))
    n0 = np.asarray(state.cover_size(), float).copy()
    for j in range(int(rounds)):
        size = np.asarray(state.cover_size(), float)
        # b_j = |S0| + Lap(b_L) - Delta: the project's Laplace mechanism on the count
        noisy = laplace_mechanism(size, 1.0, 1.0 / lap_scale, rng) if lap_scale > 0 else size
        b = noisy - shift
        choice, qc, qm = state.select(b / k, rng)
        state.delete(choice, rng)
        chosen[:, j], w_all[:, j], b_all[:, j] = choice, noisy - size, b
        qc_all[:, j], qm_all[:, j] = qc, qm
    run = SetCoverRun(mode, int(k), int(rounds), float(lap_scale), float(shift), chosen, w_all, b_all,
                      qc_all, qm_all, n0, np.asarray(state.errors(), float))
    if check:
        run.check()
    return run


class AtomState:
    """The sample as alive label counts on atoms (copies of the caller's arrays)."""

    def __init__(self, c1, c0, select, mode: str):
        self.c1 = np.array(c1, dtype=float, copy=True)
        self.c0 = np.array(c0, dtype=float, copy=True)
        if self.c1.shape != self.c0.shape or self.c1.ndim != 2:
            raise ParameterError(f"c1 and c0 must be (trials, atoms) arrays of one shape, got "
                                 f"{self.c1.shape} and {self.c0.shape}")
        if (self.c1 < 0).any() or (self.c0 < 0).any():
            raise ParameterError("c1 and c0 must be counts >= 0")
        self.start1, self.start0 = self.c1.copy(), self.c0.copy()
        self.fn, self.mode, self.trials = select, mode, self.c1.shape[0]
        self._rejects = None

    def cover_size(self):
        return (self.c0 if self.mode == "and" else self.c1).sum(axis=1)

    def select(self, threshold, rng):
        choice, rejects, qc, qm = self.fn(self.c1, self.c0, threshold, rng)
        self._rejects = np.asarray(rejects, bool)
        return choice, qc, qm

    def delete(self, choice, rng):
        self.c1[self._rejects] = 0.0
        self.c0[self._rejects] = 0.0

    def errors(self):
        if self.mode == "and":  # deleted positives (h_fin = 0) + alive negatives (h_fin = 1)
            return (self.start1 - self.c1).sum(axis=1) + self.c0.sum(axis=1)
        return (self.start0 - self.c0).sum(axis=1) + self.c1.sum(axis=1)


def run_setcover(c1, c0, k, rounds, lap_scale, shift, select, rng, mode="and", check=True) -> SetCoverRun:
    """The Set Cover Learner on atom counts (see the module docstring for the interface)."""
    if mode not in MODES:
        raise ParameterError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    own = getattr(select, "mode", None)
    if own is not None and own != mode:
        raise ParameterError(f"mode must match the selector's mode {own!r}, got {mode!r}")
    return setcover_rounds(AtomState(c1, c0, select, mode), int(k), int(rounds), float(lap_scale), float(shift),
                           rng, mode, check)


# --- selectors -------------------------------------------------------------------------------

def quality(del1, del0, threshold, mode: str = "and"):
    """q(h) for every h: "and": min(#h_0(S0) - thr, -#h_0(S1)) from the label-0 counts;
    "or": min(#h_1(S1) - thr, -#h_1(S0)) from the label-1 counts. ``del1`` / ``del0``:
    (trials, H) positives / negatives that h deletes; ``threshold``: (trials,)."""
    thr = np.asarray(threshold, float)[:, None]
    if mode == "and":
        return np.minimum(del0 - thr, -del1)
    return np.minimum(del1 - thr, -del0)


def pick(q, eta: float, rng: np.random.Generator):
    """Index along the last axis: density exp(eta q) (the project's exponential mechanism,
    Gumbel-max; its epsilon is 2 eta for sensitivity 1), or the argmax (first of ties) for
    ``eta = inf``, the non-private sanity baseline."""
    if math.isinf(eta):
        return np.argmax(q, axis=-1)
    return exponential_mechanism(q, 2.0 * eta, rng)


def finite_selector(counts0, zeros, eta: float, mode: str = "and"):
    """The selection procedure for a finite class H, for ``run_setcover``.

    ``counts0(c1_alive, c0_alive) -> (#h_0(S1), #h_0(S0))``, each (trials, |H|): the alive
    positives / negatives each h labels 0. ``zeros(choice) -> (trials, atoms)`` bool: the
    atoms the chosen hypotheses label 0. ``eta``: the density exponent (exp(eta q), i.e.
    the exponential mechanism at epsilon 2 eta for a sensitivity-1 quality; Claim 3.4's
    eps_hat = eps/(2 ln(e/delta)) in Prop 2.5's exp(eps_hat q / 2) is eta = eps/(4
    ln(e/delta))); ``math.inf`` gives the argmax (lambda = 0). In "or" mode the label-1
    counts are |S1| - #h_0(S1) and |S0| - #h_0(S0), and the rejects are the atoms h labels 1."""
    if mode not in MODES:
        raise ParameterError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    if not eta > 0:
        raise ParameterError(f"eta must be > 0 (math.inf for the argmax), got {eta!r}")

    def select(c1, c0, threshold, rng):
        z1, z0 = counts0(c1, c0)
        if mode == "and":
            d1, d0 = z1, z0
        else:
            d1 = c1.sum(axis=1, keepdims=True) - z1
            d0 = c0.sum(axis=1, keepdims=True) - z0
        q = quality(d1, d0, threshold, mode)
        choice = pick(q, eta, rng)
        rows = np.arange(q.shape[0])
        rejects = zeros(choice)
        if mode == "or":
            rejects = ~rejects
        return choice, rejects, q[rows, choice], q.max(axis=1)

    select.mode = mode
    select.eta = eta
    return select
