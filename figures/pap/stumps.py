"""Figures for Bassily et al., "Private Query Release Assisted by Public Data" (ICML 2020),
section 4 (decision stumps): the public/private frontier of Theorem 4.2 and the robust
tracing attack of Theorem 4.3 (the section's baselines are declared in ``specs.py``).

``draw_stumps_frontier(ax, result)`` draws the frontier panel (n_hat alpha / sqrt(p)
against m alpha^2, one curve per p, collapsing while m << 1/alpha^2) on a given Axes from
the result record of pap.thm4_2; the paper's opening figure (paper.py) reuses it.
``certified_epsilons`` and ``kappa_hats`` compute what the tracing figure shows from the
record's rows (also used to print them).
"""

from __future__ import annotations

import math

import numpy as np

from privbounds.bounds import pap as pap_bounds
from privbounds.figures.common import (
    Band,
    band,
    bound_label,
    bound_line,
    claim_bound,
    legend,
    new_figure,
    save,
    select,
    verdict,
    wrap_title,
)
from privbounds.figures.pap.style import learner_color, setting_style, style
from privbounds.figures.spec_nhat import worst_points as worst
from privbounds.figures.style import BAND, SUBJECT, own_scale, tag
from privbounds.record import Record, fit_text, verdict_text
from privbounds.simulators.engine.stats import clopper_pearson

PAP = "public+private"
PUBLIC_DASHES = ("--", "-.", ":")  # the public-only requirement of each p in the stumps frontier
MECH_NAMES = {"full": "exact marginals", "sub": "subsample of 1/alpha^2 rows", "round": "rounded to 2 alpha",
              "pub": "public rows only", "combo": "DP combination (alg_combo)"}


def _worst(record, **where):
    """The record's searched points matching ``where``, worst distribution at each setting."""
    return worst([p for p in select(record, **where) if p.searched])


def _symlog_m(ax, ticks):
    ax.set_xscale("symlog", linthresh=0.05, linscale=0.5)
    ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
    ax.minorticks_off()
    ax.set_xlim(-0.005, None)


def draw_stumps_frontier(ax, result: Record) -> None:
    """The stumps frontier of pap.thm4_2 on ``ax``: for each p (at the frontier's alpha),
    n_hat alpha / sqrt(p) against m alpha^2 for the worst distribution at each m, with its
    interval band; dashed verticals at the public-only requirement 2 ln(2p/beta)/alpha^2 of
    each p (m alpha^2 units), a dotted black vertical at m = 1/alpha^2. ``result`` is the
    result record of pap.thm4_2 (results/pap.thm4_2.json)."""
    pts = [p for p in result.points if p.searched]
    if not pts:
        ax.set_axis_off()
        return
    alpha = _frontier_alpha(pts)
    ps = sorted({p.point["p"] for p in pts if p.point["alpha"] == alpha})
    # one learner (Theorem 4.2's release), one tone of its colour per p; the public-only
    # requirement of every p in the public-only baseline's colour
    m_pubs = []
    for p in ps:
        mine = worst([q for q in pts if q.point["p"] == p and q.point["alpha"] == alpha])
        scale = alpha / math.sqrt(p)
        scaled = [Band(*(v * scale if v else v for v in (q.n_hat, q.n_low, q.n_high)), q.floor_reached)
                  for q in mine]
        color, marker, subject = setting_style(PAP, ps, p, "p")
        band(ax, [q.point["m"] * alpha ** 2 for q in mine], scaled, color,
             f"public + private (alg_combo), p = {p}", marker, subject=subject)
        m_pubs.append(float(pap_bounds.m_public_stumps(alpha, mine[0].point["beta"], p)) * alpha ** 2)
    for i, (p, m_pub) in enumerate(zip(ps, m_pubs)):  # one colour (public data alone), a dash per p
        drawn = ax.axvline(m_pub, color=learner_color("public-only"), linestyle=PUBLIC_DASHES[i % len(PUBLIC_DASHES)],
                           linewidth=1.2, label=f"public data alone suffice, p = {p}: m alpha^2 = {m_pub:.3g}")
        tag(drawn, SUBJECT + "public-only")
    ax.axvline(float(pap_bounds.m_stumps_escape_shape(alpha)) * alpha ** 2, color="k", linestyle=":", linewidth=1.2,
               label="m = 1/alpha^2")
    ms = sorted({round(p.point["m"] * alpha ** 2, 6) for p in pts if p.point["alpha"] == alpha})
    _symlog_m(ax, [t for t in ms if t in (0, 0.05, 0.25, 1, 2, 8)] + [20])
    ax.set_xlim(-0.005, max(ms + m_pubs) * 1.6)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("public samples m, in units of 1/alpha^2 (m alpha^2)")
    ax.set_ylabel("private samples needed, n_hat alpha / sqrt(p)")
    flat = next((v for v in result.verdicts if v.claim == "scaling-m-flat"), None)
    title = f"Thm 4.2, stumps, alpha = {alpha:g}: below m = 1/alpha^2,\npublic data do not help"
    if flat:
        title += f"; {verdict_text(flat)}\nfit: {fit_text(flat)}"
    ax.set_title(wrap_title(ax, title), fontsize=10)
    own_scale(ax, "linear", "n_hat rescaled to O(1), read from 0")
    legend(ax)


def _frontier_alpha(points) -> float:
    """The frontier's alpha: the one with the most public sizes."""
    alphas = {p.point["alpha"] for p in points}
    return max(alphas, key=lambda a: len({p.point["m"] for p in points if p.point["alpha"] == a}))


DODGE = 1.06  # the k-th series of a panel at x times DODGE^k (centred): coinciding points side by side


def _m_series(ax, points, alpha_of, x_of, ks):
    """The release's n_hat at each public size m alpha^2 = k in ``ks`` (every k the figure
    draws, so that a k keeps its tone and marker in every panel), the series dodged along
    x (they coincide where public data do not help)."""
    drawn = [k for k in ks if any(abs(p.point["m"] * alpha_of(p) ** 2 - k) < 1e-6 for p in points)]
    for i, k in enumerate(drawn):
        mine = [p for p in points if abs(p.point["m"] * alpha_of(p) ** 2 - k) < 1e-6]
        color, marker, subject = setting_style(PAP, ks, k, "m_alpha2")
        shift = DODGE ** (i - (len(drawn) - 1) / 2)
        band(ax, [x_of(p) * shift for p in mine], mine, color, f"public + private, m alpha^2 = {k:g}", marker,
             subject=subject)


def thm4_2(theorem, record, out):
    """Bespoke: the frontier panel rescales n_hat by alpha / sqrt(p) against m alpha^2 on a
    symlog axis (m = 0 included) with each p's public-only requirement as a vertical line,
    which the one plotter's log axes and swept bounds cannot draw."""
    from privbounds.simulators.pap.stumps_frontier import ALPHA_SWEEP_M, ALPHA_SWEEP_P

    fig, axes = new_figure(3, width=6.0, height=7.4)
    draw_stumps_frontier(axes[0], record)
    bound = claim_bound(theorem, "upper-private-only")
    bound_text = bound_label(theorem, "upper-private-only", "private-only bound (upper-private-only, m = 0)")
    frontier_alpha = _frontier_alpha(record.points)
    # raw n_hat against p while m alpha^2 <= 0.25, with the private-only bound at m = 0
    small = [p for p in _worst(record, alpha=frontier_alpha) if p.point["m"] * frontier_alpha ** 2 <= 0.25 + 1e-9]
    ks = sorted({round(p.point["m"] * frontier_alpha ** 2, 6) for p in small} | set(ALPHA_SWEEP_M))
    _m_series(axes[1], small, lambda p: frontier_alpha, lambda p: p.point["p"], ks)
    at0 = [p for p in small if p.point["m"] == 0]
    if at0:
        xs = sorted(p.point["p"] for p in at0)
        bound_line(axes[1], xs, [bound({**at0[0].point, "p": x}) for x in xs], learner_color(PAP), bound_text,
                   subject=PAP)
    axes[1].set_title(wrap_title(axes[1], f"alpha = {frontier_alpha:g}, against p\n{_fit(record, 'scaling-p')}"),
                      fontsize=10)
    axes[1].set_xlabel(f"number of stumps p (series dodged by {DODGE - 1:.0%})")
    # the alpha sweep
    sweep = [p for p in _worst(record, p=ALPHA_SWEEP_P)
             if any(abs(p.point["m"] * p.point["alpha"] ** 2 - k) < 1e-6 for k in ALPHA_SWEEP_M)]
    _m_series(axes[2], sweep, lambda p: p.point["alpha"], lambda p: p.point["alpha"], ks)
    at0 = sorted([p for p in sweep if p.point["m"] == 0], key=lambda p: p.point["alpha"])
    if at0:
        bound_line(axes[2], [p.point["alpha"] for p in at0], [bound(p.point) for p in at0], learner_color(PAP),
                   bound_text, subject=PAP)
    axes[2].set_title(wrap_title(axes[2], f"p = {ALPHA_SWEEP_P}, against alpha\n{_fit(record, 'scaling-alpha')}"),
                      fontsize=10)
    axes[2].set_xlabel(f"accuracy alpha (series dodged by {DODGE - 1:.0%})")
    for ax in axes[1:]:
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_ylabel("private n_hat (worst distribution)")
        legend(ax)
    return save(fig, record, out)


def _fit(record, claim) -> str:
    """A claim's verdict and fitted exponent, for a panel's title."""
    v = verdict(record, claim)
    return f"{verdict_text(v)}; fit: {fit_text(v)}"


# --- Theorem 4.3 ---------------------------------------------------------------------------


def _rows(record, **where):
    return [r for r in record.rows if all(r.get(k) == v for k, v in where.items())]


def certified_epsilons(record, conf: float = 0.95) -> dict:
    """{(mechanism, p, N): epsilon certified by the accusations of the first private row}:
    ln((P_low[member accused] - delta) / FPR_high), 0 when nothing is certified. FPR_high
    = 1 - (1 - P_high[some of the f fresh rows accused])^(1/f): given the release the fresh
    rows are accused independently with one probability q, and q -> 1 - (1 - q)^f is
    convex, so by Jensen P[one fresh row accused] <= 1 - (1 - P[some of f])^(1/f). Each
    interval end one-sided at (1 + conf)/2, so the pair holds jointly at conf."""
    out = {}
    fps = {(r["mechanism"], r["p"], r["n"]): r for r in _rows(record, event="fp")}
    for r in _rows(record, event="member"):
        key = (r["mechanism"], r["p"], r["n"])
        f = fps.get(key)
        if f is None:
            continue
        lo, _ = clopper_pearson(r["successes"], r["trials"], conf)
        _, hi_any = clopper_pearson(f["successes"], f["trials"], conf)
        fpr_hi = 1.0 - (1.0 - float(hi_any)) ** (1.0 / f["fresh"])
        num = float(lo) - r["delta"]
        out[key] = max(0.0, math.log(num / fpr_hi)) if num > 0 and fpr_hi > 0 else 0.0
    return out


def kappa_hats(record) -> dict:
    """{p: (N, kappa_low, kappa_high, alpha)}: at N rows, the median number of accused rows
    lies in [t, t') where t is the largest count with P_hat[at least t accused] >= 1/2 on the
    curve and t' the next count evaluated; kappa_hat = alpha^2 x that bracket."""
    out = {}
    for p in sorted({r["p"] for r in _rows(record, event="flagged")}):
        rows = sorted(_rows(record, event="flagged", p=p), key=lambda r: r["n"])
        ts = [r["n"] for r in rows]
        ok = [r["n"] for r in rows if r["p_hat"] >= 0.5]
        a = rows[0]["alpha"]
        lo = max(ok) if ok else 0
        later = [t for t in ts if t > lo]
        hi = later[0] if later else rows[0]["rows"] + 1
        out[p] = (rows[0]["rows"], a * a * lo, a * a * hi, a)
    return out


def _rate(ax, rows, color, label, style="o-", subject=None, shade=0.15):
    """Measured rates with their 95% Clopper-Pearson intervals as a band (``style.BAND``)
    of opacity ``shade``."""
    rows = sorted(rows, key=lambda r: r["n"])
    if not rows:
        return
    n = [r["n"] for r in rows]
    lo, hi = clopper_pearson([r["successes"] for r in rows], [r["trials"] for r in rows], 0.95)
    tag(ax.fill_between(n, lo, hi, color=color, alpha=shade, linewidth=0), BAND)
    drawn = ax.plot(n, [r["p_hat"] for r in rows], style, color=color, markersize=5, label=label)
    if subject is not None:
        tag(drawn, SUBJECT + subject)


MECH_LEARNER = {"full": "exact", "sub": "subsample", "round": "rounded", "pub": "public-only", "combo": "public+private"}


def _attack_curves(record, a_member, a_fp, a_eps, a_acc) -> None:
    """Each release's rates (its first private and first public row accused, a fresh row
    accused, alpha-accurate) and the epsilon its accusations certify, one line style per p."""
    mechs = [m for m in MECH_NAMES if _rows(record, event="member", mechanism=m)]
    ps = sorted({r["p"] for r in _rows(record, event="member")})
    cert = certified_epsilons(record)
    for mech in mechs:
        learner = MECH_LEARNER[mech]
        color, marker = style(learner)
        for j, p in enumerate(ps):
            name = f"{MECH_NAMES[mech]}" + (f", p = {p}" if len(ps) > 1 else "")
            line = marker + ("-", "--")[j % 2]
            for ax, event, text, how in ((a_member, "member", f"private row: {name}", line),
                                         (a_member, "public", f"public row: {name}", marker + ":"),
                                         (a_fp, "fp", name, line), (a_acc, "accurate", name, line)):
                # five releases' intervals overlap down to 0: light bands, so that they stay readable
                _rate(ax, _rows(record, event=event, mechanism=mech, p=p), color, text, how, subject=learner,
                      shade=0.07)
            mine = sorted((k[2], e) for k, e in cert.items() if k[0] == mech and k[1] == p)
            if mine:
                drawn = a_eps.plot([n for n, _ in mine], [e for _, e in mine], line, color=color, markersize=5,
                                   label=name)
                tag(drawn, SUBJECT + learner)


def _attack_ceilings(theorem, record, a_member, a_fp, a_eps) -> None:
    """The claims' ceilings (the DP release's member rate, the false positives) and the
    declared epsilon of the DP release."""
    member_rows = _rows(record, event="member", mechanism="combo")
    if member_rows:
        c = claim_bound(theorem, "ceiling-dp-member")(member_rows[0])
        a_member.axhline(c, color="k", linestyle="--", linewidth=1,
                         label=bound_label(theorem, "ceiling-dp-member",
                                           f"DP ceiling e^eps rho + delta = {c:.4f} (ceiling-dp-member)"))
        a_eps.axhline(member_rows[0]["epsilon"], color="k", linestyle="--", linewidth=1,
                      label=f"declared eps of the DP release = {member_rows[0]['epsilon']:g}")
    fp_rows = _rows(record, event="fp")
    if fp_rows:
        c = claim_bound(theorem, "ceiling-false-positive")(fp_rows[0])
        a_fp.axhline(c, color="k", linestyle="--", linewidth=1,
                     label=bound_label(theorem, "ceiling-false-positive",
                                       f"soundness ceiling 1 - (1 - rho)^{fp_rows[0]['fresh']} = {c:.4f}"))


def thm4_3(theorem, record, out):
    """Bespoke: the tracing attack's rates per release, the epsilon they certify and the
    survival function P[at least t rows accused], none of which is an n_hat or a claim's
    ceiling against n that the one plotter draws."""
    # two figures of at most two panels a row (the six panels side by side would be 19 in
    # wide): the attack on each release, then the tracing threshold of the rounded marginals
    fig, (a_member, a_fp, a_eps, a_acc) = new_figure(4, width=6.5, height=6.4)
    _attack_curves(record, a_member, a_fp, a_eps, a_acc)
    _attack_ceilings(theorem, record, a_member, a_fp, a_eps)
    a_member.set_yscale("symlog", linthresh=1e-3)
    a_member.set_ylim(0, 1.5)
    a_member.set_title("P[first private (solid) / public (dotted) row accused]\n"
                       + verdict_text(verdict(record, "ceiling-dp-member")), fontsize=10)
    a_fp.set_yscale("symlog", linthresh=1e-3)
    a_fp.set_ylim(0, 1)
    a_fp.set_title("P[some fresh non-member row accused]\n"
                   + verdict_text(verdict(record, "ceiling-false-positive")), fontsize=10)
    a_eps.set_title("epsilon the accusations certify (95% lower bound)", fontsize=10)
    a_eps.set_ylabel("certified epsilon")
    a_acc.set_title("P[alpha-accurate: max_j |G_j - mu_j| <= alpha]\n(the paper's accuracy)", fontsize=10)
    # the rates of the top row span decades down to 0 (symlog); these two do not
    own_scale(a_eps, "linear", "an epsilon, not a rate")
    own_scale(a_acc, "linear", "a rate that goes from 0 to 1")
    for ax in (a_member, a_fp, a_eps, a_acc):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("rows N of the sample (half public)")
        legend(ax, sort=True)
    for ax in (a_member, a_fp, a_acc):
        ax.set_ylabel("probability")
    paths = save(fig, record, out, intervals="rates", what="the tracing attack on each release")
    return paths + _thm4_3_threshold(record, out)


def _thm4_3_threshold(record, out):
    """Theorem 4.3's second figure: the tracing threshold n_0 of the rounded marginals
    against p, and the number of rows they accuse (kappa_hat)."""
    fig, (a_n0, a_kappa) = new_figure(2, width=6.5, height=6.4)
    rounded = style("rounded")
    # the tracing threshold n_0 against p
    pts = [p for p in select(record, event="untraced") if p.searched]
    if pts:
        band(a_n0, [p.point["p"] for p in pts], pts, rounded[0], "n_0 of the rounded marginals", rounded[1],
             subject="rounded")
        first = min(pts, key=lambda p: p.point["p"])
        p0, n0 = first.point["p"], first.n_hat
        xs = np.array(sorted(p.point["p"] for p in pts), float)
        a_n0.plot(xs, n0 * np.sqrt(xs / p0), ":", color="gray", label="sqrt(p) through the first point")
        a_n0.plot(xs, n0 * xs / p0, "-.", color="gray", label="p through the first point")
        v = verdict(record, "scaling-threshold-p")
        k = first.point
        a_n0.set_title(wrap_title(a_n0, f"tracing threshold n_0: fewer than kappa0/alpha^2 = "
                                  f"{math.ceil(k['kappa0'] / k['alpha'] ** 2 - 1e-9)} rows accused w.p. >= 1 - beta"
                                  f"\n{verdict_text(v)}; fit: {fit_text(v)}"), fontsize=10)
    a_n0.set_xscale("log", base=2)
    a_n0.set_yscale("log")
    a_n0.set_xlabel("number of stumps p")
    a_n0.set_ylabel("rows N (simultaneous 95% band of n_0)")
    legend(a_n0)
    kap = kappa_hats(record)
    for p in sorted(kap):
        rows = sorted(_rows(record, event="flagged", p=p), key=lambda r: r["n"])
        n_ref, lo, hi, _ = kap[p]
        color, marker, subject = setting_style("rounded", sorted(kap), p, "p")
        _rate(a_kappa, rows, color, f"p = {p}, N = {n_ref}: kappa_hat in [{lo:.3g}, {hi:.3g})", marker + "-",
              subject=subject)
    a_kappa.axhline(0.5, color="k", linestyle=":", linewidth=1, label="1/2 (the median)")
    a_kappa.set_xscale("log", base=2)
    a_kappa.set_xlabel("t (rows)")
    a_kappa.set_ylabel("P[at least t rows accused] (95% Clopper-Pearson)")
    a_kappa.set_title("rounded marginals at N = sqrt(p / ln(1/rho)) / alpha:\n"
                      "kappa_hat = alpha^2 x median number accused", fontsize=10)
    own_scale(a_kappa, "linear", "a probability; the median is where it crosses 1/2")
    legend(a_kappa)
    return save(fig, record, out, part="threshold", what="the tracing threshold of the rounded marginals")
