"""Instances as a public API: the hard distributions and targets that the registered
simulators use, for a learner written outside privbounds (``privbounds measure``, your
own tests). ``core`` says what a family, an instance, a batch of trials and a sample are;
each paper's families are in its own module (``siv``, ``bns``, ``kmms``, ``wlf``).

    inst = instances.get("thresholds").make(d=8)
    draws = inst.draw(100, 3, rng)          # 3 trials: a random instance, 100 draws each
    draws.sample(0, "rows", rng)            # or "counts"
    draws.error(0, predict)                 # err_D, exactly
"""

from __future__ import annotations

from privbounds.instances import bns, kmms, siv, wlf
from privbounds.instances.core import Draws, Family, Instance, Sample
from privbounds.params import ParameterError

__all__ = ["Draws", "Family", "Instance", "Sample", "families", "get"]

FAMILIES = {f.name: f for mod in (siv, bns, kmms, wlf) for f in mod.FAMILIES}


def get(name: str) -> Family:
    if name not in FAMILIES:
        raise ParameterError(f"instance must be one of {', '.join(FAMILIES)}, got {name!r}")
    return FAMILIES[name]


def families() -> dict:
    return dict(FAMILIES)
