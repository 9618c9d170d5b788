"""The neighbour pairs a black-box audit (``privbounds.blackbox``) tries, and a learner as
a mechanism.

Pairs. A pair the user chose shows only what happens on that pair: an unclipped sum
audited on rows 0 and 1 looks private. Given the **row domain** the user declares, the
audit also replaces the pair's changed row i by the domain's extreme rows:

- a range ``(lo, hi)`` (every coordinate of a row in [lo, hi]): the rows all lo and all
  hi;
- a finite set of rows (a list, a set or an array of rows): every member;
- a sampler ``sampler(rng) -> row``: ``SAMPLER_DRAWS`` draws from it (fixed by the seed).

Every dataset so made differs from D and D' (and from each other) in row i only, so each
two of them are replace-one neighbours; the audit's pilot scores every such pair and
estimates the best few (``privbounds.blackbox``), which is how "the members that move the
statistic most" and "the most extreme draws" are found without knowing what the
mechanism computes.

Learners. A learner (the protocol of ``privbounds.learners``) is audited as the mechanism
``learner_mechanism`` makes of it, on datasets of rows (features, then the k labels). A
user gives its neighbours as ``((X, y), (X2, y2))``; an instance family gives a sample D
and, as candidates, D with the labels of one row flipped at each of its distinct points
(a flip at a point with few rows, next to the decision boundary, is what moves an
ERM-like learner; which one does is left to the pilot).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from privbounds.params import ParameterError, flag

SAMPLER_DRAWS = 16  # rows drawn from a sampler domain
MAX_MEMBERS = 64  # members of a finite domain (each costs a pilot on its own dataset)
MAX_FLIPS = 8  # label flips tried on an instance's sample (each costs a pilot too)
REDRAWS = 32  # samples of a noiseless instance drawn to find a point with one row
LEARNER_FORM = "((X, y), (X2, y2)): X an (n, f) array of features (or (n,) for one), y the n 0/1 labels ((n, k) for k)"


@dataclasses.dataclass
class Plan:
    """What an audit runs: the datasets, the candidate pairs among them (indices into
    ``sets``, a name, whether it is always estimated) and how to describe each dataset."""

    sets: list
    pairs: list  # (i, j, name, forced)


def replace_one(data, index: int, row) -> np.ndarray:
    """D' = D with row ``index`` replaced by ``row`` (replace-one neighbours)."""
    out = np.array(data, copy=True)
    if not -len(out) <= index < len(out):
        raise ParameterError(f"index must be a row of the dataset (0..{len(out) - 1}), got {index}")
    out[index] = row
    return out


def _fmt(row) -> str:
    r = np.asarray(row)
    text = f"{float(r):g}" if r.ndim == 0 else np.array2string(r, precision=4, separator=", ", threshold=6)
    return text if len(text) <= 40 else text[:37] + "..."


def domain_rows(domain, shape, dtype, rng) -> tuple[str, list]:
    """(kind, rows) of a declared domain; rows have the shape of a row of D."""
    def fit(row):
        try:
            return np.broadcast_to(np.asarray(row, dtype=dtype), shape).copy()
        except (TypeError, ValueError):
            raise ParameterError(f"{flag('domain')} rows must have the shape of a row of D {shape}, got "
                                 f"{_fmt(row)}") from None
    if isinstance(domain, tuple) and len(domain) == 2 and all(np.ndim(v) == 0 for v in domain):
        lo, hi = (float(v) for v in domain)
        if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
            raise ParameterError(f"{flag('domain')} (lo, hi) must be finite with lo < hi, got {domain!r}")
        return "range", [fit(lo), fit(hi)]
    if callable(domain):
        try:
            return "sampler", [fit(domain(rng)) for _ in range(SAMPLER_DRAWS)]
        except ParameterError:
            raise
        except Exception as e:  # the user's sampler: one line naming it
            raise ParameterError(f"{flag('domain')} sampler raised {type(e).__name__}: {e}") from None
    try:
        members = [fit(r) for r in (sorted(domain) if isinstance(domain, (set, frozenset)) else domain)]
    except TypeError:
        raise ParameterError(f"{flag('domain')} must be a range (lo, hi), a finite set of rows or a sampler "
                             f"sampler(rng) -> row, got {type(domain).__name__}") from None
    if not 2 <= len(members) <= MAX_MEMBERS:
        raise ParameterError(f"{flag('domain')} as a finite set needs 2 to {MAX_MEMBERS} rows, got {len(members)}")
    return "set", members


def domain_plan(d, d_prime, domain, seed: int, labels: int = 0) -> Plan:
    """The user's pair (always estimated) and, for a declared domain, D with its changed row
    replaced by each of the domain's rows; every two of these datasets are candidates. For a
    learner (``labels`` = k label columns at the end of each row) the domain is of feature
    rows, and each is tried with all labels 0 and all labels 1: a label is never set to a
    value of the feature range."""
    d, d_prime = np.asarray(d), np.asarray(d_prime)
    plan = Plan([d, d_prime], [(0, 1, "D, D' (yours)", True)])
    if domain is None:
        return plan
    i = int(np.flatnonzero(np.any((d != d_prime).reshape(len(d), -1), axis=1))[0])
    dtype = np.result_type(d.dtype, float)
    shape = (d.shape[1] - labels,) if labels else d.shape[1:]
    _, rows = domain_rows(domain, shape, dtype, np.random.default_rng(np.random.SeedSequence(
        seed, spawn_key=(200,))))
    if labels:
        rows = [np.append(r, np.full(labels, y, dtype)) for r in rows for y in (0, 1)]
    names = ["D", "D'"]
    for r in rows:  # a row D or D' already has (or a repeated member) adds nothing
        if not any(np.array_equal(s[i], r) for s in plan.sets):
            plan.sets.append(replace_one(d.astype(dtype), i, r))
            names.append(f"D with row {i} = {_fmt(r)}")
    plan.pairs += [(a, b, f"{names[a]} | {names[b]}", False)
                   for a in range(len(plan.sets)) for b in range(a + 1, len(plan.sets)) if (a, b) != (0, 1)]
    return plan


def learner_rows(neighbours) -> tuple[np.ndarray, np.ndarray, int]:
    """The learner neighbours ``((X, y), (X2, y2))`` as two datasets of rows (features,
    then the k labels) and k; a one-line error naming the parameter and the form otherwise."""
    def bad(why):
        return ParameterError(f"{flag('neighbours')} for a learner must be {LEARNER_FORM}; {why}")
    if not (isinstance(neighbours, (tuple, list)) and len(neighbours) == 2):
        raise bad(f"got {type(neighbours).__name__}" + (f" of length {len(neighbours)}"
                                                         if isinstance(neighbours, (tuple, list)) else ""))
    out, ks = [], set()
    for side, xy in zip(("D", "D'"), neighbours):
        if not (isinstance(xy, (tuple, list)) and len(xy) == 2):
            raise bad(f"{side} is not a pair (X, y)")
        try:
            X, y = np.asarray(xy[0], dtype=float), np.asarray(xy[1], dtype=float)
        except (TypeError, ValueError):
            raise bad(f"{side}'s X or y is not numeric") from None
        X = X[:, None] if X.ndim == 1 else X
        y2 = y[:, None] if y.ndim == 1 else y
        if X.ndim != 2 or y2.ndim != 2 or len(X) != len(y2) or len(X) == 0:
            raise bad(f"{side} has X of shape {X.shape} and y of shape {y.shape}")
        if not np.all((y2 == 0) | (y2 == 1)):
            raise bad(f"{side}'s labels are not all 0 or 1")
        ks.add(y2.shape[1])
        out.append(np.column_stack([X, y2]))
    if len(ks) != 1 or out[0].shape != out[1].shape:
        raise bad(f"D and D' have different shapes ({out[0].shape} and {out[1].shape} as rows)")
    return out[0], out[1], ks.pop()


def instance_plan(instance: str, n: int, seed: int = 0, counts_form: bool = False,
                  **params) -> tuple[Plan, int, bool]:
    """D, a sample of n rows of an instance family, and D with the labels of one row flipped,
    each (D, flip) a candidate; also the instance's k and whether it is agnostic.

    Which rows: on a noiseless family, the rows alone at their point (a flip elsewhere
    makes a dataset whose point carries two labels, which the family never draws and a
    counts sample cannot hold), and D is redrawn (up to ``REDRAWS`` times, seeded) until it
    has one; on an agnostic family, one row of each distinct (point, labels). At most
    ``MAX_FLIPS``, those whose point has the fewest rows (a label few rows carry is what an
    ERM-like learner's output hangs on), then the largest norm."""
    from privbounds.instances import get

    inst = get(instance).make(**params)
    rng = np.random.default_rng(seed)
    for _ in range(REDRAWS):
        s = inst.draw(n, 1, rng).sample(0, "rows", rng)
        y = s.y.reshape(len(s.y), -1)
        d = np.column_stack([s.X, y]).astype(float)
        _, first, at_point = np.unique(s.X, axis=0, return_index=True, return_counts=True)
        _, first_row, counts = np.unique(d, axis=0, return_index=True, return_counts=True)
        if inst.noise > 0:
            first, at_point = first_row, counts
            break
        if np.any(at_point == 1):
            first, at_point = first[at_point == 1], at_point[at_point == 1]
            break
    else:
        # every point of every draw holds several rows: a flip gives a point two labels. That
        # is still a dataset, and differential privacy holds on every dataset, so a learner of
        # rows is audited on it; a counts sample cannot hold it (and could refute a correct
        # counts learner), so for one say so rather than audit on such a pair
        if not counts_form:
            first, at_point = first_row, counts
        else:
            raise ParameterError(f"instance {instance}: no point of {n} drawn rows holds a single row in "
                                 f"{REDRAWS} seeded draws, and a label flip elsewhere gives a point two labels, "
                                 "which a counts sample cannot hold; use a smaller --n or give your own "
                                 "neighbours ((X, y), (X2, y2))")
    feats = s.X.astype(float)
    order = np.lexsort((-np.linalg.norm(feats[first], axis=1), at_point))[:MAX_FLIPS]
    plan = Plan([d], [])
    for j in order:
        i = int(first[j])
        plan.sets.append(replace_one(d, i, np.append(s.X[i], 1 - y[i])))
        plan.pairs.append((0, len(plan.sets) - 1, f"D | D with the labels of row {i} (features {_fmt(s.X[i])}, "
                                                    f"labels {_fmt(y[i])}, {at_point[j]} row(s) there) flipped",
                           False))
    return plan, inst.k, inst.noise > 0


def instance_neighbours(instance: str, n: int, seed: int = 0, **params):
    """One pair from an instance (the flip of the row of largest feature norm), as before
    the audit tried several; ``instance_plan`` gives them all."""
    from privbounds.instances import get

    inst = get(instance).make(**params)
    rng = np.random.default_rng(seed)
    s = inst.draw(n, 1, rng).sample(0, "rows", rng)
    y = s.y.reshape(len(s.y), -1)
    d = np.column_stack([s.X, y]).astype(float)
    i = int(np.argmax(np.linalg.norm(s.X.astype(float), axis=1)))
    return d, replace_one(d, i, np.append(s.X[i], 1 - y[i]))


def is_learner(obj) -> bool:
    """Whether ``obj`` follows the learner protocol of privbounds.learners (it, or the
    objects its factory makes, have ``fit``) rather than being a mechanism."""
    return callable(getattr(obj, "fit", None))


def _sample(data, k: int, agnostic: bool, form: str):
    """A dataset of rows as the Sample a learner of sample_form ``form`` takes."""
    from privbounds.instances import Sample

    def shaped(a):  # (m, k) -> (m,) for one concept, as the instances hand labels over
        return a[:, 0] if k == 1 else a
    X, y = data[:, :-k], data[:, -k:].astype(np.int64)
    if form != "counts":
        return Sample("rows", len(y), X=X, y=shaped(y))
    if agnostic:
        feats, inv, counts = np.unique(X, axis=0, return_inverse=True, return_counts=True)
        pos = np.zeros((len(feats), k), dtype=np.int64)
        np.add.at(pos, inv.ravel(), y)
        return Sample("counts", len(y), features=feats, counts=counts, positives=shaped(pos))
    rows, counts = np.unique(data, axis=0, return_counts=True)
    lab = rows[:, -k:].astype(np.int64)
    return Sample("counts", len(y), features=rows[:, :-k], labels=shaped(lab), counts=counts,
                  positives=shaped(lab * counts[:, None]))


def sample_form(learner) -> str:
    """The sample form a learner takes ("rows" or "counts"): its own attribute, or that of
    the object its factory makes (at epsilon 1, only to read the attribute)."""
    from privbounds.learners import _construct

    form = getattr(learner, "sample_form", None)
    return form or getattr(_construct(learner, {"epsilon": 1.0}), "sample_form", "rows")


def learner_mechanism(learner, k: int = 1, agnostic: bool = False):
    """A learner (privbounds.learners: an object, or a class or factory called with
    ``epsilon``) as a mechanism on a dataset of rows (n, f + k), the features then the k 0/1
    labels; its output is the fitted predictor. A counts learner gets the distinct rows
    with their counts (for an ``agnostic`` instance: the distinct points, with how many of
    their rows carry label 1 in each column, and no labels). Returns (mechanism,
    takes_epsilon)."""
    import inspect

    from privbounds.learners import _construct, _takes

    takes = _takes(learner, "epsilon")
    ready = hasattr(learner, "fit") and not inspect.isclass(learner)

    def make(epsilon):  # _construct's, with the signature read once, not once per fit
        return learner if ready else learner(**({"epsilon": epsilon} if takes else {}))

    def mechanism(data, epsilon, rng, size=None):
        data = np.asarray(data, dtype=float)
        first = _construct(learner, {"epsilon": epsilon})
        # the sample is built once per batch (np.unique is most of a small fit's cost); each
        # fit gets its own copy, in case it changes its sample in place
        sample = _sample(data, k, agnostic, getattr(first, "sample_form", "rows"))
        fits = []
        for t in range(1 if size is None else size):
            obj = first if t == 0 else make(epsilon)  # a new object per fit: fit may return self
            own = dataclasses.replace(sample, **{f.name: np.copy(getattr(sample, f.name))
                                                 for f in dataclasses.fields(sample)
                                                 if isinstance(getattr(sample, f.name), np.ndarray)})
            fits.append(obj.fit(own, rng))
        return fits[0] if size is None else fits
    return mechanism, takes


def predictor_statistic(*datasets, k: int = 1):
    """The default statistic of a learner's output: its first coefficient when it has one
    (``coef_``: a real number that moves with the noise), else its labels on the distinct
    feature rows of the datasets (rows of features then k labels), read as a binary number."""
    feats = np.unique(np.concatenate([np.asarray(d, float) for d in datasets])[:, :-k], axis=0)

    def statistic(h):
        coef = getattr(h, "coef_", None)
        if coef is not None:
            return float(np.ravel(coef)[0])
        f = getattr(h, "predict", h)
        labels = np.asarray(f(feats)).astype(np.int64).ravel()
        return float(np.sum(labels[:52] << np.arange(min(labels.size, 52))))
    return statistic
