"""Figures of Bun-Nissim-Stemmer's tool results whose claims are success ceilings
(Thm 2.16 composition, Prop 3.8 exponential mechanism, Prop 3.11 A_dist, Lem 2.25
subsampling): the generic ceiling curves with each result's own variable on the x axis."""

from __future__ import annotations

from privbounds.figures.curves import plot_ceilings


def thm2_16(theorem, record, out):
    return plot_ceilings(theorem, record, out, xlabel="number of composed mechanisms k", xlog=True)


def prop3_8(theorem, record, out):
    return plot_ceilings(theorem, record, out, xlabel="score gap D below the optimum")


def prop3_11(theorem, record, out):
    return plot_ceilings(theorem, record, out, xlabel="gap q1 - q2 between the two best solutions")


def lem2_25(theorem, record, out):
    return plot_ceilings(theorem, record, out, xlabel="database size m (the inner learner sees n = 20 rows)",
                         xlog=True)
