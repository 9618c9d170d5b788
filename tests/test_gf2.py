"""Gaussian elimination over GF(2): solutions fit, equal the first consistent parity,
inconsistency and rank are reported."""

import numpy as np
import pytest

from privbounds.simulators import gf2
from privbounds.simulators.concepts import make_class
from privbounds.simulators.learners import erm_first_consistent


@pytest.mark.parametrize("n", [0, 3, 6, 12, 40])
def test_solutions_are_the_first_consistent_parity(n):
    rng = np.random.default_rng(n)
    d = 6
    cls = make_class("par", d)
    x = rng.integers(0, 2 ** d, size=(60, n))
    a = rng.integers(0, 2 ** d, size=(60, 5))
    y = cls.evaluate(a[:, None, :], x[:, :, None])
    sol, consistent, rank = gf2.solve(gf2.bits(x, d), y)
    assert consistent.all()
    assert np.all(cls.evaluate(sol[:, None, :], x[:, :, None]) == y)
    np.testing.assert_array_equal(sol, erm_first_consistent(cls, *cls._histograms(x, y)))
    for b in range(5):  # rank equals the number of distinct constraints' span, by brute force
        span = {0}
        for v in x[b]:
            span |= {s ^ int(v) for s in span}
        assert 2 ** rank[b] == len(span)
    if n >= 40:
        assert np.all(sol == a)  # full rank with overwhelming probability at n = 40, d = 6


def test_inconsistent_labels_are_flagged():
    A = gf2.bits(np.array([[1, 1]]), 3)          # the same row twice
    Y = np.array([[[True, True], [False, True]]])  # column 0 contradicts itself
    _, consistent, rank = gf2.solve(A, Y)
    assert consistent.tolist() == [[False, True]] and rank.tolist() == [1]
