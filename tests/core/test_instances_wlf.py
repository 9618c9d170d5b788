"""The public instance of Wang, Lei and Fienberg's learning experiments
(privbounds/instances/wlf.py): P-fin, the finite thresholds of Example 20 and Theorem 19,
with noisy labels. Its risk is the exact 0-1 risk (the best threshold scores the noise,
a constant predictor the mass of the other label) and agrees with the simulator's own
risks, and its error the excess over the best threshold; rows and counts are the same sample, the experiments' own; bad input is one line
naming the parameter; and ``measure`` refuses the family, since its theorems bound a mean
excess risk at each n, not a sample size."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import privbounds
from privbounds.instances import get as family
from privbounds.params import ParameterError


def threshold(t: int, g: int):
    """h_t on features: x_j = (j + 1/2)/G >= t/G iff j >= t."""
    return lambda X: (X[:, 0] >= t / g).astype(int)


class Majority:
    """A toy counts learner (not private): the constant label seen most often."""

    sample_form = "counts"

    def __init__(self, epsilon=1.0):
        self.epsilon, self.delta = epsilon, 0.0

    def fit(self, sample, rng):
        label = int(np.sum(sample.positives) * 2 >= sample.n)
        return lambda X: np.full(len(X), label)


def one_line(excinfo) -> str:
    msg = str(excinfo.value)
    assert "\n" not in msg
    return msg


# --- exact scoring ----------------------------------------------------------------------

@pytest.mark.parametrize("bits, dist", [(3, "uniform"), (6, "uniform"), (3, "cluster"), (8, "cluster")])
def test_every_threshold_scores_the_simulators_risk(bits, dist):
    from privbounds.simulators.wlf.alg1_rates import problem_of

    inst = family("pfin").make(bits=bits, dist=dist)
    g = 1 << bits
    draws = inst.draw(40, 2, np.random.default_rng(0))
    risks = problem_of({"bits": bits, "dist": dist}).risks()  # R(h_t), as the experiments compute it
    got = np.array([draws.risk(1, threshold(t, g)) for t in range(g + 1)])
    assert got == pytest.approx(risks, abs=1e-12)
    # the best threshold is the target, at the middle: it errs exactly on the flipped labels
    assert int(np.argmin(got)) == g // 2 and inst.noise == pytest.approx(0.1, abs=1e-12)
    assert draws.risk(0, threshold(g // 2, g)) == pytest.approx(0.1, abs=1e-12)
    assert draws.error(0, threshold(g // 2, g)) == pytest.approx(0.0, abs=1e-12)
    assert draws.errors([threshold(0, g), threshold(g, g)]) == pytest.approx(
        [risks[0] - 0.1, risks[g] - 0.1], abs=1e-12)
    # a constant predictor errs on the mass of the other label: P(y = 1) = P(y = 0) = 1/2,
    # half of D's points being labelled 1 w.p. 0.9 and half w.p. 0.1
    for c in (0, 1):
        assert draws.risk(0, lambda X, c=c: np.full(len(X), c)) == pytest.approx(0.5, abs=1e-12)
        assert draws.error(0, lambda X, c=c: np.full(len(X), c)) == pytest.approx(0.4, abs=1e-12)


def test_a_predictor_outside_the_class_is_scored_exactly():
    """Labels 1 only at the grid point x_{G/2}: the points below err w.p. 0.1 (their labels
    are 1 w.p. 0.1), x_{G/2} w.p. 0.1, the G/2 - 1 points above w.p. 0.9. An object with
    ``.predict`` is a predictor too."""
    g = 16
    inst = family("pfin").make(bits=4, dist="uniform")
    draws = inst.draw(10, 1, np.random.default_rng(1))

    class Spike:
        def predict(self, X):
            return (np.abs(X[:, 0] - (g // 2 + 0.5) / g) < 1e-9).astype(int)
    want = ((g // 2) * 0.1 + 0.1 + (g // 2 - 1) * 0.9) / g
    assert draws.risk(0, Spike()) == pytest.approx(want, abs=1e-12)
    assert draws.column_errors(0, Spike()) == pytest.approx([want - 0.1], abs=1e-12)
    # the cluster D has no mass outside its 4 points: what a predictor does there is free
    cl = family("pfin").make(bits=6, dist="cluster").draw(10, 1, np.random.default_rng(1))
    assert cl.support[0].tolist() == [30, 31, 32, 33]
    inside = lambda X: (X[:, 0] >= 0.5).astype(int)  # noqa: E731
    wild = lambda X: np.where((X[:, 0] > 30 / 64) & (X[:, 0] < 34 / 64), inside(X), 1 - inside(X))  # noqa: E731
    assert cl.risk(0, wild) == pytest.approx(0.1, abs=1e-12) and cl.error(0, wild) == pytest.approx(0, abs=1e-12)


def test_features_are_the_papers_grid():
    inst = family("pfin").make(bits=3, dist="uniform")
    assert inst.n_features == 1 and inst.domain_size == 8
    assert inst.features(np.arange(8))[:, 0].tolist() == [(j + 0.5) / 8 for j in range(8)]


# --- samples ----------------------------------------------------------------------------

def test_rows_and_counts_are_the_same_sample_and_the_experiments_own():
    from privbounds.simulators.wlf.alg1_rates import problem_of

    inst = family("pfin").make(bits=2, dist="uniform")
    draws = inst.draw(200, 3, np.random.default_rng(7))
    # the same seed through the simulator's sampler gives the same label histograms
    pos, neg = problem_of({"bits": 2, "dist": "uniform"}).sample(200, 3, np.random.default_rng(7))
    assert np.array_equal(draws.counts, pos + neg)
    rng = np.random.default_rng(8)
    for i in range(3):
        rows, counts = draws.sample(i, "rows", rng), draws.sample(i, "counts")
        assert rows.X.shape == (200, 1) and rows.y.shape == (200,) and counts.n == rows.n == 200
        assert np.all(counts.counts >= 1) and counts.counts.sum() == 200 and counts.labels is None
        assert counts.positives.tolist() == pos[i][counts.support].tolist()
        for p, ones, c in zip(counts.support, counts.positives, counts.counts):
            assert np.sum(rows.points == p) == c and np.sum(rows.y[rows.points == p]) == ones
        assert np.array_equal(rows.X[:, 0], inst.features(rows.points)[:, 0])
        # noisy labels: at 200 draws on 4 points, some point was drawn with both labels
        assert np.any((counts.positives > 0) & (counts.positives < counts.counts))


def test_a_wide_grid_draws_without_copying_d():
    draws = family("pfin").make(bits=16, dist="uniform").draw(100, 2, np.random.default_rng(2))
    assert draws.support.shape == (2, 1 << 16) and draws.support.strides[0] == 0  # one D, broadcast
    assert draws.counts.sum(axis=1).tolist() == [100, 100]
    assert draws.risk(0, threshold(1 << 15, 1 << 16)) == pytest.approx(0.1, abs=1e-9)


# --- bad input ----------------------------------------------------------------------------

@pytest.mark.parametrize("params, message", [
    ({"bits": 0, "dist": "uniform"}, r"bits must be an integer in \[1, 16\], got 0"),
    ({"bits": 17, "dist": "uniform"}, r"bits must be an integer in \[1, 16\], got 17"),
    ({"bits": 4.5, "dist": "uniform"}, "bits must be an integer"),
    ({"bits": 4, "dist": "spread"}, "dist must be one of uniform, cluster, got 'spread'"),
    ({"bits": 1, "dist": "cluster"}, "bits must be at least 2 for dist='cluster'"),
    ({"bits": 4}, "instance pfin needs dist"),
    ({"bits": 4, "dist": "uniform", "noise": 0.2}, "unknown parameter 'noise' of instance pfin"),
])
def test_bad_parameters_are_one_line_naming_them(params, message):
    with pytest.raises(ParameterError, match=message) as e:
        family("pfin").make(**params)
    one_line(e)


def test_bad_draws_and_predictors_are_one_line():
    inst = family("pfin").make(bits=3, dist="uniform")
    rng = np.random.default_rng(0)
    for n, trials, message in ((0, 2, "n must be an integer >= 1"), (5, 0, "trials must be an integer >= 1")):
        with pytest.raises(ParameterError, match=message) as e:
            inst.draw(n, trials, rng)
        one_line(e)
    draws = inst.draw(5, 2, rng)
    with pytest.raises(ParameterError, match=r"one label per point, shape \(8,\); it returned shape \(8, 2\)") as e:
        draws.error(0, lambda X: np.zeros((len(X), 2), int))
    one_line(e)
    with pytest.raises(ParameterError, match=r"trial must be in \[0, 1\], got 2") as e:
        draws.error(2, threshold(4, 8))
    one_line(e)
    with pytest.raises(ParameterError, match="form must be 'rows' or 'counts'") as e:
        draws.sample(0, "table", rng)
    one_line(e)


# --- measure refuses the family -------------------------------------------------------------

def test_the_family_is_the_simulators_and_says_why_it_is_not_measurable():
    from privbounds.instances import wlf
    from privbounds.simulators.wlf import alg1_rates

    fam = family("pfin")
    assert wlf.BITS == alg1_rates.BITS and wlf.DIST == alg1_rates.DIST  # declared twice, kept equal
    thm = privbounds.get(fam.theorem)
    assert fam.theorem == "wlf.ex20" and set(fam.params) <= set(thm.simulator.params)
    assert fam.axis in thm.simulator.params and fam.defaults == {}
    assert fam.measurable.startswith("wlf.ex20") and "\n" not in fam.measurable


def test_measure_refuses_the_family_in_one_line(tmp_path):
    from privbounds.learners import LearnerSimulator, make_spec

    for grid in ({"bits": [4], "dist": ["uniform"]}, None):  # the default grid (d) is not asked about
        with pytest.raises(ParameterError, match="^the instance pfin cannot be measured: wlf.ex20 .* mean excess "
                                                 "risk") as e:
            privbounds.measure(Majority, instance="pfin", grid=grid, fidelity="smoke", out=tmp_path, progress=False)
        one_line(e)
    assert not (tmp_path / "results").exists() and not (tmp_path / "learners").exists()
    with pytest.raises(ParameterError, match="the instance pfin cannot be measured") as e:
        make_spec(Majority, name="maj", instance="pfin", compare_to="wlf.thm19", grid={"bits": [4]}, max_n=100)
    one_line(e)
    # a description naming it (written by hand, or by an older version) is refused too
    with pytest.raises(ParameterError, match="the instance pfin cannot be measured"):
        LearnerSimulator({"id": "learner.maj", "instance": "pfin", "compare_to": "wlf.ex20", "name": "maj",
                          "beside": ["alg1"]})


def test_the_command_line_refuses_it_and_lists_why(tmp_path):
    mine = tmp_path / "mine.py"
    mine.write_text(textwrap.dedent('''
        class Mine:
            sample_form = "rows"
            def __init__(self, epsilon=1.0):
                self.epsilon, self.delta = epsilon, 0.0
            def fit(self, sample, rng):
                return lambda X: (X[:, 0] >= 0.5).astype(int)
    '''))
    r = subprocess.run([sys.executable, "-m", "privbounds", "measure", f"{mine}:Mine", "--instance", "pfin",
                        "--set", "bits=4", "--out", str(tmp_path / "o"), "--quiet"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith("privbounds: error: the instance pfin cannot be measured: wlf.ex20")
    r = subprocess.run([sys.executable, "-m", "privbounds", "list", "--instances"], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and "pfin" in r.stdout and "not for privbounds measure: wlf.ex20" in r.stdout
