"""Kaplan, Mansour, Matias and Stemmer (ICML 2019), algorithm Select Halfplane and its
privacy paragraph: with a quality q of sensitivity 1, the output density exp(eta q)/N
satisfies p_S(a, b) <= e^(2 eta) p_S'(a, b) for neighbouring S, S', so one call is
2 eta-DP.

Two checks of the exact sampler (simulators/kmms/halfplanes.py, domain mode):

- Exact densities. Both densities are constant on the cells of the full grid's
  arrangement (the common refinement of every sample's regions), so the supremum of
  |ln p_S - ln p_S'| over F x D is a maximum over cells, computed exactly (log space) for
  a batch of random neighbouring pairs: S is ``examples`` labelled points of X_d^2 drawn
  uniformly, S' replaces one of them by another uniform labelled point, and the
  threshold of q = min(#h_0(S0) - thr, -#h_0(S1)) is uniform in [0, |S0|] (the same on
  both sides: inside the learner it is b_j / k). The curve row's event is "the sup
  log-ratio exceeds 2 eta" (relative tolerance 1e-9): the paper says never.
- A Monte Carlo audit of the sampler itself (``selecthalfplane_audit``), with the budget
  doubled for the power check (module docstring of engine/audit.py).
"""

from __future__ import annotations

import numpy as np

from privbounds.simulators.engine.audit import AuditCase, NoiseSource, noise_sources
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.kmms.halfplane_common import GEOMETRY_FIDELITY, NEVER_LEVEL, specs
from privbounds.simulators.kmms.halfplanes import grid_arrangement
from privbounds.simulators.kmms.select_halfplane import SelectHalfplane, log_output_law

RTOL = 1e-9

# The audit instance (found by an exact search over random configurations on X_1^2 and
# X_2^2, scratch): the grid X_1^2, points indexed x (d + 1) + y. S has 3 negatives at
# (0, 1) and 2 positives at (1, 0); S' moves one negative from (0, 1) to (1, 0).
# Threshold 2.94. Event: the output labels (1, 0) with 0 and (0, 1) with 1. Exact
# log-ratios P_S'(E) / P_S(E): 1.39 at eta = 1 (declared 2 eta = 2) and 3.45 with eta
# doubled (P_S(E) = 0.0027, P_S'(E) = 0.084): above 2, so the instance has power.
AUDIT = {"d": 1, "eta": 1.0, "neg": [0, 3, 0, 0], "neg_prime": [0, 2, 1, 0], "pos": [0, 0, 2, 0],
         "threshold": 2.94, "moved_from": 1, "moved_to": 2}


@noise_sources(NoiseSource("select-halfplane", "expmech", "privbounds.simulators.kmms.alg_selecthalfplane:SelectHalfplane",
                           param="epsilon", arg="eta",
                           what="Select Halfplane's density exp(eta q)"))
def selecthalfplane_events(budget, trials, rng, d, eta, neg, neg_prime, pos, threshold, moved_from, moved_to):
    """Select Halfplane (domain mode on X_d^2, density exp(budget eta q)) on S and on S':
    the event "the output rejects ``moved_to`` and accepts ``moved_from``"."""
    sel = SelectHalfplane(grid_arrangement(d), eta * budget)
    c1 = np.broadcast_to(np.asarray(pos, float), (trials, len(pos)))
    out = []
    for neg_side in (neg, neg_prime):
        c0 = np.broadcast_to(np.asarray(neg_side, float), (trials, len(neg_side)))
        _, rejects, _, _ = sel(c1, c0, np.full(trials, float(threshold)), rng)
        out.append(rejects[:, moved_to] & ~rejects[:, moved_from])
    return out[0], out[1]


def selecthalfplane_audit() -> AuditCase:
    a = AUDIT
    return AuditCase(
        "select-halfplane", f"Select Halfplane alone, density exp(eta q) at eta = {a['eta']:g}: 2 eta-DP "
        "(the paper's privacy paragraph)",
        "3 negatives at (0, 1) and 2 positives at (1, 0) on X_1^2, versus one negative moved to (1, 0) "
        f"(threshold {a['threshold']:g} on both sides)",
        "the output halfplane labels (1, 0) with 0 and (0, 1) with 1",
        2 * a["eta"], 0.0, selecthalfplane_events, dict(a), trials=200_000)


def sup_log_ratio(d: int, eta: float, examples: int, trials: int, rng) -> np.ndarray:
    """(trials,): sup over F x D of |ln p_S - ln p_S'| for random neighbouring pairs (module
    docstring), exactly, over the cells of the full grid's arrangement."""
    arr = grid_arrangement(d)
    P = arr.n_lines
    pts = rng.integers(0, P, (trials, examples))
    lab = rng.random((trials, examples)) < 0.5
    rows = np.arange(trials)[:, None]
    c1, c0 = np.zeros((trials, P)), np.zeros((trials, P))
    np.add.at(c1, (rows, pts), lab)
    np.add.at(c0, (rows, pts), ~lab)
    # S': replace example 0 of each trial by a fresh uniform labelled point
    c1b, c0b = c1.copy(), c0.copy()
    np.add.at(c1b, (np.arange(trials), pts[:, 0]), -lab[:, 0].astype(float))
    np.add.at(c0b, (np.arange(trials), pts[:, 0]), -(~lab[:, 0]).astype(float))
    new, new_lab = rng.integers(0, P, trials), rng.random(trials) < 0.5
    np.add.at(c1b, (np.arange(trials), new), new_lab.astype(float))
    np.add.at(c0b, (np.arange(trials), new), (~new_lab).astype(float))
    thr = rng.random(trials) * c0.sum(axis=1)
    # the sampler's own qualities and law (select_halfplane.py), on S and on S'
    sel = SelectHalfplane(arr, eta)
    logp = [log_output_law(arr, sel.qualities(a1, a0, thr), eta) for a1, a0 in ((c1, c0), (c1b, c0b))]
    return np.abs(logp[0] - logp[1]).max(axis=0)


class SelectHalfplaneCurve(Simulator):
    """A curve entry whose learner is one call of Select Halfplane (this theorem's and
    kmms.lem4_6's): 2 eta-DP, audited by ``selecthalfplane_audit``, n over the curve's rows."""

    accounting = "Select Halfplane, density exp(eta q): 2 eta-DP"

    def privacy(self, point):
        return {"epsilon": 2 * point["eta"], "delta": 0.0, "accounting": self.accounting}

    def audits(self):
        return [selecthalfplane_audit()]

    def n_range(self, point):
        c = self.curve(point)
        return c[0], c[-1]


class KmmsSelectHalfplane(SelectHalfplaneCurve):
    theorem_id = "kmms.alg_selecthalfplane"
    params = specs("d", "eta", "level")
    fidelities = GEOMETRY_FIDELITY
    _ds = {"smoke": [2], "quick": [2, 4, 8], "full": [2, 4, 8, 16]}

    def grid(self, fidelity, overrides):
        return expand({"d": self._ds[fidelity], "eta": [0.1, 1.0], "level": [NEVER_LEVEL]}, overrides)

    def check_point(self, point):
        super().check_point(point)
        if point["d"] > 32:
            from privbounds.params import ParameterError

            raise ParameterError(f"d must be at most 32 (domain mode), got {point['d']}")

    def curve(self, point):
        # the size of S
        return [4, 16]

    def run_trials(self, point, n, trials, rng):
        r = sup_log_ratio(point["d"], point["eta"], n, trials, rng)
        return r > 2 * point["eta"] * (1 + RTOL)
