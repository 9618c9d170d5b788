"""Figures for Bun-Nissim-Stemmer Section 5 (pure-DP packing bounds); every bound line
is the bound of one of the theorem's own claims:

- Remark 5.2: n_hat against k per alpha over the bound (k ln 2 + ln(1/2 - beta))/(4 alpha eps)
  (left); n_hat against alpha at one k (right); claim lower-nhat.
- Lemma 5.3: failure probability of rounding to the nearest parity against the fraction
  of corrupted points, random and worst-case corruption, with the 1/4 threshold (left);
  n_hat of an improper pure-DP parity learner and of its rounding over Thm 5.4 (right;
  claims lower-thm5_4-histogram and lower-thm5_4-histogram-rounded, one bound).
- Theorem 5.4: n_hat of the pure direct sum over PAR_d against k per d over the bound
  (k d ln 2 + ln(1 - beta))/eps (left); against d ln 2 + ln(2k/beta) at one k (right);
  claim lower-nhat.
"""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import FormatStrFormatter

from privbounds.figures.bns.style import claim_label, draw_claim, style, variants
from privbounds.figures.common import (
    PALETTE,
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
from privbounds.record import verdict_text
from privbounds.results import load_rows

MARKERS = "osD^v"
LEARNER = "direct sum, basic"      # Rem 5.2: basic composition of pure eps/k learners over POINT_4
PAR_LEARNER = "direct sum, pure"   # Thm 5.4: the pure direct sum over PAR_d (as in Ex 3.5)


def _loglog(ax, xlabel, ylabel, title, base=2):
    ax.set_xscale("log", base=base)
    ax.set_yscale("log")
    if base == 10:  # narrow ranges: label the minor ticks plainly (7, 8, 9 rather than 7x10^0)
        ax.xaxis.set_minor_formatter(FormatStrFormatter("%g"))
        ax.xaxis.set_major_formatter(FormatStrFormatter("%g"))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    legend(ax)


def plot_rem5_2(theorem, record, out):
    sim = theorem.simulator
    fig, (ax1, ax2) = new_figure(2, height=7.2)
    alphas = sorted({p.point["alpha"] for p in record.points})
    alphas = [a for a in alphas if len({p.point["k"] for p in select(record, alpha=a)}) >= 2]
    # one learner (the pure direct sum) at several alpha: its hue, darkest at the smallest alpha
    for i, (a, st) in enumerate(zip(alphas, variants(LEARNER, len(alphas)))):
        pts = select(record, alpha=a)
        p0 = pts[0].point
        color = st["color"]
        ids = [v.claim for v in record.verdicts]
        sid = f"scaling-k-alpha{a:g}"
        fit = exponent_text(verdict(record, sid)) if sid in ids else "no fit"
        band(ax1, [p.point["k"] for p in pts], pts, color, f"{LEARNER}, alpha = {a:g} ({fit})", st["marker"])
        ks = np.geomspace(1, max(p.point["k"] for p in pts), 40)
        lb = sweep(claim_bound(theorem, "lower-nhat"), p0, "k", ks)
        label = "lower bound (k ln2 + ln(1/2 - beta))/(4 alpha eps)" if i == 0 else "lower bound"
        draw_claim(ax1, theorem, record, "lower-nhat", ks[lb >= 1], lb[lb >= 1], color, f"{label}, alpha = {a:g}")
    _loglog(ax1, "number of concepts k", "n_hat (every h_j alpha-accurate)", "direct sum over POINT_4, eps = 1")
    pts = select(record, k=sim.K_FOR_ALPHA)
    if len(pts) > 1:
        p0 = pts[0].point
        st = style(LEARNER)
        band(ax2, [p.point["alpha"] for p in pts], pts, st["color"],
             f"{LEARNER}, k = {sim.K_FOR_ALPHA} ({exponent_text(verdict(record, 'scaling-alpha'))})", st["marker"])
        aa = np.geomspace(min(p.point["alpha"] for p in pts), max(p.point["alpha"] for p in pts), 40)
        draw_claim(ax2, theorem, record, "lower-nhat", aa, sweep(claim_bound(theorem, "lower-nhat"), p0, "alpha", aa),
                   st["color"], "Rem 5.2 lower bound")
        _loglog(ax2, "accuracy alpha (P(x0) = 2 alpha)", "n_hat", "growth like 1/alpha")
    return save(fig, record, out)


def plot_lem5_3(theorem, record, out):
    fig, (ax1, ax2) = new_figure(2, height=7.0)
    rows = load_rows(out, record.id)
    curves = rows[rows["experiment"] == "curve"]
    v = verdict(record, "ceiling-rounding")
    for i, ((corr, d), g) in enumerate(curves.groupby(["corruption", "d"])):
        g = g.sort_values("n")
        f = g["n"] / 2.0 ** d
        color = PALETTE[i % len(PALETTE)]
        ax1.fill_between(f, g["ci_low"], g["ci_high"], color=color, alpha=0.12, linewidth=0)
        ax1.plot(f, g["p_hat"], "-", marker=MARKERS[i % len(MARKERS)], color=color, markersize=4,
                 label=f"{corr} corruption, d = {int(d)} ({int(g['trials'].iloc[0])} trials per point)")
    ax1.axvline(0.25, color="k", linestyle="--", linewidth=1.2, label="f = 1/4: below it rounding is exact")
    ax1.axhline(1e-3, color="gray", linestyle=":", linewidth=1.2, label="ceiling 1e-3 claimed for f < 1/4")
    ax1.set_yscale("symlog", linthresh=1e-3)
    ax1.set_ylim(0, 1.2)
    ax1.set_xlabel("fraction of corrupted points f = m / 2^d")
    ax1.set_ylabel("P(rounding misses the target)")
    ax1.set_title(f"rounding a corrupted parity; ceiling: {v.verdict}", fontsize=10)
    legend(ax1)
    for learner, name in (("histogram", "noisy-sign histogram"), ("histogram-rounded", "noisy-sign histogram, rounded")):
        pts = select(record, experiment="search", learner=learner)
        if not pts:
            continue
        label = "improper noisy-sign histogram, all errors <= alpha" if learner == "histogram" \
            else "the same rounded to parities, all exact"
        st = style(name)
        band(ax2, [p.point["k"] for p in pts], pts, st["color"], label, st["marker"])
    pts = select(record, experiment="search")
    if pts:
        p0 = pts[0].point
        ks = np.geomspace(1, max(p.point["k"] for p in pts), 40)
        # both learners' claims (lower-thm5_4-histogram, -histogram-rounded) share this bound
        lb = sweep(claim_bound(theorem, "lower-thm5_4-histogram"), p0, "k", ks)
        bound_line(ax2, ks, np.maximum(lb, 1), "k",
                   claim_label(theorem, record, "lower-thm5_4-histogram",
                               "Thm 5.4 lower bound (k d ln2 + ln(1 - beta))/eps, both learners; also claim "
                               f"{verdict_text(verdict(record, 'lower-thm5_4-histogram-rounded'))}"), "-")
        _loglog(ax2, "number of concepts k", "n_hat",
                f"PAR_{p0['d']}, pure eps = {p0['epsilon']}, alpha = {p0['alpha']}, beta = {p0['beta']}")
    return save(fig, record, out)


def plot_thm5_4(theorem, record, out):
    sim = theorem.simulator
    fig, (ax1, ax2) = new_figure(2, height=7.0)
    eps = beta = None
    dims = [d for d in (4, 6, 8) if len({p.point["k"] for p in select(record, d=d)}) >= 2]
    # one learner (the pure direct sum) on PAR_d for several d: its hue, darkest at the smallest d
    for d, st in zip(dims, variants(PAR_LEARNER, len(dims))):
        pts = select(record, d=d)
        p0 = pts[0].point
        eps, beta = p0["epsilon"], p0["beta"]
        band(ax1, [p.point["k"] for p in pts], pts, st["color"],
             f"{PAR_LEARNER}, PAR_{d} ({exponent_text(verdict(record, f'scaling-k-d{d}'))})", st["marker"])
        ks = np.geomspace(1, max(p.point["k"] for p in pts), 40)
        draw_claim(ax1, theorem, record, "lower-nhat", ks, sweep(claim_bound(theorem, "lower-nhat"), p0, "k", ks),
                   st["color"], f"Thm 5.4 bound (k d ln2 + ln(1-beta))/eps, d = {d}")
    _loglog(ax1, "number of concepts k", "n_hat (all k parities exact w.p. >= 1 - beta)",
            f"pure eps = {eps}, beta = {beta}")
    pts = select(record, k=sim.K_FOR_D)
    if len(pts) > 1:
        p0 = pts[0].point
        x = [p.point["d"] * np.log(2) + np.log(2 * sim.K_FOR_D / p.point["beta"]) for p in pts]
        st = style(PAR_LEARNER)
        band(ax2, x, pts, st["color"], f"{PAR_LEARNER}, k = {sim.K_FOR_D} ({exponent_text(verdict(record, 'scaling-d'))})",
             st["marker"])
        dd = np.arange(min(p.point["d"] for p in pts), max(p.point["d"] for p in pts) + 1)
        xx = dd * np.log(2) + np.log(2 * sim.K_FOR_D / p0["beta"])
        lb = sweep(claim_bound(theorem, "lower-nhat"), p0, "d", dd)
        bound_line(ax2, xx, lb, "k", claim_label(theorem, record, "lower-nhat", "Thm 5.4 lower bound"), "-")
        for di, xi, yi in zip(dd, xx, lb):
            ax2.annotate(f"d={di}", (xi, yi), fontsize=8, textcoords="offset points", xytext=(0, -11), ha="center")
        _loglog(ax2, "d ln 2 + ln(2k/beta)", "n_hat", "growth in d", base=10)
    return save(fig, record, out)
