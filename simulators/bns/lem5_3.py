"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts", Lemma 5.3
(improper -> proper parity learner): under the uniform distribution on {0,1}^d, rounding
a hypothesis to its nearest parity (``walsh.round_to_parity``) returns the target parity
exactly whenever the hypothesis errs on fewer than a 1/4 fraction of the cube, since two
distinct parities are 1/2 apart. So an (alpha, beta, eps, delta) improper k-learner with
alpha < 1/4 becomes a proper one that recovers every target exactly, with the same
sample size and privacy (rounding is post-processing).

Two experiments:

- ``curve`` (the rounding alone): a target parity c_a whose truth table is flipped on
  exactly m points, for m on a grid from 2^d / 64 to 2^d / 2 (the curve variable "n" is m).
  ``corruption = "random"``: the m points are a uniform subset of the cube;
  ``corruption = "worst"``: a uniform subset of the 2^(d-1) points where c_a disagrees
  with another uniformly chosen parity c_b, the corruption that moves the table towards
  c_b fastest. The recorded event (the "successes" column) is that rounding FAILS to
  return a; the lemma says it is impossible for m < 2^d / 4. At m = 2^d / 4 the worst
  case ties c_a with c_b (the tie goes to the smaller index), and above it the worst case
  always fails; random corruption keeps c_a far ahead until m is close to 2^d / 2.
- ``search`` (a proper learner built by the lemma): an improper pure eps-DP parity
  k-learner, the noisy-sign histogram (per column, Lap(2k/eps) on each count of
  "rows labelled 0 minus rows labelled 1" at every x, h(x) = 1 where the noisy count is
  negative), and the same learner followed by rounding. Improper success: every
  column's error <= alpha (alpha < 1/4); proper success: every parity exact. The lemma
  makes the first event imply the second, trial by trial.
"""

from __future__ import annotations

import numpy as np

from privbounds.params import BETA, EPSILON, Interval, Options
from privbounds.simulators.bns.walsh import round_to_parity
from privbounds.simulators.engine.audit import AuditCase, NoiseSource, noise_sources
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.shared.accuracy import within
from privbounds.simulators.shared.concepts import make_class
from privbounds.simulators.shared.learners import chunks
from privbounds.simulators.shared.mechanisms import laplace_mechanism

CORRUPTIONS = ("random", "worst")
LEARNERS = ("histogram", "histogram-rounded")


def parity_tables(a, d):
    """Truth tables (..., 2^d) of the parities with indices a."""
    return make_class("par", d).evaluate(np.asarray(a)[..., None], np.arange(2 ** d))


def corrupted_tables(d, m, batch, corruption, rng):
    """(targets (B,), tables (B, 2^d)): target parities flipped on exactly m points,
    chosen uniformly from the cube ("random") or from the disagreement set of the target
    and another uniform parity ("worst")."""
    X = 2 ** d
    a = rng.integers(0, X, size=batch)
    table = parity_tables(a, d)
    keys = rng.random((batch, X))
    if corruption == "worst":
        other = (a + rng.integers(1, X, size=batch)) % X                 # uniform b != a
        keys = np.where(table != parity_tables(other, d), keys, np.inf)  # only where they disagree
    elif corruption != "random":
        raise ValueError(f"corruption must be one of {', '.join(CORRUPTIONS)}, got {corruption!r}")
    flip = np.zeros((batch, X), dtype=bool)
    if m:
        idx = np.argpartition(keys, m - 1, axis=1)[:, :m]
        np.put_along_axis(flip, idx, True, axis=1)
    return a, table ^ flip


def noisy_sign_learner(signed_hist, eps0, rng, noise_scale=None):
    """Improper pure-DP parity learner per column: truth tables (B, k, 2^d) with h(x) = 1
    where the noisy signed count at x is negative. Replacing one row moves the signed
    histogram by at most 1 at two points (L1 sensitivity 2), so Lap(2/eps0) makes each
    column eps0-DP; thresholding is post-processing. ``noise_scale`` overrides 2/eps0
    (planted bug for tests)."""
    scale = 2.0 / eps0 if noise_scale is None else noise_scale
    return laplace_mechanism(signed_hist, scale, 1.0, rng) < 0


@noise_sources(NoiseSource("noisy-sign", "laplace", "privbounds.simulators.bns.lem5_3:noisy_sign_learner",
                           param="epsilon", arg="eps0",
                           what="Lap(2k/eps) on each column's signed counts, at eps0"))
def noisy_sign_events(budget, trials, rng, epsilon, k, rows, rounded):
    """Audit of the noisy-sign learner of Lemma 5.3's experiment (and of its rounding) on
    d = 2 with k columns at eps/k each (basic composition), every column alike: ``rows``
    rows at each of x = 0, 1, 2 labelled as parity 1 labels them (0, 1, 0), and at x = 3
    two rows labelled 0 on D, one of them relabelled 1 on D' (the signed count at 3 moves
    from 2 to 0 in every column: the sensitivity 2 of each column's histogram). E: every
    column's table says 1 at x = 3 (``rounded`` False) or every column rounds to parity 1
    (``rounded`` True). The noise Lap(2k/eps) puts both counts at 3 in the lower tail of
    {noisy < 0}, so E has ratio exactly e^(eps/k) per column, e^eps in all (tight), e^(2
    eps) doubled. With the ``rows`` rows fixing the table at 0, 1, 2 to (0, 1, 0) (each
    wrong with probability e^(-rows eps / (2k)) / 2), the nearest parity is 1 exactly when
    the table says 1 at 3 (else (0, 1, 0, 0) is 1/4 from parities 0, 1 and 3, and the tie
    goes to 0), so the rounded learner shows the same loss as the tables it rounds."""
    signed = np.array([rows, -rows, rows, 2.0])
    out = []
    for s3 in (2.0, 0.0):
        signed[3] = s3
        hits = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 8 * k * 4):
            hist = np.broadcast_to(signed, (sl.stop - sl.start, k, 4))
            tables = noisy_sign_learner(hist, epsilon * budget / k, rng)
            hits[sl] = np.all(round_to_parity(tables) == 1, axis=1) if rounded else np.all(tables[:, :, 3], axis=1)
        out.append(hits)
    return out[0], out[1]


class BnsLem53(Simulator):
    theorem_id = "bns.lem5_3"
    params = {
        "d": Interval(2, 12, "both", integer=True),
        "corruption": Options(CORRUPTIONS),
        "k": Interval(1, 256, "both", integer=True),
        "epsilon": EPSILON,
        # the lemma needs alpha < 1/4
        "alpha": Interval(0, 0.25, "neither"),
        "beta": BETA,
        "learner": Options(LEARNERS),
    }
    _ds = {"smoke": [6], "quick": [6, 8], "full": [8, 10]}  # d = 10 costs 10 s at 8000 trials
    _ks = {"smoke": [1, 4], "quick": [1, 2, 4, 8], "full": [1, 2, 4, 8, 16]}
    D_LEARNER = 6
    # fractions of the cube corrupted (in 64ths): up to just below 1/4, 1/4 itself, above
    _fractions = (1, 4, 8, 12, 14, 15, 16, 17, 18, 20, 24, 28, 32)

    def grid(self, fidelity, overrides):
        curve_over = {k: v for k, v in overrides.items() if k in ("d", "corruption")}
        pts = expand({"experiment": ["curve"], "d": self._ds[fidelity], "corruption": list(CORRUPTIONS)},
                     curve_over)
        search_over = {k: v for k, v in overrides.items() if k not in ("corruption",)}
        pts += expand({"experiment": ["search"], "d": [self.D_LEARNER], "k": self._ks[fidelity],
                       "epsilon": [1.0], "alpha": [0.2], "beta": [0.1], "learner": list(LEARNERS)},
                      search_over)
        return pts

    def curve(self, point):
        if point.get("experiment") != "curve":
            return None
        X = 2 ** point["d"]
        ms = {max(1, X * f // 64) for f in self._fractions}
        ms |= {X // 4 - 1, X // 4, X // 4 + 1}  # the threshold itself and its two neighbours
        return sorted(m for m in ms if m <= X // 2)

    def trials_factor(self, point):
        # a ceiling of 1e-3 on a failure probability that should be 0 needs about 6300
        # failure-free trials per point at the Bonferroni-adjusted level (quick: 8000)
        return 20 if point.get("experiment") == "curve" else 1

    def target(self, point):
        return 1.0 - point["beta"]

    def privacy(self, point):
        if point.get("experiment") == "curve":
            return {"epsilon": None, "delta": None,
                    "accounting": "rounding alone (deterministic post-processing, no data)"}
        what = "noisy-sign histogram" if point["learner"] == "histogram" else \
            "noisy-sign histogram, rounded to the nearest parity (post-processing)"
        return {"epsilon": point["epsilon"], "delta": 0.0,
                "accounting": f"{what}: Lap(2k/eps) per count, basic composition over k columns"}

    def n_range(self, point):
        return 1, 1 << 20

    def audits(self):
        """Both learners of the search experiment (the curve experiment uses no data), at
        d = 2, k = 2 columns, eps = 1 (see ``noisy_sign_events``): the rounded learner is
        audited on its own output, the parity, not only through post-processing."""
        k, rows = 2, 60
        nb = f"d = 2, every column: {rows} rows at each of x = 0, 1, 2 labelled (0, 1, 0); at x = 3 two rows " \
             "labelled 0 versus one labelled 0 and one 1"
        spec = {"epsilon": 1.0, "k": k, "rows": rows}
        return [
            AuditCase("histogram", f"noisy-sign histogram, k = {k} columns at eps/k = 0.5 each (Lap(2k/eps))", nb,
                      "every column's hypothesis labels x = 3 with 1", 1.0, 0.0, noisy_sign_events,
                      {**spec, "rounded": False}, trials=50_000),
            AuditCase("histogram-rounded", f"noisy-sign histogram rounded to the nearest parity, k = {k} columns "
                      "at eps/k = 0.5 each", nb, "every column rounds to parity 1", 1.0, 0.0, noisy_sign_events,
                      {**spec, "rounded": True}, trials=50_000),
        ]

    def run_trials(self, point, n, trials, rng):
        d = point["d"]
        out = np.empty(trials, dtype=bool)
        if point.get("experiment") == "curve":
            for sl in chunks(trials, 4 * 2 ** d):
                a, tables = corrupted_tables(d, n, sl.stop - sl.start, point["corruption"], rng)
                out[sl] = round_to_parity(tables) != a          # the event: rounding fails
            return out
        k, X = point["k"], 2 ** d
        for sl in chunks(trials, 4 * k * X):
            improper, proper, _ = self.learn(point, n, sl.stop - sl.start, rng)
            out[sl] = improper if point["learner"] == "histogram" else proper
        return out

    def learn(self, point, n, batch, rng, noise_scale=None):
        """One batch of the learner experiment: (improper success, proper success, errors
        (B, k) of the improper tables) on x uniform, k uniform target parities."""
        d, k = point["d"], point["k"]
        X = 2 ** d
        counts = rng.multinomial(n, np.full(X, 1.0 / X), size=batch)       # (B, X)
        targets = rng.integers(0, X, size=(batch, k))
        truth = parity_tables(targets, d)                                   # (B, k, X)
        tables = noisy_sign_learner(counts[:, None, :] * np.where(truth, -1.0, 1.0), point["epsilon"] / k, rng,
                                    noise_scale)
        err = np.mean(tables != truth, axis=-1)
        improper = np.all(within(err, point["alpha"]), axis=1)
        proper = np.all(round_to_parity(tables) == targets, axis=1)
        return improper, proper, err
