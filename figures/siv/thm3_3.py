"""Figure for Sivakumar, Theorem 3.3 (exponential-mechanism learner) with the ERM
baselines of Theorems 2.1 and 2.2: n_hat against ln|H| (left) and against epsilon
(right), each over its analytic bound, the bound of the theorem's claim for that series
(upper-expmech-<class>, upper-erm-thresh, upper-erm-point).

Each learner has one colour (``LEARNERS`` in this package: the exponential mechanism a
palette colour, non-private ERM near-black) and its bounds are dashed in that colour; the
two classes are told apart by marker (THRESH filled, POINT hollow)."""

from __future__ import annotations

import math

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

NAMES = {"thresh": "THRESH", "point": "POINT"}
# marker per (learner, class): the learner's own marker for THRESH, a second one for POINT,
# so all four series differ in greyscale
POINT_MARKER = {"expmech": "s", "erm": "v"}


def _style(learner, cls):
    s = learner_style("siv", learner)
    return s["color"], (s["marker"] if cls == "thresh" else POINT_MARKER[learner])


def _h(p):
    return 2 ** p["d"] + 1 if p["class"] == "thresh" else 2 ** p["d"]


def _fit(record, claim):
    v = verdict(record, claim)
    return f"{exponent_text(v)}: {v.verdict}"


def _shared(points, *keys):
    """``key = value`` for each key every point shares (the panel's fixed parameters)."""
    out = []
    for k in keys:
        vals = {p.point.get(k) for p in points}
        if len(vals) == 1 and None not in vals:
            out.append(f"{k} = {vals.pop():g}")
    return ", ".join(out)


def plot(theorem, record, out):
    fig, (ax1, ax2) = new_figure(2, height=7.2)
    for cls in ("thresh", "point"):
        color, marker = _style("expmech", cls)
        pts = select(record, **{"class": cls, "learner": "expmech", "epsilon": 1.0})
        x = [math.log(_h(p.point)) for p in pts]
        band(ax1, x, pts, color, f"exp. mech., {NAMES[cls]} ({_fit(record, f'scaling-logH-{cls}')})", marker)
    for cls in ("thresh", "point"):
        color, marker = _style("erm", cls)
        erm = select(record, **{"class": cls, "learner": "erm"})
        band(ax1, [math.log(_h(p.point)) for p in erm], erm, color, f"non-private ERM, {NAMES[cls]}", marker)
    # the bounds depend on the class only through |H|, so one line serves both: the POINT
    # claims', whose |H| = 2^d is e^x at d = x / ln 2
    xs = np.linspace(*ax1.get_xlim(), 50)
    ds = xs / math.log(2)
    expmech = select(record, **{"class": "point", "learner": "expmech", "epsilon": 1.0})
    priv = learner_style("siv", "expmech")["color"]
    nonpriv = learner_style("siv", "erm")["color"]
    if expmech:
        bound_line(ax1, xs, sweep(claim_bound(theorem, "upper-expmech-point"), expmech[0].point, "d", ds), priv,
                   bound_label(theorem, "upper-expmech-point", "Thm 3.3 bound, exp. mech."))
    erm = {cls: select(record, **{"class": cls, "learner": "erm"}) for cls in ("thresh", "point")}
    if erm["thresh"]:
        bound_line(ax1, xs, np.full_like(xs, claim_bound(theorem, "upper-erm-thresh")(erm["thresh"][0].point)),
                   nonpriv, bound_label(theorem, "upper-erm-thresh", "Thm 2.2 bound, ERM on thresholds"), "-.")
    if erm["point"]:
        bound_line(ax1, xs, sweep(claim_bound(theorem, "upper-erm-point"), erm["point"][0].point, "d", ds),
                   nonpriv, bound_label(theorem, "upper-erm-point", "Thm 2.1 bound, ERM on any finite H"))
    ax1.set_yscale("log")
    d1 = sorted({p.point["d"] for p in select(record, epsilon=1.0)})
    ax1.set_xlabel("ln |H|" + (f"  (domain 2^{d1[0]} ... 2^{d1[-1]})" if d1 else ""))
    ax1.set_ylabel("samples needed, n_hat (success >= 1 - beta)")
    ax1.set_title(_shared(select(record, epsilon=1.0, learner="expmech"), "epsilon", "alpha", "beta"), fontsize=10)
    legend(ax1)

    d_ref = 10
    shown = []
    for cls in ("thresh", "point"):
        pts = [p for p in select(record, **{"class": cls, "learner": "expmech"}) if p.point["d"] == d_ref]
        if not pts:
            continue
        shown += pts
        color, marker = _style("expmech", cls)
        x = [p.point["epsilon"] for p in pts]
        band(ax2, x, pts, color, f"exp. mech., {NAMES[cls]} ({_fit(record, f'scaling-eps-{cls}')})", marker)
    thresh = [p for p in shown if p.point["class"] == "thresh"]
    if thresh:  # one line: the bound depends on the class only through |H|, nearly equal here
        x = sorted(p.point["epsilon"] for p in thresh)
        xs = np.geomspace(x[0], x[-1], 50)
        bound_line(ax2, xs, sweep(claim_bound(theorem, "upper-expmech-thresh"), thresh[0].point, "epsilon", xs),
                   priv, bound_label(theorem, "upper-expmech-thresh", "Thm 3.3 bound, exp. mech."))
    ax2.set_xscale("log")
    ax2.set_yscale("log")
    ticks = sorted({p.point["epsilon"] for p in shown})
    ax2.set_xticks(ticks, [f"{t:g}" for t in ticks])
    ax2.minorticks_off()
    ax2.set_xlabel("privacy parameter epsilon")
    ax2.set_ylabel("samples needed, n_hat")
    ax2.set_title(f"domain 2^{d_ref}, " + _shared(shown, "alpha", "beta"), fontsize=10)
    legend(ax2)
    return save(fig, record, out)
