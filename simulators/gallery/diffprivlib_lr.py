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

``Blowups`` and ``Iterations`` report, per sample size, what a fit looked like: the
fraction of fits whose intercept exceeds 1e6 (1e17) in absolute value (the intercept is
not penalised, so the perturbed objective may have no minimiser and the optimiser walks
off), and the optimiser's iteration count. No claim: these numbers describe the library,
and the report states them without a verdict.
"""

from __future__ import annotations

import warnings

import numpy as np

from privbounds.params import ALPHA, BETA, EPSILON, Interval, Options
from privbounds.simulators.engine.simulator import Simulator, expand

CONVERGED = {"tol": 1e-10, "max_iter": 10_000}
DEFAULTS = {"tol": 1e-4, "max_iter": 100}


def versions() -> str:
    from importlib import metadata

    return f"diffprivlib {metadata.version('diffprivlib')}, scikit-learn {metadata.version('scikit-learn')}"


ACCOUNTING = ("declared by diffprivlib (objective perturbation; its proof assumes an exact minimiser of a "
              "strongly convex objective, which an unpenalised intercept and a stopping tolerance do not give)")
PUBLIC_X, PUBLIC_Y = np.array([[0.0], [1.0]]), np.array([0, 1])  # one public row per label


def fit_lr(X, y, epsilon, rng, tol, max_iter, public=None, data_norm=1.0):
    """One diffprivlib fit on the sample and the public rows (one per label; default
    those of the threshold instance)."""
    px, py = public if public is not None else (PUBLIC_X, PUBLIC_Y)
    try:
        from diffprivlib.models import LogisticRegression
    except Exception as e:  # e.g. diffprivlib 0.6.6 with scikit-learn 1.9: one line, with the fix
        raise ImportError(f"diffprivlib does not import ({type(e).__name__}: {e}); install the gallery's pins: "
                          "pip install 'privbounds[gallery]'") from None
    model = LogisticRegression(epsilon=epsilon, data_norm=data_norm, tol=tol, max_iter=max_iter,
                               random_state=int(rng.integers(2**31 - 1)))
    with warnings.catch_warnings():  # convergence warnings are what the diagnostics measure
        warnings.simplefilter("ignore")
        return model.fit(np.vstack([X, px]), np.append(y, py))


class DiffprivlibLR:
    """The learner protocol of privbounds.learners around diffprivlib's LogisticRegression."""

    sample_form = "rows"

    def __init__(self, epsilon=1.0, tol=CONVERGED["tol"], max_iter=CONVERGED["max_iter"], public=None,
                 data_norm=1.0):
        self.epsilon, self.delta, self.tol, self.max_iter = epsilon, 0.0, tol, max_iter
        self.public, self.data_norm = public, data_norm

    def fit(self, sample, rng):
        return fit_lr(sample.X, sample.y, self.epsilon, rng, self.tol, self.max_iter, self.public, self.data_norm)


def converged(epsilon=1.0):
    return DiffprivlibLR(epsilon, **CONVERGED)


# The k-gon instance (features (x/d, y/d), norm at most sqrt 2): the grid's centre lies
# inside every target (radius 0.38 d, centre shifted by at most 0.5) and its corner (0, 0)
# outside every one, so these public rows agree with every target.
PUBLIC_KGON = (np.array([[0.5, 0.5], [0.0, 0.0]]), np.array([1, 0]))


def halfplane(epsilon=0.99):
    """On the k-gon instance: a halfplane classifier, the optimiser run to convergence."""
    return DiffprivlibLR(epsilon, **CONVERGED, public=PUBLIC_KGON, data_norm=float(np.sqrt(2)))


def defaults(epsilon=1.0):
    return DiffprivlibLR(epsilon, **DEFAULTS)


class _Fits(Simulator):
    """Fits of the library on the threshold instance at d = 12, eps = 1, one per trial,
    under both settings (``settings``)."""

    base = {"d": Interval(2, 20, "both", integer=True), "epsilon": EPSILON, "alpha": ALPHA, "beta": BETA,
            "settings": Options(("defaults", "converged"))}
    axes = {"d": [12], "epsilon": [1.0], "alpha": [0.25], "beta": [0.25], "settings": ["defaults", "converged"]}

    def privacy(self, point):
        return {"epsilon": point["epsilon"], "delta": 0.0, "accounting": ACCOUNTING}

    def _fits(self, point, n, trials, rng):
        from privbounds.instances import get

        draws = get("thresholds").make(d=point["d"]).draw(n, trials, rng)
        cfg = CONVERGED if point["settings"] == "converged" else DEFAULTS
        for i in range(trials):  # one library fit per trial: nothing to vectorise across them
            s = draws.sample(i, "rows", rng)
            yield fit_lr(s.X, s.y, point["epsilon"], rng, **cfg)


class Blowups(_Fits):
    """Each trial's event: the fit's |intercept| exceeds ``threshold`` (1e6: the optimiser
    left every sensible region, the feature being in [0, 1]; 1e17: the size the first
    report of this behaviour saw, 4.7e17). Success curves over small n, Clopper-Pearson."""

    theorem_id = "gallery.diffprivlib_lr_blowups"
    params = {**_Fits.base, "threshold": Options((1e6, 1e17))}

    def grid(self, fidelity, overrides):
        return expand({**self.axes, "threshold": [1e6, 1e17]}, overrides)

    def curve(self, point):
        return [10, 20, 40, 100, 1000]

    def run_trials(self, point, n, trials, rng):
        return np.array([abs(float(m.intercept_[0])) > point["threshold"] for m in self._fits(point, n, trials, rng)])


class Iterations(_Fits):
    """Each trial's value: the optimiser's iteration count (``measure = "mean"``), from
    small n to n = 2^18 (2^21 with the defaults, where d = 12 never reaches the goal)."""

    theorem_id = "gallery.diffprivlib_lr_iterations"
    measure = "mean"
    params = {**_Fits.base, "n_max": Options((1 << 12, 1 << 21))}

    def grid(self, fidelity, overrides):
        # smoke stops at 4096 (seconds, for tests); quick and full go to 2^21
        return expand({**self.axes, "n_max": [1 << 12 if fidelity == "smoke" else 1 << 21]}, overrides)

    def curve(self, point):
        ns = [10, 1000, 100_000, 1 << 18, *([1 << 21] if point["settings"] == "defaults" else [])]
        return [n for n in ns if n <= point["n_max"]]

    def run_trials(self, point, n, trials, rng):
        return np.array([float(np.max(m.n_iter_)) for m in self._fits(point, n, trials, rng)])
