"""Figure for Bun-Nissim-Stemmer Proposition 2.20 (Algorithm 1, the point sanitizer):
n_hat against |X| for Algorithm 1 and the Laplace histogram (left), and against 1/alpha
for Algorithm 1 (right), each over its claim's bound (upper-alg1, upper-laplace)."""

from __future__ import annotations

import numpy as np

from privbounds.figures.bns.style import draw_claim, fit_text, measured_ticks, style
from privbounds.figures.common import (
    band,
    claim_bound,
    legend,
    new_figure,
    save,
    select,
    sweep,
)


def plot(theorem, record, out):
    fig, (ax1, ax2) = new_figure(2, height=7.0)
    for san, name, claim in (("alg1", "Alg 1", "scaling-X-alg1"), ("laplace", "Laplace histogram", "scaling-X-laplace")):
        pts = select(record, sanitizer=san, alpha=theorem.simulator.ALPHA_FOR_X)
        if not pts:
            continue
        p0 = pts[0].point
        X = [2.0 ** p.point["d"] for p in pts]
        st = style(name)
        band(ax1, X, pts, st["color"], f"{name}{fit_text(record, claim)}", st["marker"])
        xx = np.geomspace(min(X), max(X), 40)
        # the claims' parameter is d = log2|X|: a smooth curve over |X| is one over real d
        y = sweep(claim_bound(theorem, f"upper-{san}"), p0, "d", np.log2(xx))
        label = "Prop 2.20 bound for Alg 1 (no |X|)" if san == "alg1" else \
            "bound (2/(alpha eps)) ln(|X|/beta) for the Laplace histogram"
        draw_claim(ax1, theorem, record, f"upper-{san}", xx, y, st["color"], label)
    ax1.set_xscale("log", base=2)
    ax1.set_yscale("log")
    ax1.set_xlabel("domain size |X|")
    ax1.set_ylabel("rows needed, n_hat (all point queries within alpha w.p. >= 1 - beta)")
    ax1.set_title(f"alpha = {theorem.simulator.ALPHA_FOR_X}, eps = 1, delta = 1e-6 (Alg 1), beta = 0.1; Zipf(1.1) rows", fontsize=10)
    legend(ax1)
    pts = select(record, sanitizer="alg1", d=16)
    if pts:
        p0 = pts[0].point
        inv = [1 / p.point["alpha"] for p in pts]
        st = style("Alg 1")
        band(ax2, inv, pts, st["color"], f"Alg 1, |X| = 2^16{fit_text(record, 'scaling-alpha-alg1')}", st["marker"])
        ii = np.geomspace(min(inv), max(inv), 30)
        draw_claim(ax2, theorem, record, "upper-alg1", ii, sweep(claim_bound(theorem, "upper-alg1"), p0, "alpha", 1 / ii),
                   st["color"], "Prop 2.20 bound for Alg 1")
        ax2.set_xscale("log", base=2)
        ax2.set_yscale("log")
        measured_ticks(ax2, inv)
        ax2.set_xlabel("1 / alpha")
        ax2.set_ylabel("rows needed, n_hat")
        ax2.set_title("accuracy: n_hat grows like 1/alpha (times ln n)", fontsize=10)
        legend(ax2)
    return save(fig, record, out)
