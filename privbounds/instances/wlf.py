"""Wang, Lei and Fienberg, "Learning with Differential Privacy: Stability, Learnability
and the Sufficiency and Necessity of ERM Principle": the instances of its simulators as
public families (see ``privbounds.instances``). None is public yet."""

from __future__ import annotations

FAMILIES: list = []
