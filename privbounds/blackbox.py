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

Power: where the mechanism takes epsilon as a parameter, the whole audit (pilot and
final) is repeated at twice the declared epsilon; unless that run finds eps_hat above the
declared epsilon, the audit could not have caught a factor-2 bug and says so. Verdicts:
*refuted* (eps_hat above the declared epsilon), *confirmed* (at or below, with power),
*inconclusive* (at or below, without power).

Neighbours: the user passes D and D', datasets of rows of the same length that differ in
exactly one row (replace-one neighbours, the relation of every paper here; anything else
is refused, since a pair k rows apart would show up to k eps and look like a leak).
``replace_one`` builds them.
"""

from __future__ import annotations

import inspect
from dataclasses import asdict, dataclass

import numpy as np

from privbounds.claims import CONFIRMED, INCONCLUSIVE, REFUTED
from privbounds.params import ParameterError, flag
from privbounds.simulators.engine.audit import AUDIT_CONF, epsilon_lower_bound

QUANTILES = 99  # candidate thresholds per event family on the pilot
FEW_VALUES = 20  # outputs with at most this many distinct values also get "s = v" events


@dataclass
class AuditResult:
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

    def as_dict(self) -> dict:
        return asdict(self)

    def summary(self) -> str:
        def f(x):
            if x is None:
                return "none (the event never separated D from D')"
            # a lower bound below 0 is valid but shows no privacy loss at all
            return f"{x:.4f}" if x >= 0 else f"{x:.4f} (below 0: no loss shown)"
        power = ("no doubled run (the mechanism does not take epsilon)" if self.powered is None else
                 f"with the budget doubled {f(self.eps_hat_doubled)} ({'has power' if self.powered else 'no power'})")
        return (f"{self.verdict}: declared ({self.epsilon:g}, {self.delta:g}); eps_hat {f(self.eps_hat)} at joint "
                f"confidence {self.conf:g} on the event {self.event} ({self.hits[0]}/{self.trials} on D, "
                f"{self.hits[1]}/{self.trials} on D'); {power}")


def replace_one(data, index: int, row) -> np.ndarray:
    """D' = D with row ``index`` replaced by ``row`` (replace-one neighbours)."""
    out = np.array(data, copy=True)
    if not -len(out) <= index < len(out):
        raise ParameterError(f"index must be a row of the dataset (0..{len(out) - 1}), got {index}")
    out[index] = row
    return out


def is_learner(obj) -> bool:
    """Whether ``obj`` follows the learner protocol of privbounds.learners (it, or the
    objects its factory makes, have ``fit``) rather than being a mechanism."""
    return callable(getattr(obj, "fit", None))


def learner_mechanism(learner, k: int = 1, agnostic: bool = False):
    """A learner (privbounds.learners: an object, or a class or factory called with
    ``epsilon``) as a mechanism on a dataset of rows (n, f + k), the features then the k 0/1
    labels; its output is the fitted predictor. A counts learner gets the distinct rows
    with their counts (for an ``agnostic`` instance: the distinct points, with how many of
    their rows carry label 1 in each column, and no labels). Returns (mechanism,
    takes_epsilon)."""
    from privbounds.instances import Sample
    from privbounds.learners import _construct, _takes

    def shaped(a):  # (m, k) -> (m,) for one concept, as the instances hand labels over
        return a[:, 0] if k == 1 else a

    def mechanism(data, epsilon, rng):
        data = np.asarray(data, dtype=float)
        X, y = data[:, :-k], data[:, -k:].astype(np.int64)
        obj = _construct(learner, {"epsilon": epsilon})
        if getattr(obj, "sample_form", "rows") == "counts":
            if agnostic:
                feats, inv, counts = np.unique(X, axis=0, return_inverse=True, return_counts=True)
                pos = np.zeros((len(feats), k), dtype=np.int64)
                np.add.at(pos, inv.ravel(), y)
                sample = Sample("counts", len(y), features=feats, counts=counts, positives=shaped(pos))
            else:
                rows, counts = np.unique(data, axis=0, return_counts=True)
                lab = rows[:, -k:].astype(np.int64)
                sample = Sample("counts", len(y), features=rows[:, :-k], labels=shaped(lab), counts=counts,
                                positives=shaped(lab * counts[:, None]))
        else:
            sample = Sample("rows", len(y), X=X, y=shaped(y))
        return obj.fit(sample, rng)
    return mechanism, _takes(learner, "epsilon")


def predictor_statistic(d, d_prime, k: int = 1):
    """The default statistic of a learner's output: its first coefficient when it has one
    (``coef_``: a real number that moves with the noise), else its labels on the distinct
    feature rows of D and D' (rows of features then k labels), read as a binary number."""
    feats = np.unique(np.concatenate([np.asarray(d, float), np.asarray(d_prime, float)])[:, :-k], axis=0)

    def statistic(h):
        coef = getattr(h, "coef_", None)
        if coef is not None:
            return float(np.ravel(coef)[0])
        f = getattr(h, "predict", h)
        labels = np.asarray(f(feats)).astype(np.int64).ravel()
        return float(np.sum(labels[:52] << np.arange(min(labels.size, 52))))
    return statistic


def instance_neighbours(instance: str, n: int, seed: int = 0, **params):
    """Replace-one neighbours for a learner from a registered instance family: D is a
    sample of n rows (features, then the label, or the k labels) drawn from it; D' flips
    the labels of the row of largest feature norm (for a margin-based learner, the row
    that moves it most)."""
    from privbounds.instances import get

    inst = get(instance).make(**params)
    rng = np.random.default_rng(seed)
    s = inst.draw(n, 1, rng).sample(0, "rows", rng)
    y = s.y.reshape(len(s.y), -1)
    d = np.column_stack([s.X, y]).astype(float)
    i = int(np.argmax(np.linalg.norm(s.X.astype(float), axis=1)))
    return d, replace_one(d, i, np.append(s.X[i], 1 - y[i]))


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


def _choose_event(a: np.ndarray, b: np.ndarray, delta: float):
    """The event of largest plug-in privacy loss on the pilot (either direction): returns
    (description, membership function)."""
    pooled = np.concatenate([a, b])
    cands = []
    for t in np.unique(np.quantile(pooled, np.linspace(0, 1, QUANTILES + 2)[1:-1])):
        cands += [(f"s <= {t:.6g}", lambda s, t=t: s <= t), (f"s > {t:.6g}", lambda s, t=t: s > t)]
    values = np.unique(pooled)
    if values.size <= FEW_VALUES:
        cands += [(f"s = {v:.6g}", lambda s, v=v: s == v) for v in values]
    best, score = None, -np.inf
    for name, member in cands:
        pa = (np.sum(member(a)) + 0.5) / (a.size + 1)  # pseudo-counts: no division by 0
        pb = (np.sum(member(b)) + 0.5) / (b.size + 1)
        for num, den in ((pa, pb), (pb, pa)):
            if num - delta > 0:
                loss = np.log((num - delta) / den)
                if loss > score:
                    best, score = (name, member), loss
    if best is None:
        raise ParameterError(f"no event separates D from D' on the pilot at delta {delta:g}")
    return best


def _one_audit(draw, d, d_prime, epsilon, delta, trials, pilot, statistic, conf, seeds):
    rng = [np.random.default_rng(s) for s in seeds]
    a = _scalars(draw(d, epsilon, rng[0], pilot), statistic)
    b = _scalars(draw(d_prime, epsilon, rng[1], pilot), statistic)
    name, member = _choose_event(a, b, delta)
    # the final counts come from fresh runs: the event was chosen on the pilot only
    ha = int(np.sum(member(_scalars(draw(d, epsilon, rng[2], trials), statistic))))
    hb = int(np.sum(member(_scalars(draw(d_prime, epsilon, rng[3], trials), statistic))))
    e = epsilon_lower_bound(ha, trials, hb, trials, delta, conf)
    return (None if not np.isfinite(e) else float(e)), name, (ha, hb)


def audit(mechanism, d, d_prime, epsilon: float, delta: float = 0.0, trials: int = 100_000,
          pilot: int = 20_000, seed: int = 0, statistic=None, takes_epsilon: bool = True,
          conf: float = AUDIT_CONF) -> AuditResult:
    """Audit ``mechanism(data, epsilon, rng[, size])`` on the neighbours ``d``, ``d_prime``
    against its declared (``epsilon``, ``delta``); see the module's docstring. ``statistic``
    maps one output to a number (default: its first coordinate). With ``takes_epsilon``
    the audit is repeated at 2 epsilon for the power check."""
    if not (np.isfinite(epsilon) and epsilon > 0):
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
    rows = differing_rows(d, d_prime)
    if rows is None:
        raise ParameterError("neighbours D and D' must be datasets of the same number of rows (replace-one "
                             "neighbours: one row replaced); got two that cannot be compared row by row")
    if rows != 1:
        raise ParameterError(f"neighbours D and D' differ in {rows} rows; replace-one neighbours differ in "
                             "exactly one (replace_one(D, i, row) builds them)")
    draw = _sampler(mechanism)
    stat = statistic or _first
    seeds = np.random.SeedSequence(seed).spawn(8)
    eps_hat, event, hits = _one_audit(draw, d, d_prime, epsilon, delta, int(trials), int(pilot), stat, conf,
                                      seeds[:4])
    doubled = event2 = hits2 = powered = None
    if takes_epsilon:
        doubled, event2, hits2 = _one_audit(draw, d, d_prime, 2 * epsilon, delta, int(trials), int(pilot), stat,
                                            conf, seeds[4:])
        powered = doubled is not None and doubled > epsilon
    if eps_hat is not None and eps_hat > epsilon:
        verdict = REFUTED
    elif powered:
        verdict = CONFIRMED
    else:
        verdict = INCONCLUSIVE
    return AuditResult(float(epsilon), float(delta), eps_hat, doubled, powered, verdict, event, event2,
                       int(trials), int(pilot), conf, hits, hits2)


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
