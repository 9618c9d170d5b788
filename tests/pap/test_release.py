"""Sections 2 and 3 of Bassily et al., "Private Query Release Assisted by Public Data":
the query classes and their dimensions (Fact 2.4, Definition 4.1's table), the cover and
representative domain (Definitions 2.1, 2.2, Claim 2.3), PMW (Algorithm 1), Algorithm 3
(generic and batched agree exactly) and the baselines, and bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest

from privbounds.bounds import pap as b
from privbounds.params import ParameterError
from privbounds.simulators.pap import query_classes as qc
from privbounds.simulators.pap import release as pr
from privbounds.simulators.pap.pmw_offline import DenseQueries, epsilon_spent, pmw


def _small(cls, size, m, seed):
    rng = np.random.default_rng(seed)
    probs = qc.line_distribution("dirichlet", size, rng, 1)
    return rng, probs, qc.sample_points(probs, m, rng)


# --- classes and dimensions ------------------------------------------------------------------

@pytest.mark.parametrize("cls,size,dims", [("thr", 8, (1, 1)), ("int", 7, (2, 2)), ("pt", 6, (1, 1))])
def test_line_class_dimensions_by_brute_force(cls, size, dims):
    m = qc.query_matrix(cls, size)
    assert (qc.vc_dimension(m), qc.dual_vc_dimension(m)) == dims == qc.dimensions(cls)


@pytest.mark.slow  # 3.6 s of brute force; the stump dimension tests cover the same class by default
def test_stumps_are_near_assouad_extreme():
    for p in range(2, 9):
        m = qc.query_matrix("stump", p)
        assert qc.vc_dimension(m) == math.floor(math.log2(p)) and qc.dual_vc_dimension(m) == p
        assert p <= b.assouad_dual_vc(qc.vc_dimension(m))


def test_assouad_on_random_matrices():
    rng = np.random.default_rng(7)
    for _ in range(200):
        rows, cols = rng.integers(2, 12, size=2)
        m = np.where(rng.random((rows, cols)) < rng.uniform(0.1, 0.9), 1, -1)
        assert qc.dual_vc_dimension(m) <= b.assouad_dual_vc(qc.vc_dimension(m))


def test_sampling_follows_the_distribution():
    rng = np.random.default_rng(3)
    probs = qc.line_distribution("dirichlet", 20, rng, 3)
    x = qc.sample_points(probs, 200_000, rng)
    for i in range(3):
        freq = np.bincount(x[i], minlength=20) / x.shape[1]
        assert np.abs(freq - probs[i]).max() < 0.006  # ~6 standard errors at the largest mass


# --- cover and representative domain -----------------------------------------------------------

@pytest.mark.parametrize("seed", range(5))
def test_threshold_cells_equal_the_generic_cover(seed):
    rng, probs, pub = _small("thr", 40, 7, seed)
    m = qc.query_matrix("thr", 40)
    members, assign = pr.cover(m, pub[0])
    reps, r = pr.representative_domain(m[members])
    cell, distinct = pr.threshold_cells(pub, 40)
    queries, mass = pr.threshold_structure(cell, distinct, probs)
    assert members.size == distinct[0] + 1
    np.testing.assert_array_equal(r, cell[0])
    np.testing.assert_allclose(np.bincount(r, probs[0], minlength=reps.size), mass[0][queries.cell_ok[0]])
    # Definition 2.2: each cover member has the same mean under D and under D~
    np.testing.assert_allclose(m[members] @ probs[0], m[members][:, reps] @ np.bincount(r, probs[0]))
    # step 7's map: h_t goes to member #{s < t}
    np.testing.assert_array_equal(assign, np.concatenate([cell[0], distinct]))


@pytest.mark.parametrize("seed", range(5))
def test_closed_form_radii_equal_brute_force(seed):
    rng, probs, pub = _small("thr", 30, 5, seed)
    for cls, fast in (("thr", pr.threshold_cover_radius), ("int", pr.interval_cover_radius)):
        m = qc.query_matrix(cls, 30)
        members, assign = pr.cover(m, pub[0])
        assert fast(pub, probs)[0] == pytest.approx(pr.cover_radius(m, members, assign, probs[0]))


def test_representative_domain_size_within_claim_2_3():
    rng = np.random.default_rng(11)
    for cls, size in (("thr", 30), ("int", 14), ("pt", 12)):
        m = qc.query_matrix(cls, size)
        for _ in range(20):
            members, _ = pr.cover(m, rng.integers(0, size, rng.integers(0, 8)))
            reps, _ = pr.representative_domain(m[members])
            p_cover = qc.dual_vc_dimension(m[members]) if members.size <= 12 else qc.dimensions(cls)[1]
            assert reps.size <= b.representative_domain_size(members.size, max(p_cover, 1))
    # thresholds: X~ has one more cell than the cover's non-trivial members, Phi_1(K) = K + 1 is tight
    members, _ = pr.cover(qc.query_matrix("thr", 30), np.array([3, 9, 20]))
    reps, _ = pr.representative_domain(qc.query_matrix("thr", 30)[members])
    assert (members.size, reps.size) == (4, 4)


def test_stump_cover_merges_equal_public_columns():
    public = np.array([[[1, 1, -1], [1, 1, 1]]], dtype=np.int8)  # columns 0 and 1 equal
    np.testing.assert_array_equal(pr.stump_cover(public), [[0, 0, 2]])
    mu = np.array([[1.0, 1.0, -1.0, 0.0]])  # deterministic columns 0, 1 (both +1) merge
    rep = pr.stump_cover_sampled(mu, 50, np.random.default_rng(0))
    assert rep[0, 1] == 0 and rep[0, 0] == 0 and rep[0, 3] == 3


def test_lazy_stump_cover_has_the_law_of_the_full_one():
    rng = np.random.default_rng(5)
    mu = np.tile(rng.uniform(-1, 1, 6), (4000, 1))
    lazy = (pr.stump_cover_sampled(mu, 3, rng, chunk=1) != np.arange(6)).sum(axis=1)
    full = (pr.stump_cover(pr.stump_public(mu, 3, rng)) != np.arange(6)).sum(axis=1)
    from scipy.stats import chi2_contingency
    table = np.array([np.bincount(lazy, minlength=7), np.bincount(full, minlength=7)])
    table = table[:, table.sum(axis=0) > 0]
    assert chi2_contingency(table).pvalue > 1e-3


# --- PMW (Algorithm 1) -----------------------------------------------------------------------

def test_range_and_dense_pmw_give_the_same_numbers():
    rng, probs, pub = _small("thr", 32, 6, 1)
    m = qc.query_matrix("thr", 32)
    members, _ = pr.cover(m, pub[0])
    reps, r = pr.representative_domain(m[members])
    counts = np.bincount(r, rng.multinomial(10**6, probs[0]).astype(float), minlength=reps.size)
    n = int(counts.sum())
    q01 = ((1 + m[members][:, reps]) // 2).astype(float)
    a1, u1, _ = pmw(DenseQueries(q01, 1), ((counts / n) @ q01.T)[None], n, 0.05, 1.0, 1e-8, np.random.default_rng(9))
    cell, distinct = pr.threshold_cells(pub, 32)
    queries, _ = pr.threshold_structure(cell, distinct, probs)
    emp = np.cumsum(np.concatenate([[0.0], counts[:-1] / n]))[None]
    a2, u2, _ = pmw(queries, emp, n, 0.05, 1.0, 1e-8, np.random.default_rng(9))
    np.testing.assert_allclose(a1, a2, atol=1e-12)
    assert u1[0] == u2[0]


def test_pmw_is_accurate_at_its_explicit_bound():
    """Lemma 2.7 for our PMW: at n = n_PMW every one of 60 trials is within alpha."""
    rng = np.random.default_rng(2)
    probs = qc.line_distribution("geometric", 64, rng, 60)
    n = int(b.n_pmw_offline(0.3, 0.1, 1.0, 1e-10, 64, 65))
    err, updates = pr.pmw_all_thresholds(probs, n, 0.3, 1.0, 1e-10, rng)
    assert err.max() <= 0.3
    assert updates.max() < b.pmw_cap(0.3 / 4, 64)


def test_pmw_fails_far_below_its_bound():
    """The accuracy test above could fail: at n = 2^10 the noise swamps every answer."""
    rng = np.random.default_rng(2)
    probs = qc.line_distribution("geometric", 64, rng, 30)
    err, _ = pr.pmw_all_thresholds(probs, 1 << 10, 0.3, 1.0, 1e-10, rng)
    assert (err > 0.3).mean() > 0.5


def test_pmw_accounting_spends_at_most_epsilon():
    for n_dom in (2, 64, 4096, 2**20):
        for a in (0.025, 0.1, 0.2):
            assert epsilon_spent(1.0, 1e-10, n_dom, a) <= 1.0
            assert epsilon_spent(0.5, 1e-6, n_dom, a) <= 0.5


def test_product_pmw_matches_dense_pmw_on_the_cube():
    """STUMP_3 over all of {+-1}^3: the product form is the dense algorithm exactly."""
    p = 3
    m = qc.query_matrix("stump", p)  # rows = coordinates, columns = the 8 points
    mu = np.array([[0.6, -0.2, 0.1]])
    probs = np.prod(np.where(m.T > 0, (1 + mu) / 2, (1 - mu) / 2), axis=1)
    n = 10**6
    q01 = ((1 + m) // 2).astype(float)
    freq = (q01 @ probs)[None]
    from privbounds.simulators.pap.pmw_offline import ProductQueries
    a1, u1, _ = pmw(DenseQueries(q01, 1), freq, n, 0.1, 1.0, 1e-8, np.random.default_rng(4))
    a2, u2, _ = pmw(ProductQueries(np.ones((1, p), bool)), freq, n, 0.1, 1.0, 1e-8, np.random.default_rng(4))
    np.testing.assert_allclose(a1, a2, atol=1e-12)
    assert u1[0] == u2[0]


# --- Algorithm 3 and baselines --------------------------------------------------------------

def test_generic_release_equals_batched_thresholds():
    rng, probs, pub = _small("thr", 48, 9, 4)
    counts = np.random.default_rng(1).multinomial(10**7, probs[0])
    g, info = pr.release(counts, pub[0], qc.query_matrix("thr", 48), 0.2, 0.1, 1.0, 1e-9, np.random.default_rng(8))
    g2, k, n_cells, upd = pr.release_thresholds(pub, probs, 10**7, 0.2, 0.1, 1.0, 1e-9, np.random.default_rng(8),
                                                private_counts=counts[None])
    np.testing.assert_allclose(g, g2[0], atol=1e-12)
    assert (info["K"], info["N"], info["updates"]) == (k[0], n_cells[0], upd[0])


def test_release_is_accurate_with_enough_data_and_fails_at_the_cover_floor():
    rng = np.random.default_rng(6)
    probs = qc.line_distribution("uniform", 4096, rng, 40)
    g, *_ = pr.release_thresholds(qc.sample_points(probs, 1230, rng), probs, 10**8, 0.2, 0.1, 1.0, 1e-10, rng)
    assert pr.threshold_error(g, probs).max() <= 0.2
    g, *_ = pr.release_thresholds(qc.sample_points(probs, 4, rng), probs, 10**8, 0.2, 0.1, 1.0, 1e-10, rng)
    assert pr.threshold_error(g, probs).min() > 0.2  # 4 public points leave a gap of mass > 0.1


def test_m_zero_is_legal_and_answers_one_number():
    probs = np.full((3, 16), 1 / 16)
    g, k, n_cells, _ = pr.release_thresholds(np.zeros((3, 0), np.int64), probs, 1000, 0.2, 0.1, 1.0, 1e-9,
                                             np.random.default_rng(0))
    assert (k == 1).all() and (n_cells == 1).all() and np.ptp(g, axis=1).max() == 0


def test_public_only_and_tree_baselines():
    rng = np.random.default_rng(3)
    probs = qc.line_distribution("dirichlet", 256, rng, 50)
    m = int(b.m_public_only(0.2, 0.1, 257))
    assert (pr.public_only_thresholds(qc.sample_points(probs, m, rng), probs) <= 0.2).mean() >= 0.9
    n = int(b.n_tree_thresholds(0.2, 0.1, 1.0, 256))
    assert (pr.tree_thresholds(probs, n, 1.0, rng) <= 0.2).all()
    assert (pr.tree_thresholds(probs, 30, 1.0, rng) > 0.2).mean() > 0.5
    with pytest.raises(ParameterError, match="power of 2"):
        pr.tree_thresholds(np.full((1, 6), 1 / 6), 100, 1.0, rng)


@pytest.mark.parametrize("kwargs,match", [
    (dict(counts=np.zeros(8)), "n .* must be >= 1"),
    (dict(public=np.array([0, 9])), "public_points must lie in the private data's domain"),
    (dict(alpha=1.0), "alpha must be in"),
    (dict(alpha=0.0), "alpha must be in"),
    (dict(delta=0.02), "delta must be < 1/n"),
    (dict(counts=np.ones(5)), "histogram over the class's domain"),
    (dict(queries=np.zeros((3, 8))), "queries must be a \\+-1 matrix"),
])
def test_release_refuses_bad_input_in_one_line(kwargs, match):
    args = dict(counts=np.full(8, 10), public=np.array([1, 5]), queries=qc.query_matrix("thr", 8), alpha=0.2,
                delta=1e-4)
    args.update(kwargs)
    with pytest.raises(ParameterError, match=match) as err:
        pr.release(args["counts"], args["public"], args["queries"], args["alpha"], 0.1, 1.0, args["delta"],
                   np.random.default_rng(0))
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("tid,override,match", [
    ("pap.thm3_1", {"m": [-1]}, "m must be"),
    ("pap.thm3_1", {"alpha": [1.0]}, "alpha must be"),
    ("pap.thm3_1", {"delta": [1e-6]}, "delta must be < 1/n"),
    ("pap.lem2_7", {"delta": [0.5]}, "delta must be < 1/n"),
    ("pap.base_priv", {"T": [100]}, "T must be a power of 2"),
    ("pap.thm3_1", {"class": ["cube"]}, "class must be one of"),
])
def test_simulators_refuse_bad_parameters(tid, override, match):
    from privbounds.registry import get
    with pytest.raises(ParameterError, match=match):
        get(tid).simulator.points("smoke", override)


def test_m_zero_is_a_legal_point():
    from privbounds.registry import get
    pts = get("pap.thm3_1").simulator.points("smoke", {"m": [0]})
    assert pts and all(p["m"] == 0 for p in pts)
