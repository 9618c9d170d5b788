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
- ``gallery.diffprivlib_lr_kgon``: the same (converged) on the halfplane instance of
  kmms.thm4_7, convex k-gons under the band distribution;
- ``gallery.diffprivlib_lr_blowups`` and ``gallery.diffprivlib_lr_iterations``: what its
  fits look like (intercepts that blow up, iteration counts), numbers without a verdict.
"""

from __future__ import annotations

from privbounds.registry import Paper, Theorem, add_paper, entry

PAPER = Paper("gallery", "Learners from other libraries (not a theorem's algorithm)", kind="learners")
GRID = {"d": [4, 8, 12], "epsilon": [1.0]}
# the black-box audit of this learner (docs/guide/measure.md); its numbers are
# those that command printed
UNAUDITED = (
    "audited with the earlier single-flip form of 'privbounds audit', not yet rerun with today's label flips of "
    "rows alone at their point (the example learner of docs/guide/measure.md, the converged setting, on D = 100 rows of "
    "THRESH_4 and D' = D with the label of its largest row flipped; 5,000 fits per side after a pilot of 2,000): "
    "eps_hat -0.62 at the declared eps = 1 and -0.71 with the budget doubled, so the audit had no power and "
    "cannot tell whether the library keeps its declared epsilon (its first-coefficient statistic does not "
    "separate the two datasets); a planted non-private variant (scikit-learn's LogisticRegression in its "
    "place) is refuted on the same neighbours with eps_hat 6.40")
MAX_N = 1 << 21


def installed() -> bool:
    """Whether the gallery's libraries are installed (looked up, not imported: importing
    them would cost every command a second)."""
    from importlib.util import find_spec

    return find_spec("diffprivlib") is not None and find_spec("sklearn") is not None


def _settings(cfg: dict, norm: str = "data_norm = 1 (the feature lies in [0, 1])",
              public: str = "(0, label 0) and (1, label 1)") -> str:
    from privbounds.simulators.gallery.diffprivlib_lr import versions

    return (f"epsilon per point, {norm}, tol = {cfg['tol']:g}, max_iter = {cfg['max_iter']}, random_state from "
            f"the trial's generator, two public rows {public} added to every sample; {versions()}")


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

    from privbounds.simulators.gallery.diffprivlib_lr import halfplane

    learner_entry("gallery.diffprivlib_lr_kgon", halfplane, instance="kgon", compare_to="kmms.thm4_7",
                  grid={"d": [8], "k": [3, 4]}, max_n=1 << 16,
                  label="diffprivlib LogisticRegression on convex k-gons (optimiser run to convergence)",
                  settings=_settings(CONVERGED, "data_norm = sqrt 2 (the features lie in [0, 1]^2)",
                                     "((1/2, 1/2), label 1) and ((0, 0), label 0)"),
                  notes=("A learner from another library on the halfplane instance of Kaplan, Mansour, Matias and "
                         "Stemmer's Theorem 4.7: one halfplane (a linear classifier) against a convex k-gon target "
                         "under the band distribution, where the theorem's learner intersects k halfplanes. The "
                         "bounds drawn beside it are the theorem's, for its own learner. Two public rows, one per "
                         "label, agree with every target (the grid's centre is inside, its corner outside)."),
                  accounting=ACCOUNTING, unaudited=UNAUDITED)

    @entry("gallery.diffprivlib_lr_blowups")
    def _blowups() -> Theorem:
        from privbounds.figures.learners import plot_fits
        from privbounds.simulators.gallery.diffprivlib_lr import Blowups, versions

        return Theorem(
            number="diffprivlib fits: intercepts", title="How often diffprivlib's LogisticRegression blows up",
            statement=("Per sample size, on the threshold instance (registered grid: d = 12, eps = 1; the figure's "
                       "'fixed' line gives the point run): the fraction of fits "
                       "whose intercept exceeds 1e6 (and 1e17) in absolute value, with the library's defaults "
                       f"and run to convergence ({versions()})."),
            math="No bound: numbers about the library, stated without a verdict.",
            simulator=Blowups(), plotter=plot_fits, claims=[],
            notes=("The intercept is not penalised, so the perturbed objective need not have a minimiser: a "
                   "fit may walk off to a huge intercept. Fractions with 95% Clopper-Pearson intervals."))

    @entry("gallery.diffprivlib_lr_iterations")
    def _iterations() -> Theorem:
        from privbounds.figures.learners import plot_fits
        from privbounds.simulators.gallery.diffprivlib_lr import Iterations, versions

        return Theorem(
            number="diffprivlib fits: iterations", title="How long diffprivlib's LogisticRegression optimises",
            statement=("Per sample size, on the threshold instance (registered grid: d = 12, eps = 1; the figure's "
                       "'fixed' line gives the point run): the optimiser's "
                       "iteration count, with the library's defaults (tol = 1e-4, max_iter = 100) and run to "
                       f"convergence (tol = 1e-10, max_iter = 10000) ({versions()})."),
            math="No bound: numbers about the library, stated without a verdict.",
            simulator=Iterations(), plotter=plot_fits, claims=[],
            notes="Means with 95% Student-t intervals; the table gives the smallest and largest counts.")
