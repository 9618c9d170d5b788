"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts",
Theorem 5.1 (packing): every eps-DP k-learner for a class with two concepts that
disagree at a point x0 needs n >= (k ln 2 + ln(1 - beta)) / eps rows; on the packing
instance its success probability is at most e^(eps n) / 2^k.

Experiment: exactly the proof's instance. A point x0 where two concepts of the class
disagree (POINT_d: x0 = 0; THRESH_d: the middle point x0 = 2^(d-1) - 1, so that about
half of the thresholds label it 1); a label vector b is drawn uniformly from {0,1}^k
and the database is n copies of (x0, b). Under the point mass at x0 a hypothesis has
error 0 or 1, so success means h_j(x0) = b_j for every j, whatever alpha < 1.

The learners are every pure eps-DP k-learner we have for points and thresholds:

- ``directsum-basic``: the direct sum of the exponential-mechanism learner (Thm 2.22)
  with basic composition, eps / k per concept, over all of POINT_d or THRESH_d (proper;
  Obs 3.2 / Cor 3.4); d = 1 is the two-concept class for points.
- ``hash-directsum``: Cor 3.3's improper point learner (our substitute: a
  fresh public hash into M = ceil(2k / (alpha beta)) buckets and the exponential
  mechanism, eps / k per column, over the bucket hypotheses and the constant 0), POINT.
- ``alg2-tree-basic``: Algorithm 2 (Lem 3.7, Cor 3.10) over the binary-tree threshold
  sanitizer at eps / 2 and k exponential mechanisms at eps / (2k), THRESH.

Algorithm 2 over Algorithm 1 (Cor 3.9) and Algorithm 5 are (eps, delta)-DP and are left
out: the packing bound does not apply to them. The hash learner and Algorithm 2 are
built with the accuracy parameter ALPHA = 0.1 (it sets their bucket count and rounding
step; the success event above does not depend on it).

Two kinds of points: an n_hat search per k, and a success curve p(n) at fixed n where
the ceiling is below 1.

Privacy audits (engine/audit.py): the packing bound holds only for learners that are
really eps-DP, so every learner above is audited on neighbouring databases (``audits``):
each direct sum whole at small k, Algorithm 2 in its two shares (label neighbours on
its output; the tree sanitizer on its counts), and the planted bug "nosplit", whose
audit is expected to be REFUTED: it shows that the instance catches a learner that
skips the budget split (as the packing ceiling does on its success curve, in the tests).
"""

from __future__ import annotations

import numpy as np

from privbounds.bounds.bns import alg2_budget
from privbounds.bounds.tools import per_concept_epsilon
from privbounds.params import BETA, EPSILON, Interval, Options, ParameterError
from privbounds.simulators.bns.audit_direct_sums import tree_sanitizer_events
from privbounds.simulators.bns.cor3_4 import hash_columns_events, hash_learner, n_buckets
from privbounds.simulators.bns.sanitize_learn import alg2_thresholds
from privbounds.simulators.engine.audit import AuditCase, NoiseSource, noise_sources
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.shared.audits import expmech_columns_events
from privbounds.simulators.shared.concepts import make_class
from privbounds.simulators.shared.learners import chunks, expmech_learner_grouped

# "nosplit" (eps per concept, no composition) is a planted privacy bug for tests; it is
# runnable but not offered to users and never part of a registered grid.
PURE_LEARNERS = ("directsum-basic", "hash-directsum", "alg2-tree-basic")
CLASSES = ("point", "thresh")
# the classes each learner learns (and "nosplit", the bug, behaves as the direct sum)
LEARNER_CLASSES = {"directsum-basic": CLASSES, "nosplit": CLASSES,
                   "hash-directsum": ("point",), "alg2-tree-basic": ("thresh",)}
# (class, d, learner) of the registered grid: the direct sum at d = 1 and 4 for both
# classes, the other learners at d = 4 (the hash learner ignores the domain)
COMBOS = (("point", 1, "directsum-basic"), ("point", 4, "directsum-basic"),
          ("thresh", 1, "directsum-basic"), ("thresh", 4, "directsum-basic"),
          ("point", 4, "hash-directsum"), ("thresh", 4, "alg2-tree-basic"))
ALPHA = 0.1


def packing_point(cls_name: str, d: int) -> int:
    """x0 of the packing instance: 0 for POINT_d (c_0 and c_1 disagree there), the middle
    of the domain for THRESH_d (c_0 labels it 1, c_(2^d) labels it 0)."""
    return 0 if cls_name == "point" else 2 ** (d - 1) - 1


def packing_labels(cls_name: str, d: int, h) -> np.ndarray:
    """Label h_j(x0) of the chosen hypotheses (indices into the class)."""
    return make_class(cls_name, d).evaluate(h, packing_point(cls_name, d))


def column_epsilon(learner: str, epsilon: float, k: int) -> float:
    """The budget of each column's exponential mechanism in the direct sum: eps / k by
    basic composition, or eps for the planted bug "nosplit"."""
    return float(epsilon) if learner == "nosplit" else per_concept_epsilon(epsilon, k, "basic")


def column_split(row: dict) -> tuple[int, int]:
    """(m1, m0): how many of one column's equally scored hypotheses label x0 with 1 and with
    0 on the packing instance (every row at x0, so a hypothesis errs on all n rows or on
    none). Direct sums: the members of POINT_d or THRESH_d, counted by evaluating the class
    at x0 (POINT: 1 and 2^d - 1; THRESH: 2^(d-1) and 2^(d-1) + 1). Hash learner: x0's bucket
    against the M - 1 empty buckets and the constant 0, which its sampler weighs as one
    group of M (``hash_learner``; M = ``n_buckets(ALPHA, beta, k)``)."""
    learner = row["learner"]
    if learner in ("directsum-basic", "nosplit"):
        cls_name, d = row.get("class", "point"), int(row["d"])
        cls = make_class(cls_name, d)
        ones = int(np.count_nonzero(cls.evaluate(np.arange(cls.size), packing_point(cls_name, d))))
        return ones, cls.size - ones
    if learner == "hash-directsum":
        return 1, n_buckets(ALPHA, row["beta"], row["k"])
    raise ValueError(f"no closed form for learner {learner!r}: Algorithm 2's columns share the sanitized "
                     "support, whose law is a 30-node Laplace integral through a running maximum and rounding")


def packing_success_exact(row: dict):
    """Bun-Nissim-Stemmer Theorem 5.1, the packing instance: the exact success probability
    p(n) of the direct sums (``directsum-basic``, the bug ``nosplit``) and of the hash
    learner (``hash-directsum``) that ``BnsThm51.run_trials`` estimates, at a row (the
    point with its n; n may be an array).

    Given the label vector b, column j runs its own exponential mechanism (fresh Gumbel
    noise, and a fresh hash for the hash learner) on n rows (x0, b_j): the m1 hypotheses
    that label x0 with 1 err on 0 rows if b_j = 1 and on all n if b_j = 0, the m0 others
    the other way round (``column_split``). With s = eps0 n / 2 (score sensitivity 1),
    column j is right with probability m1 / (m1 + m0 e^-s) if b_j = 1 and m0 / (m0 + m1 e^-s)
    if b_j = 0; the columns are independent and b is uniform, so

        p(n) = ((m1 / (m1 + m0 e^-s) + m0 / (m0 + m1 e^-s)) / 2)^k,

    taken in logs (log-sum-exp) so that k up to 4096 and eps0 n up to 1e3 keep every digit."""
    m1, m0 = column_split(row)
    k = int(row["k"])
    s = column_epsilon(row["learner"], row["epsilon"], k) * np.asarray(row["n"], dtype=float) / 2.0
    l1, l0 = np.log(m1), np.log(m0)
    log_right1 = l1 - np.logaddexp(l1, l0 - s)   # b_j = 1
    log_right0 = l0 - np.logaddexp(l0, l1 - s)   # b_j = 0
    p = np.exp(k * (np.logaddexp(log_right1, log_right0) - np.log(2.0)))
    return float(p) if p.ndim == 0 else p


def alg2_at_point(d: int, x0: int, rows: int, positives, eps_san: float, eps0: float, rng) -> np.ndarray:
    """Algorithm 2 over the tree sanitizer (THRESH_d) on ``rows`` rows at x0, of which
    ``positives`` (B, k) are labelled 1 in each column. Returns the thresholds (B, k)."""
    X = 2 ** d
    positives = np.asarray(positives)
    hist = np.zeros((positives.shape[0], X))
    hist[:, x0] = rows

    def positives_in_bins(edges):
        # bins [0, e_0), [e_0, e_1), ..., [e_S, X): x0's bin holds all the rows
        where = np.sum(edges <= x0, axis=1)                          # (B,)
        onehot = np.arange(edges.shape[1] + 1)[None, :] == where[:, None]
        return positives[:, :, None] * onehot[:, None, :]
    return alg2_thresholds(hist, positives_in_bins, eps_san, ALPHA * rows / 8, eps0, rng)


@noise_sources(NoiseSource("columns", "expmech", "privbounds.simulators.bns.thm5_1:alg2_at_point",
                           param="epsilon", arg="eps0",
                           what="Alg 2's k exponential mechanisms (the sanitizer sees the same points on both sides)"))
def alg2_label_events(budget, trials, rng, d, x0, k, epsilon, rows, positives):
    """Audit of Algorithm 2 (basic accounting, ``alg2_at_point``) on label neighbours:
    ``rows`` rows at x0, ``positives`` (D) or one more (D') of them labelled 1 in every
    column. Both sides hand the sanitizer the same points, so only the k exponential
    mechanisms (eps / (2k) each) see the change: the declared loss is eps / 2. E = {every
    column's threshold labels x0 with 0}."""
    e_san, _, eps0 = alg2_budget(epsilon, k, "basic", 0.0)
    out = []
    for extra in (0, 1):
        hits = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 4 * k * 2 ** d):
            pos = np.full((sl.stop - sl.start, k), positives + extra)
            t = alg2_at_point(d, x0, rows, pos, e_san * budget, eps0 * budget, rng)
            hits[sl] = np.all(t > x0, axis=1)
        out.append(hits)
    return out[0], out[1]


class BnsThm51(Simulator):
    theorem_id = "bns.thm5_1"
    params = {
        "class": Options(CLASSES),
        "d": Interval(1, 12, "both", integer=True),
        "k": Interval(1, 4096, "both", integer=True),
        "epsilon": EPSILON,
        "beta": BETA,
        "learner": Options(PURE_LEARNERS),
        # k of the success curves; their trials grow like 2^k, hence the small range
        "curve_k": Interval(1, 10, "both", integer=True),
    }
    _ks = {"smoke": [1, 4, 16], "quick": [1, 2, 4, 8, 16, 32, 64],
           "full": [1, 2, 4, 8, 16, 32, 64, 128, 256]}
    # curves cost trials proportional to 2^k (see trials_factor), so they stop at k = 8;
    # only the point direct sum goes to k = 8 (a k = 8 curve costs about 40 s at full
    # fidelity, 110 s for Algorithm 2)
    _curve_ks = {"smoke": [4], "quick": [4, 8], "full": [4, 8]}
    _curve_ks_other = {"smoke": [4], "quick": [4], "full": [4]}
    CURVE_EPSILON = 0.25  # small eps spreads the informative range n < k ln2 / eps

    @staticmethod
    def _combos(overrides):
        combos = [c for c in COMBOS
                  if c[0] in overrides.get("class", CLASSES) and c[2] in overrides.get("learner", PURE_LEARNERS)]
        if "d" in overrides:
            pairs = list(dict.fromkeys((c, le) for c, _, le in combos))
            combos = [(c, d, le) for c, le in pairs for d in overrides["d"]]
        if not combos:  # e.g. learner and class that do not go together
            combos = [(c, d, le) for c in overrides.get("class", CLASSES)
                      for d in overrides.get("d", [4]) for le in overrides.get("learner", PURE_LEARNERS)]
        return combos

    def grid(self, fidelity, overrides):
        pts = []
        for cls, d, learner in self._combos(overrides):
            base = {"class": [cls], "d": [d], "learner": [learner]}
            pts += expand({"experiment": ["search"], **base, "k": self._ks[fidelity],
                           "epsilon": [1.0], "beta": [0.1]},
                          {k: v for k, v in overrides.items() if k in ("k", "epsilon", "beta")})
            pts += expand({"experiment": ["curve"], **base,
                           "k": overrides.get("curve_k", (self._curve_ks if (cls, learner) == (
                               "point", "directsum-basic") else self._curve_ks_other)[fidelity]),
                           "epsilon": [self.CURVE_EPSILON], "beta": [0.1]},
                          {k: v for k, v in overrides.items() if k == "beta"})
        return pts

    def check_point(self, point):
        super().check_point(point)
        if point["class"] not in LEARNER_CLASSES[point["learner"]]:
            raise ParameterError(f"class must be one of {', '.join(LEARNER_CLASSES[point['learner']])} "
                                 f"for learner {point['learner']}, got {point['class']!r}")
        # curve points carry their k under "k"; validate it against curve_k's range
        if point.get("experiment") == "curve":
            self.params["curve_k"].validate(point["k"])

    def curve(self, point):
        if point.get("experiment") != "curve":
            return None
        # every n at which the ceiling e^(eps n) / 2^k is still below 1
        top = int(np.floor(point["k"] * np.log(2) / point["epsilon"]))
        return list(range(1, max(1, top) + 1))

    def trials_factor(self, point):
        # p(n) is about 2^-k near n = 0, where the ceiling is only ~20% above it; trials
        # proportional to 2^k keep the interval's relative width (about 8% at quick
        # fidelity, Bonferroni-adjusted) the same for every k.
        return 4 * 2 ** point["k"] if point.get("experiment") == "curve" else 1

    def privacy(self, point):
        acc = {"directsum-basic": "basic composition of k exponential mechanisms, eps / k each",
               "nosplit": "PLANTED BUG: k exponential mechanisms at eps each",
               "hash-directsum": "basic composition of k exponential mechanisms over public hash buckets "
                                 "(Cor 3.3 substitute), eps / k each",
               "alg2-tree-basic": "tree sanitizer at eps / 2 (pure) + k exponential mechanisms at "
                                  "eps / (2k), basic composition"}[point["learner"]]
        return {"epsilon": point["epsilon"], "delta": 0.0, "accounting": acc}

    def n_range(self, point):
        return 1, 1 << 15

    unaudited = {
        "Algorithm 2 as a whole on neighbours that move a row to another point": (
            "no instance has power: moving a row from x = 0 to x = 15 of THRESH_16 changes 8 tree nodes, each "
            "with Lap(2L/eps_san) = Lap(16) noise at eps = 1, so the sanitizer's share eps/2 shows in full only "
            "on an event of probability 4^-4 = 1/256 of its raw counts; the output thresholds see those counts "
            "only through a running maximum, clipping and rounding to multiples of alpha n / 8 and then k "
            "exponential mechanisms, so no event of the thresholds shows both shares at once (more than eps = 1 "
            "with a doubled budget). The two shares are audited separately, the sanitizer on its counts "
            "(privacy-alg2-sanitizer) and the k mechanisms on label neighbours (privacy-alg2-labels); their "
            "sum is basic composition."),
    }

    def audits(self):
        """One instance per learner of the grid (the planted bug "nosplit" is in no grid; its
        audit is a test, tests/bns/test_thm5_1_audits.py). The direct sums run
        ``expmech_columns_events`` (the grouped learner that ``learn`` calls) on one row at
        x0 with its labels flipped in every column: POINT_16 at x0 = 0 (1 point labels it 1,
        15 do not) and THRESH_16 at x0 = 3 (4 thresholds label it 1, 13 do not: q = 4/13),
        where each column's loss comes close to its eps0. The whole learner is audited at
        small k, whose loss shows on events of probability about p^k: k = 2 on POINT
        (p = 0.04 to 0.10 per column) and k = 4 on THRESH (p = 0.19 to 0.28)."""
        one_row = "one row (x0 = {x0}, label 0) versus (x0 = {x0}, label 1) in every column, {cls}"
        k_alg2 = 2
        e_san = alg2_budget(1.0, k_alg2, "basic", 0.0)[0]
        M = n_buckets(ALPHA, 0.1, 4)
        return [
            AuditCase("directsum-point", "direct sum on POINT_16, basic composition: k = 2 columns at eps/2 = 0.5 "
                      "each", one_row.format(x0=0, cls="POINT_16"), "both columns output point(x0)", 1.0, 0.0,
                      expmech_columns_events, {"cls_name": "point", "d": 4, "x0": 0, "k": 2,
                                               "eps0": column_epsilon("directsum-basic", 1.0, 2)}, trials=400_000),
            AuditCase("directsum-thresh", "direct sum on THRESH_16, basic composition: k = 4 columns at eps/4 = 0.25 "
                      "each", one_row.format(x0=3, cls="THRESH_16"), "all 4 hypotheses label x0 with 1", 1.0, 0.0,
                      expmech_columns_events, {"cls_name": "thresh", "d": 4, "x0": 3, "k": 4,
                                               "eps0": column_epsilon("directsum-basic", 1.0, 4)},
                      trials=1_000_000),
            # 23 rows give x0's bucket a lead of 21 over the 799 empty buckets and the constant
            # 0 (23 on D'): a column picks it w.p. 0.02 as declared, 0.19 with the budget doubled
            AuditCase("hash-directsum", f"hash-learner direct sum (Cor 3.3 substitute) on POINT: k = 4 columns at "
                      f"eps/4 = 0.25 each over M = {M} public hash buckets and the constant 0",
                      "23 rows at one point x0, 22 labelled 1 in every column and one labelled 0, versus that row "
                      "labelled 1 too", "all 4 columns choose x0's bucket", 1.0, 0.0, hash_columns_events,
                      {"k": 4, "buckets": M, "eps0": column_epsilon("hash-directsum", 1.0, 4), "rows": 23,
                       "positives": 22}, trials=1_000_000),
            # label neighbours: the sanitizer sees the same points on both sides, so only the k
            # mechanisms at eps/(2k) can tell them apart. With 1024 rows at x0 = 7 the sanitized
            # support is mostly {x0}, so a column chooses between the thresholds 7 and 8; 515
            # labelled 1 give 7 a lead of 6 (8 on D'), so a column picks 8 w.p. 0.32 as declared
            # and 0.18 with the budget doubled (on D; on D' 0.27 and 0.12)
            AuditCase("alg2-labels", f"Algorithm 2 over the tree sanitizer, basic accounting, k = {k_alg2}: on "
                      f"neighbours that differ only in labels its loss is that of the {k_alg2} exponential "
                      f"mechanisms at eps/(2k) = {1.0 / (2 * k_alg2):g} each, eps/2 in all",
                      "1024 rows at x0 = 7 of THRESH_16, 515 labelled 1 in every column and 509 labelled 0, versus "
                      "one more labelled 1", f"all {k_alg2} thresholds label x0 with 0", 0.5, 0.0, alg2_label_events,
                      {"d": 4, "x0": 7, "k": k_alg2, "epsilon": 1.0, "rows": 1024, "positives": 515}, trials=300_000),
            AuditCase("alg2-sanitizer", f"Algorithm 2's tree sanitizer at eps/2 = {e_san:g} (THRESH_16: 4 levels, "
                      "Lap(16) per node), on the node counts it computes", "one row at x = 0 versus at x = 15",
                      "on every level the node of 0 reads >= 1 and the node of 15 reads <= 0", e_san, 0.0,
                      tree_sanitizer_events, {"d": 4, "eps_san": e_san}, trials=1_000_000),
        ]

    def run_trials(self, point, n, trials, rng):
        learner, k = point["learner"], point["k"]
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, k * 4 * (2 ** point["d"] if learner == "alg2-tree-basic" else 1)):
            bits = rng.integers(0, 2, size=(sl.stop - sl.start, k)).astype(bool)
            ok[sl] = np.all(self.learn(point, n, bits, rng) == bits, axis=-1)
        return ok

    def learn(self, point, n, bits, rng):
        """The learner's labels h_j(x0) (B, k) on the databases "n copies of (x0, bits)"."""
        learner, k, d, eps = point["learner"], point["k"], point["d"], point["epsilon"]
        cls_name = point.get("class", "point")  # points written before the class axis existed
        x0 = packing_point(cls_name, d)
        b = bits.shape[0]
        if learner in ("directsum-basic", "nosplit"):
            eps0 = column_epsilon(learner, eps, k)
            support = np.full((b, 1), x0, dtype=np.int64)
            counts = np.full((b, 1), n)
            h = expmech_learner_grouped(make_class(cls_name, d), support, counts, bits[:, None, :], eps0, rng)
            return packing_labels(cls_name, d, h)
        if learner == "hash-directsum":
            counts = np.full((b, 1), float(n))
            positives = n * bits[:, :, None].astype(float)                   # (b, k, 1)
            _, choice = hash_learner(counts, positives, n_buckets(ALPHA, point["beta"], k),
                                     column_epsilon(learner, eps, k), rng)
            return choice == 0  # the bucket of x0 (label 1); else an empty bucket or constant 0
        if learner == "alg2-tree-basic":
            e_san, _, eps0 = alg2_budget(eps, k, "basic", 0.0)
            t = alg2_at_point(d, x0, n, n * bits, e_san, eps0, rng)
            return packing_labels(cls_name, d, t)
        raise ParameterError(f"learner must be one of {', '.join(PURE_LEARNERS)}, got {learner!r}")
