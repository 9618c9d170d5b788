"""n_hat against one parameter over the theorem's bound, for the Bun-Nissim-Stemmer entries
whose figure puts two sweeps side by side (Thm 2.7, 2.18, 2.19, 2.22) or two rules on one
axis (Thm 3.1, Lem 3.6). Single-sweep entries use the generic plotter."""

from __future__ import annotations

from privbounds.bounds import bns
from privbounds.figures.bns.style import claim_label, fit_text, measured_ticks, style
from privbounds.figures.common import (
    band,
    bound_line,
    claim_bound,
    fn_label,
    legend,
    new_figure,
    save,
    select,
)


def _panel(ax, theorem, record, pts, x_of, learner, detail, claim, bound_text, claim_id="upper"):
    """One sweep of ``learner`` in its colour and marker (``detail``: the instance), the
    fitted exponent of ``claim`` in its label, and the bound of ``claim_id`` dashed in the
    same colour, labelled with whose bound it is, the claim and its verdict."""
    st = style(learner)
    xs = [x_of(p.point) for p in pts]
    band(ax, xs, pts, st["color"], f"{learner}, {detail}{fit_text(record, claim) if claim else ''}", st["marker"])
    bound = claim_bound(theorem, claim_id)
    bound_line(ax, xs, [float(bound(p.point)) for p in pts], st["color"],
               claim_label(theorem, record, claim_id, f"{bound_text} for {learner}"))
    return xs


def _finish(ax, xs, xlabel, title, xlog=True):
    if xlog:
        ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    measured_ticks(ax, xs)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("n_hat")
    ax.set_title(title, fontsize=10)
    legend(ax)


def thm2_7(theorem, record, out):
    fig, (ax1, ax2) = new_figure(2, height=6.8)
    pts = select(record, **{"class": "thresh"})
    if pts:
        xs = _panel(ax1, theorem, record, pts, lambda p: 1 / p["alpha"], "non-private ERM",
                    "consistent, THRESH_10", "scaling-alpha", "Thm 2.7 bound")
        _finish(ax1, xs, "1 / alpha", "realizable, VC = 1")
    pts = select(record, **{"class": "par"})
    if pts:
        xs = _panel(ax2, theorem, record, pts, lambda p: p["d"], "non-private ERM", "consistent, PAR_d (exact recovery)",
                    None, "Thm 2.7 bound")
        _finish(ax2, xs, "d = VC(PAR_d)", "realizable, VC = d", xlog=False)
    return save(fig, record, out)


def thm2_22(theorem, record, out):
    fig, (ax1, ax2) = new_figure(2, height=6.8)
    learner = "exponential-mechanism learner"
    pts = select(record, epsilon=1.0)
    if len(pts) > 1:
        xs = _panel(ax1, theorem, record, pts, lambda p: 2.0 ** p["d"], learner, "eps = 1", "scaling-logC",
                    "Thm 2.22 bound")
        _finish(ax1, xs, "|C| = |X| (POINT_X)", "agnostic POINT instance of Cor 3.9, k = 1")
    pts = select(record, d=10)
    if len(pts) > 1:
        xs = _panel(ax2, theorem, record, pts, lambda p: p["epsilon"], learner, "|X| = 2^10", "scaling-eps",
                    "Thm 2.22 bound")
        _finish(ax2, xs, "eps", "privacy")
    return save(fig, record, out)


def thm2_19(theorem, record, out):
    sim = theorem.simulator
    fig, (ax1, ax2) = new_figure(2, height=6.8)
    pts = select(record, d=sim.D_FOR_ALPHA)
    if len(pts) > 1:
        xs = _panel(ax1, theorem, record, pts, lambda p: 1 / p["alpha"], "PMW",
                    f"thresholds over 2^{sim.D_FOR_ALPHA} points", "scaling-alpha", "Thm 2.19 bound")
        _finish(ax1, xs, "1 / alpha", f"accuracy: |X| = 2^{sim.D_FOR_ALPHA}")
    pts = select(record, alpha=sim.ALPHA_FOR_D)
    if len(pts) > 1:
        xs = _panel(ax2, theorem, record, pts, lambda p: 2.0 ** p["d"], "PMW", f"alpha = {sim.ALPHA_FOR_D}", None,
                    "Thm 2.19 bound")
        _finish(ax2, xs, "domain size |X| (|C| = |X| + 1 thresholds)", f"domain: alpha = {sim.ALPHA_FOR_D}")
    return save(fig, record, out)


def thm2_18(theorem, record, out):
    from privbounds.simulators.bns.thm2_18 import DOMAIN, SYNTH

    fig, (ax1, ax2) = new_figure(2, height=6.8)
    pts = select(record, alpha=0.2)
    if len(pts) > 1:
        xs = _panel(ax1, theorem, record, pts, lambda p: p["epsilon"], "BLR", "toy, alpha = 0.2", "scaling-eps",
                    "Thm 2.18 toy bound", "upper-toy")
        _finish(ax1, xs, "eps", f"thresholds over {DOMAIN} points, synthetic size {SYNTH}")
    pts = select(record, epsilon=1.0)
    if len(pts) > 1:
        xs = _panel(ax2, theorem, record, pts, lambda p: 1 / p["alpha"], "BLR", "toy, eps = 1", None,
                    "Thm 2.18 toy bound", "upper-toy")
        xs = sorted(xs)
        bound_line(ax2, xs, [bns.n_blr_shape(1 / x, 1.0, 0.1, DOMAIN) for x in xs], "gray",
                   fn_label(bns.n_blr_shape, "Thm 2.18 shape, constant 1 (reference only)"), ":")
        _finish(ax2, xs, "1 / alpha", "accuracy")
    return save(fig, record, out)


def generic_alg2(theorem, record, out):
    """Alg 2 over a toy sanitizer (Thm 3.1: BLR, Lem 3.6: PMW), both accountings; only the
    growth in k is claimed (the constants are hidden), so no bound is drawn."""
    sanitizer = "PMW" if "PMW" in theorem.number else "BLR"
    fig, (ax,) = new_figure(1, width=7.5, height=6.8)
    ks = []
    for rule in ("basic", "advanced"):
        pts = select(record, rule=rule)
        if len(pts) > 1:
            learner = f"Alg 2 + {sanitizer}, {rule}"
            st = style(learner)
            ks += [p.point["k"] for p in pts]
            band(ax, [p.point["k"] for p in pts], pts, st["color"],
                 f"{learner} (toy){fit_text(record, f'scaling-k-{rule}')}", st["marker"])
    _finish(ax, ks, "number of concepts k", f"{theorem.number}: THRESH over 8 points, agnostic, alpha = 0.15")
    return save(fig, record, out)
