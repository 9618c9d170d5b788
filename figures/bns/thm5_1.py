"""Figure for Bun-Nissim-Stemmer Theorem 5.1 (packing): n_hat of every pure-DP k-learner
(direct sums on POINT and THRESH, the hash learner of Cor 3.3, Algorithm 2 over the tree
sanitizer) against k over the lower bound of the claim "lower-nhat" (left); measured
success probability against n under the ceiling e^(eps n) / 2^k of the claims
"ceiling-success" (direct sums and the hash learner; their exact p(n) dotted) and
"ceiling-success-alg2" (right)."""

from __future__ import annotations

import numpy as np

from privbounds.figures.bns.style import TABLE_NAMES, claim_label, variants
from privbounds.figures.common import (
    band,
    bound_line,
    claim_bound,
    interval_fill,
    legend,
    new_figure,
    save,
    select,
    sweep,
    verdict,
)
from privbounds.record import fit_text
from privbounds.results import load_rows

NAMES = {"hash-directsum": "hash learner (Cor 3.3)"}


def _name(learner):
    return NAMES.get(learner, TABLE_NAMES.get(learner, learner))


def _styles(keys):
    """A style per key (learner, ...): the learner's colour and marker, in lighter shades
    and other markers for its second and later series."""
    learners = [k[0] for k in keys]
    out, used = {}, {}
    for key in keys:
        i = used.get(key[0], 0)
        used[key[0]] = i + 1
        out[key] = variants(key[0], learners.count(key[0]))[i]
    return out


def _scaling_id(learner, cls, d):
    if learner == "hash-directsum":
        return "scaling-k-hash"
    if learner == "alg2-tree-basic":
        return "scaling-k-alg2"
    return f"scaling-k-d{d}" if cls == "point" else f"scaling-k-thresh-d{d}"


def _series(record):
    seen = []
    for p in record.points:
        q = p.point
        key = (q["learner"], q.get("class", "point"), q["d"])
        if q.get("experiment") == "search" and key not in seen:
            seen.append(key)
    return seen


def _value(detail, field):
    """A field of a ceiling claim's detail, NaN where there is no detail or no such value
    (no gap in the band, no exact p(n))."""
    value = getattr(detail, field) if detail is not None else None
    return np.nan if value is None else value


def plot(theorem, record, out):
    """Bespoke: the right panel draws each success estimate beside its exact p(n) (dotted,
    from the claims' details) under one ceiling per k, which the ceiling panels cannot."""
    fig, (ax1, ax2) = new_figure(2, height=8.4)
    eps, beta, p0 = None, None, None
    ids = [v.claim for v in record.verdicts]
    series = _series(record)
    styles = _styles(series)
    for learner, cls, d in series:
        st = styles[(learner, cls, d)]
        pts = select(record, experiment="search", learner=learner, d=d, **{"class": cls})
        p0 = pts[0].point
        eps, beta = p0["epsilon"], p0["beta"]
        sid = _scaling_id(learner, cls, d)
        fit = fit_text(verdict(record, sid)).replace("exponent of n_hat / ", "k-exp. of n/") \
            if sid in ids else "no fit"
        band(ax1, [p.point["k"] for p in pts], pts, st["color"], f"{_name(learner)}, {cls.upper()}_{d} ({fit})",
             st["marker"])
    search = select(record, experiment="search")
    if search:
        ks = np.geomspace(1, max(p.point["k"] for p in search), 40)
        bound_line(ax1, ks, np.maximum(sweep(claim_bound(theorem, "lower-nhat"), p0, "k", ks), 0.5), "k",
                   claim_label(theorem, record, "lower-nhat", "lower bound (k ln2 + ln(1 - beta))/eps"), "-")
    ax1.set_xscale("log", base=2)
    ax1.set_yscale("log")
    ax1.set_xlabel("number of concepts k")
    ax1.set_ylabel("rows needed, n_hat")
    ax1.set_title(f"rows needed by pure eps-DP learners, eps = {eps}, beta = {beta}", fontsize=10)
    legend(ax1)

    rows = load_rows(out, record.id)
    curves = rows[rows["experiment"] == "curve"]
    if "class" not in curves:
        curves = curves.assign(**{"class": "point"})
    # the direct sums' ceiling (decided on exact values) and Algorithm 2's (Monte Carlo); a
    # record from before the split has the first only, over every learner
    details = [d for cid in ("ceiling-success", "ceiling-success-alg2") if cid in ids
               for d in verdict(record, cid).details]
    conf = {(d.point["learner"], d.point.get("class", "point"), d.point["d"], d.point["k"], d.n): d
            for d in details}
    drawn = set()
    groups = list(curves.groupby(["learner", "class", "d", "k"]))
    # each series in its style of the left panel; the larger k with hollow markers
    extra = _styles([key[:3] for key, _ in groups if key[:3] not in styles])
    k_min = min((key[3] for key, _ in groups), default=None)
    for (learner, cls, d, k), g in groups:
        st = styles.get((learner, cls, d)) or extra[(learner, cls, d)]
        g = g.sort_values("n")
        lo = [_value(conf.get((learner, cls, d, k, n)), "p_low") for n in g["n"]]
        hi = [_value(conf.get((learner, cls, d, k, n)), "p_high") for n in g["n"]]
        interval_fill(ax2, g["n"], lo, hi, color=st["color"], alpha=0.18, linewidth=0)
        ax2.plot(g["n"], g["p_hat"], "-", marker=st["marker"], color=st["color"], markersize=4,
                 markerfacecolor=st["color"] if k == k_min else "none",
                 label=f"k = {k}: {_name(learner)}, {cls.upper()}_{d}")
        exact = [_value(conf.get((learner, cls, d, k, n)), "exact") for n in g["n"]]
        if not np.all(np.isnan(exact)):  # the exact p(n) the estimate is checked against
            ax2.plot(g["n"], exact, ":", color=st["color"], linewidth=1)
        if k not in drawn:  # the ceiling depends on k and eps only
            drawn.add(k)
            ns = np.linspace(0, g["n"].max(), 100)
            ceiling = sweep(claim_bound(theorem, "ceiling-success"), g.iloc[0].to_dict(), "n", ns)
            ax2.plot(ns, ceiling, "--", color="k", linewidth=1 + 0.6 * (k > 4),
                     label=claim_label(theorem, record, "ceiling-success", f"k = {k}: ceiling e^(eps n)/2^{k}"))
    ax2.set_yscale("log")
    ax2.set_xlabel("rows n")
    ax2.set_ylabel("success probability p(n)")
    ax2.set_title(f"success on the packing instance, eps = {curves['epsilon'].iloc[0] if len(curves) else ''}",
                  fontsize=10)
    legend(ax2, sort=True)
    return save(fig, record, out)
