"""Kaplan, Mansour, Matias and Stemmer, "Differentially Private Learning of Geometric
Concepts" (ICML 2019), section 5: the exact integer geometry of its polygons. Orientation
(``cross``), closed triangles and closed simple polygons on grid points (boundary
included), the simplicity test, ear clipping (a simple polygon with v edges is the union of
the v - 2 closed triangles of a triangulation), random star-shaped polygons on a coordinate
grid, and the distance of grid points to a union of triangles. simulators/kmms/polygons.py
builds the candidates and targets of Theorem 5.1 from these."""

from __future__ import annotations

import numpy as np

from privbounds.params import ParameterError


def cross(ax, ay, bx, by, cx, cy):
    """(b - a) x (c - a): > 0 when a, b, c turn left, 0 when collinear (exact on integers)."""
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


def in_closed_triangles(tris, px, py) -> np.ndarray:
    """(T, P) bool: point p lies in the closed triangle t (boundary included). ``tris``:
    (T, 3, 2) integer vertices of non-degenerate triangles; ``px``, ``py``: (P,) integers."""
    t = np.asarray(tris, dtype=np.int64)
    a, b, c = t[:, 0, :, None], t[:, 1, :, None], t[:, 2, :, None]
    s = np.sign(cross(a[:, 0], a[:, 1], b[:, 0], b[:, 1], c[:, 0], c[:, 1]))  # (T, 1)
    if np.any(s == 0):
        raise ParameterError("triangles must be non-degenerate (three non-collinear vertices)")
    px, py = np.asarray(px, np.int64)[None, :], np.asarray(py, np.int64)[None, :]
    return ((s * cross(a[:, 0], a[:, 1], b[:, 0], b[:, 1], px, py) >= 0)
            & (s * cross(b[:, 0], b[:, 1], c[:, 0], c[:, 1], px, py) >= 0)
            & (s * cross(c[:, 0], c[:, 1], a[:, 0], a[:, 1], px, py) >= 0))


def in_closed_polygon(vertices, px, py) -> np.ndarray:
    """(P,) bool: p lies in the closed simple polygon (its boundary or its bounded face).
    Exact: a point on an edge is inside; otherwise the even-odd rule with a horizontal ray
    (half-open edge rule, so a ray through a vertex is counted once)."""
    v = np.asarray(vertices, dtype=np.int64)
    px, py = np.asarray(px, np.int64), np.asarray(py, np.int64)
    inside = np.zeros(px.shape, bool)
    on_edge = np.zeros(px.shape, bool)
    for i in range(len(v)):
        (x1, y1), (x2, y2) = v[i], v[(i + 1) % len(v)]
        c = cross(x1, y1, x2, y2, px, py)
        on_edge |= (c == 0) & (np.minimum(x1, x2) <= px) & (px <= np.maximum(x1, x2)) \
            & (np.minimum(y1, y2) <= py) & (py <= np.maximum(y1, y2))
        if y1 == y2:
            continue
        up = (y1 <= py) & (py < y2)  # upward edge, half-open
        down = (y2 <= py) & (py < y1)
        # the crossing lies strictly right of p: sign of cross relative to the edge direction
        inside ^= (up & (c > 0)) | (down & (c < 0))
    return inside | on_edge


def polygon_is_simple(vertices) -> bool:
    """True when no two non-adjacent edges of the closed polygon meet and adjacent edges
    meet only at their shared vertex (exact segment tests)."""
    v = [tuple(map(int, p)) for p in vertices]
    n = len(v)
    if n < 3 or len(set(v)) != n:
        return False

    def on_seg(p, q, r):
        return min(p[0], q[0]) <= r[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= r[1] <= max(p[1], q[1])

    def meet(p1, p2, p3, p4):
        d1 = cross(*p3, *p4, *p1)
        d2 = cross(*p3, *p4, *p2)
        d3 = cross(*p1, *p2, *p3)
        d4 = cross(*p1, *p2, *p4)
        if ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4)):
            return True
        return ((d1 == 0 and on_seg(p3, p4, p1)) or (d2 == 0 and on_seg(p3, p4, p2))
                or (d3 == 0 and on_seg(p1, p2, p3)) or (d4 == 0 and on_seg(p1, p2, p4)))

    for i in range(n):
        for j in range(i + 1, n):
            a1, a2, b1, b2 = v[i], v[(i + 1) % n], v[j], v[(j + 1) % n]
            if j == i + 1 or (i == 0 and j == n - 1):
                # adjacent edges: they share one vertex; they may not overlap beyond it
                shared = a2 if j == i + 1 else a1
                other_a = a1 if j == i + 1 else a2
                other_b = b2 if j == i + 1 else b1
                if cross(*shared, *other_a, *other_b) == 0 and \
                        (other_a[0] - shared[0]) * (other_b[0] - shared[0]) \
                        + (other_a[1] - shared[1]) * (other_b[1] - shared[1]) > 0:
                    return False  # the two edges fold back onto each other
                continue
            if meet(a1, a2, b1, b2):
                return False
    return True


def ear_clip(vertices) -> list[tuple[int, int, int]]:
    """A triangulation of the simple polygon ``vertices`` (integer (x, y), either
    orientation) by ear clipping, as index triples into ``vertices``. A vertex met with a
    straight angle (on the segment of its current neighbours) is dropped without a
    triangle: the region is unchanged. An ear is a strictly convex vertex whose closed triangle holds no other
    remaining vertex. A simple polygon with v vertices and no straight angles gives v - 2
    non-degenerate triangles, whose closed union is the closed polygon."""
    v = np.asarray(vertices, dtype=np.int64)
    n = len(v)
    if n < 3:
        raise ParameterError(f"a polygon needs at least 3 vertices, got {n}")
    area2 = sum(int(v[i, 0] * v[(i + 1) % n, 1] - v[(i + 1) % n, 0] * v[i, 1]) for i in range(n))
    if area2 == 0:
        raise ParameterError("the polygon must have non-zero area")
    sgn = 1 if area2 > 0 else -1
    idx = list(range(n))
    out = []
    guard = 0
    while len(idx) > 3:
        guard += 1
        if guard > 4 * n * n:
            raise ParameterError("the polygon must be simple (ear clipping found no ear)")
        m = len(idx)
        clipped = False
        for t in range(m):
            i0, i1, i2 = idx[t - 1], idx[t], idx[(t + 1) % m]
            c = sgn * int(cross(*v[i0], *v[i1], *v[i2]))
            if c == 0:
                del idx[t]  # straight angle (or a spike, which a simple polygon has not)
                clipped = True
                break
            if c < 0:
                continue
            others = [j for j in idx if j not in (i0, i1, i2)]
            if others:
                tri = v[[i0, i1, i2]][None]
                if in_closed_triangles(tri, v[others, 0], v[others, 1]).any():
                    continue
            out.append((i0, i1, i2))
            del idx[t]
            clipped = True
            break
        if not clipped:
            raise ParameterError("the polygon must be simple (ear clipping found no ear)")
    if sgn * int(cross(*v[idx[0]], *v[idx[1]], *v[idx[2]])) > 0:
        out.append(tuple(idx))
    return out


def random_star_polygon(v: int, coords: np.ndarray, rng: np.random.Generator, tries: int = 10_000) -> np.ndarray:
    """A random simple star-shaped polygon with v vertices taken from the integer grid
    ``coords`` x ``coords``: v distinct points sorted by angle around their centroid,
    accepted when every fan triangle (centroid, v_i, v_i+1) turns strictly left (so the
    polygon is star-shaped about the centroid, hence simple) and no three consecutive
    vertices are collinear (so it has exactly v edges). (v, 2) int64, counter-clockwise."""
    coords = np.asarray(coords, np.int64)
    g = np.stack(np.meshgrid(coords, coords, indexing="ij"), -1).reshape(-1, 2)
    g = np.unique(g, axis=0)
    if v < 3 or v > len(g):
        raise ParameterError(f"a polygon needs 3 <= vertices <= {len(g)} grid points, got {v}")
    for _ in range(tries):
        p = g[rng.choice(len(g), v, replace=False)]
        cx, cy = p[:, 0].sum(), p[:, 1].sum()  # centroid times v, kept integer
        q = p * v
        ang = np.arctan2(q[:, 1] - cy, q[:, 0] - cx)
        order = np.argsort(ang, kind="stable")
        q, p = q[order], p[order]
        nxt = np.roll(np.arange(v), -1)
        fan = cross(cx, cy, q[:, 0], q[:, 1], q[nxt, 0], q[nxt, 1])
        prv = np.roll(np.arange(v), 1)
        turn = cross(p[prv, 0], p[prv, 1], p[:, 0], p[:, 1], p[nxt, 0], p[nxt, 1])
        if np.all(fan > 0) and np.all(turn != 0):
            return p
    raise ParameterError(f"found no simple polygon with {v} vertices on a {len(coords)} x {len(coords)} grid")


def point_triangle_distance(tris, px, py) -> np.ndarray:
    """(P,) Euclidean distance from each point to the closed union of ``tris`` (0 inside)."""
    t = np.asarray(tris, float)
    px, py = np.asarray(px, float), np.asarray(py, float)
    best = np.full(px.shape, np.inf)
    for tri in t:
        for i in range(3):
            (x1, y1), (x2, y2) = tri[i], tri[(i + 1) % 3]
            dx, dy = x2 - x1, y2 - y1
            u = np.clip(((px - x1) * dx + (py - y1) * dy) / (dx * dx + dy * dy), 0.0, 1.0)
            best = np.minimum(best, np.hypot(px - x1 - u * dx, py - y1 - u * dy))
    inside = in_closed_triangles(np.asarray(tris, np.int64), px.astype(np.int64), py.astype(np.int64)).any(axis=0)
    return np.where(inside, 0.0, best)
