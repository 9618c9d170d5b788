"""Conjunctions and disjunctions of literals for Kaplan, Mansour, Matias and Stemmer,
"Differentially Private Learning of Geometric Concepts" (ICML 2019): Section 1.1's
classical learner, Example 2.3, Theorem 3.5 and the composition baseline of Example 3.3.

- LIT_d, the 2d literals: ids 0..d-1 are v_1..v_d, ids d..2d-1 are not v_1..not v_d.
  CONJ_{k,d} = LIT_d^(AND k) and DISJ_{k,d} = LIT_d^(OR k) (Example 2.3).
- ``literal_selector``: the Set Cover Learner's selection over LIT_d on an explicit
  Boolean sample (atoms = rows, uint8), two matrix-vector products per round.
- ``ProductFamily``: a finite mixture of product distributions on {0,1}^d whose label is a
  function of the mixture component ("type"): P(type t) = probs[t], label labels[t], and
  given the type the d bits are independent with P(x_v = 0 | t) = z[t, v]. The decoy and
  near-miss families of our experiments are of this form (``decoy_family``,
  ``nearmiss_family``; ``complement`` is the De Morgan image, a DISJ family), and the
  error of any AND / OR of literals has a closed form (``exact_error``); nothing is
  estimated by sampling 2^d points.
- ``LiteralProductState``: the Set Cover Learner's sample on such a family kept exactly
  as counts, for n and d far beyond what rows allow. Within a type, rows are i.i.d. with
  independent bits, so the learner (which sees only, for every literal, how many alive
  positives and negatives it rejects) needs per type t the alive count A_t and, per
  variable v, the count Z_tv of alive rows with x_v = 0. Deleting the rows a literal on
  variable u rejects removes rows chosen by column u alone, which is independent of
  column v within the type; given its count, column v's zeros are spread uniformly over
  the alive rows, so the surviving count is hypergeometric(Z_tv, A_t - Z_tv, A_t') and
  the columns stay independent. Column u itself becomes constant on the survivors. The
  process is therefore the learner on the full sample in distribution, at a cost of
  O(types x d) per round whatever n is (tests/kmms/test_conjunctions.py compares the two).
- ``classical_learner`` (Section 1.1): delete the literals contradicted by a positive, then
  greedy set cover of the negatives (ties: smallest id); on product states and on rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from privbounds.params import ParameterError
from privbounds.simulators.kmms.setcover import MODES, finite_selector, pick, quality, setcover_rounds

NEG_INF = -1e30  # stands for ln 0 inside matrix products (0 * NEG_INF = 0, exp(NEG_INF) = 0)


# --- literals on explicit samples ----------------------------------------------------------------

def literal_values(x, ids, d: int):
    """Values of literals ``ids`` (trials,) on rows ``x`` (trials, atoms, d): (trials, atoms) bool."""
    ids = np.asarray(ids)
    v, neg = ids % d, ids >= d
    bits = np.take_along_axis(x, v[:, None, None], axis=2)[:, :, 0].astype(bool)
    return np.where(neg[:, None], ~bits, bits)


def literal_counts0(x):
    """counts0 for ``finite_selector`` over LIT_d on rows ``x`` (trials, atoms, d):
    (#h_0(S1), #h_0(S0)) for the 2d literals. v_i is 0 on rows with x_i = 0; not v_i on rows
    with x_i = 1: two (batched) matrix-vector products per round."""
    xf = np.asarray(x, dtype=np.float64)

    def counts0(c1, c0):
        ones1 = np.einsum("ta,tad->td", c1, xf)
        ones0 = np.einsum("ta,tad->td", c0, xf)
        t1, t0 = c1.sum(axis=1, keepdims=True), c0.sum(axis=1, keepdims=True)
        return (np.concatenate([t1 - ones1, ones1], axis=1), np.concatenate([t0 - ones0, ones0], axis=1))
    return counts0


def literal_selector(x, eta: float, mode: str = "and"):
    """The Set Cover Learner's selection over LIT_d on the rows ``x``: density exp(eta q)
    (``math.inf``: argmax)."""
    d = x.shape[2]
    return finite_selector(literal_counts0(x), lambda ids: ~literal_values(x, ids, d), eta, mode)


def hypothesis_values(x, chosen, d: int, mode: str = "and"):
    """h_fin on rows: AND (mode "and") or OR (mode "or") of the chosen literals (trials, T)."""
    out = np.full(x.shape[:2], mode == "and")
    for j in range(chosen.shape[1]):
        val = literal_values(x, chosen[:, j], d)
        out = (out & val) if mode == "and" else (out | val)
    return out


# --- product families ----------------------------------------------------------------------

@dataclass(frozen=True)
class ProductFamily:
    """A mixture of product distributions on {0,1}^d labelled by its component."""

    name: str
    probs: np.ndarray  # (K,)
    labels: np.ndarray  # (K,) in {0, 1}
    z: np.ndarray  # (K, d): P(x_v = 0 | type)
    target: tuple  # literal ids of the target (AND for CONJ families, OR for DISJ families)
    mode: str  # "and": CONJ target, "or": DISJ target

    @property
    def d(self) -> int:
        return self.z.shape[1]

    def sample_rows(self, n: int, trials: int, rng: np.random.Generator):
        """(x, y): rows (trials, n, d) uint8 and labels (trials, n) int, i.i.d. from the family."""
        t = rng.choice(len(self.probs), size=(trials, n), p=self.probs)
        x = (rng.random((trials, n, self.d)) >= self.z[t]).astype(np.uint8)
        return x, self.labels[t]

    def exact_error(self, chosen) -> np.ndarray:
        """True error of h = AND (mode "and") / OR (mode "or") of the literals ``chosen``
        (trials, T), in closed form: given the type, P(h = 1) for an AND is the product over
        the distinct variables of P(v) (v only), P(not v) (not v only), 0 (both); an OR is 0
        where each of its literals is 0."""
        chosen = np.asarray(chosen)
        trials, d = chosen.shape[0], self.d
        inc = np.zeros((trials, 2 * d), dtype=bool)
        if chosen.size:
            np.put_along_axis(inc, chosen, True, axis=1)
        pos, neg = inc[:, :d].astype(float), inc[:, d:].astype(float)
        with np.errstate(divide="ignore"):
            ln_z = np.where(self.z > 0, np.log(np.where(self.z > 0, self.z, 1.0)), NEG_INF)
            ln_1z = np.where(self.z < 1, np.log(np.where(self.z < 1, 1.0 - self.z, 1.0)), NEG_INF)
        both = (pos * neg).sum(axis=1) > 0  # a complementary pair: the AND is 0, the OR is 1
        if self.mode == "and":
            p_one = np.exp(np.maximum(pos @ ln_1z.T + neg @ ln_z.T, NEG_INF))  # (trials, K)
            p_one[both] = 0.0
            wrong = np.where(self.labels[None, :] == 1, 1.0 - p_one, p_one)
        else:
            p_zero = np.exp(np.maximum(pos @ ln_z.T + neg @ ln_1z.T, NEG_INF))
            p_zero[both] = 0.0
            wrong = np.where(self.labels[None, :] == 1, p_zero, 1.0 - p_zero)
        return wrong @ self.probs


def _check_family(d: int, k: int) -> None:
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1:
        raise ParameterError(f"d must be an integer >= 1, got {d!r}")
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ParameterError(f"k must be an integer >= 1, got {k!r}")
    if k > d:
        raise ParameterError(f"k must be at most d (the number of variables), got k={k}, d={d}")


def decoy_family(d: int, k: int, alpha: float, c: float = 1.0) -> ProductFamily:
    """Noisy-copy decoys (the hard family of our experiments). Target v_1 AND ... AND v_k;
    every other variable u is a decoy tied to the relevant variable i(u) = (u - k) mod k.
    Positives (probability 1/2): relevant bits 1, each decoy 0 with probability eta_d =
    c alpha / k. Negatives (1/2): i uniform in [k], v_i = 0, the other relevant bits 1,
    the decoys tied to i are 0, every other decoy 0 with probability eta_d. A decoy rejects
    every negative its relevant variable rejects but also eta_d of the positives."""
    _check_family(d, k)
    eta_d = min(1.0, c * float(alpha) / k)
    K = k + 1
    z = np.zeros((K, d))
    tie = (np.arange(k, d) - k) % k
    z[0, k:] = eta_d
    for i in range(k):
        z[1 + i, i] = 1.0
        z[1 + i, k:] = np.where(tie == i, 1.0, eta_d)
    probs = np.concatenate([[0.5], np.full(k, 0.5 / k)])
    labels = np.concatenate([[1], np.zeros(k, dtype=int)]).astype(int)
    return ProductFamily("decoy", probs, labels, z, tuple(range(k)), "and")


def nearmiss_family(d: int, k: int) -> ProductFamily:
    """The easy family. Target v_1 AND ... AND v_k. Positives (1/2): relevant bits 1, the
    others uniform. Negatives (1/2): i uniform in [k], v_i = 0, the other relevant bits 1,
    the others uniform. Every target literal alone rejects 1/(2k) of the mass."""
    _check_family(d, k)
    K = k + 1
    z = np.full((K, d), 0.5)
    z[:, :k] = 0.0
    for i in range(k):
        z[1 + i, i] = 1.0
    probs = np.concatenate([[0.5], np.full(k, 0.5 / k)])
    labels = np.concatenate([[1], np.zeros(k, dtype=int)]).astype(int)
    return ProductFamily("nearmiss", probs, labels, z, tuple(range(k)), "and")


def complement(fam: ProductFamily) -> ProductFamily:
    """The De Morgan image: bits and labels complemented. The CONJ target AND v_i becomes the
    DISJ target OR v_i (c'(x') = 1 - c(1 - x'))."""
    return ProductFamily(fam.name + "-disj" if fam.mode == "and" else fam.name.removesuffix("-disj"),
                         fam.probs, 1 - fam.labels, 1.0 - fam.z, fam.target,
                         "or" if fam.mode == "and" else "and")


FAMILIES = {"decoy": decoy_family, "nearmiss": lambda d, k, alpha: nearmiss_family(d, k)}


def make_family(name: str, d: int, k: int, alpha: float, form: str = "conj") -> ProductFamily:
    if name not in FAMILIES:
        raise ParameterError(f"family must be one of {', '.join(FAMILIES)}, got {name!r}")
    fam = FAMILIES[name](d, k, alpha)
    if form == "disj":
        return complement(fam)
    if form != "conj":
        raise ParameterError(f"form must be one of conj, disj, got {form!r}")
    return fam


# --- the exact count state -----------------------------------------------------------------

class LiteralProductState:
    """The Set Cover Learner's sample over LIT_d on a ``ProductFamily``, as exact counts
    (module docstring). ``eta``: the selection's density exponent (math.inf: argmax).

    Per column v, the types whose bit v is random (0 < z < 1) are pooled by (label, z):
    their alive rows are exchangeable with respect to column v, so one count per pool,
    ``Zg`` (trials, G, d), is all column v needs (types whose bit v is constant need none).
    On the decoy family that is 2 pools per column whatever k is. Deleting rows by column
    w first splits each pool's zeros of column w over its types (multivariate
    hypergeometric, proportional to the types' alive counts ``A``), then thins every other
    column's pools by hypergeometric draws."""

    def __init__(self, fam: ProductFamily, n: int, trials: int, rng: np.random.Generator, mode: str,
                 eta: float = math.inf):
        if mode not in MODES:
            raise ParameterError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        self.fam, self.mode, self.eta, self.trials, self.d = fam, mode, eta, trials, fam.d
        z, lab = fam.z, fam.labels
        K = z.shape[0]
        mixed = (z > 0) & (z < 1)
        key = np.where(mixed, z + 2.0 * lab[:, None], np.inf)  # one pool per (label, z)
        earlier = np.tril(np.ones((K, K), dtype=bool), -1)  # earlier[t, s]: s < t
        same = key[:, None, :] == key[None, :, :]  # (t, s, v)
        first = mixed & ~(same & earlier[:, :, None]).any(axis=1)
        below = (key[None, :, :] < key[:, None, :]) & first[None, :, :]  # (t, s, v): s a smaller pool head
        gid = np.where(mixed, below.sum(axis=1), -1)
        self.G = max(1, int(gid.max()) + 1)
        self.gid = gid  # (K, d)
        self.member = (gid[None, :, :] == np.arange(self.G)[:, None, None]).astype(np.int64)  # (G, K, d)
        self.det_one = (z == 1.0).astype(np.int64)  # (K, d): bit v is always 0 for type t
        zpool = np.zeros((self.G, self.d))
        labpool = np.full((self.G, self.d), -1)
        for t in range(K):
            g = gid[t]
            cols = np.flatnonzero(g >= 0)
            zpool[g[cols], cols] = z[t, cols]
            labpool[g[cols], cols] = lab[t]
        self.zpool, self.labpool = zpool, labpool
        self.pool_pos, self.pool_neg = (labpool == 1).astype(np.int64), (labpool == 0).astype(np.int64)
        self.pos = lab == 1
        self.A = rng.multinomial(int(n), fam.probs, size=trials).astype(np.int64)
        size = self.pool_sizes()
        self.Zg = rng.binomial(size, np.broadcast_to(zpool, size.shape)).astype(np.int64)
        self.start_pos = self.A[:, self.pos].sum(axis=1)
        self.start_neg = self.A[:, ~self.pos].sum(axis=1)
        self.cover = ~self.pos if mode == "and" else self.pos

    def pool_sizes(self, counts=None):
        """(trials, G, d): alive rows (or ``counts`` per type) in each pool of each column."""
        return np.einsum("tk,gkd->tgd", self.A if counts is None else counts, self.member)

    def zeros_by_label(self):
        """(zeros among alive positives, among alive negatives), (trials, d) each."""
        zp = self.A[:, self.pos] @ self.det_one[self.pos] + np.einsum("tgd,gd->td", self.Zg, self.pool_pos)
        zn = self.A[:, ~self.pos] @ self.det_one[~self.pos] + np.einsum("tgd,gd->td", self.Zg, self.pool_neg)
        return zp, zn

    def label_counts(self):
        """Per literal, the alive positives and negatives it deletes (value 0 in "and" mode,
        1 in "or" mode): (del1, del0), (trials, 2d) each."""
        zp, zn = self.zeros_by_label()
        ap = self.A[:, self.pos].sum(axis=1, keepdims=True)
        an = self.A[:, ~self.pos].sum(axis=1, keepdims=True)
        if self.mode == "and":  # v deletes x_v = 0, not v deletes x_v = 1
            d1, d0 = np.concatenate([zp, ap - zp], 1), np.concatenate([zn, an - zn], 1)
        else:  # v deletes x_v = 1, not v deletes x_v = 0
            d1, d0 = np.concatenate([ap - zp, zp], 1), np.concatenate([an - zn, zn], 1)
        return d1.astype(float), d0.astype(float)

    def cover_size(self):
        return self.A[:, self.cover].sum(axis=1).astype(float)

    def select(self, threshold, rng):
        d1, d0 = self.label_counts()
        q = quality(d1, d0, threshold, self.mode)
        choice = pick(q, self.eta, rng)
        return choice, q[np.arange(self.trials), choice], q.max(axis=1)

    def delete(self, choice, rng):
        self.delete_literal(np.asarray(choice), rng)

    def _zeros_by_type(self, w, rng):
        """(trials, K): alive rows of each type with x_w = 0; a pool's zeros split over its
        types by sequential hypergeometric draws."""
        rows = np.arange(self.trials)
        K = self.A.shape[1]
        out = self.A * self.det_one[:, w].T  # constant columns
        g_of = self.gid[:, w].T  # (trials, K)
        rem = self.Zg[rows, :, w].copy()  # (trials, G) zeros not yet placed
        pool = np.einsum("tk,tgk->tg", self.A, self.member[:, :, w].transpose(2, 0, 1))
        for t in range(K):
            g = g_of[:, t]
            has = g >= 0
            if not has.any():
                continue
            r, gg = rows[has], g[has]
            a = self.A[r, t]
            left, p = rem[r, gg], pool[r, gg]
            take = np.where(a >= p, left, 0)  # the pool's last type takes the rest
            draw = (a > 0) & (a < p) & (left > 0)
            if draw.any():
                take[draw] = rng.hypergeometric(a[draw], (p - a)[draw], left[draw])
            out[r, t] = take
            rem[r, gg] = left - take
            pool[r, gg] = p - a
        return out

    def delete_literal(self, choice, rng, active=None):
        """Delete, in every trial (or where ``active``), the rows the literal ``choice``
        rejects (value 0 in "and" mode, 1 in "or" mode)."""
        d = self.d
        w, neg = choice % d, choice >= d
        zeros = self._zeros_by_type(w, rng)
        removes_zeros = (~neg) if self.mode == "and" else neg
        gone = np.where(removes_zeros[:, None], zeros, self.A - zeros)
        if active is not None:
            gone = np.where(np.asarray(active)[:, None], gone, 0)
        # only trials that lose rows change (if none of a trial's rows has the deleted value,
        # column w is already constant on its alive rows)
        idx = np.flatnonzero(gone.any(axis=1))
        if idx.size == 0:
            return
        g_s, w_s, rz = gone[idx], w[idx], removes_zeros[idx]
        size = self.pool_sizes(self.A[idx])
        removed = self.pool_sizes(g_s)
        keep = size - removed
        zg = self.Zg[idx]
        out = np.where(removed > 0, np.where(zg >= size, keep, 0), zg)
        mixed = (removed > 0) & (keep > 0) & (zg > 0) & (zg < size)
        if mixed.any():
            out[mixed] = rng.hypergeometric(zg[mixed], (size - zg)[mixed], keep[mixed])
        sub = np.arange(idx.size)
        out[sub, :, w_s] = np.where(rz[:, None], 0, keep[sub, :, w_s])  # column w: constant on the survivors
        self.Zg[idx] = out
        self.A[idx] -= g_s

    def errors(self):
        ap, an = self.A[:, self.pos].sum(axis=1), self.A[:, ~self.pos].sum(axis=1)
        if self.mode == "and":
            return (self.start_pos - ap + an).astype(float)
        return (self.start_neg - an + ap).astype(float)


def run_family(fam: ProductFamily, n: int, trials: int, rng: np.random.Generator, k: int, rounds: int,
               lap_scale: float, shift: float, eta: float, mode: str | None = None):
    """The Set Cover Learner (density exp(eta q) over LIT_d; eta = inf: argmax) on n
    examples of ``fam``: (SetCoverRun, exact true errors). Claim 3.1 is checked in every run."""
    mode = mode or fam.mode
    state = LiteralProductState(fam, n, trials, rng, mode, eta)
    run = setcover_rounds(state, k, rounds, lap_scale, shift, rng, mode)
    return run, fam.exact_error(run.chosen)


# --- the classical (non-private) learner of Section 1.1 ------------------------------------------

def classical_learner(fam: ProductFamily, n: int, trials: int, rng: np.random.Generator):
    """Section 1.1's learner for CONJ on n examples of ``fam`` (an "and" family): keep the
    literals no positive contradicts, then greedy set cover of the negatives by them (the
    literal rejecting the most alive negatives, smallest id on ties, until none is left or
    none rejects any). Returns (chosen (trials, s) with -1 for no pick, exact errors)."""
    if fam.mode != "and":
        raise ParameterError(f"family must be a CONJ family (mode and) for the classical learner, got {fam.mode!r}")
    state = LiteralProductState(fam, n, trials, rng, "and")
    d1, _ = state.label_counts()
    allowed = d1 == 0  # consistent with every positive
    picks = []
    active = np.ones(trials, dtype=bool)
    for _ in range(2 * fam.d):
        _, d0 = state.label_counts()
        score = np.where(allowed, d0, -1.0)
        choice = np.argmax(score, axis=1)
        best = score[np.arange(trials), choice]
        active &= best > 0
        if not active.any():
            break
        state.delete_literal(choice, rng, active)
        picks.append(np.where(active, choice, -1))
    chosen = np.stack(picks, axis=1) if picks else np.full((trials, 0), -1)
    return chosen, classical_error(fam, chosen)


def classical_error(fam: ProductFamily, chosen) -> np.ndarray:
    """Exact error of the AND of the chosen literals (-1 = no pick; none: the constant 1)."""
    chosen = np.asarray(chosen)
    if chosen.shape[1] == 0:
        return fam.exact_error(np.zeros((chosen.shape[0], 0), dtype=np.int64))
    # a -1 is replaced by a repeat of the row's first pick (or dropped if there is none)
    first = chosen[:, :1]
    filled = np.where(chosen >= 0, chosen, first)
    err = fam.exact_error(np.where(filled >= 0, filled, 0))
    none = first[:, 0] < 0
    if none.any():
        err[none] = fam.exact_error(np.zeros((int(none.sum()), 0), dtype=np.int64))
    return err


def classical_learner_rows(x, y):
    """Section 1.1's learner on explicit rows, one trial at a time (the tests' reference):
    x (trials, n, d) uint8, y (trials, n). Returns a list of chosen-literal lists."""
    out = []
    for xt, yt in zip(np.asarray(x), np.asarray(y)):
        vals = np.concatenate([xt, 1 - xt], axis=1).astype(bool)  # (n, 2d) literal values
        allowed = ~(~vals[yt == 1]).any(axis=0)
        alive = yt == 0
        picks = []
        while alive.any():
            counts = np.where(allowed, (~vals[alive]).sum(axis=0), -1)
            lit = int(np.argmax(counts))
            if counts[lit] <= 0:
                break
            picks.append(lit)
            alive &= vals[:, lit]
        out.append(picks)
    return out
