"""Section 5 of Kaplan, Mansour, Matias, Stemmer (ICML 2019): the decomposition of polygons
into triangles, the finite-candidate surrogate selection, and the disjunctive Set Cover
Learner over it (simulators/kmms/polygons.py, simulators/kmms/thm5_1.py)."""

import itertools
import math

import numpy as np
import pytest
from scipy import stats
from scipy.special import log_softmax

from privbounds.params import ParameterError
from privbounds.simulators.kmms import polygons as pg
from privbounds.simulators.kmms import thm5_1
from privbounds.simulators.kmms.setcover import run_setcover


def _direct_in_triangle(tri, x, y):
    """Closed membership by areas: p is in abc iff |abp| + |bcp| + |cap| = |abc| (exact)."""
    (ax, ay), (bx, by), (cx, cy) = (tuple(int(v) for v in p) for p in tri)

    def area2(px, py, qx, qy, rx, ry):
        return abs((qx - px) * (ry - py) - (qy - py) * (rx - px))

    return area2(ax, ay, bx, by, x, y) + area2(bx, by, cx, cy, x, y) + area2(cx, cy, ax, ay, x, y) == \
        area2(ax, ay, bx, by, cx, cy)


# --- the decomposition (kmms.sec5_decomp) ---------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_polygon_equals_or_of_its_ear_triangles_on_every_grid_point(seed):
    rng = np.random.default_rng(seed)
    d = 64
    px, py = pg.grid_xy(d)
    for v in (5, 7, 9, 12):
        poly = pg.random_star_polygon(v, np.arange(d + 1), rng)
        assert pg.polygon_is_simple(poly)
        tris = pg.ear_clip(poly)
        assert len(tris) == v - 2  # k edges -> k - 2 triangles (at most k, as the paper says)
        tri = poly[np.array(tris)]
        inside = pg.in_closed_triangles(tri, px, py)
        assert pg.in_closed_polygon(poly, px, py).tolist() == inside.any(axis=0).tolist()
        # boundary points are in (closed polygon), and some grid point lies on the boundary
        on_boundary = np.zeros(px.size, bool)
        for i in range(v):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % v]
            on_boundary |= (pg.cross(x1, y1, x2, y2, px, py) == 0) & (np.minimum(x1, x2) <= px) \
                & (px <= np.maximum(x1, x2)) & (np.minimum(y1, y2) <= py) & (py <= np.maximum(y1, y2))
        assert on_boundary.sum() >= v and inside.any(axis=0)[on_boundary].all()


def test_closed_polygon_membership_of_a_non_convex_polygon():
    # an L shape: (0,0) (4,0) (4,2) (2,2) (2,4) (0,4); the notch (3,3) is out, (2,3) on an edge is in
    poly = np.array([[0, 0], [4, 0], [4, 2], [2, 2], [2, 4], [0, 4]])
    px, py = np.array([3, 2, 1, 4, 0, 5, 3]), np.array([3, 3, 1, 2, 4, 0, 2])
    assert pg.in_closed_polygon(poly, px, py).tolist() == [False, True, True, True, True, False, True]
    tris = pg.ear_clip(poly)
    assert len(tris) == 4
    gx, gy = pg.grid_xy(4)
    assert (pg.in_closed_triangles(poly[np.array(tris)], gx, gy).any(axis=0)
            == pg.in_closed_polygon(poly, gx, gy)).all()
    assert not pg.polygon_is_simple(np.array([[0, 0], [4, 4], [4, 0], [0, 4]]))  # a bow tie


def test_straight_angles_are_dropped_without_changing_the_region():
    poly = np.array([[0, 0], [2, 0], [4, 0], [4, 4], [0, 4]])  # (2, 0) is a straight angle
    tris = pg.ear_clip(poly)
    assert len(tris) <= 3  # v - 2 at most; a straight angle met as an ear's tip costs no triangle
    tri = poly[np.array(tris)]
    assert (pg.cross(*tri[:, 0].T, *tri[:, 1].T, *tri[:, 2].T) != 0).all()
    gx, gy = pg.grid_xy(4)
    assert pg.in_closed_triangles(tri, gx, gy).any(axis=0).all()


# --- candidates and atoms ----------------------------------------------------------------------

@pytest.mark.parametrize("d", [10, 13])
def test_candidate_membership_matches_a_direct_point_in_triangle_test(d):
    dom = pg.domain(d)
    px, py = pg.grid_xy(d)
    rng = np.random.default_rng(d)
    for c in rng.choice(dom.n_candidates, 40, replace=False):
        direct = np.array([_direct_in_triangle(dom.tris[c], x, y) for x, y in zip(px, py)])
        assert (dom.member[c, dom.atom_of] == direct).all()


def test_candidates_are_every_non_degenerate_triangle_on_g6():
    dom = pg.domain(20)
    pts = pg.coarse_points(20)
    assert pg.coarse_coords(20).tolist() == [0, 4, 8, 12, 16, 20]
    brute = sum(1 for a, b, c in itertools.combinations(range(36), 3)
                if pg.cross(*pts[a], *pts[b], *pts[c]) != 0)
    assert dom.n_candidates == brute == 6768 == math.comb(36, 3) - 372
    assert pg.candidate_count(40) == 6768  # G_6 is a uniform lattice whenever 5 divides d
    # counted from G_m alone, it is the domain's count on a non-uniform G_m too
    for d, m in ((12, 6), (7, 5), (20, 4)):
        assert pg.candidate_count(d, m) == pg.domain(d, m).n_candidates


def test_atoms_merge_only_points_every_candidate_labels_alike():
    dom = pg.domain(10)
    px, py = pg.grid_xy(10)
    full = pg.in_closed_triangles(dom.tris, px, py)
    assert (dom.member[:, dom.atom_of] == full).all()
    assert len(np.unique(full.T, axis=0)) == dom.n_atoms
    assert dom.to_atoms(np.ones(px.size)).sum() == px.size


def test_bad_grids_and_targets_are_refused_with_one_clear_line():
    with pytest.raises(ParameterError, match=r"^d must be at least m - 1"):
        pg.domain(3, 6)
    with pytest.raises(ParameterError, match=r"^d must be an integer"):
        pg.check_grid(0)
    with pytest.raises(ParameterError, match=r"^r must be an integer >= 1"):
        pg.check_target("disjoint", 0)
    with pytest.raises(ParameterError, match=r"^r must be at most 9"):
        pg.check_target("disjoint", 10)
    sim = thm5_1.KmmsThm51()
    for name, value, pattern in (("epsilon", 1.0, r"^epsilon must be"), ("delta", 0.5, r"^delta must be"),
                                 ("r", 0, r"^r must be"), ("d", 0, r"^d must be"),
                                 ("d", 3, r"^d must be at least m - 1"), ("r", 7, r"^r must be at most")):
        with pytest.raises(ParameterError, match=pattern):
            sim.points("smoke", {name: [value]} if name != "r" or value != 7 else {"r": [7], "family": ["polygon"]})


# --- targets and the band distribution ----------------------------------------------------------

@pytest.mark.parametrize("family", pg.FAMILIES)
def test_target_pool_labels_and_band(family):
    d, r = 20, 3
    dom = pg.domain(d)
    pool = pg.target_pool(family, d, r)
    assert pool.edges == (3 * r if family == "disjoint" else r + 2)
    px, py = pg.grid_xy(d)
    for i in range(0, pg.POOL, 9):
        ids = pool.tri_ids[i]
        assert len(set(ids.tolist())) == r
        assert (pool.labels[i] == dom.member[ids].any(axis=0)).all()
        np.testing.assert_allclose(pool.probs[i].sum(), 1.0)
        np.testing.assert_allclose(pool.probs[i][pool.labels[i]].sum(), 0.5)
        inside = pg.in_closed_triangles(dom.tris[ids], px, py)
        if family == "disjoint":  # pairwise disjoint closed triangles
            assert inside.sum(axis=0).max() == 1
        # the atoms' masses are the point-level band distribution summed over each atom
        tin = inside.any(axis=0)
        near = ~tin & (pg.point_triangle_distance(dom.tris[ids], px, py) <= 0.15 * d + 1e-9)
        p = np.where(tin, 0.5 / tin.sum(), 0) + np.where(near, 0.5 / near.sum(), 0)
        np.testing.assert_allclose(pool.probs[i], dom.to_atoms(p), rtol=1e-12, atol=1e-15)


def test_exact_error_on_atoms_equals_the_error_on_grid_points():
    d = 20
    dom = pg.domain(d)
    pool = pg.target_pool("disjoint", d, 2)
    rng = np.random.default_rng(0)
    h_ids = rng.choice(dom.n_candidates, 3, replace=False)
    h = dom.member[h_ids].any(axis=0)
    px, py = pg.grid_xy(d)
    tri = dom.tris[pool.tri_ids[0]]
    inside = pg.in_closed_triangles(tri, px, py).any(axis=0)
    near = ~inside & (pg.point_triangle_distance(tri, px, py) <= 3.0 + 1e-9)
    p = np.where(inside, 0.5 / inside.sum(), 0) + np.where(near, 0.5 / near.sum(), 0)
    point_err = (p * (h[dom.atom_of] != inside)).sum()
    assert pg.true_error(h, pool.labels[0], pool.probs[0]) == pytest.approx(point_err, rel=1e-12)


# --- the surrogate selection ----------------------------------------------------------------------

def test_selection_frequencies_match_the_exact_softmax():
    dom = pg.domain(4, 3)  # G_3 on X_4^2: 76 candidates
    assert dom.n_candidates == 76
    rng = np.random.default_rng(5)
    c1 = rng.integers(0, 4, dom.n_atoms).astype(float)
    c0 = rng.integers(0, 4, dom.n_atoms).astype(float)
    trials, eta, thr = 200_000, 0.7, 1.5
    sel = pg.TriangleSelector(dom, eta)
    C1, C0 = np.broadcast_to(c1, (trials, dom.n_atoms)), np.broadcast_to(c0, (trials, dom.n_atoms))
    choice, rejects, qc, qm = sel(C1, C0, np.full(trials, thr), rng)
    q = np.minimum(dom.member @ c1 - thr, -(dom.member @ c0))
    assert (qm == q.max()).all() and (qc == q[choice]).all()
    assert (rejects == dom.member[choice]).all()
    p = np.exp(log_softmax(eta * q))
    freq = np.bincount(choice, minlength=dom.n_candidates)
    big = p * trials >= 5  # chi-square over the cells with enough mass, the rest pooled
    obs = np.append(freq[big], freq[~big].sum())
    exp = np.append(p[big], p[~big].sum()) * trials
    assert stats.chisquare(obs, exp).pvalue > 1e-4
    # planted error: density exp(1.1 eta q) is caught
    p_bad = np.exp(log_softmax(1.1 * eta * q))
    exp_bad = np.append(p_bad[big], p_bad[~big].sum()) * trials
    assert stats.chisquare(obs, exp_bad * trials / exp_bad.sum()).pvalue < 1e-6


def test_incremental_counts_equal_a_fresh_product():
    dom = pg.domain(10)
    rng = np.random.default_rng(2)
    c1 = rng.integers(0, 50, (7, dom.n_atoms)).astype(float)
    c0 = rng.integers(0, 50, (7, dom.n_atoms)).astype(float)
    sel = pg.TriangleSelector(dom, 0.1)
    sel.counts(c1, c0)
    c1[:, :5] = 0
    c0[:, 3:9] = 0
    h1, h0 = sel.counts(c1, c0)
    assert (h1 == c1 @ dom.member.T).all() and (h0 == c0 @ dom.member.T).all()


def test_greedy_picks_the_clean_candidate_with_most_positives():
    dom = pg.domain(10)
    rng = np.random.default_rng(3)
    c1 = rng.integers(0, 5, (4, dom.n_atoms)).astype(float)
    c0 = (rng.random((4, dom.n_atoms)) < 0.3).astype(float)
    choice, _, qc, _ = pg.TriangleSelector(dom, 0.0, greedy=True)(c1, c0, np.zeros(4), rng)
    h1, h0 = c1 @ dom.member.T, c0 @ dom.member.T
    for t in range(4):
        clean = h0[t] == 0
        assert h0[t, choice[t]] == 0 and h1[t, choice[t]] == h1[t, clean].max()


def test_audit_instance_log_ratios():
    a = thm5_1.AUDIT
    dom = pg.domain(a["d"], a["m"])
    pos, neg, negp = (dom.to_atoms(np.array(a[k])) for k in ("pos", "neg", "neg_prime"))
    ev = dom.candidate_index(a["event"])
    ratios = []
    for eta in (a["eta"], 2 * a["eta"]):
        lp = [log_softmax(eta * np.minimum(dom.member @ pos - a["threshold"], -(dom.member @ c0)))[ev]
              for c0 in (neg, negp)]
        ratios.append(abs(lp[1] - lp[0]))
    assert ratios[0] == pytest.approx(1.645, abs=1e-3) and ratios[0] < 2 * a["eta"]
    assert ratios[1] == pytest.approx(3.85, abs=1e-2) and ratios[1] > 2 * a["eta"]
    hits_a, hits_b = thm5_1.selecttriangle_events(1.0, 1000, np.random.default_rng(0), **a)
    assert hits_a.shape == hits_b.shape == (1000,)


# --- the disjunctive learner against a plain per-trial reference ------------------------------------

def _reference_or_learner(tris, pos, neg, k, rounds, shift):
    """Per trial, on grid points: b_j = |S1| - shift, q = min(#h_1(S1) - b_j/k, -#h_1(S0)) by a
    direct point-in-triangle test, argmax (first of ties), delete what h_j holds, output OR."""
    d = int(round(math.sqrt(pos.size))) - 1
    px, py = pg.grid_xy(d)
    inside = np.array([[_direct_in_triangle(t, x, y) for x, y in zip(px, py)] for t in tris])
    p, n = pos.astype(float).copy(), neg.astype(float).copy()
    chosen = []
    for _ in range(rounds):
        b = p.sum() - shift
        q = np.minimum(inside @ p - b / k, -(inside @ n))
        j = int(np.argmax(q))
        chosen.append(j)
        p[inside[j]] = 0
        n[inside[j]] = 0
    h = inside[chosen].any(axis=0)
    errors = (pos * ~h).sum() + (neg * h).sum()
    return chosen, errors


def test_or_learner_matches_the_per_trial_reference():
    d, k, rounds, shift = 10, 2, 6, 3.0
    dom = pg.domain(d)
    pool = pg.target_pool("disjoint", d, k)
    rng = np.random.default_rng(11)
    trials = 3
    idx = np.arange(trials)
    # counts per grid point, then per atom for the batched learner
    probs_pt = np.zeros((trials, (d + 1) ** 2))
    px, py = pg.grid_xy(d)
    target_pt = np.zeros((trials, px.size), bool)
    for t in range(trials):
        tri = dom.tris[pool.tri_ids[idx[t]]]
        inside = pg.in_closed_triangles(tri, px, py).any(axis=0)
        near = ~inside & (pg.point_triangle_distance(tri, px, py) <= 1.5 + 1e-9)
        probs_pt[t] = np.where(inside, 0.5 / inside.sum(), 0) + np.where(near, 0.5 / near.sum(), 0)
        target_pt[t] = inside
    counts = rng.multinomial(300, probs_pt).astype(float)
    pos, neg = counts * target_pt, counts * ~target_pt
    # keep the candidates small so the direct reference is cheap: restrict to a random subset
    sub = np.unique(np.concatenate([pool.tri_ids[:trials].ravel(), rng.choice(dom.n_candidates, 60, replace=False)]))
    sub_dom = pg.Domain(dom.d, dom.m, dom.tris[sub], dom.triples[sub], dom.lookup, dom.member[sub],
                        np.ascontiguousarray(dom.member[sub].T, np.float32), dom.atom_of)
    sel = pg.TriangleSelector(sub_dom, math.inf)
    run = run_setcover(dom.to_atoms(pos), dom.to_atoms(neg), k, rounds, 0.0, shift, sel, rng, mode="or")
    for t in range(trials):
        chosen, errors = _reference_or_learner(dom.tris[sub], pos[t], neg[t], k, rounds, shift)
        assert run.chosen[t].tolist() == chosen
        assert run.errors[t] == errors
    assert run.claim31_holds().all()
