"""The gallery: learners from other libraries measured on the registered instances and
set beside a theorem's bounds and learners (``pip install 'privbounds[gallery]'``).

Registered through the project's own plugin entry point (``privbounds.plugins``, see
privbounds/registry), and only when the libraries import: without the extra, ``list``,
``run`` and ``check`` do not show these entries. Their report pages sit under the
heading of learners from other libraries; they are no theorem's algorithm.

- ``gallery.diffprivlib_lr``: diffprivlib's LogisticRegression, optimiser run to
  convergence, on the threshold instance of siv.thm3_3 (d = 4, 8, 12; eps = 1);
- ``gallery.diffprivlib_lr_defaults``: the same with the library's default optimiser
  settings;
- ``gallery.diffprivlib_lr_fits``: what its fits look like (intercepts that blow up,
  iteration counts), numbers without a verdict.
"""

from __future__ import annotations

from privbounds.registry import Paper, Theorem, add_paper, entry

PAPER = Paper("gallery", "Learners from other libraries (not a theorem's algorithm)", kind="learners")
GRID = {"d": [4, 8, 12], "epsilon": [1.0]}
# the black-box audit of this learner (README, "Bring your own learner"); its numbers are
# those that command printed
UNAUDITED = "AUDIT_PLACEHOLDER"
MAX_N = 1 << 21


def installed() -> bool:
    """Whether the gallery's libraries are installed (looked up, not imported: importing
    them would cost every command a second)."""
    from importlib.util import find_spec

    return find_spec("diffprivlib") is not None and find_spec("sklearn") is not None


def _settings(cfg: dict) -> str:
    from privbounds.simulators.gallery.diffprivlib_lr import versions

    return (f"epsilon per point, data_norm = 1 (the feature lies in [0, 1]), tol = {cfg['tol']:g}, "
            f"max_iter = {cfg['max_iter']}, random_state from the trial's generator, two public rows "
            f"(0, label 0) and (1, label 1) added to every sample; {versions()}")


NOTES = ("A learner from another library, not a theorem's algorithm. The upper bound drawn beside it is "
         "Theorem 3.3's for the exponential-mechanism learner: a comparison, not a guarantee for this learner. "
         "scikit-learn refuses a one-label sample, so every fit gets two fixed public rows, one per label "
         "(public data cost no privacy; branching on the data instead would leak).")


def register() -> None:
    """Entry point of the ``privbounds.plugins`` group: the gallery's paper and entries,
    if the gallery's libraries are installed."""
    if not installed():
        return
    add_paper(PAPER)

    from privbounds.learners import learner_entry
    from privbounds.simulators.gallery.diffprivlib_lr import (
        ACCOUNTING,
        CONVERGED,
        DEFAULTS,
        converged,
        defaults,
    )

    for name, factory, what, cfg in (("diffprivlib_lr", converged, "optimiser run to convergence", CONVERGED),
                                     ("diffprivlib_lr_defaults", defaults, "the library's default optimiser "
                                                                            "settings", DEFAULTS)):
        learner_entry(f"gallery.{name}", factory, instance="thresholds", compare_to="siv.thm3_3", grid=GRID,
                      max_n=MAX_N, label=f"diffprivlib LogisticRegression ({what})", settings=_settings(cfg),
                      notes=NOTES, accounting=ACCOUNTING, unaudited=UNAUDITED)

    @entry("gallery.diffprivlib_lr_fits")
    def _fits() -> Theorem:
        from privbounds.figures.learners import plot_fits
        from privbounds.simulators.gallery.diffprivlib_lr import FitDiagnostics, versions

        return Theorem(
            number="diffprivlib fits", title="What diffprivlib's LogisticRegression fits look like on THRESH_12",
            statement=("Per sample size, on the threshold instance at d = 12 and eps = 1: the fraction of fits "
                       "whose intercept exceeds 1e6 and 1e17 in absolute value and the optimiser's iteration "
                       f"count, with the library's defaults and run to convergence ({versions()})."),
            math="No bound: numbers about the library, stated without a verdict.",
            simulator=FitDiagnostics(), plotter=plot_fits, claims=[],
            notes=("The intercept is not penalised, so the perturbed objective need not have a minimiser: "
                   "a fit may walk off to a huge intercept. The defaults stop the optimiser at tol = 1e-4, "
                   "which at large n it meets after a step or two."))
