"""Figures for the fingerprinting lower bounds of Bun, Nissim, Stemmer, Section 4: the
attack of Theorem 4.3 / 4.7 (and Prop 4.11) as curves over the database size N
(accuracy, tracing rates under the DP ceiling of the claim "ceiling-dp-trace", the
epsilon the attack certifies), and the rows N* a private learner needs against the
lower bound of the claim "lower-rows" (Remarks 4.4 / 4.8, Corollaries 4.6 / 4.10; the
corollaries also draw the bound's asymptotic shape, for reference only)."""

from __future__ import annotations

import numpy as np

from privbounds.bounds import bns
from privbounds.figures.common import (
    PALETTE,
    band,
    bound_line,
    claim_bound,
    exponent_text,
    legend,
    new_figure,
    save,
    save_named,
    select,
    sweep,
    verdict,
)
from privbounds.results import load_rows
from privbounds.simulators.engine.stats import clopper_pearson


def certified_epsilon(accused, framed, trials_a, trials_f, delta, conf=0.95):
    """Lower confidence bound on epsilon from P[accused | D] <= e^eps P[framed | D_-i] + delta:
    ln((lower end of P[accused] - delta) / upper end of P[framed]), the two ends at
    (1 + conf) / 2 each (so jointly at least conf); 0 when nothing is certified."""
    # a two-sided interval at conf puts each one-sided end at (1 + conf) / 2
    lo, _ = clopper_pearson(accused, trials_a, conf)
    _, hi = clopper_pearson(framed, trials_f, conf)
    with np.errstate(divide="ignore", invalid="ignore"):
        eps = np.log(np.maximum(lo - delta, 0) / hi)
    return np.maximum(np.nan_to_num(eps, nan=0.0, neginf=0.0), 0.0)


def certified_table(rows, pairs, keys):
    """Certified epsilon per (keys..., n), maximised over the (accused, framed) event pairs
    (each pair at 1 - 0.05 / len(pairs), so the maximum holds at 95%)."""
    out = {}
    conf = 1 - 0.05 / len(pairs)
    for acc, fr in pairs:
        a = rows[rows["event"] == acc].set_index([*keys, "n"])
        f = rows[rows["event"] == fr].set_index([*keys, "n"])
        common = a.index.intersection(f.index)
        for idx in common:
            e = float(certified_epsilon(a.loc[idx, "successes"], f.loc[idx, "successes"], a.loc[idx, "trials"],
                                        f.loc[idx, "trials"], float(a.loc[idx, "delta"]), conf))
            out[idx] = max(out.get(idx, 0.0), e)
    return out


def _rate(ax, rows, event, color, label, style="o-"):
    g = rows[rows["event"] == event].sort_values("n")
    if g.empty:
        return
    lo, hi = clopper_pearson(g["successes"].to_numpy(), g["trials"].to_numpy(), 0.95)
    ax.fill_between(g["n"], lo, hi, color=color, alpha=0.2, linewidth=0)
    ax.plot(g["n"], g["p_hat"], style, color=color, markersize=4, label=label)


def attack(theorem, record, out, pairs, limit, limit_label, trace_event=None,
           xlabel="rows N of the attack database", by_users=True):
    """Three panels over N: accuracy of each learner, the tracer's rates with the DP
    ceiling of the theorem's claim "ceiling-dp-trace" (on ``trace_event``, default the
    first pair's "accused" event), and the certified epsilon. ``limit(users, alpha)`` is
    where accuracy stops forcing a feasible word (None: everywhere)."""
    ceiling = claim_bound(theorem, "ceiling-dp-trace")
    trace_event = trace_event or pairs[0][0]
    rows = load_rows(out, record["id"])
    keys = ["users", "learner"] if by_users else ["learner"]   # by_users=False: one curve over n per learner
    groups = rows.groupby(keys).ngroups
    # the middle panel's legend has two entries per curve: leave it room below the axes
    fig, (ax1, ax2, ax3) = new_figure(3, height=4.6 + 0.45 * groups)
    cert = certified_table(rows, pairs, keys)
    for i, (key, g) in enumerate(rows.groupby(keys)):
        users, learner = key if by_users else (int(g["users"].iloc[0]), key[0] if isinstance(key, tuple) else key)
        color = PALETTE[i % len(PALETTE)]
        name = f"{learner}, n = {users}" if by_users else learner
        _rate(ax1, g, "accurate", color, name)
        _rate(ax2, g, trace_event, color, f"P[{trace_event}], {name}")
        _rate(ax2, g, pairs[0][1], color, f"P[{pairs[0][1]}], {name}", "x:")
        mine = {idx[-1]: e for idx, e in cert.items() if idx[:-1] == ((users, learner) if by_users else (learner,))}
        xs = sorted(mine)
        ax3.plot(xs, [mine[n] for n in xs], "o-", color=color, markersize=5, label=name)
        alpha, eps = float(g["alpha"].iloc[0]), float(g["epsilon"].iloc[0])
        if limit is not None:
            ax1.axvline(limit(users, alpha), color=color, linestyle=":", linewidth=1)
        if learner != "erm":
            ax3.axhline(eps, color="k", linestyle="--", linewidth=1)
    for users in sorted(rows["users"].unique()):
        g = rows[rows["users"] == users]
        c = ceiling(g.iloc[0].to_dict())
        ax2.axhline(c, color="k", linestyle="--", linewidth=0.8)
        ax2.annotate(f"DP ceiling, n = {users}", (rows["n"].min(), c), fontsize=7, va="bottom")
    for ax in (ax1, ax2, ax3):
        ax.set_xscale("log", base=2)
        ax.set_xlabel(xlabel)
    ax1.set_ylabel("P[every hypothesis alpha-accurate]")
    ax1.set_title(f"accuracy{'; dotted: ' + limit_label if limit_label else ''}", fontsize=10)
    ax2.set_yscale("symlog", linthresh=1e-3)
    ax2.set_ylim(0, 1.5)
    ax2.set_ylabel("probability")
    ax2.set_title(f"tracing, {trace_event} vs {pairs[0][1]}; dashed: DP ceiling of P[{trace_event}]; "
                  f"verdict {verdict(record, 'ceiling-dp-trace')['verdict']}", fontsize=10)
    ax3.set_ylabel("certified epsilon (95% lower bound)")
    ax3.set_title("epsilon the attack certifies; dashed: declared eps", fontsize=10)
    for ax in (ax1, ax2, ax3):
        legend(ax, sort=True)
    return save_named(fig, record["id"],
                      f"{record['id']}: {record['title']}\n({record['fidelity']} fidelity, seed "
                      f"{record['provenance']['seed']}; bands: 95% Clopper-Pearson intervals of each rate)", out)


def thm4_3(theorem, record, out):
    return attack(theorem, record, out, [("accused-middle", "framed-middle"), ("accused-first", "framed-first")],
                  lambda users, alpha: (users - 1) / (2 * alpha), "alpha N = (n - 1)/2")


def search_curves(ax, record, out, key, bound):
    """The success rates the n_hat search evaluated, one curve per value of ``key``, with
    each point's lower bound (``bound``, a claim's bound) as a vertical line of the same
    colour."""
    rows = load_rows(out, record["id"])
    rows = rows[rows["experiment"] == "search"]
    for i, (val, g) in enumerate(rows.groupby(key)):
        g = g.sort_values("n")
        color = PALETTE[i % len(PALETTE)]
        lo, hi = clopper_pearson(g["successes"].to_numpy(), g["trials"].to_numpy(), 0.95)
        ax.fill_between(g["n"], lo, hi, color=color, alpha=0.2, linewidth=0)
        ax.plot(g["n"], g["p_hat"], "o-", color=color, markersize=3, label=f"{key} = {val}")
        ax.axvline(bound(g.iloc[0].to_dict()), color=color, linestyle="--", linewidth=1)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("rows N of the attack database")
    ax.set_ylabel("P[every hypothesis alpha-accurate]")
    ax.set_title("success rates of the search; dashed: the lower bound", fontsize=10)
    legend(ax)


def rem4_4(theorem, record, out, name="n / (2 alpha)"):
    bound = claim_bound(theorem, "lower-rows")
    fig, (ax, ax2) = new_figure(2, height=7.0)
    search_curves(ax2, record, out, "alpha", bound)
    users_all = sorted({p["point"]["users"] for p in record["points"]})
    for i, users in enumerate(users_all):
        pts = select(record, users=users)
        claim = [v for v in record["verdicts"] if v["claim"].endswith(f"-n{users}")]
        txt = exponent_text(claim[0]) if claim else ""
        band(ax, [1 / p["point"]["alpha"] for p in pts], pts, PALETTE[i], f"N*, n = {users} users ({txt})", "os"[i % 2])
        p0 = pts[0]["point"]
        inv = np.geomspace(min(1 / p["point"]["alpha"] for p in pts), max(1 / p["point"]["alpha"] for p in pts), 30)
        bound_line(ax, inv, sweep(bound, p0, "alpha", 1 / inv), PALETTE[i], f"lower bound {name}, n = {users}")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("1 / alpha")
    ax.set_ylabel("rows N* for accuracy 1 - beta")
    ax.set_title(f"padding; lower-rows verdict: {verdict(record, 'lower-rows')['verdict']}", fontsize=10)
    legend(ax)
    return save(fig, record, out)


def versus_k(theorem, record, out, asymptotic, factor, name):
    """N*(k) over the lower bound of the claim "lower-rows" (a step: n_LB(k) is an
    integer), with ``asymptotic(k) * factor(point)``, the bound's shape, for reference."""
    bound = claim_bound(theorem, "lower-rows")
    fig, (ax, ax2) = new_figure(2, height=7.6)
    search_curves(ax2, record, out, "k", bound)
    pts = record["points"]
    ks = [p["point"]["k"] for p in pts]
    p0 = pts[0]["point"]
    band(ax, ks, pts, PALETTE[0],
         f"N*(k) of {p0['learner']} ({exponent_text(record['verdicts'][1])})")
    grid = np.unique(np.round(np.geomspace(min(ks), max(ks), 60)))
    lb = sweep(bound, p0, "k", grid)
    ax.step(grid, np.maximum(lb, 0.5), where="post", color="k", label=f"lower bound {name}")
    bound_line(ax, grid, asymptotic(grid) * factor(p0), "0.5", "asymptotic shape of the bound (reference only)", ":")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("number of concepts k")
    ax.set_ylabel("rows N*")
    ax.set_title(f"lower-rows verdict: {record['verdicts'][0]['verdict']}", fontsize=10)
    legend(ax)
    return save(fig, record, out)


def cor4_6(theorem, record, out):
    return versus_k(theorem, record, out, bns.n_lb_thresh_asymptotic,
                    lambda p: 1 / (2 * p["alpha"]), "n_LB(k) / (2 alpha)")


def thm4_7(theorem, record, out):
    return attack(theorem, record, out, [("accused", "framed")],
                  lambda users, alpha: users / alpha, "alpha N = n", trace_event="traced")


def prop4_11(theorem, record, out):
    return attack(theorem, record, out, [("accused", "framed")],
                  None, "", trace_event="traced", xlabel="users n = 2^d = rows", by_users=False)


def rem4_8(theorem, record, out):
    return rem4_4(theorem, record, out, name="n / alpha")


def cor4_10(theorem, record, out):
    return versus_k(theorem, record, out, bns.n_lb_agnostic_asymptotic,
                    lambda p: 1 / p["alpha"], "n_LB(k) / alpha")
