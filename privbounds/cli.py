"""The ``privbounds`` command line: list, run, figures, report, check, reproduce.

Bad input of any kind prints one line (``privbounds: error: ...``) naming the option and
what is allowed, exits with status 2, and touches no earlier result.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from privbounds.params import ParameterError

EPILOG = """\
examples:
  privbounds list                          theorems and their claims
  privbounds run --fidelity smoke          every theorem, in seconds
  privbounds run siv.thm3_3 --jobs 2       one theorem, two worker processes
  privbounds run bns.obs3_2 --set k=1,4,16 override a grid axis
  privbounds reproduce --fidelity quick    run + figures + report + check
  privbounds check --update                accept the current verdicts as the baseline

Results go to --out (default ./privbounds-out): results/ (CSV + JSON), figures/,
report/index.html and cache/ (finished blocks; an interrupted run resumes from them).
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, no usage dump
        print(f"privbounds: error: {message}", file=sys.stderr)
        sys.exit(2)


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer below 2^63, got {text!r}") from None
    if value < 0 or value >= 2**63:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer below 2^63, got {text!r}")
    return value


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {text!r}")
    return value


def _override(text: str):
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"must look like NAME=V1,V2,..., got {text!r}")
    name, _, values = text.partition("=")
    parsed = []
    for v in values.split(","):
        v = v.strip()
        for conv in (int, float):
            try:
                parsed.append(conv(v))
                break
            except ValueError:
                continue
        else:
            parsed.append(v)
    if not name or not values:
        raise argparse.ArgumentTypeError(f"must look like NAME=V1,V2,..., got {text!r}")
    return name.strip(), parsed


def build_parser() -> argparse.ArgumentParser:
    from privbounds.simulators.engine.runner import BACKENDS
    from privbounds.simulators.engine.simulator import FIDELITIES

    p = _Parser(prog="privbounds", formatter_class=argparse.RawDescriptionHelpFormatter,
                description="Check sample-complexity theorems of private learning against "
                            "Monte Carlo experiment.", epilog=EPILOG)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    def out_opt(sp):
        sp.add_argument("--out", default="privbounds-out", metavar="DIR",
                        help="output folder (default: %(default)s)")

    def run_opts(sp):
        sp.add_argument("ids", nargs="*", metavar="ID", help="theorem ids (default: all; see 'privbounds list')")
        sp.add_argument("--fidelity", default="quick", choices=FIDELITIES,
                        help="smoke: seconds (tests); quick: about 5 minutes for all theorems with --jobs 2, "
                             "what CI checks; full: paper quality, about 50 minutes (default: %(default)s)")
        sp.add_argument("--jobs", type=_jobs, default=1, metavar="N", help="worker processes (default: 1)")
        sp.add_argument("--seed", type=_seed, default=0, metavar="S",
                        help="root seed; equal seeds give equal numbers for any --jobs (default: 0)")
        sp.add_argument("--backend", default="loky", choices=BACKENDS,
                        help="joblib backend; 'dask' needs privbounds[dask] (default: %(default)s)")
        sp.add_argument("--scheduler", metavar="ADDR",
                        help="address of a running Dask scheduler (with --backend dask); "
                             "without it a local Dask cluster of --jobs workers is started")
        sp.add_argument("--set", type=_override, action="append", default=[], metavar="NAME=V1,V2",
                        help="replace one grid axis by these values, e.g. --set epsilon=0.5,1")
        sp.add_argument("--quiet", action="store_true", help="no progress bar")
        out_opt(sp)

    sp = sub.add_parser("list", help="list theorems and claims (with the last run's verdicts)")
    sp.add_argument("--json", action="store_true", help="print a JSON array")
    out_opt(sp)

    sp = sub.add_parser("run", help="run simulators, write results/<id>.csv and .json",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    run_opts(sp)

    sp = sub.add_parser("figures", help="draw figures/<id>.png and .svg from saved results")
    sp.add_argument("ids", nargs="*", metavar="ID")
    out_opt(sp)

    sp = sub.add_parser("report", help="write the static HTML site report/index.html")
    out_opt(sp)

    sp = sub.add_parser("check", help="compare verdicts and tightness with the committed baseline; exit 1 on a regression")
    sp.add_argument("--update", action="store_true", help="rewrite the baseline from these results")
    sp.add_argument("--baseline", metavar="FILE", help="baseline file (default: the committed one for the results' fidelity)")
    out_opt(sp)

    sp = sub.add_parser("reproduce", help="run + figures + report + check")
    run_opts(sp)
    return p


def _list(args) -> int:
    from privbounds import results
    from privbounds.registry import theorems

    have = set(results.available(args.out))
    rows = []
    for t in theorems():
        s = t.summary()
        last = {}
        if t.id in have:
            rec = results.load(args.out, t.id)
            last = {v["claim"]: v["verdict"] for v in rec["verdicts"]}
        for c in s["claims"]:
            c["last_verdict"] = last.get(c["id"])
        rows.append(s)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    for s in rows:
        print(f"{s['id']:<12} {s['number']} - {s['title']}")
        for c in s["claims"]:
            v = c["last_verdict"] or "not run"
            print(f"    {c['id']:<24} {c['kind']:<16} {v}")
    return 0


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return _dispatch(args, argv)
    except ParameterError as e:
        print(f"privbounds: error: {e}", file=sys.stderr)
        return 2
    except ValueError as e:  # a bound or mechanism refusing a parameter
        print(f"privbounds: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("privbounds: interrupted; finished blocks are cached, run again to resume",
              file=sys.stderr)
        return 130


def _dispatch(args, argv) -> int:
    from privbounds import api

    if args.command == "list":
        return _list(args)
    if args.command in ("run", "reproduce"):
        overrides = {}
        for name, values in args.set:
            overrides[name] = values
        if args.scheduler and args.backend != "dask":
            raise ParameterError("--scheduler needs --backend dask")
        kw = dict(fidelity=args.fidelity, jobs=args.jobs, seed=args.seed, out=args.out,
                  backend=args.backend, scheduler=args.scheduler,
                  command=" ".join(["privbounds", *(argv if argv is not None else sys.argv[1:])]))
        if args.command == "run":
            _note_partial_overrides(args.ids, overrides)
            recs = api.run(args.ids, overrides=overrides, progress=not args.quiet, **kw)
            for tid, rec in recs.items():
                counts = {}
                for v in rec["verdicts"]:
                    counts[v["verdict"]] = counts.get(v["verdict"], 0) + 1
                summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
                print(f"{tid}: {summary} -> {Path(args.out) / 'results' / (tid + '.json')}")
            wall = next(iter(recs.values()))["provenance"]["wall_seconds"]
            print(f"run finished in {wall:.1f} s ({len(recs)} theorems, --jobs {args.jobs})")
            return 0
        if overrides:
            raise ParameterError("--set is for 'run'; reproduce regenerates the registered grids")
        api.run(args.ids, progress=not args.quiet, **kw)
        paths = api.plot(args.ids, args.out)
        index = api.report(args.out)
        print(f"figures: {len(paths)} files; report: {index}")
        return _print_check(api.check(args.out, fidelity=args.fidelity))
    if args.command == "figures":
        paths = api.plot(args.ids, args.out)
        for p in paths:
            print(p)
        return 0
    if args.command == "report":
        print(api.report(args.out))
        return 0
    if args.command == "check":
        return _print_check(api.check(args.out, baseline=args.baseline, update=args.update))
    raise AssertionError(args.command)


def _note_partial_overrides(ids, overrides) -> None:
    """Say which theorems an override does not reach (they run with their own grid)."""
    from privbounds.api import resolve_ids
    from privbounds.registry import get

    ids = resolve_ids(ids)
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
