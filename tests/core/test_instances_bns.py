"""The public instances of Bun, Nissim and Stemmer added beside ``parities`` and
``noisy_points`` (privbounds/instances/bns.py): agnostic thresholds (Corollary 3.10,
Theorem 3.1, Lemma 3.6), points with a uniform tail (Theorem 3.13), and the realizable
instances of the non-private baselines (Corollary 2.12, Theorem 2.7). A threshold
predictor's error is the closed form |t - t_j| / |X| (times 1 - 2 eta when agnostic);
rows and counts are one sample, and an agnostic trial's positives are the same at every
call; a theorem that runs on a fixed domain pins the family's parameter; bad sizes are
one line naming the parameter."""

from __future__ import annotations

import numpy as np
import pytest

from privbounds.instances import get as family
from privbounds.params import ParameterError


def thresholds_at(ts, X: int):
    """The k predictors h_t(x) = 1[x >= t_j] on features x / (X - 1), as one (m, k) predictor."""
    ts = np.asarray(ts)
    return lambda F: (np.rint(F[:, :1] * (X - 1)) >= ts[None, :]).astype(int).reshape(len(F), -1) \
        if ts.size > 1 else (np.rint(F[:, 0] * (X - 1)) >= ts[0]).astype(int)


@pytest.mark.parametrize("name, eta", [("noisy_thresholds", 0.1), ("uniform_thresholds", 0.0)])
def test_a_threshold_errs_by_its_distance_to_the_target(name, eta):
    inst = family(name).make(d=6, k=3)
    X = 64
    assert inst.noise == pytest.approx(eta) and inst.k == 3
    rng = np.random.default_rng(1)
    draws = inst.draw(50, 4, rng)
    for i in range(4):
        labels = draws.labels_at(i)                              # (X, 3): the noiseless targets
        targets = X - labels.sum(axis=0)                         # c_t labels the X - t points x >= t with 1
        assert np.all(draws.column_errors(i, thresholds_at(targets, X)) == 0)
        moved = np.clip(targets + np.array([-5, 0, 9]), 0, X)
        want = (1 - 2 * eta) * np.abs(moved - targets) / X
        assert draws.column_errors(i, thresholds_at(moved, X)) == pytest.approx(want)
        assert draws.risk(i, thresholds_at(targets, X)) == pytest.approx(eta)


def test_noisy_thresholds_rows_and_counts_are_one_sample_with_noisy_labels():
    inst = family("noisy_thresholds").make(d=5, k=2)
    rng = np.random.default_rng(3)
    draws = inst.draw(400, 3, rng)
    for i in range(3):
        rows, counts = draws.sample(i, "rows", rng), draws.sample(i, "counts")
        again = draws.sample(i, "counts")  # a trial's positives are drawn once, from its own seed
        assert np.array_equal(counts.positives, again.positives) and counts.labels is None
        for j, p in enumerate(counts.support):
            at = rows.points == p
            assert at.sum() == counts.counts[j] and rows.y[at].sum(axis=0).tolist() == counts.positives[j].tolist()
    # every label flips with probability 0.1: about 10% of the rows disagree with the target
    big = inst.draw(20000, 1, rng)
    c = big.sample(0, "counts")
    clean = big.labels_at(0)[c.support]
    flipped = np.where(clean == 1, c.counts[:, None] - c.positives, c.positives).sum() / (2 * c.counts.sum())
    assert 0.09 < flipped < 0.11


def test_tail_points_score_every_point_of_the_domain():
    from privbounds.simulators.bns.thm3_13 import TAIL_MASS

    inst = family("tail_points").make(d=8, k=4)
    rng = np.random.default_rng(4)
    draws = inst.draw(300, 3, rng)
    for i in range(3):
        probs, labels = draws.probs[i], draws.labels_at(i)
        assert probs.sum() == pytest.approx(1.0) and probs.min() == pytest.approx(TAIL_MASS / 256)
        assert np.all(labels.sum(axis=0) == 1)                  # POINT: each target is one point
        truth = labels
        assert np.all(draws.column_errors(i, lambda F, t=truth: t[np.rint(F[:, 0] * 255).astype(int)]) == 0)
        zero = draws.column_errors(i, lambda F: np.zeros((len(F), 4), int))
        assert zero == pytest.approx(probs @ labels)            # the all-zero predictor errs on the targets' mass
        assert draws.sample(i, "counts").counts.sum() == 300


def test_heavy_points_put_every_target_on_the_support():
    inst = family("heavy_points").make(d=7, k=5)
    draws = inst.draw(40, 6, np.random.default_rng(5))
    assert draws.support.shape == (6, 8) and np.all(draws.probs == 1 / 8)
    assert np.all(draws.labels.sum(axis=1) == 1)              # each column's target is one support point


def test_a_theorem_on_a_fixed_domain_pins_the_family_parameter():
    from privbounds.learners import make_spec

    class Zero:
        def __init__(self, epsilon=1.0):
            self.epsilon, self.delta = epsilon, 0.0

        def fit(self, sample, rng):
            return lambda F: np.zeros((len(F), 2), int)

    spec = make_spec(Zero, name="z", instance="noisy_thresholds", compare_to="bns.thm3_1", grid={"k": [2]},
                     max_n=64)
    assert spec["grid"]["d"] == [3] and spec["grid"]["alpha"] == [0.15]
    with pytest.raises(ParameterError, match="bns.thm3_1 runs the instance noisy_thresholds at d = 3 only"):
        make_spec(Zero, name="z", instance="noisy_thresholds", compare_to="bns.thm3_1",
                  grid={"d": [10], "k": [2]}, max_n=64)
    # Corollary 2.12 runs three classes: parities select theirs
    spec = make_spec(Zero, name="z", instance="parities", compare_to="bns.cor2_12", grid={"d": [6], "k": [2]},
                     max_n=64)
    assert spec["theorem_point"] == {"class": "par"} and spec["beside"] == ["cor2_12"]


@pytest.mark.parametrize("name, params, message", [
    ("noisy_thresholds", {"d": 12, "k": 512}, "k: the instance noisy_thresholds scores a predictor on all"),
    ("tail_points", {"d": 17, "k": 1}, "d must be"),
    ("tail_points", {"d": 5, "k": 1}, "d must be"),
    ("uniform_thresholds", {"d": 16, "k": 128}, "at most 2\\^22"),
    ("heavy_points", {"d": 2, "k": 1}, "d must be"),
])
def test_bad_sizes_name_the_parameter(name, params, message):
    with pytest.raises(ParameterError, match=message):
        family(name).make(**params)


def test_a_k_concept_rows_sample_is_capped_at_n_k_labels():
    from privbounds.instances.core import ROW_LABELS_MAX

    inst = family("noisy_points").make(d=10, k=1024)
    cap = ROW_LABELS_MAX // 1024
    assert inst.rows_n_max == cap and inst.n_max is None
    rng = np.random.default_rng(0)
    draws = inst.draw(cap + 1, 1, rng)
    assert draws.sample(0, "counts").n == cap + 1  # a counts sample holds the points drawn only
    with pytest.raises(ParameterError, match=f"n must be at most {cap} for a rows sample of noisy_points"):
        draws.sample(0, "rows", rng)
    assert family("noisy_points").make(d=10, k=1).rows_n_max is None
