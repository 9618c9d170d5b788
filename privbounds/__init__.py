"""privbounds: sample-complexity theorems of private learning, checked by experiment.

Notebook API::

    import privbounds
    privbounds.theorems()                  # the registry, one entry per theorem
    privbounds.get("bns.thm5_1")           # one entry: statement, claims, simulator
    privbounds.run(["siv.thm3_3"], fidelity="smoke", jobs=2, seed=0, out="privbounds-out")
"""

from privbounds.api import check, figures, report, reproduce, run
from privbounds.registry import get, theorems

__all__ = ["theorems", "get", "run", "figures", "report", "check", "reproduce"]
