"""Figures of Wang, Lei and Fienberg's subsampling, privacy-to-stability and boosting
results (Lemmas 4, 8, 29, 30, 31, 34; Proposition 33; Theorem 25): the measured worst
case (largest value over the neighbouring pairs tried, exact per pair) or mean, against
the x axis the lemma is about (gamma, eps, sigma or n), with each claim's bound dashed or
dotted in the same colour."""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import NullFormatter

from privbounds.bounds import wlf as B
from privbounds.figures.common import PALETTE, bound_label, learner_style, legend, new_figure, save, shade

STYLES = {"stated": "--", "exact-form": ":", "tight-reference": "-."}


# learners of these experiments that the paper's LEARNERS table does not list (yet): the
# subsampled count in its base count's colour, darker, and the Laplace mean in a colour of its own
_EXTRA = {"geometric_sub": ("geometric", "P"), "gaussian_sub": ("gaussian", "d"), "laplace_mean": (None, "*")}


def _style(learner: str) -> dict:
    try:
        return learner_style("wlf", learner)
    except KeyError:
        base, marker = _EXTRA.get(learner, (None, "o"))
        color = shade(learner_style("wlf", base)["color"], -0.45) if base else PALETTE[9]
        return {"color": color, "marker": marker}


def _groups(details, key):
    out = {}
    for d in details:
        out.setdefault(key(d.point), []).append(d)
    return out


def _worst_by(ds, x):
    """The largest measured value and its bound at each x (over the other axes, e.g. n)."""
    best = {}
    for d in ds:
        k = x(d.point)
        if k not in best or d.value > best[k].value:
            best[k] = d
    xs = sorted(best)
    return np.array(xs, float), np.array([best[k].value for k in xs]), np.array([best[k].bound for k in xs])


def _style_keys(ax, entries):
    """Black legend entries explaining the line styles."""
    for style, text in entries:
        ax.plot([], [], style, color="black", label=text)


def lem34(theorem, record, out):
    fig, axes = new_figure(1, width=8.0, height=6.0)
    ax = axes[0]
    eps_values = sorted({d.point["epsilon"] for d in record.claim("exact-form").details})
    for i, e in enumerate(eps_values):
        color = PALETTE[i % len(PALETTE)]
        for claim, style in STYLES.items():
            ds = [d for d in record.claim(claim).details if d.point["epsilon"] == e]
            if not ds:
                continue
            x, y, b = _worst_by(ds, lambda p: p["gamma"])
            ax.plot(x, b, style, color=color, linewidth=1.4)
            if claim == "exact-form":
                ax.plot(x, y, "o", color=color, markersize=6, label=f"eps = {e:g}: largest exact loss")
        ax.axhline(e, color=color, linewidth=0.6, alpha=0.5)
    _style_keys(ax, [("--", "2 gamma (e^eps - e^-eps) (stated)"), (":", "proof's exact form"),
                     ("-.", "log(1 + gamma (e^eps - 1)) (tight, not the paper's)"),
                     ("-", "eps itself (thin)")])
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("subsampling rate gamma")
    ax.set_ylabel("privacy loss eps' of the subsampled geometric count")
    legend(ax)
    return save(fig, record, out, intervals="means", what="largest exact loss over n = 100, 400 and the pairs tried")


def lem4(theorem, record, out):
    fig, axes = new_figure(3, width=6.2, height=5.2)
    ax = axes[0]
    for i, (e, ds) in enumerate(sorted(_groups(record.claim("privacy-stated").details,
                                               lambda p: p["epsilon"]).items())):
        color = PALETTE[i % len(PALETTE)]
        x, y, b = _worst_by(ds, lambda p: p["n"])
        ax.plot(x, y, "o-", color=color, label=f"eps = {e:g}: largest exact loss")
        ax.plot(x, b, "--", color=color)
        ex = [d.bound for d in sorted(record.claim("privacy-exact-form").details, key=lambda d: d.n)
              if d.point["epsilon"] == e]
        ax.plot(x, ex, ":", color=color)
    _style_keys(ax, [("--", "(2/sqrt n)(e^eps - e^-eps) (stated)"), (":", "Lemma 34's exact form at floor(sqrt n)/n")])
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n (the count runs on floor(sqrt n) rows)")
    ax.set_ylabel("privacy loss eps")
    ax.set_title("privacy of the sqrt(n)-subsample", fontsize=10)
    legend(ax)
    ax = axes[1]
    for measure, learner, text in (("excess_risk_subsampled", "alg1_sub", "Alg 1 on floor(sqrt n) of n rows"),
                                   ("excess_risk_base", "alg1", "Alg 1 on floor(sqrt n) fresh rows")):
        rows = sorted((r for r in record.rows if r.get("measure") == measure), key=lambda r: r["n"])
        if not rows:
            continue
        st = learner_style("wlf", learner)
        x = np.array([r["n"] for r in rows], float)
        ax.fill_between(x, [r["ci_low"] for r in rows], [r["ci_high"] for r in rows], color=st["color"], alpha=0.2,
                        linewidth=0)
        ax.plot(x, [r["mean"] for r in rows], "-", color=st["color"], marker=st["marker"], label=text)
    rate = sorted(record.claim("rate-at-sqrt-n").details, key=lambda d: d.n)
    if rate:
        ax.plot([d.n for d in rate], [d.bound for d in rate], "--", color="black",
                label=bound_label(theorem, "rate-at-sqrt-n", "xi(floor(sqrt n)) (ours)"))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n")
    ax.set_ylabel("mean excess risk (eps = 1, exact over h)")
    ax.set_title("rate at sqrt(n): ER_sub(n) and ER_base(floor(sqrt n))", fontsize=10)
    legend(ax)
    ax = axes[2]
    rows = sorted((r for r in record.rows if r.get("measure") == "excess_risk_difference"),
                  key=lambda r: r["n"])
    if rows:  # a check of the simulator: the two are equal in distribution
        x = np.array([r["n"] for r in rows], float)
        st = learner_style("wlf", "alg1_sub")
        ax.fill_between(x, [r["ci_low"] for r in rows], [r["ci_high"] for r in rows], color=st["color"], alpha=0.25,
                        linewidth=0)
        ax.plot(x, [r["mean"] for r in rows], "-", color=st["color"], marker=st["marker"],
                label="mean difference (95% band); 0 in distribution")
    ax.axhline(0, color="grey", linewidth=0.6)
    ax.set_xscale("log")
    ax.set_xlabel("n")
    ax.set_ylabel("ER_sub(n) - ER_base(floor(sqrt n))")
    ax.set_title("difference of the two means (a check of the simulator)", fontsize=10)
    legend(ax)
    return save(fig, record, out, intervals="means")


def lem29(theorem, record, out):
    fig, axes = new_figure(1, width=7.0, height=5.2)
    ax = axes[0]
    st = learner_style("wlf", "subsample")
    for claim, style, text in (("exact", ":", "floor(sqrt n)/n (the proof)"), ("stated", "--", "1/sqrt n (stated)")):
        ds = record.claim(claim).details
        x, y, b = _worst_by(ds, lambda p: p["n"])
        if claim == "exact":
            ax.plot(x, y, "o", color=st["color"], markersize=7, label="exact count on floor(sqrt n) rows: largest TV")
        ax.plot(x, b, style, color="black", label=text)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n")
    ax.set_ylabel("delta at eps = 0 (TV), exact")
    legend(ax)
    return save(fig, record, out, intervals="means", what="largest value over the neighbouring pairs tried")


def lem31(theorem, record, out):
    fig, axes = new_figure(2, width=6.4, height=5.6)
    for ax, claim, bound_text in ((axes[0], "stated", "gamma e^eps delta (stated)"),
                                  (axes[1], "tight-reference", "gamma delta (tight; not the paper's)")):
        v = record.claim(claim)
        for i, ((s, e), ds) in enumerate(sorted(_groups(v.details, lambda p: (p["sigma"], p["epsilon"])).items())):
            color = PALETTE[i % len(PALETTE)]
            x, y, b = _worst_by(ds, lambda p: p["gamma"])
            ax.plot(x, np.maximum(y, 1e-12), "o-", color=color, markersize=4, linewidth=0.8,
                    label=f"sigma {s:g}, eps {e:g}: largest exact delta")
            ax.plot(x, b, "--", color=color)
        _style_keys(ax, [("--", bound_text)])
        ax.set_xscale("log")
        ax.set_yscale("log")
        gammas = sorted({d.point["gamma"] for d in v.details})
        ax.set_xticks(gammas, [f"{g:g}" for g in gammas])
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("subsampling rate gamma")
        ax.set_ylabel("delta of the subsampled count")
        ax.set_title("at eps' = log(1 + gamma e^eps (e^eps - 1))" if claim == "stated"
                     else "at log(1 + gamma (e^eps - 1))", fontsize=10)
        legend(ax)
    return save(fig, record, out, intervals="means", what="largest over n = 20, 100 and the pairs tried")


def lem8(theorem, record, out):
    fig, axes = new_figure(2, width=6.4, height=5.6)
    ax = axes[0]
    v = record.claim("expm1")
    eps_all = []
    for learner, ds in sorted(_groups(v.details, lambda p: p["learner"]).items()):
        st = _style(learner)
        x, y, _ = _worst_by(ds, lambda p: p["epsilon"])
        eps_all += list(x)
        ax.plot(x, y, "-", color=st["color"], marker=st["marker"], label=f"{learner}: largest exact stability")
    e = np.geomspace(min(eps_all), max(eps_all), 60)
    ax.plot(e, B.lem8_stability(e), "--", color="black", label="e^eps - 1 (Lemma 8)")
    small = e[e <= 1]
    ax.plot(small, B.lem8_stability_linear(small), "-.", color="black", label="2 eps (eps <= 1)")
    ax.plot(e, B.pure_dp_tv(e), ":", color="black", label="tanh(eps/2) (TV limit; not the paper's)")
    ax.plot(e, B.alg1_realised_tv(e), ":", color="grey", label="tanh(eps/4) (Alg 1's realised eps/2)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(top=1.5)
    ax.set_xlabel("eps (declared)")
    ax.set_ylabel("RO-stability (exact; largest over n and pairs)")
    legend(ax)
    ax = axes[1]
    ds = record.claim("alg1-realised-privacy").details
    st = learner_style("wlf", "alg1")
    for i, (n, dn) in enumerate(sorted(_groups(ds, lambda p: p["n"]).items())):
        x, y, _ = _worst_by(dn, lambda p: p["epsilon"])
        ax.plot(x, y, "-", color=PALETTE[i], marker=st["marker"], label=f"Alg 1, n = {n}: largest privacy loss")
    ax.plot(e, e / 2, "--", color="black", label="eps/2 (realised with Delta q = 2/n)")
    ax.plot(e, e, ":", color="grey", label="eps (nominal)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("nominal eps of Algorithm 1")
    ax.set_ylabel("max_h |ln p(h) - ln p'(h)|")
    legend(ax)
    return save(fig, record, out, intervals="means")


def lem30(theorem, record, out):
    fig, axes = new_figure(1, width=7.5, height=5.6)
    ax = axes[0]
    prof = record.claim("profile").details
    typ = record.claim("typical").details
    for learner, ds in sorted(_groups(prof, lambda p: p["learner"]).items()):
        st = _style(learner)
        x, y, b = _worst_by(ds, lambda p: p["sigma"])
        ax.plot(x, y, linestyle="none", color=st["color"], marker=st["marker"], markersize=8,
                label=f"{learner}: largest exact TV")
        ax.plot(x, b, "--", color=st["color"], label=f"{learner}: min over its profile of e^eps - 1 + delta")
        dt = [d for d in typ if d.point["learner"] == learner]
        if dt:
            xt, _, bt = _worst_by(dt, lambda p: p["sigma"])
            ax.plot(xt, bt, ":", color=st["color"], label=f"{learner}: e^eps - 1 + delta at delta = 1e-5")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("sigma of the discrete Gaussian noise")
    ax.set_ylabel("RO-stability = TV (exact)")
    legend(ax)
    return save(fig, record, out, intervals="means")


def prop33(theorem, record, out):
    fig, axes = new_figure(3, width=6.2, height=5.2)
    st = learner_style("wlf", "subsample")
    ax = axes[0]
    ds = sorted(record.claim("rate").details, key=lambda d: d.n)
    x = np.array([d.n for d in ds], float)
    ax.fill_between(x, [max(d.low, 1e-6) for d in ds], [d.high for d in ds], color=st["color"], alpha=0.25,
                    linewidth=0)
    ax.plot(x, [max(d.value, 1e-6) for d in ds], "-", color=st["color"], marker=st["marker"],
            label="ERM on floor(sqrt n) rows: mean excess risk")
    ax.plot(x, [d.bound for d in ds], "--", color=st["color"], label="sqrt(2 log(2|H|)/floor(sqrt n)) (ours)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n")
    ax.set_ylabel("excess risk")
    ax.set_title("(i) accuracy at delta~(n) = n^-1/2", fontsize=10)
    legend(ax)
    ax = axes[1]
    xs, y, b = _worst_by(record.claim("privacy").details, lambda p: p["n"])
    ax.plot(xs, y, "o", color=st["color"], markersize=7, label="largest exact TV over the pairs tried")
    ax.plot(xs, b, "--", color="black", label="delta~(n) = n^-1/2")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n")
    ax.set_ylabel("delta at eps = 0 (TV)")
    ax.set_title("(i) privacy: (0, delta~(n))-DP", fontsize=10)
    legend(ax)
    ax = axes[2]
    n = np.arange(10, 101)
    ax.plot(n, -np.log10(n), "-", color="grey", label="1/n (part (i) needs delta~ above this order)")
    ax.plot(n, B.prop33_threshold_direct(n, 1.0), "--", color=PALETTE[0], label="exp(-eps n)/n (direct argument)")
    ax.plot(n, B.prop33_packing_delta(n, 1.0), ":", color=PALETTE[1],
            label="0.4 e^(-eps (n-1))/n (packing step, corrected)")
    ax.plot(n, B.prop33_threshold(n, 1.0), "-.", color=PALETTE[2], label="exp(-eps n^2)/n (part (ii) as stated)")
    ax.set_xlabel("n")
    ax.set_ylabel("log10 delta")
    ax.set_title("(ii) drawn, not measured (eps = 1)", fontsize=10)
    legend(ax)
    return save(fig, record, out, intervals="means")


def thm25(theorem, record, out):
    fig, axes = new_figure(1, width=7.5, height=5.6)
    ax = axes[0]
    v = record.claim("failure")
    for i, (n, ds) in enumerate(sorted(_groups(v.details, lambda p: p["n"]).items())):
        ds = sorted(ds, key=lambda d: d.point["beta"])
        x = np.array([d.point["beta"] for d in ds])
        color = PALETTE[i % len(PALETTE)]
        live = np.array([d.ceiling < 1 for d in ds])
        ax.errorbar(x * (1 + 0.04 * i), [d.p_hat for d in ds],
                    yerr=[[0] * len(ds), [d.p_high - d.p_hat for d in ds]], fmt="o" if live.all() else "s",
                    color=color, capsize=3,
                    label=f"n = 2^{int(np.log2(n))}: failure frequency (upper end)"
                          + ("" if live.all() else "; squares: bound >= 1 there"))
    ceil = sorted({(d.point["beta"], d.ceiling) for d in v.details})
    ax.plot([c[0] for c in ceil], [c[1] for c in ceil], "--", color="black",
            label="ceiling: delta (Theorem 25's failure probability; 1 where the bound is >= 1)")
    ax.set_xscale("log")
    ax.set_xlabel("delta (failure probability; beta in the points)")
    ax.set_ylabel("P[R(h) - R* > the proof's bound]")
    legend(ax)
    return save(fig, record, out, intervals="ceilings")
