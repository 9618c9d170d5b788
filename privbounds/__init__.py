"""privbounds: sample-complexity theorems of private learning, checked by experiment.

Notebook API::

    import privbounds
    privbounds.theorems()                  # the registry, one entry per theorem
    privbounds.get("bns.thm5_1")           # one entry: statement, claims, simulator
    privbounds.run(["siv.thm3_3"], fidelity="smoke", jobs=2, seed=0, out="privbounds-out")
    privbounds.plot(out="privbounds-out"); privbounds.report(out="privbounds-out")
"""

from privbounds.api import check, plot, report, reproduce, run
from privbounds.registry import get, theorems

# The figure-drawing function is ``plot``: ``privbounds.figures`` is the subpackage of
# plotters (the design card's figures/ folder) and a function of that name would be
# shadowed by it.
__all__ = ["theorems", "get", "run", "plot", "report", "check", "reproduce"]
