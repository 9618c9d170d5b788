"""diffprivlib's ``LogisticRegression`` (IBM's differential privacy library; objective
perturbation, Chaudhuri, Monteleoni and Sarwate 2011) as a privbounds learner, on the
threshold instance of Sivakumar's Theorem 3.3, and a diagnostic of its fits.

The learner sees the instance's one feature x / (2^d - 1) in [0, 1], so ``data_norm =
1`` bounds every row's norm and no row is clipped; ``epsilon`` is the point's. Two
settings: the library's defaults (``tol = 1e-4``, ``max_iter = 100``) and an optimiser run
to convergence (``tol = 1e-10``, ``max_iter = 10000``). The library's random state is drawn
from the trial's generator, so a seed gives the same fits. scikit-learn refuses a sample
with one label only; rather than branch on the data (a branch that would itself be a
leak), every fit gets two fixed public rows, (0, label 0) and (1, label 1), consistent
with every threshold target: public data cost no privacy, and the library's guarantee
for n + 2 rows covers any change of one of the n private ones.

The privacy is the library's declaration, recorded as declared. Objective perturbation's
proof assumes the exact minimiser of a strongly convex objective; the library does not
penalise the intercept and stops its optimiser at a tolerance, so the proof's
assumptions do not hold as such (the gallery's notes give the audit that was run).

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


ACCOUNTING = ("declared by diffprivlib (objective perturbation; its proof assumes an exact minimiser of a "
              "strongly convex objective, which an unpenalised intercept and a stopping tolerance do not give)")
PUBLIC_X, PUBLIC_Y = np.array([[0.0], [1.0]]), np.array([0, 1])  # one public row per label


def fit_lr(X, y, epsilon, rng, tol, max_iter):
    """One diffprivlib fit on the sample and the two public rows."""
    try:
        from diffprivlib.models import LogisticRegression
    except Exception as e:  # e.g. diffprivlib 0.6.6 with scikit-learn 1.9: one line, with the fix
        raise ImportError(f"diffprivlib does not import ({type(e).__name__}: {e}); install the gallery's pins: "
                          "pip install 'privbounds[gallery]'") from None
    model = LogisticRegression(epsilon=epsilon, data_norm=1.0, tol=tol, max_iter=max_iter,
                               random_state=int(rng.integers(2**31 - 1)))
    with warnings.catch_warnings():  # convergence warnings are what FitDiagnostics measures
        warnings.simplefilter("ignore")
        return model.fit(np.vstack([X, PUBLIC_X]), np.append(y, PUBLIC_Y))


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
        # the defaults' iteration count also at n = 2^21, where d = 12 never reaches the goal
        extra = [1 << 21] if point["quantity"] == "iterations" and point["settings"] == "defaults" else []
        return [*self.NS[point["quantity"]], *extra]

    def privacy(self, point):
        return {"epsilon": point["epsilon"], "delta": 0.0, "accounting": ACCOUNTING}

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
