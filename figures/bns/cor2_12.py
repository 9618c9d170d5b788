"""Figure for Bun-Nissim-Stemmer Corollary 2.12 (non-private k-learning): n_hat of
consistent ERM against k, log-log, over its claim's bound (upper-erm-<class>); nearly
flat in k."""

from __future__ import annotations

import numpy as np

from privbounds.figures.bns.style import claim_label, variants
from privbounds.figures.common import (
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


def plot(theorem, record, out):
    fig, (ax,) = new_figure(1, width=7.5, height=6.6)
    classes = (("thresh", "THRESH"), ("point", "POINT"), ("par", "PAR"))
    # one learner (non-private ERM) on three classes: its colour in three greys, three markers
    for (cls, name), st in zip(classes, variants("non-private ERM", len(classes))):
        pts = select(record, **{"class": cls})
        if not pts:
            continue
        p0 = pts[0].point
        vc = p0["d"] if cls == "par" else 1  # VC(PAR_d) = d, VC(THRESH) = VC(POINT) = 1
        ks = [p.point["k"] for p in pts]
        band(ax, ks, pts, st["color"],
             f"non-private ERM, {name}_{p0['d']} ({exponent_text(verdict(record, f'scaling-k-{cls}'))})", st["marker"])
        kk = np.geomspace(min(ks), max(ks), 40)
        bound_line(ax, kk, sweep(claim_bound(theorem, f"upper-erm-{cls}"), p0, "k", kk), st["color"],
                   claim_label(theorem, record, f"upper-erm-{cls}", f"Cor 2.12 bound for ERM on {name} (VC = {vc})"))
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("number of concepts k")
    ax.set_ylabel("rows needed, n_hat (all k accurate w.p. >= 1 - beta)")
    ax.set_title(f"non-private ERM; THRESH, PAR: uniform D; POINT: 8 points of mass 1/8; "
                 f"alpha = {p0['alpha']}, beta = {p0['beta']}", fontsize=10)
    legend(ax)
    return save(fig, record, out)
