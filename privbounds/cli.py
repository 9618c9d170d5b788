"""The ``privbounds`` command line: list, show, run, figures, report, check, reproduce.

Exit status: 0 on success; 2 for a bad parameter or option, with one line
(``privbounds: error: ...``) naming it and what is allowed, before any work and touching
no earlier result; 1 for anything else (a theorem that raised while running, a failed
check, an internal error), with one line naming the theorem and the log file that holds
the traceback.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
import traceback
from pathlib import Path

from privbounds import cache_cli, scaffold
from privbounds.cli_parser import build_parser
from privbounds.params import _FROM_CLI, ParameterError
from privbounds.record import verdict_text
from privbounds.simulators.engine.cluster import ClusterLost


def _audit(args) -> int:
    from privbounds.blackbox import audit, is_learner, load

    if (args.neighbours is None) == (args.instance is None):
        raise ParameterError("give one of --neighbours MODULE:NAME and --instance NAME")
    mechanism = load(args.mechanism, "mechanism")
    kw = dict(statistic=load(args.statistic, "--statistic") if args.statistic else None,
              takes_epsilon=not args.fixed_epsilon, domain=_audit_domain(args.domain))
    if args.instance is not None:
        kw.update(instance=args.instance, n=args.n, instance_params=_audit_instance(args))
    else:
        if args.inst_set:
            raise ParameterError("--set sets an instance's parameters: it needs --instance")
        pair = load(args.neighbours, "--neighbours")
        if is_learner(mechanism):  # a learner's neighbours: ((X, y), (X2, y2)), checked by audit
            kw["neighbours"] = pair
        elif not (isinstance(pair, (tuple, list)) and len(pair) == 2):
            raise ParameterError(f"--neighbours {args.neighbours} must name a pair (D, D'), got "
                                 f"{type(pair).__name__}")
        else:
            kw.update(d=pair[0], d_prime=pair[1])
    res = audit(mechanism, epsilon=args.epsilon, delta=args.delta, trials=args.trials, pilot=args.pilot,
                seed=args.seed, **kw)
    print(json.dumps(res.as_dict(), indent=1) if args.json else res.summary())
    return 1 if res.verdict == "refuted" else 0


def _audit_instance(args) -> dict:
    """The parameters of --instance from --d, --k and --set, checked with the options named."""
    from privbounds.instances import get as family

    params = {k: v for k, v in (("d", args.d), ("k", args.k)) if k in family(args.instance).params}
    for name, values in args.inst_set:
        if len(values) != 1:
            raise ParameterError(f"--set {name} takes one value for an audit, got {len(values)}")
        params[name] = values[0]
    try:
        family(args.instance).make(**params)
    except ParameterError as e:  # name the options that set an instance's parameters
        raise ParameterError(f"--instance {args.instance}: {e} (its parameters are set with --d, --k and "
                             f"--set NAME=VALUE)") from None
    return params


def _audit_domain(spec):
    """--domain LO,HI (a range) or MODULE:NAME (a range tuple, a finite set of rows or a
    sampler function in a module)."""
    from privbounds.blackbox import load

    if spec is None:
        return None
    parts = spec.split(",")
    if len(parts) == 2:
        try:
            return float(parts[0]), float(parts[1])
        except ValueError:
            pass
    if ":" not in spec:
        raise ParameterError(f"--domain must be LO,HI (write --domain=-5,5 for a negative LO) or MODULE:NAME "
                             f"naming a range (lo, hi), a list of rows or a sampler(rng) -> row; got {spec!r}")
    return load(spec, "--domain")


def _measure(args, argv) -> int:
    from privbounds.blackbox import load
    from privbounds.measuring import measure

    learner = load(args.learner, "learner")
    grid = dict(args.set) or None
    from privbounds.api import TheoremsFailed

    t0 = time.perf_counter()
    try:
        rec = measure(learner, instance=args.instance, grid=grid, fidelity=args.fidelity, jobs=args.jobs,
                      seed=args.seed, out=args.out, compare_to=args.compare_to, name=args.name, max_n=args.max_n,
                      label=args.label, progress=not args.quiet, use_cache=not args.no_cache,
                      command=" ".join(["privbounds", *(argv if argv is not None else sys.argv[1:])]))
    except TheoremsFailed as e:  # the learner raised while it ran: its message and its log
        for tid, (message, log) in e.failures.items():
            print(f"privbounds: error: {tid} failed: {message} (traceback in {log})", file=sys.stderr)
        return 1
    name = rec.id.split(".", 1)[1]
    for p in rec.points:
        pt = p.point
        what = ", ".join(f"{k}={v}" for k, v in pt.items() if k not in ("learner", "class"))
        nh = "not reached" if p.n_hat is None else str(p.n_hat)
        hi = "open" if p.n_high is None else str(p.n_high)
        floor = " (succeeds at the smallest n tried)" if p.floor_reached else ""
        print(f"{pt['learner']:<12} {what}: n_hat {nh} [{p.n_low}, {hi}]{floor}"
              + ("  <- yours" if pt["learner"] == name else ""))
    for v in rec.verdicts:
        print(verdict_text(v))
    print(f"measured in {time.perf_counter() - t0:.1f} s -> {Path(args.out) / 'results' / (rec.id + '.json')}; "
          f"'privbounds report --out {args.out}' adds its page")
    return 0


def _list(args) -> int:
    from privbounds import listing
    from privbounds.api import resolve_ids

    if args.instances:
        return listing.list_instances(args.json)
    ids = resolve_ids(args.ids, args.paper, runnable=False)
    listing.note_empty(args.out, ids, args.ids)
    rows = listing.theorem_rows(ids, args.out)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        listing.print_theorems(rows)
    return 0


def _show(args) -> int:
    """Each theorem the ids and patterns select (``run``'s selection: registry.select), in
    full, a blank line between two."""
    from privbounds import listing
    from privbounds.api import resolve_ids, show

    ids = resolve_ids(args.ids, runnable=False)
    listing.note_empty(args.out, ids, args.ids)
    for i, tid in enumerate(ids):
        if i:
            print()
        listing.print_show(show(tid, args.out))
    return 0


def _findings(args) -> int:
    from privbounds.api import finding_records
    from privbounds.reports.findings import CATEGORIES

    found = finding_records(args.out)
    if args.json:
        print(json.dumps([f.as_dict() for f in found], indent=1, allow_nan=False))
        return 0
    for cat, heading in CATEGORIES.items():
        mine = [f for f in found if f.category == cat]
        if not mine:
            continue
        print(f"{heading} ({len(mine)}):")
        for f in mine:
            what = f"{f.theorem} {f.claim}" if f.claim else f.theorem
            print(f"  {what}: {f.text}")
    if not found:
        print("no findings: every claim is plainly confirmed")
    return 0


def main(argv=None) -> int:
    parser = build_parser()
    if not (sys.argv[1:] if argv is None else argv):
        parser.print_help()  # a bare 'privbounds': the usage summary
        return 0
    args = parser.parse_args(argv)
    token = _FROM_CLI.set(True)  # errors name options as flags while the command runs
    try:
        return _main(args, argv)
    finally:
        _FROM_CLI.reset(token)


def _main(args, argv) -> int:
    try:
        code = _dispatch(args, argv)
        sys.stdout.flush()  # a closed pipe shows here, inside the handlers, not at exit
        return code
    except ParameterError as e:
        print(f"privbounds: error: {e}", file=sys.stderr)
        return 2
    except ClusterLost as e:
        again = shlex.join(["privbounds", *(sys.argv[1:] if argv is None else argv)])
        print(f"privbounds: error: {e}" + (f"; to resume from them, once a scheduler answers there again (or "
                                           f"without --backend dask and --scheduler, here): {again}"
                                           if e.resumable else ""), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("privbounds: interrupted; finished blocks are cached, run again to resume",
              file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. 'privbounds list | head -1': the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as e:  # a bug, not a user mistake: one line, the traceback in a log file
        from privbounds.results import write_log

        log = write_log(getattr(args, "out", "privbounds-out"), "privbounds-error",
                        " ".join(sys.argv) + "\n\n" + traceback.format_exc())
        print(f"privbounds: internal error: {type(e).__name__}: {e} (traceback in {log})", file=sys.stderr)
        return 1


def _dispatch(args, argv) -> int:
    from privbounds import api

    if getattr(args, "out", None):  # learners measured into --out are ids of every command here
        from privbounds.learners import load_saved

        load_saved(args.out)

    if args.command == "list":
        return _list(args)
    if args.command == "show":
        return _show(args)
    if args.command == "findings":
        return _findings(args)
    if args.command == "audit":
        return _audit(args)
    if args.command == "cache":
        return cache_cli.main(args)
    if args.command == "new":
        return scaffold.main(args)
    if args.command == "review":
        from privbounds.reports import review
        return review.run(args)
    if args.command == "plan":
        return _plan(args)
    if args.command == "measure":
        return _measure(args, argv)
    if args.command in ("run", "reproduce"):
        overrides = {}
        for name, values in getattr(args, "set", []):
            overrides[name] = list(dict.fromkeys(values))  # 4 and 4.0 are one value: run once
            if len(overrides[name]) < len(values):
                print(f"privbounds: note: --set {name} names {len(overrides[name])} distinct "
                      f"value{'s' if len(overrides[name]) != 1 else ''} of {len(values)}; each runs once",
                      file=sys.stderr)
        if args.scheduler and args.backend != "dask":
            raise ParameterError("--scheduler needs --backend dask")
        kw = dict(fidelity=args.fidelity, jobs=args.jobs, seed=args.seed, out=args.out,
                  backend=args.backend, scheduler=args.scheduler, paper=args.paper,
                  use_cache=not args.no_cache, cache_max=args.cache_max, force_jobs=args.force_jobs,
                  force=getattr(args, "force", False),
                  command=" ".join(["privbounds", *(argv if argv is not None else sys.argv[1:])]))
        if args.command == "reproduce" and args.fidelity == "smoke":
            print("privbounds: smoke fidelity has no committed baseline: reproduce will run, draw and "
                  "report, and skip the check", file=sys.stderr)
        _note_partial_overrides(args.ids, args.paper, overrides)
        t0 = time.perf_counter()
        try:
            recs = api.run(args.ids, overrides=overrides, progress=not args.quiet, **kw)
            failures = {}
        except api.TheoremsFailed as e:
            recs, failures = e.records, e.failures
        for tid, rec in recs.items():
            counts = {}
            for v in rec.verdicts:
                counts[v.verdict] = counts.get(v.verdict, 0) + 1
            summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
            print(f"{tid}: {summary} -> {Path(args.out) / 'results' / (tid + '.json')}")
        where = f"on the Dask cluster at {args.scheduler}" if args.scheduler else f"--jobs {args.jobs}"
        print(f"run finished in {time.perf_counter() - t0:.1f} s ({len(recs)} theorem{'s' if len(recs) != 1 else ''}, "
              f"{where})")
        for tid, (message, log) in failures.items():
            print(f"privbounds: error: {tid} failed: {message} (traceback in {log})", file=sys.stderr)
        if failures or args.command == "run":
            return 1 if failures else 0
        return _reproduce_rest(args, recs, t0)
    if args.command == "figures":
        paths = api.plot(args.ids, args.out, paper=args.paper, jobs=args.jobs, svg=args.svg)
        for p in paths:
            print(p)
        return 0
    if args.command == "report":
        print(api.report(args.out))
        return 0
    if args.command == "check":
        return _print_check(api.check(args.out, baseline=args.baseline, update=args.update))
    raise AssertionError(args.command)


def _plan(args) -> int:
    from dataclasses import asdict

    from privbounds import plan

    rows, sources = plan.make_plan(args.ids or None, args.paper, args.fidelity, args.workers, args.out)
    if args.json:
        print(json.dumps({"fidelity": args.fidelity, "workers": args.workers, "sources": sources,
                          "papers": [asdict(e) for e in rows]}, indent=1))
    else:
        print(plan.render(rows, args.fidelity, args.workers, sources))
    return 0


def _reproduce_rest(args, recs: dict, t0: float) -> int:
    """What ``reproduce`` does after its run: figures, report, check (not at smoke), and
    the verdicts' totals."""
    from privbounds import api
    from privbounds.claims import VERDICTS

    paths = api.plot(args.ids, args.out, paper=args.paper, jobs=args.jobs, svg=args.svg)
    index = api.report(args.out)
    print(f"figures: {len(paths)} files")
    if args.fidelity == "smoke":
        code = 0
        print("check skipped: smoke fidelity has no baseline")
    else:
        code = _print_check(api.check(args.out, fidelity=args.fidelity))
    counts = {k: 0 for k in VERDICTS}
    for rec in recs.values():
        for v in rec.verdicts:
            counts[v.verdict] += 1
    print(f"verdicts of {len(recs)} theorems, {sum(counts.values())} claims: "
          + ", ".join(f"{n} {k}" for k, n in counts.items() if n))
    print(f"report: {index.resolve()}")
    print(f"reproduce finished in {time.perf_counter() - t0:.1f} s")
    return code


def _note_partial_overrides(ids, paper, overrides) -> None:
    """Say which theorems an override does not reach (they run with their own grid)."""
    from privbounds.api import resolve_ids
    from privbounds.registry import get

    ids = resolve_ids(ids, paper)
    for name in overrides:
        missing = [t for t in ids if name not in get(t).simulator.params]
        if missing and len(missing) < len(ids):
            print(f"privbounds: note: --set {name} does not apply to {', '.join(missing)} "
                  "(they run their registered grid)", file=sys.stderr)


def _print_check(outcome) -> int:
    for line in outcome.lines:
        print(line)
    return outcome.exit_code


if __name__ == "__main__":
    sys.exit(main())
