"""n_hat against one parameter over the theorem's bound, for the Bun-Nissim-Stemmer entries
whose figure puts two sweeps side by side (Thm 2.7, 2.18, 2.19, 2.22) or two rules on one
axis (Thm 3.1, Lem 3.6). Single-sweep entries use the generic plotter."""

from __future__ import annotations

from privbounds.bounds import bns
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
    verdict,
)


def _panel(ax, record, pts, x_of, label, claim, bound, color, marker="o"):
    xs = [x_of(p["point"]) for p in pts]
    text = exponent_text(verdict(record, claim)) if claim else ""
    band(ax, xs, pts, color, f"{label}{f' ({text})' if text else ''}", marker)
    if bound is not None:
        bound_line(ax, xs, [float(bound(p["point"])) for p in pts], color, "bound")


def _finish(ax, xlabel, title, xlog=True):
    if xlog:
        ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("n_hat")
    ax.set_title(title, fontsize=10)
    legend(ax)


def thm2_7(theorem, record, out):
    fig, (ax1, ax2) = new_figure(2, height=6.8)
    pts = select(record, **{"class": "thresh"})
    if pts:
        _panel(ax1, record, pts, lambda p: 1 / p["alpha"], "consistent ERM, THRESH_10", "scaling-alpha",
               claim_bound(theorem, "upper"), PALETTE[0])
        _finish(ax1, "1 / alpha", "realizable, VC = 1")
    pts = select(record, **{"class": "par"})
    if pts:
        _panel(ax2, record, pts, lambda p: p["d"], "consistent ERM, PAR_d (exact recovery)", None,
               claim_bound(theorem, "upper"), PALETTE[1], "s")
        _finish(ax2, "d = VC(PAR_d)", "realizable, VC = d", xlog=False)
    return save(fig, record, out)


def thm2_22(theorem, record, out):
    fig, (ax1, ax2) = new_figure(2, height=6.8)
    pts = select(record, epsilon=1.0)
    if len(pts) > 1:
        _panel(ax1, record, pts, lambda p: 2.0 ** p["d"], "exp.-mech. learner, eps = 1", "scaling-logC",
               claim_bound(theorem, "upper"), PALETTE[0])
        _finish(ax1, "|C| = |X| (POINT_X)", "agnostic POINT instance of Cor 3.9, k = 1")
    pts = select(record, d=10)
    if len(pts) > 1:
        _panel(ax2, record, pts, lambda p: p["epsilon"], "exp.-mech. learner, |X| = 2^10", "scaling-eps",
               claim_bound(theorem, "upper"), PALETTE[1], "s")
        _finish(ax2, "eps", "privacy")
    return save(fig, record, out)


def thm2_19(theorem, record, out):
    sim = theorem.simulator
    fig, (ax1, ax2) = new_figure(2, height=6.8)
    bound = claim_bound(theorem, "upper")
    pts = select(record, d=sim.D_FOR_ALPHA)
    if len(pts) > 1:
        _panel(ax1, record, pts, lambda p: 1 / p["alpha"], f"PMW, thresholds over 2^{sim.D_FOR_ALPHA} points",
               "scaling-alpha", bound, PALETTE[0])
        _finish(ax1, "1 / alpha", "accuracy")
    pts = select(record, alpha=sim.ALPHA_FOR_D)
    if len(pts) > 1:
        _panel(ax2, record, pts, lambda p: 2.0 ** p["d"], f"PMW, alpha = {sim.ALPHA_FOR_D}", None, bound,
               PALETTE[1], "s")
        _finish(ax2, "domain size |X| (|C| = |X| + 1 thresholds)", "domain")
    return save(fig, record, out)


def thm2_18(theorem, record, out):
    from privbounds.simulators.bns.thm2_18 import DOMAIN, SYNTH

    toy = claim_bound(theorem, "upper-toy")
    fig, (ax1, ax2) = new_figure(2, height=6.8)
    pts = select(record, alpha=0.2)
    if len(pts) > 1:
        _panel(ax1, record, pts, lambda p: p["epsilon"], "BLR (toy), alpha = 0.2", "scaling-eps", toy, PALETTE[0])
        _finish(ax1, "eps", f"thresholds over {DOMAIN} points, synthetic size {SYNTH}")
    pts = select(record, epsilon=1.0)
    if len(pts) > 1:
        _panel(ax2, record, pts, lambda p: 1 / p["alpha"], "BLR (toy), eps = 1", None, toy, PALETTE[1], "s")
        xs = sorted(1 / p["point"]["alpha"] for p in pts)
        bound_line(ax2, xs, [bns.n_blr_shape(1 / x, 1.0, 0.1, DOMAIN) for x in xs], "gray",
                   "Thm 2.18 shape, constant 1 (reference only)", ":")
        _finish(ax2, "1 / alpha", "accuracy")
    return save(fig, record, out)


def generic_alg2(theorem, record, out):
    fig, (ax,) = new_figure(1, width=7.5, height=6.8)
    for i, rule in enumerate(("basic", "advanced")):
        pts = select(record, rule=rule)
        if len(pts) > 1:
            _panel(ax, record, pts, lambda p: p["k"], f"Alg 2, {rule}", f"scaling-k-{rule}", None, PALETTE[i], "os"[i])
    _finish(ax, "number of concepts k", f"{theorem.number}: THRESH over 8 points, agnostic, alpha = 0.15")
    return save(fig, record, out)
