"""Wang, Lei and Fienberg, "Learning with Differential Privacy" (JMLR 2016): privacy
implies stability, Lemma 8 (eps-DP => (e^eps - 1)-stable, 2 eps-stable for eps <= 1) and
Lemma 30 ((eps, delta)-DP => (e^eps - 1 + delta)-stable), measured exactly on our
private learners.

A trial is one neighbouring pair of datasets; its value is the exact replace-one
stability sup_z |E_{A(Z)} loss(h, z) - E_{A(Z')} loss(h, z)| (Definition 6), so the
largest value over the trials (MeanBound, statistic "max") is the worst case found:

- ``alg1``: Algorithm 1 on P-fin (thresholds on a 2^M grid, 0-1 loss, Delta q = 2/n): a
  random dataset, one random row, and EVERY one of the 2 * 2^M replacements of it (which
  includes the label flip at the boundary); the stability is exact over the class's
  test points (finite.ro_stability), and so is the privacy loss max_h |ln p - ln p'|
  (Algorithm 1 at nominal eps is eps/2-DP: the experiment reports both);
- ``geometric``: the two-sided geometric count (exactly eps-DP), its stability against
  every [0, 1]-valued loss of the output, i.e. the TV distance, which is tanh(eps/2) for
  every pair: the tight limit of an eps-DP pair;
- ``geometric_sub``: the same count, at a base eps_b, on half of the rows, with eps_b
  chosen so that the subsampled count is exactly eps-DP (log(1 + (e^eps_b - 1)/2) = eps);
- (Laplace-perturbed ERM is not run: its TV between neighbours has the closed form
  1 - exp(-eps n |shift| / 2), which a claim could only restate; the geometric count is
  its discrete, computed analogue);
- Lemma 30: ``gaussian``, the count plus discrete Gaussian noise, (eps, delta(eps))-DP for
  every eps with delta(eps) its exact hockey-stick profile, and ``gaussian_sub`` on half
  of the rows (its guarantee: Lemma 31's). Measured: the TV (stability against every
  [0, 1]-valued loss), against Lemma 30's e^eps - 1 + delta minimised over the profile
  and at delta = 1e-5.
"""

from __future__ import annotations

import numpy as np

from privbounds.params import EPS_MIN, Interval, Options
from privbounds.simulators.engine.audit import AuditCase
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.wlf import finite
from privbounds.simulators.wlf.count_mechanisms import (
    gaussian_delta,
    gaussian_epsilon_at,
    gaussian_profile_minimum,
    geometric_mixture_tv,
    neighbour_pairs,
    pure_epsilon,
    subsampled_gaussian_pmf,
    subsampled_geometric_logpmf,
    tv,
)
from privbounds.simulators.wlf.subsample import (
    GAUSSIAN,
    GEOMETRIC,
    gaussian_sub_declared,
    gaussian_sub_events,
    geometric_sub_events,
)

LEM8_LEARNERS = ("alg1", "geometric", "geometric_sub")
SUB_RATE = 0.5  # the subsampled learners draw half of the rows


def alg1_replacements(pos, neg, n, epsilon, rng):
    """Exact stability and privacy loss of Algorithm 1 over every replacement of one
    random row of each dataset: (trials,) maxima of each."""
    T = pos.shape[0]
    # an integer position, where stability.py draws a real one: the same law, but this draw is
    # what the seeds of wlf.lem8's rows are made of
    row = finite.replaced_cell(np.concatenate([pos, neg], axis=1), rng.integers(0, n, size=T))
    logp = finite.alg1_log_probs(finite.error_counts(pos, neg), n, epsilon)
    st, loss = np.zeros(T), np.zeros(T)
    for _, logq in finite.replacements(pos, neg, row, n, epsilon):
        st = np.maximum(st, finite.ro_stability(logp, logq))
        loss = np.maximum(loss, pure_epsilon(logp, logq))
    return st, loss


def sub_base_epsilon(epsilon, gamma=SUB_RATE) -> float:
    """eps_b with log(1 + gamma (e^eps_b - 1)) = eps."""
    return float(np.log1p(np.expm1(epsilon) / gamma))


class WlfLem8(Simulator):
    theorem_id = "wlf.lem8"
    measure = "mean"
    params = {"learner": Options(LEM8_LEARNERS), "epsilon": Interval(EPS_MIN, 4, "both"),
              "measure": Options(("stability", "privacy_loss")),
              "bits": Interval(2, 9, "both", integer=True)}

    def grid(self, fidelity, overrides):
        eps = [0.1, 1.0] if fidelity == "smoke" else [0.05, 0.1, 0.2, 0.5, 1.0, 2.0]
        bits = [4] if fidelity == "smoke" else [6] if fidelity == "quick" else [8]
        pts = expand({"learner": list(LEM8_LEARNERS), "epsilon": eps, "measure": ["stability"], "bits": bits},
                     overrides)
        if "measure" not in overrides:
            pts += expand({"learner": ["alg1"], "epsilon": eps, "measure": ["privacy_loss"], "bits": bits},
                          overrides)
        return pts

    def check_point(self, point):
        super().check_point(point)
        if point["measure"] == "privacy_loss" and point["learner"] != "alg1":
            from privbounds.params import ParameterError

            raise ParameterError("measure privacy_loss is measured for learner alg1 only, "
                                 f"got learner {point['learner']!r}")

    def curve(self, point):
        return [20, 50, 200]

    def privacy(self, point):
        e, who = point["epsilon"], point["learner"]
        text = {"alg1": f"Algorithm 1 at nominal eps = {e:g} (Delta q = 2/n; realised eps/2)",
                "geometric": f"two-sided geometric count, exactly {e:g}-DP",
                "geometric_sub": f"geometric count at eps_b = {sub_base_epsilon(e):.4g} on half of the rows: "
                                 f"exactly log(1 + (e^eps_b - 1)/2) = {e:g}-DP"}[who]
        return {"epsilon": e, "delta": 0.0, "accounting": text}

    def audits(self):
        eb = sub_base_epsilon(1.0)
        return [
            AuditCase("alg1", "Algorithm 1 on P-fin (bits 3, 4 rows) at nominal eps = 2: realised eps/2 = 1",
                      "3 rows (x_7, 1) and (x_0, 0) versus (x_0, 1)", "h_0", 1.0, 0.0, finite.alg1_events,
                      {"bits": 3, "n": 4, "j": 0, "epsilon": 2.0}, trials=200_000),
            AuditCase("geometric", "two-sided geometric count at eps = 1", "a count of 0 versus 1", "output >= 1",
                      1.0, 0.0, geometric_sub_events, {"n": 1, "m": 1, "epsilon": 1.0}, trials=200_000,
                      sources=(GEOMETRIC,)),  # m = n: no subsampling to weaken
            AuditCase("geometric-sub", f"geometric count at eps_b = {eb:.4g} on 1 of 2 rows (exactly 1-DP)",
                      "2 rows with no ones versus one", "output >= 1", 1.0, 0.0, geometric_sub_events,
                      {"n": 2, "m": 1, "epsilon": eb}, trials=200_000),
        ]

    def run_trials(self, point, n, trials, rng):
        who, eps = point["learner"], point["epsilon"]
        if who == "alg1":
            prob = finite.uniform_problem(point["bits"])
            pos, neg = prob.sample(n, trials, rng)
            st, loss = alg1_replacements(pos, neg, n, eps, rng)
            return st if point["measure"] == "stability" else loss
        m, e = (n, eps) if who == "geometric" else (int(n * SUB_RATE), sub_base_epsilon(eps))
        k = neighbour_pairs(n, trials, rng)
        return geometric_mixture_tv(subsampled_geometric_logpmf(n, k, m, e),
                                    subsampled_geometric_logpmf(n, k + 1, m, e), e)


# --- Lemma 30 ------------------------------------------------------------------------------------

TYPICAL_DELTA = 1e-5


def lem31_sub_profile(sigma: float, gamma: float = SUB_RATE) -> tuple[float, float]:
    """Lemma 31's guarantee for the discrete Gaussian count on a gamma-fraction, with the
    base eps minimising Lemma 30's e^eps' - 1 + delta': returns (eps', delta')."""
    eps = np.concatenate([np.geomspace(1e-4, 10, 300)])
    d = gaussian_delta(sigma, eps)
    e2 = np.log1p(gamma * np.exp(eps) * np.expm1(eps))
    d2 = gamma * np.exp(eps) * d
    i = int(np.argmin(np.expm1(e2) + d2))
    return float(e2[i]), float(d2[i])


def lem30_guarantee(point: dict, which: str = "profile") -> tuple[float, float]:
    """The (eps, delta) the learner declares, at which Lemma 30's bound is evaluated:
    ``profile``: the pair minimising e^eps - 1 + delta; ``typical``: delta = 1e-5."""
    s = point["sigma"]
    if point["learner"] == "gaussian_sub":
        return lem31_sub_profile(s)
    if which == "typical":
        return gaussian_epsilon_at(s, TYPICAL_DELTA), TYPICAL_DELTA
    return gaussian_profile_minimum(s)


class WlfLem30(Simulator):
    theorem_id = "wlf.lem30"
    measure = "mean"
    params = {"learner": Options(("gaussian", "gaussian_sub")),
              "sigma": Interval(0.25, 16, "both")}

    def grid(self, fidelity, overrides):
        sig = [1.0, 16.0] if fidelity == "smoke" else [0.5, 1.0, 2.0, 4.0, 8.0, 16.0]
        return expand({"learner": ["gaussian", "gaussian_sub"], "sigma": sig}, overrides)

    def curve(self, point):
        return [20, 100]

    def privacy(self, point):
        s = point["sigma"]
        if point["learner"] == "gaussian_sub":
            e, d = lem31_sub_profile(s)
            return {"epsilon": e, "delta": d,
                    "accounting": f"count + discrete Gaussian (sigma {s:g}) on half of the rows: Lemma 31's "
                                  "(eps', delta') at the base eps minimising e^eps' - 1 + delta'"}
        e = gaussian_epsilon_at(s, TYPICAL_DELTA)
        return {"epsilon": e, "delta": TYPICAL_DELTA,
                "accounting": f"count + discrete Gaussian (sigma {s:g}): exact profile, eps at delta = 1e-5"}

    def audits(self):
        cases = []
        for name, n, m in (("gaussian", 1, 1), ("gaussian-sub", 2, 1)):
            eps, delta = gaussian_sub_declared(n, m, 1.0, 2)
            cases.append(AuditCase(name, f"count + discrete Gaussian (sigma = 1) on {m} of {n} rows; declared its "
                                   "exact profile at eps = the event's ratio + 0.05",
                                   f"{n} rows with no ones versus one", "output >= 2", eps, delta,
                                   gaussian_sub_events, {"n": n, "m": m, "sigma": 1.0, "threshold": 2},
                                   trials=200_000, sources=(GAUSSIAN,) if m == n else ()))
        return cases

    def run_trials(self, point, n, trials, rng):
        m = n if point["learner"] == "gaussian" else int(n * SUB_RATE)
        k = neighbour_pairs(n, trials, rng)
        return tv(subsampled_gaussian_pmf(n, k, m, point["sigma"]), subsampled_gaussian_pmf(n, k + 1, m, point["sigma"]))
