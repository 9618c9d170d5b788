"""Verdicts of bound claims (privbounds/claims.py) on hand-made search results."""

from privbounds.claims import CONFIRMED, REFUTED, LowerBound


def _search(n_hat, lo, hi):
    return {"point": {"k": 1}, "n_hat": n_hat, "n_low": lo, "n_high": hi, "trials": 400, "conf": 0.99,
            "monotone": True}


def _lower(bound):
    return LowerBound("lower", "test", lambda p: True, ("k",), bound=lambda p: bound)


def test_negative_lower_bound_is_vacuous_and_keeps_tightness_ordered():
    out = _lower(-5.0).evaluate([_search(20, 16, 24)], None)
    d = out["details"][0]
    assert out["verdict"] == CONFIRMED and d["bound"] == 0.0
    assert d["tightness_low"] <= d["tightness_high"]


def test_lower_bound_above_the_interval_is_refuted():
    out = _lower(30.0).evaluate([_search(20, 16, 24)], None)
    d = out["details"][0]
    assert out["verdict"] == REFUTED and d["tightness_low"] <= d["tightness"] <= d["tightness_high"]
