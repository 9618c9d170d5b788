"""Privacy audits of the release algorithms of Bassily et al., "Private Query Release
Assisted by Public Data" (ICML 2020): PMW (Algorithm 1) and Algorithm 3 on thresholds and
on stumps, each one round at a time.

A whole run of PMW spreads eps over up to c = floor(16 ln N / a^2) + 1 AboveThreshold
instances and as many measurements (advanced composition), each eps0 = eps / (4 sqrt(c
ln(1/delta))): at the experiments' sizes eps0 is about 1e-4, and no event of a whole run
shows a doubled budget. The unit is audited instead, through the same code (``pmw`` with
``one_round=e0``: cap 1, per-mechanism epsilon e0): one AboveThreshold instance and one
measurement, pure 2 e0-DP. Neighbours: n private rows, c0 of them in the first cell,
versus one of those moved to the last cell (the first query's answer on the sample drops
by 1/n); the public sample is the same on both sides (it is never charged). Event, fixed
in advance and a function of the released answers only: the answer of the query over the
first cell exceeds t0 on the +-1 scale (only a "top" can release it: the synthetic start
answers 0). At alpha = 0.99 the threshold is 3a/4 with a = alpha/4, so a "top" is
neither certain nor rare, and the event mixes the comparison's and the measurement's
losses: e0 = 1, n = 6, c0 = 5, t0 = 0.98 give eps_hat about 1.1 as declared (2e0 = 2) and
2.2 with the budget doubled (scratch runs of 10^6 trials per side).
"""

from __future__ import annotations

import numpy as np

from privbounds.simulators.pap_release import pmw_all_thresholds, release_stumps, release_thresholds

ROUND = {"n": 6, "c0": 5, "t0": 0.98, "e0": 1.0, "alpha": 0.99}


def _sides(c0, n, trials, size):
    """Private histograms over [size]: D has c0 rows at 0 and the rest at size - 1; D' moves
    one row from 0 to size - 1."""
    out = []
    for c in (c0, c0 - 1):
        counts = np.zeros((trials, size))
        counts[:, 0], counts[:, -1] = c, n - c
        out.append(counts)
    return out


def pmw_round_events(budget, trials, rng, n, c0, t0, e0, alpha):
    """PMW over all of [2] answering THR_2: the query h_1 (the first cell) > t0."""
    probs = np.full((trials, 2), 0.5)
    return [pmw_all_thresholds(probs, n, alpha, 1.0, 1e-3 / n, rng, private_counts=c,
                               one_round=e0 * budget, answers=True)[0][:, 1] > t0
            for c in _sides(c0, n, trials, 2)]


def alg3_round_events(budget, trials, rng, n, c0, t0, e0, alpha):
    """Algorithm 3 on THR_4 with the public sample {1} on both sides: the cover is
    {h_0, h_2}, the cells {0, 1} and {2, 3}; the event is G(h_2) > t0."""
    public = np.ones((trials, 1), dtype=np.int64)
    probs = np.full((trials, 4), 0.25)
    return [release_thresholds(public, probs, n, alpha, 0.1, 1.0, 1e-3 / n, rng, private_counts=c,
                               one_round=e0 * budget)[0][:, 2] > t0
            for c in _sides(c0, n, trials, 4)]


def stump_round_events(budget, trials, rng, n, c0, t0, e0, alpha):
    """Algorithm 3 on STUMP_2 with the public rows (+1, -1), (+1, +1) on both sides (both
    columns kept): private frequencies of x_1 = +1 of c0/n versus (c0 - 1)/n, of x_2 = +1
    one half; the event is G(h_1) > t0."""
    public = np.broadcast_to(np.array([[1, -1], [1, 1]], dtype=np.int8), (trials, 2, 2))
    mu = np.zeros((trials, 2))
    out = []
    for c in (c0, c0 - 1):
        freq = np.column_stack([np.full(trials, c / n), np.full(trials, 0.5)])
        g = release_stumps(public, mu, n, alpha, 0.1, 1.0, 1e-3 / n, rng, private_freq=freq,
                           one_round=e0 * budget)[0]
        out.append(g[:, 0] > t0)
    return out
