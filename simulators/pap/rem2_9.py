"""Bassily et al., "Private Query Release Assisted by Public Data" (ICML 2020), Remark 2.9:
a query-release data structure G with error alpha gives a synthetic data set with error
3 alpha (post-processing, so privacy is unchanged).

Our construction (pap_learning.synthetic_lp): weights w on X minimising
t = max_h |G(h) - sum_x w_x h(x)| over the simplex, a linear program (D itself is
feasible with t = err(G; D), so t* <= err(G; D) <= alpha), then k = ceil(2 ln(2|H|/beta)
/ alpha^2) i.i.d. rows drawn from w (Hoeffding for +-1 queries with a union bound over
H: the rows answer every query within alpha of w with probability >= 1 - beta). Then
err(S; D) <= alpha + t* + err(G; D) <= 3 alpha.

Experiment: THR_64 (one scipy linprog per trial is unavoidable - the LP depends on the
trial's G - so the domain is small, about 4 ms per LP, and the trial counts modest: 100
at quick fidelity, 400 at full; alpha = 0.2 at quick, 0.2 and 0.1 at full). Inputs G:
- ``alg3``: Algorithm 3's output at the sizes Theorem 3.1 guarantees (public m =
  m_PAP(alpha, beta, 1); private n = our explicit n_PMW(alpha/2, beta/2, eps, delta, N =
  64, K = 65), valid since the cover's sizes are at most those of the whole class), D
  from the family (Dirichlet: lumpy, a fresh D per trial);
- ``perturbed``: a stress input that is alpha-accurate by construction, G(h) = E_D h +
  alpha U_h clipped to [-1, 1] with U_h uniform on [-1, 1] (not monotone in t, so no
  distribution fits it; the LP value is then near alpha/2 rather than near 0). Built from
  the true D, so not private: it tests the LP and the rounding only.
Each trial records, for measure ``lp``, "G is alpha-accurate and t* > alpha", and for
``rounded``, "G is alpha-accurate and err(S; D) > 3 alpha"; the Remark bounds both by
beta (the first is impossible for an optimal LP). The curve's n is Algorithm 3's private
size (unused by ``perturbed``).

Privacy: the LP and the rounding read only G; Algorithm 3's round is audited under
pap.thm3_1 (``unaudited`` says why not here).
"""

from __future__ import annotations

import numpy as np

from privbounds.bounds.pap import m_pap_public, n_pmw_offline, synthetic_error, synthetic_rows
from privbounds.params import Interval, Options
from privbounds.simulators.engine.simulator import Fidelity, Simulator, expand
from privbounds.simulators.pap.common import DELTA, line_probs, specs
from privbounds.simulators.pap.learning import round_synthetic, synthetic_lp
from privbounds.simulators.pap.query_classes import (
    DISTRIBUTIONS,
    query_matrix,
    sample_points,
    threshold_answers,
)
from privbounds.simulators.pap.release import release_thresholds, threshold_error
from privbounds.simulators.shared.accuracy import within

SIZE = 64
LP_FIDELITY = {
    "smoke": Fidelity(trials=10, block=10, steps=1, audit=0.25),
    "quick": Fidelity(trials=100, block=100, steps=4, audit=1.0),
    "full": Fidelity(trials=400, block=100, steps=4, audit=2.0),
}
GRIDS = {"smoke": {"alpha": [0.2], "dist": ["dirichlet"]},
         "quick": {"alpha": [0.2], "dist": ["dirichlet"]},
         "full": {"alpha": [0.2, 0.1], "dist": list(DISTRIBUTIONS)}}


def sizes(point) -> tuple[int, int]:
    """(m, n) at which Theorem 3.1 makes Algorithm 3 (alpha, beta)-accurate on THR_T."""
    a, b, t = point["alpha"], point["beta"], point["T"]
    return (int(m_pap_public(a, b, 1)),
            int(n_pmw_offline(a / 2, b / 2, point["epsilon"], point["delta"], t, t + 1)))


class PapRem29(Simulator):
    theorem_id = "pap.rem2_9"
    params = {"source": Options(("alg3", "perturbed")), "measure": Options(("lp", "rounded")),
              **specs("alpha", "beta", "epsilon", "delta", "dist"),
              # one LP a trial over T + 1 queries and T cells: memory and time grow as T^2 (memory)
              "T": Interval(2, 1024, "both", integer=True)}
    fidelities = LP_FIDELITY
    unaudited = {
        "Algorithm 3 followed by the LP and the rounding": (
            "an audit needs hundreds of thousands of runs per side, one linear program each, which is out of "
            "reach; the LP and the rounding read only G (post-processing), and one round of Algorithm 3 is "
            "audited under pap.thm3_1 (privacy-alg3-round-thr)."),
    }

    def grid(self, fidelity, overrides):
        g = GRIDS[fidelity]
        return expand({"source": ["alg3", "perturbed"], "measure": ["lp", "rounded"], "T": [SIZE],
                       "alpha": g["alpha"], "beta": [0.1], "epsilon": [1.0], "delta": [DELTA], "dist": g["dist"]},
                      overrides)

    def check_point(self, point):
        super().check_point(point)
        self.require_small_delta(point)

    def privacy(self, point):
        if point["source"] == "perturbed":
            return {"epsilon": None, "delta": None,
                    "accounting": "a stress input built from the true distribution: not a private release"}
        return {"epsilon": point["epsilon"], "delta": point["delta"],
                "accounting": "Algorithm 3 (PMW, advanced composition); the LP and the rounding are post-processing"}

    def n_range(self, point):
        n = sizes(point)[1]
        return n, n

    def curve(self, point):
        return [sizes(point)[1]]

    def memory(self, point, n, trials):
        """The block-diagonal LP of all trials, about 120 bytes a trial and a cell of the (T + 1)
        x T query matrix: measured (tracemalloc's peak, 4 trials) 2.1 MiB at T = 64, 30.1 MiB at
        T = 256, 119.2 MiB at T = 512."""
        return 120 * trials * (point["T"] + 1) * point["T"] + (64 << 20)

    def run_trials(self, point, n, trials, rng):
        a, b, size = point["alpha"], point["beta"], point["T"]
        probs = line_probs(point, trials, rng)
        truth = threshold_answers(probs)
        if point["source"] == "alg3":
            public = sample_points(probs, sizes(point)[0], rng)
            g = release_thresholds(public, probs, n, a, b, point["epsilon"], point["delta"], rng)[0]
        else:
            g = np.clip(truth + a * rng.uniform(-1.0, 1.0, truth.shape), -1.0, 1.0)
        accurate = within(threshold_error(g, probs), a)
        matrix = query_matrix("thr", size)
        rows = int(synthetic_rows(a, b, size + 1))
        w, t_star = synthetic_lp(g, matrix)  # all trials' LPs as one block-diagonal LP
        if point["measure"] == "lp":
            out = ~within(t_star, a)
        else:
            s = (round_synthetic(w, rows, rng) / rows) @ matrix.T
            out = ~within(np.abs(s - truth).max(axis=1), float(synthetic_error(a)))
        return accurate & out
