"""The one plotter with options: a theorem's figure declared, not programmed.

Not tied to one paper. A ``Figure`` is a list of ``Panel``s; a panel puts the measured
n_hat of one or more ``Series`` (points selected by their parameters, each in its
learner's colour and marker, with the fitted exponent of a scaling claim in its label)
against one ``Axis`` (a parameter, or a function of it such as |X| = 2^d or 1/alpha),
over the bound of a claim drawn dashed in the series' colour and swept smoothly between
the measured points. ``Line``s add a bound for scale or contrast that is not judged in
this figure; ``Reference``s add another theorem's measured learner from the same output
folder. A panel can repeat over the values of a parameter (``each``), and a series too
(one per composition rule, say); labels and titles are templates filled from the
panel's first point ("alpha = {alpha}"). Panels of a scaling fit, of a success ceiling
or of a mean bound reuse the generic plotter's drawing of those claims.

Censored points (an open interval: the target not reached on the grid) are arrows up,
points that succeed at the learner's smallest n arrows down (``common.band``), in every
figure alike. A ``Figure`` is a plotter: the registry names it like a function
("bns.specs:thm3_12").
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from privbounds.figures.common import (
    fixed_names,
    learners_colours,
    new_figure,
    reserved,
    save,
)
from privbounds.figures.spec_curves import _ceilings_panel, _claim_panel, _curves_options, _expand_curves
from privbounds.figures.spec_nhat import nhat_panel, planned, shade_plan
from privbounds.figures.spec_parts import (  # noqa: F401  (the declarations, imported from here by the papers)
    Axis,
    ClaimLine,
    Line,
    Panel,
    Reference,
    Rows,
    Series,
    Slope,
    _order,
    domain,
    fill,
    held,
    inverse,
)
from privbounds.record import Record


@dataclass(frozen=True)
class Figure:
    """A theorem's figure: its panels, size per panel, which intervals its bands are
    (``common.INTERVALS``) and what it shows (after the title). Called as a plotter."""

    panels: tuple[Panel, ...]
    width: float = 6.4
    height: float = 7.0
    intervals: str = "n_hat"
    what: str = ""

    def __call__(self, theorem, record: Record, out, part: str | None = None):
        panels = [p for panel in self.panels for p in _expand(panel, record)]
        fig, axes = new_figure(max(1, len(panels)), width=self.width, height=self.height)
        with reserved(_learner_colours(theorem, record, panels)), planned(shade_plan(record, panels)), \
                held(fixed_names(record)):
            for ax, panel in zip(axes, panels):
                draw_panel(ax, theorem, record, panel, out)
        return save(fig, record, out, part=part, intervals=self.intervals, what=self.what)


def _learner_colours(theorem, record: Record, panels) -> list:
    """The colours the figure's learners own: those its series, references and curves
    name, those of the record's ``learner`` parameter, and explicit colours of rows."""
    from privbounds.figures.common import PALETTE

    names = {p.point.get("learner") for p in record.points} | {r.get("learner") for r in record.rows}
    for panel in panels:
        names |= {s.learner for s in panel.series if s.learner and "{" not in s.learner}
        names |= {r.learner for r in panel.references}
    explicit = [PALETTE[r.color] if isinstance(r.color, int) else r.color
                for panel in panels for r in panel.rows if r.color is not None]
    return learners_colours(theorem.id.split(".")[0], sorted(n for n in names if n)) + explicit


def _expand(panel: Panel, record: Record) -> list[Panel]:
    """The panel, once per value of its ``each`` parameter among the points it selects."""
    if panel.each is None:
        return [panel]
    if _curves_options(panel):
        return _expand_curves(panel, record)
    values = sorted({p.point.get(panel.each) for p in record.select(**panel.where)}, key=_order)
    return [replace(panel, each=None, where={**panel.where, panel.each: v}) for v in values]


@dataclass(frozen=True)
class Parts:
    """A theorem's figure in several files, ``<id>-<part>`` (a part per claim, say, where one
    figure would crowd): (part name, ``Figure``) pairs. Called as a plotter."""

    parts: tuple[tuple[str, Figure], ...]

    def __call__(self, theorem, record: Record, out):
        return [f for name, figure in self.parts for f in figure(theorem, record, out, part=name)]


def draw_panel(ax, theorem, record: Record, panel: Panel, out) -> None:
    """One panel of a ``Figure``, by its kind (see ``Panel``)."""
    if panel.kind == "ceilings":
        _ceilings_panel(ax, theorem, record, panel)
    elif panel.kind != "n_hat":
        _claim_panel(ax, theorem, record, panel)
    else:
        nhat_panel(ax, theorem, record, panel, out)
