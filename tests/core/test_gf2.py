"""Gaussian elimination over GF(2): solutions fit, equal the first consistent parity,
inconsistency and rank are reported."""

import numpy as np
import pytest

from privbounds.simulators.bns import gf2
from privbounds.simulators.shared.concepts import make_class
from privbounds.simulators.shared.learners import erm_first_consistent


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


@pytest.mark.parametrize("k", [1, 63, 64, 65, 200])
def test_pack_roundtrip_and_packed_labels(k):
    rng = np.random.default_rng(k)
    Y = rng.random((3, 7, k)) < 0.5
    np.testing.assert_array_equal(gf2.unpack(gf2.pack(Y), k), Y)
    d = 9
    t = gf2.random_targets((4,), d, k, rng)
    coords = gf2.unpack(t, k)                                     # (4, d, k)
    a = np.sum(coords * (1 << np.arange(d))[None, :, None], axis=1)  # (4, k) integers
    x = rng.integers(0, 2 ** d, size=(4, 30))
    y = gf2.unpack(gf2.parity_labels(x, t, d), k)
    np.testing.assert_array_equal(y, make_class("par", d).evaluate(a[:, None, :], x[:, :, None]))
    if k % 64:  # bits beyond k stay zero, so packed vectors compare exactly
        assert np.all(t[..., -1] >> np.uint64(k % 64) == 0)


def test_packed_solver_recovers_many_columns_at_full_rank():
    rng = np.random.default_rng(5)
    d, k = 8, 150
    t = gf2.random_targets((20,), d, k, rng)
    x = rng.integers(0, 2 ** d, size=(20, 40))
    sol, bad, rank = gf2.solve_packed(x, gf2.parity_labels(x, t, d), d)
    full = rank == d
    assert full.sum() >= 18 and not bad.any()
    np.testing.assert_array_equal(sol[full], t[full])
