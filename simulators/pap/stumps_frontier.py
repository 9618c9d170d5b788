"""Bassily et al., "Private Query Release Assisted by Public Data" (ICML 2020), Theorem 4.2
(the lower bound for releasing decision stumps): an (eps, delta)-DP algorithm that answers
all p stumps on {+-1}^p within alpha needs either about 1/alpha^2 public samples or about
sqrt(p)/alpha private ones. Public samples below 1/alpha^2 do not help.

Experiment (the frontier): n_hat(m), the private sample the best simple public+private
algorithm we have (pap.alg_combo, ``stump_release.combo_release``) needs at each public
size m, for m alpha^2 in {0, 0.05, 0.25, 0.5, 1, 2, 4, 8} (and 0.1 at full fidelity),
p = 128, 512, 2048 >= 1/alpha^2 at alpha = 0.1, over the product distributions
``zero`` (mu = 0) and ``random`` (mu_j uniform, redrawn per trial); the claims take the
worst of the two at each (p, alpha, m), as the theorem quantifies over every distribution.
A second sweep at m alpha^2 in {0, 0.25} over alpha = 0.2, 0.1, 0.05 (p = 512) gives the
1/alpha dependence. Success: max_j |G_j - mu_j| <= alpha, exact. Searched size: the
private n; m is a parameter (m = 0: the Gaussian release alone). Means come from the
binomial shortcut of ``stump_release``.

A simulation cannot test a lower bound over all algorithms; it shows that our best
algorithm sits on the predicted shape (flat in m while m << 1/alpha^2, sqrt(p)/alpha in
size) and the attack of Theorem 4.3 (pap.thm4_3) shows why.

Privacy audit: the combined release at p = 4 with the public sample held fixed (see
``base_stumps.audit_case``).
"""

from __future__ import annotations

from privbounds.bounds.pap import n_gauss_stumps
from privbounds.params import ALPHA, APPROX_DELTA, BETA, EPSILON_AT_MOST_1, Interval, Options, ParameterError
from privbounds.simulators.engine.simulator import Fidelity, Simulator, expand
from privbounds.simulators.pap.base_stumps import (
    COMBO_M,
    COMBO_THRESHOLD,
    audit_case,
    start_below,
    stump_release_trials,
)
from privbounds.simulators.pap.common import M_MAX
from privbounds.simulators.pap.stump_release import STUMP_DISTRIBUTIONS

# public sizes as multiples of 1/alpha^2 (m = round(k / alpha^2))
M_SCALED = (0.0, 0.05, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
ALPHA_SWEEP_M = (0.0, 0.25)
ALPHA_SWEEP_P = 512  # the alpha sweep's p (>= 1/alpha^2 = 400 at alpha = 0.05), the same at every fidelity
GRIDS = {
    "smoke": {"p": [128, 512], "alpha": 0.1, "m": (0.0, 0.05, 0.25, 0.5, 8.0), "alphas": [0.2, 0.1]},
    "quick": {"p": [128, 512, 2048], "alpha": 0.1, "m": M_SCALED, "alphas": [0.2, 0.1, 0.05]},
    "full": {"p": [128, 512, 2048], "alpha": 0.1, "m": (0.0, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0),
             "alphas": [0.2, 0.1, 0.05]},
}
# Each trial draws 2p binomials and p normals: fewer trials per n than the default at quick
# fidelity (intervals of n_hat one or two grid steps wide), the default's at full.
FIDELITIES = {
    "smoke": Fidelity(trials=100, block=100, steps=2, audit=0.25),
    "quick": Fidelity(trials=200, block=200, steps=4, audit=1.0),
    "full": Fidelity(trials=1000, block=250, steps=8, audit=2.0),
}


def m_scaled(point: dict) -> float:
    """m alpha^2: the public size in units of the theorem's threshold 1/alpha^2."""
    return point["m"] * point["alpha"] ** 2


class PapThm42(Simulator):
    theorem_id = "pap.thm4_2"
    fidelities = FIDELITIES
    params = {
        "p": Interval(1, 1 << 16, "both", integer=True),
        "m": Interval(0, M_MAX, "both", integer=True),
        "dist": Options(STUMP_DISTRIBUTIONS),
        "alpha": ALPHA, "beta": BETA, "epsilon": EPSILON_AT_MOST_1, "delta": APPROX_DELTA,
    }

    def grid(self, fidelity, overrides):
        g = GRIDS[fidelity]
        base = {"dist": list(STUMP_DISTRIBUTIONS), "beta": [0.1], "epsilon": [1.0], "delta": [1e-6]}
        pts = []
        for sweep in ({"p": g["p"], "alpha": [g["alpha"]], "m": g["m"]},
                      {"p": [ALPHA_SWEEP_P], "alpha": g["alphas"], "m": ALPHA_SWEEP_M}):
            for p in expand({"p": sweep["p"], "alpha": sweep["alpha"], **base}, overrides):
                ms = overrides.get("m") or [int(round(k / p["alpha"] ** 2)) for k in sweep["m"]]
                pts += [{"p": p["p"], "m": m, **{k: v for k, v in p.items() if k != "p"}} for m in ms]
            if set(overrides) & {"p", "alpha", "m"}:
                break  # the user chose the axes: one sweep with them
        unique = {tuple(sorted(p.items())): p for p in pts}
        return list(unique.values())

    def check_point(self, point):
        super().check_point(point)
        if point["p"] * point["alpha"] ** 2 < 1:
            raise ParameterError(f"p must be >= 1/alpha^2 = {1 / point['alpha'] ** 2:g} for Theorem 4.2 (below it "
                                 f"the bound sqrt(p)/alpha is under 1/alpha^2 and says nothing), got {point['p']}")
        self.require_small_delta(point, " (the Gaussian release)")

    def privacy(self, point):
        return {"epsilon": point["epsilon"], "delta": point["delta"],
                "accounting": "Gaussian mechanism on the private means (l2-sensitivity 2 sqrt(p)/n), then "
                              "post-processing with the public means: private in x_priv for every x_pub"}

    def n_range(self, point):
        b = float(n_gauss_stumps(point["alpha"], point["beta"], point["epsilon"], point["delta"], point["p"]))
        # n_hat sits near b/2 without public data and above b/8 up to m alpha^2 = 8: start at the
        # power of 2 just below b/8 (failures seen first; one absolute grid for every point, so
        # that n_hat is not snapped to multiples of the bound) and allow 4b (a sample complexity
        # above the bound is measured, not censored)
        return start_below(b / 8), int(4 * b) + 1

    def audits(self):
        return [audit_case(COMBO_M, COMBO_THRESHOLD, "combo",
                           f"pap.alg_combo (inverse-variance combination, {COMBO_M} public rows held fixed) at "
                           "eps = 1, delta = 1e-6, p = 4")]

    def run_trials(self, point, n, trials, rng):
        return stump_release_trials(point, "combo", n, point["m"], trials, rng)
