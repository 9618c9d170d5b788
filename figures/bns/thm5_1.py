"""Figure for Bun-Nissim-Stemmer Theorem 5.1 (packing): n_hat of every pure-DP k-learner
(direct sums on POINT and THRESH, the hash learner of Cor 3.3, Algorithm 2 over the tree
sanitizer) against k over the lower bound of the claim "lower-nhat" (left); measured
success probability against n under the ceiling e^(eps n) / 2^k of the claim
"ceiling-success" (right)."""

from __future__ import annotations

import numpy as np

from privbounds.figures.common import (
    PALETTE,
    band,
    bound_line,
    claim_bound,
    exponent_text,
    legend,
    new_figure,
    save,
    select,
    sweep,
    verdict,
)
from privbounds.results import load_rows

NAMES = {"directsum-basic": "direct sum", "hash-directsum": "hash learner (Cor 3.3)",
         "alg2-tree-basic": "Alg 2 + tree sanitizer"}
MARKERS = "osD^vP"


def _scaling_id(learner, cls, d):
    if learner == "hash-directsum":
        return "scaling-k-hash"
    if learner == "alg2-tree-basic":
        return "scaling-k-alg2"
    return f"scaling-k-d{d}" if cls == "point" else f"scaling-k-thresh-d{d}"


def _series(record):
    seen = []
    for p in record["points"]:
        q = p["point"]
        key = (q["learner"], q.get("class", "point"), q["d"])
        if q.get("experiment") == "search" and key not in seen:
            seen.append(key)
    return seen


def plot(theorem, record, out):
    fig, (ax1, ax2) = new_figure(2, height=8.4)
    eps, beta, p0 = None, None, None
    ids = [v["claim"] for v in record["verdicts"]]
    for i, (learner, cls, d) in enumerate(_series(record)):
        pts = select(record, experiment="search", learner=learner, d=d, **{"class": cls})
        p0 = pts[0]["point"]
        eps, beta = p0["epsilon"], p0["beta"]
        sid = _scaling_id(learner, cls, d)
        fit = exponent_text(verdict(record, sid)).replace("exponent of n_hat / ", "k-exp. of n/") \
            if sid in ids else "no fit"
        band(ax1, [p["point"]["k"] for p in pts], pts, PALETTE[i % len(PALETTE)],
             f"{NAMES.get(learner, learner)}, {cls.upper()}_{d} ({fit})", MARKERS[i % len(MARKERS)])
    search = select(record, experiment="search")
    if search:
        ks = np.geomspace(1, max(p["point"]["k"] for p in search), 40)
        bound_line(ax1, ks, np.maximum(sweep(claim_bound(theorem, "lower-nhat"), p0, "k", ks), 0.5), "k",
                   "lower bound (k ln2 + ln(1 - beta))/eps", "-")
    ax1.set_xscale("log", base=2)
    ax1.set_yscale("log")
    ax1.set_xlabel("number of concepts k")
    ax1.set_ylabel("rows needed, n_hat")
    ax1.set_title(f"pure eps-DP, eps = {eps}, beta = {beta}; lower bound: "
                  f"{verdict(record, 'lower-nhat')['verdict']}", fontsize=10)
    legend(ax1)

    rows = load_rows(out, record["id"])
    curves = rows[rows["experiment"] == "curve"]
    if "class" not in curves:
        curves = curves.assign(**{"class": "point"})
    v = verdict(record, "ceiling-success")
    conf = {(d["point"]["learner"], d["point"].get("class", "point"), d["point"]["d"], d["point"]["k"], d["n"]): d
            for d in v["details"]}
    drawn = set()
    for i, ((learner, cls, d, k), g) in enumerate(curves.groupby(["learner", "class", "d", "k"])):
        g = g.sort_values("n")
        lo = [conf.get((learner, cls, d, k, n), {}).get("p_low", np.nan) for n in g["n"]]
        hi = [conf.get((learner, cls, d, k, n), {}).get("p_high", np.nan) for n in g["n"]]
        color = PALETTE[i % len(PALETTE)]
        ax2.fill_between(g["n"], lo, hi, color=color, alpha=0.2, linewidth=0)
        ax2.plot(g["n"], g["p_hat"], "-", marker=MARKERS[i % len(MARKERS)], color=color, markersize=3,
                 label=f"k = {k}: {NAMES.get(learner, learner)}, {cls.upper()}_{d}")
        if k not in drawn:  # the ceiling depends on k and eps only
            drawn.add(k)
            ns = np.linspace(0, g["n"].max(), 100)
            ceiling = sweep(claim_bound(theorem, "ceiling-success"), g.iloc[0].to_dict(), "n", ns)
            ax2.plot(ns, ceiling, "--", color="k",
                     linewidth=1 + 0.6 * (k > 4), label=f"k = {k}: ceiling e^(eps n)/2^{k}")
    ax2.set_yscale("log")
    ax2.set_xlabel("rows n")
    ax2.set_ylabel("success probability p(n)")
    ax2.set_title(f"success on the packing instance, eps = {curves['epsilon'].iloc[0] if len(curves) else ''}; "
                  f"verdict: {v['verdict']}", fontsize=10)
    legend(ax2, sort=True)
    return save(fig, record, out)
