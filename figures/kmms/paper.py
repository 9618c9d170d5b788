"""The opening figure of Kaplan, Mansour, Matias, Stemmer, "Differentially Private Learning
of Geometric Concepts" (ICML 2019) on the report's paper page: n_hat against k for
conjunctions (Thm 3.5: the private set-cover learner beside the composition baselines of Ex 3.3
and the non-private learner) and for convex k-gons on the grid (Thm 4.7), when those results
were run."""

from __future__ import annotations

from privbounds.figures.common import fixed_parameters, new_figure, save_named

CAPTION = ("Left: n_hat against k for conjunctions at d = 512 (Theorem 3.5's set-cover learner, the "
           "composition baselines of Example 3.3 and the non-private learner), with fitted exponents. Right: "
           "n_hat against the number of edges of a convex polygon on the grid (Theorem 4.7), with the "
           "non-private baselines. Bands are intervals of n_hat; dashed lines are bounds.")


def theorem_ids() -> set[str]:
    """What the figure draws: both k-curves, and the composition baselines of the first."""
    return {"kmms.thm3_5", "kmms.ex3_3", "kmms.thm4_7"}


def plot(records: dict, out) -> list:
    conj = records.get("kmms.thm3_5")
    kgon = records.get("kmms.thm4_7")
    if conj is None and kgon is None:
        return []
    from privbounds.figures.kmms import specs
    from privbounds.figures.spec import draw_panel
    from privbounds.registry import get

    fig, axes = new_figure(2, width=7.2, height=9.0)
    # the first panel of each theorem's own figure (the baselines of kmms.ex3_3 come from ``out``)
    for ax, rec, figure in ((axes[0], conj, specs.thm3_5), (axes[1], kgon, specs.thm4_7)):
        if rec is not None:
            draw_panel(ax, get(rec.id), rec, figure.panels[0], out)
        else:
            ax.set_axis_off()
    fid = (conj or kgon).fidelity
    # the settings every point of a panel shares, so the figure can be read on its own
    fixed = [f"{side} ({rec.id}): {fixed_parameters(rec)}" for side, rec in (("left", conj), ("right", kgon))
             if rec is not None]
    return save_named(fig, "kmms.headline", "Private learning by set cover: n_hat grows about linearly in k "
                      f"(conjunctions, Thm 3.5; convex k-gons, Thm 4.7) - {fid} fidelity\n" + "\n".join(fixed), out)
