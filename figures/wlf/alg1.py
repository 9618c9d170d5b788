"""Figures of Wang, Lei and Fienberg's Algorithm 1 and its consistency chain (section 4,
Corollary 9, Theorems 7 and 35, Lemmas 10, 36, 37, 38): measured means (or worst cases)
against n with their simultaneous intervals, under each claim's bound.

``learnability_check`` is Definition 1's checker: a rate must hold for every distribution,
so over a finite family (spread and concentrated) the largest measured excess risk is
compared with it.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from privbounds.claims import combine
from privbounds.figures.common import PALETTE, bound_label, legend, new_figure, save
from privbounds.figures.curves import mean_panel
from privbounds.record import ClaimResult, verdict_text


def learnability_check(excess_by_distribution: dict, rate: float) -> tuple[str, float, bool]:
    """Definition 1 over a finite family of distributions: ``excess_by_distribution`` maps
    a distribution's name to the measured excess risk (an upper confidence end) at one n;
    the rate must hold for the worst. Returns (worst distribution, its value, holds)."""
    if not excess_by_distribution:
        raise ValueError("the family of distributions is empty")
    worst = max(excess_by_distribution, key=excess_by_distribution.get)
    return worst, float(excess_by_distribution[worst]), bool(excess_by_distribution[worst] <= rate)


def _split(v: ClaimResult, keys: tuple) -> dict:
    """The claim's details grouped by the values of ``keys`` (one panel each)."""
    out = {}
    for d in v.details:
        out.setdefault(tuple(d.point.get(k) for k in keys), []).append(d)
    return out


def _group(drop: tuple):
    """A detail's series label: its label without n and without the panel's keys."""
    def key(d):
        parts = d.label.rsplit(", n=", 1)[0].split(", ")
        return ", ".join(p for p in parts if p.split("=")[0] not in drop)
    return key


def _panels(theorem, record, out, split: dict, part: str | None = None, claims=None, height: float = 6.4):
    """One panel per claim and per value of its ``split`` keys."""
    verdicts = {v.claim: v for v in record.verdicts if v.kind == "mean bound"
                and (claims is None or v.claim in claims)}
    panels = []
    for c in theorem.claims:
        if c.id not in verdicts:
            continue
        keys = split.get(c.id, ())
        for vals, ds in sorted(_split(verdicts[c.id], keys).items(), key=lambda kv: str(kv[0])):
            panels.append((c, dataclasses.replace(verdicts[c.id], details=tuple(ds)), keys, vals))
    fig, axes = new_figure(max(1, len(panels)), width=6.2, height=height)
    for ax, (c, v, keys, vals) in zip(axes, panels):
        mean_panel(ax, v, "n", bound_label(theorem, c.id, "bound"), group_key=_group(keys))
        where = ", ".join(f"{k}={x}" for k, x in zip(keys, vals))
        here = combine([d.verdict for d in v.details])  # this panel's points only
        ax.set_title(f"{c.id}{': ' + where if where else ''}: {here}", fontsize=9)
    return save(fig, record, out, part=part, intervals="means")


SPLITS = {
    "wlf.ex20": {"upper-ex20": ("dist",)},
    "wlf.thm19": {"upper-eq11": ("dist", "regulariser"), "upper-eq11-corrected": ("dist",)},
    "wlf.lem36": {"upper-utility": ("dist", "bits")},
    "wlf.lem37": {"upper-corrected": ("dist", "bits"), "upper-printed": ("dist", "bits")},
    "wlf.thm7": {"aerm": ("dist",), "generalises": ("dist",), "consistent": ("dist",)},
}


def rates(theorem, record, out):
    """Excess risk / AERM gap / utility gap against n under the rate of each claim; one
    figure part per claim where the panels would crowd one figure."""
    split = SPLITS.get(theorem.id, {})
    ids = [v.claim for v in record.verdicts if v.kind == "mean bound"]
    if theorem.id in ("wlf.lem36", "wlf.lem37"):
        return [p for c in ids for p in _panels(theorem, record, out, split, part=c, claims=[c])]
    return _panels(theorem, record, out, split)


def privacy(theorem, record, out):
    """Algorithm 1's largest privacy loss against n, under eps/2 and eps."""
    return _panels(theorem, record, out, {"privacy-loss-paper": ("dist",), "privacy-loss-true": ("dist",)})


def stability(theorem, record, out):
    """Corollary 9: excess risk under its rate (nominal and realised eps) and the worst
    stability under e^eps - 1 and 2 eps."""
    er = _panels(theorem, record, out, {"upper-nominal": ("dist", "bits"), "upper-realised": ("dist", "bits")},
                 part="excess-risk", claims=["upper-nominal", "upper-realised"])
    st = _panels(theorem, record, out, {"stability-expm1": ("dist",), "stability-linear": ("dist",)},
                 part="stability", claims=["stability-expm1", "stability-linear"])
    return er + st


def thm35(theorem, record, out):
    """Theorem 35: per distribution and eps, the mean generalisation gap (its replace-one
    form, the low-variance estimate; with its interval) against the largest stability
    measured (|GG| <= ST_max), with the AERM gap and the excess risk (ER <= GG + AG); then
    each claim against its bound."""
    rows = [r for r in record.rows if r.get("experiment") == "mean"]
    configs = sorted({(r["dist"], r["schedule"], r.get("epsilon")) for r in rows}, key=str)
    fig, axes = new_figure(len(configs), width=6.2, height=6.4)
    floor = 1e-20  # values below are drawn at the floor (exact computations reach 1e-130)
    what = {"stability": ("largest stability ST_max", "s"),
            "symmetrised_gap": ("generalisation gap GG (replace-one form)", "o"),
            "aerm_gap": ("AERM gap AG", "^"), "excess_risk": ("excess risk ER", "v")}
    for ax, (dist, sched, eps) in zip(axes, configs):
        for i, (q, (label, marker)) in enumerate(what.items()):
            rs = sorted((r for r in rows if (r["dist"], r["schedule"], r.get("epsilon")) == (dist, sched, eps)
                         and r["quantity"] == q), key=lambda r: r["n"])
            x = np.array([r["n"] for r in rs], float)
            color = PALETTE[i]
            if q == "stability":
                ax.plot(x, [max(r["max"], floor) for r in rs], marker + "--", color=color, label=label)
            else:
                ax.fill_between(x, np.maximum([r["ci_low"] for r in rs], floor),
                                np.maximum([r["ci_high"] for r in rs], floor), color=color, alpha=0.2, linewidth=0)
                ax.plot(x, [max(r["mean"], floor) for r in rs], marker + "-", color=color, markersize=4,
                        label=f"mean {label}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("n")
        ax.set_ylabel(f"value (below {floor:g} drawn at {floor:g})")
        ax.set_title(f"dist={dist}, eps={'eps(n)' if sched == 'ex20' else eps}", fontsize=9)
        legend(ax)
    first = save(fig, record, out, part="chain", intervals="means")
    return first + _panels(theorem, record, out, {c.id: ("dist",) for c in theorem.claims})


def transfer(theorem, record, out):
    """Lemma 38 over tau: P[|gap| >= tau] of the private subset query (with its claim's
    simultaneous band) and of its non-private maximiser (no claim) at
    n = ceil(12 log(4/beta)/tau^2), against beta."""
    fig, axes = new_figure(1, width=7.5, height=6.0)
    ax = axes[0]
    for i, v in enumerate(v for v in record.verdicts if v.kind == "mean bound"):
        ds = sorted(v.details, key=lambda d: d.point["tau"])
        tau = np.array([d.point["tau"] for d in ds])
        color = PALETTE[i]
        ax.fill_between(tau, [d.low for d in ds], [d.high for d in ds], color=color, alpha=0.2, linewidth=0)
        ax.plot(tau, [d.value for d in ds], "o-", color=color,
                label=f"measured, private subset query ({verdict_text(v)})")
        ax.plot(tau, [d.bound for d in ds], "--", color=color, label=bound_label(theorem, v.claim, "beta"))
    rows = sorted((r for r in record.rows if r.get("learner") == "subset_argmax"), key=lambda r: r["tau"])
    if rows:
        ax.plot([r["tau"] for r in rows], [r["mean"] for r in rows], "s:", color="0.15",
                label="non-private maximiser (the sample's support; no claim)")
    ax.set_xlabel("tau (n = ceil(12 log(4/beta)/tau^2))")
    ax.set_ylabel("P[|E_D phi - mean_Z phi| >= tau]")
    ax.set_ylim(-0.05, 1.05)
    legend(ax)
    return save(fig, record, out, intervals="means")


def always_aerm(theorem, record, out):
    """Lemma 10: the always-AERM gap (the largest over the designed datasets, and each one)
    against n, with 2 xi(floor(sqrt n)) and the measured xi_hat; then the proof's step."""
    rows = [r for r in record.rows if r.get("experiment") == "mean"]
    eps_values = sorted({r["epsilon"] for r in rows})
    fig, axes = new_figure(len(eps_values), width=7.5, height=6.6)
    for ax, eps in zip(axes, eps_values):
        sub = [r for r in rows if r["epsilon"] == eps and r["quantity"] == "subsampled_gap"]
        base = [r for r in rows if r["epsilon"] == eps and r["quantity"] == "base_gap"]
        ns = sorted({r["n"] for r in sub})
        for i, name in enumerate(sorted({r["dataset"] for r in sub})):
            rs = sorted((r for r in sub if r["dataset"] == name), key=lambda r: r["n"])
            ax.plot([r["n"] for r in rs], [max(r["mean"], 1e-12) for r in rs], "o-", color=PALETTE[i], markersize=3,
                    alpha=0.6, label=f"subsampled gap, {name}")
        worst = [max(r["ci_high"] for r in sub if r["n"] == n) for n in ns]
        xi_hat = [max(r["ci_high"] for r in base if r["n"] == n) for n in ns]
        ax.plot(ns, np.maximum(worst, 1e-12), "s-", color="black", label="always-AERM gap (largest over the family)")
        ax.plot(ns, np.maximum(2 * np.array(xi_hat), 1e-12), ":", color="grey",
                label="2 xi_hat(floor(sqrt n)) measured (base learner on the dataset's points)")
        claim = next(c for c in theorem.claims if c.id == "always-aerm")
        bound = [claim.bound({**sub[0], "n": n}) for n in ns]
        ax.plot(ns, bound, "--", color="black", label=bound_label(theorem, "always-aerm", "2 xi(floor(sqrt n))"))
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_ylim(1e-12, 10)
        ax.set_xlabel("n (subset of floor(sqrt n) points)")
        ax.set_ylabel("AERM gap on Z")
        ax.set_title(f"eps = {eps:g}", fontsize=9)
        legend(ax)
    first = save(fig, record, out, part="family", intervals="means")
    return first + _panels(theorem, record, out, {"always-aerm": ("dataset",)}, claims=["always-aerm"])
