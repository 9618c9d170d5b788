"""Figure for Bun-Nissim-Stemmer Theorem 5.1 (packing): n_hat of every pure-DP k-learner
against k over the lower bound (left); measured success probability against n under
the ceiling e^(eps n) / 2^k (right)."""

from __future__ import annotations

import numpy as np

from privbounds.bounds import bns
from privbounds.results import load_rows

from .common import PALETTE, band, bound_line, exponent_text, legend, new_figure, save, select, verdict


def plot(theorem, record, out):
    fig, (ax1, ax2) = new_figure(2, height=7.2)
    eps, beta = None, None
    for i, d in enumerate((1, 4)):
        pts = select(record, experiment="search", d=d)
        if not pts:
            continue
        eps, beta = pts[0]["point"]["epsilon"], pts[0]["point"]["beta"]
        band(ax1, [p["point"]["k"] for p in pts], pts, PALETTE[i],
             f"direct sum, POINT_{d} ({exponent_text(verdict(record, f'scaling-k-d{d}'))})", "os"[i])
    ks = np.geomspace(1, max(p["point"]["k"] for p in select(record, experiment="search")), 40)
    bound_line(ax1, ks, np.maximum(bns.packing_lower_bound(ks, eps, beta), 0.5), "k",
               "lower bound (k ln2 + ln(1 - beta))/eps", "-")
    ax1.set_xscale("log", base=2)
    ax1.set_yscale("log")
    ax1.set_xlabel("number of concepts k")
    ax1.set_ylabel("rows needed, n_hat")
    ax1.set_title(f"pure eps-DP, eps = {eps}, beta = {beta}", fontsize=10)
    legend(ax1)

    rows = load_rows(out, record["id"])
    curves = rows[rows["experiment"] == "curve"]
    v = verdict(record, "ceiling-success")
    conf = {(d["point"]["d"], d["point"]["k"], d["n"]): d for d in v["details"]}
    for i, ((d, k), g) in enumerate(curves.groupby(["d", "k"])):
        g = g.sort_values("n")
        lo = [conf.get((d, k, n), {}).get("p_low", np.nan) for n in g["n"]]
        hi = [conf.get((d, k, n), {}).get("p_high", np.nan) for n in g["n"]]
        color = PALETTE[i % len(PALETTE)]
        ax2.fill_between(g["n"], lo, hi, color=color, alpha=0.25, linewidth=0)
        ax2.plot(g["n"], g["p_hat"], "o-", color=color, markersize=3, label=f"measured, POINT_{d}, k = {k}")
        if d == curves["d"].min():  # the ceiling depends on k and eps only
            eps_c = float(g["epsilon"].iloc[0])
            ns = np.linspace(0, g["n"].max(), 100)
            ax2.plot(ns, bns.packing_success_ceiling(ns, k, eps_c), "--", color="k",
                     linewidth=1 + 0.6 * (k > 4), label=f"ceiling e^(eps n)/2^{k}")
    ax2.set_yscale("log")
    ax2.set_xlabel("rows n")
    ax2.set_ylabel("success probability p(n)")
    ax2.set_title(f"success on the packing instance, eps = {curves['epsilon'].iloc[0] if len(curves) else ''}; "
                  f"verdict: {v['verdict']}", fontsize=10)
    legend(ax2, sort=True)
    return save(fig, record, out)
