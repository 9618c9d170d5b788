"""``privbounds.measure``: measure your own learner on an instance of one of the five papers'
theorems, beside that theorem's bounds and learners. It runs and draws through the API, so
it lives above it; what a measured learner is (its protocol, the entry it becomes, the
description that later commands read back) is privbounds/learners.py, below the API."""

from __future__ import annotations

import json
import re

from privbounds.learners import describe, make_spec, mark_live, register, saved_path


def measure(learner, instance: str = "thresholds", grid: dict | None = None, fidelity: str = "quick",
            jobs: int = 1, seed: int = 0, out="privbounds-out", compare_to: str | None = None,
            name: str | None = None, max_n: int = 1 << 20, label: str | None = None, settings: str = "",
            progress: bool = True, backend: str = "loky", use_cache: bool = True, command: str | None = None):
    """Measure ``learner`` (see the module docstring) on ``instance`` over ``grid``
    (default: the family's, ``privbounds list --instances``) and compare it with ``compare_to`` (default: the theorem whose
    instance it is). Writes ``<out>/results/learner.<name>.json`` and ``.csv``, its
    figure, and the description that lets ``report`` and ``check`` read it later.
    Returns the result record."""
    from privbounds.api import plot, run
    from privbounds.arguments import validate_common
    from privbounds.instances import get as family
    from privbounds.results import check_writable, write_atomic

    validate_common(fidelity, jobs, seed, backend)
    fam = family(instance)
    compare_to = compare_to or fam.theorem
    name = name or re.sub(r"[^a-z0-9_-]+", "-", describe(learner).split(":")[-1].lower()).strip("-")[:48] or "mine"
    spec = make_spec(learner, name=name, instance=instance, compare_to=compare_to,
                     grid=grid if grid is not None else dict(fam.grid), max_n=max_n, label=label,
                     settings=settings)
    out = check_writable(out, "learners")
    register(spec, learner, out)
    mark_live(spec["id"])
    write_atomic(saved_path(out, spec["id"]), json.dumps(spec, indent=1, sort_keys=True))
    command = command or (f"privbounds.measure({spec['learner']}, instance={instance!r}, grid={spec['grid']!r}, "
                          f"fidelity={fidelity!r}, jobs={jobs}, seed={seed}, compare_to={compare_to!r})")
    rec = run([spec["id"]], fidelity=fidelity, jobs=jobs, seed=seed, out=out, backend=backend,
              progress=progress, command=command, use_cache=use_cache)[spec["id"]]
    plot([spec["id"]], out)
    return rec
