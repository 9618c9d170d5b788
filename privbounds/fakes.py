"""A tiny fake measurement of a simulator's smoke grid, shaped as a run records it: what
the common checks (privbounds/testing.py) give the claims to reach a verdict without
running the learner. Not tied to one paper."""

from __future__ import annotations

from privbounds.simulators.engine.stats import clopper_pearson, crossing


def fake_measurement(sim, trials: int = 400, conf: float = 0.95) -> tuple[list, list, list]:
    """(points, rows, audits) as a smoke run records them, with made-up counts: each search
    fails at its start and succeeds from twice and four times it, each curve succeeds half
    the time, each mean is 0.25 (sd 0.1), each audit separates D from D' a little. What the
    claims need to reach a verdict, without running the learner."""
    points, rows = [], []
    for p in sim.points("smoke"):
        rec = {"point": p, "conf": conf, "privacy": sim.privacy(p)}
        curve = sim.curve(p)
        if sim.measure == "mean":
            for n in curve:
                rows.append({**p, "n": int(n), "trials": trials, "mean": 0.25, "sd": 0.1, "ci_low": 0.24,
                             "ci_high": 0.26, "min": 0.0, "max": 0.5, "conf": conf, "experiment": "mean"})
            points.append({**rec, "trials": trials * len(curve)})
            continue
        lo, hi = sim.n_range(p)
        ns = list(curve) if curve else sorted({lo, min(2 * lo, hi), min(4 * lo, hi)})
        succ = [trials // 2] * len(ns) if curve else [0] + [trials] * (len(ns) - 1)
        cp_lo, cp_hi = clopper_pearson(succ, [trials] * len(ns), conf)
        for n, s, a, b in zip(ns, succ, cp_lo, cp_hi):
            rows.append({**p, "n": int(n), "trials": trials, "successes": int(s), "p_hat": s / trials,
                         "ci_low": float(a), "ci_high": float(b), "conf": conf,
                         "experiment": "curve" if curve else "search"})
        rec["trials"] = trials * len(ns)
        if curve is None:
            c = crossing(ns, succ, [trials] * len(ns), sim.target(p), conf, floor=sim.n_floor(p))
            rec.update(c.as_dict(), censored=c.high is None, n_floor=int(sim.n_floor(p)), floor_reached=False)
        points.append(rec)
    audits = [{**c.describe(), "conf": 0.999, "budgets": {"1": {"hits_d": 120, "hits_d_prime": 100, "trials": 1000},
                                                           "2": {"hits_d": 300, "hits_d_prime": 100, "trials": 1000}}}
              for c in sim.audits()]
    return points, rows, audits
