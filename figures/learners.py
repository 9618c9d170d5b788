"""The figure of a learner measured with ``privbounds.measure`` (privbounds/learners.py):
n_hat of the measured learner and of the compared theorem's own learners against the
instance's parameter (d), each with its simultaneous 95% band, and the theorem's bounds
that the measured learner is held to, dashed. One panel per value of the other swept
parameters (epsilon, alpha, beta) when the grid sweeps them."""

from __future__ import annotations

from privbounds.figures.common import (
    NONPRIVATE,
    PALETTE,
    band,
    bound_line,
    fn_label,
    legend,
    new_figure,
    save,
)


def plot(theorem, record, out):
    spec = theorem.simulator.spec
    mine = spec["name"]
    pts = [p for p in record["points"] if "n_hat" in p]
    axes = [k for k in spec["grid"] if len({p["point"].get(k) for p in pts}) > 1]
    x_key = next((k for k in axes if k not in ("epsilon", "alpha", "beta")), axes[0] if axes else "d")
    other = [k for k in axes if k != x_key]
    panels = sorted({tuple(p["point"].get(k) for k in other) for p in pts}, key=str) or [()]
    fig, axs = new_figure(len(panels), width=8.5, height=5.4)
    learners = [mine, *spec["beside"]]
    colors = {name: (PALETTE[0] if name == mine else
                     NONPRIVATE if name not in spec["private_beside"] else PALETTE[1 + i % (len(PALETTE) - 1)])
              for i, name in enumerate(learners)}
    bounds = [v for v in record["verdicts"] if v["claim"].startswith(f"{mine}-vs-")]
    for ax, panel in zip(axs, panels):
        here = {k: v for k, v in zip(other, panel)}
        for name, marker in zip(learners, "osD^v<>"):
            ds = [p for p in pts if p["point"]["learner"] == name
                  and all(p["point"].get(k) == v for k, v in here.items())]
            if ds:
                tag = " (measured)" if name == mine else " (the theorem's learner)"
                band(ax, [p["point"][x_key] for p in ds], ds, colors[name], f"{name}{tag}", marker)
        for v in bounds:
            ds = [d for d in v["details"] if all(d["point"].get(k) == val for k, val in here.items())]
            if ds:
                c = next(c for c in theorem.claims if c.id == v["claim"])
                other_learner = getattr(c.bound, "learner", "")
                text = fn_label(getattr(c.bound, "fn", None),
                                f"{v['kind']} of {spec['compare_to']} for {other_learner} (#{v['claim'][len(mine) + 4:]})")
                bound_line(ax, [d["point"][x_key] for d in ds], [d["bound"] for d in ds], "gray", text)
        ax.set_yscale("log")
        ax.set_xlabel(x_key)
        ax.set_ylabel("n_hat (simultaneous 95% band)")
        if here:
            ax.set_title(", ".join(f"{k} = {v}" for k, v in here.items()), fontsize=10)
        legend(ax)
    return save(fig, record, out, what=f"{spec['label']}, beside {spec['compare_to']}")


def plot_fits(theorem, record, out):
    """diffprivlib's fits (gallery.diffprivlib_lr_fits): the fraction of fits whose
    intercept blew up (Clopper-Pearson 95% band) and the optimiser's mean iteration count
    (Student-t 95% band), against n, for the library's defaults and the converged
    setting."""
    import numpy as np

    from privbounds.simulators.engine.stats import clopper_pearson

    fig, axs = new_figure(3, width=6.0, height=5.0)
    rows = [r for r in record["rows"] if r.get("experiment") == "mean"]
    for ax, quantity, ylabel in zip(axs, ("blowup6", "blowup17", "iterations"),
                                    ("fraction of fits with |intercept| > 1e6",
                                     "fraction of fits with |intercept| > 1e17", "optimiser iterations (mean)")):
        for i, settings in enumerate(("defaults", "converged")):
            rs = sorted((r for r in rows if r["quantity"] == quantity and r["settings"] == settings),
                        key=lambda r: r["n"])
            if not rs:
                continue
            x = np.array([r["n"] for r in rs], float)
            y = np.array([r["mean"] for r in rs])
            if quantity != "iterations":
                k = np.round(y * np.array([r["trials"] for r in rs])).astype(int)
                lo, hi = clopper_pearson(k, np.array([r["trials"] for r in rs]), 0.95)
            else:
                lo, hi = np.array([r["ci_low"] for r in rs]), np.array([r["ci_high"] for r in rs])
            ax.fill_between(x, lo, hi, color=PALETTE[i], alpha=0.22, linewidth=0)
            ax.plot(x, y, "o-", color=PALETTE[i], label=settings)
        ax.set_xscale("log")
        ax.set_xlabel("n")
        ax.set_ylabel(ylabel)
        legend(ax)
    return save(fig, record, out, intervals="means", what="fits of diffprivlib's LogisticRegression")
