"""The drawing conventions shared by the Bun-Nissim-Stemmer figures ("Simultaneous Private
Learning of Multiple Concepts") that keep a plotter of their own: each learner in its
colour and marker (``LEARNERS`` of this package), several series of one learner in
shades of it, and a bound labelled with its claim, the claim's verdict and the
reconstructed-constants mark."""

from __future__ import annotations

from privbounds.figures.common import bound_label, shades
from privbounds.record import ClaimResult, Record, verdict_text

# the learner names of the results tables (column "learner") -> names in LEARNERS
TABLE_NAMES = {
    "erm": "non-private ERM",
    "directsum-basic": "direct sum, basic",
    "directsum-advanced": "direct sum, advanced",
    "hash-directsum": "hash learner",
    "alg2-tree-basic": "Alg 2 + tree, basic",
    "alg2-tree-advanced": "Alg 2 + tree, advanced",
}
# markers for further series of one learner (another parameter value) in one panel
_MORE_MARKERS = "osD^vP*Xh"


def style(learner: str) -> dict:
    """Colour and marker of a learner of the paper (keyword arguments for ``ax.plot``)."""
    from privbounds.figures.common import learner_style

    return learner_style("bns", TABLE_NAMES.get(learner, learner))


def variants(learner: str, n: int) -> list[dict]:
    """Styles for ``n`` series of one learner: its hue in ``shades``, its marker first and
    then other markers, so that the series stay apart in greyscale."""
    s = style(learner)
    markers = [s["marker"]] + [m for m in _MORE_MARKERS if m != s["marker"]]
    return [{"color": c, "marker": markers[i % len(markers)]} for i, c in enumerate(shades(s["color"], n))]


def verdict_of(record: Record, claim: str) -> ClaimResult | None:
    """The result of ``claim`` (a ``ClaimResult``), None if the record has no such claim."""
    return next((v for v in record.verdicts if v.claim == claim), None)


def claim_label(theorem, record: Record, claim: str, text: str) -> str:
    """Legend label of a line drawing the bound of ``claim``: the text, the claim and its
    verdict, and the reconstructed-constants mark where the constants are ours."""
    v = verdict_of(record, claim)
    return bound_label(theorem, claim, f"{text} (claim {verdict_text(v) if v else claim})")



