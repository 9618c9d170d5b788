"""``privbounds audit``: a black-box privacy audit of a user's mechanism or learner.

The same statistics as the registered learners' audits (``engine/audit.py``): for
neighbouring inputs D, D' and an output event E, (eps, delta)-DP requires
P[M(D) in E] <= e^eps P[M(D') in E] + delta, and Clopper-Pearson ends of the two
frequencies give a lower confidence bound eps_hat on the epsilon M can have. What a user
cannot be asked to supply is E, so it is chosen on a **pilot** sample: the outputs are
reduced to one number (``statistic``, by default the first coordinate), and among the
events "s <= t", "s > t" (t at the pilot's quantiles) and "s = v" (for outputs with few
values) the one with the largest plug-in privacy loss is kept. The final estimate then
uses fresh runs, never the pilot's, so the bound keeps its stated confidence (choosing E
on the same data would bias it upwards).

Pairs: the user's pair (D, D') and, with a declared row ``domain``, the pairs that replace
its changed row by the domain's extreme rows; for a learner on an instance family, label
flips of a sample's rows (``privbounds.blackbox_pairs``). The pilot scores every candidate
pair as it scores events; the user's pair and the ``KEEP`` best others are estimated on
fresh runs, each at confidence 1 - (1 - conf) / m for m estimated pairs, so that the
verdict on the worst keeps the joint confidence ``conf`` (Bonferroni).

Power: where the mechanism takes epsilon as a parameter, the whole audit (pilot, pairs
and final) is repeated at twice the declared epsilon; unless that run finds eps_hat above
the declared epsilon, the audit could not have caught a factor-2 bug and says so.
Verdicts: *refuted* (eps_hat above the declared epsilon on some pair), *no violation
found* (at or below on every pair estimated, with power: a statement about these pairs
and events only, never a proof of privacy), *inconclusive* (at or below, without power).

Neighbours differ in exactly one row (replace-one neighbours, the relation of every paper
here; anything else is refused, since a pair k rows apart would show up to k eps and look
like a leak). ``replace_one`` builds them.
"""

from __future__ import annotations

import inspect
from dataclasses import asdict, dataclass

import numpy as np

from privbounds.blackbox_pairs import (  # noqa: F401  (the public names of the audit live here too)
    Plan,
    domain_plan,
    instance_neighbours,
    instance_plan,
    is_learner,
    learner_mechanism,
    learner_rows,
    predictor_statistic,
    replace_one,
    sample_form,
)
from privbounds.claims import INCONCLUSIVE, REFUTED
from privbounds.params import ParameterError, flag
from privbounds.simulators.engine.audit import AUDIT_CONF, epsilon_lower_bound

QUANTILES = 99  # candidate thresholds per event family on the pilot
FEW_VALUES = 20  # outputs with at most this many distinct values also get "s = v" events
KEEP = 5  # candidate pairs estimated besides the user's (the best on the pilot)
# no violation on the pairs and events tried, with power: not "confirmed", since an audit
# says nothing about the pairs and events it did not try
NO_VIOLATION = "no violation found"


@dataclass
class AuditResult:
    """The audit's verdict, on the worst pair estimated (``pair``, ``eps_hat``, ``event``,
    ``hits``) and on each (``pairs``: every candidate, with ``eps_hat`` None for those the
    pilot did not keep), at the declared budget and at the doubled one (``*_doubled``)."""

    epsilon: float
    delta: float
    eps_hat: float | None  # None: the event never separated D from D'
    eps_hat_doubled: float | None
    powered: bool | None  # None: the mechanism does not take epsilon
    verdict: str
    event: str
    event_doubled: str | None
    trials: int
    pilot: int
    conf: float
    hits: tuple
    hits_doubled: tuple | None
    pair: str = "D, D' (yours)"
    pair_doubled: str | None = None
    pairs: list | None = None
    pairs_doubled: list | None = None

    def as_dict(self) -> dict:
        return asdict(self)

    def summary(self) -> str:
        def f(x):
            if x is None:
                return "none (the event never separated the pair)"
            # a lower bound below 0 is valid but shows no privacy loss at all
            return f"{x:.4f}" if x >= 0 else f"{x:.4f} (below 0: no loss shown)"
        doubled = f"with the budget doubled, eps_hat {f(self.eps_hat_doubled)}"
        if self.powered is None:
            power = "no power check (the mechanism does not take epsilon)"
        elif self.powered:
            power = f"has power: {doubled} > {self.epsilon:g}"
        else:
            power = f"no power: {doubled}, not above {self.epsilon:g}, so a factor-2 leak could go unseen"
        head = {REFUTED: "refuted", NO_VIOLATION: f"{NO_VIOLATION} on these pairs and events (eps_hat "
                f"{f(self.eps_hat)}, power: {f(self.eps_hat_doubled)} with the budget doubled)"}.get(
            self.verdict, "inconclusive (no power)")
        est = [p for p in self.pairs or () if p["estimated"]]
        lines = [f"{head}: declared ({self.epsilon:g}, {self.delta:g}); worst eps_hat {f(self.eps_hat)} at joint "
                 f"confidence {self.conf:g} over {max(len(est), 1)} pair(s), on {self.pair}, event {self.event} "
                 f"({self.hits[0]}/{self.trials} on the first, {self.hits[1]}/{self.trials} on the second); {power}"]
        if len(est) > 1 or len(self.pairs or ()) > 1:
            lines.append(f"pairs tried ({len(self.pairs)} scored on a pilot of {self.pilot} runs per dataset, "
                         f"{len(est)} estimated on {self.trials} fresh runs):")
            lines += [f"  {p['pair']}: eps_hat {f(p['eps_hat'])} on {p['event']} ({p['hits'][0]}/{self.trials}, "
                      f"{p['hits'][1]}/{self.trials})" for p in est]
            if len(self.pairs) > len(est):
                lines.append(f"  and {len(self.pairs) - len(est)} more with a lower privacy loss on the pilot")
        if self.verdict == NO_VIOLATION and len(self.pairs or ()) <= 1:
            lines.append("an audit can only fail to find a leak on the pairs and events it tried; declare the rows' "
                         f"domain ({flag('domain')}) to try its extreme rows too")
        return "\n".join(lines)


def _sampler(mechanism):
    """draw(data, epsilon, rng, k) -> k outputs, calling ``mechanism(data, epsilon, rng,
    size=k)`` if it takes ``size`` (vectorised), else once per run."""
    try:
        takes_size = "size" in inspect.signature(mechanism).parameters
    except (TypeError, ValueError):
        takes_size = False

    def draw(data, epsilon, rng, k):
        try:
            if takes_size:
                out = mechanism(data, epsilon, rng, size=k)
                if len(out) != k:
                    raise ParameterError(f"mechanism returned {len(out)} outputs for size={k}")
                return list(out)
            return [mechanism(data, epsilon, rng) for _ in range(k)]  # a black box: one run at a time
        except ParameterError:
            raise
        except Exception as e:  # the user's code: one line naming it, not an internal error
            raise ParameterError(f"mechanism raised {type(e).__name__}: {e}") from None
    return draw


def differing_rows(d, d_prime) -> int | None:
    """How many rows two datasets differ in (replace-one neighbours differ in exactly one),
    or None when they cannot be compared row by row (other types, other lengths)."""
    try:
        a, b = np.asarray(d), np.asarray(d_prime)
    except Exception:
        return None
    if a.shape != b.shape or a.ndim == 0:
        return None
    return int(np.sum(np.any((a != b).reshape(len(a), -1), axis=1)))


def _scalars(outputs, statistic) -> np.ndarray:
    try:
        vals = np.array([float(statistic(o)) for o in outputs])
    except (TypeError, ValueError) as e:
        raise ParameterError(f"statistic must map every output to a number ({type(e).__name__}: {e}); "
                             "pass one that does") from None
    if not np.all(np.isfinite(vals)):
        raise ParameterError("statistic must map every output to a finite number "
                             f"({int(np.sum(~np.isfinite(vals)))} were not)")
    return vals


def _first(o):
    return np.ravel(np.asarray(o, dtype=float))[0]


def _events(a: np.ndarray, b: np.ndarray, delta: float):
    """The event of largest plug-in privacy loss on the pilot (either direction), as
    (description, membership function, loss), or None when none separates a from b. All
    thresholds are counted at once by binary search in the sorted samples."""
    pooled = np.concatenate([a, b])
    ts = np.unique(np.quantile(pooled, np.linspace(0, 1, QUANTILES + 2)[1:-1]))
    sa, sb = np.sort(a), np.sort(b)
    le_a, le_b = np.searchsorted(sa, ts, side="right"), np.searchsorted(sb, ts, side="right")
    ca = np.column_stack([le_a, a.size - le_a]).ravel()  # per t: "s <= t", then "s > t"
    cb = np.column_stack([le_b, b.size - le_b]).ravel()
    names = [(op, t) for t in ts for op in ("<=", ">")]
    values = np.unique(pooled)
    if values.size <= FEW_VALUES:
        ca = np.concatenate([ca, np.searchsorted(sa, values, "right") - np.searchsorted(sa, values, "left")])
        cb = np.concatenate([cb, np.searchsorted(sb, values, "right") - np.searchsorted(sb, values, "left")])
        names += [("=", v) for v in values]
    pa = (ca + 0.5) / (a.size + 1)  # pseudo-counts: no division by 0
    pb = (cb + 0.5) / (b.size + 1)
    num, den = np.column_stack([pa, pb]).ravel(), np.column_stack([pb, pa]).ravel()  # both directions
    loss = np.where(num - delta > 0, np.log(np.maximum(num - delta, 1e-300) / den), -np.inf)
    if not np.any(np.isfinite(loss)):
        return None
    best = int(np.argmax(loss))  # the first of equal losses, as candidates are listed
    op, t = names[best // 2]
    member = {"<=": lambda s: s <= t, ">": lambda s: s > t, "=": lambda s: s == t}[op]
    return f"s {op} {t:.6g}", member, float(loss[best])


def _choose_event(a: np.ndarray, b: np.ndarray, delta: float):
    """The event of largest plug-in privacy loss on the pilot: (description, membership)."""
    ev = _events(a, b, delta)
    if ev is None:
        raise ParameterError(f"no event separates D from D' on the pilot at delta {delta:g}")
    return ev[:2]


def _rng(seed: int, run: int, phase: int, i: int):
    """The generator of dataset i's runs in the pilot (phase 0) or the final estimate (1) at
    the declared (run 0) or doubled budget (1). The user's pair keeps the streams of the
    one-pair audit, so that an audit without a domain repeats its earlier numbers."""
    if i < 2:
        return np.random.default_rng(np.random.SeedSequence(seed).spawn(8)[4 * run + 2 * phase + i])
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(100 + run, phase, i)))


def _search(draw, plan: Plan, epsilon, delta, trials, pilot, statistic, conf, seed, run) -> list:
    """Score every candidate pair on the pilot, estimate the user's and the KEEP best on fresh
    runs (each dataset's shared by its pairs); one dict per candidate."""
    pil = [_scalars(draw(s, epsilon, _rng(seed, run, 0, i), pilot), statistic) for i, s in enumerate(plan.sets)]
    cands = [(i, j, name, forced, _events(pil[i], pil[j], delta)) for i, j, name, forced in plan.pairs]
    ranked = sorted((c for c in cands if not c[3] and c[4] is not None), key=lambda c: -c[4][2])
    kept = [c for c in cands if c[3]] + ranked[:KEEP]
    if not any(c[4] is not None for c in kept):
        raise ParameterError(f"no event separates D from D' on the pilot at delta {delta:g}")
    each = 1 - (1 - conf) / len(kept)  # Bonferroni over the pairs estimated
    used = sorted({x for c in kept if c[4] is not None for x in c[:2]})
    final = {i: _scalars(draw(plan.sets[i], epsilon, _rng(seed, run, 1, i), trials), statistic) for i in used}
    out = []
    for c in cands:
        i, j, name, forced, ev = c
        row = {"pair": name, "estimated": False, "eps_hat": None, "event": ev[0] if ev else "none",
               "hits": (0, 0), "pilot_loss": None if ev is None else ev[2]}
        if ev is not None and any(c is k for k in kept):
            ha, hb = int(np.sum(ev[1](final[i]))), int(np.sum(ev[1](final[j])))
            e = epsilon_lower_bound(ha, trials, hb, trials, delta, each)
            row.update(estimated=True, eps_hat=float(e) if np.isfinite(e) else None, hits=(ha, hb))
        out.append(row)
    return out


def _worst(pairs: list) -> dict:
    est = [p for p in pairs if p["estimated"]]
    return max(est, key=lambda p: -np.inf if p["eps_hat"] is None else p["eps_hat"])


def _check(epsilon, delta, trials, pilot, seed, mechanism) -> None:
    if epsilon is None or not (np.isfinite(epsilon) and epsilon > 0):
        raise ParameterError(f"{flag('epsilon')} must be > 0, got {epsilon!r}")
    if not 0 <= delta < 1:
        raise ParameterError(f"{flag('delta')} must be in [0, 1), got {delta!r}")
    for name, v in (("trials", trials), ("pilot", pilot)):
        if int(v) != v or v < 100:
            raise ParameterError(f"{flag(name)} must be an integer >= 100, got {v!r}")
    if seed < 0:
        raise ParameterError(f"{flag('seed')} must be >= 0, got {seed!r}")
    if not callable(mechanism):
        raise ParameterError(f"mechanism must be callable, got {type(mechanism).__name__}")


def _check_pair(d, d_prime) -> None:
    rows = differing_rows(d, d_prime)
    if rows is None:
        raise ParameterError("neighbours D and D' must be datasets of the same number of rows (replace-one "
                             "neighbours: one row replaced); got two that cannot be compared row by row")
    if rows != 1:
        raise ParameterError(f"neighbours D and D' differ in {rows} rows; replace-one neighbours differ in "
                             "exactly one (replace_one(D, i, row) builds them)")


def _plan(mechanism, d, d_prime, neighbours, domain, instance, n, instance_params, seed):
    """(plan, mechanism on rows, default statistic, whether it takes epsilon) for the three
    ways of naming neighbours: a mechanism's pair, a learner's ((X, y), (X2, y2)), an
    instance family's sample and its label flips."""
    given = neighbours is not None or d is not None or d_prime is not None
    if instance is not None:
        if given or domain is not None:
            raise ParameterError(f"give one of {flag('neighbours')} and {flag('instance')}; an instance's "
                                 f"neighbours are its sample's label flips (no {flag('domain')} either)")
        if isinstance(n, bool) or int(n) != n or n < 1:
            raise ParameterError(f"{flag('n')} must be an integer >= 1, got {n!r}")
        plan, k, agnostic = instance_plan(instance, int(n), seed, counts_form=sample_form(mechanism) == "counts",
                                          **(instance_params or {}))
        mech, takes = learner_mechanism(mechanism, k, agnostic)
        return plan, mech, predictor_statistic(*plan.sets, k=k), takes
    if neighbours is not None and (d is not None or d_prime is not None):
        raise ParameterError(f"give the neighbours once: D and D', or {flag('neighbours')}")
    if neighbours is None and (d is None or d_prime is None):
        raise ParameterError(f"give the neighbours: D and D', {flag('neighbours')} or {flag('instance')}")
    pair = neighbours if neighbours is not None else (d, d_prime)
    if is_learner(mechanism):
        d, d_prime, k = learner_rows(pair)
        _check_pair(d, d_prime)
        plan = domain_plan(d, d_prime, domain, seed, labels=k)
        mech, takes = learner_mechanism(mechanism, k)
        return plan, mech, predictor_statistic(*plan.sets, k=k), takes
    if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
        raise ParameterError(f"{flag('neighbours')} must be a pair (D, D'), got {type(pair).__name__}")
    _check_pair(*pair)
    return domain_plan(pair[0], pair[1], domain, seed), mechanism, _first, True


def audit(mechanism, d=None, d_prime=None, epsilon: float | None = None, delta: float = 0.0,
          trials: int = 100_000, pilot: int = 20_000, seed: int = 0, statistic=None, takes_epsilon: bool = True,
          conf: float = AUDIT_CONF, *, neighbours=None, domain=None, instance: str | None = None, n: int = 10,
          instance_params: dict | None = None) -> AuditResult:
    """Audit ``mechanism(data, epsilon, rng[, size])``, or a learner (privbounds.learners),
    against its declared (``epsilon``, ``delta``); see the module's docstring.

    Neighbours: ``d`` and ``d_prime`` (or ``neighbours=(D, D')``), datasets of rows one row
    apart; for a learner ``neighbours=((X, y), (X2, y2))``, or ``instance`` (a family's
    name, ``instance_params`` its parameters) for a sample of ``n`` rows and its label
    flips. ``domain`` declares the rows' domain, whose extreme rows then replace the pair's
    changed row: a range ``(lo, hi)``, a finite set of rows (a list, set or array) or a
    sampler ``sampler(rng) -> row``. ``statistic`` maps one output to a number (default:
    its first coordinate; a learner's, ``predictor_statistic``). With ``takes_epsilon`` the
    audit is repeated at 2 epsilon for the power check."""
    _check(epsilon, delta, trials, pilot, seed, mechanism)
    plan, mech, default_stat, takes = _plan(mechanism, d, d_prime, neighbours, domain, instance, n,
                                            instance_params, seed)
    draw, stat = _sampler(mech), statistic or default_stat
    args = (delta, int(trials), int(pilot), stat, conf, seed)
    pairs = _search(draw, plan, epsilon, *args, 0)
    worst, pairs2, worst2, powered = _worst(pairs), None, None, None
    if takes_epsilon and takes:
        pairs2 = _search(draw, plan, 2 * epsilon, *args, 1)
        worst2 = _worst(pairs2)
        powered = worst2["eps_hat"] is not None and worst2["eps_hat"] > epsilon
    if worst["eps_hat"] is not None and worst["eps_hat"] > epsilon:
        verdict = REFUTED
    else:
        verdict = NO_VIOLATION if powered else INCONCLUSIVE
    return AuditResult(float(epsilon), float(delta), worst["eps_hat"], worst2 and worst2["eps_hat"], powered,
                       verdict, worst["event"], worst2 and worst2["event"], int(trials), int(pilot), conf,
                       worst["hits"], worst2 and worst2["hits"], worst["pair"], worst2 and worst2["pair"],
                       pairs, pairs2)


def _by_value(mod) -> None:
    """Worker processes cannot import a file that is not on their path: its objects travel
    by value, as those of ``__main__`` do. joblib before 1.5 pickles with its own copy of
    cloudpickle, later ones with the cloudpickle package: tell whichever is there."""
    import cloudpickle

    cloudpickle.register_pickle_by_value(mod)
    try:
        from joblib.externals import cloudpickle as vendored
    except ImportError:
        return
    if vendored is not cloudpickle:
        vendored.register_pickle_by_value(mod)


def load(spec: str, option: str = "mechanism"):
    """The object named by "module:name" or "path/to/file.py:name" (a user's script need
    not be installed); ParameterError names ``option`` and what is wrong."""
    import importlib
    import importlib.util
    import os
    import sys
    from pathlib import Path

    module, sep, name = spec.rpartition(":")
    if not sep or not module or not name:
        raise ParameterError(f"{option} must be MODULE:NAME or FILE.py:NAME, got {spec!r}")
    try:
        if module.endswith(".py") or "/" in module:
            path = Path(module)
            if not path.is_file():
                raise ParameterError(f"{option} {spec}: no file {path}")
            folder = str(path.resolve().parent)
            if folder not in sys.path:  # its own imports, as 'python FILE' finds them, here and in
                sys.path.insert(0, folder)  # the worker processes a run starts after this
                os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [folder, os.environ.get("PYTHONPATH")]))
            mspec = importlib.util.spec_from_file_location(path.stem, path)
            mod = importlib.util.module_from_spec(mspec)
            sys.modules.setdefault(path.stem, mod)
            mspec.loader.exec_module(mod)
            _by_value(mod)
        else:
            if "" not in sys.path:
                sys.path.insert(0, "")  # the current folder, as 'python -m' would have it
            mod = importlib.import_module(module)
    except ParameterError:
        raise
    except Exception as e:
        raise ParameterError(f"{option} {spec}: cannot load {module} ({type(e).__name__}: {e})") from None
    if not hasattr(mod, name):
        raise ParameterError(f"{option} {spec}: {module} has no {name!r}")
    return getattr(mod, name)
