"""Figure for Bun-Nissim-Stemmer Proposition 2.20 (Algorithm 1, the point sanitizer):
n_hat against |X| for Algorithm 1 and the Laplace histogram (left), and against 1/alpha
for Algorithm 1 (right), each over its claim's bound (upper-alg1, upper-laplace)."""

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


def plot(theorem, record, out):
    fig, (ax1, ax2) = new_figure(2, height=7.0)
    for i, (san, name, claim) in enumerate((("alg1", "Algorithm 1", "scaling-X-alg1"),
                                            ("laplace", "Laplace histogram", "scaling-X-laplace"))):
        pts = select(record, sanitizer=san, alpha=theorem.simulator.ALPHA_FOR_X)
        if not pts:
            continue
        p0 = pts[0]["point"]
        X = [2.0 ** p["point"]["d"] for p in pts]
        band(ax1, X, pts, PALETTE[i], f"{name} ({exponent_text(verdict(record, claim))})", "os"[i])
        xx = np.geomspace(min(X), max(X), 40)
        # the claims' parameter is d = log2|X|: a smooth curve over |X| is one over real d
        y = sweep(claim_bound(theorem, f"upper-{san}"), p0, "d", np.log2(xx))
        label = "Prop 2.20 bound (no |X|)" if san == "alg1" else "Laplace bound (2/(alpha eps)) ln(|X|/beta)"
        bound_line(ax1, xx, y, PALETTE[i], label)
    ax1.set_xscale("log", base=2)
    ax1.set_yscale("log")
    ax1.set_xlabel("domain size |X|")
    ax1.set_ylabel("rows needed, n_hat (all point queries within alpha w.p. >= 1 - beta)")
    ax1.set_title(f"alpha = {theorem.simulator.ALPHA_FOR_X}, eps = 1, delta = 1e-6 (Alg 1), beta = 0.1; Zipf(1.1) rows", fontsize=10)
    legend(ax1)
    pts = select(record, sanitizer="alg1", d=16)
    if pts:
        p0 = pts[0]["point"]
        inv = [1 / p["point"]["alpha"] for p in pts]
        band(ax2, inv, pts, PALETTE[0],
             f"Algorithm 1, |X| = 2^16 ({exponent_text(verdict(record, 'scaling-alpha-alg1'))})")
        ii = np.geomspace(min(inv), max(inv), 30)
        bound_line(ax2, ii, sweep(claim_bound(theorem, "upper-alg1"), p0, "alpha", 1 / ii),
                   PALETTE[0], "Prop 2.20 bound")
        ax2.set_xscale("log", base=2)
        ax2.set_yscale("log")
        ax2.set_xlabel("1 / alpha")
        ax2.set_ylabel("rows needed, n_hat")
        ax2.set_title("accuracy: n_hat grows like 1/alpha (times ln n)", fontsize=10)
        legend(ax2)
    return save(fig, record, out)
