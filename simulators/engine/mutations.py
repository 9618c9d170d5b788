"""Mutation tests of the privacy audits: does each audit instance catch each of its noise
sources halved on its own?

Not tied to one paper: it runs the audit instances the simulators of all five papers
declare (engine/audit.py, ``AuditCase.sources``). For an instance and one of its noise
sources, ``weakened`` patches the source's call site in the learner's own module (the
function or constant that sets that one scale; engine/audit.py, ``NoiseSource``) so that
the learner adds half the noise there and nowhere else; ``mutate`` runs the instance at
its declared budget, clean and mutated, through ``AuditCase.run`` and the engine's
``epsilon_lower_bound`` at ``AUDIT_CONF``, exactly as the ``PrivacyAudit`` claim judges a
run. A source is *caught* when the mutated learner's eps_hat exceeds the declared epsilon
(the claim would read "refuted") while the clean learner's does not.

A source an instance does not catch gets the instance's own reason from
``AuditCase.uncaught`` (with numbers, and what catches that source instead: another
instance of the same site, a unit test, or the fact that the event is a delta event), or
"NO REASON DECLARED", so that the table says why for every row that is not caught.

Each patched site counts its calls: a site the run never reached is a wrong declaration
(the audit would be testing code the learner does not run), reported as such.

Trials: ``AuditCase.mutation_trials`` per side (0: min(trials, 200,000)), each instance's
clean run once, then one run per source, from seeds fixed by the names (so a table
reruns identically).

    python -m privbounds.simulators.engine.mutations [theorem ids or patterns] [--trials N]

prints the table: theorem, audit, source, declared eps, eps_hat clean and mutated,
caught or not (and why not), one line per call site, and the totals (sources caught of
those declared, call sites caught of all the sites weakened).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import inspect
import sys
import zlib
from dataclasses import dataclass

import numpy as np

from privbounds.simulators.engine.audit import AUDIT_CONF, AuditCase, NoiseSource, epsilon_lower_bound

DEFAULT_TRIALS = 200_000


class SiteNotReached(RuntimeError):
    """The mutated run never called the declared site: the declaration is wrong."""


@contextlib.contextmanager
def weakened(source: NoiseSource, factor: float = 2.0):
    """Patch ``source.site`` so that this one source's privacy is weakened by ``factor``
    (its scale halved for 2); yields a one-element list counting the calls (None for a
    constant, which cannot count). Restores the site on exit, whatever happens."""
    mod_name, attr = source.site.split(":")
    mod = importlib.import_module(mod_name)
    original = getattr(mod, attr)
    calls = [0]
    if callable(original):
        sig = inspect.signature(original) if source.arg is not None else None
        if sig is not None and source.arg not in sig.parameters:
            raise ValueError(f"{source.site} has no argument {source.arg!r}")

        def patched(*args, **kwargs):
            calls[0] += 1
            if sig is None:  # the function returns the parameter
                return source.weaken(original(*args, **kwargs), factor)
            bound = sig.bind(*args, **kwargs)
            bound.apply_defaults()
            bound.arguments[source.arg] = source.weaken(bound.arguments[source.arg], factor)
            return original(*bound.args, **bound.kwargs)

        replacement = patched
    else:
        if source.arg is not None:
            raise ValueError(f"{source.site} is a constant; a constant site takes no arg")
        replacement, calls = source.weaken(original, factor), None
    setattr(mod, attr, replacement)
    try:
        yield calls
    finally:
        setattr(mod, attr, original)


def _rng(*names) -> np.random.Generator:
    return np.random.default_rng([zlib.crc32(str(n).encode()) for n in names])


def eps_hat(case: AuditCase, trials: int, rng: np.random.Generator, budget: float = 1.0) -> float:
    """The instance's eps_hat at ``budget`` from ``trials`` per side, as the claim computes it."""
    a, b = case.run(budget, trials, rng)
    return epsilon_lower_bound(a, trials, b, trials, case.delta, AUDIT_CONF)


def case_trials(case: AuditCase, trials: int | None = None) -> int:
    return int(trials or case.mutation_trials or min(case.trials, DEFAULT_TRIALS))


@dataclass(frozen=True)
class Mutation:
    """One row of the table."""

    theorem: str
    audit: str
    source: str
    kind: str
    declared: float
    clean: float
    mutated: float | None  # None: not run (see ``why``)
    trials: int
    why: str = ""
    site: str = ""  # where the source was weakened: "module:attribute(arg)"

    @property
    def caught(self) -> bool:
        return self.mutated is not None and self.mutated > self.declared >= self.clean

    @property
    def ratio(self) -> float:
        return self.clean / self.declared if self.declared > 0 else float("nan")


def mutate(case: AuditCase, source: NoiseSource, trials: int | None = None, theorem: str = "",
           clean: float | None = None) -> Mutation:
    """Run ``case`` clean (unless ``clean`` is given) and with ``source`` halved."""
    n = case_trials(case, trials)
    if clean is None:
        clean = eps_hat(case, n, _rng(theorem, case.name, "clean"))
    try:
        with weakened(source) as calls:
            mutated = eps_hat(case, n, _rng(theorem, case.name, source.name))
    except (ValueError, ZeroDivisionError) as err:  # e.g. a subsample rate already 1 cannot double
        return Mutation(theorem, case.name, source.name, source.kind, case.epsilon, clean, None, n,
                        _with_reason(case, source.name, f"cannot weaken here: {str(err)[:60]}"), _site(source))
    if calls is not None and calls[0] == 0:
        raise SiteNotReached(f"{case.name}: the run never called {source.site} (source {source.name})")
    why = ""
    if clean > case.epsilon:
        why = _with_reason(case, source.name, "the CLEAN learner is refuted")
    elif not mutated > case.epsilon:
        why = _with_reason(case, source.name, f"eps_hat {mutated:.3f} with the source halved is not above "
                                              f"{case.epsilon:.4g}")
    return Mutation(theorem, case.name, source.name, source.kind, case.epsilon, clean, mutated, n, why, _site(source))


def _with_reason(case: AuditCase, source: str, why: str) -> str:
    """``why`` and the instance's declared reason for not catching ``source`` (its
    ``uncaught`` entry), or a flag that it declares none."""
    return f"{why}; {case.uncaught.get(source) or 'NO REASON DECLARED (AuditCase.uncaught)'}"


def _site(source: NoiseSource) -> str:
    return source.site.replace("privbounds.simulators.", "") + (f"({source.arg})" if source.arg else "")


def mutate_case(case: AuditCase, theorem: str = "", trials: int | None = None) -> list[Mutation]:
    """Every source of ``case`` (one clean run shared); a row saying so if it declares none."""
    n = case_trials(case, trials)
    if not case.noise_sources:
        return [Mutation(theorem, case.name, "-", "-", case.epsilon, float("nan"), None, 0,
                         _with_reason(case, "-", "no noise source declared"))]
    clean = eps_hat(case, n, _rng(theorem, case.name, "clean"))
    return [mutate(case, s, n, theorem, clean) for s in case.noise_sources]


def theorem_cases(patterns=None) -> list[tuple[str, AuditCase]]:
    """(theorem id, audit instance) of every registered simulator matching ``patterns``;
    an instance shared by several theorems (same name and events) is listed once."""
    from privbounds import registry

    seen, out = set(), []
    for tid in registry.select(patterns or None):
        sim = registry.get(tid).simulator
        for case in (sim.audits() if sim is not None else []):
            key = (case.name, case.events.__module__, case.events.__qualname__, repr(sorted(case.spec.items())))
            if key not in seen:
                seen.add(key)
                out.append((tid, case))
    return out


def table(patterns=None, trials: int | None = None, declared_only: bool = False, out=None) -> list[Mutation]:
    """Run the mutations of every matching instance, printing each row as it comes."""
    rows = []
    out = out or sys.stdout
    print(header(), file=out)
    for tid, case in theorem_cases(patterns):
        if declared_only and not case.noise_sources:
            continue
        for row in mutate_case(case, tid, trials):
            rows.append(row)
            print(format_row(row), file=out, flush=True)
    return rows


def by_site(rows) -> list[str]:
    """One line per weakened site: the instances that catch a bug there, or that none does.
    A learner's source is covered when some instance catches it, whichever theorem runs it
    (e.g. PMW's threshold noise inside Algorithm 3 is the same site as in Algorithm 1)."""
    sites: dict[str, list] = {}
    for r in rows:
        if r.site:
            sites.setdefault(r.site, []).append(r)
    out = []
    for site, rs in sorted(sites.items()):
        caught = [f"{r.theorem} {r.audit}" for r in rs if r.caught]
        if caught:
            out.append(f"{site:58s} caught by {', '.join(caught[:3])}{' ...' if len(caught) > 3 else ''}")
        else:  # the first row's declared reason says what catches it instead
            out.append(f"{site:58s} NOT caught by an audit ({len(rs)} instance(s) tried): "
                       f"{rs[0].why.split('; ', 1)[-1]}")
    return out


def totals(rows) -> str:
    """Sources caught of those declared, call sites caught of those weakened, instances
    without a source, and rows not caught that declare no reason."""
    declared = [r for r in rows if r.source != "-"]
    sites: dict[str, bool] = {}
    for r in declared:
        sites[r.site] = sites.get(r.site, False) or r.caught
    silent = sum(not r.caught and "NO REASON DECLARED" in r.why for r in rows)
    return (f"{sum(r.caught for r in declared)} of {len(declared)} declared sources caught; "
            f"{sum(sites.values())} of {len(sites)} call sites caught; "
            f"{len(rows) - len(declared)} audit instances declare no source; "
            f"{silent} rows not caught without a declared reason")


def header() -> str:
    return (f"{'theorem':24s} {'audit':24s} {'source':22s} {'kind':14s} {'declared':>8s} {'clean':>7s} "
            f"{'mutated':>8s} {'ratio':>5s} {'trials':>8s}  caught?")


def format_row(r: Mutation) -> str:
    def num(x):
        return "   -" if x is None or not np.isfinite(x) else f"{x:.3f}"

    verdict = "CAUGHT" if r.caught else f"no: {r.why}"
    return (f"{r.theorem:24s} {r.audit:24s} {r.source:22s} {r.kind:14s} {r.declared:8.3f} {num(r.clean):>7s} "
            f"{num(r.mutated):>8s} {num(r.ratio):>5s} {r.trials:8d}  {verdict}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m privbounds.simulators.engine.mutations",
                                 description="Halve each declared noise source of each privacy audit on its "
                                             "own and say whether the audit catches it.")
    ap.add_argument("patterns", nargs="*", help="theorem ids or glob patterns (default: all)")
    ap.add_argument("--trials", type=int, default=None, help="trials per side (default: each instance's own)")
    ap.add_argument("--declared", action="store_true", help="only instances that declare noise sources")
    args = ap.parse_args(argv)
    rows = table(args.patterns or None, args.trials, args.declared)
    print("\nby call site:")
    for line in by_site(rows):
        print(line)
    print("\n" + totals(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
