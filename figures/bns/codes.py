"""Figures for the fingerprinting codes of Bun, Nissim, Stemmer, "Simultaneous Private
Learning of Multiple Concepts": Lemma 4.5 (Boneh-Shaw) and Proposition 4.9 (Tardos).

The main figure has one panel per number of users and bounded event (two to a row): the
measured completeness failure (feasible word, nobody accused) and false-accusation rates
against the coalition size, one series per pirate strategy (slightly offset sideways so
that coinciding zeros stay visible), with simultaneous Clopper-Pearson intervals
(Bonferroni over the claim) and the ceiling xi. A second figure (part "truncated") draws
the truncated-code curves: how often someone guilty is traced, and how often an innocent
is accused, against the fraction of the stated code length.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privbounds.figures.common import PALETTE, interval_fill, legend, new_figure, save
from privbounds.record import verdict_text
from privbounds.results import load_rows

STRATEGY_ORDER = ("majority", "minority", "random", "interleaving", "ones", "zeros")
MARKERS = dict(zip(STRATEGY_ORDER, "osD^vP"))
EVENT_TEXT = {"completeness": "completeness failure: P[feasible word, nobody accused]",
              "soundness": "soundness failure: P[innocent user accused]"}


def _color(strategy):
    return PALETTE[STRATEGY_ORDER.index(strategy) % len(PALETTE)] if strategy in STRATEGY_ORDER else "k"


def _details(record, claim):
    """The claim's result and its details (None and no details if the record lacks it)."""
    for v in record.verdicts:
        if v.claim == claim:
            return v, v.details
    return None, ()


def _coalition_panel(ax, details, users, length_text, event, verdict):
    ds = [d for d in details if d.point["users"] == users]
    sizes = sorted({d.n for d in ds})
    strategies = [s for s in STRATEGY_ORDER if any(d.point["strategy"] == s for d in ds)]
    width = 0.6
    ymax = 0.0
    for i, s in enumerate(strategies):
        pts = sorted((d for d in ds if d.point["strategy"] == s), key=lambda d: d.n)
        x = np.array([sizes.index(d.n) for d in pts]) + (i - (len(strategies) - 1) / 2) * width / max(1, len(strategies))
        y = np.array([d.p_hat for d in pts])
        lo, hi = np.array([d.p_low for d in pts]), np.array([d.p_high for d in pts])
        ax.errorbar(x, y, yerr=[y - lo, hi - y], fmt=MARKERS.get(s, "o"), color=_color(s), markersize=5,
                    capsize=2, linewidth=1.2, label=s)
        ymax = max(ymax, hi.max(initial=0))
    xi = ds[0].ceiling if ds else 0.1
    ax.axhline(xi, color="0.25", linestyle="--", linewidth=1.4, label=f"ceiling xi = {xi:g}")
    ax.set_xticks(range(len(sizes)), [str(s) for s in sizes])
    ax.set_ylim(-0.005, max(1.35 * xi, 1.1 * ymax))
    ax.set_xlabel("coalition size |S|")
    ax.set_ylabel("probability")
    trials = min((d.trials for d in ds), default=0)
    ax.set_title(f"n = {users} users, {length_text}\n{EVENT_TEXT[event]}\n"
                 f"claim {verdict}; >= {trials} trials per point", fontsize=9)


def _coalition_grid(record, claims, length_text):
    """The coalition panels, one per (claim, number of users), two to a row; one legend
    for the strategies, below the last panel."""
    panels = [(c, ev) for c, ev in claims if _details(record, c)[0] is not None]
    users = sorted({d.point["users"] for c, _ in panels for d in _details(record, c)[1]})
    cells = [(claim, event, u) for claim, event in panels for u in users]
    fig, axes = new_figure(max(1, len(cells)), height=4.4)
    for ax, (claim, event, u) in zip(axes, cells):
        v, details = _details(record, claim)
        _coalition_panel(ax, details, u, length_text(u), event, v.verdict)
    if cells:
        legend(axes[-1], ncol=2)
    return fig


def _save(fig, record, out, part=None, what=""):
    return save(fig, record, out, part=part, intervals="ceilings", what=what)


def _length_figure(record, out, full_length, coalition_text, xlog=False):
    """Part "truncated": the truncated-code curves, two panels side by side."""
    fig, (ax_t, ax_s) = new_figure(2, height=5.0)
    _length_panels(ax_t, ax_s, record, out, full_length, coalition_text, xlog)
    return _save(fig, record, out, part="truncated", what=f"truncated code, {coalition_text}, same tracer")


def _length_panels(ax_t, ax_s, record, out, full_length, coalition_text, xlog=False):
    """Truncated-code curves against k / stated length, one colour per number of users:
    P[someone guilty accused] (from the results table; no claim) and P[innocent accused]
    (the truncated-soundness claim). Thin lines: each pirate strategy; bold: the worst
    pirate at each length (lowest traced rate, highest false-accusation rate)."""
    rows = load_rows(out, record.id)
    rows = rows[rows["part"] == "length"] if "part" in rows else rows.iloc[0:0]
    v, details = _details(record, "ceiling-soundness-truncated")
    soundness = pd.DataFrame([{**d.point, "n": d.n, "p_hat": d.p_hat, "ci_low": d.p_low,
                               "ci_high": d.p_high} for d in details])
    traced = rows[rows["event"] == "traced"]
    for ax, table, worst in ((ax_t, traced, "min"), (ax_s, soundness, "max")):
        for ui, u in enumerate(sorted(table["users"].unique()) if len(table) else []):
            color = PALETTE[ui % len(PALETTE)]
            sub = table[table["users"] == u]
            full = full_length(int(u))
            n_strategies = sub["strategy"].nunique()
            for _, g in sub.groupby("strategy"):
                g = g.sort_values("n")
                ax.plot(g["n"] / full, g["p_hat"], "-", color=color, alpha=0.35, linewidth=0.8)
            pick = sub.loc[sub.groupby("n")["p_hat"].idxmin() if worst == "min" else sub.groupby("n")["p_hat"].idxmax()]
            pick = pick.sort_values("n")
            x = pick["n"].to_numpy() / full
            interval_fill(ax, x, pick["ci_low"], pick["ci_high"], color=color, alpha=0.18, linewidth=0)
            ax.plot(x, pick["p_hat"], "-", marker="osD^v"[ui % 5], color=color, linewidth=2, markersize=5,
                    label=f"n = {u} users: worst of {n_strategies} pirates (thin: each)")
    trials = int(rows["trials"].min()) if len(rows) else 0
    for ax in (ax_t, ax_s):
        ax.axvline(1.0, color="0.4", linewidth=1, linestyle="-.", label="the stated code length")
        if xlog:
            ax.set_xscale("log", base=2)
        ax.set_xlabel("code length k as a fraction of the stated length")
        ax.set_ylabel("probability")
    ax_t.set_ylim(-0.02, 1.02)
    ax_t.set_title(f"P[someone guilty accused] (no claim)\n{trials} trials per point; bands: "
                   "Clopper-Pearson (Bonferroni)", fontsize=9)
    xi = details[0].ceiling if details else 0.1  # the claim's ceiling, as judged
    ax_s.axhline(xi, color="0.25", linestyle="--", linewidth=1.4,
                 label=f"ceiling xi = {xi:g} at every length\n"
                       f"(claim {verdict_text(v) if v else 'ceiling-soundness-truncated: not run'})")
    ax_s.set_ylim(-0.005, 1.35 * xi)
    ax_s.set_title("P[innocent accused]", fontsize=9)
    legend(ax_t)
    legend(ax_s)


def plot(theorem, record, out):
    """Bespoke: the part "truncated" draws, at each code length, the worst of the pirate
    strategies from the results rows (the traced rate no claim judges); the main figure
    offsets the strategies sideways so that coinciding zeros stay visible."""
    length_text, full_length, coalition, xlog = _code(theorem.id, record)
    fig = _coalition_grid(record, [("ceiling-completeness", "completeness"),
                                   ("ceiling-soundness", "soundness")], length_text)
    paths = _save(fig, record, out)
    return paths + _length_figure(record, out, full_length, coalition, xlog=xlog)


def _code(theorem_id, record):
    """The code of the entry: its length text per number of users, its stated length, the
    coalition of the truncated part, and whether that part's x axis is logarithmic."""
    if theorem_id == "bns.lem4_5":  # Boneh-Shaw
        from privbounds.simulators.bns.fingerprint import block_length

        def length_text(u):
            pts = [p.point for p in record.points if p.point["users"] == u]
            d = block_length(u, pts[0]["xi"] if pts else 0.1)
            return f"d = {d}, k = {(u - 1) * d} columns"

        return length_text, lambda u: (u - 1) * block_length(u, 0.1), "|S| = n/2", True
    from privbounds.simulators.bns.tardos import code_length, threshold  # Tardos (Prop 4.9)

    return (lambda u: f"k = {code_length(u, 0.1)} columns, Z = {threshold(u, 0.1):g}",
            lambda u: code_length(u, 0.1), "full collusion |S| = n", False)
