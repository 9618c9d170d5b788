"""Shared parameters of the section 4 experiments of Kaplan, Mansour, Matias and Stemmer,
"Differentially Private Learning of Geometric Concepts" (ICML 2019): parameter specs and
the fidelity levels of the geometric experiments (claim4_5, lem4_6, alg_selecthalfplane,
thm4_7)."""

from __future__ import annotations

from privbounds.params import ALPHA, BETA, EPS_MIN, Interval, Options, named
from privbounds.simulators.engine.simulator import Fidelity
from privbounds.simulators.kmms.halfplanes import D_MAX

SPECS = named({
    "mode": Options(("grid", "sample")),
    "d": Interval(1, D_MAX, "both", integer=True),
    "points": Interval(2, 400, "both", integer=True),
    "eta": Interval(0, 1000, "right"),
    # k: the polygon's vertices (8 at most in the grids); at 1,024 four trials at the smallest n
    # took over 25 s
    "k": Interval(3, 64, "both", integer=True),
    "alpha": ALPHA,
    "beta": BETA,
    # Claims 3.4 and 4.3 (the learner's privacy) need eps < 1 and delta < 1/e
    "epsilon": Interval(EPS_MIN, 1, "left"),
    "delta": Interval(0, 0.36787944117144233, "neither"),
    "level": Interval(0, 1, "neither"),
})

# A ceiling on a "never" event: what a few hundred instances can confirm (bounds.kmms.never_ceiling)
NEVER_LEVEL = 0.05

# Geometry experiments: each trial is one arrangement or one selection; cheap trials, few of them.
GEOMETRY_FIDELITY = {
    "smoke": Fidelity(trials=20, block=20, steps=1, audit=0.25),
    "quick": Fidelity(trials=200, block=200, steps=4, audit=1.0),
    "full": Fidelity(trials=600, block=200, steps=8, audit=2.0),
}


def specs(*names) -> dict:
    return {k: SPECS[k] for k in names}
