"""Analytic bounds: values from the derivations, vectorisation, refusal of bad input."""

import math

import numpy as np
import pytest

from privbounds.bounds import bns, tools
from privbounds.bounds import sivakumar as siv


def test_expmech_bound_at_the_notes_parameters():
    # alpha = beta = 1/4: max(32, 16/eps)(ln|H| + ln 8)
    for h, eps in [(17, 1.0), (65537, 0.25), (2, 2.0)]:
        expected = max(32, 16 / eps) * (math.log(h) + math.log(8))
        assert siv.n_expmech_learner(h, eps) == pytest.approx(expected)
    v = siv.n_expmech_learner(np.array([17, 257]), np.array([1.0, 0.5]))
    assert v.shape == (2,)
    assert siv.n_expmech_learner.kind == "exact"


def test_erm_bounds():
    assert siv.n_erm_threshold() == pytest.approx(4 * math.log(8))
    assert siv.n_erm_finite(16) == pytest.approx(4 * (math.log(16) + math.log(4)))


@pytest.mark.parametrize("k", [1, 3, 16, 200])
@pytest.mark.parametrize("delta", [1e-3, 1e-6])
def test_advanced_split_meets_the_total_budget_exactly(k, delta):
    e0 = tools.per_concept_epsilon(1.0, k, "advanced", delta)
    assert tools.advanced_composition_epsilon(e0, k, delta) == pytest.approx(1.0, rel=1e-9)
    assert tools.per_concept_epsilon(1.0, k, "basic") == pytest.approx(1 / k)


def test_advanced_beats_basic_for_large_k_only():
    d = 1e-6
    assert tools.per_concept_epsilon(1, 4, "advanced", d) < tools.per_concept_epsilon(1, 4, "basic")
    assert tools.per_concept_epsilon(1, 256, "advanced", d) > tools.per_concept_epsilon(1, 256, "basic")


def test_direct_sum_bound_is_the_inner_bound_at_split_parameters():
    n = bns.n_direct_sum(257, 1.0, 8, "basic", None, 0.25, 0.25)
    assert n == pytest.approx(siv.n_expmech_learner(257, 1 / 8, 0.25, 0.25 / 8))
    ks = np.array([1, 2, 4])
    assert bns.n_direct_sum(257, 1.0, ks, "basic").shape == (3,)


def test_packing_bound_and_ceiling_agree():
    k, eps, beta = 10, 0.5, 0.1
    L = bns.packing_lower_bound(k, eps, beta)
    assert L == pytest.approx((k * math.log(2) + math.log(0.9)) / eps)
    # at n = L the ceiling equals exactly 1 - beta
    assert bns.packing_success_ceiling(L, k, eps) == pytest.approx(1 - beta)
    assert bns.packing_success_ceiling(1e6, k, eps) == 1.0


@pytest.mark.parametrize("call, name", [
    (lambda: siv.n_expmech_learner(16, 0), "epsilon"),
    (lambda: siv.n_expmech_learner(16, -1), "epsilon"),
    (lambda: siv.n_expmech_learner(16, 1, alpha=1.0), "alpha"),
    (lambda: siv.n_expmech_learner(16, 1, beta=0), "beta"),
    (lambda: bns.packing_lower_bound(0, 1, 0.1), "k"),
    (lambda: tools.per_concept_epsilon(1, 4, "advanced", 0), "delta"),
    (lambda: tools.per_concept_epsilon(1, 4, "fancy"), "rule"),
])
def test_bad_bound_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()
