"""Shared drawing helpers: the measured n_hat with its interval band over a bound.

Not tied to one paper. Uses the non-interactive Agg backend so that figures can be
drawn on machines without a display (CI, worker nodes).
"""

from __future__ import annotations

import contextlib
from contextvars import ContextVar
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import seaborn as sns  # noqa: E402

sns.set_theme(style="whitegrid", context="notebook")
PALETTE = sns.color_palette("colorblind")


def new_figure(ncols: int = 1, width: float = 6.4, height: float = 4.6):
    fig, axes = plt.subplots(1, ncols, figsize=(width * ncols, height), squeeze=False)
    return fig, list(axes[0])


def band(ax, x, points, color, label, marker="o"):
    """n_hat markers with the interval as a shaded band; an open upper end (target never
    reached on the grid) is drawn as an upward arrow."""
    x = np.asarray(x, float)
    order = np.argsort(x)
    x = x[order]
    pts = [points[i] for i in order]
    nh = np.array([p["n_hat"] if p["n_hat"] is not None else np.nan for p in pts], float)
    lo = np.array([p["n_low"] if p["n_low"] is not None else np.nan for p in pts], float)
    hi = np.array([p["n_high"] if p["n_high"] is not None else np.nan for p in pts], float)
    ax.fill_between(x, lo, np.where(np.isnan(hi), lo, hi), color=color, alpha=0.25, linewidth=0)
    # hollow markers for the second series so that coinciding curves stay visible
    face = "none" if marker != "o" else color
    ax.plot(x, nh, "-", marker=marker, color=color, label=label, markersize=6, markerfacecolor=face)
    open_top = np.isnan(hi) & ~np.isnan(lo)
    if open_top.any():
        ax.scatter(x[open_top], lo[open_top], marker="^", color=color, zorder=5,
                   label=f"{label}: not reached by n = {int(np.nanmax(lo))}")


def bound_line(ax, x, y, color, label, style="--"):
    order = np.argsort(x)
    ax.plot(np.asarray(x)[order], np.asarray(y)[order], style, color=color, label=label, linewidth=1.6)


def legend(ax, sort: bool = False):
    """Legend below the axes, so it never hides the data (optionally sorted by label)."""
    handles, labels = ax.get_legend_handles_labels()
    if sort:
        labels, handles = zip(*sorted(zip(labels, handles), key=lambda t: t[0]))
    ax.legend(handles, labels, fontsize=8.5, loc="upper center", bbox_to_anchor=(0.5, -0.14),
              ncol=1, frameon=False)


def claim_bound(theorem, claim_id: str):
    """The bound of one of the theorem's own claims (a ``claims.BoundRef``): figures draw
    it rather than restating the formula, so the figure shows exactly what was judged."""
    for c in theorem.claims:
        if c.id == claim_id:
            return c.bound
    raise KeyError(f"{theorem.id} has no claim {claim_id!r}")


def sweep(bound, point: dict, axis: str, values) -> np.ndarray:
    """A bound along one parameter: ``bound`` at ``point`` with ``axis`` set to each value
    (e.g. a smooth curve over k between the measured points)."""
    return np.array([bound({**point, axis: v.item() if hasattr(v, "item") else v}) for v in values], float)


def rules_against_k(ax, theorem, record, name: str, claim: str, bound_name: str, **where) -> dict | None:
    """n_hat against k for each composition rule (basic, advanced) of a k-learner: the
    band with the rule's ``scaling-k-<rule>`` exponent in its label, and the claim's own
    bound swept over k in the same colour (``claim`` may hold ``{rule}``). Sets log-log
    axes over k; returns the first point drawn (for titles), None if there was none."""
    first = None
    for i, rule in enumerate(("basic", "advanced")):
        pts = select(record, rule=rule, **where)
        if not pts:
            continue
        p0 = pts[0]["point"]
        first = first or p0
        ks = [p["point"]["k"] for p in pts]
        band(ax, ks, pts, PALETTE[i], f"{name}, {rule} ({exponent_text(verdict(record, f'scaling-k-{rule}'))})",
             "os"[i])
        kk = np.unique(np.geomspace(min(ks), max(ks), 30).round().astype(int))
        bound_line(ax, kk, sweep(claim_bound(theorem, claim.format(rule=rule)), p0, "k", kk), PALETTE[i],
                   f"{bound_name}, {rule}")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("number of concepts k")
    return first


def select(record: dict, **kw) -> list[dict]:
    return [p for p in record["points"] if all(p["point"].get(k) == v for k, v in kw.items())]


def verdict(record: dict, claim: str) -> dict:
    return next(v for v in record["verdicts"] if v["claim"] == claim)


def exponent_text(v: dict) -> str:
    f = v.get("fit")
    if not f:
        return "no fit"
    what = f"exponent of n_hat / ({v['divided_by']})" if v.get("divided_by") else "exponent"
    if v.get("variable"):
        what += f" in {v['variable']}"
    return f"{what} {f['exponent']:.2f} [{f['low']:.2f}, {f['high']:.2f}]"


def save(fig, record: dict, out) -> list[Path]:
    from privbounds.results import overrides_text

    custom = f"; custom grid {overrides_text(record)}" if record.get("overrides") else ""
    return save_named(fig, record["id"],
                      f"{record['id']}: {record['title']}\n({record['fidelity']} fidelity, seed "
                      f"{record['provenance']['seed']}{custom}; bands: simultaneous 95% intervals of n_hat)", out)


_MISSING: ContextVar[tuple] = ContextVar("privbounds_headline_missing", default=())


@contextlib.contextmanager
def drawn_without(theorem_ids):
    """While drawing a paper's headline figures: the theorems they draw from that have no
    results here; ``save_named`` writes their names on the figure."""
    token = _MISSING.set(tuple(theorem_ids))
    try:
        yield
    finally:
        _MISSING.reset(token)


def save_named(fig, name: str, title: str, out) -> list[Path]:
    """Write ``<out>/figures/<name>.png`` and ``.svg`` atomically."""
    fig.suptitle(title, fontsize=10)
    missing = _MISSING.get()
    if missing:
        shown = ", ".join(missing[:6]) + (f" and {len(missing) - 6} more" if len(missing) > 6 else "")
        fig.text(0.5, 0.005, f"Partial: drawn without {shown} (no results in this folder; run them to "
                 "complete the figure)", ha="center", va="bottom", fontsize=9, color="#8b0000")
        fig.tight_layout(rect=(0, 0.035, 1, 1))
    else:
        fig.tight_layout()
    folder = Path(out) / "figures"
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for ext in ("png", "svg"):
        path = folder / f"{name}.{ext}"
        tmp = path.with_name(f".{path.name}.tmp")
        fig.savefig(tmp, format=ext, dpi=120)
        tmp.replace(path)
        paths.append(path)
    plt.close(fig)
    return paths


def sibling(out, theorem_id: str) -> dict | None:
    """Another theorem's result record in the same output folder, or None if it was not run
    (a figure that draws a baseline from another theorem uses it when present)."""
    from privbounds.params import ParameterError
    from privbounds.results import load

    try:
        return load(out, theorem_id)
    except (ParameterError, OSError, ValueError):
        return None
