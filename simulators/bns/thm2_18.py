"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts",
Theorem 2.18 (Blum, Ligett, Roth): every class C over a finite X has an eps-DP
(alpha, beta)-accurate sanitizer from O(VC log|X| log(1/alpha) / (alpha^3 eps)) rows:
the exponential mechanism over all small synthetic databases, scored by their worst
query error.

BLR takes time exponential in |X| and 1/alpha, so it runs here only at TOY size, as the
issue allows: X = {0, ..., 7}, C = the 9 threshold (prefix) queries, synthetic databases
of s = 8 rows (all 6435 histograms of 8 rows over 8 points; the best one is within
1/(2s) of any database on every prefix). Score of S: -n max_q |q(S) - q(D)|, sensitivity
1, so the mechanism is eps-DP. Rows: 0.6 on a random point, 0.4 uniform. Success: the
released S answers every prefix query within alpha. The paper's bound has hidden
constants; our explicit bound is the exponential mechanism's for this toy,
n >= 2 ln(N_s / beta) / (eps (alpha - 1/(2s))), N_s the number of candidates.

Privacy audit (engine/audit.py) of ``blr_release``, the mechanism ``run_trials`` runs:
D has 16 rows, (7, 2, 0, 4, 2, 0, 0, 1) at the points 0..7, and D' moves the row at 7
to 0, so that every prefix count q_1..q_7 moves by one and every candidate's score moves
by +-1 (238 rise, 6197 fall): the worst case of the exponential mechanism's analysis.
E = {the released S is strictly closer to D' than to D in worst prefix error} (the 238
candidates whose score rises), fixed from D and D' alone. The instance was picked among
small databases by the exact output distributions, for the largest privacy loss on an
event of non-negligible probability: P[E] is 0.212 on D' against 0.090 on D at eps = 1
(loss 0.86), 0.449 against 0.099 at eps = 2 (loss 1.51). Each BLR run scores all 6435
candidates, so the audit affords only some thousand trials.
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np

from privbounds.params import BETA, EPSILON, Interval
from privbounds.simulators.engine.audit import AuditCase, NoiseSource, noise_sources
from privbounds.simulators.engine.simulator import Simulator, sweeps
from privbounds.simulators.shared.accuracy import within
from privbounds.simulators.shared.learners import chunks
from privbounds.simulators.shared.mechanisms import exponential_mechanism

DOMAIN, SYNTH = 8, 8


@cache
def candidate_prefixes(domain: int = DOMAIN, size: int = SYNTH) -> np.ndarray:
    """Prefix answers (N_s, domain + 1) of every histogram of ``size`` rows over
    ``domain`` points (stars and bars)."""
    rows = []
    for bars in itertools.combinations(range(size + domain - 1), domain - 1):
        edges = (-1,) + bars + (size + domain - 1,)
        hist = np.diff(edges) - 1
        rows.append(np.r_[0, np.cumsum(hist)] / size)
    return np.array(rows)


def prefix_distances(hist: np.ndarray) -> np.ndarray:
    """n max_q |q(S) - q(D)| over the prefix queries q, for every candidate S and every
    row D of hist (B, DOMAIN): (B, N_s). Equal rows are computed once (an audit runs one
    database many times)."""
    uniq, inv = np.unique(hist, axis=0, return_inverse=True)
    n = uniq.sum(axis=1, keepdims=True)
    truth = np.concatenate([np.zeros((uniq.shape[0], 1)), np.cumsum(uniq, axis=1)], axis=1) / n
    err = np.abs(candidate_prefixes()[None, :, :] - truth[:, None, :]).max(axis=-1)  # (U, N_s)
    return (n * err)[inv.ravel()]


def blr_release(hist: np.ndarray, epsilon: float, rng: np.random.Generator) -> np.ndarray:
    """The exponential mechanism over all synthetic databases: hist (B, DOMAIN) sample
    counts -> index of the released candidate (B,). Score -n max_q |q(S) - q(D)|."""
    return exponential_mechanism(-prefix_distances(hist), epsilon, rng)


@noise_sources(NoiseSource("blr", "expmech", "privbounds.simulators.bns.thm2_18:blr_release",
                           param="epsilon", arg="epsilon",
                           what="BLR's exponential mechanism over databases"))
def blr_events(budget, trials, rng, epsilon, hist, move):
    """BLR on D = ``hist`` and on D', D with one row moved from point move[0] to
    move[1]; E = {the released S is strictly closer to D' than to D in worst prefix
    error} (module docstring), fixed from D and D' before sampling."""
    d = np.asarray(hist, dtype=np.int64)
    d2 = d.copy()
    d2[move[0]] -= 1
    d2[move[1]] += 1
    closer = prefix_distances(d2[None])[0] < prefix_distances(d[None])[0]  # (N_s,)
    out = []
    for h in (d, d2):
        hits = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 2 * closer.size):
            pick = blr_release(np.broadcast_to(h, (sl.stop - sl.start, DOMAIN)), epsilon * budget, rng)
            hits[sl] = closer[pick]
        out.append(hits)
    return out[0], out[1]


class BnsThm218(Simulator):
    theorem_id = "bns.thm2_18"
    params = {
        "alpha": Interval(1 / (2 * SYNTH), 0.5, "neither"),
        "epsilon": EPSILON,
        "beta": BETA,
    }
    _eps = {"smoke": [1.0, 0.25], "quick": [2.0, 1.0, 0.5, 0.25, 0.125], "full": [4.0, 2.0, 1.0, 0.5, 0.25, 0.125]}
    _alphas = {"smoke": [0.3], "quick": [0.3, 0.2, 0.15, 0.1], "full": [0.4, 0.3, 0.25, 0.2, 0.15, 0.1, 0.08]}

    def grid(self, fidelity, overrides):
        return sweeps({"alpha": [0.2], "epsilon": self._eps[fidelity], "beta": [0.1]},
                      {"alpha": self._alphas[fidelity], "epsilon": [1.0], "beta": [0.1]}, overrides, ("alpha", "epsilon"))

    def privacy(self, point):
        return {"epsilon": point["epsilon"], "delta": 0.0,
                "accounting": "exponential mechanism over all 8-row synthetic databases (BLR, toy size)"}

    def n_range(self, point):
        return 2, 1 << 20

    AUDIT_HIST, AUDIT_MOVE = (7, 2, 0, 4, 2, 0, 0, 1), (7, 0)

    def audits(self):
        return [AuditCase("blr", "BLR (exponential mechanism over the 6435 synthetic databases) at eps = 1",
                          "16 rows (7, 2, 0, 4, 2, 0, 0, 1) on the points 0..7 versus the row at 7 moved to 0",
                          "the released S is strictly closer to D' than to D in worst prefix error", 1.0, 0.0,
                          blr_events, {"epsilon": 1.0, "hist": list(self.AUDIT_HIST), "move": list(self.AUDIT_MOVE)},
                          trials=6_000)]

    def run_trials(self, point, n, trials, rng):
        cand = candidate_prefixes()
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 2 * cand.size):
            b = sl.stop - sl.start
            spike = np.eye(DOMAIN)[rng.integers(0, DOMAIN, size=b)]
            hist = rng.multinomial(n, 0.6 * spike + 0.4 / DOMAIN)  # one draw per row, as a loop would
            pick = blr_release(hist, point["epsilon"], rng)
            truth = np.concatenate([np.zeros((b, 1)), np.cumsum(hist, axis=1)], axis=1) / n
            ok[sl] = within(np.abs(cand[pick] - truth).max(axis=1), point["alpha"])
        return ok
