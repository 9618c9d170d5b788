"""Concept classes: fast scoring equals the truth-table definition; exact errors."""

import numpy as np
import pytest

from privbounds.simulators.shared.concepts import ConceptClass, make_class
from privbounds.simulators.shared.instances import point_pair, threshold_cluster


@pytest.mark.parametrize("name", ["point", "thresh", "par"])
def test_fast_error_counts_equal_truth_table(name):
    rng = np.random.default_rng(1)
    cls = make_class(name, 5)
    x = rng.integers(0, cls.domain_size, size=(7, 23))
    y = rng.random((7, 23, 3)) < 0.5
    fast = cls.error_counts(x, y)
    generic = ConceptClass.errors_from_histograms(cls, *cls._histograms(x, y))
    T = cls.truth_table()
    brute = np.array([[[np.sum(T[h, x[b]] != y[b, :, j]) for h in range(cls.size)]
                       for j in range(3)] for b in range(7)])
    np.testing.assert_array_equal(fast, brute)
    np.testing.assert_array_equal(generic, brute)


def test_histograms_from_counts_equal_histograms_of_the_sample():
    rng = np.random.default_rng(2)
    cls = make_class("thresh", 6)
    inst = threshold_cluster(cls.domain_size, 5, 2, rng, target_offsets=(1, 2, 3))
    counts = inst.sample_counts(40, rng)
    labels = cls.evaluate(inst.targets[:, None, :], inst.support[:, :, None])
    pos, neg = cls.histograms_from_counts(inst.support, counts, labels)
    x = np.stack([np.repeat(inst.support[b], counts[b]) for b in range(5)])
    y = cls.evaluate(inst.targets[:, None, :], x[:, :, None])
    pos2, neg2 = cls._histograms(x, y)
    np.testing.assert_array_equal(pos, pos2)
    np.testing.assert_array_equal(neg, neg2)


def test_exact_error_on_the_threshold_cluster():
    rng = np.random.default_rng(3)
    cls = make_class("thresh", 8)
    inst = threshold_cluster(cls.domain_size, 50, 1, rng)
    p1 = inst.support[:, 0]
    for offset, expected in [(2, 0.0), (1, 0.25), (3, 0.25), (0, 0.5), (4, 0.5)]:
        h = (p1 + offset)[:, None]
        np.testing.assert_allclose(cls.exact_error(h, inst.targets, inst.support, inst.probs), expected)
    far = np.zeros((50, 1), dtype=int)  # threshold 0 labels everything 1: p1, p2 wrong
    np.testing.assert_allclose(cls.exact_error(far, inst.targets, inst.support, inst.probs), 0.5)


def test_point_pair_errors():
    rng = np.random.default_rng(4)
    cls = make_class("point", 6)
    inst = point_pair(cls.domain_size, 40, rng)
    assert np.all(inst.support[:, 0] != inst.support[:, 1])
    np.testing.assert_allclose(cls.exact_error(inst.targets, inst.targets, inst.support, inst.probs), 0)
    decoy = inst.support[:, 1:2]
    np.testing.assert_allclose(cls.exact_error(decoy, inst.targets, inst.support, inst.probs), 1.0)


def test_parities_are_linear_and_enumerable():
    cls = make_class("par", 4)
    T = cls.truth_table()
    assert T.shape == (16, 16)
    assert np.all(T[0] == 0)
    a, b = 5, 9
    np.testing.assert_array_equal(T[a] ^ T[b], T[a ^ b])
    # two distinct parities disagree on exactly half the cube
    assert all(np.mean(T[i] != T[j]) == 0.5 for i in range(16) for j in range(i))


def test_bad_class_and_dimension_refused():
    with pytest.raises(ValueError, match="concept class"):
        make_class("circle", 4)
    with pytest.raises(ValueError, match="d must be"):
        make_class("point", 0)
