"""The headline figures of Bun, Nissim, Stemmer, "Simultaneous Private Learning of
Multiple Concepts": for each class (POINT, THRESH, PAR), n_hat against k for every
k-learner we have on it - non-private ERM (Cor 2.12), direct sums with basic and
advanced composition (Obs 3.2, Cor 3.3, 3.4, Ex 3.5), the generic learner through one
sanitization (Alg 2: Cor 3.9, 3.10) and the stability-based learners (Alg 4, 5:
Thm 3.12, 3.13) - each in its learner's colour and marker (the paper's ``LEARNERS``)
with its interval band and, dashed in the same colour, its bound: the bound of the
upper-bound claim of the theorem the series comes from, at each measured point, with its
own legend entry naming the learner, the claim and its verdict (Cor 3.3 has none: its
constant is hidden). The paper's direct-sum story in one picture per class: pure privacy
pays k, advanced composition sqrt(k), and approximate privacy with stability nothing.
Grey: the lower-bound claims of Thm 5.1, 5.4 and Cor 4.6, 4.10 at one fixed parameter
point (in their labels), drawn only over the k range where some private learner has
data (and only where they exceed one row); the fingerprinting bounds count rows of an
empirical learner, and Thm 2.24 turns a PAC learner on n samples into an empirical
learner on 9n rows, so they are divided by 9 to bound samples.

Series come from different theorems' experiments (instances, alpha and eps differ; each
series' label gives its eps, delta, alpha, beta and trials), so the picture compares
growth in k, not absolute levels.
"""

from __future__ import annotations

import numpy as np

from privbounds.figures.bns.style import style, verdict_of
from privbounds.figures.common import band, bound_label, claim_bound, legend, new_figure, save_named, sweep
from privbounds.record import Record, verdict_text
from privbounds.registry import get

# (theorem id, point filter, learner (a key of LEARNERS), where it comes from and on which
# instance, id of the theorem's upper-bound claim drawn dashed, or None)
SERIES = {
    "POINT": [
        ("bns.cor2_12", {"class": "point"}, "non-private ERM", "Cor 2.12, realizable", "upper-erm-point"),
        ("bns.cor3_4", {"rule": "basic", "d": 10}, "direct sum, basic", "Cor 3.4, agnostic", "upper"),
        ("bns.cor3_4", {"rule": "advanced", "d": 10}, "direct sum, advanced", "Cor 3.4, agnostic", "upper"),
        ("bns.cor3_3", {"d": 16}, "hash learner", "direct sum, pure, Cor 3.3, agnostic", None),
        ("bns.cor3_9", {"rule": "basic", "d": 10}, "Alg 2 + Alg 1, basic", "Cor 3.9, agnostic", "upper"),
        ("bns.cor3_9", {"rule": "advanced", "d": 10}, "Alg 2 + Alg 1, advanced", "Cor 3.9, agnostic", "upper"),
        ("bns.thm3_13", {"d": 10}, "Alg 5", "stability, Thm 3.13, realizable", "upper"),
    ],
    "THRESH": [
        ("bns.cor2_12", {"class": "thresh"}, "non-private ERM", "Cor 2.12, realizable", "upper-erm-thresh"),
        ("bns.obs3_2", {"rule": "basic"}, "direct sum, basic", "Obs 3.2, realizable cluster", "upper-basic"),
        ("bns.obs3_2", {"rule": "advanced"}, "direct sum, advanced", "Obs 3.2, realizable cluster",
         "upper-advanced"),
        ("bns.cor3_10", {"rule": "basic"}, "Alg 2 + tree, basic", "Cor 3.10, agnostic", "upper"),
        ("bns.cor3_10", {"rule": "advanced"}, "Alg 2 + tree, advanced", "Cor 3.10, agnostic", "upper"),
    ],
    "PAR": [
        ("bns.cor2_12", {"class": "par"}, "non-private ERM", "Cor 2.12", "upper-erm-par"),
        ("bns.ex3_5", {"d": 8}, "direct sum, pure", "Ex 3.5", "upper"),
        ("bns.thm3_12", {"d": 10}, "Alg 4", "stability, Thm 3.12", "upper"),
    ],
}
# the learners that are not private: the lower bounds are drawn over the other learners' k
NONPRIVATE = {"non-private ERM"}

# Lower bounds (grey): (label, theorem id, id of its lower-bound claim, the parameter point
# other than k, divisor, style). The fingerprinting bounds are for empirical learners: a
# PAC learner on n samples gives one on 9n rows (Thm 2.24), so they are divided by 9.
_LB_POINT = {"alpha": 0.1, "epsilon": 1.0, "delta": 1e-7, "beta": 0.1}
_NINE = ("rows / 9 (Thm 2.24: a PAC learner on n samples gives an empirical learner on 9n rows, so the "
         "fingerprinting bound on rows / 9 bounds samples)")
LOWER = {
    "POINT": [("Thm 5.1 packing, binds pure eps-DP learners only", "bns.thm5_1", "lower-nhat",
               {"epsilon": 1.0, "beta": 0.1}, 1, "-"),
              (f"Cor 4.10 {_NINE}, binds agnostic (eps, delta)-DP PAC learners", "bns.cor4_10", "lower-rows",
               _LB_POINT, 9, ":")],
    "THRESH": [("Thm 5.1 packing, binds pure eps-DP learners only", "bns.thm5_1", "lower-nhat",
                {"epsilon": 1.0, "beta": 0.1}, 1, "-"),
               (f"Cor 4.6 {_NINE}, binds (eps, delta)-DP PAC learners", "bns.cor4_6", "lower-rows", _LB_POINT, 9,
                ":")],
    "PAR": [("Thm 5.4 packing (d = 8), binds pure eps-DP learners only", "bns.thm5_4", "lower-nhat",
             {"d": 8, "epsilon": 1.0, "beta": 0.1}, 1, "-")],
}


CAPTION = ("Every k-learner we have on each class, in one colour and marker per learner (the same in every "
           "figure of the paper): its measured sample complexity n_hat with its interval band and, dashed in the "
           "same colour, the bound of the claim it is judged against (each with its own legend entry, claim and "
           "verdict). Each series' legend entry gives its eps, delta, alpha, beta and trials per evaluated n; "
           "the series come from different theorems' experiments, so compare growth in k, not absolute levels. "
           "Grey: lower bounds at the parameters in their labels, drawn only over the k range where a private "
           "learner has data. The fingerprinting lower bounds (Cor 4.6, 4.10) count the rows of an empirical "
           "learner; Thm 2.24 turns a PAC learner on n samples into an empirical learner on 9n rows, so they "
           "are divided by 9 (\"/ 9\") to bound samples.")



def theorem_ids() -> set[str]:
    return {tid for series in SERIES.values() for tid, *_ in series}


def _params(point: dict) -> str:
    names = (("epsilon", "eps"), ("delta", "delta"), ("alpha", "alpha"), ("beta", "beta"))
    return ", ".join(f"{short} = {point[key]:g}" for key, short in names if point.get(key) is not None)


def _trials(rec: Record, where: dict) -> str:
    """Trials per evaluated n of the series' rows (the n_hat search), as text."""
    rows = [r for r in rec.rows if all(r.get(k) == v for k, v in where.items()) and r.get("trials")]
    t = sorted({int(r["trials"]) for r in rows})
    if not t:
        return ""
    return f"; {t[0]} trials per n" if len(t) == 1 else f"; {t[0]} to {t[-1]} trials per n"


def _claim(rec: Record | None, claim: str) -> str:
    """The claim with its verdict ("claim: verdict"), or the claim alone where ``rec`` has
    no result for it."""
    v = verdict_of(rec, claim) if rec is not None else None
    return verdict_text(v) if v else claim


def plot(records: dict[str, Record], out) -> list:
    """One figure per class from whatever results ``records`` (id -> result) holds;
    classes with no series are skipped."""
    paths = []
    for cls, series in SERIES.items():
        fig, (ax,) = new_figure(1, width=10.5, height=6.0)
        drawn, private_k = 0, []
        for tid, where, learner, source, claim in series:
            rec = records.get(tid)
            if rec is None:
                continue
            pts = [p for p in rec.points if all(p.point.get(k) == v for k, v in where.items())
                   and p.searched and p.point.get("k") is not None]
            pts = sorted(pts, key=lambda p: p.point["k"])
            if len(pts) < 2:
                continue
            st = style(learner)
            p0 = pts[0].point
            k = np.array([p.point["k"] for p in pts], float)
            if learner not in NONPRIVATE:
                private_k += list(k)
            inst = f"{cls}_{p0['d']}" if "d" in p0 else cls
            band(ax, k, pts, st["color"], f"{learner} ({source}, {inst}): {_params(p0)}{_trials(rec, where)}",
                 st["marker"])
            if claim is not None:
                theorem = get(tid)
                bound = claim_bound(theorem, claim)
                number = theorem.number.split(" (")[0]
                # hollow markers of the learner on its bound: bounds that coincide (e.g. the
                # direct sum's and Alg 2's) stay apart, in greyscale too
                ax.plot(k, [bound(p.point) for p in pts], "--", color=st["color"], linewidth=1.4,
                        marker=st["marker"], markersize=5, markerfacecolor="none",
                        label=(bound_label(theorem, claim, f"  dashed: {number} bound for {learner} "
                                                               f"(claim {_claim(rec, claim)})")))
            drawn += 1
        if not drawn:
            import matplotlib.pyplot as plt
            plt.close(fig)
            continue
        if private_k:
            ks = np.unique(np.round(np.geomspace(min(private_k), max(private_k), 80)))
            for label, tid, claim, point, divisor, style_ in LOWER[cls]:
                theorem = get(tid)
                y = sweep(claim_bound(theorem, claim), point, "k", ks) / divisor
                keep = y >= 1                      # below one row a lower bound says nothing
                text = bound_label(theorem, claim, f"lower bound: {label}; {_params(point)} "
                                                   f"(claim {_claim(records.get(tid), claim)})")
                if keep.sum() > 1:
                    ax.plot(ks[keep], y[keep], linestyle=style_, color="0.45", linewidth=1.8, label=(text))
                else:   # nothing to draw over these k: say so rather than draw it where no learner is
                    ax.plot([], [], linestyle=style_, color="0.45", linewidth=1.8,
                            label=(f"{text} - under one row for k <= {max(private_k):g}, not drawn"))
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("number of concepts k")
        ax.set_ylabel("rows needed, n_hat\n(all k concepts learned w.p. >= 1 - beta)")
        ax.set_title(f"{cls}: every k-learner we have, in its colour; dashed: its bound", fontsize=10)
        legend(ax)  # save_named grows the figure to fit it
        fidelities = sorted({records[t].fidelity for t, *_ in series if t in records})
        paths += save_named(fig, f"paper-bns-{cls.lower()}",
                            f"Bun, Nissim, Stemmer: k-learning {cls} ({', '.join(fidelities)} fidelity); "
                            "bands: 95% intervals of n_hat. Fixed per series, not across series: eps, delta, "
                            "alpha, beta and trials are in each series' legend entry, the lower bounds' "
                            "parameters in theirs.", out)
    return paths
