"""Mutation tests of the privacy audits (simulators/engine/mutations.py): each covered noise
source of a learner, halved on its own at the call site the learner uses, must make the
audit instance that declares it refute the learner, and the same instance must not
refute the clean learner (a test that could not fail would prove nothing).

The slow tests run the instances at their ``mutation_trials`` (100,000 - 4,000,000 per
side, a few seconds each); ``nox -s slow`` runs them. The fast ones check the harness
and that every declared site exists and is reached.
"""

from __future__ import annotations

import numpy as np
import pytest

from privbounds.simulators.engine import mutations as mu
from privbounds.simulators.engine.audit import AuditCase, NoiseSource

# (theorem, audit instance, source) that must be caught. Declared sources left out of
# this list are reported by the table as not caught, with the reason (module docstrings
# of the audits say why each instance sees what it sees).
# Only sources caught with a margin (mutated eps_hat at least 10% above the declared
# epsilon at the seeds the harness derives from the names) are listed, so that a numpy
# release that reshuffles the draws does not flip a test; the table shows the rest.
COVERED = [
    ("kmms.claim3_4", "setcover-count", "count-laplace"),  # the reviewer's planted bug
    ("kmms.claim3_4", "whole-neg", "selection"),
    ("kmms.claim3_4", "whole-pos", "selection"),
    ("kmms.alg_selecthalfplane", "select-halfplane", "select-halfplane"),
    ("kmms.thm2_4", "laplace-count", "laplace"),
    ("pap.lem2_7", "pmw-round-below", "threshold"),  # the reviewer's planted bug
    ("pap.lem2_7", "pmw-round-compare", "compare"),
    ("pap.lem2_7", "pmw-round-measure", "measure"),
    ("pap.base_priv", "tree-leaf", "tree"),
    ("bns.thm2_19", "pmw-round-below", "threshold"),
    ("bns.thm2_19", "pmw-round-query", "query"),
    ("bns.thm4_3", "column-advanced", "column"),  # at its own 4 x 10^6 trials per side
    ("pap.base_stumps", "gauss", "gaussian"),  # at its own 4 x 10^6 trials per side
    ("pap.thm4_2", "combo", "gaussian"),  # likewise
    ("bns.prop2_20", "alg1-epsilon", "sanitizer"),
    ("bns.prop2_21", "tree", "tree"),
    ("bns.lem5_3", "histogram", "noisy-sign"),
    ("bns.prop3_11", "adist-same-top", "adist"),
    ("siv.thm3_4", "pure", "interval-sampler"),
    ("siv.thm3_4", "approx", "binary-search"),
    ("siv.thm3_5", "subsampled", "interval-sampler"),
    ("wlf.thm7", "alg1", "alg1"),
    ("wlf.prop12", "alg1-lebesgue", "alg1-lebesgue"),
    ("wlf.ex22", "two-stage-select", "stage1-support"),
    ("wlf.thm25", "selection", "selection"),
    ("wlf.lem38", "subset", "subset-expmech"),
    ("wlf.lem8", "geometric-sub", "geometric"),
    ("wlf.lem8", "geometric-sub", "subsample"),
    ("wlf.lem31", "gaussian-sub-g0.5", "gaussian"),
    ("wlf.lem31", "gaussian-sub-g0.5", "subsample"),
]

# The instances added for power against one source: within their budget and powered (the
# engine's own criterion), at their mutation trials.
NEW = [("kmms.claim3_4", "setcover-count"), ("pap.lem2_7", "pmw-round-below"), ("pap.lem2_7", "pmw-round-compare"),
       ("pap.lem2_7", "pmw-round-measure"), ("bns.thm2_19", "pmw-round-below"), ("pap.base_priv", "tree-leaf"),
       ("bns.thm2_19", "pmw-round-query")]


def _case(theorem, name) -> AuditCase:
    from privbounds import registry

    return next(c for c in registry.get(theorem).simulator.audits() if c.name == name)


# --- the harness --------------------------------------------------------------------------------

SCALE = 2.0
OTHER = 1.0  # a constant no toy event reads


def _scale():
    return SCALE


def _mechanism(values, epsilon=1.0):
    return values / epsilon


def test_weakened_halves_one_scale_and_restores_it():
    here = __name__
    fn = NoiseSource("f", "laplace", f"{here}:_scale")
    const = NoiseSource("c", "laplace", f"{here}:SCALE")
    arg = NoiseSource("a", "laplace", f"{here}:_mechanism", param="epsilon", arg="epsilon")
    mod = __import__("sys").modules[here]
    with mu.weakened(fn) as calls:
        assert mod._scale() == 1.0 and calls == [1]
    with mu.weakened(const) as calls:
        assert mod.SCALE == 1.0 and calls is None
    with mu.weakened(arg) as calls:
        assert mod._mechanism(4.0, epsilon=1.0) == 2.0 and mod._mechanism(4.0) == 2.0 and calls == [2]
    assert mod._scale() == 2.0 and mod.SCALE == 2.0 and mod._mechanism(4.0) == 4.0
    with pytest.raises(ValueError, match="kind"):
        NoiseSource("x", "noise", f"{here}:_scale")
    with pytest.raises(ValueError, match="argument"), mu.weakened(NoiseSource("x", "laplace", f"{here}:_mechanism",
                                                                               arg="scale")):
        pass


def test_weaken_directions():
    assert NoiseSource("s", "laplace", "m:a").weaken(4.0) == 2.0
    assert NoiseSource("e", "expmech", "m:a", param="epsilon").weaken(0.5) == 1.0
    assert NoiseSource("r", "subsampling", "m:a", param="rate").weaken(0.75) == 1.0
    assert np.allclose(NoiseSource("s", "laplace", "m:a").weaken(np.array([2.0, 4.0])), [1.0, 2.0])


def _events(budget, trials, rng, p):
    # a coin of bias p * budget / (1 + ...) on D and p on D': SCALE plays the noise
    q = min(0.9, p * 2.0 / SCALE)
    return rng.random(trials) < q, rng.random(trials) < p


def test_mutate_reports_caught_and_unreached_sites():
    case = AuditCase("toy", "toy", "toy", "toy", 0.5, 0.0, _events, dict(p=0.2), trials=20_000,
                     sources=(NoiseSource("coin", "other", f"{__name__}:SCALE"),))
    row = mu.mutate_case(case, "toy")[0]
    assert row.clean <= 0.5 < row.mutated and row.caught  # clean log-ratio 0, mutated ln 2
    unreached = NoiseSource("never", "laplace", f"{__name__}:_scale")
    with pytest.raises(mu.SiteNotReached):
        mu.mutate(case, unreached, 1000)


def test_every_declared_site_exists_and_every_covered_source_is_declared():
    import importlib
    import inspect

    declared = set()
    for _tid, case in mu.theorem_cases():
        names = [s.name for s in case.noise_sources]
        assert len(names) == len(set(names)), f"{case.name}: source names repeat"
        for s in case.noise_sources:
            mod, attr = s.site.split(":")
            obj = getattr(importlib.import_module(mod), attr)
            if s.arg is not None:
                assert s.arg in inspect.signature(obj).parameters, s
            declared.add((case.name, s.name))
    for _, name, source in COVERED:
        assert (name, source) in declared


def test_every_uncaught_reason_names_a_source_numbers_and_what_catches_it():
    """``AuditCase.uncaught`` explains a row of the table that is not caught: its keys are
    declared sources ("-" for an instance without any), and each reason gives numbers and
    says what catches that source instead: another audit ("caught by <theorem> <audit>"),
    a unit test ("tests/..."), or that the event is a delta event. A covered source has no
    reason (it is caught)."""
    import re

    covered = {(name, source) for _, name, source in COVERED}
    for tid, case in mu.theorem_cases():
        names = {s.name for s in case.noise_sources} or {"-"}
        for source, reason in case.uncaught.items():
            assert source in names, f"{tid} {case.name}: reason for an undeclared source {source!r}"
            assert (case.name, source) not in covered, f"{tid} {case.name}: {source} is covered, yet has a reason"
            assert re.search(r"\d", reason), f"{tid} {case.name} {source}: the reason states no number"
            assert re.search(r"caught by [a-z]+\.[a-z0-9_]+ [a-z0-9-]+|tests/\S+\.py|a delta event", reason), (
                f"{tid} {case.name} {source}: the reason names nothing else that catches it")


def test_the_table_gives_every_row_that_is_not_caught_its_reason():
    case = AuditCase("toy", "toy", "toy", "toy", 0.5, 0.0, _events, dict(p=0.2), trials=20_000,
                     sources=(NoiseSource("coin", "other", f"{__name__}:SCALE"),
                              NoiseSource("fn", "other", f"{__name__}:OTHER")),
                     uncaught={"fn": "the coin shows nothing of it (0 of 2); caught by toy.thm toy-fn"})
    rows = mu.mutate_case(case, "toy")
    fn = next(r for r in rows if r.source == "fn")
    assert not fn.caught and fn.why.endswith("caught by toy.thm toy-fn")
    bare = AuditCase("bare", "toy", "toy", "toy", 0.5, 0.0, _events, dict(p=0.2), trials=2_000)
    assert "NO REASON DECLARED" in mu.mutate_case(bare, "toy")[0].why
    assert "1 rows not caught without a declared reason" in mu.totals(rows + mu.mutate_case(bare, "toy"))


def test_every_declared_site_is_reached_by_its_audit():
    """A site the audit never calls would make its mutation test vacuous."""
    for tid, case in mu.theorem_cases():
        for s in case.noise_sources:
            if ":" in s.site and not callable(getattr(__import__("importlib").import_module(s.site.split(":")[0]),
                                                      s.site.split(":")[1])):
                continue
            with mu.weakened(s) as calls:
                case.run(1.0, 2000, np.random.default_rng(0))
            assert calls[0] > 0, f"{tid} {case.name}: {s.site} never called"


# --- the audits against each source -------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("theorem,name", NEW, ids=lambda x: x)
def test_the_single_source_instances_are_within_budget_and_powered(theorem, name):
    case = _case(theorem, name)
    n = mu.case_trials(case)
    declared = mu.eps_hat(case, n, np.random.default_rng(11))
    doubled = mu.eps_hat(case, n, np.random.default_rng(12), budget=2.0)
    assert declared <= case.epsilon < doubled


@pytest.mark.slow
@pytest.mark.parametrize("theorem,name,source", COVERED, ids=lambda x: x)
def test_halving_one_noise_source_is_refuted_and_the_clean_learner_is_not(theorem, name, source):
    case = _case(theorem, name)
    src = next(s for s in case.noise_sources if s.name == source)
    row = mu.mutate(case, src, theorem=theorem)
    assert row.clean <= case.epsilon, f"the clean learner is refuted: eps_hat {row.clean:.3f} > {case.epsilon:g}"
    assert row.mutated > case.epsilon, (f"{source} halved is not caught: eps_hat {row.mutated:.3f} <= "
                                        f"{case.epsilon:g}")
