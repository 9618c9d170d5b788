"""Kaplan, Mansour, Matias and Stemmer, "Differentially Private Learning of Geometric
Concepts" (ICML 2019), section 4: halfplanes over the grid X_d^2 = {0..d}^2, the dual
arrangement on which Select Halfplane samples exactly. The sampler itself is in
simulators/kmms/select_halfplane.py; the convex k-gon targets, the band distribution and
the non-private baselines are in simulators/kmms/kgons.py.

Halfplanes (Observation 4.1). HALFPLANE_d = {f_(a^, b) : a^ in F = [-2d^2, 6d^2], b in
D = [-2d^2, 2d^2]}: a = a^ - 4d^2 [a^ > 2d^2], z = 1 - 2 [a^ > 2d^2], and f(x, y) = 1
iff z y >= z (a x + b) (the relation is lost in our text; we read ">=", the one the
class HALFPLANE uses). The copy z = +1 lives on [-2d^2, 2d^2] x D, the copy z = -1 on
[2d^2, 6d^2] x D, the same geometry shifted by 4d^2.

Duality. An example (x, y) is the line l_(x,y): b = y - x a of the (a, b) plane. For
z = +1, f_(a,b) labels (x, y) with 0 iff (a, b) lies strictly above that line; for
z = -1 iff strictly below. So the label-0 sets of the two copies at the same (a, b) are
complements (off the lines, a null set).

The exact slab sampler (``Arrangement``, our construction of the paper's step 6):
1. critical a-values: every crossing of two lines and every crossing of a line with the
   box edges b = +-B (B = 2d^2), as reduced integer fractions (denominators <= d),
   with -B and B; between two consecutive ones no two lines cross and none leaves the
   box, so each *slab* is cut by its inside lines into *trapezoids* whose order is fixed.
2. In slab s with midpoint m_s = num/den, line i sits at height V_i / den with the
   integer V_i = y_i den - x_i num: comparisons and the inside / below / above test are
   exact in int64 for d <= 2^10. A trapezoid's area is the slab width times its height
   at the midpoint (exact for linear sides, up to float rounding).
3. *Cells* (the paper's regions of the full arrangement) group trapezoids by their label
   set, hashed as a sum of fixed random 64-bit weights of its lines (mod 2^64; a
   collision has probability about (cells / 2^32)^2). Claim 4.5 is about cells: slab
   cuts make trapezoids arbitrarily thin.
4. Each cell's counts sum(c over its label-0 set) are computed for all cells at once by
   a breadth-first walk over the cell adjacency (two adjacent cells differ by one line),
   one vectorised step per depth: cost (cells x trials) per round.
5. Select Halfplane's density exp(eta q) is constant on cells (Observation 4.4), so it
   picks cell c of copy z with probability area(c) exp(eta q(c)) / N (log-sum-exp, then
   one uniform per trial against the cumulative weights), and, when the continuous output
   is asked for, a trapezoid of the cell by area and a uniform point in it (the height is
   linear in a: inverse CDF of a linear density, then b uniform).

Domain mode runs steps 1-4 once per d on all (d + 1)^2 grid points (``grid_arrangement``,
cached). Every sample's regions are unions of these cells, so the cell of the output point
is a post-processing of the paper's output (the full-grid cells do not depend on the
data), and its labelling of the whole grid is known exactly: that is all the learner and
its exact error need. Sample mode (``Arrangement.build`` on the distinct points of one
sample) is the paper's algorithm itself, O(n^3 log n) per call.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import breadth_first_order, connected_components

from privbounds.params import ParameterError

D_MAX = 1 << 10  # int64 heights and float64 areas are exact enough up to here (module docstring)
HASH_SEED = 4051  # the cell hash's weights are part of the construction, not of an experiment


def box(d: int) -> int:
    """B = 2d^2: the dual box [-B, B]^2 of one copy."""
    return 2 * d * d


def check_grid(d) -> None:
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or not 1 <= d <= D_MAX:
        raise ParameterError(f"d must be an integer in [1, {D_MAX}] (the grid X_d^2 = {{0..d}}^2), got {d!r}")


def grid_points(d: int) -> tuple[np.ndarray, np.ndarray]:
    """x and y of the (d + 1)^2 points of X_d^2, x-major."""
    check_grid(d)
    g = np.arange(d + 1, dtype=np.int64)
    return np.repeat(g, d + 1), np.tile(g, d + 1)


def halfplane_d(a_hat, b, x, y, d) -> np.ndarray:
    """f_(a^, b)(x, y) of HALFPLANE_d (Observation 4.1), broadcast: 1 iff z y >= z (a x + b)."""
    a_hat, b = np.asarray(a_hat, float), np.asarray(b, float)
    lower = a_hat > 2 * d * d
    a = a_hat - 4.0 * d * d * lower
    z = np.where(lower, -1.0, 1.0)
    return z * np.asarray(y, float) >= z * (a * np.asarray(x, float) + b)


def _reduce(num, den):
    g = np.gcd(num, den)
    g[g == 0] = 1
    return num // g, den // g


def critical_values(xs, ys, B):
    """Sorted distinct critical a-values in [-B, B] as reduced fractions (num, den > 0), of
    one point set (xs, ys: (m,)) or of each row of a batch ((T, m)); returns (row, num,
    den), sorted by row, then by value."""
    xs, ys = np.atleast_2d(xs), np.atleast_2d(ys)
    T, m = xs.shape
    i, j = np.triu_indices(m, 1)
    num, den = (ys[:, i] - ys[:, j]).ravel(), (xs[:, i] - xs[:, j]).ravel()
    row = np.repeat(np.arange(T), i.size)
    keep = den != 0
    num, den, row = num[keep], den[keep], row[keep]
    neg = den < 0
    num[neg], den[neg] = -num[neg], -den[neg]
    pos = xs > 0
    prow = np.nonzero(pos)[0]
    num = np.concatenate([num, ys[pos] + B, ys[pos] - B, np.full(T, -B), np.full(T, B)])
    den = np.concatenate([den, xs[pos], xs[pos], np.ones(2 * T, np.int64)])
    row = np.concatenate([row, prow, prow, np.arange(T), np.arange(T)])
    num, den = _reduce(num, den)
    inside = np.abs(num) <= B * den
    trip = np.unique(np.stack([row[inside], num[inside], den[inside]], axis=1), axis=0)
    # distinct fractions with denominators <= d differ by >= 1/d^2, far above float64
    # rounding at |a| <= 2d^2 for d <= 2^10: sorting by the float value is exact
    order = np.lexsort((trip[:, 1] / trip[:, 2], trip[:, 0]))
    return trip[order, 0], trip[order, 1], trip[order, 2]


def _trapezoids(xs, ys, d: int) -> dict:
    """Steps 1-3 of the module docstring for a batch of point sets (xs, ys: (T, m)), flat
    over every row's slabs and trapezoids: the per-row work is array operations on all
    rows at once (Claim 4.5's sample mode builds one arrangement per trial)."""
    T, P = xs.shape
    B = box(d)
    row, a_num, a_den = critical_values(xs, ys, B)
    # slab s lies between critical values s and s + 1 of the same row
    s0 = np.flatnonzero(row[:-1] == row[1:])
    s_row = row[s0]
    n1, d1, n2, d2 = a_num[s0], a_den[s0], a_num[s0 + 1], a_den[s0 + 1]
    mid_num, mid_den = n1 * d2 + n2 * d1, 2 * d1 * d2
    width = n2 / d2 - n1 / d1
    # exact heights: line i at the midpoint of slab s is V[s, i] / mid_den[s]
    V = ys[s_row] * mid_den[:, None] - xs[s_row] * mid_num[:, None]
    lim = B * mid_den[:, None]
    below, above = V <= -lim, V >= lim
    inside = ~(below | above)
    big = np.iinfo(np.int64).max
    order = np.argsort(np.where(inside, V, big), axis=1, kind="stable")
    R = inside.sum(axis=1)
    M = V.shape[0]
    order_flat = order[np.arange(P)[None, :] < R[:, None]]
    start = np.concatenate([[0], np.cumsum(R)[:-1]])  # each slab's first entry in order_flat
    t_count = R + 1
    t_slab = np.repeat(np.arange(M), t_count)
    t_first = np.concatenate([[0], np.cumsum(t_count)[:-1]])
    r = np.arange(t_slab.size) - t_first[t_slab]
    lo_pos = start[t_slab] + r - 1
    hi_pos = start[t_slab] + r
    has_lo, has_hi = r > 0, r < R[t_slab]
    t_lo = np.where(has_lo, order_flat[np.clip(lo_pos, 0, None)] if order_flat.size else -1, -1)
    t_hi = np.where(has_hi, order_flat[np.clip(hi_pos, 0, max(order_flat.size - 1, 0))]
                    if order_flat.size else -1, -1)
    den_t = mid_den[t_slab]
    v_lo = np.where(has_lo, V[t_slab, np.clip(t_lo, 0, None)], -B * den_t)
    v_hi = np.where(has_hi, V[t_slab, np.clip(t_hi, 0, None)], B * den_t)
    t_area = width[t_slab] * ((v_hi - v_lo) / den_t)
    # cells: the label-0 set (z = +1) of trapezoid r of slab s is the lines below the box
    # and the first r inside lines; hashed by fixed random 64-bit weights, mod 2^64, and
    # kept apart by row
    w = np.random.default_rng(HASH_SEED).integers(0, np.iinfo(np.uint64).max, P, dtype=np.uint64,
                                                  endpoint=True)
    hb = np.where(below, w[None, :], np.uint64(0)).sum(axis=1, dtype=np.uint64)
    ex = np.zeros(order_flat.size + 1, dtype=np.uint64)
    np.cumsum(w[order_flat], out=ex[1:])
    h = hb[t_slab] + (ex[start[t_slab] + r] - ex[start[t_slab]])
    # group by (row, hash); numbered as np.unique numbers the hashes of one row, so a single
    # arrangement's cells keep their order (and Select Halfplane its draws) under a batch
    t_row = s_row[t_slab]
    srt = np.lexsort((h, t_row))
    new = np.ones(srt.size, bool)
    new[1:] = (t_row[srt][1:] != t_row[srt][:-1]) | (h[srt][1:] != h[srt][:-1])
    first = srt[new]
    t_cell = np.empty(srt.size, np.int64)
    t_cell[srt] = np.cumsum(new) - 1
    cell_area = np.bincount(t_cell, weights=t_area, minlength=first.size)
    return dict(a_num=a_num, a_den=a_den, mid_num=mid_num, mid_den=mid_den, width=width,
                t_slab=t_slab, t_lo=t_lo.astype(np.int64), t_hi=t_hi.astype(np.int64), t_area=t_area,
                t_cell=t_cell, cell_area=cell_area, cell_row=s_row[t_slab[first]], first=first,
                v_lo=v_lo, v_hi=v_hi, has_hi=has_hi)


def _check_points(xs, ys, d) -> tuple[np.ndarray, np.ndarray]:
    check_grid(d)
    xs, ys = np.asarray(xs, np.int64), np.asarray(ys, np.int64)
    if xs.shape != ys.shape or xs.ndim not in (1, 2) or xs.size == 0:
        raise ValueError("xs and ys must be equal-shape, non-empty arrays (one point set, or one per row)")
    if xs.min() < 0 or ys.min() < 0 or xs.max() > d or ys.max() > d:
        raise ValueError(f"points must lie in X_d^2 = {{0..{d}}}^2")
    codes = np.sort(np.atleast_2d(xs * (d + 1) + ys), axis=1)
    if np.any(codes[:, 1:] == codes[:, :-1]):
        raise ValueError("points must be distinct (merge duplicates into counts)")
    return xs, ys


def min_cell_areas(xs, ys, d: int) -> np.ndarray:
    """(T,): the smallest region of the clipped arrangement of each row's distinct points
    (xs, ys: (T, m)), all rows at once; equal to ``min_cell_area(Arrangement.build(...))``
    row by row (tested)."""
    xs, ys = _check_points(xs, ys, d)
    xs, ys = np.atleast_2d(xs), np.atleast_2d(ys)
    core = _trapezoids(xs, ys, d)
    out = np.full(xs.shape[0], np.inf)
    np.minimum.at(out, core["cell_row"], core["cell_area"])
    return out


@dataclass
class Arrangement:
    """The dual arrangement of distinct points (xs, ys) of X_d^2 clipped to one copy's box,
    with its slabs, trapezoids and cells (module docstring). Attributes (P lines, M slabs,
    K trapezoids, C cells):

    - ``a_num``, ``a_den`` (M + 1): critical values; ``mid_num``, ``mid_den`` (M): slab midpoints
    - ``t_slab``, ``t_lo``, ``t_hi``, ``t_area``, ``t_cell`` (K): a trapezoid's slab, its lower and
      upper line (-1: the box edge), area and cell, slab-major and bottom to top
    - ``cell_area`` (C, per copy), ``rep_slab``, ``rep_twice`` (C): a point inside each cell,
      (a, b) = (m_s, rep_twice / (2 den_s)), exact
    - ``root``, ``root_label0`` and ``levels``: the breadth-first walk over adjacent cells,
      each level (nodes, parents, line, sign): Z[node] = Z[parent] + sign c[line]
    """

    d: int
    xs: np.ndarray
    ys: np.ndarray
    a_num: np.ndarray
    a_den: np.ndarray
    mid_num: np.ndarray
    mid_den: np.ndarray
    width: np.ndarray
    t_slab: np.ndarray
    t_lo: np.ndarray
    t_hi: np.ndarray
    t_area: np.ndarray
    t_cell: np.ndarray
    cell_area: np.ndarray
    rep_slab: np.ndarray
    rep_twice: np.ndarray
    root: int
    root_label0: np.ndarray
    levels: list

    @property
    def B(self) -> int:
        return box(self.d)

    @property
    def n_lines(self) -> int:
        return self.xs.size

    @property
    def n_cells(self) -> int:
        return self.cell_area.size

    @property
    def n_trapezoids(self) -> int:
        return self.t_area.size

    @classmethod
    def build(cls, xs, ys, d: int, walk: bool = True) -> Arrangement:
        """The arrangement of the distinct points (xs, ys); ``walk=False`` skips the cell
        walk (enough for areas and labels, not for ``cell_sums``)."""
        xs, ys = _check_points(xs, ys, d)
        if xs.ndim != 1:
            raise ValueError("xs and ys must be 1-d arrays (one point set)")
        c = _trapezoids(xs[None, :], ys[None, :], d)
        t_cell, first, has_hi, t_hi = c["t_cell"], c["first"], c["has_hi"], c["t_hi"]
        C = first.size
        rep_slab = c["t_slab"][first]
        rep_twice = c["v_lo"][first] + c["v_hi"][first]
        # adjacency: trapezoid r -> r + 1 of one slab crosses line t_hi upwards (it joins the
        # label-0 set of the z = +1 copy)
        nxt = np.flatnonzero(has_hi)
        u, v, line = t_cell[nxt], t_cell[nxt + 1], t_hi[nxt]
        key = np.unique(u * C + v, return_index=True)[1]
        u, v, line = u[key], v[key], line[key]
        arr = cls(d, xs, ys, c["a_num"], c["a_den"], c["mid_num"], c["mid_den"], c["width"], c["t_slab"],
                  c["t_lo"], t_hi, c["t_area"], t_cell, c["cell_area"], rep_slab, rep_twice, 0,
                  np.zeros(xs.size, bool), [])
        if walk:
            arr._walk(u, v, line)
        return arr

    def _walk(self, u, v, line) -> None:
        C = self.n_cells
        g = coo_matrix((np.ones(u.size), (u, v)), shape=(C, C)).tocsr()
        ncomp, _ = connected_components(g, directed=False)
        if ncomp != 1:
            raise RuntimeError(f"the cell graph has {ncomp} components; an arrangement in a box is connected")
        root = int(np.argmax(self.cell_area))
        order, pred = breadth_first_order(g, root, directed=False, return_predecessors=True)
        keys = u * C + v
        sort = np.argsort(keys)
        keys, line_sorted = keys[sort], line[sort]
        nodes = order[1:].astype(np.int64)
        parents = pred[nodes].astype(np.int64)
        fwd = parents * C + nodes  # parent -> node crosses a line upwards: node gains it
        pos = np.clip(np.searchsorted(keys, fwd), 0, keys.size - 1)
        is_fwd = keys[pos] == fwd
        back = nodes * C + parents
        pos_b = np.clip(np.searchsorted(keys, back), 0, keys.size - 1)
        if not np.all(is_fwd | (keys[pos_b] == back)):
            raise RuntimeError("a breadth-first edge is not an adjacency of the arrangement")
        lines = np.where(is_fwd, line_sorted[pos], line_sorted[pos_b])
        signs = np.where(is_fwd, 1.0, -1.0)
        depth = np.zeros(C, np.int64)
        dl = depth.tolist()
        for n, p in zip(nodes.tolist(), parents.tolist()):
            dl[n] = dl[p] + 1
        depth = np.asarray(dl)[nodes]
        cut = np.flatnonzero(np.diff(depth)) + 1  # BFS order is sorted by depth
        self.levels = [(nd, pa, ln, sg) for nd, pa, ln, sg in zip(np.split(nodes, cut), np.split(parents, cut),
                                                                    np.split(lines, cut), np.split(signs, cut))]
        self.root = root
        self.root_label0 = self.label0(np.array([root]))[0]

    # --- labels ---------------------------------------------------------------------
    def label0(self, cells, xs=None, ys=None) -> np.ndarray:
        """(len(cells), points): True where the z = +1 halfplanes of the cell label the point
        0 (the cell lies strictly above its dual line). Exact integer comparison at the
        cell's representative point. ``xs, ys`` default to the arrangement's own points; any
        grid points may be given when the arrangement is the full grid's (every line is then
        one of its lines, so no line crosses the cell)."""
        xs = self.xs if xs is None else np.asarray(xs, np.int64)
        ys = self.ys if ys is None else np.asarray(ys, np.int64)
        cells = np.asarray(cells)
        s = self.rep_slab[cells]
        num, den = self.mid_num[s][:, None], self.mid_den[s][:, None]
        return self.rep_twice[cells][:, None] > 2 * (ys[None, :] * den - xs[None, :] * num)

    def labels(self, choice, xs=None, ys=None) -> np.ndarray:
        """(len(choice), points) labels (True = 1) of the hypotheses named by ``choice``:
        cell c of the z = +1 copy is c, of the z = -1 copy c + n_cells."""
        choice = np.asarray(choice)
        C = self.n_cells
        l0 = self.label0(choice % C, xs, ys)
        xs = self.xs if xs is None else np.asarray(xs, np.int64)
        ys = self.ys if ys is None else np.asarray(ys, np.int64)
        cells = choice % C
        s = self.rep_slab[cells]
        on = self.rep_twice[cells][:, None] == 2 * (ys[None, :] * self.mid_den[s][:, None]
                                                   - xs[None, :] * self.mid_num[s][:, None])
        if on.any():
            raise RuntimeError("a representative point lies on a dual line")
        upper = (choice < C)[:, None]
        return np.where(upper, ~l0, l0)

    # --- counts and sampling ------------------------------------------------------------
    def cell_sums(self, counts) -> np.ndarray:
        """(cells, batch): for each cell, the sum of ``counts`` (batch, lines) over its z = +1
        label-0 set, by the breadth-first walk (one vectorised step per depth)."""
        ct = np.ascontiguousarray(np.asarray(counts, float).T)  # (lines, batch)
        Z = np.empty((self.n_cells, ct.shape[1]))
        Z[self.root] = self.root_label0.astype(float) @ ct
        for nodes, parents, lines, signs in self.levels:
            Z[nodes] = Z[parents] + signs[:, None] * ct[lines]
        return Z

    def log_areas(self) -> np.ndarray:
        """ln area of every hypothesis cell: both copies (2 C,)."""
        la = np.log(self.cell_area)
        return np.concatenate([la, la])

    def _sides(self):
        """Per trapezoid (computed once): its slab's ends a0, a1 and its lower and upper sides
        as b = y - x a (the box edges as y = -+B, x = 0)."""
        cached = getattr(self, "_side_cache", None)
        if cached is None:
            s = self.t_slab
            B = float(self.B)
            lo, hi = np.clip(self.t_lo, 0, None), np.clip(self.t_hi, 0, None)
            cached = self._side_cache = (
                self.a_num[s] / self.a_den[s], self.a_num[s + 1] / self.a_den[s + 1],
                np.where(self.t_lo >= 0, self.ys[lo], -B).astype(float),
                np.where(self.t_lo >= 0, self.xs[lo], 0).astype(float),
                np.where(self.t_hi >= 0, self.ys[hi], B).astype(float),
                np.where(self.t_hi >= 0, self.xs[hi], 0).astype(float))
        return cached

    def trapezoid_points(self, trap, rng) -> tuple[np.ndarray, np.ndarray]:
        """A uniform point (a, b) in each trapezoid of ``trap`` (z = +1 coordinates)."""
        trap = np.asarray(trap)
        A0, A1, LY, LX, HY, HX = self._sides()
        a0, a1, ly, lx, hy, hx = A0[trap], A1[trap], LY[trap], LX[trap], HY[trap], HX[trap]
        h0 = np.maximum((hy - ly) - (hx - lx) * a0, 0.0)
        h1 = np.maximum((hy - ly) - (hx - lx) * a1, 0.0)
        u = rng.random(trap.shape)
        # inverse CDF of the density proportional to h0 + (h1 - h0) t on [0, 1]
        t = u * (h0 + h1) / (h0 + np.sqrt(h0 * h0 + u * (h1 * h1 - h0 * h0)))
        a = a0 + t * (a1 - a0)
        lo = ly - lx * a
        b = lo + rng.random(trap.shape) * ((hy - hx * a) - lo)
        return a, b

    def cell_trapezoids(self):
        """(order, offsets, cumulative areas): trapezoid ids grouped by cell, each cell's
        slice, and the running sum of their areas (computed once)."""
        cached = getattr(self, "_by_cell", None)
        if cached is None:
            order = np.argsort(self.t_cell, kind="stable")
            offsets = np.concatenate([[0], np.cumsum(np.bincount(self.t_cell, minlength=self.n_cells))])
            cached = self._by_cell = (order, offsets, np.cumsum(self.t_area[order]))
        return cached

    def sample_in_cells(self, choice, rng) -> tuple[np.ndarray, np.ndarray]:
        """Step 6's continuous output for chosen hypothesis cells: a trapezoid of the cell by
        area, then a uniform point in it. Returns (a^, b) in F x D."""
        choice = np.asarray(choice)
        C = self.n_cells
        cell = choice % C
        order, offsets, cum = self.cell_trapezoids()
        base = np.where(offsets[cell] > 0, cum[np.maximum(offsets[cell] - 1, 0)], 0.0)
        target = base + rng.random(choice.shape) * self.cell_area[cell]
        k = np.searchsorted(cum, target, side="right")
        k = np.clip(k, offsets[cell], offsets[cell + 1] - 1)
        a, b = self.trapezoid_points(order[k], rng)
        a_hat = np.where(choice < C, a, a + 4.0 * self.d * self.d)
        return a_hat, b


@lru_cache(maxsize=8)
def grid_arrangement(d: int) -> Arrangement:
    """The arrangement of all (d + 1)^2 grid points' dual lines (domain mode), cached per d."""
    xs, ys = grid_points(d)
    return Arrangement.build(xs, ys, d)


def min_cell_area(arr: Arrangement) -> float:
    """The smallest region of the clipped arrangement (Claim 4.5 is about these)."""
    return float(arr.cell_area.min())


def distinct_points(d: int, m: int, rng, trials: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """m distinct points of X_d^2, uniformly at random (a uniform m-subset); with
    ``trials``, one independent subset per row, (trials, m) each, drawn for all rows at once."""
    size = (d + 1) ** 2
    if not 1 <= m <= size:
        raise ParameterError(f"points must be in [1, {size}] on X_d^2 with d = {d}, got {m}")
    T = 1 if trials is None else trials
    if 4 * m > size:
        idx = np.argsort(rng.random((T, size)), axis=1)[:, :m]
    else:
        # the first m distinct values of an i.i.d. uniform sequence are a uniform m-subset;
        # 2m draws hold m distinct ones with overwhelming probability, a short row redraws
        idx = np.empty((T, m), np.int64)
        todo = np.arange(T)
        while todo.size:
            draws = rng.integers(0, size, (todo.size, 2 * m))
            srt = np.argsort(draws, axis=1, kind="stable")
            vals = np.take_along_axis(draws, srt, axis=1)
            first_sorted = np.ones_like(vals, bool)
            first_sorted[:, 1:] = vals[:, 1:] != vals[:, :-1]
            first = np.zeros_like(first_sorted)
            np.put_along_axis(first, srt, first_sorted, axis=1)
            keep = first & (np.cumsum(first, axis=1) <= m)
            full = keep.sum(axis=1) == m
            idx[todo[full]] = draws[full][keep[full]].reshape(-1, m)
            todo = todo[~full]
    xs, ys = idx // (d + 1), idx % (d + 1)
    return (xs[0], ys[0]) if trials is None else (xs, ys)
