"""A run's arguments, checked before any work starts (the Python API's and the command
line's): which theorems (ids, shell patterns, a paper), the overrides of their grids, the
fidelity, jobs, seed and backend. Not tied to one paper."""

from __future__ import annotations

import os
import sys
from numbers import Integral
from pathlib import Path

import numpy as np

from privbounds.messages import warn
from privbounds.params import ParameterError, flag
from privbounds.registry import get, select
from privbounds.results import ResultError, load, overrides_text, results_dir
from privbounds.simulators.engine.runner import BACKENDS
from privbounds.simulators.engine.simulator import FIDELITIES


def _ids_arg(ids) -> list[str] | None:
    """``ids`` as a list: one id or pattern, or a list, tuple or set of them (a
    ParameterError names anything else)."""
    if isinstance(ids, str):  # run("siv.thm3_3"): one id or pattern
        return [ids]
    if ids is not None and (not isinstance(ids, (list, tuple, set, frozenset))
                            or not all(isinstance(i, str) for i in ids)):
        raise ParameterError(f"ids must be a theorem id, a pattern, or a list of them, got {ids!r}"[:200])
    return None if ids is None else list(ids)


def resolve_ids(ids=None, paper: str | None = None, runnable: bool = True) -> list[str]:
    """Ids selected by exact ids or shell patterns ('bns.cor3_*') and/or a paper, in
    registry order, duplicates dropped. With ``runnable``, entries without a simulator
    (bound-only and summary theorems) are left out, and naming one on its own is an error."""
    ids = _ids_arg(ids)
    chosen = select(ids, paper)
    if not runnable:
        return chosen
    keep = [i for i in chosen if get(i).runnable]
    for i in ids or ():
        if i in chosen and i not in keep:
            t = get(i)
            tested = f"tested by {', '.join(t.tested_by)}" if t.tested_by else "not measured"
            raise ParameterError(f"{i} is a {t.status} entry with no simulator of its own ({tested}); "
                                 f"see 'privbounds show {i}'")
    return keep


def check_replacing(out: Path, ids, fidelity: str, seed: int, overrides: dict, force: bool = False) -> None:
    """Before a run writes anything to ``out``: refuse (ParameterError) a run with overrides
    that would replace registered results (a registered grid's results are what ``check``,
    the baseline and the report's totals rest on, and a --set grid is usually smaller),
    unless ``force``; and warn in one line when a run replaces results of another kind
    (registered ones by another fidelity or seed or, forced, by a custom grid; custom-grid
    ones by another grid: their blocks stay in the store, so their command runs again
    from it)."""
    replaced, how, refused, custom = [], set(), [], []
    for tid in ids:
        if not (results_dir(out) / f"{tid}.json").is_file():
            continue
        try:
            old = load(out, tid)
        except ResultError:
            continue  # named when it is read; nothing readable to lose
        mine = {k: v for k, v in overrides.items() if k in get(tid).simulator.params}
        if old.overrides:
            if old.overrides != mine:
                custom.append(f"{tid} ({overrides_text(old)})")
        elif mine and old.status == "finished" and not force:
            refused.append(tid)
        elif mine:
            how.add("a custom grid (" + " ".join(f"--set {k}={','.join(map(str, v))}" for k, v in mine.items()) + ")")
            replaced.append(tid)
        elif old.fidelity != fidelity or old.provenance.seed != seed:
            how.add(f"{fidelity} fidelity (they are {old.fidelity})" if old.fidelity != fidelity
                    else f"seed {seed} (they have seed {old.provenance.seed})")
            replaced.append(tid)
    if refused:
        setting = "--set" if flag("set") == "--set" else "overrides"
        raise ParameterError(f"{flag('out')} {out} holds the registered results of {_some(refused)}, which a run with "
                             f"{setting} would replace: give it its own {flag('out')}, or add {flag('force')} to "
                             "replace them")
    if replaced:
        warn(f"replacing the registered results of {_some(replaced)} in {out} by a run with {'; '.join(sorted(how))}; "
             f"keep such runs in their own {flag('out')}")
    if custom:
        warn(f"replacing the custom-grid results of {_some(custom)} in {out}; the same --set run again reads "
             "their blocks back from the store")


def _some(items: list[str], most: int = 4) -> str:
    return ", ".join(items[:most]) + (f" and {len(items) - most} more" if len(items) > most else "")


def normalise_overrides(overrides) -> dict:
    """{name: list of plain values}: lists, tuples and numpy arrays of values (numpy scalars
    become Python ones); a bare value is refused, since an override replaces a whole axis."""
    if overrides is None:
        return {}
    if not isinstance(overrides, dict):
        raise ParameterError(f"overrides must be a dict {{name: [values]}}, got {type(overrides).__name__}")
    out = {}
    for name, values in overrides.items():
        if isinstance(values, np.ndarray):
            values = values.ravel().tolist()
        if isinstance(values, (str, bytes)) or not isinstance(values, (list, tuple)):
            raise ParameterError(f"overrides[{name!r}] must be a list of values (an axis of the grid), "
                                 f"e.g. {{{name!r}: [{values!r}]}}, got a single {type(values).__name__}")
        if not values:
            raise ParameterError(f"overrides[{name!r}] must hold at least one value")
        out[name] = [v.item() if isinstance(v, np.generic) else v for v in values]
    return out


def validate_common(fidelity: str, jobs, seed, backend: str = "loky") -> None:
    if fidelity not in FIDELITIES:
        raise ParameterError(f"{flag('fidelity')} must be one of {', '.join(FIDELITIES)}, got {fidelity!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, Integral) or jobs < 1:
        raise ParameterError(f"{flag('jobs')} must be an integer >= 1, got {jobs!r}")
    if isinstance(seed, bool) or not isinstance(seed, Integral) or seed < 0 or seed >= 2**63:
        raise ParameterError(f"{flag('seed')} must be a non-negative integer below 2^63, got {seed!r}")
    if backend not in BACKENDS:
        raise ParameterError(f"{flag('backend')} must be one of {', '.join(BACKENDS)}, got {backend!r}")


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask, which a container or taskset
    narrows), not the machine's count."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def capped_jobs(jobs: int, backend: str, scheduler: str | None, force: bool) -> int:
    """More worker processes than CPUs only fight over the cores (and multiply memory):
    capped at the CPU count, with one line saying so, unless forced. A remote Dask
    scheduler's workers are not on this machine, so its --jobs is not capped."""
    cpus = usable_cpus()
    if jobs <= cpus or force or (backend == "dask" and scheduler):
        return jobs
    print(f"privbounds: {flag('jobs')} {jobs} is more than the {cpus} CPUs this process may use: running "
          f"{cpus} ({flag('force_jobs')} to run {jobs})", file=sys.stderr)
    return cpus


def machine_memory() -> int:
    """Bytes of memory of this machine (0 where the system does not say)."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return 0


def check_memory(work: dict, fidelity: str, slots: int, total: int | None = None, where: str = "this machine") -> None:
    """Refuse, before any block runs, a point whose largest block the simulator estimates
    to need more than ``total`` bytes (this machine's memory) shared by ``slots`` blocks at
    once: one line naming the theorem and the point (ParameterError)."""
    total = machine_memory() if total is None else total
    if total <= 0:
        return
    from privbounds.simulators.engine.simulator import Simulator

    for tid, (sim, points) in work.items():
        if getattr(type(sim), "memory", None) is Simulator.memory:
            continue  # no estimate: nothing to ask (and its n_range is the engine's to call)
        for p in points:
            try:
                need = sim.block_memory(p, fidelity)
            except Exception:  # noqa: BLE001 - the engine runs the theorem and records its failure
                break
            if need is not None and need * slots > total:
                shown = ", ".join(f"{k}={v}" for k, v in p.items() if k in sim.params)
                size, room = f"{need / 2**30:.1f} GiB", f"{where}'s {total / 2**30:.1f} GiB"
                raise ParameterError(
                    f"{tid} at {shown}: a block needs about {size}, more than {room}; give smaller values"
                    if slots == 1 else f"{tid} at {shown}: a block needs about {size}, and {slots} at once do not "
                    f"fit in {room}; give smaller values, or fewer {flag('jobs')}")
