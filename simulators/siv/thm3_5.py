"""Sivakumar, "A Basic Overview of Private PAC Learning", Theorem 3.5: an (eps, delta)-DP
PAC learner with n samples gives an (eps, delta)-DP empirical learner on 9n rows. The
notes give no proof; the construction is the secrecy-of-the-sample reduction of Bun,
Nissim, Stemmer and Vadhan (2015), the same as Bun-Nissim-Stemmer Thm 2.24 with Lemma 2.25
(simulators/bns/subsample.py): B(S) draws n = ceil(m / 9) rows of S uniformly with replacement
and runs the PAC learner on them.

Experiment: the PAC learner is Thm 3.3's exponential mechanism over THRESH_b (the
interval sampler of private_thresholds.py), eps = 1. The database S of m rows is fixed
and worst-case, and realisable: four consecutive grid points at a random place, labelled
by the threshold at the third, with the rows spread
- ``even``: m/4 rows on each point (thresholds at the 2nd, 3rd, 4th point err on <= m/4);
- ``skewed``: m/8, 3m/8, 3m/8, m/8 rows (only the 3rd point's threshold errs on <= m/4).
Success, over B's coins only: the output misclassifies at most m/4 rows of S. The engine's
n is the database size m; its n_hat is checked against 9 N_expmech.

Privacy: the experiments' accounting is the lemma's 6 eps n / m (RECONSTRUCTED
constants, stated for eps <= 1). The audit declares something tighter, so that it can
catch a reduction that draws too many rows: B on n = 1 row drawn from m = 9 at eps = 2 is
ln(1 + (e^eps - 1)/m) = 0.537-DP (one uniform draw, exact; ``one_draw_epsilon``), well
under the lemma's 4/3. (At eps <= 1 no instance has power against the lemma's own value:
see bns.lem2_25.) D = 9 rows (0, label 0), D' relabels one of them 1, THRESH_6; E = "the
output labels 0 with 1" (threshold 0 only, against 64 others). Exact log-ratios: 0.52
declared, 1.85 with the budget doubled (eps = 4), and a B that drew 2 rows would exceed
0.537.
"""

from __future__ import annotations

import numpy as np

from privbounds.bounds.sivakumar import amplified_epsilon, one_draw_epsilon
from privbounds.params import ALPHA, BETA, EPSILON_AT_MOST_1, Interval, Options
from privbounds.simulators.engine.audit import AuditCase, NoiseSource, noise_sources
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.shared.accuracy import within
from privbounds.simulators.shared.learners import chunks
from privbounds.simulators.siv.private_thresholds import interval_sampler

RATIO = 9
SPREADS = {"even": (0.25, 0.25, 0.25, 0.25), "skewed": (0.125, 0.375, 0.375, 0.125)}


def database(m: int, spread: str, b: int, trials: int, rng: np.random.Generator):
    """(support (B, 4), row counts (B, 4), labels (B, 4)): the fixed database of m rows
    (counts rounded down, the remainder on the 3rd point) at a random place."""
    frac = np.asarray(SPREADS[spread])
    rows = np.floor(frac * m).astype(np.int64)
    rows[2] += m - rows.sum()
    start = rng.integers(0, (1 << b) - 3, size=trials)
    support = start[:, None] + np.arange(4)[None, :]
    labels = np.broadcast_to(np.arange(4) >= 2, (trials, 4))
    return support, np.broadcast_to(rows, (trials, 4)), labels


def subsampled(support, rows, labels, n: int, b: int, epsilon: float, rng: np.random.Generator):
    """B: n rows drawn uniformly with replacement from the database (as counts on its
    support), then the exponential-mechanism learner on them."""
    m = rows.sum(axis=1, keepdims=True)
    counts = rng.multinomial(n, rows / m)
    return interval_sampler(support, counts, labels, b, epsilon, rng)


def empirical_errors(t, support, rows, labels):
    """Rows of the database that threshold t (B,) misclassifies."""
    return (((support >= np.asarray(t)[:, None]) != labels) * rows).sum(axis=1)


@noise_sources(NoiseSource("interval-sampler", "expmech", "privbounds.simulators.siv.thm3_5:interval_sampler",
                           param="epsilon", arg="epsilon",
                           what="the exponential-mechanism learner on the subsample, at its epsilon"))
def subsample_events(budget, trials, rng, b, m, n, epsilon):
    """B on m rows (0, label 0) versus m - 1 of them and (0, label 1); E = output 0."""
    out = []
    for flip in (False, True):
        support = np.zeros((trials, 2), dtype=np.int64)
        rows = np.broadcast_to(np.array([m - int(flip), int(flip)]), (trials, 2))
        labels = np.broadcast_to(np.array([False, True]), (trials, 2))
        t = subsampled(support, rows, labels, n, b, epsilon * budget, rng)
        out.append(t == 0)
    return out[0], out[1]


class SivThm35(Simulator):
    theorem_id = "siv.thm3_5"
    params = {
        "b": Interval(2, 60, "both", integer=True),
        "spread": Options(tuple(SPREADS)),
        "epsilon": EPSILON_AT_MOST_1,
        "alpha": ALPHA,
        "beta": BETA,
    }
    _bs = {"smoke": [4, 16], "quick": [4, 8, 16, 32], "full": [4, 8, 12, 16, 24, 32, 48]}

    def grid(self, fidelity, overrides):
        return expand({"b": self._bs[fidelity], "spread": list(SPREADS), "epsilon": [1.0], "alpha": [0.25],
                       "beta": [0.25]}, overrides)

    def privacy(self, point):
        eps = point["epsilon"]
        return {"epsilon": float(amplified_epsilon(eps, 1, RATIO)), "delta": 0.0,
                "accounting": f"the exponential mechanism (eps = {eps:g}) on m/9 rows subsampled from m: "
                              "6 eps n / m = 2 eps / 3 by secrecy of the sample (RECONSTRUCTED constants)"}

    def n_range(self, point):
        return RATIO * 2, 1 << 16

    def audits(self):
        eps, n, m = 2.0, 1, RATIO
        return [AuditCase("subsampled", f"B: the exponential-mechanism learner at eps = {eps:g} on n = {n} row "
                          f"drawn from m = {m}; declared ln(1 + (e^eps - 1)/m), tighter than the lemma's 6 eps n / m",
                          f"{m} rows (0, label 0) versus {m - 1} of them and (0, label 1), THRESH_6",
                          "the output is threshold 0 (labels 0 with 1)",
                          float(one_draw_epsilon(eps, m)), 0.0, subsample_events,
                          {"b": 6, "m": m, "n": n, "epsilon": eps}, trials=200_000)]

    def run_trials(self, point, n, trials, rng):
        m, b = int(n), point["b"]
        inner = -(-m // RATIO)  # ceil: the inner learner never gets fewer rows than m / 9
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 16):
            k = sl.stop - sl.start
            support, rows, labels = database(m, point["spread"], b, k, rng)
            t = subsampled(support, rows, labels, inner, b, point["epsilon"], rng)
            ok[sl] = within(empirical_errors(t, support, rows, labels) / m, point["alpha"])
        return ok
