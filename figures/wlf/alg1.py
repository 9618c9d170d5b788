"""Wang, Lei and Fienberg, "Learning with Differential Privacy": Lemma 10's family figure
(the one bespoke plotter of Algorithm 1's chain; the others are declared in ``specs``),
and Definition 1's checker.

``learnability_check`` is Definition 1's checker: a rate must hold for every distribution,
so over a finite family (spread and concentrated) the largest measured excess risk is
compared with it.
"""

from __future__ import annotations

import numpy as np

from privbounds.figures.common import PALETTE, bound_label, legend, new_figure, save


def learnability_check(excess_by_distribution: dict, rate: float) -> tuple[str, float, bool]:
    """Definition 1 over a finite family of distributions: ``excess_by_distribution`` maps
    a distribution's name to the measured excess risk (an upper confidence end) at one n;
    the rate must hold for the worst. Returns (worst distribution, its value, holds)."""
    if not excess_by_distribution:
        raise ValueError("the family of distributions is empty")
    worst = max(excess_by_distribution, key=excess_by_distribution.get)
    return worst, float(excess_by_distribution[worst]), bool(excess_by_distribution[worst] <= rate)


def always_aerm(theorem, record, out):
    """Lemma 10: the always-AERM gap (the largest over the designed datasets, and each one)
    against n, with 2 xi(floor(sqrt n)) and the measured xi_hat; then the claim
    (``specs.lem10``). Bespoke because its curves are computed across rows (the largest
    upper end over the family, twice the base learner's), which the one plotter does not do."""
    rows = [r for r in record.rows if r.get("experiment") == "mean"]
    eps_values = sorted({r["epsilon"] for r in rows})
    fig, axes = new_figure(len(eps_values), width=7.5, height=6.6)
    for ax, eps in zip(axes, eps_values):
        sub = [r for r in rows if r["epsilon"] == eps and r["quantity"] == "subsampled_gap"]
        base = [r for r in rows if r["epsilon"] == eps and r["quantity"] == "base_gap"]
        ns = sorted({r["n"] for r in sub})
        for i, name in enumerate(sorted({r["dataset"] for r in sub})):
            rs = sorted((r for r in sub if r["dataset"] == name), key=lambda r: r["n"])
            ax.plot([r["n"] for r in rs], [max(r["mean"], 1e-12) for r in rs], "o-", color=PALETTE[i], markersize=3,
                    alpha=0.6, label=f"subsampled gap, {name}")
        worst = [max(r["ci_high"] for r in sub if r["n"] == n) for n in ns]
        xi_hat = [max(r["ci_high"] for r in base if r["n"] == n) for n in ns]
        ax.plot(ns, np.maximum(worst, 1e-12), "s-", color="black", label="always-AERM gap (largest over the family)")
        ax.plot(ns, np.maximum(2 * np.array(xi_hat), 1e-12), ":", color="grey",
                label="2 xi_hat(floor(sqrt n)) measured (base learner on the dataset's points)")
        claim = next(c for c in theorem.claims if c.id == "always-aerm")
        bound = [claim.bound({**sub[0], "n": n}) for n in ns]
        ax.plot(ns, bound, "--", color="black", label=bound_label(theorem, "always-aerm", "2 xi(floor(sqrt n))"))
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_ylim(1e-12, 10)
        ax.set_xlabel("n (subset of floor(sqrt n) points)")
        ax.set_ylabel("AERM gap on Z")
        ax.set_title(f"eps = {eps:g}", fontsize=9)
        legend(ax)
    first = save(fig, record, out, part="family", intervals="means")
    from privbounds.figures.wlf.specs import lem10

    return first + lem10(theorem, record, out)
