"""The drawing conventions shared by the Bun-Nissim-Stemmer figures ("Simultaneous Private
Learning of Multiple Concepts"): each learner in its colour and marker (``LEARNERS`` of
this package), its bound dashed in the same colour and labelled with the claim, the
claim's verdict and the reconstructed-constants mark, and measured x values as ticks on
axes too short for the default ones."""

from __future__ import annotations

import numpy as np

from privbounds.figures.common import (
    band,
    bound_label,
    bound_line,
    claim_bound,
    exponent_text,
    select,
    shades,
    sweep,
)
from privbounds.figures.ticks import measured_ticks  # noqa: F401  (the paper's plotters import it from here)
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


def draw_claim(ax, theorem, record, claim, x, y, color, text, style="--", marker=None):
    """A claim's bound as a line (dashed in the learner's colour by default); with
    ``marker``, the learner's marker hollow at a few places along it, so that bounds of
    two learners that coincide stay apart (in greyscale too)."""
    label = claim_label(theorem, record, claim, text)
    if marker is None:
        bound_line(ax, x, y, color, label, style)
        return
    order = np.argsort(x)
    ax.plot(np.asarray(x)[order], np.asarray(y)[order], style, color=color, label=label, linewidth=1.6,
            marker=marker, markersize=6, markerfacecolor="none", markevery=max(1, len(order) // 5))


def fit_text(record: Record, claim: str) -> str:
    """The fitted exponent of a scaling claim, for a series' label ("" if no such claim)."""
    v = verdict_of(record, claim)
    return f" ({exponent_text(v)})" if v else ""


def rules_against_k(ax, theorem, record, sanitizer: str | None, claim: str, bound_name: str, **where) -> dict | None:
    """n_hat against k for each composition rule (basic, advanced) of a k-learner, in the
    learner's style (``sanitizer`` None: the direct sum; else "Alg 2 + <sanitizer>"), with
    the claim's own bound (``claim`` may hold ``{rule}``) swept over k, dashed in the same
    colour. Log-log axes over k; returns the first point drawn (None if none)."""
    first = None
    for rule in ("basic", "advanced"):
        pts = select(record, rule=rule, **where)
        if not pts:
            continue
        name = f"direct sum, {rule}" if sanitizer is None else f"Alg 2 + {sanitizer}, {rule}"
        s = style(name)
        p0 = pts[0].point
        first = first or p0
        ks = [p.point["k"] for p in pts]
        band(ax, ks, pts, s["color"], f"{name}{fit_text(record, f'scaling-k-{rule}')}", s["marker"])
        kk = np.unique(np.geomspace(min(ks), max(ks), 30).round().astype(int))
        cid = claim.format(rule=rule)
        draw_claim(ax, theorem, record, cid, kk, sweep(claim_bound(theorem, cid), p0, "k", kk), s["color"],
                   f"{bound_name} for {name}", marker=s["marker"])
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("number of concepts k")
    return first
