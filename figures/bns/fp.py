"""Figures of Bun, Nissim and Stemmer, "Simultaneous Private Learning of Multiple
Concepts", Section 4: the fingerprinting attack of Theorem 4.3 / 4.7 and Proposition 4.11
as curves over the database size N of n users (the statement's notation; the tables'
column "n" is N): the tracing rates under the DP ceiling of the claim "ceiling-dp-trace"
(the main figure, a panel per n), and the accuracy and the epsilon the attack certifies
(parts "accuracy" and "epsilon"). The rows N* a private learner needs against the lower
bound of the claim "lower-rows" (Remarks 4.4 / 4.8, Corollaries 4.6 / 4.10) are declared
for the one plotter (specs_lower.py)."""

from __future__ import annotations

import numpy as np

from privbounds.figures.bns.style import (
    TABLE_NAMES,
    claim_label,
    style,
)
from privbounds.figures.common import (
    claim_bound,
    interval_fill,
    legend,
    new_figure,
    save,
    shades,
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


def _rate(ax, rows, event, st, label, dotted=False, band=True):
    """The measured rate of ``event`` against N in the learner's style ``st``; its 95%
    interval as a light band (``band``) or, where bands of several learners would stack
    (the tracing panels: every private rate is 0 with the same interval), as a thin line
    at the interval's upper end."""
    g = rows[rows["event"] == event].sort_values("n")
    if g.empty:
        return
    lo, hi = clopper_pearson(g["successes"].to_numpy(), g["trials"].to_numpy(), 0.95)
    if band:
        interval_fill(ax, g["n"], lo, hi, color=st["color"], alpha=0.18, linewidth=0)
    else:
        ax.plot(g["n"], hi, "-", color=st["color"], linewidth=0.7, alpha=0.7)
    face = "none" if dotted or st.get("hollow") else st["color"]
    ax.plot(g["n"], g["p_hat"], ":" if dotted else "-", marker=st["marker"], color=st["color"],
            markersize=5, markerfacecolor=face, linewidth=1.0 if dotted else 1.4, label=label)


def _series(rows, by_users):
    """(users, table learner name, rows, style, label) per curve: the learner's colour and
    marker, lighter and hollow for the second and later numbers of users."""
    keys = ["users", "learner"] if by_users else ["learner"]
    users_all = sorted(rows["users"].unique())
    out = []
    for key, g in rows.groupby(keys):
        key = key if isinstance(key, tuple) else (key,)
        users, learner = (key if by_users else (int(g["users"].iloc[0]), key[0]))
        st = dict(style(learner))
        j = users_all.index(users) if by_users else 0
        if by_users and len(users_all) > 1:
            st["color"] = shades(st["color"], len(users_all))[j]
            st["hollow"] = j > 0
        name = TABLE_NAMES.get(learner, learner)
        # the number of users names a series only where it varies (else the subtitle says it)
        out.append((int(users), learner, g, st, f"{name}, n = {users} users" if by_users and len(users_all) > 1
                    else name))
    return out


ROWS_TEXT = "rows N of the attack database (column n of the tables)"


# the attack of each entry: the (accused, framed) event pairs, where accuracy starts forcing a
# feasible word (``limit(users, alpha)``, None: everywhere), the traced event (default the
# first pair's "accused"), the x label and whether the panels go by number of users
ATTACKS = {
    "bns.thm4_3": dict(pairs=[("accused-middle", "framed-middle"), ("accused-first", "framed-first")],
                       limit=lambda users, alpha: (users - 1) / (2 * alpha), limit_label="alpha N = (n - 1)/2"),
    "bns.thm4_7": dict(pairs=[("accused", "framed")], limit=lambda users, alpha: users / alpha,
                       limit_label="alpha N = n", trace_event="traced"),
    "bns.prop4_11": dict(pairs=[("accused", "framed")], limit=None, limit_label="", trace_event="traced",
                         xlabel="n = N: users = rows of the attack database (2^d)", by_users=False),
}


def attack(theorem, record, out):
    """Bespoke: the attack's rates, accuracy and certified epsilon are built from the results
    rows of events no claim judges (only the tracing ceiling is a claim). Three figures over
    the database size N (n the number of users, as in the statement; N the rows):

    - the main figure: the tracer's rates, one panel per number of users, with the DP
      ceiling of the theorem's claim "ceiling-dp-trace" on the traced event and the
      framing rate of the first pair;
    - part "accuracy": how often every hypothesis is alpha-accurate, with where accuracy
      starts forcing a feasible word;
    - part "epsilon": the epsilon the attack certifies against the declared one."""
    how = {"trace_event": None, "xlabel": ROWS_TEXT, "by_users": True, **ATTACKS[theorem.id]}
    rows = load_rows(out, record.id)
    series = _series(rows, how["by_users"])
    users_all = sorted(rows["users"].unique()) if how["by_users"] else [None]
    paths = _tracing_part(theorem, record, out, rows, series, users_all, how)
    paths += _accuracy_part(record, out, rows, series, users_all, how["limit"], how["limit_label"], how["xlabel"])
    return paths + _epsilon_part(record, out, rows, series, how["pairs"], how["by_users"], how["xlabel"])


def _tracing_part(theorem, record, out, rows, series, users_all, how):
    """``attack``'s main figure: the tracing rates under the DP ceiling, a panel per number of users."""
    ceiling = claim_bound(theorem, "ceiling-dp-trace")
    trace_event = how["trace_event"] or how["pairs"][0][0]
    framed, xlabel = how["pairs"][0][1], how["xlabel"]
    # main: the tracing rates under the DP ceiling, a panel per number of users
    # tall enough from the start for the legend (two entries per learner, two notes)
    per_panel = max(sum(1 for s in series if users is None or s[0] == users) for users in users_all)
    fig, axes = new_figure(len(users_all), width=8.0 if len(users_all) == 1 else 6.4,
                           height=4.6 + 0.25 * (2 * per_panel + 2))
    for ax, users in zip(axes, users_all):
        # the users are the panel's: each learner in its own colour, named without them
        mine = [(g, style(learner), TABLE_NAMES.get(learner, learner))
                for u, learner, g, _, _ in series if users is None or u == users]
        for g, st, name in mine:
            _rate(ax, g, trace_event, st, f"{name}: P[{trace_event}]", band=False)
        for g, st, name in mine:
            _rate(ax, g, framed, st, f"{name}: P[{framed}] (dotted)", dotted=True, band=False)
        ax.plot([], [], "-", color="0.4", linewidth=0.7, label=f"thin: upper end of the 95% interval of P[{trace_event}]")
        g0 = rows if users is None else rows[rows["users"] == users]
        c = ceiling(g0.iloc[0].to_dict())
        ax.axhline(c, color="k", linestyle="--", linewidth=1.2,
                   label=claim_label(theorem, record, "ceiling-dp-trace", f"DP ceiling {c:.3g} on P[{trace_event}]"))
        ax.set_xscale("log", base=2)
        ax.set_yscale("symlog", linthresh=1e-3)
        ax.set_ylim(0, 1.5)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("probability (linear below 1e-3)")
        cols = sorted(g0["k"].unique()) if "k" in g0 else []
        code = f", code of k = {cols[0]} columns" if len(cols) == 1 else ""
        ax.set_title(f"tracing, n = {users} users{code}" if users is not None else
                     f"tracing, n = N users{code}", fontsize=10)
        legend(ax)
    return save(fig, record, out, intervals="rates",
                what=f"tracing: P[{trace_event}] and P[{framed}] against the DP ceiling")


def _accuracy_part(record, out, rows, series, users_all, limit, limit_label, xlabel):
    """``attack``'s part "accuracy": how often every hypothesis is alpha-accurate."""
    # tall enough from the start for its legend: see the report on common._fit
    fig, (ax,) = new_figure(1, width=8.0, height=4.6 + 0.25 * (len(series) + len(users_all)))
    for _, _, g, st, name in series:
        _rate(ax, g, "accurate", st, name)
    if limit is not None:
        styles = [":", "-.", (0, (1, 3)), (0, (5, 2, 1, 2))]
        alpha = float(rows["alpha"].iloc[0])
        for j, users in enumerate(users_all):
            x = limit(users, alpha)
            ax.axvline(x, color="0.3", linestyle=styles[j % len(styles)], linewidth=1.2,
                       label=f"N = {x:g}: {limit_label} for n = {users} users; above it accuracy forces a "
                             "feasible word")
    ax.set_xscale("log", base=2)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("P[every hypothesis alpha-accurate]")
    ax.set_title("accuracy of each learner", fontsize=10)
    legend(ax)
    return save(fig, record, out, part="accuracy", intervals="rates", what="accuracy")


def _epsilon_part(record, out, rows, series, pairs, by_users, xlabel):
    """``attack``'s part "epsilon": the epsilon the attack certifies against the declared one."""
    cert = certified_table(rows, pairs, ["users", "learner"] if by_users else ["learner"])
    fig, (ax,) = new_figure(1, width=8.0, height=4.6 + 0.25 * (len(series) + 1))
    declared = set()
    for users, learner, g, st, name in series:
        mine = {idx[-1]: e for idx, e in cert.items() if idx[:-1] == ((users, learner) if by_users else (learner,))}
        xs = sorted(mine)
        ax.plot(xs, [mine[n] for n in xs], "-", marker=st["marker"], color=st["color"], markersize=5,
                markerfacecolor="none" if st.get("hollow") else st["color"], label=name)
        if learner != "erm":
            declared.add(float(g["epsilon"].iloc[0]))
    for eps in sorted(declared):
        ax.axhline(eps, color="k", linestyle="--", linewidth=1.2, label=f"declared eps = {eps:g} of the private learners")
    ax.set_xscale("log", base=2)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("certified epsilon (95% lower bound)")
    ax.set_title(f"epsilon the attack certifies from P[accused] vs P[framed] "
                 f"({len(pairs)} event pair{'s' if len(pairs) > 1 else ''})", fontsize=10)
    legend(ax)
    return save(fig, record, out, part="epsilon", intervals="rates", what="certified epsilon")
