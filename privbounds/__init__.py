"""privbounds: sample-complexity theorems of private learning, checked by experiment.

Notebook API::

    import privbounds
    privbounds.theorems()                  # the registry, one entry per theorem
    privbounds.get("bns.thm5_1")           # one entry: statement, claims, simulator
    privbounds.run(["siv.thm3_3"], fidelity="smoke", jobs=2, seed=0, out="privbounds-out")
    privbounds.plot(out="privbounds-out"); privbounds.report(out="privbounds-out")
    privbounds.audit(mechanism, D, D_prime, epsilon=1.0)   # black-box privacy audit
    privbounds.measure(MyLearner, instance="thresholds", grid={"d": [4, 8]})  # your own learner
    privbounds.instances.get("thresholds").make(d=8)      # the instances, for your own code

The names are loaded on first use (PEP 562), so that ``import privbounds.bounds.bns``
loads the bound functions alone, without the engine, pandas or matplotlib.
"""

import importlib

# The figure-drawing function is ``plot``: ``privbounds.figures`` is the subpackage of
# plotters (the design card's figures/ folder) and a function of that name would be
# shadowed by it.
_API = {"run": "api", "plot": "api", "report": "api", "check": "api", "reproduce": "api",
        "show": "api", "findings": "api", "theorems": "registry", "get": "registry", "audit": "blackbox",
        "measure": "measuring", "instances": None}
__all__ = list(_API)


def __getattr__(name):
    if name in _API and _API[name] is None:  # a submodule: privbounds.instances
        return importlib.import_module(f"{__name__}.{name}")
    if name in _API:
        return getattr(importlib.import_module(f"{__name__}.{_API[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
