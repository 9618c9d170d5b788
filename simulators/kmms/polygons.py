"""Kaplan, Mansour, Matias and Stemmer, "Differentially Private Learning of Geometric
Concepts" (ICML 2019), section 5: unions of (non-convex) polygons over the grid
X_d^2 = {0..d}^2, the decomposition k-GON in TRIANGLE^(OR k), and our finite-candidate
surrogate of the paper's triangle selection.

Decomposition (section 5). A simple polygon with v edges is the union of the v - 2
closed triangles of any triangulation (``ear_clip``; this geometry, exact on integers, is
in simulators/kmms/polygon_geometry.py), each an AND of 3 halfplanes; a
union of polygons with k edges in total is a union of at most k triangles. The tests
check, on every grid point (boundary points included), that the closed polygon
(``in_closed_polygon``) equals the OR of its closed ear triangles
(``in_closed_triangles``). All geometry is exact integer arithmetic.

The surrogate selection (ours; the paper's selection over triples of dual-plane regions
is only sketched, and costs O(n^6) region triples). The candidates are every
non-degenerate closed triangle with vertices on the public coarse grid
G_m = {round(i d / (m - 1)) : i = 0..m-1}^2, a set that does not depend on the data.
Their membership of every grid point is precomputed once per (d, m)
(``domain``). One selection is the exponential mechanism over these candidates,
density exp(eta q) (``TriangleSelector``), sampled exactly by Gumbel-max
(simulators/setcover.pick), in the disjunctive Set Cover Learner's quality
q(h) = min(#h_1(S1) - b_j/k, -#h_1(S0)). It represents only targets that are unions of
candidates, and its utility slack ln(|cands| 2T/beta)/eta does not depend on d: it tests
the set-cover loop and its privacy accounting, not the paper's dual-plane argument (the
source of the ln d in Theorem 5.1).

Atoms. The learner sees the sample only through the counts each candidate holds, so grid
points with the same membership column (inside exactly the same candidates) are merged
into one atom: counts, probabilities and errors are summed over the atom's points, which
is exact because every candidate and every target (a union of candidates) labels them
alike. Each atom's count is a sum of multinomial counts, i.e. a multinomial count itself.

Targets (``target_pool``): a union of r candidate triangles, drawn from a fixed pool per
(family, d, m, r) built once with a fixed seed (a construction constant, like the
candidate list; the trials draw their target from it):
- ``disjoint``: r pairwise disjoint closed triangles, each half of a cell of G_m (the
  cells pairwise not even touching): a union of r polygons with k = 3r edges;
- ``polygon``: one random star-shaped simple polygon with r + 2 vertices on G_m (no three
  consecutive vertices collinear), ear-clipped into r candidate triangles: k = r + 2.
Distribution (``band``, as kmms.thm4_7's): 1/2 uniform on the grid points of the closed
target, 1/2 uniform on the other grid points within Euclidean distance 0.15 d of it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy import sparse

from privbounds.params import ParameterError
from privbounds.simulators.kmms.polygon_geometry import (  # noqa: F401  (imported from here too)
    cross,
    ear_clip,
    in_closed_polygon,
    in_closed_triangles,
    point_triangle_distance,
    polygon_is_simple,
    random_star_polygon,
)
from privbounds.simulators.kmms.setcover import pick, quality

M_DEFAULT = 6
D_MAX = 160  # (d + 1)^2 grid points by 7,140 candidates stays under 200 MB of booleans
BAND = 0.15  # the negatives' band: grid points within 0.15 d of the target
POOL = 64  # targets per (family, d, m, r)
POOL_SEED = 50_501  # the pool's seed: part of the construction, not of an experiment
FAMILIES = ("disjoint", "polygon")
COUNT_MAX = float(1 << 24)  # counts are summed in float32 matmuls: exact below 2^24


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def check_grid(d, m=M_DEFAULT) -> None:
    """d >= 1, m >= 2, and d >= m - 1 (G_m needs m distinct coordinates)."""
    if not _is_int(m) or m < 2:
        raise ParameterError(f"m must be an integer >= 2 (the public grid G_m), got {m!r}")
    if not _is_int(d) or d < 1 or d > D_MAX:
        raise ParameterError(f"d must be an integer in [1, {D_MAX}] (the grid X_d^2 = {{0..d}}^2), got {d!r}")
    if d < m - 1:
        raise ParameterError(f"d must be at least m - 1 = {m - 1} so that the public grid G_{m} has {m} distinct "
                             f"coordinates (the grid is too small for the candidates), got {d}")


def coarse_coords(d: int, m: int = M_DEFAULT) -> np.ndarray:
    """round(i d / (m - 1)) for i = 0..m-1 (halves rounded up), exact integers."""
    check_grid(d, m)
    i = np.arange(m, dtype=np.int64)
    return (2 * i * d + (m - 1)) // (2 * (m - 1))


def grid_xy(d: int) -> tuple[np.ndarray, np.ndarray]:
    """x and y of the (d + 1)^2 points of X_d^2, x-major (point index x (d + 1) + y)."""
    g = np.arange(d + 1, dtype=np.int64)
    return np.repeat(g, d + 1), np.tile(g, d + 1)


# --- candidates, membership and atoms ------------------------------------------------------

@dataclass(frozen=True)
class Domain:
    """The candidates on G_m and the atoms of X_d^2 for one (d, m).

    ``tris``: (C, 3, 2) candidate vertices (index order of ``triples``: point indices of
    G_m in lexicographic order, non-collinear only); ``lookup``: (m^2,)^3 -> candidate
    index or -1; ``member``: (C, K) bool, candidate c holds atom a; ``atom_of``: (P,) the
    atom of each grid point; ``member_f``: member.T as float32 (K, C), for the counts."""

    d: int
    m: int
    tris: np.ndarray
    triples: np.ndarray
    lookup: np.ndarray
    member: np.ndarray
    member_f: np.ndarray
    atom_of: np.ndarray

    @property
    def n_candidates(self) -> int:
        return len(self.tris)

    @property
    def n_atoms(self) -> int:
        return self.member.shape[1]

    def candidate_index(self, pts) -> int:
        """The candidate with these three G_m point indices (any order)."""
        a, b, c = sorted(int(i) for i in pts)
        idx = int(self.lookup[a, b, c])
        if idx < 0:
            raise ParameterError(f"points {a}, {b}, {c} of G_{self.m} are collinear: not a candidate")
        return idx

    def to_atoms(self, values) -> np.ndarray:
        """Sum a (..., P) array over each atom's grid points: (..., K)."""
        vals = np.asarray(values, float)
        flat = vals.reshape(-1, vals.shape[-1])
        out = np.zeros((flat.shape[0], self.n_atoms))
        np.add.at(out, (slice(None), self.atom_of), flat)
        return out.reshape(vals.shape[:-1] + (self.n_atoms,))


def coarse_points(d: int, m: int = M_DEFAULT) -> np.ndarray:
    """(m^2, 2) the points of G_m, x-major (index i m + j is (c_i, c_j))."""
    c = coarse_coords(d, m)
    return np.stack(np.meshgrid(c, c, indexing="ij"), -1).reshape(-1, 2)


@lru_cache(maxsize=8)
def domain(d: int, m: int = M_DEFAULT) -> Domain:
    """Candidates, exact closed membership of every grid point, and the atoms (cached)."""
    check_grid(d, m)
    pts = coarse_points(d, m)
    n = len(pts)
    i, j, k = _triples(n)
    area = cross(pts[i, 0], pts[i, 1], pts[j, 0], pts[j, 1], pts[k, 0], pts[k, 1])
    keep = area != 0
    triples = np.stack([i[keep], j[keep], k[keep]], 1)
    tris = pts[triples]
    lookup = np.full((n, n, n), -1, dtype=np.int64)
    lookup[triples[:, 0], triples[:, 1], triples[:, 2]] = np.arange(len(triples))
    px, py = grid_xy(d)
    full = in_closed_triangles(tris, px, py)  # (C, P)
    cols, atom_of = np.unique(np.packbits(full, axis=0).T, axis=0, return_inverse=True)
    atom_of = atom_of.ravel()
    member = np.zeros((len(tris), len(cols)), bool)
    member[:, atom_of] = full  # every point of an atom has the same column
    for arr in (tris, triples, lookup, member, atom_of):
        arr.setflags(write=False)
    mf = np.ascontiguousarray(member.T, dtype=np.float32)
    mf.setflags(write=False)
    return Domain(d, m, tris, triples, lookup, member, mf, atom_of)


@lru_cache(maxsize=64)
def candidate_count(d: int, m: int = M_DEFAULT) -> int:
    """|cands|: the non-degenerate triangles with vertices on G_m (7,140 - 372 = 6,768 for
    m = 6 when d is a multiple of 5, G_6 then being a uniform 6 x 6 lattice). Counted from
    G_m alone: the bound needs it for every point, the grid membership of ``domain`` only
    when a point runs."""
    check_grid(d, m)
    pts = coarse_points(d, m)
    i, j, k = _triples(len(pts))
    return int(np.count_nonzero(cross(pts[i, 0], pts[i, 1], pts[j, 0], pts[j, 1], pts[k, 0], pts[k, 1])))


def _triples(n: int):
    """Index arrays of all i < j < k below n."""
    i, j, k = (a.ravel() for a in np.meshgrid(np.arange(n), np.arange(n), np.arange(n), indexing="ij"))
    keep = (i < j) & (j < k)
    return i[keep], j[keep], k[keep]


# --- targets and the band distribution -------------------------------------------------------

@dataclass(frozen=True)
class TargetPool:
    """``tri_ids``: (POOL, r) candidate indices; ``labels``: (POOL, K) target labels of the
    atoms; ``probs``: (POOL, K) the band distribution on atoms; ``edges``: edges of the
    union (3r for disjoint triangles, r + 2 for one polygon)."""

    family: str
    r: int
    tri_ids: np.ndarray
    labels: np.ndarray
    probs: np.ndarray
    edges: int


def max_triangles(family: str, m: int = M_DEFAULT) -> int:
    """The largest r a family supports on G_m: pairwise non-touching cells of the
    (m - 1) x (m - 1) cell grid (every other cell in each direction) for ``disjoint``;
    polygons with r + 2 <= 8 vertices for ``polygon`` (a star-shaped polygon with many
    vertices on a small lattice is rare)."""
    if family == "disjoint":
        return ((m - 1 + 1) // 2) ** 2
    return min(6, m * m - 2)


def check_target(family: str, r, m: int = M_DEFAULT) -> None:
    if family not in FAMILIES:
        raise ParameterError(f"family must be one of {', '.join(FAMILIES)}, got {family!r}")
    if not _is_int(r) or r < 1:
        raise ParameterError(f"r must be an integer >= 1 (the number of triangles), got {r!r}")
    top = max_triangles(family, m)
    if r > top:
        raise ParameterError(f"r must be at most {top} for the {family} family on G_{m} (the grid is too small for "
                             f"the target), got {r}")


def _disjoint_triangles(r: int, m: int, rng) -> list[tuple[int, int, int]]:
    """r half-cells of G_m in cells whose closed squares do not touch (king-move apart)."""
    cells = [(a, b) for a in range(m - 1) for b in range(m - 1)]
    for _ in range(10_000):
        order = rng.permutation(len(cells))
        chosen = []
        for c in order:
            a, b = cells[c]
            if all(max(abs(a - a2), abs(b - b2)) >= 2 for a2, b2 in chosen):
                chosen.append((a, b))
                if len(chosen) == r:
                    break
        if len(chosen) == r:
            break
    else:
        raise ParameterError(f"r must be at most {max_triangles('disjoint', m)} for the disjoint family, got {r}")
    out = []
    for a, b in chosen:
        corners = [a * m + b, (a + 1) * m + b, a * m + b + 1, (a + 1) * m + b + 1]
        drop = int(rng.integers(4))
        out.append(tuple(c for i, c in enumerate(corners) if i != drop))
    return out


def _polygon_triangles(r: int, m: int, d: int, rng) -> list[tuple[int, int, int]]:
    pts = coarse_points(d, m)
    index = {tuple(p): i for i, p in enumerate(pts)}
    for _ in range(1000):
        poly = random_star_polygon(r + 2, coarse_coords(d, m), rng)
        tri = ear_clip(poly)
        if len(tri) == r:
            return [tuple(index[tuple(poly[i])] for i in t) for t in tri]
    raise ParameterError(f"found no polygon with {r + 2} vertices on G_{m} that ear-clips into {r} triangles")


def band_points(dom: Domain, tri_ids, band: float = BAND) -> tuple[np.ndarray, np.ndarray]:
    """(inside, p) on the grid points of X_d^2 (index x (d + 1) + y) for the target OR of
    candidates ``tri_ids``: its labels, and the band distribution, 1/2 uniform on the
    target's grid points and 1/2 uniform on the other grid points within band d."""
    px, py = grid_xy(dom.d)
    inside = in_closed_triangles(dom.tris[list(tri_ids)], px, py).any(axis=0)
    near = ~inside & (point_triangle_distance(dom.tris[list(tri_ids)], px, py) <= band * dom.d + 1e-9)
    if not inside.any() or not near.any():
        raise ParameterError("the target must have grid points inside it and a non-empty band around it")
    return inside, np.where(inside, 0.5 / inside.sum(), 0.0) + np.where(near, 0.5 / near.sum(), 0.0)


def band_probs(dom: Domain, tri_ids, band: float = BAND) -> tuple[np.ndarray, np.ndarray]:
    """(labels, probs) of ``band_points`` on the atoms (what the learner and the pool hold)."""
    _, p = band_points(dom, tri_ids, band)
    return dom.member[list(tri_ids)].any(axis=0), dom.to_atoms(p)


@lru_cache(maxsize=64)
def target_pool(family: str, d: int, r: int, m: int = M_DEFAULT) -> TargetPool:
    """POOL targets of the family, built once with the seed POOL_SEED (module docstring)."""
    check_target(family, r, m)
    dom = domain(d, m)
    rng = np.random.default_rng([POOL_SEED, FAMILIES.index(family), d, r, m])
    ids, labs, probs = [], [], []
    for _ in range(POOL):
        tri = _disjoint_triangles(r, m, rng) if family == "disjoint" else _polygon_triangles(r, m, d, rng)
        t = [dom.candidate_index(x) for x in tri]
        lab, pr = band_probs(dom, t)
        ids.append(t)
        labs.append(lab)
        probs.append(pr)
    out = TargetPool(family, r, np.array(ids), np.array(labs), np.array(probs),
                     3 * r if family == "disjoint" else r + 2)
    for a in (out.tri_ids, out.labels, out.probs):
        a.setflags(write=False)
    return out


# --- the selection (the surrogate of Select Triangle) and the greedy baseline --------------

class TriangleSelector:
    """One round of the disjunctive Set Cover Learner's selection over the candidates of
    ``dom``, for ``setcover.run_setcover(..., mode="or")``, batched over trials.

    q(h) = min(#h_1(S1) - threshold, -#h_1(S0)) for every candidate h (its alive positives
    and negatives), exactly; the choice has density exp(eta q) (the exponential mechanism at
    epsilon 2 eta for a sensitivity-1 q, Gumbel-max: ``setcover.pick``), or, with
    ``greedy=True``, the non-private greedy cover: among the candidates holding no alive
    negative, the one holding the most alive positives (first of ties). ``rejects`` are the
    atoms inside the chosen triangle (the OR learner deletes what h_j labels 1).

    The candidates' counts (alive counts times the membership matrix) are kept between
    calls and updated by the atoms that left (a sparse product): exact, since counts stay
    integers below 2^24 in float32."""

    mode = "or"

    def __init__(self, dom: Domain, eta: float, greedy: bool = False):
        if not (greedy or eta > 0):
            raise ParameterError(f"eta must be > 0, got {eta!r}")
        self.dom, self.eta, self.greedy = dom, float(eta), greedy
        self._c = None
        self._p = None

    def counts(self, c1, c0) -> tuple[np.ndarray, np.ndarray]:
        """(trials, C) alive positives and negatives inside every candidate."""
        c = np.concatenate([np.asarray(c1, np.float32), np.asarray(c0, np.float32)])
        if c.max(initial=0.0) >= COUNT_MAX:
            raise ParameterError(f"n must be below 2^24 (exact float32 counts), got counts up to {c.max():g}")
        mf = self.dom.member_f
        if self._c is not None and self._c.shape == c.shape:
            diff = self._c - c
            nz = np.count_nonzero(diff)
            if nz == 0:
                p = self._p
            elif nz < diff.size // 4:
                p = self._p - np.asarray(sparse.csr_matrix(diff) @ mf, np.float32)
            else:
                p = c @ mf
        else:
            p = c @ mf
        self._c, self._p = c, p
        t = np.asarray(c1).shape[0]
        return p[:t].astype(float), p[t:].astype(float)

    def __call__(self, c1, c0, threshold, rng):
        h1, h0 = self.counts(c1, c0)
        q = quality(h1, h0, threshold, "or")
        if self.greedy:
            choice = np.argmax(np.where(h0 == 0, h1, -np.inf), axis=1)
        else:
            choice = pick(q, self.eta, rng)
        rows = np.arange(q.shape[0])
        return choice, self.dom.member[choice], q[rows, choice], q.max(axis=1)


def union_labels(dom: Domain, chosen: np.ndarray) -> np.ndarray:
    """(trials, K): the OR of the chosen candidates (``chosen``: (trials, T)) on every atom."""
    out = np.zeros((chosen.shape[0], dom.n_atoms), bool)
    for j in range(chosen.shape[1]):
        out |= dom.member[chosen[:, j]]
    return out


def true_error(labels, target, probs) -> np.ndarray:
    """Exact error: sum over atoms of P(atom) [h(atom) != c(atom)]."""
    return (np.asarray(probs) * (np.asarray(labels) != np.asarray(target))).sum(axis=-1)


def log_candidates(d: int, m: int = M_DEFAULT) -> float:
    return math.log(candidate_count(d, m))
