"""The figure of a theorem that has no plotter of its own, drawn from its claims alone.

One panel per claim, by claim kind:

- upper or lower bound: n_hat with its interval band against the claim's last label key,
  one series per value of its other label keys, and the claim's own bound (dashed, same
  colour) at the same points;
- scaling: n_hat (divided by the claim's factor, if any) against its variable, log-log,
  with the fitted power law and its exponent interval, and the predicted slope;
- success ceiling: the measured probabilities with their intervals under the ceiling
  (``curves.ceiling_panel``);
- mean bound: the measured mean (or largest value) against n with its band, under or
  over the bound curve (``curves.mean_panel``).

Privacy audits get no panel: the theorem's page lists them with their numbers.

Any theorem of any paper gets a readable figure this way; a paper adds a plotter of its
own only where a figure needs more (several claims on one axis, a headline figure).
"""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import NullFormatter

from privbounds.figures.common import (
    PALETTE,
    Band,
    band,
    bound_label,
    bound_line,
    learner_style,
    legend,
    new_figure,
    save,
)
from privbounds.figures.curves import ceiling_panel, mean_panel
from privbounds.record import ClaimResult, fit_text, verdict_text


def plot(theorem, record, out, xlabel: str = "n"):
    # privacy audits are a table on the theorem's page, not a panel
    verdicts = {v.claim: v for v in record.shown()}
    claims = [c for c in theorem.claims if c.id in verdicts]
    fig, axes = new_figure(max(1, len(claims)), width=6.0, height=6.6)
    for ax, c in zip(axes, claims):
        v = verdicts[c.id]
        if v.kind == "scaling":
            scaling_panel(ax, v)
        elif v.kind == "success ceiling":
            ceiling_panel(ax, v, xlabel, bound_label(theorem, c.id, "ceiling"))
        elif v.kind == "mean bound":
            mean_panel(ax, v, xlabel, bound_label(theorem, c.id, "bound"))
        else:
            _bound_panel(ax, v, c.label_keys, bound_label(theorem, c.id, f"the claim's {v.kind}"),
                         theorem.id.split(".")[0])
        ax.set_title(verdict_text(v), fontsize=10)
    kinds = {v.kind for v in verdicts.values()}
    intervals = ("means" if kinds == {"mean bound"} else "ceilings" if kinds == {"success ceiling"}
                 else "mixed" if kinds & {"mean bound", "success ceiling"} else "n_hat")
    return save(fig, record, out, intervals=intervals)


def _style(paper: str, i: int, learner) -> tuple:
    """The learner's colour and marker in its paper's figures when the points name a
    learner the paper's ``LEARNERS`` lists; otherwise the i-th palette colour."""
    if learner is not None:
        try:
            st = learner_style(paper, str(learner))
            return st["color"], st["marker"]
        except (KeyError, ImportError, AttributeError):
            pass
    return PALETTE[i % len(PALETTE)], "os^v"[i % 4]


def _bound_panel(ax, v: ClaimResult, label_keys, bound_text, paper=""):
    details = v.details
    if not details:
        ax.text(0.5, 0.5, "no point selected", ha="center", transform=ax.transAxes)
        return
    x_key = label_keys[-1] if label_keys else None
    groups = {}
    for d in details:
        group = tuple((k, d.point.get(k)) for k in label_keys[:-1])
        groups.setdefault(group, []).append(d)
    ordered = sorted(groups.items(), key=lambda g: str(g[0]))
    learners = [ds[0].point.get("learner") for _, ds in ordered]
    # a learner's own colour only when it tells the series apart (one series per learner)
    by_learner = len(set(learners)) == len(learners)
    for i, (group, ds) in enumerate(ordered):
        color, marker = _style(paper, i, learners[i] if by_learner else None)
        xs = [d.point.get(x_key, j) if x_key else j for j, d in enumerate(ds)]
        name = ", ".join(f"{k}={val}" for k, val in group)
        suffix = f", {name}" if name else ""
        band(ax, xs, ds, color, f"n_hat (measured){suffix}", marker)
        bound_line(ax, xs, [d.bound for d in ds], color, f"{bound_text}{suffix}")
    ax.set_yscale("log")
    if x_key and all(isinstance(d.point.get(x_key), (int, float)) for d in details):
        xs = [d.point[x_key] for d in details]
        if min(xs) > 0 and max(xs) / min(xs) >= 8:
            ax.set_xscale("log", base=2)
    ax.set_xlabel(x_key or "point")
    ax.set_ylabel("n_hat (simultaneous 95% band)")
    legend(ax)


def scaling_panel(ax, v: ClaimResult):
    details = v.details
    if not details or v.fit is None:
        ax.text(0.5, 0.5, f"no fit: {v.reason or ''}", ha="center", transform=ax.transAxes, wrap=True)
        return
    x = np.array([d.x for d in details], float)
    f = np.array([d.factor for d in details], float)
    pts = [Band(d.n_hat / fi, d.n_low / fi, d.n_high / fi) for d, fi in zip(details, f)]
    band(ax, x, pts, PALETTE[0], fit_text(v))
    y = np.array([p.n_hat for p in pts], float)
    # the fitted power law through the points' geometric centre, and the predicted slope
    cx, cy = np.exp(np.mean(np.log(x))), np.exp(np.mean(np.log(y)))
    xx = np.geomspace(x.min(), x.max(), 30)
    ax.plot(xx, cy * (xx / cx) ** v.fit.exponent, "-", color="gray", linewidth=1, label="fitted power law")
    ax.plot(xx, cy * (xx / cx) ** v.predicted, ":", color="k", linewidth=1.4,
            label=f"predicted exponent {v.predicted:g}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    if x.max() / x.min() < 10:  # less than a decade: label the measured x values, not log minors
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xticks(sorted(set(x)), [f"{v:.3g}" for v in sorted(set(x))])
    ax.set_xlabel(v.variable)
    ax.set_ylabel(f"n_hat / ({v.divided_by})" if v.divided_by else "n_hat")
    legend(ax)
