"""The figure of a learner measured with ``privbounds.measure`` (privbounds/learners.py):
n_hat of the measured learner and of the compared theorem's own learners against the
first swept parameter of the instance (d, k, r, ...), each with its simultaneous 95% band,
and the theorem's bounds that the measured learner is held to, dashed. One panel per
value of the other swept parameters when the grid sweeps more than one."""

from __future__ import annotations

from privbounds.figures.common import (
    NONPRIVATE,
    PALETTE,
    band,
    bound_line,
    fn_label,
    interval_fill,
    legend,
    new_figure,
    save,
)


def plot(theorem, record, out):
    from matplotlib.ticker import MaxNLocator

    spec = theorem.simulator.spec
    mine = spec["name"]
    pts = [p for p in record.points if p.searched]
    axes = [k for k in spec["grid"] if len({p.point.get(k) for p in pts}) > 1]
    x_key = next((k for k in axes if k not in ("epsilon", "alpha", "beta")), axes[0] if axes else "d")
    other = [k for k in axes if k != x_key]
    panels = sorted({tuple(p.point.get(k) for k in other) for p in pts}, key=str) or [()]
    fig, axs = new_figure(len(panels), width=8.5, height=5.4)
    # the theorem's learners first, the measured one last, so that it is drawn on top
    learners = [*spec["beside"], mine]
    colors = {name: (PALETTE[0] if name == mine else
                     NONPRIVATE if name not in spec["private_beside"] else PALETTE[1 + i % (len(PALETTE) - 1)])
              for i, name in enumerate(learners)}
    markers = dict(zip(learners, "sD^v<>o"))
    held = [v for v in record.verdicts if v.claim.startswith(f"{mine}-vs-")]
    held_values = {round(d.bound, 9) for v in held for d in v.details}
    # the theorem's own bound claims, in their learner's colour, unless the same bound is drawn as held to ours
    own = [v for v in record.verdicts if v.kind in ("upper bound", "lower bound") and v not in held
           and v.details and {round(d.bound, 9) for d in v.details} - held_values]
    for ax, panel in zip(axs, panels):
        here = {k: v for k, v in zip(other, panel)}

        def at(items, here=here):  # the items of this panel
            return [d for d in items if all(d.point.get(k) == v for k, v in here.items())]
        for name in learners:
            ds = at([p for p in pts if p.point["learner"] == name])
            if not ds:
                continue
            xs = [p.point[x_key] for p in ds]
            band(ax, xs, ds, colors[name], _label(spec, name), markers[name])
            if len(ds) == 1 and ds[0].n_hat is not None:  # one point: its interval as an error bar
                lo, hi, nh = ds[0].n_low, ds[0].n_high, ds[0].n_hat
                ax.errorbar(xs, [nh], yerr=[[nh - (lo or nh)], [(hi or nh) - nh]], color=colors[name], capsize=4)
        for v in held:
            ds = at(v.details)
            if ds:
                c = next(c for c in theorem.claims if c.id == v.claim)
                text = fn_label(getattr(c.bound, "fn", None),
                                f"{v.kind} of {spec['compare_to']} for {_whose(c.bound)}, "
                                f"held to {mine} (#{v.claim[len(mine) + 4:]})")
                bound_line(ax, [d.point[x_key] for d in ds], [d.bound for d in ds], "gray", text)
                ax.plot([d.point[x_key] for d in ds], [d.bound for d in ds], "_", color="gray", markersize=16)
        for v in own:
            ds = at(v.details)
            if ds:
                who = ds[0].point.get("learner")
                color = colors.get(who, "gray")
                bound_line(ax, [d.point[x_key] for d in ds], [d.bound for d in ds], color,
                           f"{v.kind} of {spec['compare_to']} for {who} (#{v.claim})", style=":")
                ax.plot([d.point[x_key] for d in ds], [d.bound for d in ds], "_", color=color, markersize=16)
        ax.set_yscale("log")
        ax.set_xlabel(x_key)
        if x_key in ("d", "k"):
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel("n_hat (simultaneous 95% band)")
        if here:
            ax.set_title(", ".join(f"{k} = {v}" for k, v in here.items()), fontsize=10)
        legend(ax)
    return save(fig, record, out)


def _whose(bound) -> str:
    """The theorem's learner a held bound is proved for ("expmech", "rule = basic")."""
    key, who = getattr(bound, "key", "learner"), getattr(bound, "learner", "")
    return who if key == "learner" else f"{key} = {who}"


def _label(spec, name: str) -> str:
    """A line's legend: the measured learner, or the theorem's, named by its parameter when
    that is not "learner" (bns.cor3_9's variants are accountings: "rule = basic")."""
    if name == spec["name"]:
        return f"{name} (measured)"
    axis = spec.get("axis")
    if axis and axis != "learner":
        return f"{spec['compare_to']}'s learner, {axis} = {name}"
    return f"{name} (the theorem's learner)"


def plot_fits(theorem, record, out):
    """A gallery diagnostic without a claim (gallery.diffprivlib_lr_blowups, _iterations):
    per panel (the blow-up threshold, if any) the measured rate or mean against n with its
    95% band (Clopper-Pearson for a rate, Student-t for a mean), one line per setting."""
    import numpy as np

    rows = [r for r in record.rows if r.get("experiment") in ("curve", "mean")]
    panels = sorted({r.get("threshold") for r in rows}, key=lambda t: (t is None, t))
    fig, axs = new_figure(len(panels), width=6.0, height=5.0)
    for ax, thr in zip(axs, panels):
        for i, settings in enumerate(("defaults", "converged")):
            rs = sorted((r for r in rows if r.get("threshold") == thr and r["settings"] == settings),
                        key=lambda r: r["n"])
            if not rs:
                continue
            x = np.array([r["n"] for r in rs], float)
            y = np.array([r.get("p_hat", r.get("mean")) for r in rs])
            interval_fill(ax, x, [r["ci_low"] for r in rs], [r["ci_high"] for r in rs], color=PALETTE[i], alpha=0.22,
                            linewidth=0)
            ax.plot(x, y, "o-", color=PALETTE[i], label=settings)
        ax.set_xscale("log")
        ax.set_xlabel("n")
        ax.set_ylabel(f"fraction of fits with |intercept| > {thr:g}" if thr is not None
                      else "optimiser iterations (mean)")
        legend(ax)
    return save(fig, record, out, intervals="rates" if panels != [None] else "pointwise means",
                what="fits of diffprivlib's LogisticRegression")
