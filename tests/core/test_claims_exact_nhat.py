"""The exact-n_hat hook of n_hat bound claims (privbounds/claims/base.py, ``BoundClaim``
with ``exact_success``) on synthetic inputs: the verdict is decided on the exact n_hat, the
Monte Carlo interval only cross-checks it; and ``stats.exact_crossing``, which finds it."""

import pytest

from privbounds.claims import (
    ABOVE,
    BELOW,
    CONFIRMED,
    EXACT,
    INCONCLUSIVE,
    REFUTED,
    VACUOUS,
    LowerBound,
    UpperBound,
    combine,
)
from privbounds.simulators.engine.stats import exact_crossing


def _linear(row):
    """p(n) = n / 100, capped at 1: the exact n_hat at target 0.9 is 90."""
    return min(1.0, row["n"] / 100)


def _search(n_hat, lo, hi, **point):
    return {"point": {"k": 1, "beta": 0.1, **point}, "n_hat": n_hat, "n_low": lo, "n_high": hi, "trials": 400,
            "conf": 0.99, "monotone": True, "n_floor": 1}


def _claim(cls, bound, **kw):
    return cls("c", "t", lambda p: True, ("k",), bound=lambda p: bound, exact_success=_linear, **kw)


def test_exact_crossing_is_the_first_n_at_or_above_the_target():
    assert exact_crossing(lambda n: n / 100, 0.9)[0] == 90
    assert exact_crossing(lambda n: n / 100, 0.9, floor=95)[0] == 95  # the floor passes already
    assert exact_crossing(lambda n: n / 100, 0.005)[0] == 1
    assert exact_crossing(lambda n: 0.5, 0.9, cap=1000)[0] is None  # never reached: "not reached"
    _, seen = exact_crossing(lambda n: n / 10 ** 6, 0.9)
    assert len(seen) <= 45  # doubling and bisection, not one evaluation per n
    with pytest.raises(ValueError, match="not nondecreasing"):
        exact_crossing(lambda n: 0.2 if n == 64 else n / 100, 0.9)  # a dip the doubling steps on


@pytest.mark.parametrize("bound, verdict", [(60.0, EXACT), (90.0, EXACT), (120.0, REFUTED)])
def test_a_lower_bound_is_decided_on_the_exact_n_hat_with_its_slack(bound, verdict):
    # the Monte Carlo interval [70, 130] alone confirms 60 and decides neither 90 nor 120: the exact 90 decides
    out = _claim(LowerBound, bound).evaluate([_search(100, 70, 130)], None)
    d = out["details"][0]
    assert out["verdict"] == verdict == d["verdict"]
    assert d["exact"] == 90 and d["mc_value"] == 100 and d["mc_agrees"]
    assert (d["n_hat"], d["n_low"], d["n_high"]) == (100, 70, 130)  # the Monte Carlo fields stay
    assert d["slack"] == d["slack_low"] == d["slack_high"] == pytest.approx(90 / bound)
    assert d["tightness"] == d["tightness_low"] == d["tightness_high"] == pytest.approx(bound / 90)


@pytest.mark.parametrize("bound, verdict", [(200.0, EXACT), (90.0, EXACT), (80.0, REFUTED)])
def test_an_upper_bound_is_decided_on_the_exact_n_hat_with_its_slack(bound, verdict):
    out = _claim(UpperBound, bound).evaluate([_search(100, 70, 130)], None)
    d = out["details"][0]
    assert out["verdict"] == verdict and d["slack"] == pytest.approx(bound / 90)


def test_without_an_exact_form_the_interval_decides_as_before():
    plain = LowerBound("c", "t", lambda p: True, ("k",), bound=lambda p: 80.0)
    out = plain.evaluate([_search(100, 70, 130)], None)
    assert out["verdict"] == INCONCLUSIVE and "exact" not in out["details"][0]


@pytest.mark.parametrize("lo, hi", [(95, 130), (50, 85)])
def test_an_exact_n_hat_outside_the_monte_carlo_interval_makes_the_claim_inconclusive(lo, hi):
    out = _claim(LowerBound, 10.0).evaluate([_search(100, lo, hi)], None)
    d = out["details"][0]
    assert out["verdict"] == INCONCLUSIVE and not d["mc_agrees"] and d["verdict"] == EXACT
    assert "disagrees with the exact value" in out["reason"] and "exact 90" in out["reason"]


def test_an_open_upper_end_holds_any_exact_n_hat_above_its_lower_end():
    assert _claim(LowerBound, 10.0).evaluate([_search(None, 60, None)], None)["verdict"] == EXACT
    out = _claim(LowerBound, 10.0).evaluate([_search(None, 95, None)], None)
    assert out["verdict"] == INCONCLUSIVE and "not reached" in out["reason"]


def _rows(counts, **point):
    return [{"k": 1, "beta": 0.1, **point, "experiment": "search", "n": n, "successes": s, "trials": t}
            for n, (s, t) in counts.items()]


def test_the_cross_check_interval_comes_from_the_counts_at_the_cross_check_level():
    # 85 of 100 at n = 80 clearly fails at 99% (upper end < 0.9) but not at 99.9%, so the
    # recorded interval [81, 120] misses the exact 80 while the cross-check's holds it
    counts = {40: (30, 100), 80: (81, 100), 120: (100, 100)}
    rec = _search(120, 81, 120)
    claim = LowerBound("c", "t", lambda p: True, ("k",), bound=lambda p: 10.0,
                       exact_success=lambda row: min(1.0, row["n"] / 80 * 0.9))
    assert claim.evaluate([rec], None)["verdict"] == INCONCLUSIVE  # no counts: the recorded interval
    out = claim.evaluate([rec], _rows(counts) + _rows({80: (0, 100)}, k=2))  # another point's rows are not its
    d = out["details"][0]
    assert out["verdict"] == EXACT and d["exact"] == 80 and d["mc_low"] <= 80 and d["mc_conf"] == 0.999


def test_a_vacuous_point_stays_vacuous_and_is_still_cross_checked():
    out = _claim(LowerBound, -3.0).evaluate([_search(100, 70, 130)], None)
    assert out["verdict"] == VACUOUS and out["details"][0]["exact"] == 90
    out = _claim(LowerBound, -3.0).evaluate([_search(100, 95, 130)], None)
    assert out["verdict"] == INCONCLUSIVE


def test_a_claim_with_exact_and_monte_carlo_points_is_confirmed_not_exact():
    claim = _claim(LowerBound, 50.0, exact_where=lambda p: p["learner"] == "mine")
    out = claim.evaluate([_search(100, 70, 130, learner="mine"), _search(100, 70, 130, learner="other")], None)
    assert [d["verdict"] for d in out["details"]] == [EXACT, CONFIRMED] and out["verdict"] == CONFIRMED
    assert "exact" not in out["details"][1]
    assert combine([EXACT, EXACT, VACUOUS]) == EXACT and combine([CONFIRMED, EXACT]) == CONFIRMED
    assert combine([EXACT, REFUTED]) == REFUTED


def test_a_comparison_and_a_target_of_its_own():
    comp = _claim(UpperBound, 95.0, comparison=True)
    assert comp.evaluate([_search(100, 70, 130)], None)["verdict"] == BELOW
    assert _claim(UpperBound, 85.0, comparison=True).evaluate([_search(100, 70, 130)], None)["verdict"] == ABOVE
    own = _claim(LowerBound, 10.0, exact_target=lambda p: 0.5)
    assert own.evaluate([_search(55, 40, 60)], None)["details"][0]["exact"] == 50
