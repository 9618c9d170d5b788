"""The parser of the ``privbounds`` command line (cli.py runs the commands): every
command's options, with one-line errors (``privbounds: error: ...``, exit 2) for a bad
value. Not tied to one paper: the commands run, report and check the theorems of all
five papers and of plugins.
"""

from __future__ import annotations

import argparse
import sys

from privbounds import cache_cli, scaffold
from privbounds.cache_cli import size_bytes
from privbounds.simulators.engine.blockstore import DEFAULT_MAX_BYTES

EPILOG = """\
examples:
  privbounds list                          theorems and their claims
  privbounds run --fidelity smoke          every theorem, in seconds
  privbounds run siv.thm3_3 --jobs 2       one theorem, two worker processes
  privbounds run bns.obs3_2 --set k=1,4,16 override a grid axis
  privbounds reproduce --fidelity quick    run + figures + report + check
  privbounds check --update                accept the current verdicts as the baseline
  privbounds new paper mypaper --dir ..    a plugin paper of your own (privbounds-mypaper)

Results go to --out (default ./privbounds-out): results/ (CSV + JSON), figures/,
report/index.html and blocks.sqlite (the finished blocks; an interrupted run resumes
from them).
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


def out_opt(sp):
    sp.add_argument("--out", default="privbounds-out", metavar="DIR",
                    help="output folder (default: %(default)s)")


def svg_opt(sp):
    sp.add_argument("--no-svg", dest="svg", action="store_false",
                    help="draw PNG files only, no SVG (the report links an SVG only where one exists)")


def select_opts(sp, what="theorem ids"):
    sp.add_argument("ids", nargs="*", metavar="ID",
                    help=f"{what}, or shell patterns such as 'bns.cor3_*' (default: all)")
    sp.add_argument("--paper", metavar="PREFIX", help="only this paper's theorems (e.g. bns, siv)")


def run_opts(sp, overrides=True):
    from privbounds.simulators.engine.runner import BACKENDS
    from privbounds.simulators.engine.simulator import FIDELITIES

    select_opts(sp)
    sp.add_argument("--fidelity", default="quick", choices=FIDELITIES,
                    help="smoke: seconds, no baseline (tests); quick: minutes per paper, what CI checks "
                         "(all theorems: 6 to 14 minutes with --jobs 2 on 2 cores); full: paper "
                         "quality, hours for all theorems (default: %(default)s)")
    sp.add_argument("--jobs", type=_jobs, default=1, metavar="N",
                    help="worker processes, at most the CPU count (default: 1)")
    sp.add_argument("--force-jobs", action="store_true", help="allow --jobs above the CPU count")
    sp.add_argument("--seed", type=_seed, default=0, metavar="S",
                    help="root seed; equal seeds give equal numbers for any --jobs (default: 0)")
    sp.add_argument("--backend", default="loky", choices=BACKENDS,
                    help="joblib backend; 'dask' needs privbounds[dask] (default: %(default)s)")
    sp.add_argument("--scheduler", metavar="ADDR",
                    help="address of a running Dask scheduler (with --backend dask); "
                         "without it a local Dask cluster of --jobs workers is started")
    if overrides:  # reproduce regenerates the registered grids only
        sp.add_argument("--set", type=_override, action="append", default=[], metavar="NAME=V1,V2",
                        help="replace one grid axis by these values, e.g. --set epsilon=0.5,1 "
                             "('privbounds list' shows each theorem's parameters); refused into an --out "
                             "that holds the theorem's registered results, unless --force")
        sp.add_argument("--force", action="store_true",
                        help="let --set replace the registered results in --out (keep them apart with "
                             "another --out instead)")
    sp.add_argument("--quiet", action="store_true", help="no progress bar")
    sp.add_argument("--no-cache", action="store_true",
                    help="neither reuse nor store finished blocks (the store is keyed by the code "
                         "that made each block, so it never needs this to stay correct)")
    sp.add_argument("--cache-max", type=size_bytes, default=DEFAULT_MAX_BYTES, metavar="SIZE",
                    help="cap of the block store in --out, e.g. 500M or 4G; the blocks least recently "
                         "used go first (default: 2G)")
    out_opt(sp)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="privbounds", formatter_class=argparse.RawDescriptionHelpFormatter,
                description="Check sample-complexity theorems of private learning against "
                            "Monte Carlo experiment.", epilog=EPILOG)
    from importlib import metadata

    p.add_argument("--version", action="version", version=f"privbounds {metadata.version('privbounds')}",
                   help="print the installed version and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    sp = sub.add_parser("list", help="list theorems and claims (with the last run's verdicts)")
    select_opts(sp)
    sp.add_argument("--json", action="store_true", help="print a JSON array")
    sp.add_argument("--instances", action="store_true",
                    help="list the instance families a learner can be measured on instead")
    out_opt(sp)

    sp = sub.add_parser("show", help="one theorem: statement, claims with their bounds, the files "
                                     "that implement it, its last verdicts")
    sp.add_argument("ids", nargs="+", metavar="ID",
                    help="theorem ids, or shell patterns such as 'siv.*' (each shown in full); "
                         "'privbounds list' shows them all")
    out_opt(sp)

    sp = sub.add_parser("run", help="run simulators, write results/<id>.csv and .json",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    run_opts(sp)

    sp = sub.add_parser("findings", help="where theory and experiment part: claims not plainly confirmed, "
                                         "bounds looser than 10x, reconstructed constants, failed runs")
    sp.add_argument("--json", action="store_true", help="print a JSON array")
    out_opt(sp)

    sp = sub.add_parser("figures", help="draw figures/<id>.png (and .svg) from saved results")
    select_opts(sp, "theorem ids with results")
    sp.add_argument("--jobs", type=_jobs, default=1, metavar="N", help="figures drawn at once, in worker processes (default: 1)")
    svg_opt(sp)
    out_opt(sp)

    sp = sub.add_parser("report", help="write the static HTML site report/index.html")
    out_opt(sp)

    sp = sub.add_parser("check", help="compare verdicts and tightness with the committed baseline; exit 1 on a regression")
    sp.add_argument("--update", action="store_true", help="rewrite the baseline from these results")
    sp.add_argument("--baseline", metavar="FILE", help="baseline file (default: the committed one for the results' fidelity)")
    out_opt(sp)

    cache_cli.add_parser(sub, out_opt)
    scaffold.add_parser(sub)
    from privbounds.reports import review
    review.add_parser(sub, out_opt)
    _add_plan(sub)

    sp = sub.add_parser("reproduce", help="run + figures + report + check (the check is skipped at smoke "
                                          "fidelity, which has no baseline)")
    run_opts(sp, overrides=False)
    svg_opt(sp)
    _add_measure(sub)
    _add_audit(sub)
    return p


def _add_plan(sub) -> None:
    from privbounds.simulators.engine.simulator import FIDELITIES

    sp = sub.add_parser("plan", help="predict a run's wall time and store size on N workers, per paper, "
                                     "from the block-seconds earlier runs measured")
    select_opts(sp)
    sp.add_argument("--fidelity", default="quick", choices=FIDELITIES, help="(default: %(default)s)")
    sp.add_argument("--workers", type=_jobs, default=1, metavar="N",
                    help="one-thread workers (Dask worker threads, or --jobs) (default: 1)")
    sp.add_argument("--json", action="store_true", help="print a JSON object")
    out_opt(sp)


def _add_measure(sub) -> None:
    from privbounds.simulators.engine.simulator import FIDELITIES

    sp = sub.add_parser("measure", help="measure your own learner on a registered instance, beside a theorem's "
                                        "bounds and learners (results, figure; then 'privbounds report')")
    sp.add_argument("learner", metavar="MODULE:NAME",
                    help="a learner class or factory (see docs/guide/measure.md); MODULE may "
                         "be a file path, e.g. mine.py:MyLearner")
    sp.add_argument("--instance", default="thresholds", help="instance family (default: %(default)s; "
                                                             "'privbounds list --instances' lists them)")
    sp.add_argument("--compare-to", metavar="ID", help="theorem to compare with (default: the theorem whose "
                                                       "instance it is)")
    sp.add_argument("--name", help="id of the result, learner.NAME (default: the learner's name)")
    sp.add_argument("--label", help="how pages and figures name the learner (default: NAME)")
    sp.add_argument("--max-n", type=int, default=1 << 20, metavar="N",
                    help="largest sample size the search may reach (default: %(default)s)")
    sp.add_argument("--fidelity", default="quick", choices=FIDELITIES, help="as for run (default: %(default)s)")
    sp.add_argument("--jobs", type=_jobs, default=1, metavar="N", help="worker processes (default: 1)")
    sp.add_argument("--seed", type=_seed, default=0, metavar="S", help="root seed (default: 0)")
    sp.add_argument("--set", type=_override, action="append", default=[], metavar="NAME=V1,V2",
                    help="a grid axis of the instance, epsilon, alpha or beta (default: the instance's grid, "
                         "'privbounds list --instances')")
    sp.add_argument("--quiet", action="store_true", help="no progress bar")
    sp.add_argument("--no-cache", action="store_true", help="neither reuse nor store finished blocks")
    out_opt(sp)


def _add_audit(sub) -> None:
    sp = sub.add_parser("audit", help="black-box privacy audit of your mechanism: exit 1 if it leaks more than "
                                      "it declares")
    sp.add_argument("mechanism", metavar="MODULE:NAME",
                    help="mechanism(data, epsilon, rng[, size]) -> one output (or size outputs), or a learner "
                         "(a class with fit, see 'privbounds measure'); MODULE may be a file path, e.g. "
                         "mine.py:mechanism")
    sp.add_argument("--neighbours", metavar="MODULE:NAME",
                    help="a pair (D, D') of neighbouring datasets in that module (for a learner: "
                         "((X, y), (X2, y2)))")
    sp.add_argument("--instance", help="instead of --neighbours, for a learner: D is a sample of --n rows "
                                       "from this instance family, and each D' flips the labels of one of its "
                                       "rows (one per distinct row, up to 8; the pilot keeps those that move "
                                       "the learner most)")
    sp.add_argument("--domain", metavar="LO,HI|MODULE:NAME",
                    help="the rows' domain, whose extreme rows also replace the changed row of your pair: "
                         "LO,HI (a range; --domain=-5,5 for a negative LO), or MODULE:NAME naming a range "
                         "(lo, hi), a list of rows or a sampler(rng) -> row")
    sp.add_argument("--n", type=int, default=10, help="rows of D with --instance (default: %(default)s)")
    sp.add_argument("--d", type=int, default=4, help="the instance's d with --instance, for a family that has one "
                                                   "(default: %(default)s)")
    sp.add_argument("--k", type=int, default=4, help="the instance's k with --instance, for a family that has one (kgon: its sides; "
                         "conjunctions: the relevant variables; parities, noisy_points: the concepts, one label "
                         "column each) (default: %(default)s)")
    sp.add_argument("--set", type=_override, action="append", default=[], metavar="NAME=VALUE", dest="inst_set",
                    help="another parameter of the instance with --instance, e.g. --set dist=cluster "
                         "('privbounds list --instances' lists them)")
    sp.add_argument("--epsilon", type=float, required=True, help="the declared epsilon")
    sp.add_argument("--delta", type=float, default=0.0, help="the declared delta (default: %(default)s)")
    sp.add_argument("--trials", type=int, default=100_000, help="runs per side for the estimate (default: %(default)s)")
    sp.add_argument("--pilot", type=int, default=20_000,
                    help="runs per side, apart, to choose the event (default: %(default)s)")
    sp.add_argument("--statistic", metavar="MODULE:NAME", help="maps one output to a number (default: its first "
                                                                "coordinate)")
    sp.add_argument("--fixed-epsilon", action="store_true",
                    help="the mechanism ignores its epsilon argument: no power check at a doubled budget")
    sp.add_argument("--seed", type=_seed, default=0, metavar="S", help="root seed (default: 0)")
    sp.add_argument("--json", action="store_true", help="the result as JSON")
