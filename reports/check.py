"""``privbounds check``: the regression check, on what was measured as well as what was
concluded.

Compares ``<out>/results/*.json`` with the committed baselines of the same fidelity, one
file per paper (``reports/baselines/<paper>/<fidelity>.json``, or ``<fidelity>.json`` in
the folder a plugin's paper names in ``Paper.baselines``). A baseline entry holds,
per theorem, every claim's verdict, intervals and bound values, the success counts of
every (parameter point, n) the run evaluated, each point's n_hat and each privacy
audit's event counts.

Exact comparisons (an unchanged tree never fails them at any seed, except that a correct
claim can be refuted by chance at another seed, at its own error level: at most 0.1% for
a privacy audit, and the measured false-alarm rate below includes it):

- a run that failed; a theorem or claim missing on either side;
- a bound or ceiling value that changed at any point (bounds are functions of the
  parameters alone);
- an n_hat or n_hat interval that is not what the record's own counts give (the
  definition is recomputed here from the counts with scipy's beta quantiles, apart from
  the engine's code, so a bug in the engine's search or crossing cannot hide);
- a verdict that got worse: always when it became *refuted*; any worsening (confirmed,
  confirmed (exact), confirmed (slack >= 100x), below the bound > confirmed up to
  lower-order terms > inconclusive/vacuous > refuted, erratum, above the bound) and any tightness
  or exponent interval that no longer overlaps the baseline's when the run and the
  baseline share their seed (then an unchanged tree reproduces every number exactly).
  Across seeds those move by chance and the tests below decide instead.

Two-sample tests, whose false alarms are controlled over the whole suite:

- for every (point, n) that both evaluated, the success counts (Fisher's exact test), or
  for a measured mean its mean and standard deviation (Welch's t-test,
  ``scipy.stats.ttest_ind_from_stats``; two exact values, every trial alike, must be
  equal up to floating round-off (``ROUND_OFF``), as must two intervals of width zero);
- for every privacy audit, budget and side, the event counts (Fisher's exact test);
- per theorem, the signs of n_hat(run) - n_hat(baseline) over its points (a two-sided
  sign test: a shift of every n_hat in one direction is a change even when each moves
  within its interval).

Their p-values form one family over all theorems checked, adjusted by Benjamini-Hochberg
(``scipy.stats.false_discovery_control``) at q = ``FALSE_ALARM`` = 0.05. On an unchanged
tree every null hypothesis is true, so the false discovery rate is the probability of
any alarm: the check raises a false alarm in about 5% of runs at a seed other than the
baseline's at most (Fisher's test is conservative; the sign test shares its data with
the count tests, so the bound is approximate). The slow test
``tests/core/test_check_power.py`` measures it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from scipy import stats

from privbounds.claims import ORDER, REFUTED
from privbounds.params import ParameterError
from privbounds.record import Record
from privbounds.registry import get as get_theorem
from privbounds.registry import papers as known_papers
from privbounds.reports.baseline import (  # noqa: F401  (BASELINE_DIR, _means: used from here by others)
    BASELINE_DIR,
    FORMAT,
    _load_baselines,
    _means,
    _where,
    baseline_path,
    read_baseline,
    summarise,
)
from privbounds.results import ResultError, available, load, no_results, overrides_text, write_atomic
from privbounds.simulators.engine.simulator import point_key

FALSE_ALARM = 0.05  # Benjamini-Hochberg level over the whole suite's two-sample tests
SHOWN = 5  # alarms of one kind printed per theorem; the rest are counted


@dataclass
class Outcome:
    exit_code: int
    lines: list = field(default_factory=list)
    regressions: list = field(default_factory=list)


# --- what a baseline keeps of a record ----------------------------------------------------

# --- exact comparisons ---------------------------------------------------------------------

def recompute_n_hat(ns, successes, trials, target: float, conf: float, floor: int = 1):
    """n_hat, n_low, n_high by their definition (``api.METHODS``), from the counts alone:
    n_low is one above the last n whose upper Clopper-Pearson end is below the target,
    or with no such n the smallest n the learner runs at (``floor``, the simulator's
    ``n_floor``: the search descends there before it reports it); n_high the first
    n >= n_low whose lower end reaches it; n_hat the first n >= n_low with p_hat >= target."""
    order = np.argsort(ns)
    n = np.asarray(ns, float)[order]
    s = np.asarray(successes, float)[order]
    t = np.asarray(trials, float)[order]
    a = (1 - conf) / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        lo = np.where(s > 0, stats.beta.ppf(a, s, t - s + 1), 0.0)
        hi = np.where(s < t, stats.beta.ppf(1 - a, s + 1, t - s), 1.0)
    fails = n[hi < target]
    n_low = int(fails[-1]) + 1 if fails.size else int(floor)
    up = n >= n_low
    first = lambda mask: int(n[mask][0]) if mask.any() else None  # noqa: E731
    return first(up & (s / t >= target)), n_low, first(up & (lo >= target))


def _consistency(tid: str, record: Record) -> list[str]:
    """Points whose recorded n_hat (or interval) is not what their own counts give."""
    from privbounds.registry import get

    sim = get(tid).simulator
    bad = []
    for p in record.points:
        if not p.searched:
            continue
        where = point_key(p.point)
        pt = {k: v for k, v in p.point.items() if k != "experiment"}
        rows = [r for r in record.rows if r.get("experiment") == "search"
                and all(r.get(k) == v for k, v in pt.items())]
        if not rows:
            bad.append(f"{where}: an n_hat without counts")
            continue
        floor = sim.n_floor(p.point)
        if p.n_floor not in (None, floor):
            bad.append(f"{where}: recorded floor {p.n_floor}, the simulator's is {floor}")
        want = recompute_n_hat([r["n"] for r in rows], [r["successes"] for r in rows],
                               [r["trials"] for r in rows], sim.target(p.point), p.conf, floor)
        if want[1] == floor and not any(r["n"] == floor for r in rows) and want[2] is not None:
            # no failure seen: the interval may run down to the floor only if the search tried it
            bad.append(f"{where}: an interval down to n = {floor} that no trial at n = {floor} bracketed")
        got = (p.n_hat, p.n_low, p.n_high)
        if got != want:
            bad.append(f"{where}: n_hat [interval] recorded {got[0]} [{got[1]}, {got[2]}], "
                       f"its counts give {want[0]} [{want[1]}, {want[2]}]")
    return bad


# Round-off: the same trials summed in another order (numpy's vector loops differ between
# CPUs) differ in their last bits, and a small value computed as a difference of numbers
# near 1 (a stability of 5e-8) keeps only the digits above about 1e-16. Two numbers this
# close (ROUND_OFF relative, ROUND_OFF_ABS absolute) are the same, and a spread this small
# (SPREAD_OFF relative to the mean) is no spread: every trial alike. Anything larger is
# left to the tests (a mean of 2e-29 against one of 2e-15 is a change); below ROUND_OFF_ABS
# two numbers are both zero to double precision.
ROUND_OFF, ROUND_OFF_ABS, SPREAD_OFF = 1e-8, 1e-15, 1e-12
MAX_OFF = 1e-12  # the largest of values that are all round-off: a change below this is round-off


def _close(x: float, y: float) -> bool:
    if x == y or not (np.isfinite(x) and np.isfinite(y)):
        return x == y
    return abs(x - y) <= ROUND_OFF * max(abs(x), abs(y)) + ROUND_OFF_ABS


def _overlap(a, b) -> bool:
    lo1, hi1 = (-np.inf if a[0] is None else a[0]), (np.inf if a[1] is None else a[1])
    lo2, hi2 = (-np.inf if b[0] is None else b[0]), (np.inf if b[1] is None else b[1])
    return (lo1 <= hi2 or _close(lo1, hi2)) and (lo2 <= hi1 or _close(lo2, hi1))


def _same(x, y) -> bool:
    if x is None or y is None:
        return x is y
    return _close(x, y)


# --- two-sample tests ----------------------------------------------------------------------

def _fisher(a, b) -> float:
    """Two-sided Fisher exact p-value of successes/trials a against b (1 when identical)."""
    (s1, t1), (s2, t2) = a, b
    if s1 == s2 and t1 == t2:
        return 1.0
    return float(stats.fisher_exact([[s1, t1 - s1], [s2, t2 - s2]]).pvalue)


def _welch(a, b) -> float:
    """Two-sided Welch p-value of two summaries [mean, sd, trials, max]; two exact values
    (no spread on either side beyond round-off) must be equal, and their largest values too."""
    (m1, s1, t1, x1), (m2, s2, t2, x2) = a[:4], b[:4]
    if s1 <= SPREAD_OFF * abs(m1) + ROUND_OFF_ABS and s2 <= SPREAD_OFF * abs(m2) + ROUND_OFF_ABS:
        # values that are round-off around one exact value (a gap that is 0 in exact arithmetic
        # gives values of 1e-16 with rare ones near 1e-14, sums of thousands of unit-scale
        # terms): their largest is round-off too, the same below MAX_OFF
        return 1.0 if _same(m1, m2) and (_same(x1, x2) or abs(x1 - x2) <= MAX_OFF) else 0.0
    return float(stats.ttest_ind_from_stats(m1, s1, t1, m2, s2, t2, equal_var=False).pvalue)


def _tests(tid: str, now: dict, was: dict, counts: bool = True) -> list[tuple[float, str]]:
    """(p-value, what) of every two-sample test between a theorem's run and its baseline
    (``counts`` False: not the success counts, which are not binomial for this theorem)."""
    out = []
    for key, by_n in now.get("means", {}).items():
        old_n = was.get("means", {}).get(key, {})
        label = ", ".join(f"{k}={v}" for k, v in json.loads(key).items() if k != "experiment")
        for n, c in by_n.items():
            if n in old_n:
                b = old_n[n]
                out.append((_welch(c, b), f"measured mean at {label}, n={n}: {c[0]:.4g} (sd {c[1]:.3g}, "
                                          f"{c[2]} trials) now, {b[0]:.4g} (sd {b[1]:.3g}, {b[2]}) in the baseline"))
    for key, by_n in (now["counts"] if counts else {}).items():
        old_n = was["counts"].get(key, {})
        label = ", ".join(f"{k}={v}" for k, v in json.loads(key).items() if k != "experiment")
        for n, c in by_n.items():
            if n in old_n:
                b = old_n[n]
                out.append((_fisher(c, b), f"success counts at {label}, n={n}: {c[0]}/{c[1]} now, "
                                           f"{b[0]}/{b[1]} in the baseline"))
    for name, budgets in now["audits"].items():
        for budget, (hd, hdp, t) in budgets.items():
            old = was["audits"].get(name, {}).get(budget)
            if old is None:
                continue
            for side, x, y in (("D", hd, old[0]), ("D'", hdp, old[1])):
                out.append((_fisher((x, t), (y, old[2])),
                            f"audit {name} (budget x{budget}) event count on {side}: {x}/{t} now, "
                            f"{y}/{old[2]} in the baseline"))
    for name, budgets in was["audits"].items():
        for budget in budgets:
            if budget not in now["audits"].get(name, {}):
                out.append((0.0, f"audit {name} (budget x{budget}) is in the baseline but did not run"))
    lower = higher = 0
    inf = float("inf")  # a censored n_hat (target never reached) is above every number
    for key, (nh, _, _) in now["n_hat"].items():
        if key not in was["n_hat"]:
            continue
        a, b = (inf if nh is None else nh), (inf if was["n_hat"][key][0] is None else was["n_hat"][key][0])
        lower += a < b
        higher += a > b
    if lower + higher:
        p = float(stats.binomtest(lower, lower + higher, 0.5).pvalue)
        out.append((p, f"n_hat moved at {lower + higher} points: {lower} lower, {higher} higher than the "
                       "baseline (sign test)"))
    return out


def _read_records(out: Path, ids, fidelity: str | None) -> tuple[dict, dict, str]:
    """The records to check (theorem id -> record), those that could not be read (id ->
    why) and their one fidelity; a ``ParameterError`` for results a check cannot compare."""
    ids = list(ids) if ids else available(out)
    if not ids:
        raise ParameterError(no_results(out))
    records, unreadable = {}, {}
    for tid in ids:
        try:
            records[tid] = load(out, tid)
        except ResultError as e:  # a check never trusts, nor silently skips, a bad record
            unreadable[tid] = str(e)
    if not records:
        raise ResultError(next(iter(unreadable.values())))
    for tid, rec in records.items():
        if rec.overrides:
            sets = overrides_text(rec)
            raise ParameterError(f"results for {tid} in {out} were run with {sets}; the check compares "
                                 "the registered grids, so rerun without --set")
    fids = {r.fidelity for r in records.values()}
    if len(fids) > 1:
        raise ParameterError(f"results in {out} mix fidelities {sorted(fids)}; rerun them at one fidelity")
    fid = fids.pop()
    if fidelity is not None and fidelity != fid:
        raise ParameterError(f"--fidelity {fidelity} does not match the results' fidelity {fid}")
    return records, unreadable, fid


def _update(paths: dict, current: dict, records: dict, finished: dict, unreadable: dict, fid: str,
            baseline, own_folder: bool, out: Path) -> Outcome:
    """``check --update``: write each paper's baseline from these results (finished runs
    only, every one readable); theorems not rerun keep their entries."""
    if fid == "smoke" and baseline is None and not own_folder:
        raise ParameterError("smoke results have no committed baseline: --update writes the quick and full "
                             "ones only (give --baseline FILE to write a baseline of your own)")
    if unreadable:
        raise ResultError(f"{next(iter(unreadable.values()))}; a baseline is made from readable results only")
    failed = sorted(set(records) - set(finished))
    if failed:
        raise ParameterError(f"results of {', '.join(failed)} in {out} are failed runs; "
                             "a baseline is made from finished runs only")
    written = []
    for paper, path in paths.items():
        mine = {tid: s for tid, s in current.items() if paper in ("*", tid.split(".")[0])}
        if not mine:
            continue
        data = {"format": FORMAT, "fidelity": fid, "theorems": {}}
        if path.is_file():  # keep theorems that were not rerun, if the file has this layout
            old = read_baseline(path)  # a bad file is named, never overwritten with a partial one
            if old.get("format") == FORMAT and old.get("fidelity") == fid:
                data["theorems"] = old.get("theorems", {})
        data["theorems"].update(mine)
        data["seeds"] = sorted({e["seed"] for e in data["theorems"].values()})
        write_atomic(path, json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n")
        written.append(f"{path} ({len(mine)} theorems written, {len(data['theorems'])} in the file)")
    return Outcome(0, [f"baseline updated: {w}" for w in written])


def _compare_claims(tid: str, now: dict, was: dict, same_seed: bool, lines: list, regs: list,
                    notes: list) -> None:
    """The exact comparisons of one theorem's claims with the baseline's: bound values,
    verdicts, and (at the baseline's seed) intervals; appends to ``lines``, ``regs`` and
    ``notes``."""
    for cid, c in now["claims"].items():
        old = was["claims"].get(cid)
        if old is None:
            regs.append(f"{tid} {cid}: new claim without a baseline entry")
            continue
        new_values, old_values = _where(c["values"]), _where(old["values"])
        moved = [k for k in set(new_values) | set(old_values)
                 if not _same(new_values.get(k), old_values.get(k))]
        for k in moved[:SHOWN]:
            regs.append(f"{tid} {cid}: its bound at {k} is {new_values.get(k)}, "
                        f"the baseline's {old_values.get(k)}")
        if len(moved) > SHOWN:
            regs.append(f"{tid} {cid}: ... and {len(moved) - SHOWN} more bound values changed")
        worse = ORDER[c["verdict"]] < ORDER[old["verdict"]]
        if worse and (same_seed or c["verdict"] == REFUTED):
            regs.append(f"{tid} {cid}: verdict {old['verdict']} -> {c['verdict']}")
        elif c["verdict"] != old["verdict"]:
            notes.append(f"{tid} {cid}: verdict {old['verdict']} -> {c['verdict']} (seed {now['seed']}, "
                         f"baseline seed {was['seed']}: left to the tests on the counts)")
        if same_seed:
            for label, iv in c["intervals"].items():
                o = old["intervals"].get(label)
                if o is not None and not _overlap(iv, o):
                    regs.append(f"{tid} {cid} [{label}]: interval {_fmt(iv)} no longer overlaps "
                                f"baseline {_fmt(o)}")
        lines.append(f"{tid:<12} {cid:<26} {c['verdict']:<12} (baseline {old['verdict']})")


def _significant(family: list) -> list[str]:
    """The two-sample tests (p-value, theorem, what) that stay significant after
    Benjamini-Hochberg at ``FALSE_ALARM`` over the whole family, a few per theorem."""
    if not family:
        return []
    out: list[str] = []
    adjusted = stats.false_discovery_control([p for p, _, _ in family], method="bh")
    shown: dict = {}
    for (p, tid, what), q in sorted(zip(family, adjusted), key=lambda x: x[0][0]):
        if q > FALSE_ALARM:
            continue
        shown[tid] = shown.get(tid, 0) + 1
        if shown[tid] <= SHOWN:
            out.append(f"{tid}: {what} (p = {p:.2g}, BH-adjusted {q:.2g})")
    return out + [f"{tid}: ... and {k - SHOWN} more significant differences" for tid, k in shown.items() if k > SHOWN]


def run_check(out: Path, baseline=None, update: bool = False, fidelity: str | None = None,
              ids=None) -> Outcome:
    records, unreadable, fid = _read_records(out, ids, fidelity)
    finished = {tid: rec for tid, rec in records.items() if rec.status != "failed"}
    current = {}
    for tid, rec in list(finished.items()):
        try:
            current[tid] = summarise(rec)
        except (KeyError, TypeError) as e:  # valid on its face, but lacks what the check reads
            unreadable[tid] = f"{Path(out) / 'results' / (tid + '.json')}: lacks {type(e).__name__} {e}"
            del finished[tid], records[tid]
    prefixes = {t.split(".")[0] for t in records}
    # results of learners only (the gallery's, a user's): their own baselines, not every
    # paper's; a user's measured learners keep theirs in <out>/baselines, at any fidelity
    learners_only = all(getattr(known_papers().get(p), "kind", "paper") == "learners" for p in prefixes)
    own_folder = learners_only and all(getattr(known_papers().get(p), "baselines", None) for p in prefixes)
    if baseline:  # --baseline names a single file that holds every paper's entries
        paths = {"*": Path(baseline)}
    else:
        paths = {p: baseline_path(p, fid) for p in sorted(prefixes | (set() if learners_only else set(known_papers())))}

    if update:
        return _update(paths, current, records, finished, unreadable, fid, baseline, own_folder, out)

    if (baseline is not None or not own_folder) and not any(path.is_file() for path in paths.values()):
        if baseline is None and fid == "smoke":
            raise ParameterError("smoke results have no committed baseline (there are quick and full ones); "
                                 "run at --fidelity quick to check")
        where = baseline or BASELINE_DIR / "<paper>" / f"{fid}.json"
        raise ParameterError(f"no baseline at {where}; create one with 'privbounds check --update'")
    base = _load_baselines(paths, fid)
    # a committed baseline as <paper>/<fidelity>.json; any other (--baseline, a plugin's) by its path
    names = ", ".join(sorted({str(p.relative_to(BASELINE_DIR)) if p.is_relative_to(BASELINE_DIR) else str(p)
                              for p in paths.values() if p.is_file()}))

    lines, regs, notes, family = [], [], [], []
    for tid, why in unreadable.items():
        regs.append(f"{tid}: its result file is unreadable ({why})")
    for tid, rec in records.items():
        if tid not in finished:
            regs.append(f"{tid}: the run failed ({rec.get('error')}; traceback in {rec.get('log')})")
    for tid, now in current.items():
        was = base.get(tid)
        if was is None and getattr(known_papers().get(tid.split(".")[0]), "kind", "paper") == "learners":
            # a learner measured by a user has no committed baseline: its first check makes none
            notes.append(f"{tid}: no baseline yet for this measured learner ('privbounds check --update --out "
                         f"{out}' keeps one)")
            continue
        if was is None:
            regs.append(f"{tid}: no baseline entry (run 'privbounds check --update')")
            continue
        same_seed = now["seed"] == was["seed"]
        regs += [f"{tid} {b}" for b in _consistency(tid, finished[tid])]
        _compare_claims(tid, now, was, same_seed, lines, regs, notes)
        for cid in was["claims"]:
            if cid not in now["claims"]:
                regs.append(f"{tid} {cid}: claim in the baseline but not in the results")
        shared = getattr(get_theorem(tid).simulator, "shared_instance", False)
        if shared and not same_seed:
            notes.append(f"{tid}: success counts not tested against the baseline's (its trials share one random "
                         "instance per block, so counts at another seed are not independent draws)")
        family += [(p, tid, what) for p, what in _tests(tid, now, was, counts=same_seed or not shared)]

    n_tests = len(family)
    regs += _significant(family)
    missing = sorted(set(base) - set(current))
    for tid in missing[:SHOWN]:  # the count is in the last line; a few names say which
        lines.append(f"{tid:<12} not checked: no results in {out}")
    if len(missing) > SHOWN:
        lines.append(f"... and {len(missing) - SHOWN} more baseline theorems not checked")
    status = "FAILED" if regs else "ok"
    lines += [f"NOTE {n}" for n in notes] + [f"REGRESSION {r}" for r in regs]
    unchecked = len(set(base) - set(current))
    lines.append(f"check {status}: {len(current)} theorems, "
                 f"{sum(len(c['claims']) for c in current.values())} claims, {n_tests} two-sample tests "
                 f"(Benjamini-Hochberg at {FALSE_ALARM:g}), {len(regs)} regressions (baselines {names})"
                 + (f"; {unchecked} baseline theorems have no results in {out} and were not checked"
                    if unchecked else ""))
    return Outcome(1 if regs else 0, lines, regs)


def _fmt(iv) -> str:
    return "[" + ", ".join("open" if v is None else f"{v:.3g}" for v in iv) + "]"
