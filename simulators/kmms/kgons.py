"""Kaplan, Mansour, Matias and Stemmer, "Differentially Private Learning of Geometric
Concepts" (ICML 2019), section 4: the convex k-gon targets and the band distribution of
Lemma 4.6 and Theorem 4.7, and the non-private baselines Theorem 4.7 is compared with
(greedy cover over HALFPLANE_d, the convex hull of the positives). The grid, the dual
arrangement and the exact Select Halfplane sampler they run on are in
simulators/kmms/halfplanes.py."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from privbounds.params import ParameterError
from privbounds.simulators.kmms.halfplanes import D_MAX, Arrangement, check_grid, grid_points

# --- convex k-gons and the band distribution ----------------------------------------------

RADIUS = 0.38  # circumradius of the target, in units of d
BAND = 0.15  # the negatives' band around the target, in units of d


def kgon_targets(d: int, k: int, trials: int, rng) -> tuple[np.ndarray, np.ndarray]:
    """Random convex k-gon targets (``kmms.dist_band``'s targets): the regular k-gon of
    circumradius 0.38 d centred at (d/2, d/2), rotated uniformly at random and shifted by
    up to 0.5 in each coordinate. Returns the vertices (trials, k, 2) and the edge
    halfplanes as (normal (trials, k, 2), offset (trials, k)): inside iff n . p <= offset
    for every edge (closed polygon)."""
    check_kgon(d, k)
    rot = rng.uniform(0.0, 2 * math.pi / k, trials)
    shift = rng.uniform(-0.5, 0.5, (trials, 2))
    ang = rot[:, None] + 2 * math.pi * np.arange(k)[None, :] / k
    centre = d / 2.0 + shift
    verts = centre[:, None, :] + RADIUS * d * np.stack([np.cos(ang), np.sin(ang)], axis=-1)
    mid = ang + math.pi / k
    normal = np.stack([np.cos(mid), np.sin(mid)], axis=-1)
    offset = np.einsum("tkc,tkc->tk", normal, verts)
    return verts, (normal, offset)


def kgon_inside(halfplanes, xs, ys) -> np.ndarray:
    """(trials, points): the closed polygon's membership."""
    normal, offset = halfplanes
    proj = normal[..., 0][:, :, None] * xs[None, None, :] + normal[..., 1][:, :, None] * ys[None, None, :]
    return (proj <= offset[:, :, None]).all(axis=1)


def polygon_distance(verts, xs, ys) -> np.ndarray:
    """(trials, points): Euclidean distance from each point to the polygon's boundary."""
    a = verts
    b = np.roll(verts, -1, axis=1)
    ab = b - a  # (t, k, 2)
    px = np.stack([xs, ys], axis=-1).astype(float)  # (P, 2)
    ap = px[None, None, :, :] - a[:, :, None, :]
    t = np.clip(np.einsum("tkpc,tkc->tkp", ap, ab) / np.einsum("tkc,tkc->tk", ab, ab)[:, :, None], 0.0, 1.0)
    diff = ap - t[..., None] * ab[:, :, None, :]
    return np.sqrt((diff ** 2).sum(axis=-1)).min(axis=1)


def band_distribution(d: int, k: int, trials: int, rng):
    """``kmms.dist_band``: for each trial a random convex k-gon target c and the law P on
    X_d^2: 1/2 uniform on the grid points inside c, 1/2 uniform on the grid points outside
    it within distance 0.15 d of it. Returns (probs (trials, P), inside (trials, P) bool)."""
    xs, ys = grid_points(d)
    verts, hp = kgon_targets(d, k, trials, rng)
    inside = kgon_inside(hp, xs, ys)
    near = ~inside & (polygon_distance(verts, xs, ys) <= BAND * d)
    n_in, n_near = inside.sum(axis=1), near.sum(axis=1)
    if (n_in == 0).any() or (n_near == 0).any():
        raise ParameterError(f"d = {d} is too small for the band distribution of a {k}-gon")
    probs = 0.5 * inside / n_in[:, None] + 0.5 * near / n_near[:, None]
    return probs, inside


def effective_edges(d: int, k: int, trials: int, rng) -> np.ndarray:
    """(trials,): how many of the target's k edges are needed on the grid, i.e. are the
    only edge rejecting some negative point of the band (the grid-effective k)."""
    xs, ys = grid_points(d)
    verts, (normal, offset) = kgon_targets(d, k, trials, rng)
    inside = kgon_inside((normal, offset), xs, ys)
    near = ~inside & (polygon_distance(verts, xs, ys) <= BAND * d)
    proj = normal[..., 0][:, :, None] * xs + normal[..., 1][:, :, None] * ys
    rej = proj > offset[:, :, None]  # (t, k, P)
    only = rej & (rej.sum(axis=1, keepdims=True) == 1) & near[:, None, :]
    return only.any(axis=2).sum(axis=1)


def kgon_fits(d: int, k: int) -> bool:
    """Whether every edge of the target is needed on the grid for every rotation (checked on
    a fixed set of 64 rotations and shifts): the grid is large enough for a k-gon."""
    return bool((_effective_edges_fixed(d, k) == k).all())


@lru_cache(maxsize=64)
def _effective_edges_fixed(d, k):
    return effective_edges(d, k, 64, np.random.default_rng(7))


def check_kgon(d, k) -> None:
    check_grid(d)
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 3:
        raise ParameterError(f"k must be an integer >= 3 (the edges of a convex polygon), got {k!r}")


def check_kgon_fits(d, k) -> None:
    """Refuse a grid too small for the target: some edge of a k-gon of circumradius 0.38 d
    would reject no band point that the other edges do not, so the instance would not be a
    k-gon on X_d^2."""
    check_kgon(d, k)
    if not kgon_fits(d, k):
        fit = max((j for j in range(3, k) if kgon_fits(d, j)), default=None)
        if fit is not None:
            raise ParameterError(f"k must be at most {fit} on the grid X_d^2 with d = {d} (a {k}-gon of "
                                 f"circumradius 0.38 d has edges that cut no grid point of their own), got {k}")
        need = next(e for e in range(d + 1, D_MAX + 1) if kgon_fits(e, k))
        raise ParameterError(f"d must be at least {need} for a {k}-gon target (on a smaller grid some edge cuts no "
                             f"grid point of its own), got {d}")


def true_error(labels, inside, probs) -> np.ndarray:
    """Exact error sum_p P(p) [h(p) != c(p)] per trial."""
    return (probs * (labels != inside)).sum(axis=1)


# --- non-private baselines ------------------------------------------------------------------


def greedy_cover(arr: Arrangement, c1, c0, rounds: int, rng) -> np.ndarray:
    """Non-private greedy set cover over HALFPLANE_d (``kmms.alg_nonpriv_geo``), batched over
    trials: each round picks, among the hypothesis cells that reject no remaining positive,
    one rejecting the most remaining negatives (ties uniformly at random), and deletes what
    it rejects; a trial stops once no negative remains. Returns the final hypothesis's
    labels over the atoms (trials, atoms) (the AND of the picks)."""
    c1, c0 = np.asarray(c1, float).copy(), np.asarray(c0, float).copy()
    label1 = np.ones(c1.shape, bool)
    for _ in range(rounds):
        live = c0.sum(axis=1) > 0
        if not live.any():
            break
        idx = np.flatnonzero(live)
        Z = arr.cell_sums(np.concatenate([c0[idx], c1[idx]]))
        t = idx.size
        Z0, Z1 = Z[:, :t], Z[:, t:]
        tot0, tot1 = c0[idx].sum(axis=1), c1[idx].sum(axis=1)
        cover = np.concatenate([np.where(Z1 == 0, Z0, -1.0), np.where(tot1[None] - Z1 == 0, tot0[None] - Z0, -1.0)])
        best = cover.max(axis=0)
        tie = cover == best[None, :]
        pick = np.argmax(np.where(tie, rng.random(cover.shape), -1.0), axis=0)
        rej = ~arr.labels(pick)
        label1[idx] &= ~rej
        c0[idx] = np.where(rej, 0.0, c0[idx])
        c1[idx] = np.where(rej, 0.0, c1[idx])
    return label1


@lru_cache(maxsize=8)
def _directions(d: int) -> np.ndarray:
    """Primitive integer directions (i, j), |i|, |j| <= d: the normals of every line through
    two points of X_d^2 (rotated by 90 degrees), both orientations."""
    g = np.arange(-d, d + 1)
    i, j = np.meshgrid(g, g, indexing="ij")
    i, j = i.ravel(), j.ravel()
    keep = (np.gcd(i, j) == 1)
    return np.stack([i[keep], j[keep]], axis=1)


def convex_hull_labels(c1, d: int, chunk: int = 1 << 24) -> np.ndarray:
    """The convex hull of the positive examples as a hypothesis on X_d^2 (batched; closed
    hull, membership exact in integers): a grid point p is in the hull of a set S of grid
    points iff u . p <= max_S u . s for every primitive integer direction u with entries in
    [-d, d] (every edge of the hull of grid points has such a normal). Trials without a
    positive example get the empty hypothesis."""
    xs, ys = grid_points(d)
    U = _directions(d)
    proj = U[:, 0][:, None] * xs[None, :] + U[:, 1][:, None] * ys[None, :]  # (U, P) integers
    pos = np.asarray(c1) > 0
    T, P = pos.shape
    out = np.empty((T, P), bool)
    step = max(1, chunk // (U.shape[0] * P))
    low = np.iinfo(np.int64).min
    for s in range(0, T, step):
        pp = pos[s:s + step]
        top = np.where(pp[:, None, :], proj[None, :, :], low).max(axis=2)  # (t, U)
        out[s:s + step] = (proj[None, :, :] <= top[:, :, None]).all(axis=1) & pp.any(axis=1)[:, None]
    return out
