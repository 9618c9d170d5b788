"""Figure for Kaplan, Mansour, Matias and Stemmer, "Differentially Private Learning of
Geometric Concepts" (ICML 2019), section 5: Theorem 5.1 with the finite-candidate
surrogate selection. Left: n_hat against r (the target's triangles; the top axis gives
the edges k) for the private learner, the composition baseline and the non-private greedy
cover, each over its claim's bound. Right: the private n_hat against d at fixed r. The
legend of each panel says that the surrogate tests the set-cover part only, not the
paper's d-dependence; the titles carry the verdicts of the claims drawn."""

from __future__ import annotations

import textwrap

import numpy as np

from privbounds.figures.common import (
    band,
    bound_label,
    bound_line,
    claim_bound,
    exponent_text,
    legend,
    new_figure,
    save,
    select,
    shade,
    sweep,
    verdict,
)
from privbounds.figures.kmms.style import style
from privbounds.record import verdict_text

NAMES = {"private": "Set Cover Learner (OR) + surrogate selection (private)",
         "advanced": "composition baseline, advanced (private)",
         "greedy": "non-private greedy OR cover"}
BOUNDS = {"private": ("upper", "n_51, our explicit bound (SAFE; upper claim)"),
          "advanced": ("upper-advanced", "n_32 of the composition baseline (upper-advanced claim)"),
          "greedy": ("upper-greedy", "n_32 with lambda = Delta = 0 (upper-greedy claim)")}
# the learner of each record value in the paper's LEARNERS table (its colour and marker)
STYLE = {"private": "setcover", "advanced": "advanced", "greedy": "greedy"}
LABEL = "finite-candidate surrogate: tests the set-cover part only, not the d-dependence"


def _searched(record, **kw):
    return [p for p in select(record, **kw) if p.n_hat is not None or p.n_low is not None]


def _against(ax, theorem, record, axis, fixed, learners):
    for learner in learners:
        pts = _searched(record, learner=learner, **fixed)
        if not pts:
            continue
        c, marker = style(STYLE[learner])
        xs = [p.point[axis] for p in pts]
        band(ax, xs, pts, c, NAMES[learner], marker)
        claim, text = BOUNDS[learner]
        grid = sorted(set(xs))
        bound_line(ax, grid, sweep(claim_bound(theorem, claim), pts[0].point, axis, grid), c,
                   bound_label(theorem, claim, text))
    ax.set_xscale("log")
    ax.set_yscale("log")


def _verdicts(ax, record, claims, scaling) -> str:
    """``claim: verdict`` of the claims a panel draws (for its title); the scaling fit's
    numbers go to the legend."""
    out = [verdict_text(verdict(record, c)) for c in claims]
    v = verdict(record, scaling)
    ax.plot([], [], " ", label=f"fit (private): {exponent_text(v)}")
    return textwrap.fill("; ".join(out + [verdict_text(v)]), 70)


def thm5_1(theorem, record, out):
    fig, axes = new_figure(2, width=6.8, height=7.4)
    ax = axes[0]
    d_ref = 20 if select(record, d=20) else min(p.point["d"] for p in record.points)
    _against(ax, theorem, record, "r", {"family": "disjoint", "d": d_ref}, ("private", "advanced", "greedy"))
    rs = sorted({p.point["r"] for p in select(record, family="disjoint", d=d_ref)})
    ax.set_xticks(rs, [str(r) for r in rs])
    ax.minorticks_off()
    ax.set_xlabel("triangles r of the target (k = 3r edges: r disjoint triangles)")
    ax.set_ylabel("n_hat (examples)")
    ax.set_title(f"Unions of r triangles on X_{d_ref}^2, band distribution\n"
                 + _verdicts(ax, record, ("upper", "upper-advanced", "upper-greedy"), "scaling-r"), fontsize=10)

    ax = axes[1]
    r_ref = 2
    _against(ax, theorem, record, "d", {"family": "disjoint", "r": r_ref}, ("private",))
    ds = sorted({p.point["d"] for p in select(record, family="disjoint", r=r_ref, learner="private")})
    ax.set_xticks(ds, [str(d) for d in ds])
    ax.minorticks_off()
    ax.set_xlabel("grid size d (X_d^2 = {0..d}^2)")
    ax.set_ylabel("n_hat (examples)")
    ax.set_title(f"r = {r_ref} against d\n" + _verdicts(ax, record, ("upper",), "scaling-d"), fontsize=10)
    # the caveats are long: at the foot of the legend, not in the titles
    ax.plot([], [], " ", label="the surrogate's d-independence is NOT evidence about the paper's ln d term")
    legend(ax)
    poly = _searched(record, family="polygon", learner="private")
    if poly:
        ax0 = axes[0]
        xs = np.array([p.point["r"] for p in poly], float)
        # the same learner on another target: a darker shade of its colour, its own marker
        band(ax0, xs, poly, shade(style("setcover")[0], -0.45), "private, one polygon with r + 2 edges (ear-clipped)",
             "D")
    axes[0].plot([], [], " ", label=LABEL)
    legend(axes[0])
    return save(fig, record, out)
