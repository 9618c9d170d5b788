"""Verdicts of bound claims (privbounds/claims.py) on hand-made search results."""

import math

import pytest

from privbounds.claims import CONFIRMED, REFUTED, LowerBound


def _search(n_hat, lo, hi):
    return {"point": {"k": 1}, "n_hat": n_hat, "n_low": lo, "n_high": hi, "trials": 400, "conf": 0.99,
            "monotone": True}


def _lower(bound):
    return LowerBound("lower", "test", lambda p: True, ("k",), bound=lambda p: bound)


def test_negative_lower_bound_is_vacuous_and_keeps_tightness_ordered():
    out = _lower(-5.0).evaluate([_search(20, 16, 24)], None)
    d = out["details"][0]
    assert out["verdict"] == VACUOUS and d["verdict"] == VACUOUS and d["bound"] == 0.0
    assert d["tightness_low"] <= d["tightness_high"]


def test_lower_bound_above_the_interval_is_refuted():
    out = _lower(30.0).evaluate([_search(20, 16, 24)], None)
    d = out["details"][0]
    assert out["verdict"] == REFUTED and d["tightness_low"] <= d["tightness"] <= d["tightness_high"]


# --- every claim kind on hand-made results: confirmed, refuted, inconclusive, and the edges

from privbounds.bounds import bns  # noqa: E402
from privbounds.claims import INCONCLUSIVE, LOWER_ORDER, VACUOUS, Ceiling, Scaling, UpperBound, use  # noqa: E402


def _upper(bound):
    return UpperBound("upper", "test", lambda p: True, ("k",), bound=lambda p: bound)


@pytest.mark.parametrize("lo, hi, verdict", [
    (10, 20, CONFIRMED),      # interval below the bound
    (10, 30, CONFIRMED),      # upper end exactly at the bound: still at or below it
    (10, 31, INCONCLUSIVE),   # straddles
    (31, 40, REFUTED),        # entirely above
    (30, 40, INCONCLUSIVE),   # lower end at the bound: not above it
    (10, None, INCONCLUSIVE),  # never reached on the grid: open upper end
])
def test_upper_bound_verdicts(lo, hi, verdict):
    out = _upper(30.0).evaluate([_search(lo, lo, hi)], None)
    assert out["verdict"] == verdict


@pytest.mark.parametrize("lo, hi, verdict", [
    (40, 50, CONFIRMED), (30, 50, CONFIRMED), (20, 50, INCONCLUSIVE), (10, 29, REFUTED), (10, 30, INCONCLUSIVE)])
def test_lower_bound_verdicts(lo, hi, verdict):
    assert _lower(30.0).evaluate([_search(lo, lo, hi)], None)["verdict"] == verdict


def test_a_claim_over_several_points_is_refuted_if_any_point_is():
    pts = [_search(10, 10, 20), _search(40, 40, 50)]
    assert _upper(30.0).evaluate(pts, None)["verdict"] == REFUTED
    assert _upper(30.0).evaluate(pts[:1] + [_search(25, 25, 35)], None)["verdict"] == INCONCLUSIVE


def _row(successes, trials, n=5, **kw):
    return {"experiment": "curve", "n": n, "successes": successes, "trials": trials,
            "p_hat": successes / trials, "k": 1, **kw}


def _ceiling(value):
    return Ceiling("c", "test", lambda p: True, ("k",), bound=lambda p: value)


@pytest.mark.parametrize("s, t, c, verdict", [
    (0, 1000, 0.01, CONFIRMED),      # upper Clopper-Pearson end 0.0037 < 0.01
    (100, 1000, 0.05, REFUTED),      # lower end ~0.08 > 0.05
    (10, 1000, 0.01, INCONCLUSIVE),  # p_hat 0.01 on the ceiling
])
def test_ceiling_verdicts(s, t, c, verdict):
    assert _ceiling(c).evaluate(None, [_row(s, t)])["verdict"] == verdict


def test_a_never_ceiling_is_refuted_by_one_counterexample():
    """1 event in 1000 is well under a 0.05 ceiling as a rate, but a claim that says "never"
    is refuted by it; with no event it is judged like any ceiling."""
    never = Ceiling("c", "test", lambda p: True, ("k",), bound=lambda p: 0.05, never=True)
    assert _ceiling(0.05).evaluate(None, [_row(1, 1000)])["verdict"] == CONFIRMED
    assert never.evaluate(None, [_row(1, 1000)])["verdict"] == REFUTED
    assert never.evaluate(None, [_row(0, 1000)])["verdict"] == CONFIRMED


def test_a_ceiling_at_or_above_one_is_vacuous():
    out = _ceiling(1.0).evaluate(None, [_row(1000, 1000)])
    assert [d["verdict"] for d in out["details"]] == [VACUOUS] and out["verdict"] == VACUOUS


def test_vacuous_points_neither_confirm_nor_refute_a_claim():
    pts = [_search(20, 16, 24), _search(40, 35, 45)]
    claim = LowerBound("lower", "test", lambda p: True, ("k",), bound=lambda p: 30.0 if p["n"] > 30 else -1.0)
    for p in pts:
        p["point"] = {"k": 1, "n": p["n_hat"]}
    out = claim.evaluate(pts, None)
    assert [d["verdict"] for d in out["details"]] == [VACUOUS, CONFIRMED] and out["verdict"] == CONFIRMED


def _scaling(**kw):
    return Scaling("s", "test", lambda p: True, ("k",), variable=lambda p: p["k"], variable_name="k",
                   **{"direction": "tight", **kw})


def _law(exponent, ks=(1, 2, 4, 8, 16, 32), width=1.05):
    return [{"point": {"k": k}, "n_hat": 100 * k ** exponent, "n_low": 100 * k ** exponent / width,
             "n_high": 100 * k ** exponent * width, "trials": 400, "conf": 0.99, "monotone": True} for k in ks]


def test_scaling_verdicts():
    assert _scaling(predicted=1.0).evaluate(_law(1.0), None)["verdict"] == CONFIRMED
    assert _scaling(predicted=0.5).evaluate(_law(1.0), None)["verdict"] == REFUTED
    # intervals so wide that the fit cannot tell 1 from 1/2 or 3/2: inconclusive
    wide = _law(1.0, ks=(1, 1.1, 1.2), width=3.0)
    assert _scaling(predicted=1.0).evaluate(wide, None)["verdict"] == INCONCLUSIVE
    # excludes 1 but within its tolerance 0.15, and far from every competitor: up to lower-order terms
    out = _scaling(predicted=1.0, tolerance=0.15).evaluate(_law(1.1, width=1.01), None)
    assert out["verdict"] == LOWER_ORDER and not out["fit"]["low"] <= 1.0 <= out["fit"]["high"]
    # without the tolerance the same fit refutes exponent 1
    assert _scaling(predicted=1.0).evaluate(_law(1.1, width=1.01), None)["verdict"] == REFUTED
    # an interval holding 1/2 and the competitor 1/3 is inconclusive, not a confirmation of 1/2
    out = _scaling(predicted=0.5).evaluate(_law(0.42, ks=(1, 2, 4, 8), width=1.3), None)
    assert out["fit"]["low"] <= 1 / 3 and out["fit"]["high"] >= 0.5 and out["verdict"] == INCONCLUSIVE
    assert "1/3" in out["reason"] or "0.333" in out["reason"]
    # fewer than 3 finite points: no fit
    out = _scaling(predicted=1.0).evaluate(_law(1.0, ks=(1, 2)), None)
    assert out["verdict"] == INCONCLUSIVE and out["fit"] is None


def test_bound_refs_map_point_parameters_and_derived_arguments():
    ref = use(bns.packing_lower_bound)
    assert ref({"k": 8, "epsilon": 1.0, "beta": 0.1, "other": 3}) == pytest.approx(8 * math.log(2) + math.log(0.9))
    ref = use(bns.n_laplace_histogram, domain_size=lambda p: 2 ** p["d"])
    assert ref({"alpha": 0.1, "epsilon": 1.0, "beta": 0.1, "d": 4}) == pytest.approx(20 * math.log(160))
    with pytest.raises(KeyError, match="epsilon"):
        use(bns.packing_lower_bound)({"k": 8, "beta": 0.1})


# --- privacy audits ----------------------------------------------------------------------

def _audit_claim(eps=1.0):
    from privbounds.claims import PrivacyAudit
    from privbounds.simulators.engine.audit import AuditCase
    from privbounds.simulators.shared.audits import laplace_events

    case = AuditCase("t", "a learner", "D vs D'", "E", eps, 0.0, laplace_events, {"epsilon": eps})
    return PrivacyAudit("privacy-t", "", lambda p: True, case=case)


def _measured(hits1, hits2, trials=100_000):
    return [{"name": "t", "learner": "a learner", "neighbours": "", "event": "", "epsilon": 1.0, "delta": 0.0,
             "conf": 0.999, "budgets": {
                 "1": {"hits_d": hits1[0], "hits_d_prime": hits1[1], "trials": trials},
                 "2": {"hits_d": hits2[0], "hits_d_prime": hits2[1], "trials": trials}}}]


@pytest.mark.parametrize("hits1, hits2, verdict", [
    ((18_400, 50_000), (6_800, 50_000), CONFIRMED),      # ratio e^1 declared, e^2 doubled: powered
    ((6_800, 50_000), (2_500, 50_000), REFUTED),        # the declared run already leaks e^2
    ((40_000, 50_000), (36_000, 50_000), INCONCLUSIVE),  # doubled run indistinguishable: no power
])
def test_privacy_audit_verdicts(hits1, hits2, verdict):
    out = _audit_claim().evaluate([], [], _measured(hits1, hits2))
    assert out["verdict"] == verdict
    d = out["details"][0]
    assert d["powered"] == (verdict != INCONCLUSIVE)
    if verdict == INCONCLUSIVE:
        assert "no power" in out["reason"]


def test_privacy_audit_that_did_not_run_is_not_confirmed():
    assert _audit_claim().evaluate([], [], [])["verdict"] == INCONCLUSIVE


# --- the direction of a scaling claim ------------------------------------------------------

def test_an_upper_scaling_claim_is_refuted_only_by_faster_growth():
    from privbounds.claims import Scaling

    def up(pred, **kw):
        return Scaling("s", "t", lambda p: True, ("k",), variable=lambda p: p["k"], variable_name="k",
                       predicted=pred, direction="upper", **kw)
    # slower growth than an upper bound allows: consistent, with the finding that the bound is loose
    out = up(2.0).evaluate(_law(1.5, width=1.01), None)
    assert out["verdict"] == CONFIRMED and out["finding"] == "loose" and "loose in k" in out["reason"]
    # the same fit refutes a two-sided (tight) claim
    assert _scaling(predicted=2.0).evaluate(_law(1.5, width=1.01), None)["verdict"] == REFUTED
    # faster growth: refuted; above the exact exponent but inside the tolerance: lower-order terms
    assert up(1.0).evaluate(_law(1.5, width=1.01), None)["verdict"] == REFUTED
    assert up(1.0, tolerance=0.15).evaluate(_law(1.1, width=1.01), None)["verdict"] == LOWER_ORDER
    # an interval reaching above prediction + tolerance cannot decide while it holds a faster law
    out = up(1.0).evaluate(_law(1.0, ks=(1, 1.1, 1.2), width=3.0), None)
    assert out["verdict"] == INCONCLUSIVE and "faster growth" in out["reason"] and "competing law 2" in out["reason"]
    # ... and it confirms when it holds the prediction and excludes every faster law
    out = up(1.0).evaluate(_law(1.0, width=1.3), None)
    assert out["fit"]["high"] > 1.0 and out["fit"]["high"] < 2.0 and out["verdict"] == CONFIRMED
    # with no faster competitor named there is nothing to exclude: a wide interval stays inconclusive
    assert up(1.0, competitors=(0.5,)).evaluate(_law(1.0, width=1.3), None)["verdict"] == INCONCLUSIVE


def test_faster_growth_under_the_theorems_own_bound_is_not_a_refutation():
    """An upper claim whose fitted points all lie below the theorem's explicit bound is
    inconclusive when it grows faster than its law (pre-asymptotic); once one point's
    interval reaches the bound, the same fit refutes."""
    from privbounds.claims import Scaling
    from privbounds.claims.base import use

    def up(bound_scale):
        return Scaling("s", "t", lambda p: True, ("k",), variable=lambda p: p["k"], variable_name="k",
                       predicted=1.0, direction="upper",
                       theorem_bound=use(lambda k, c: c * 100 * k ** 1.0, c=bound_scale))
    pts = _law(1.5, width=1.01)  # n_hat = 100 k^1.5, k up to 32: at most 100 * 32^0.5 = 566 times 100 k
    out = up(1000.0).evaluate(pts, None)
    assert out["verdict"] == INCONCLUSIVE and "pre-asymptotic" in out["reason"]
    assert out["bound_slack"][0] == pytest.approx(1000 / 32 ** 0.5 / 1.01)  # bound / n_high
    censored = [*pts, {"point": {"k": 64}, "n_hat": None, "n_low": None, "n_high": None}]
    assert up(1000.0).evaluate(censored, None)["verdict"] == REFUTED  # no crossing may lie above the bound
    out = up(5.0).evaluate(pts, None)  # the bound 500 k is crossed from k = 25 on
    assert out["verdict"] == REFUTED and "reaches the theorem's bound" in out["reason"]


def test_a_lower_scaling_claim_is_the_mirror_image():
    from privbounds.claims import Scaling

    def low(pred):
        return Scaling("s", "t", lambda p: True, ("k",), variable=lambda p: p["k"], variable_name="k",
                       predicted=pred, direction="lower")
    out = low(0.5).evaluate(_law(0.75, width=1.01), None)
    assert out["verdict"] == CONFIRMED and out["finding"] == "loose"
    out = low(1.0).evaluate(_law(0.75, width=1.01), None)
    assert out["verdict"] == REFUTED and "slower" in out["reason"]


def test_a_scaling_claim_with_a_divisor_also_fits_the_raw_exponent():
    import math as m

    from privbounds.claims import Scaling
    pts = _law(0.5, ks=(4, 16, 64, 256, 1024), width=1.01)
    for r in pts:
        for key in ("n_hat", "n_low", "n_high"):
            r[key] *= m.log(r["point"]["k"])
    claim = Scaling("s", "t", lambda p: True, ("k",), variable=lambda p: p["k"], variable_name="k",
                    predicted=0.5, factor=lambda p: m.log(p["k"]), factor_name="ln k", direction="upper")
    out = claim.evaluate(pts, None)
    assert out["fit"]["low"] <= 0.5 <= out["fit"]["high"] and out["fit_raw"]["exponent"] > 0.6


def test_a_direction_outside_the_three_is_refused():
    from privbounds.claims import Scaling
    with pytest.raises(ValueError, match="direction"):
        Scaling("s", "t", lambda p: True, direction="up")


# --- slack, comparisons, errata ------------------------------------------------------------

def test_every_bound_point_shows_its_slack_and_a_bound_that_could_not_fail_is_counted_apart():
    from privbounds.claims import SLACK
    out = _upper(30.0).evaluate([_search(10, 10, 20)], None)
    d = out["details"][0]
    assert out["verdict"] == CONFIRMED and d["slack"] == 3.0 and d["slack_low"] == 1.5
    out = _upper(3000.0).evaluate([_search(10, 10, 20)], None)
    assert out["verdict"] == SLACK and out["details"][0]["slack_low"] == 150.0
    # lower bounds: measured / bound
    d = _lower(5.0).evaluate([_search(20, 16, 24)], None)["details"][0]
    assert d["slack"] == 4.0 and d["slack_low"] == 16 / 5


def test_a_bound_held_to_another_learner_is_a_comparison():
    from privbounds.claims import ABOVE, BELOW
    claim = UpperBound("u", "t", lambda p: True, ("k",), bound=lambda p: 30.0, comparison=True)
    assert claim.evaluate([_search(31, 31, 40)], None)["verdict"] == ABOVE
    assert claim.evaluate([_search(10, 10, 20)], None)["verdict"] == BELOW
    assert claim.evaluate([_search(20, 20, 40)], None)["verdict"] == INCONCLUSIVE


def test_a_refuted_claim_on_a_misprinted_form_is_an_erratum():
    from privbounds.claims import ERRATUM, evaluate_claims
    printed = UpperBound("printed", "t", lambda p: True, ("k",), bound=use(lambda k: 30.0),
                         erratum="printed log(1/K), the proof has log K", corrected="fixed")
    fixed = UpperBound("fixed", "t", lambda p: True, ("k",), bound=use(lambda k: 60.0))
    recs = evaluate_claims([printed, fixed], [_search(40, 35, 45)], [])
    assert [r["verdict"] for r in recs] == [ERRATUM, CONFIRMED] and recs[0]["corrected"] == "fixed"


def _mean_row(mean, sd, trials=300, n=1000):
    return {"experiment": "mean", "n": n, "mean": mean, "sd": sd, "trials": trials, "max": 1.0, "k": 1}


def test_a_closed_form_decides_the_verdict_and_monte_carlo_cross_checks_it():
    from privbounds.claims import EXACT, MeanBound
    from privbounds.simulators.wlf.support import expected_missing_mass

    def claim(bound, exact):
        return MeanBound("m", "t", lambda p: True, ("k",), bound=use(lambda: bound),
                         closed_form=lambda row: exact)
    exact = expected_missing_mass({"dist": "uniform", "support": 1000, "n": 1000})
    assert round(exact, 6) == 0.367695  # sum_j p_j (1 - p_j)^n at N = n = 1000
    # Monte Carlo alone cannot separate 0.367695 from the bound 1/e = 0.367879: inconclusive
    row = _mean_row(0.3677, 0.015)
    plain = MeanBound("m", "t", lambda p: True, ("k",), bound=use(lambda: math.exp(-1)))
    assert plain.evaluate([], [row])["verdict"] == INCONCLUSIVE
    out = claim(math.exp(-1), exact).evaluate([], [row])
    assert out["verdict"] == EXACT and out["details"][0]["mc_agrees"]
    assert claim(0.3676, exact).evaluate([], [row])["verdict"] == REFUTED  # the exact value is above it
    # a simulator whose mean misses the exact value is a bug, never a verdict on the theorem
    out = claim(math.exp(-1), exact).evaluate([], [_mean_row(0.30, 0.015)])
    assert out["verdict"] == INCONCLUSIVE and "disagrees with the exact value" in out["reason"]


def test_a_point_that_succeeds_at_its_smallest_n_is_left_out_of_a_fit():
    pts = _law(1.0, width=1.05)
    floor = {**pts[0], "n_hat": 1, "n_low": 1, "n_high": 1, "floor_reached": True}
    out = _scaling(predicted=1.0).evaluate([floor, *pts[1:]], None)
    assert out["points_used"] == len(pts) - 1 and out["points_at_floor"] == 1 and out["verdict"] == CONFIRMED


def test_a_ceiling_with_a_closed_form_is_decided_on_it_and_checks_the_sampler():
    from privbounds.claims import EXACT
    exact = (1 - 1 / 4) ** 4  # m = 4 public draws all x0
    claim = Ceiling("c", "t", lambda p: True, ("k",), bound=use(lambda: exact + 0.03),
                    closed_form=lambda row: exact)
    out = claim.evaluate(None, [_row(3164, 10_000)])  # p_hat 0.3164 ~ 0.3164
    assert out["verdict"] == EXACT and out["details"][0]["mc_agrees"]
    out = claim.evaluate(None, [_row(2900, 10_000)])  # a sampler off by 0.026: inside the tolerance
    assert out["verdict"] == INCONCLUSIVE and "disagrees with the exact value" in out["reason"]


def test_a_vacuous_point_with_a_closed_form_stays_vacuous():
    from privbounds.claims import MeanBound
    claim = MeanBound("m", "t", lambda p: True, ("k",), bound=use(lambda: 1.0), closed_form=lambda row: 0.3)
    out = claim.evaluate([], [_mean_row(0.3, 0.01)])
    assert out["verdict"] == VACUOUS and out["details"][0]["verdict"] == VACUOUS
