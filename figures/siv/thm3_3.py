"""Figure for Sivakumar, Theorem 3.3 (exponential-mechanism learner) with the ERM
baselines of Theorems 2.1 and 2.2: n_hat against ln|H| (left) and against epsilon
(right), each over its analytic bound, the bound of the theorem's claim for that series
(upper-expmech-<class>, upper-erm-thresh, upper-erm-point)."""

from __future__ import annotations

import math

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


def _h(p):
    return 2 ** p["d"] + 1 if p["class"] == "thresh" else 2 ** p["d"]


def plot(theorem, record, out):
    fig, (ax1, ax2) = new_figure(2, height=7.2)
    names = {"thresh": "THRESH", "point": "POINT"}
    marks = {"thresh": "o", "point": "s"}
    for i, cls in enumerate(("thresh", "point")):
        pts = select(record, **{"class": cls, "learner": "expmech", "epsilon": 1.0})
        x = [math.log(_h(p["point"])) for p in pts]
        band(ax1, x, pts, PALETTE[i], f"exp. mech., {names[cls]} ({exponent_text(verdict(record, f'scaling-logH-{cls}'))})", marks[cls])
        erm = select(record, **{"class": cls, "learner": "erm"})
        band(ax1, [math.log(_h(p["point"])) for p in erm], erm, PALETTE[i + 2], f"non-private ERM, {names[cls]}", marks[cls])
    # the bounds depend on the class only through |H|, so one line serves both: the POINT
    # claims', whose |H| = 2^d is e^x at d = x / ln 2
    xs = np.linspace(*ax1.get_xlim(), 50)
    ds = xs / math.log(2)
    expmech = select(record, **{"class": "point", "learner": "expmech", "epsilon": 1.0})
    if expmech:
        bound_line(ax1, xs, sweep(claim_bound(theorem, "upper-expmech-point"), expmech[0]["point"], "d", ds), "k",
                   "Thm 3.3 bound (proof constants)")
    erm = {cls: select(record, **{"class": cls, "learner": "erm"}) for cls in ("thresh", "point")}
    if erm["thresh"]:
        bound_line(ax1, xs, np.full_like(xs, claim_bound(theorem, "upper-erm-thresh")(erm["thresh"][0]["point"])),
                   PALETTE[2], "Thm 2.2 bound (thresholds)", ":")
    if erm["point"]:
        bound_line(ax1, xs, sweep(claim_bound(theorem, "upper-erm-point"), erm["point"][0]["point"], "d", ds),
                   PALETTE[3], "Thm 2.1 bound (non-private ERM, any finite H)", ":")
    ax1.set_yscale("log")
    ax1.set_xlabel("ln |H|  (domain 2^4 ... 2^16)")
    ax1.set_ylabel("samples needed, n_hat (success >= 1 - beta)")
    ax1.set_title("eps = 1, alpha = beta = 1/4", fontsize=10)
    legend(ax1)

    for i, cls in enumerate(("thresh", "point")):
        pts = [p for p in select(record, **{"class": cls, "learner": "expmech"}) if p["point"]["d"] == 10]
        if not pts:
            continue
        x = [p["point"]["epsilon"] for p in pts]
        band(ax2, x, pts, PALETTE[i], f"exp. mech., {names[cls]} ({exponent_text(verdict(record, f'scaling-eps-{cls}'))})", marks[cls])
        if i == 0:
            xs = np.geomspace(min(x), max(x), 50)
            bound_line(ax2, xs, sweep(claim_bound(theorem, f"upper-expmech-{cls}"), pts[0]["point"], "epsilon", xs),
                       "k", "Thm 3.3 bound (proof constants)")
    ax2.set_xscale("log")
    ax2.set_yscale("log")
    ticks = sorted({p["point"]["epsilon"] for p in select(record, learner="expmech") if p["point"]["d"] == 10})
    ax2.set_xticks(ticks, [f"{t:g}" for t in ticks])
    ax2.minorticks_off()
    ax2.set_xlabel("privacy parameter epsilon")
    ax2.set_ylabel("samples needed, n_hat")
    ax2.set_title("domain 2^10, alpha = beta = 1/4", fontsize=10)
    legend(ax2)
    return save(fig, record, out)
