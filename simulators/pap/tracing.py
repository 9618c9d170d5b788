"""Bassily et al., "Private Query Release Assisted by Public Data" (ICML 2020), Theorem 4.3
(the special case of Dwork, Smith, Steinke, Ullman, Vadhan 2015, Thm 17 the paper uses):
robust tracing. An alpha-accurate release of the p stumps computed from N <= n_0 ~
sqrt(p)/alpha samples lets an attacker who knows D flag about 1/alpha^2 of them, while it
flags a fresh non-member with probability at most rho.

The attacker is ``simulators/pap/tracer.py`` (centred score, threshold
||G - mu|| sqrt(2 ln(1/rho))). The population: mu_j uniform on (a fine grid of) (-1, 1),
redrawn per trial (the fingerprinting prior; ``stump_release.random_means``). The sample has N rows: the
first n = N - m private, the last m = floor(pub N) public.

Mechanisms (``mechanism``):
- ``full``: the exact marginals of all N rows (non-private);
- ``sub``: the marginals of k = ceil(1/alpha^2) of the N rows, chosen at random (all of
  them when N < k): average error about alpha against the sample, and only those k rows
  can be traced ("trace amounts");
- ``round``: the exact marginals rounded to the nearest multiple of 2 alpha, so
  |G_j - mean_j| <= alpha in every coordinate: the coarsest rounding that is alpha-accurate
  against the sample, and the mechanism whose tracing threshold we search;
- ``pub``: the public marginals only (never looks at a private row);
- ``combo``: pap.alg_combo, (eps, delta)-DP in the private rows.

Events (each point measures one; the engine's n is N unless said otherwise):
- ``member``: the first private row is accused (per-member rate of a fixed role);
- ``public``: the first public row is accused;
- ``fp``: some of ``fresh`` = 100 fresh rows from D, independent of the release, is
  accused (at most 1 - (1 - rho)^fresh, since soundness holds given every release);
- ``accurate``: the paper's accuracy (Definition 2.5), max_j |G_j - mu_j| <= alpha against
  the population (DSS15 ask less: mean_j |G_j - mean_j| <= alpha against the sample, which
  every mechanism here meets at alpha = 0.25 already at N = 16);
- ``untraced``: fewer than K = kappa0/alpha^2 of the N rows are accused: its n_hat (the
  smallest N at which that holds with probability >= 1 - beta) is the tracing
  threshold n_0 of the mechanism;
- ``flagged``: at N = ``rows`` fixed, at least n of the rows are accused (a curve over
  n: its median gives kappa_hat = alpha^2 * median number flagged).

The first four judge one row per trial, so they never build the sample: the other rows
enter only through their coordinate sums, 2 Binomial(size, (1 + mu)/2) - size (the sums of
the rest of the sample, and of the rows a subsample draws besides the judged one: i.i.d.
from D whichever they are), exact in law. ``untraced`` and ``flagged`` count accusations
over the whole sample: they draw the (trials, N, p) rows (one byte per entry, as +1
indicators) and score them all, one matrix-vector product per trial.

Privacy audit: the combined release at p = 4 with the public sample held fixed (the same
instance as pap.thm4_2, ``base_stumps.audit_case``).
"""

from __future__ import annotations

import math

import numpy as np

from privbounds.bounds.pap import n_stumps_lower_shape
from privbounds.params import ALPHA, APPROX_DELTA, BETA, EPSILON_AT_MOST_1, Interval, Options, ParameterError
from privbounds.simulators.engine.simulator import Fidelity, Simulator, expand
from privbounds.simulators.pap import tracer
from privbounds.simulators.pap.base_stumps import COMBO_M, COMBO_THRESHOLD, audit_case
from privbounds.simulators.pap.stump_release import (
    combo_release,
    public_release,
    random_means,
    sample_sums,
    sup_error,
)
from privbounds.simulators.shared.accuracy import within

MECHANISMS = ("full", "sub", "round", "pub", "combo")
ROW_EVENTS = ("member", "public", "fp", "accurate")     # one judged row per trial: O(p)
SAMPLE_EVENTS = ("untraced", "flagged")                 # the whole sample is scored: O(N p)
EVENTS = ROW_EVENTS + SAMPLE_EVENTS

# Whole-sample events are costly: fewer trials per evaluated n than the default; the rate
# events scale them up with trials_factor.
FIDELITIES = {
    "smoke": Fidelity(trials=20, block=20, steps=2, audit=0.25),
    "quick": Fidelity(trials=100, block=100, steps=4, audit=1.0),
    "full": Fidelity(trials=400, block=200, steps=4, audit=2.0),
}
GRIDS = {
    "smoke": {"rate_p": [256], "search_p": [256, 512, 1024], "kappa_p": [256]},
    "quick": {"rate_p": [1024], "search_p": [1024, 2048, 4096, 8192, 16384], "kappa_p": [1024, 2048, 4096]},
    "full": {"rate_p": [1024], "search_p": [1024, 2048, 4096, 8192, 16384], "kappa_p": [1024, 2048, 4096, 8192]},
}
RATE_ROWS = (16, 64, 256, 1024)  # N of the rate curves (a curve's sizes depend on its point only)
BASE = {"alpha": [0.25], "rho": [1e-3], "kappa0": [0.5], "fresh": [100], "epsilon": [1.0], "delta": [1e-6],
        "beta": [0.1]}


def count_threshold(point: dict) -> int:
    """K = kappa0 / alpha^2 rounded up: the number of accused rows completeness asks for."""
    return int(math.ceil(point["kappa0"] / point["alpha"] ** 2 - 1e-9))


def subsample_size(point: dict) -> int:
    """k = ceil(1/alpha^2): rows the subsampling mechanism reads."""
    return int(math.ceil(1.0 / point["alpha"] ** 2 - 1e-9))


def reference_rows(point: dict) -> int:
    """N at which kappa_hat is measured: sqrt(p / ln(1/rho)) / alpha, Theorem 4.3's n_0
    with constant 1 (``bounds.pap.n_stumps_lower_shape``), rounded."""
    return max(2, int(round(float(n_stumps_lower_shape(point["alpha"], point["p"], point["rho"])))))


def split(point: dict, total: int) -> tuple[int, int]:
    """(n private, m public) rows of a sample of ``total`` rows."""
    m = int(math.floor(point["pub"] * total))
    return total - m, m


def release(point: dict, priv_sum, pub_sum, sub_sum, n: int, m: int, rng) -> np.ndarray:
    """The mechanism's answers from the coordinate sums of the private rows, the public rows
    and (``sub``) the subsample, (trials, p)."""
    mech, alpha = point["mechanism"], point["alpha"]
    if mech in ("full", "round"):
        g = (priv_sum + pub_sum) / (n + m)
        if mech == "round":
            g = np.clip(2 * alpha * np.round(g / (2 * alpha)), -1.0, 1.0)
        return g
    if mech == "sub":
        return sub_sum / min(subsample_size(point), n + m)
    if mech == "pub":  # pap.alg_pubonly, the same function as pap.base_stumps' public baseline
        return public_release(pub_sum / m)
    return combo_release(priv_sum / n, pub_sum / m if m else None, n, m, point["epsilon"], point["delta"], rng)


def _row_event(point: dict, total: int, trials: int, rng: np.random.Generator) -> np.ndarray:
    """One judged row per trial (see the module docstring); exact in law."""
    p, event, rho, mech = point["p"], point["event"], point["rho"], point["mechanism"]
    n, m = split(point, total)
    k = min(subsample_size(point), total)
    mu = random_means(trials, p, rng)
    zero = np.zeros((trials, p))
    # the judged row y: the first private (member) or public (public) row; none for fp, accurate
    y = tracer.sample_row(mu, rng) if event in ("member", "public") else zero
    own_priv, own_pub = (1, 0) if event == "member" else (0, 1) if event == "public" else (0, 0)
    priv_sum = pub_sum = sub_sum = zero
    if mech == "sub":
        # the subsample holds y with probability k/N; its other rows are i.i.d. from D
        held = (rng.random(trials) < k / total)[:, None] if own_priv + own_pub else np.zeros((trials, 1), bool)
        rest = k - held
        sub_sum = np.where(held, y, 0.0) + 2.0 * rng.binomial(rest, (1.0 + mu) / 2.0) - rest
    else:
        priv_sum = own_priv * y + sample_sums(n - own_priv, mu, rng)
        pub_sum = own_pub * y + sample_sums(m - own_pub, mu, rng)
    g = release(point, priv_sum, pub_sum, sub_sum, n, m, rng)
    if event in ("member", "public"):
        return tracer.accuse_row(y, mu, g, rho)
    if event == "accurate":
        return within(sup_error(g, mu), point["alpha"])
    out = np.empty(trials, dtype=bool)  # fp: fresh rows, independent of the release
    for sl in tracer.chunk_trials(trials, point["fresh"], p):
        fresh = tracer.sample_bits(mu[sl], point["fresh"], rng)
        out[sl] = tracer.accuse(fresh, mu[sl], g[sl], rho).any(axis=1)
    return out


def sample_accusations(point: dict, total: int, trials: int, rng: np.random.Generator) -> np.ndarray:
    """The attacker's verdicts (trials, total) on every row of the sample (rows 0..n-1
    private, n.. public), scoring the whole sample."""
    p, rho = point["p"], point["rho"]
    n, m = split(point, total)
    k = min(subsample_size(point), total)
    out = np.empty((trials, total), dtype=bool)
    for sl in tracer.chunk_trials(trials, total, p):
        b = sl.stop - sl.start
        mu = random_means(b, p, rng)
        bits = tracer.sample_bits(mu, total, rng)
        priv_sum, pub_sum = tracer.row_sums(bits[:, :n]), tracer.row_sums(bits[:, n:])
        sub_sum = None
        if point["mechanism"] == "sub":
            # k distinct rows per trial: the k smallest of N uniform keys
            keys = rng.random((b, total))
            chosen = keys <= np.partition(keys, k - 1, axis=1)[:, k - 1:k]
            sub_sum = 2.0 * (bits & chosen[:, :, None]).sum(axis=1, dtype=np.int64) - k
        g = release(point, priv_sum, pub_sum, sub_sum, n, m, rng)
        out[sl] = tracer.accuse(bits, mu, g, rho)
    return out


class PapThm43(Simulator):
    theorem_id = "pap.thm4_3"
    params = {
        "mechanism": Options(MECHANISMS),
        "event": Options(EVENTS),
        "p": Interval(1, 1 << 16, "both", integer=True),
        "pub": Interval(0, 1, "left"),
        "alpha": ALPHA,
        "rho": Interval(0, 1, "neither"),
        "kappa0": Interval(0, 64, "right"),
        "fresh": Interval(1, 10_000, "both", integer=True),
        "epsilon": EPSILON_AT_MOST_1, "delta": APPROX_DELTA, "beta": BETA,
    }
    fidelities = FIDELITIES

    def grid(self, fidelity, overrides):
        g = GRIDS[fidelity]
        chosen = overrides.get("event")
        pts = []
        # each experiment measures its own events: a user's event override keeps the experiments it names
        for exp, events, p_axis, pub in (("rates", ROW_EVENTS, g["rate_p"], 0.5),
                                         ("threshold", ("untraced",), g["search_p"], 0.0),
                                         ("kappa", ("flagged",), g["kappa_p"], 0.0)):
            ev = [e for e in (chosen or events) if e in events]
            if not ev:
                continue
            mechs = list(MECHANISMS) if exp == "rates" else ["round"]
            mine = expand({"mechanism": mechs, "p": p_axis, "pub": [pub], **BASE},
                          {k: v for k, v in overrides.items() if k != "event"})
            for p in mine:
                for e in ev:
                    q = {"panel": exp, "event": e, **p}
                    if exp == "kappa":
                        q["rows"] = reference_rows(q)
                    pts.append(q)
        unique = {tuple(sorted(p.items())): p for p in pts}
        return list(unique.values())

    def check_point(self, point):
        super().check_point(point)
        if point["mechanism"] == "pub" and point["pub"] == 0:
            raise ParameterError("pub must be > 0 for the public-only mechanism (it has no rows), got 0")
        if point["event"] == "public" and point["pub"] == 0:
            raise ParameterError("pub must be > 0 for the event public (no public row to judge), got 0")
        if point["mechanism"] == "combo":
            self.require_small_delta(point, " (the Gaussian release)")

    def privacy(self, point):
        if point["mechanism"] == "combo":
            return {"epsilon": point["epsilon"], "delta": point["delta"],
                    "accounting": "pap.alg_combo: Gaussian mechanism on the private means, public means as "
                                  "post-processing"}
        return {"epsilon": None, "delta": None, "accounting": f"non-private release ({point['mechanism']}): the "
                                                                "attack's target"}

    def curve(self, point):
        exp = point["panel"]
        if exp == "rates":
            return self._rate_n(point)
        if exp == "kappa":
            rows = point["rows"]
            return [t for t in (1 << e for e in range(0, 20)) if t <= rows]
        return None

    @staticmethod
    def _rate_n(point):
        # every N must leave a private row (combo needs n >= 1) and a public one when pub > 0
        return [N for N in RATE_ROWS if split(point, N)[0] >= 1 and (point["pub"] == 0 or split(point, N)[1] >= 1)]

    def n_range(self, point):
        if point["panel"] == "threshold":
            return 2 * count_threshold(point), 1 << 13
        ns = self.curve(point) or [1]
        return min(ns), max(ns)

    def trials_factor(self, point):
        event = point["event"]
        if event == "member" and point["mechanism"] == "combo":
            return 24  # the DP ceiling e^eps rho + delta = 0.0027 needs thousands of trials
        if event == "fp":
            return 4
        return 2 if event in ROW_EVENTS else 1

    def audits(self):
        return [audit_case(COMBO_M, COMBO_THRESHOLD, "combo",
                           f"pap.alg_combo (inverse-variance combination, {COMBO_M} public rows held fixed) at "
                           "eps = 1, delta = 1e-6, p = 4")]

    def run_trials(self, point, n, trials, rng):
        event = point["event"]
        if event in ROW_EVENTS:
            return _row_event(point, n, trials, rng)
        if event == "untraced":
            return sample_accusations(point, n, trials, rng).sum(axis=1) < count_threshold(point)
        return sample_accusations(point, point["rows"], trials, rng).sum(axis=1) >= n
