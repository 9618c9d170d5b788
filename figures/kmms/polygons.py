"""Figure for Kaplan, Mansour, Matias and Stemmer, "Differentially Private Learning of
Geometric Concepts" (ICML 2019), section 5: Theorem 5.1 with the finite-candidate
surrogate selection. Left: n_hat against r (the target's triangles; the top axis gives
the edges k) for the private learner, the composition baseline and the non-private greedy
cover, each over its claim's bound. Right: the private n_hat against d at fixed r. The
title of each panel says that the surrogate tests the set-cover part only, not the
paper's d-dependence."""

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

NAMES = {"private": "Set Cover Learner (OR) + surrogate selection (private)",
         "advanced": "composition baseline, advanced (private)",
         "greedy": "non-private greedy OR cover"}
BOUNDS = {"private": ("upper", "n_51, our explicit bound (SAFE, RECONSTRUCTED; upper claim)"),
          "advanced": ("upper-advanced", "n_32 of the composition baseline (upper-advanced claim)"),
          "greedy": ("upper-greedy", "n_32 with lambda = Delta = 0 (upper-greedy claim)")}
MARKS = {"private": "o", "advanced": "s", "greedy": "^"}
COLORS = {"private": 0, "advanced": 1, "greedy": 2}
LABEL = "finite-candidate surrogate: tests the set-cover part only, not the d-dependence"


def _searched(record, **kw):
    return [p for p in select(record, **kw) if p.get("n_hat") is not None or p.get("n_low") is not None]


def _against(ax, theorem, record, axis, fixed, learners):
    for learner in learners:
        pts = _searched(record, learner=learner, **fixed)
        if not pts:
            continue
        c = PALETTE[COLORS[learner]]
        xs = [p["point"][axis] for p in pts]
        band(ax, xs, pts, c, NAMES[learner], MARKS[learner])
        claim, text = BOUNDS[learner]
        grid = sorted(set(xs))
        bound_line(ax, grid, sweep(claim_bound(theorem, claim), pts[0]["point"], axis, grid), c, text)
    ax.set_xscale("log")
    ax.set_yscale("log")


def thm5_1(theorem, record, out):
    fig, axes = new_figure(2, width=6.8, height=7.4)
    ax = axes[0]
    d_ref = 20 if select(record, d=20) else min(p["point"]["d"] for p in record["points"])
    _against(ax, theorem, record, "r", {"family": "disjoint", "d": d_ref}, ("private", "advanced", "greedy"))
    rs = sorted({p["point"]["r"] for p in select(record, family="disjoint", d=d_ref)})
    ax.set_xticks(rs, [str(r) for r in rs])
    ax.minorticks_off()
    ax.set_xlabel("triangles r of the target (k = 3r edges: r disjoint triangles)")
    ax.set_ylabel("n_hat (examples)")
    ax.set_title(f"Unions of r triangles on X_{d_ref}^2, band distribution; private "
                 f"{exponent_text(verdict(record, 'scaling-r'))}\n({LABEL})", fontsize=9)
    legend(ax)

    ax = axes[1]
    r_ref = 2
    _against(ax, theorem, record, "d", {"family": "disjoint", "r": r_ref}, ("private",))
    ds = sorted({p["point"]["d"] for p in select(record, family="disjoint", r=r_ref, learner="private")})
    ax.set_xticks(ds, [str(d) for d in ds])
    ax.minorticks_off()
    ax.set_xlabel("grid size d (X_d^2 = {0..d}^2)")
    ax.set_ylabel("n_hat (examples)")
    ax.set_title(f"r = {r_ref} against d: {exponent_text(verdict(record, 'scaling-d'))}\n(the surrogate's "
                 "d-independence is NOT evidence about the paper's ln d term)", fontsize=9)
    legend(ax)
    poly = _searched(record, family="polygon", learner="private")
    if poly:
        ax0 = axes[0]
        xs = np.array([p["point"]["r"] for p in poly], float)
        band(ax0, xs, poly, PALETTE[3], "private, one polygon with r + 2 edges (ear-clipped)", "D")
        legend(ax0)
    return save(fig, record, out)
