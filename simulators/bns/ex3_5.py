"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts",
Example 3.5: the direct sum of the exponential-mechanism learner (Thm 2.22) k-learns
PAR_d with pure eps-DP from O_{alpha,beta}(k d / eps) rows; Thm 5.4 shows every pure-DP
k-learner for PAR_d needs (k d ln 2 + ln(1 - beta)) / eps, so the two sandwich n_hat.

Experiment: x uniform on {0,1}^d, k uniform target parities, noiseless labels (two
distinct parities disagree on half the cube, so for alpha < 1/2 success means exact
recovery, which is the event Thm 5.4 bounds). Per column, the exponential mechanism
with eps/k over all 2^d parities, whose errors come from one Walsh-Hadamard transform
of the column's signed histogram (``walsh.parity_errors``).
"""

from __future__ import annotations

import numpy as np

from privbounds.params import ALPHA_BELOW_HALF, BETA, EPSILON, Interval
from privbounds.simulators.bns.walsh import parity_errors
from privbounds.simulators.engine.audit import AuditCase, NoiseSource, noise_sources
from privbounds.simulators.engine.simulator import Simulator, sweeps
from privbounds.simulators.shared.concepts import make_class
from privbounds.simulators.shared.learners import chunks
from privbounds.simulators.shared.mechanisms import exponential_mechanism


def expmech_parities(signed_hist, n, eps0, rng):
    """The exponential mechanism (Thm 2.22) over all 2^d parities on every column:
    signed_hist (B, k, 2^d) = rows labelled 0 minus rows labelled 1 at each x. Returns
    the chosen parities (B, k); eps0-DP per column (errors have sensitivity 1)."""
    return exponential_mechanism(-parity_errors(signed_hist, n), eps0, rng)


@noise_sources(NoiseSource("columns", "expmech", "privbounds.simulators.bns.ex3_5:expmech_parities",
                           param="epsilon", arg="eps0",
                           what="each column's exponential mechanism over parities, at eps0"))
def parity_columns_events(budget, trials, rng, epsilon, d, k, x0, rows):
    """Audit of Example 3.5's direct sum (``expmech_parities`` on k columns at eps/k each,
    basic composition): D has ``rows`` rows at x0 labelled 0 in every column, D' relabels
    one of them 1 in every column. E: every column's parity labels x0 with 1. For x0 != 0
    half the parities label x0 with 1, and their error exceeds the others' by ``rows`` on
    D and by rows - 2 on D', so one column's log-ratio (D' over D) on "labels x0 with 1"
    is eps0 + ln((1 + e^(-eps0 rows/2)) / (1 + e^(-eps0 (rows-2)/2))): close to eps0 when
    rows eps0 is large, while the event keeps probability about e^(-eps0 (rows - 2)/2)
    per column on D'."""
    X = 2 ** d
    labels_one = make_class("par", d).evaluate(np.arange(X), x0).astype(bool)  # parity a labels x0 with 1
    out = []
    for relabelled in (0, 1):
        signed = np.zeros(X)
        signed[x0] = rows - 2 * relabelled                       # (rows labelled 0) - (rows labelled 1)
        hits = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 4 * k * X):
            hist = np.broadcast_to(signed, (sl.stop - sl.start, k, X))
            h = expmech_parities(hist, rows, epsilon * budget / k, rng)
            hits[sl] = np.all(labels_one[h], axis=1)
        out.append(hits)
    return out[0], out[1]


class BnsEx35(Simulator):
    theorem_id = "bns.ex3_5"
    params = {
        "d": Interval(2, 12, "both", integer=True),
        "k": Interval(1, 1024, "both", integer=True),
        "epsilon": EPSILON,
        "alpha": ALPHA_BELOW_HALF,
        "beta": BETA,
    }
    _ks = {"smoke": [1, 8], "quick": [1, 2, 4, 8, 16, 32, 64], "full": [1, 2, 4, 8, 16, 32, 64, 128]}
    _ds = {"smoke": [4, 8], "quick": [4, 5, 6, 7, 8, 9, 10, 11, 12], "full": [3, 4, 5, 6, 7, 8, 9, 10, 11, 12]}
    D_FOR_K, K_FOR_D = 8, 4

    def grid(self, fidelity, overrides):
        base = {"epsilon": [1.0], "alpha": [0.1], "beta": [0.1]}
        return sweeps({"d": [self.D_FOR_K], "k": self._ks[fidelity], **base},
                      {"d": self._ds[fidelity], "k": [self.K_FOR_D], **base}, overrides, ("d", "k"))

    def privacy(self, point):
        return {"epsilon": point["epsilon"], "delta": 0.0,
                "accounting": "basic composition of k exponential mechanisms over PAR_d, eps/k each"}

    def n_range(self, point):
        return 2, 1 << 20

    def audits(self):
        """Example 3.5's direct sum at d = 2, k = 2 columns (eps/2 each), eps = 1, x0 = 3, 4 rows
        (``parity_columns_events``): the number of rows was chosen from the exact output
        distributions (``exponential_mechanism_probs``) as the one whose doubled budget
        shows its loss with the fewest trials: exact log-ratio 0.68 as declared and 1.63
        doubled, with probability 0.072 on D' under the doubled budget (2 rows: 1.24
        doubled; 6 rows: probability 0.014)."""
        return [AuditCase("direct-sum", "direct sum of exponential mechanisms over PAR_2, k = 2 columns at "
                          "eps/k = 0.5", "4 rows at x0 = 3 labelled 0 in both columns versus one of them labelled 1 in both",
                          "both parities label x0 with 1", 1.0, 0.0, parity_columns_events,
                          {"epsilon": 1.0, "d": 2, "k": 2, "x0": 3, "rows": 4}, trials=100_000)]

    def run_trials(self, point, n, trials, rng):
        d, k = point["d"], point["k"]
        X = 2 ** d
        cls = make_class("par", d)
        eps0 = point["epsilon"] / k
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 4 * k * X):
            b = sl.stop - sl.start
            counts = rng.multinomial(n, np.full(X, 1.0 / X), size=b)          # (b, X)
            targets = rng.integers(0, X, size=(b, k))
            sign = np.where(cls.evaluate(targets[:, :, None], np.arange(X)), -1.0, 1.0)  # (b, k, X)
            h = expmech_parities(counts[:, None, :] * sign, n, eps0, rng)
            ok[sl] = np.all(h == targets, axis=1)
        return ok
