"""Kaplan, Mansour, Matias and Stemmer, "Differentially Private Learning of Geometric
Concepts" (ICML 2019), section 4: algorithm Select Halfplane as the selection step of the
Set Cover Learner, sampled exactly over the cells of the dual arrangement (density
area x exp(eta q), Observation 4.4), and its exact output law. The grid and the
arrangement are in simulators/kmms/halfplanes.py."""

from __future__ import annotations

import numpy as np

from privbounds.params import ParameterError
from privbounds.simulators.kmms.halfplanes import Arrangement


def and_quality(Z0, Z1, tot0, tot1, threshold):
    """q of Set Cover Learner's conjunctive form for every hypothesis cell, both copies:
    min(#h_0(S0) - threshold, -#h_0(S1)); (2 C, batch). The z = -1 copy's label-0 set is
    the complement of the z = +1 copy's."""
    thr = np.asarray(threshold, float)[None, :]
    C = Z0.shape[0]
    q = np.empty((2 * C,) + Z0.shape[1:])  # both copies written in place: no concatenation
    qp, qm = q[:C], q[C:]
    np.subtract(Z0, thr, out=qp)
    np.minimum(qp, -Z1, out=qp)
    np.subtract(tot0[None, :], Z0, out=qm)
    qm -= thr
    np.minimum(qm, -(tot1[None, :] - Z1), out=qm)
    return q


def sample_log_weights(logits, rng) -> np.ndarray:
    """One index per column of ``logits`` (candidates, batch), with probability proportional
    to exp(logits): log-sum-exp normalisation, then one uniform per column against the
    cumulative weights (exact up to float rounding)."""
    m = logits.max(axis=0)
    cdf = logits - m[None, :]  # one array for the shift, the weights and their cumulative sums
    np.exp(cdf, out=cdf)
    np.cumsum(cdf, axis=0, out=cdf)
    u = rng.random(logits.shape[1]) * cdf[-1]
    idx = (cdf < u[None, :]).sum(axis=0)
    return np.minimum(idx, logits.shape[0] - 1)


class SelectHalfplane:
    """Algorithm Select Halfplane as the selection step of Set Cover Learner (conjunctive
    form) on an arrangement whose lines are the atoms of the counts (domain mode: the full
    grid). ``eta`` is the density exponent: Pr[cell] proportional to area exp(eta q), so one
    call is 2 eta-DP for a quality of sensitivity 1 (the paper's privacy paragraph).

    Called as ``select(c1_alive, c0_alive, threshold, rng)`` (the interface of
    simulators/kmms/setcover.py) it returns (choice, rejects, q_chosen, q_max): the hypothesis
    (cell id, + n_cells for the z = -1 copy), the atoms it labels 0, and the exact quality
    of the choice and the maximum over HALFPLANE_d."""

    def __init__(self, arr: Arrangement, eta: float, chunk_cells: int = 1 << 22):
        if not eta > 0:
            raise ParameterError(f"eta must be > 0, got {eta!r}")
        self.arr, self.eta = arr, float(eta)
        self.log_area = arr.log_areas()
        self.chunk = max(1, chunk_cells // max(1, 2 * arr.n_cells))

    def qualities(self, c1, c0, threshold) -> np.ndarray:
        c1, c0 = np.asarray(c1, float), np.asarray(c0, float)
        T = c1.shape[0]
        Z = self.arr.cell_sums(np.concatenate([c0, c1]))
        return and_quality(Z[:, :T], Z[:, T:], c0.sum(axis=1), c1.sum(axis=1), threshold)

    def __call__(self, c1_alive, c0_alive, threshold, rng):
        c1, c0 = np.asarray(c1_alive, float), np.asarray(c0_alive, float)
        T = c1.shape[0]
        thr = np.broadcast_to(np.asarray(threshold, float), (T,))
        choice = np.empty(T, np.int64)
        q_chosen, q_max = np.empty(T), np.empty(T)
        for s in range(0, T, self.chunk):
            sl = slice(s, min(T, s + self.chunk))
            q = self.qualities(c1[sl], c0[sl], thr[sl])
            logits = self.eta * q
            logits += self.log_area[:, None]
            idx = sample_log_weights(logits, rng)
            choice[sl] = idx
            q_chosen[sl] = q[idx, np.arange(idx.size)]
            q_max[sl] = q.max(axis=0)
        rejects = ~self.arr.labels(choice)
        return choice, rejects, q_chosen, q_max


def log_output_law(arr: Arrangement, q, eta) -> np.ndarray:
    """ln of Select Halfplane's exact output law over the hypothesis cells for qualities
    ``q``, (2 C,) or (2 C, batch): ln(area exp(eta q) / N), normalised per column."""
    from scipy.special import logsumexp

    q = np.asarray(q, float)
    la = arr.log_areas()
    lw = (la if q.ndim == 1 else la[:, None]) + eta * q
    return lw - logsumexp(lw, axis=0)


def exact_cell_probabilities(arr: Arrangement, q, eta) -> np.ndarray:
    """Select Halfplane's exact output law over the hypothesis cells (2 C,) for qualities
    ``q`` (2 C,): area exp(eta q) / N, in log space."""
    return np.exp(log_output_law(arr, q, eta))
