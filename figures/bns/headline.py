"""The headline figures of Bun, Nissim, Stemmer, "Simultaneous Private Learning of
Multiple Concepts": for each class (POINT, THRESH, PAR), n_hat against k for every
k-learner we have on it - non-private ERM (Cor 2.12), direct sums with basic and
advanced composition (Obs 3.2, Cor 3.3, 3.4, Ex 3.5), the generic learner through one
sanitization (Alg 2: Cor 3.9, 3.10) and the stability-based learners (Alg 4, 5:
Thm 3.12, 3.13) - each with its interval band and, dashed, its bound. The paper's
direct-sum story in one picture per class: pure privacy pays k, advanced composition
sqrt(k), and approximate privacy with stability nothing.

Series come from different theorems' experiments (instances, alpha and eps differ; the
legend says which), so the picture compares growth in k, not absolute levels.
"""

from __future__ import annotations

import numpy as np

from privbounds.bounds import bns
from privbounds.figures.common import PALETTE, new_figure, save_named

ALPHA_BETA = lambda p: (p.get("alpha", 0.25), p.get("beta", 0.25))  # noqa: E731

# (theorem id, point filter, label, bound at a point or None)
SERIES = {
    "POINT": [
        ("bns.cor2_12", {"class": "point"}, "non-private ERM (Cor 2.12), realizable",
         lambda p: bns.n_nonprivate_k_learner(1, p["k"], p["alpha"], p["beta"])),
        ("bns.cor3_4", {"rule": "basic", "d": 10}, "direct sum, basic (Cor 3.4), agnostic",
         lambda p: bns.n_direct_sum_agnostic(2 ** p["d"], p["k"], "basic", p["alpha"], p["epsilon"], p["delta"], p["beta"])),
        ("bns.cor3_4", {"rule": "advanced", "d": 10}, "direct sum, advanced (Cor 3.4), agnostic",
         lambda p: bns.n_direct_sum_agnostic(2 ** p["d"], p["k"], "advanced", p["alpha"], p["epsilon"], p["delta"], p["beta"])),
        ("bns.cor3_3", {"d": 16}, "hash-learner direct sum, pure (Cor 3.3), agnostic", None),
        ("bns.cor3_9", {"rule": "basic", "d": 10}, "Alg 2 + Alg 1, basic (Cor 3.9), agnostic",
         lambda p: bns.n_alg2_points(p["k"], "basic", p["alpha"], p["epsilon"], p["delta"], p["beta"])),
        ("bns.cor3_9", {"rule": "advanced", "d": 10}, "Alg 2 + Alg 1, advanced (Cor 3.9), agnostic",
         lambda p: bns.n_alg2_points(p["k"], "advanced", p["alpha"], p["epsilon"], p["delta"], p["beta"])),
        ("bns.thm3_13", {"d": 10}, "Alg 5, stability (Thm 3.13), realizable",
         lambda p: bns.n_alg5_points(p["alpha"], p["epsilon"], p["delta"], p["beta"])),
    ],
    "THRESH": [
        ("bns.cor2_12", {"class": "thresh"}, "non-private ERM (Cor 2.12), realizable",
         lambda p: bns.n_nonprivate_k_learner(1, p["k"], p["alpha"], p["beta"])),
        ("bns.obs3_2", {"rule": "basic"}, "direct sum, basic (Obs 3.2), realizable cluster",
         lambda p: bns.n_direct_sum(2 ** p["d"] + 1, p["epsilon"], p["k"], "basic", p["delta"], p["alpha"], p["beta"])),
        ("bns.obs3_2", {"rule": "advanced"}, "direct sum, advanced (Obs 3.2), realizable cluster",
         lambda p: bns.n_direct_sum(2 ** p["d"] + 1, p["epsilon"], p["k"], "advanced", p["delta"], p["alpha"], p["beta"])),
        ("bns.cor3_10", {"rule": "basic"}, "Alg 2 + tree, basic (Cor 3.10), agnostic",
         lambda p: bns.n_alg2_thresholds(p["k"], "basic", p["alpha"], p["epsilon"], p["delta"], p["beta"], 2 ** p["d"])),
        ("bns.cor3_10", {"rule": "advanced"}, "Alg 2 + tree, advanced (Cor 3.10), agnostic",
         lambda p: bns.n_alg2_thresholds(p["k"], "advanced", p["alpha"], p["epsilon"], p["delta"], p["beta"],
                                         2 ** p["d"])),
    ],
    "PAR": [
        ("bns.cor2_12", {"class": "par"}, "non-private ERM (Cor 2.12), d = 10",
         lambda p: bns.n_nonprivate_k_learner(p["d"], p["k"], p["alpha"], p["beta"])),
        ("bns.ex3_5", {"d": 8}, "direct sum, pure (Ex 3.5), d = 8",
         lambda p: bns.n_parity_direct_sum(p["k"], p["d"], p["epsilon"], p["alpha"], p["beta"])),
        ("bns.thm3_12", {"d": 10}, "Alg 4, stability (Thm 3.12), d = 10",
         lambda p: bns.n_alg4_parities(p["d"], p["epsilon"], p["delta"], p["beta"])),
    ],
}
MARKERS = "os^vDP*X"

# Lower bounds drawn as solid grey lines over the whole k range (eps = 1, beta = 0.1,
# alpha = 0.1): who they bind is in the label. The fingerprinting bounds are for PAC
# learners, so they are divided by Thm 2.24's factor 9.
LOWER = {
    "POINT": [("Thm 5.1 packing, pure DP only", lambda k: bns.packing_lower_bound(k, 1.0, 0.1), "-"),
              ("Cor 4.10 / 9, agnostic (eps, delta)-DP PAC",
               lambda k: bns.rows_lb_agnostic(k, 0.1, 1.0, 1e-7, 0.1) / 9, ":")],
    "THRESH": [("Thm 5.1 packing, pure DP only", lambda k: bns.packing_lower_bound(k, 1.0, 0.1), "-"),
               ("Cor 4.6 / 9, (eps, delta)-DP PAC", lambda k: bns.rows_lb_thresh(k, 0.1, 1.0, 1e-7, 0.1) / 9, ":")],
    "PAR": [("Thm 5.4 packing (d = 8), pure DP only", lambda k: bns.parity_packing_lower_bound(k, 8, 1.0, 0.1), "-")],
}


def theorem_ids() -> set[str]:
    return {tid for series in SERIES.values() for tid, *_ in series}


def plot(records: dict, out) -> list:
    """One figure per class from whatever results ``records`` (id -> result) holds;
    classes with no series are skipped."""
    paths = []
    for cls, series in SERIES.items():
        fig, (ax,) = new_figure(1, width=8.2, height=8.0)
        drawn = 0
        for i, (tid, where, label, bound) in enumerate(series):
            rec = records.get(tid)
            if rec is None:
                continue
            pts = [p for p in rec["points"] if all(p["point"].get(k) == v for k, v in where.items())
                   and "n_hat" in p and p["point"].get("k") is not None]
            pts = sorted(pts, key=lambda p: p["point"]["k"])
            if len(pts) < 2:
                continue
            color = PALETTE[i % len(PALETTE)]
            k = np.array([p["point"]["k"] for p in pts], float)
            nh = np.array([p["n_hat"] or np.nan for p in pts], float)
            lo = np.array([p["n_low"] or np.nan for p in pts], float)
            hi = np.array([p["n_high"] or np.nan for p in pts], float)
            ax.fill_between(k, lo, np.where(np.isnan(hi), lo, hi), color=color, alpha=0.2, linewidth=0)
            ax.plot(k, nh, "-", marker=MARKERS[i % len(MARKERS)], color=color, markersize=5, label=label)
            if bound is not None:
                ax.plot(k, [float(bound(p["point"])) for p in pts], "--", color=color, linewidth=1.0, alpha=0.8)
            drawn += 1
        if not drawn:
            import matplotlib.pyplot as plt
            plt.close(fig)
            continue
        ax.plot([], [], "--", color="gray", label="dashed: each learner's bound (same colour)")
        ks = np.unique(np.round(np.geomspace(1, max(ax.get_xlim()[1], 2), 80)))
        for label, fn, style in LOWER[cls]:
            y = np.asarray(fn(ks), float)
            keep = y >= 1                      # below one row a lower bound says nothing
            if keep.any():
                ax.plot(ks[keep], y[keep], style, color="0.35", linewidth=1.6, label=f"lower bound: {label}")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("number of concepts k")
        ax.set_ylabel("rows needed, n_hat (all k concepts learned w.p. >= 1 - beta)")
        ax.set_title(f"{cls}: every k-learner we have (bands: 95% intervals of n_hat)", fontsize=10)
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=1, frameon=False)
        fidelities = sorted({records[t]["fidelity"] for t, *_ in series if t in records})
        paths += save_named(fig, f"paper-bns-{cls.lower()}",
                            f"Bun, Nissim, Stemmer: k-learning {cls} ({', '.join(fidelities)} fidelity)", out)
    return paths
