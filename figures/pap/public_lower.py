"""Figure for Bassily et al., "Private Query Release Assisted by Public Data" (ICML 2020),
Lemma 5.4: the mixture reduction behind the public lower bound (Theorem 5.1). Theorem 5.1,
Lemma 5.3 and Remark 2.9 are declared for the one plotter (``specs.py``).

Ceilings and bounds are the claims' own (``claim_bound``); reference curves that are not
claims (the exact (1 - 1/m)^m, the lemma's constants) are drawn in grey and say so in the
legend.
"""

from __future__ import annotations

import numpy as np

from privbounds.bounds import pap as pap_bounds
from privbounds.figures.common import (
    BOUND_Z,
    PALETTE,
    bound_line,
    claim_bound,
    legend,
    new_figure,
    save,
)
from privbounds.figures.style import SUBJECT, own_scale, tag

MARKS = "os^v"
# one colour per thing measured, none shared in the figure: the two targets of B and P
# (panels ii and ii'), the public sampler's two events (i) and the consumption (iii)
TARGETS = {"threshold-mid": PALETTE[0], "interval-mid": PALETTE[1]}
EVENTS = {"all_x0": PALETTE[4], "some_d": PALETTE[2], "consumed": PALETTE[5]}


def _rows(record, **kw):
    return sorted((r for r in record.rows if all(r.get(k) == v for k, v in kw.items())), key=lambda r: r["n"])


def _rate(ax, xs, rows, color, label, marker="o", subject=None):
    """Measured rates with their (pointwise 95%) Clopper-Pearson intervals as error bars."""
    p = np.array([r["p_hat"] for r in rows])
    lo = np.array([r["ci_low"] for r in rows])
    hi = np.array([r["ci_high"] for r in rows])
    drawn = ax.errorbar(xs, p, yerr=[p - lo, hi - p], fmt=marker + "-", color=color, label=label, capsize=3,
                        markersize=5)
    if subject is not None:
        tag([drawn.lines[0], *drawn.lines[2]], SUBJECT + subject)


def lem5_4(theorem, record, out):
    """Bespoke: event rates against m beside quantities derived from them (the guarantee
    m alpha' transferred to P, P's met or missed excess per trial majority), which are not
    a claim's n_hat, ceiling or mean the one plotter draws."""
    fig, axes = new_figure(4, width=5.4, height=7.2)
    ms_all = sorted({r["n"] for r in record.rows})
    fine = np.unique(np.geomspace(2, max(ms_all or [2]), 60).round().astype(int))
    # (i) the public sampler
    ax = axes[0]
    for i, (measure, claim, name) in enumerate((("all_x0", "ceiling-all-x0", "all x0"),
                                                ("some_d", "ceiling-some-d", "some point of D"))):
        rows = _rows(record, measure=measure)
        if rows:
            _rate(ax, [r["n"] for r in rows], rows, EVENTS[measure], f"measured P[{name}]", MARKS[i], subject=measure)
            bound = claim_bound(theorem, claim)
            bound_line(ax, [r["n"] for r in rows], [bound(r) for r in rows], EVENTS[measure], f"ceiling ({claim})",
                       ":", subject=measure)
    ax.plot(fine, pap_bounds.mixture_all_public_x0(fine), "-", color="k", linewidth=1, zorder=BOUND_Z,
            label="(1 - 1/m)^m, exact")
    ax.axhline(0.25, color="gray", linestyle="--", linewidth=1, label="1/4 (the lemma's step)")
    ax.axhline(np.exp(-1), color="gray", linestyle=":", linewidth=1, label="1/e")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("public size m (mixture weight 1/m on D)")
    ax.set_ylabel("probability")
    ax.set_title("(i) the public sample sees nothing of D", fontsize=10)
    legend(ax)
    # (ii) B on the mixture, against the ceiling
    ax = axes[1]
    excess = None
    for i, target in enumerate(("threshold-mid", "interval-mid")):
        rows = _rows(record, measure="learner", target=target)
        if not rows:
            continue
        excess = rows[0]["excess"]
        color = TARGETS[target]
        _rate(ax, [r["n"] for r in rows], rows, color, f"B's success at alpha' = {excess:g}, {target}", MARKS[i],
              subject=target)
        bound = claim_bound(theorem, "ceiling-learner")
        bound_line(ax, [r["n"] for r in rows], [bound(r) for r in rows], color, f"ceiling, {target}", ":",
                   subject=target)
        e = _first_excess(target, rows[0]["T"])
        tag(ax.axvline(e / excess, color=color, linewidth=1, alpha=0.6, label=f"m = E/alpha' = {e / excess:g}"),
            SUBJECT + target)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("public size m")
    ax.set_ylabel("P[B's excess on D_(1/m) <= alpha']")
    ax.set_title("(ii) Lemma 5.3's learner B on the mixture", fontsize=10)
    legend(ax)
    _transferred(axes[2], record, excess, ms_all)
    # (iii) consumption
    ax = axes[3]
    rows = _rows(record, measure="consumed")
    if rows:
        _rate(ax, [r["n"] for r in rows], rows, EVENTS["consumed"], "measured P[|K - n'/m| > 3 sqrt(n'/m)]",
              subject="consumed")
        bound = claim_bound(theorem, "ceiling-consumed")
        bound_line(ax, [r["n"] for r in rows], [bound(r) for r in rows], "k", "Chernoff ceiling 2 exp(-3)")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("public size m")
    ax.set_ylabel("probability")
    ax.set_title("(iii) P consumes about n'/m real samples", fontsize=10)
    legend(ax)
    return save(fig, record, out)


def _first_excess(target, size):
    from privbounds.simulators.pap.learning import first_excess

    return first_excess(target, size)


def _transferred(ax, record, excess, ms_all) -> None:
    """(ii') the transferred guarantee grows linearly in m; P's excess does not move."""
    if excess is not None:
        ms = np.array(ms_all, float)
        ax.plot(ms, pap_bounds.mixture_excess_on_d(excess, ms), "-", color="k",
                label=f"transferred guarantee m alpha' (alpha' = {excess:g})")
        ax.axhline(1 / 16, color="gray", linestyle="--", label="1/16: below it P would contradict ALMM (infinite "
                   "Littlestone dimension only)")
        for i, target in enumerate(("threshold-mid", "interval-mid")):
            rows = _rows(record, measure="private_only", target=target)
            if not rows:
                continue
            e = _first_excess(target, rows[0]["T"])
            color = TARGETS[target]
            tag(ax.axhline(e, color=color, linestyle=":", label=f"E = excess of h_0 on D, {target}"),
                SUBJECT + target)
            met = [r for r in rows if r["p_hat"] >= 0.5]
            miss = [r for r in rows if r["p_hat"] < 0.5]
            for group, face, what in ((met, color, "met"), (miss, "none", "missed")):
                if group:
                    tag(ax.scatter([r["n"] for r in group], [excess * r["n"] for r in group], marker=MARKS[i],
                                   s=110 if i == 0 else 35, facecolors=face, edgecolors=color, zorder=5 + i,
                                   label=f"P {what} m alpha' in most trials, {target}"), SUBJECT + target)
        ax.set_xscale("log", base=2)
    ax.set_xlabel("public size m")
    ax.set_ylabel("excess error on D")
    ax.set_title("(ii') what the reduction transfers to P (no public data)", fontsize=10)
    if excess is not None:
        own_scale(ax, "log", "m alpha' grows with m over two decades")
    legend(ax)
