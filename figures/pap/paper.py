"""The opening figure of Bassily et al., "Private Query Release Assisted by Public Data"
(ICML 2020) on the report's paper page: Theorem 3.1's public/private frontier on
thresholds with both baselines, beside the decision-stumps frontier of Theorem 4.2 (when
those results were run)."""

from __future__ import annotations

from privbounds.figures.common import fixed_parameters, new_figure, save_named
from privbounds.figures.pap.release import frontier_panel
from privbounds.registry import get

CAPTION = ("Left: the private sample size Algorithm 3 needs on thresholds against the public sample size "
           "(Theorem 3.1), beside the public-only and private-only baselines. Right: the same frontier "
           "for decision stumps (Theorem 4.2). Bands are intervals of n_hat; dashed lines are bounds.")


def theorem_ids() -> set[str]:
    """What the figure draws: the two frontiers, and the baselines of the first."""
    return {"pap.thm3_1", "pap.thm4_2", "pap.base_pub", "pap.base_priv"}


def plot(records: dict, out) -> list:
    rec = records.get("pap.thm3_1")
    stumps = records.get("pap.thm4_2")
    if rec is None and stumps is None:
        return []
    fig, axes = new_figure(2, width=7.2, height=9.0)
    if rec is not None:
        frontier_panel(axes[0], get("pap.thm3_1"), rec, out, 0.2)
    if stumps is not None:
        try:
            from privbounds.figures.pap.stumps import draw_stumps_frontier
        except ImportError:  # the stumps figure is not there yet
            draw_stumps_frontier = None
        if draw_stumps_frontier is not None:
            draw_stumps_frontier(axes[1], stumps)
    if stumps is None or rec is None:
        axes[1 if stumps is None else 0].set_axis_off()
    fid = (rec or stumps).fidelity
    # the settings every point of a panel shares (the panel titles give alpha), so the
    # figure can be read on its own
    fixed = [f"{side} ({r.id}): {fixed_parameters(r)}" for side, r in (("left", rec), ("right", stumps))
             if r is not None]
    return save_named(fig, "pap.headline", "Query release with public data: where public samples help "
                      f"(Thm 3.1, thresholds) and where they do not (Thm 4.2, stumps) - {fid} fidelity\n"
                      + "\n".join(fixed), out)
