"""Measured means (simulators with ``measure = "mean"``): block moments that combine
exactly, Student-t intervals that cover, the MeanBound claim's verdicts, the engine's
determinism for any worker count, and the check's two-sample test on means."""


import numpy as np
import pytest

from privbounds.claims import CONFIRMED, INCONCLUSIVE, REFUTED, VACUOUS, MeanBound
from privbounds.reports.check import _means, _welch
from privbounds.simulators.engine.pipeline import moments_ok as _moments_ok
from privbounds.simulators.engine.runner import run_points
from privbounds.simulators.engine.simulator import Fidelity, Simulator
from privbounds.simulators.engine.stats import combine_moments, mean_interval, moments


def test_blocks_combine_to_the_moments_of_all_values_in_any_order():
    rng = np.random.default_rng(1)
    v = rng.exponential(size=1000)
    parts = np.split(v, [100, 350, 351, 800])
    for order in (range(5), [4, 2, 0, 3, 1]):
        acc = None
        for i in order:
            acc = combine_moments(acc, (*moments(parts[i], parts[i].size), parts[i].size))
        mean, m2, lo, hi, t = acc
        assert t == 1000 and lo == v.min() and hi == v.max()
        assert mean == pytest.approx(v.mean(), rel=1e-12)
        assert m2 == pytest.approx(((v - v.mean()) ** 2).sum(), rel=1e-10)


def test_moments_refuse_wrong_shapes_and_nan():
    with pytest.raises(ValueError, match="shape"):
        moments(np.zeros(3), 4, "toy")
    with pytest.raises(ValueError, match="not finite"):
        moments(np.array([0.1, np.nan]), 2, "toy")


def test_student_t_interval_covers_the_true_mean_at_its_level():
    rng = np.random.default_rng(2)
    x = rng.beta(0.5, 3.0, size=(4000, 60))  # skewed values in [0, 1], true mean 1/7
    lo, hi = mean_interval(x.mean(1), x.std(1, ddof=1), 60, 0.95)
    cover = np.mean((lo <= 1 / 7) & (1 / 7 <= hi))
    assert 0.93 <= cover <= 0.97


def _row(mean, sd=0.1, trials=400, n=100, mx=None, **kw):
    return {"experiment": "mean", "n": n, "mean": mean, "sd": sd, "trials": trials,
            "max": mean if mx is None else mx, "min": 0.0, "k": 1, **kw}


def _claim(b, **kw):
    return MeanBound("m", "test", lambda p: True, ("k",), bound=lambda p: b, **kw)


@pytest.mark.parametrize("mean, sd, b, upper, verdict", [
    (0.10, 0.1, 0.20, True, CONFIRMED),     # interval ~[0.090, 0.110] below 0.2
    (0.30, 0.1, 0.20, True, REFUTED),       # entirely above
    (0.20, 0.1, 0.20, True, INCONCLUSIVE),  # on the bound
    (0.10, 0.1, 1.00, True, VACUOUS),       # an upper bound at the top of [0, 1] says nothing
    (0.30, 0.1, 0.20, False, CONFIRMED),    # a lower bound under the interval
    (0.10, 0.1, 0.20, False, REFUTED),
    (0.10, 0.1, 0.00, False, VACUOUS),
])
def test_mean_bound_verdicts(mean, sd, b, upper, verdict):
    out = _claim(b, upper=upper).evaluate([], [_row(mean, sd)])
    d = out["details"][0]
    assert out["verdict"] == verdict and d["verdict"] == verdict
    assert d["low"] <= d["value"] <= d["high"]
    if verdict != VACUOUS and b > 0:
        assert d["tightness_low"] <= d["tightness"] <= d["tightness_high"]


def test_intervals_are_simultaneous_over_the_claims_points():
    one = _claim(0.2).evaluate([], [_row(0.19, n=10)])
    many = _claim(0.2).evaluate([], [_row(0.19, n=k) for k in range(10, 60)])
    assert one["conf"] == 0.95 and many["conf"] == pytest.approx(1 - 0.05 / 50)
    width = lambda o: o["details"][0]["high"] - o["details"][0]["low"]  # noqa: E731
    assert width(many) > width(one)


def test_worst_case_claim_is_refuted_by_one_value_above_the_bound():
    c = _claim(0.5, statistic="max")
    assert c.evaluate([], [_row(0.1, mx=0.49)])["verdict"] == CONFIRMED
    out = c.evaluate([], [_row(0.1, mx=0.51)])
    assert out["verdict"] == REFUTED and out["details"][0]["value"] == 0.51
    with pytest.raises(ValueError, match="upper bound"):
        _claim(0.5, statistic="max", upper=False)


def test_rows_of_other_experiments_are_not_read():
    assert _claim(0.2).evaluate([], [{"experiment": "curve", "n": 5, "successes": 1, "trials": 2}])["details"] == []


class _Toy(Simulator):
    """Mean of Uniform(0, 2/sqrt(n)) values: true mean 1/sqrt(n)."""

    theorem_id = "toy.mean"
    measure = "mean"

    def grid(self, fidelity, overrides):
        return [{"a": 1}, {"a": 2}]

    def curve(self, point):
        return [4, 16, 64]

    def privacy(self, point):
        return {"epsilon": None, "delta": None, "accounting": "none"}

    def run_trials(self, point, n, trials, rng):
        return point["a"] * rng.uniform(0, 2 / np.sqrt(n), size=trials)


FID = {"toy.mean": Fidelity(trials=900, block=200, steps=2)}


def _rows(tmp_path, jobs, backend, name):
    sim = _Toy()
    res = run_points({"toy.mean": (sim, sim.grid("quick", {}))}, FID, 3, tmp_path / name, jobs=jobs,
                     backend=backend, progress=False)
    return res["toy.mean"]["rows"]


def test_engine_gives_the_same_means_for_any_jobs_and_the_true_mean_is_covered(tmp_path):
    a = _rows(tmp_path, 1, "sequential", "a")
    b = _rows(tmp_path, 2, "threading", "b")  # a test module's class cannot travel to loky workers
    assert a == b
    assert len(a) == 6 and all(r["experiment"] == "mean" and r["trials"] == 900 for r in a)
    for r in a:
        truth = r["a"] / np.sqrt(r["n"])
        assert r["ci_low"] <= truth <= r["ci_high"] and r["min"] >= 0 and r["max"] <= 2 * truth
    again = _rows(tmp_path, 1, "sequential", "a")  # from the cache: same numbers
    assert again == a


def test_a_mean_simulator_needs_fixed_sample_sizes(tmp_path):
    class NoCurve(_Toy):
        def curve(self, point):
            return None
    sim = NoCurve()
    res = run_points({"toy.mean": (sim, [{"a": 1}])}, FID, 0, tmp_path, progress=False)
    assert "fixed sample sizes" in res["toy.mean"]["error"]


def test_cached_mean_blocks_are_validated():
    assert _moments_ok((0.5, 1.0, 0.0, 1.0), 10)
    assert not _moments_ok((1.5, 1.0, 0.0, 1.0), 10)  # mean outside [min, max]
    assert not _moments_ok((0.5, -1.0, 0.0, 1.0), 10)
    assert not _moments_ok((0.5, float("nan"), 0.0, 1.0), 10)
    assert not _moments_ok(7, 10)


def test_check_compares_means_with_welch_and_exact_values_exactly():
    rows = [_row(0.2, 0.1, 400, n=10), _row(0.3, 0.0, 50, n=20)]
    got = _means(rows)
    (key, by_n), = got.items()
    assert set(by_n) == {"10", "20"}
    assert _welch(by_n["10"], by_n["10"]) == 1.0
    assert _welch([0.2, 0.1, 400, 0.5], [0.25, 0.1, 400, 0.5]) < 1e-6
    assert _welch([0.3, 0.0, 50, 0.3], [0.3, 0.0, 50, 0.3]) == 1.0
    assert _welch([0.3, 0.0, 50, 0.3], [0.3 + 1e-6, 0.0, 50, 0.3]) == 0.0


def test_an_all_alike_sample_gets_a_distribution_free_interval_not_a_point():
    """Thirty zeros of a loss in [0, 1] do not show that its mean is 0: all t values equal
    v has probability at most (1 - (mu - v)/(hi - v))^t, so the upper end is
    1 - (a/2)^(1/t) above 0; one trial says nothing."""
    lo, hi = mean_interval(0.0, 0.0, 30, 0.95, (0.0, 1.0))
    assert lo == 0.0 and hi == pytest.approx(1 - 0.025 ** (1 / 30))
    out = _claim(0.05).evaluate([], [_row(0.0, 0.0, 30)])
    assert out["verdict"] == INCONCLUSIVE  # the bound 0.05 is inside [0, 0.116]
    assert _claim(0.05).evaluate([], [_row(0.0, 0.0, 400)])["verdict"] == CONFIRMED  # [0, 0.0092]
    assert _claim(0.5).evaluate([], [_row(0.1, 0.0, 1)])["verdict"] == INCONCLUSIVE
    lo, hi = mean_interval(0.2, 0.0, 50, 0.95, (None, None))  # unknown range: unbounded
    assert lo == -np.inf and hi == np.inf
    # the coverage of that interval: Bernoulli(mu) trials that all came out 0
    rng = np.random.default_rng(4)
    mu, t = 0.03, 40
    x = rng.random((20000, t)) < mu
    alike = ~x.any(axis=1)
    _, up = mean_interval(0.0, 0.0, t, 0.95, (0.0, 1.0))
    assert np.mean(alike & (up < mu)) <= 0.025


def test_the_points_trial_count_is_the_number_of_values_not_their_spread(tmp_path):
    sim = _Toy()
    res = run_points({"toy.mean": (sim, [{"a": 1}])}, FID, 0, tmp_path, progress=False)
    assert res["toy.mean"]["points"][0]["trials"] == 3 * 900


def test_a_cached_block_of_the_wrong_kind_is_recomputed(tmp_path, capsys):
    """A mean block's stored value holding a success count (with a valid checksum, so only
    its kind is wrong) is not used: it is recomputed with a warning, and the run's numbers
    are those of a clean run."""
    from privbounds.simulators.engine.blockstore import BlockKey, BlockStore
    from privbounds.simulators.engine.runner import code_hash, point_key, simulator_digest

    sim = _Toy()
    clean = run_points({"toy.mean": (sim, [{"a": 1}])}, FID, 5, tmp_path / "clean", progress=False)
    code = f"{code_hash(type(sim).__module__, {})}-{simulator_digest(sim)}"
    key = BlockKey("search", "toy.mean", point_key({"a": 1}), 4, 0, 200, 5, code)
    with BlockStore(tmp_path / "clean") as s:
        assert key in s.get_many([key])  # the key is the engine's
        s.put_many([(key, 7)])
    again = run_points({"toy.mean": (sim, [{"a": 1}])}, FID, 5, tmp_path / "clean", progress=False)
    assert "could not be used" in capsys.readouterr().err
    assert again["toy.mean"]["rows"] == clean["toy.mean"]["rows"]
    assert again["toy.mean"]["blocks_run"] == 1
    assert not _moments_ok((0.5, 10.0, 0.0, 1.0), 4)  # M2 above what 4 values in [0, 1] allow
    assert _moments_ok((0.5, 1.0, 0.0, 1.0), 4)
