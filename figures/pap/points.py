"""The points of a record of Bassily et al., "Private Query Release Assisted by Public
Data" (ICML 2020) as its figures read them: the worst distribution at each setting of the
other parameters (``worst``), as the claims judge it."""

from __future__ import annotations

import dataclasses

from privbounds.claims import worst_case
from privbounds.record import PointResult


def worst(points, over: tuple = ("dist",)) -> list[PointResult]:
    """One point per setting of the parameters other than ``over``: the one with the
    largest n_hat, its interval and ``floor_reached`` as ``privbounds.claims.worst_case``
    gives them (which reads the simulator's mappings: each point is lent to it as one)."""
    lent = [{"point": p.point, "n_hat": p.n_hat, "n_low": p.n_low, "n_high": p.n_high,
             "floor_reached": p.floor_reached, "of": p} for p in points]
    return [dataclasses.replace(w["of"], n_hat=w["n_hat"], n_low=w["n_low"], n_high=w["n_high"],
                                floor_reached=bool(w["floor_reached"])) for w in worst_case(lent, over)]
