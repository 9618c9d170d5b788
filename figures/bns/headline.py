"""The headline figures of Bun, Nissim, Stemmer, "Simultaneous Private Learning of
Multiple Concepts": for each class (POINT, THRESH, PAR), n_hat against k for every
k-learner we have on it - non-private ERM (Cor 2.12), direct sums with basic and
advanced composition (Obs 3.2, Cor 3.3, 3.4, Ex 3.5), the generic learner through one
sanitization (Alg 2: Cor 3.9, 3.10) and the stability-based learners (Alg 4, 5:
Thm 3.12, 3.13) - each with its interval band and, dashed, its bound: the bound of the
upper-bound claim of the theorem the series comes from, at each measured point (Cor 3.3
has none: its constant is hidden). The paper's direct-sum story in one picture per
class: pure privacy pays k, advanced composition sqrt(k), and approximate privacy with
stability nothing. Solid grey: the lower-bound claims of Thm 5.1, 5.4 and Cor 4.6, 4.10,
evaluated at one fixed parameter point over the whole k range.

Series come from different theorems' experiments (instances, alpha and eps differ; the
legend says which), so the picture compares growth in k, not absolute levels.
"""

from __future__ import annotations

import numpy as np

from privbounds.figures.common import PALETTE, claim_bound, new_figure, save_named, sweep
from privbounds.registry import get

# (theorem id, point filter, label, id of the theorem's upper-bound claim drawn dashed, or None)
SERIES = {
    "POINT": [
        ("bns.cor2_12", {"class": "point"}, "non-private ERM (Cor 2.12), realizable", "upper-erm-point"),
        ("bns.cor3_4", {"rule": "basic", "d": 10}, "direct sum, basic (Cor 3.4), agnostic", "upper"),
        ("bns.cor3_4", {"rule": "advanced", "d": 10}, "direct sum, advanced (Cor 3.4), agnostic", "upper"),
        ("bns.cor3_3", {"d": 16}, "hash-learner direct sum, pure (Cor 3.3), agnostic", None),
        ("bns.cor3_9", {"rule": "basic", "d": 10}, "Alg 2 + Alg 1, basic (Cor 3.9), agnostic", "upper"),
        ("bns.cor3_9", {"rule": "advanced", "d": 10}, "Alg 2 + Alg 1, advanced (Cor 3.9), agnostic", "upper"),
        ("bns.thm3_13", {"d": 10}, "Alg 5, stability (Thm 3.13), realizable", "upper"),
    ],
    "THRESH": [
        ("bns.cor2_12", {"class": "thresh"}, "non-private ERM (Cor 2.12), realizable", "upper-erm-thresh"),
        ("bns.obs3_2", {"rule": "basic"}, "direct sum, basic (Obs 3.2), realizable cluster", "upper-basic"),
        ("bns.obs3_2", {"rule": "advanced"}, "direct sum, advanced (Obs 3.2), realizable cluster", "upper-advanced"),
        ("bns.cor3_10", {"rule": "basic"}, "Alg 2 + tree, basic (Cor 3.10), agnostic", "upper"),
        ("bns.cor3_10", {"rule": "advanced"}, "Alg 2 + tree, advanced (Cor 3.10), agnostic", "upper"),
    ],
    "PAR": [
        ("bns.cor2_12", {"class": "par"}, "non-private ERM (Cor 2.12), d = 10", "upper-erm-par"),
        ("bns.ex3_5", {"d": 8}, "direct sum, pure (Ex 3.5), d = 8", "upper"),
        ("bns.thm3_12", {"d": 10}, "Alg 4, stability (Thm 3.12), d = 10", "upper"),
    ],
}
MARKERS = "os^vDP*X"

# Lower bounds drawn as solid grey lines over the whole k range: (label, theorem id, id of
# its lower-bound claim, the parameter point other than k, divisor, style); who they bind
# is in the label. The fingerprinting bounds are for empirical learners: a PAC learner on
# n samples gives one on 9n rows (Thm 2.24), so they are divided by 9.
_LB_POINT = {"alpha": 0.1, "epsilon": 1.0, "delta": 1e-7, "beta": 0.1}
LOWER = {
    "POINT": [("Thm 5.1 packing, pure DP only", "bns.thm5_1", "lower-nhat", {"epsilon": 1.0, "beta": 0.1}, 1, "-"),
              ("Cor 4.10 / 9, agnostic (eps, delta)-DP PAC", "bns.cor4_10", "lower-rows", _LB_POINT, 9, ":")],
    "THRESH": [("Thm 5.1 packing, pure DP only", "bns.thm5_1", "lower-nhat", {"epsilon": 1.0, "beta": 0.1}, 1, "-"),
               ("Cor 4.6 / 9, (eps, delta)-DP PAC", "bns.cor4_6", "lower-rows", _LB_POINT, 9, ":")],
    "PAR": [("Thm 5.4 packing (d = 8), pure DP only", "bns.thm5_4", "lower-nhat",
             {"d": 8, "epsilon": 1.0, "beta": 0.1}, 1, "-")],
}


CAPTION = ("Every k-learner we have on each class, its measured sample complexity n_hat with its interval "
           "band and, dashed in the same colour, its bound. The series come from different theorems' "
           "experiments, so compare growth in k, not absolute levels.")


def theorem_ids() -> set[str]:
    return {tid for series in SERIES.values() for tid, *_ in series}


def plot(records: dict, out) -> list:
    """One figure per class from whatever results ``records`` (id -> result) holds;
    classes with no series are skipped."""
    paths = []
    for cls, series in SERIES.items():
        fig, (ax,) = new_figure(1, width=8.2, height=8.0)
        drawn = 0
        for i, (tid, where, label, claim) in enumerate(series):
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
            if claim is not None:
                bound = claim_bound(get(tid), claim)
                ax.plot(k, [bound(p["point"]) for p in pts], "--", color=color, linewidth=1.0, alpha=0.8)
            drawn += 1
        if not drawn:
            import matplotlib.pyplot as plt
            plt.close(fig)
            continue
        ax.plot([], [], "--", color="gray", label="dashed: each learner's bound (same colour)")
        ks = np.unique(np.round(np.geomspace(1, max(ax.get_xlim()[1], 2), 80)))
        for label, tid, claim, point, divisor, style in LOWER[cls]:
            y = sweep(claim_bound(get(tid), claim), point, "k", ks) / divisor
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
