"""Figure for Sivakumar, Theorem 3.4's finite shadow: n_hat of the pure exponential
mechanism, our approximate-DP binary search and non-private ERM against b = log2|X|
(grids of 2^4 to 2^56 points, 4-point cluster), each over its own bound (dashed in the
learner's colour), with the fitted exponents in ln|X| in the legend. The log*|X| lower
bound of the theorem (Thm 3.6) is drawn for scale."""

from __future__ import annotations

import numpy as np

from privbounds.figures.common import (
    band,
    bound_label,
    bound_line,
    claim_bound,
    exponent_text,
    learner_style,
    legend,
    new_figure,
    save,
    select,
    sweep,
    verdict,
)

NAMES = {"pure": "pure eps-DP exp. mech.", "approx": "(eps, delta)-DP binary search (ours)",
         "erm": "non-private ERM"}


def plot(theorem, record, out):
    from privbounds.bounds.sivakumar import log_star

    fig, (ax,) = new_figure(1, width=9.0, height=6.4)
    for learner in ("pure", "approx", "erm"):
        pts = select(record, learner=learner)
        if not pts:
            continue
        s = learner_style("siv", learner)
        # ERM's constancy is Thm 2.2's scaling claim (siv.thm2_2); here it is the baseline
        fit = "" if learner == "erm" else (lambda v: f" ({exponent_text(v)}: {v.verdict})")(
            verdict(record, f"scaling-{learner}"))
        band(ax, [p.point["b"] for p in pts], pts, s["color"], f"{NAMES[learner]}{fit}", s["marker"])
        bs = sorted(p.point["b"] for p in pts)
        xs = np.linspace(bs[0], bs[-1], 60)
        claim = f"upper-{learner}"
        ys = sweep(claim_bound(theorem, claim), pts[0].point, "b", np.round(xs))
        bound_line(ax, xs, ys, s["color"], bound_label(theorem, claim, f"bound, {learner}"))
    bs = sorted({p.point["b"] for p in record.points})
    if bs:
        ax.plot(bs, [log_star(2 ** b) for b in bs], ":", color="0.45", label="log*|X| (Thm 3.6, for scale)")
    ax.set_yscale("log")
    ax.set_xlabel("b = log2 |X| (grid of 2^b points)")
    ax.set_ylabel("samples needed, n_hat (success >= 1 - beta)")
    legend(ax)
    return save(fig, record, out)
