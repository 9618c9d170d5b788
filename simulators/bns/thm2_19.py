"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts",
Theorem 2.19 (Hardt and Rothblum's private multiplicative weights): every finite query
class C over a finite X has an (eps, delta)-DP (alpha, beta)-accurate sanitizer from
about log|C| sqrt(log|X|) sqrt(log(1/delta)) / (alpha^2 eps) rows.

Experiment: the PMW sanitizer of ``simulators/bns/pmw.py`` (Dwork-Roth's online MW via
NumericSparse, run over the query class as a stream) releasing all |X| + 1 threshold
(prefix) queries of a sample uniform on X = {0, ..., 2^d - 1}. Success: the largest
error over the queries of the released synthetic distribution is <= alpha. Domains up to
2^7 points here: below its sample size PMW runs up to its cutoff of ~4 ln|X| / a^2 update
rounds, which is what a simulation pays for (the mechanism allows 2^12).

Privacy audit (engine/audit.py). The whole PMW has no powered instance (``unaudited``):
its budget is spread by advanced composition over up to c AboveThreshold rounds. Its
unit is audited instead, through the same ``pmw_run``: one round (``one_round``: the
cutoff c = 1, so NumericSparse halts at its first "above"), pure (eps_AT + eps_L)-DP by
Dwork-Roth Thm 3.23 (AboveThreshold) and the Laplace mechanism. A round's share is
eps_AT = eps1 / sqrt(8 c ln(2/delta)) of the whole's constants, and
``pmw_parameters`` accepts eps only while c eps_AT (e^eps_AT - 1) <= eps1 / 2, which caps
eps_AT below sqrt(2 ln(2/delta) / c); to make one round's loss observable the instance
takes c = 533 (|X| = 8, alpha = 0.375, so a = 1/8 and T = 1/4), delta = 1e-20 and eps =
160: eps_AT = 0.343, eps_L = 0.015 (the whole is then (160, 1e-20)-DP, which the audit
does not use). D has n = 160 rows, (1, 0, 18, 20, 20, 101, 0, 0) at the points 0..7;
D' moves the row at 0 to 7, which lowers every prefix count q_1..q_7 by one. Against the
uniform start, the stream f'_{2i-1} = q_i(x) - q_i(x^1), f'_{2i} = -f'_{2i-1} (in rows:
f' n) then holds the "minus" slots of q_2..q_5 within a row of T n = 40 (39, 41, 41,
41) and the "plus" slot of q_6 at 40, the rest at most 20; the noise is Lap(5.8) on the
threshold, Lap(11.7) on each slot and Lap(66) on the numeric answer. E = {the round's
update raised the prefix [0, 6)}, i.e. q_6's plus slot was the first "above": on D' the
four earlier slots are one row higher (more often "above" first) and q_6's one row
lower, the AboveThreshold worst case (the "below" answers move the threshold, the
"above" answer the query). Exact probabilities (numerical integration over the
threshold noise): 0.0213 on D against 0.0159 on D' (loss 0.29 of 0.358), 0.0238
against 0.0131 doubled (loss 0.59 of 0.717).

That event mixes the round's three noises, and halving one of them alone (the
mutation test of engine/mutations.py, at the scale functions of simulators/bns/pmw.py)
leaves it below 0.358: threshold 0.19, query 0.35, numeric 0.17 at 200,000 trials. So
the threshold noise is audited on its own too (``pmw-round-below``,
``pmw_below_events``): the all-below outcome, which Sparse's proof charges to the
threshold alone (eps_AT / 2 for every pair), caught at 0.24 when that noise is halved.

The query noise on its own (``pmw-round-query``, ``QUERY_ROUND``): the same one-round
code on X = {0, 1} (queries [0, 0), [0, 1), [0, 2)), alpha = 0.6, eps = 128, delta =
1e-20 (c = 70, eps_AT = 0.758, eps_L = 0.033). D has 24 rows, 18 at 0; D' moves one to 1,
which changes the prefix [0, 1) only: its plus slot f' = 6 rows on D, 5 on D' (threshold
T = 9.6 rows, noise Lap(2.64) on it, Lap(5.28) on every slot, Lap(29.9) on the numeric
answer). E = {the round's update raised [0, 1)}: that slot was the first above and its
numeric answer positive, or its minus slot (f' = -6 rows) was and its answer negative.
Only the moved query's two slots and its answer differ between D and D', so the proof
(condition on the threshold and the other slots' noise) charges the first transcript
Delta / (4 Delta / eps_AT) + eps_L and the second eps_L from D to D': declared
eps_AT / 4 + eps_L = 0.223. From D' to D only the second can gain (at most eps_AT / 2);
it holds 6.3% of E's mass on D, so that direction's loss is at most ln(1 + (e^(eps_AT/2)
- 1) 0.063) = 0.029. The slot sits 3.6 rows (0.7 of its noise's scale) under the
threshold, where the query noise, twice the threshold's, makes most of the tail.
Exact (numerical integration over the threshold noise): P[E] = 0.136 on D, 0.115 on D'
(loss 0.165 of 0.223); query noise halved: 0.105 and 0.076 (0.325); threshold noise
halved 0.174, numeric noise halved 0.177; doubled budget 0.388. At 400,000 trials per
side the expected eps_hat is 0.136 clean, 0.289 with the query noise halved, 0.351
doubled.

The numeric answer has no instance: its loss is a small share of every round. The book's
split gives eps_L = eps2 / sqrt(32 c ln(2/delta)) and eps_AT = eps1 / sqrt(8 c ln(2/delta)),
so eps_L = eps_AT / sqrt(512) = 0.044 eps_AT in every parameterisation (0.015 of
pmw-round's 0.358). Halving its noise raises a round's worst case by eps_L only (0.358
to 0.374), and an event that isolates it (one moved query whose "above" is near-certain,
E = the sign of its numeric answer, declared eps_L) loses part of eps_L to the comparison:
the best such instance we found (X = {0, 1}, alpha = 0.3, eps = 153, delta = 1e-20, n = 76,
75 rows at 0) has an exact loss of 0.013 of eps_L = 0.020, 0.033 with the numeric noise
halved, which an eps_hat resolves above 0.020 only from about 3.2 million trials per side
(0.5 million at delta = 1e-300, where eps_L = 0.052). tests/bns/test_pmw.py measures the
numeric answer's scale instead (``test_numeric_answer_noise_has_the_declared_scale``),
and fails with it halved.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from privbounds.params import ALPHA_BELOW_HALF, APPROX_DELTA, BETA, EPSILON_AT_MOST_1, Interval
from privbounds.simulators.bns.pmw import pmw_parameters, pmw_run, pmw_sanitize
from privbounds.simulators.engine.audit import AuditCase, NoiseSource, noise_sources
from privbounds.simulators.engine.simulator import Simulator, sweeps
from privbounds.simulators.shared.accuracy import within
from privbounds.simulators.shared.learners import chunks


def threshold_queries(domain_size: int) -> np.ndarray:
    """The prefix queries 1[x < m] for m = 0..|X| as a boolean matrix (|X| + 1, |X|)."""
    return np.arange(domain_size)[None, :] < np.arange(domain_size + 1)[:, None]


def one_round(params, budget=1.0):
    """PMW's constants with the cutoff c = 1 (one AboveThreshold instance and its numeric
    answer: NumericSparse halts at the first "above") and every noise scale divided by
    ``budget``. The round's share of the budget is eps_AT + eps_L (``round_epsilon``)."""
    return dataclasses.replace(params, cutoff=1, max_passes=2, threshold_scale=params.threshold_scale / budget,
                               query_scale=params.query_scale / budget,
                               numeric_scale=params.numeric_scale / budget)


def round_epsilon(params) -> float:
    """eps_AT + eps_L: one AboveThreshold instance (threshold Lap(2 Delta / eps_AT),
    queries Lap(4 Delta / eps_AT)) and one numeric answer (Lap(Delta / eps_L)), Delta = 1/n,
    composed (basic composition): what one update round of PMW spends."""
    return params.eps_above_threshold + 1.0 / (params.numeric_scale * params.n)


_PMW = "privbounds.simulators.bns.pmw"
PMW_SOURCES = (
    NoiseSource("threshold", "svt-threshold", f"{_PMW}:sparse_threshold_scale", what="NumericSparse's threshold, sigma"),
    NoiseSource("query", "svt-query", f"{_PMW}:sparse_query_scale", what="the compared queries' 2 sigma"),
    NoiseSource("numeric", "laplace", f"{_PMW}:numeric_answer_scale", what="an above query's released value"),
)


# Why pmw-round does not catch one noise halved on its own (engine/mutations.py prints it),
# with what catches it instead; the numbers are the 200,000-trial table's and the module
# docstring's. Shared with bns.lem3_6, which runs the same instance.
PMW_ROUND_UNCAUGHT = {
    "threshold": "the event mixes the round's three noises: the threshold's halving moves eps_hat 0.18 -> 0.19 "
                 "of 0.358; caught by bns.thm2_19 pmw-round-below (0.13 -> 0.24 of 0.172, the all-below outcome "
                 "that the proof charges to the threshold alone)",
    "query": "the event mixes the round's three noises: eps_hat 0.18 -> 0.35 of 0.358 at 200,000 trials; caught by "
             "bns.thm2_19 pmw-round-query (exact loss 0.165 -> 0.325 of 0.223, one moved query)",
    "numeric": "eps_L = eps_AT / sqrt(512) = 0.015 of the round's 0.358, so halving it raises the worst case to 0.374 "
               "only; an instance isolating it needs about 3.2 million trials per side (thm2_19 docstring); "
               "caught by tests/bns/test_pmw.py::test_numeric_answer_noise_has_the_declared_scale",
}

# pmw-round-query (module docstring): one prefix query moved on X = {0, 1}
QUERY_ROUND = {"hist": [18, 6], "move": [0, 1], "alpha": 0.6, "epsilon": 128.0, "delta": 1e-20, "query": 1}


def query_audit() -> AuditCase:
    a = QUERY_ROUND
    p = pmw_parameters(sum(a["hist"]), len(a["hist"]), len(a["hist"]) + 1, a["alpha"], a["epsilon"], a["delta"])
    eps_l = 1.0 / (p.numeric_scale * p.n)
    return AuditCase(
        "pmw-round-query", f"one update round of PMW (cutoff 1) at |X| = 2, alpha = 0.6, eps = 128, delta = 1e-20 "
        f"(eps_AT = {p.eps_above_threshold:.3f}, eps_L = {eps_l:.3f}): one moved query, charged its comparison and "
        "its numeric answer", "24 rows (18, 6) on the points 0, 1 versus one row moved from 0 to 1 (only the prefix "
        "[0, 1) changes)", "the update raised the prefix [0, 1)", p.eps_above_threshold / 4 + eps_l, 0.0,
        pmw_round_events, dict(a), trials=400_000, sources=(PMW_SOURCES[1],), mutation_trials=400_000)


BELOW_ROUND = {"hist": [61, 20, 20, 20, 20, 19, 0, 0], "move": [0, 7], "alpha": 0.375, "epsilon": 160.0,
               "delta": 1e-20}


@noise_sources(PMW_SOURCES[0])
def pmw_below_events(budget, trials, rng, hist, move, alpha, epsilon, delta):
    """One round of ``pmw_run`` (``one_round``) answering the prefix queries of {0, ..., 7}
    on D = ``hist`` and on D' (one row moved from move[0] to move[1]): the prefix gaps
    f(x) - f(x^1) of [0, 1) .. [0, 6) are 41 rows on D and 40 on D' (the threshold 2a n =
    40 rows, its noise 5.8 rows, the queries' 11.7), that of [0, 7) 20 and 19. E = {no
    update}: AboveThreshold answered every stream query below, an outcome whose loss the
    proof of Sparse bounds by the threshold noise alone, eps_AT / 2 for every pair (shift
    the threshold by Delta). The prefix class allows at most |X| - 2 gaps near the
    threshold at once, and the query noise is twice the threshold's, so the audit reaches
    only about 0.6 of eps_AT / 2 (scratch runs, 200,000 per side: eps_hat 0.098 of 0.172);
    with the threshold noise halved it shows 0.195."""
    d = np.asarray(hist, dtype=np.int64)
    d2 = d.copy()
    d2[move[0]] -= 1
    d2[move[1]] += 1
    Q = threshold_queries(d.size)
    params = one_round(pmw_parameters(int(d.sum()), d.size, Q.shape[0], alpha, epsilon, delta), budget)
    out = []
    for h in (d, d2):
        hits = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 16 * Q.size):
            hits[sl] = pmw_run(np.broadcast_to(h, (sl.stop - sl.start, d.size)), Q, params, rng).updates == 0
        out.append(hits)
    return out[0], out[1]


def below_audit() -> AuditCase:
    a = BELOW_ROUND
    p = pmw_parameters(sum(a["hist"]), len(a["hist"]), len(a["hist"]) + 1, a["alpha"], a["epsilon"], a["delta"])
    return AuditCase(
        "pmw-round-below", f"one update round of PMW (cutoff 1) at |X| = 8, alpha = 0.375, eps = 160, delta = 1e-20 "
        f"(eps_AT = {p.eps_above_threshold:.3f}): its all-below outcome, bounded by the threshold noise alone",
        "160 rows (61, 20, 20, 20, 20, 19, 0, 0) on the points 0..7 versus the row at 0 moved to 7 (every prefix "
        "gap one row less)",
        "no update (every stream query below the threshold)", p.eps_above_threshold / 2, 0.0, pmw_below_events,
        dict(a), trials=400_000, mutation_trials=400_000)


@noise_sources(*PMW_SOURCES)
def pmw_round_events(budget, trials, rng, hist, move, alpha, epsilon, delta, query):
    """One round of ``pmw_run`` (``one_round``) answering the prefix queries of X = {0, ...,
    len(hist) - 1} on D = ``hist`` and on D', D with one row moved from point move[0] to
    move[1]. E = {the round's update raised the prefix [0, query)}: the synthetic
    distribution puts more weight on query - 1 than on query (log-ratio above eta / 2;
    an update moves it by eta, and no other update separates the two points)."""
    d = np.asarray(hist, dtype=np.int64)
    d2 = d.copy()
    d2[move[0]] -= 1
    d2[move[1]] += 1
    X = d.size
    Q = threshold_queries(X)
    params = one_round(pmw_parameters(int(d.sum()), X, Q.shape[0], alpha, epsilon, delta), budget)
    out = []
    for h in (d, d2):
        hits = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 16 * Q.size):
            syn = pmw_run(np.broadcast_to(h, (sl.stop - sl.start, X)), Q, params, rng).synthetic
            hits[sl] = np.log(syn[:, query - 1] / syn[:, query]) > params.eta / 2
        out.append(hits)
    return out[0], out[1]


class BnsThm219(Simulator):
    theorem_id = "bns.thm2_19"
    params = {
        "d": Interval(1, 12, "both", integer=True),
        "alpha": ALPHA_BELOW_HALF,
        "epsilon": EPSILON_AT_MOST_1,
        "delta": APPROX_DELTA,
        "beta": BETA,
    }
    _alphas = {"smoke": [0.4, 0.3], "quick": [0.4, 0.3, 0.25, 0.2], "full": [0.4, 0.35, 0.3, 0.25, 0.2, 0.15]}
    _ds = {"smoke": [2, 4], "quick": [2, 3, 4, 5, 6], "full": [2, 3, 4, 5, 6, 7]}
    D_FOR_ALPHA, ALPHA_FOR_D = 4, 0.3

    def grid(self, fidelity, overrides):
        base = {"epsilon": [1.0], "delta": [1e-6], "beta": [0.1]}
        return sweeps({"d": [self.D_FOR_ALPHA], "alpha": self._alphas[fidelity], **base},
                      {"d": self._ds[fidelity], "alpha": [self.ALPHA_FOR_D], **base}, overrides, ("d", "alpha"))

    def check_point(self, point):
        super().check_point(point)
        self.require_small_delta(point)

    def privacy(self, point):
        return {"epsilon": point["epsilon"], "delta": point["delta"],
                "accounting": "PMW (Dwork-Roth online MW via NumericSparse), advanced composition inside"}

    def n_range(self, point):
        return 64, 1 << 19

    AUDIT_ROUND = {"hist": [1, 0, 18, 20, 20, 101, 0, 0], "move": [0, 7], "alpha": 0.375, "epsilon": 160.0,
                   "delta": 1e-20, "query": 6}

    def audits(self):
        a = self.AUDIT_ROUND
        eps = round_epsilon(pmw_parameters(sum(a["hist"]), len(a["hist"]), len(a["hist"]) + 1, a["alpha"],
                                           a["epsilon"], a["delta"]))
        return [AuditCase(
            "pmw-round", f"one update round of PMW (cutoff 1): AboveThreshold and one numeric answer, "
            f"eps_AT + eps_L = {eps:.3f}, of PMW at |X| = 8, alpha = 0.375, eps = 160, delta = 1e-20 (c = 533)",
            "160 rows (1, 0, 18, 20, 20, 101, 0, 0) on the points 0..7 versus the row at 0 moved to 7",
            "the update raised the prefix [0, 6) (q_6's plus slot was the first above the threshold)",
            eps, 0.0, pmw_round_events, dict(a), trials=600_000, uncaught=PMW_ROUND_UNCAUGHT), below_audit(),
            query_audit()]

    unaudited = {
        "PMW as a whole": (
            "no instance has power: PMW spreads eps over up to c = ceil(4 ln|X| / a^2) AboveThreshold rounds "
            "(advanced composition), each eps_AT = eps1 / sqrt(8 c ln(2/delta)) plus eps_L for its numeric "
            "answer; at the simulator's |X| = 16, alpha = 0.3, eps = 1, delta = 1e-6 that is c = 1110 rounds of "
            "0.0028 each, so a doubled run shows more than eps = 1 only on an event where some 180 rounds all "
            "lean one way, while the one-round instance (privacy-pmw-round) shows 0.59 of a round's doubled "
            "0.72 on an event of probability 0.02. Its unit, one round, is audited (privacy-pmw-round; its threshold "
            "noise on its own: privacy-pmw-round-below, its query noise: privacy-pmw-round-query)."),
    }

    def memory(self, point, n, trials):
        """The threshold queries over X = 2^d points as an X x X matrix, in int8 and as floats,
        and the sanitizer's tables of the same size: about 40 bytes x X^2 (tracemalloc's peak, 4
        trials at n = 64: 2.6 MiB at d = 8, 41.3 MiB at d = 10, 657 MiB at d = 12), whatever the
        trials (they run in chunks of 64 X)."""
        return 48 * 4 ** point["d"]

    def run_trials(self, point, n, trials, rng):
        X = 2 ** point["d"]
        Q = threshold_queries(X)
        truth = Q.astype(float)
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 64 * X):
            b = sl.stop - sl.start
            # 0.6 on one random point, 0.4 uniform: far from the uniform start of MW, so
            # the sanitizer has to learn (a uniform sample is answered well with no update)
            spike = np.eye(X)[rng.integers(0, X, size=b)]
            hist = rng.multinomial(n, 0.6 * spike + 0.4 / X)  # one draw per row, as a loop would
            res = pmw_sanitize(hist, Q, point["alpha"], point["epsilon"], point["delta"], rng)
            true_answers = hist @ truth.T / n
            ok[sl] = within(np.abs(res[1] - true_answers).max(axis=1), point["alpha"])
        return ok
