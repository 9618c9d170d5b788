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
- ``hash-directsum``: Cor 3.3's improper point learner (the catalog's substitute: a
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
"""

from __future__ import annotations

import numpy as np

from privbounds.bounds.bns import alg2_budget
from privbounds.params import BETA, EPSILON, Interval, Options, ParameterError
from privbounds.simulators.bns.cor3_4 import hash_learner, n_buckets
from privbounds.simulators.concepts import make_class
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.learners import chunks, expmech_learner_grouped
from privbounds.simulators.sanitize_learn import alg2_thresholds

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


class BnsThm51(Simulator):
    theorem_id = "bns.thm5_1"
    params = {
        "class": Options("class", CLASSES),
        "d": Interval("d", 1, 12, "both", integer=True),
        "k": Interval("k", 1, 4096, "both", integer=True),
        "epsilon": EPSILON,
        "beta": BETA,
        "learner": Options("learner", PURE_LEARNERS),
        # k of the success curves; their trials grow like 2^k, hence the small range
        "curve_k": Interval("curve_k", 1, 10, "both", integer=True),
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
            eps0 = eps if learner == "nosplit" else eps / k
            support = np.full((b, 1), x0, dtype=np.int64)
            counts = np.full((b, 1), n)
            h = expmech_learner_grouped(make_class(cls_name, d), support, counts, bits[:, None, :], eps0, rng)
            return packing_labels(cls_name, d, h)
        if learner == "hash-directsum":
            counts = np.full((b, 1), float(n))
            positives = n * bits[:, :, None].astype(float)                   # (b, k, 1)
            _, choice = hash_learner(counts, positives, n_buckets(ALPHA, point["beta"], k), eps / k, rng)
            return choice == 0  # the bucket of x0 (label 1); else an empty bucket or constant 0
        if learner == "alg2-tree-basic":
            X = 2 ** d
            hist = np.zeros((b, X))
            hist[:, x0] = n
            e_san, _, eps0 = alg2_budget(eps, k, "basic", 0.0)

            def positives_in_bins(edges):
                # bins [0, e_0), [e_0, e_1), ..., [e_S, X): x0's bin holds all n rows
                where = np.sum(edges <= x0, axis=1)                          # (b,)
                onehot = np.arange(edges.shape[1] + 1)[None, :] == where[:, None]
                return n * bits[:, :, None] * onehot[:, None, :]
            t = alg2_thresholds(hist, positives_in_bins, e_san, ALPHA * n / 8, eps0, rng)
            return packing_labels(cls_name, d, t)
        raise ParameterError(f"learner must be one of {', '.join(PURE_LEARNERS)}, got {learner!r}")
