"""Shared parts of the Set Cover Learner experiments for Kaplan, Mansour, Matias and
Stemmer, "Differentially Private Learning of Geometric Concepts" (ICML 2019), sections 2
and 3: parameter specs, fidelities, the learners by name, how one batch of trials runs,
and ``SetCoverSimulator``, all of Theorem 3.2's, Example 3.3's and Theorem 3.5's simulators
but their grids and learners.

Learners (all over LIT_d on a ``ProductFamily``, simulators/kmms/conjunctions.py):
- ``setcover``: the Set Cover Learner with the exponential mechanism, SAFE constants (ours:
  b_L = 2T/eps, Delta = b_L ln(4T/beta), eta = eps/(4 ln(e/delta))), run at the internal
  accuracy alpha/2 (T' = ceil(2k ln(4/alpha)) rounds) so that our explicit n_32 applies;
- ``setcover-literal``: the same with the paper-literal reading (b_L = T/eps, Delta =
  b_L ln(T/beta));
- ``advanced`` / ``basic``: the composition baseline of Example 3.3 (every round eps0-DP,
  Lap(2/eps0) and density exp(eps0 q / 4), composed over the T' rounds);
- ``argmax``: the non-private sanity baseline of Theorem 3.2 (exact b_j = |S0|, Delta = 0,
  argmax selection: lambda = 0);
- ``nonprivate``: Section 1.1's classical learner (elimination, then greedy set cover).
DISJ points (``form = "disj"``) run the disjunctive learner on the De Morgan image of the
family.

Privacy defaults: eps = 0.99 (Claim 3.4 needs eps < 1) and delta = 1e-8, below 1/n for
every n a search may reach (n <= 2^26).
"""

from __future__ import annotations

import math

import numpy as np

from privbounds.bounds.kmms import composition_parameters, n_conj, n_conj_argmax, n_conj_composition
from privbounds.params import ALPHA, BETA, EPS_MIN, Interval, Options, ParameterError, named
from privbounds.simulators.engine.simulator import Fidelity, Simulator
from privbounds.simulators.kmms.conjunctions import classical_learner, make_family, run_family
from privbounds.simulators.kmms.setcover import reading_parameters
from privbounds.simulators.shared.accuracy import within

EPS = 0.99
DELTA = 1e-8
N_MAX = 1 << 26
CELLS = 1 << 17  # (k + 1) d: the counts one trial holds
CHUNK = 1 << 22  # counts held at once: trials per chunk = CHUNK // ((k + 1) d)
WHOLE_AUDIT_ELSEWHERE = (
    "audited once, as a whole, by kmms.claim3_4 (the whole learner on tiny neighbouring samples, a changed "
    "negative and a changed positive, declared and doubled budgets) and in parts by kmms.thm2_4 (its Laplace "
    "count) and kmms.prop2_5 (its exponential mechanism); running those instances again here would only "
    "repeat them")
LEARNERS = ("setcover", "setcover-literal", "advanced", "basic", "argmax", "nonprivate")

SPECS = named({
    "alpha": ALPHA, "beta": BETA,
    "epsilon": Interval(EPS_MIN, 1, "left"),  # Claim 3.4: eps < 1
    "delta": Interval(0, 1 / math.e, "neither"),  # Claim 3.4: delta < 1/e
    "k": Interval(1, 64, "both", integer=True),
    "d": Interval(1, 1 << 14, "both", integer=True),
    "family": Options(("decoy", "nearmiss")),
    "form": Options(("conj", "disj")),
    "learner": Options(LEARNERS),
})

# A round costs O((k + 1) d) per trial whatever n is; trials per n are what costs.
FIDELITY = {
    "smoke": Fidelity(trials=20, block=20, steps=1, audit=0.25),
    "quick": Fidelity(trials=100, block=100, steps=4, audit=1.0),
    "full": Fidelity(trials=400, block=200, steps=4, audit=2.0),
}


def specs(*names) -> dict:
    return {k: SPECS[k] for k in names}


def check_sizes(point: dict) -> None:
    """k <= d (the target needs k variables) and (k + 1) d <= 2^17 (memory per trial)."""
    k, d = point["k"], point["d"]
    if k > d:
        raise ParameterError(f"k must be at most d (the number of variables), got k={k}, d={d}")
    if (k + 1) * d > CELLS:
        raise ParameterError(f"d must be at most {CELLS // (k + 1)} for k={k} ((k + 1) d <= {CELLS}), got {d}")
    if point.get("learner") == "nonprivate" and point.get("form", "conj") != "conj":
        raise ParameterError("form must be conj for the nonprivate (Section 1.1) learner, got disj")


def learner_parameters(point: dict) -> dict:
    """(rounds, lap_scale, shift, eta) of the point's learner at the internal accuracy alpha/2."""
    a, b, e, dl, k = point["alpha"] / 2, point["beta"], point["epsilon"], point["delta"], point["k"]
    name = point["learner"]
    if name in ("setcover", "setcover-literal"):
        return reading_parameters("safe" if name == "setcover" else "literal", k, a, b, e, dl)
    if name in ("advanced", "basic"):
        return composition_parameters(k, a, b, e, dl, name)
    if name == "argmax":
        t = reading_parameters("safe", k, a, b, e, dl)["rounds"]
        return {"rounds": t, "lap_scale": 0.0, "shift": 0.0, "eta": math.inf, "reading": "argmax"}
    raise ParameterError(f"learner must be one of {', '.join(LEARNERS[:-1])} here, got {name!r}")


def bound(point: dict) -> float:
    """The explicit bound of the point's learner (bounds/kmms.py)."""
    a, b, e, dl, k, d = (point[x] for x in ("alpha", "beta", "epsilon", "delta", "k", "d"))
    name = point["learner"]
    if name in ("setcover", "setcover-literal"):
        return n_conj(a, b, e, dl, k, d, "safe" if name == "setcover" else "literal")
    if name in ("advanced", "basic"):
        return n_conj_composition(a, b, e, dl, k, d, name)
    return n_conj_argmax(a, b, k, d)


def search_start(point: dict) -> int:
    """Where the n_hat search starts: 2^7 below the learner's explicit bound (2^9 for d < 64,
    2^11 on the easy near-miss family), at least 4; the non-private learners start at 2. A search that
    passes at its start halves n until it sees a failure (the engine's descent), so a start
    set too high shows as n's below it (tests/kmms check that no quick point passes at its
    start)."""
    if point["learner"] in ("nonprivate", "argmax"):
        return 2
    shift = 11 if point["family"] == "nearmiss" else 9 if point["d"] < 64 else 7
    return max(4, int(bound(point)) >> shift)


def privacy(point: dict) -> dict:
    name = point["learner"]
    if name in ("argmax", "nonprivate"):
        return {"epsilon": None, "delta": None,
                "accounting": "non-private baseline (exact counts, argmax / greedy selection)"}
    p = learner_parameters(point)
    if name in ("advanced", "basic"):
        return {"epsilon": point["epsilon"], "delta": point["delta"] if name == "advanced" else 0.0,
                "accounting": f"{name} composition of T = {p['rounds']} rounds, each eps0 = {p['eps0']:.4g}-DP "
                              f"(Lap(2/eps0) on |S0|, exponential mechanism at eps0/2)"}
    return {"epsilon": point["epsilon"], "delta": point["delta"],
            "accounting": (f"Claim 3.4 ({p['reading']} reading): T = {p['rounds']}, b_L = {p['lap_scale']:.4g}, "
                           f"Delta = {p['shift']:.4g}, density exp(eta q) with eta = {p['eta']:.4g}")}


def true_errors(point: dict, n: int, trials: int, rng: np.random.Generator, with_run: bool = False):
    """Exact true errors of ``trials`` runs of the point's learner on n examples of its
    family, in chunks that keep the counts under CHUNK entries. Claim 3.1 is checked in
    every run of a set-cover learner (setcover_rounds raises on a violation)."""
    fam = make_family(point["family"], point["d"], point["k"], point["alpha"], point.get("form", "conj"))
    per = max(1, CHUNK // ((point["k"] + 1) * point["d"]))
    errs, runs = [], []
    for start in range(0, trials, per):
        m = min(per, trials - start)
        if point["learner"] == "nonprivate":
            errs.append(classical_learner(fam, n, m, rng)[1])
            continue
        p = learner_parameters(point)
        run, err = run_family(fam, n, m, rng, point["k"], p["rounds"], p["lap_scale"], p["shift"], p["eta"])
        errs.append(err)
        runs.append(run)
    err = np.concatenate(errs)
    return (err, runs) if with_run else err


class SetCoverSimulator(Simulator):
    """A searched-n entry of the Set Cover Learner (success: true error <= alpha, exact).
    The entries differ only in their grid and in ``learners``, the learners their theorem
    is about: one class keeps their checks, privacy and trials from drifting apart."""

    params = specs("family", "form", "learner", "d", "k", "alpha", "beta", "epsilon", "delta")
    fidelities = FIDELITY
    learners: tuple = ()

    def check_point(self, point):
        super().check_point(point)
        check_sizes(point)
        if point["learner"] not in self.learners:
            allowed = " or ".join([", ".join(self.learners[:-1]), self.learners[-1]])
            raise ParameterError(f"learner must be {allowed} for {self.theorem_id}, got {point['learner']!r}")
        self.require_small_delta(point)

    def privacy(self, point):
        return privacy(point)

    def n_range(self, point):
        return search_start(point), N_MAX

    def run_trials(self, point, n, trials, rng):
        return within(true_errors(point, n, trials, rng), point["alpha"])
