"""diffprivlib's ``LogisticRegression`` (IBM's differential privacy library; objective
perturbation, Chaudhuri, Monteleoni and Sarwate 2011) as a privbounds learner, on the
threshold instance of Sivakumar's Theorem 3.3, and a diagnostic of its fits.

The learner sees the instance's one feature x / (2^d - 1) in [0, 1], so ``data_norm =
1`` bounds every row's norm and no row is clipped; ``epsilon`` is the point's. Two
settings: the library's defaults (``tol = 1e-4``, ``max_iter = 100``) and an optimiser run
to convergence (``tol = 1e-10``, ``max_iter = 10000``). The library's random state is drawn
from the trial's generator, so a seed gives the same fits. A sample with one label only
cannot be fitted by the library (scikit-learn refuses one class): the wrapper then
predicts that label everywhere, which uses no more of the data than the library would.

``FitDiagnostics`` (``measure = "mean"``) reports, per sample size, what a fit looked
like: the fractions of fits whose intercept exceeds 1e6 and 1e17 in absolute value (the intercept
is not penalised, so the perturbed objective may have no minimiser and the optimiser
walks off) and the optimiser's iteration count. No claim: these numbers describe the
library, and the report states them without a verdict.
"""

from __future__ import annotations

import warnings

import numpy as np

from privbounds.params import ALPHA, BETA, EPSILON, Interval, Options
from privbounds.simulators.engine.simulator import Simulator, expand

CONVERGED = {"tol": 1e-10, "max_iter": 10_000}
DEFAULTS = {"tol": 1e-4, "max_iter": 100}
# |intercept| above 1e6: the optimiser left every sensible region (the feature is in [0, 1]);
# above 1e17 as well: the size the first report of this behaviour saw (4.7e17)
BLOWUPS = {"blowup6": 1e6, "blowup17": 1e17}


def versions() -> str:
    from importlib import metadata

    return f"diffprivlib {metadata.version('diffprivlib')}, scikit-learn {metadata.version('scikit-learn')}"


class _Constant:
    def __init__(self, label):
        self.label = int(label)

    def predict(self, X):
        return np.full(len(X), self.label)


def fit_lr(X, y, epsilon, rng, tol, max_iter):
    """One diffprivlib fit (or the constant predictor of a one-label sample)."""
    from diffprivlib.models import LogisticRegression

    if np.all(y == y[0]):
        return _Constant(y[0])
    model = LogisticRegression(epsilon=epsilon, data_norm=1.0, tol=tol, max_iter=max_iter,
                               random_state=int(rng.integers(2**31 - 1)))
    with warnings.catch_warnings():  # convergence warnings are what FitDiagnostics measures
        warnings.simplefilter("ignore")
        return model.fit(X, y)


class DiffprivlibLR:
    """The learner protocol of privbounds.learners around diffprivlib's LogisticRegression."""

    sample_form = "rows"

    def __init__(self, epsilon=1.0, tol=CONVERGED["tol"], max_iter=CONVERGED["max_iter"]):
        self.epsilon, self.delta, self.tol, self.max_iter = epsilon, 0.0, tol, max_iter

    def fit(self, sample, rng):
        return fit_lr(sample.X, sample.y, self.epsilon, rng, self.tol, self.max_iter)


def converged(epsilon=1.0):
    return DiffprivlibLR(epsilon, **CONVERGED)


def defaults(epsilon=1.0):
    return DiffprivlibLR(epsilon, **DEFAULTS)


class FitDiagnostics(Simulator):
    """Per trial (one fit) one measured quantity (``quantity``): "blowup6" and "blowup17",
    1 if its |intercept| exceeds 1e6 (1e17), at small n where it happens; "iterations", the
    optimiser's iteration count, from small to large n."""

    theorem_id = "gallery.diffprivlib_lr_fits"
    measure = "mean"
    params = {"d": Interval("d", 2, 20, "both", integer=True), "epsilon": EPSILON, "alpha": ALPHA, "beta": BETA,
              "settings": Options("settings", ("defaults", "converged")),
              "quantity": Options("quantity", (*BLOWUPS, "iterations"))}
    NS = {"blowup6": [10, 20, 40, 100, 1000], "blowup17": [10, 20, 40, 100, 1000],
          "iterations": [10, 1000, 100_000, 1 << 18]}

    def grid(self, fidelity, overrides):
        return expand({"d": [12], "epsilon": [1.0], "alpha": [0.25], "beta": [0.25],
                       "settings": ["defaults", "converged"], "quantity": [*BLOWUPS, "iterations"]}, overrides)

    def curve(self, point):
        return list(self.NS[point["quantity"]])

    def privacy(self, point):
        return {"epsilon": point["epsilon"], "delta": 0.0,
                "accounting": "declared by diffprivlib (objective perturbation)"}

    def run_trials(self, point, n, trials, rng):
        from privbounds.instances import get

        inst = get("thresholds").make(d=point["d"])
        draws = inst.draw(n, trials, rng)
        cfg = CONVERGED if point["settings"] == "converged" else DEFAULTS
        out = np.empty(trials)
        for i in range(trials):  # one library fit per trial: nothing to vectorise across them
            s = draws.sample(i, "rows", rng)
            m = fit_lr(s.X, s.y, point["epsilon"], rng, **cfg)
            if point["quantity"] in BLOWUPS:
                out[i] = abs(float(getattr(m, "intercept_", [0.0])[0])) > BLOWUPS[point["quantity"]]
            else:
                out[i] = float(np.max(getattr(m, "n_iter_", [0])))
        return out
