"""The figure of a theorem that declares none, derived from its claims alone and drawn by
the one plotter (``figures.spec``): ``figure_of`` declares it, one panel per claim, by
claim kind:

- upper or lower bound: n_hat with its interval band against the claim's last label key,
  one series per value of its other label keys, and the claim's own bound (dashed, same
  colour) at the same points;
- scaling: n_hat (divided by the claim's factor, if any) against its variable, log-log,
  with the fitted power law and its exponent interval, and the predicted slope
  (``spec_curves.scaling_panel``);
- success ceiling: the measured probabilities with their intervals under the ceiling
  (``curves.ceiling_panel``);
- mean bound: the measured mean (or largest value) against n with its band, under or
  over the bound curve (``curves.mean_panel``).

Privacy audits get no panel: the theorem's page lists them with their numbers.

Any theorem of any paper gets a readable figure this way; a paper declares its own
figure (``figures/<paper>/specs.py``) only where it needs more (several claims on one
axis, another theorem's learner, a bound for scale).
"""

from __future__ import annotations

from privbounds.figures.spec import Axis, Figure, Panel, Series
from privbounds.record import ClaimResult, Record, verdict_text


def plot(theorem, record: Record, out, xlabel: str = "n"):
    """The theorem's figure as the one plotter draws it, declared from its claims."""
    return figure_of(theorem, record, xlabel)(theorem, record, out)


def figure_of(theorem, record: Record, xlabel: str = "n") -> Figure:
    """One panel per claim the figure can show (privacy audits are a table on the page)."""
    verdicts = {v.claim: v for v in record.shown()}
    claims = [c for c in theorem.claims if c.id in verdicts]
    panels = []
    for c in claims:
        v = verdicts[c.id]
        if v.kind in KINDS:  # drawn by the claim's own panel: scaling fit, ceiling, mean
            panels.append(Panel(Axis("n", xlabel, "linear"), kind=KINDS[v.kind], claim=c.id))
        else:
            panels.append(_bound_panel(theorem, v, c.label_keys))
    kinds = {v.kind for v in verdicts.values()}
    intervals = ("means" if kinds == {"mean bound"} else "ceilings" if kinds == {"success ceiling"}
                 else "mixed" if kinds & {"mean bound", "success ceiling"} else "n_hat")
    return Figure(tuple(panels), width=6.0, height=6.6, intervals=intervals)


KINDS = {"scaling": "scaling", "success ceiling": "ceiling", "mean bound": "mean"}


def _bound_panel(theorem, v: ClaimResult, label_keys) -> Panel:
    """An upper or lower bound: n_hat against the claim's last label key, one series per
    value of its other label keys (in the learner's colour where each series is one
    learner), the claim's bound at the same points in the series' colour."""
    x_key = label_keys[-1] if label_keys else None
    groups = sorted({tuple((k, d.point.get(k)) for k in label_keys[:-1]) for d in v.details}, key=str)
    learners = [next(d.point.get("learner") for d in v.details
                     if all(d.point.get(k) == val for k, val in g)) for g in groups]
    by_learner = len(set(learners)) == len(learners)  # a learner's colour only when it tells series apart
    xs = [d.point.get(x_key) for d in v.details] if x_key else []
    numeric = bool(xs) and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in xs)
    scale = "log2" if numeric and min(xs) > 0 and max(xs) / min(xs) >= 8 else "linear"
    series = []
    for group, learner in zip(groups, learners):
        name = ", ".join(f"{k}={val}" for k, val in group)
        suffix = f", {name}" if name else ""
        series.append(Series(where=dict(group), of=v.claim, learner=str(learner) if by_learner and learner else None,
                             label=_literal(f"n_hat (measured){suffix}"), bound=v.claim, smooth=False,
                             bound_text=_literal(f"the claim's {v.kind}{suffix}")))
    return Panel(Axis(x_key or "point", x_key or "point", scale), series=tuple(series), title=verdict_text(v))


def _literal(text: str) -> str:
    """A text the one plotter shows as written (its labels are templates over a point)."""
    return text.replace("{", "{{").replace("}", "}}")
