"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts",
Corollary 2.12: without privacy, consistent ERM k-learns a class of VC dimension VC
with n = O((VC ln(1/alpha) + ln(k/beta)) / alpha) rows: k enters only through ln k.
This is the reference curve for the paper's private k-learners.

Experiments, D uniform on X_d and k independent uniform targets:
- THRESH_d: ERM per column is the middle of the consistent interval (Sivakumar Thm 2.2's
  rule), from the sorted sample with one batched searchsorted; the error is exactly
  |t_hat - t*| / |X|.
- POINT_d: D uniform on 8 random points, each with mass 1/8 > alpha, and every target one
  of them: a column fails exactly when its target point is missing from the sample, so
  the k columns pay a coupon-collector price that stops growing once all 8 points are
  targets. ERM is the first consistent point (``erm_first_consistent_grouped``).
- PAR_d: ERM per column is the first consistent parity, by Gaussian elimination over
  GF(2) (``gf2.solve``, vectorised over trials and columns). Two distinct parities
  disagree on exactly half the cube, so for alpha < 1/2 success means recovering every
  target exactly.
"""

from __future__ import annotations

import numpy as np

from privbounds.params import ALPHA, BETA, Interval, Options, ParameterError
from privbounds.simulators.bns import gf2
from privbounds.simulators.engine.simulator import Simulator, expand
from privbounds.simulators.shared.accuracy import within
from privbounds.simulators.shared.concepts import make_class
from privbounds.simulators.shared.learners import chunks, erm_first_consistent_grouped


def erm_thresholds_uniform(x_sorted: np.ndarray, targets: np.ndarray, domain_size: int) -> np.ndarray:
    """Middle of the consistent interval (a, b] for every column: a = largest sample
    point below the target (or -1), b = smallest at or above it (or |X|).
    x_sorted: (B, n) sorted rows; targets: (B, k). Returns (B, k) thresholds."""
    B, n = x_sorted.shape
    stride = domain_size + 2
    offset = (np.arange(B) * stride)[:, None]
    flat = (x_sorted + offset).ravel()
    idx = np.searchsorted(flat, (targets + offset).ravel()).reshape(targets.shape) - np.arange(B)[:, None] * n
    padded = np.concatenate([np.full((B, 1), -1), x_sorted, np.full((B, 1), domain_size)], axis=1)
    a = np.take_along_axis(padded, idx, axis=1)       # element idx - 1 of the sample
    b = np.take_along_axis(padded, idx + 1, axis=1)   # element idx of the sample
    return (a + 1 + b) // 2


HEAVY = 8  # support points of the POINT instance, mass 1/8 each


def heavy_points(domain_size: int, k: int, b: int, rng):
    """b trials of the POINT instance: ``HEAVY`` distinct uniform points of X, each of mass
    1/HEAVY, and k targets among them. Returns support (b, HEAVY), probs, targets (b, k)."""
    support = np.argsort(rng.random((b, domain_size)), axis=1)[:, :HEAVY]  # distinct points
    probs = np.full((b, HEAVY), 1.0 / HEAVY)
    targets = np.take_along_axis(support, rng.integers(0, HEAVY, size=(b, k)), axis=1)
    return support, probs, targets


class BnsCor212(Simulator):
    theorem_id = "bns.cor2_12"
    params = {
        "class": Options(("thresh", "point", "par")),
        "d": Interval(2, 30, "both", integer=True),
        "k": Interval(1, 1 << 14, "both", integer=True),
        "alpha": ALPHA,
        "beta": BETA,
    }
    _ks = {"smoke": [1, 16, 256], "quick": [1, 4, 16, 64, 256, 1024],
           "full": [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]}

    def grid(self, fidelity, overrides):
        # alpha = 0.1 rather than 1/4: with 1/4 a handful of rows already leaves no gap wide
        # enough to fail, and the curve says little
        return expand({"class": ["thresh", "point", "par"], "d": [10], "k": self._ks[fidelity], "alpha": [0.1],
                       "beta": [0.25]}, overrides)

    def check_point(self, point):
        super().check_point(point)
        if point["class"] == "point" and point["alpha"] >= 1 / HEAVY:
            raise ParameterError(f"alpha must be < 1/{HEAVY} for the POINT instance, got {point['alpha']}")
        if point["class"] == "par" and point["d"] > 20:
            raise ParameterError(f"d must be <= 20 for parities, got {point['d']}")

    def privacy(self, point):
        return {"epsilon": None, "delta": None, "accounting": "non-private ERM"}

    def n_range(self, point):
        return 1, 1 << 14

    def run_trials(self, point, n, trials, rng):
        X = 2 ** point["d"]
        k = point["k"]
        ok = np.empty(trials, dtype=bool)
        if point["class"] == "par":
            return self._parities(point, n, trials, rng)
        if point["class"] == "point":
            return self._points(point, n, trials, rng)
        for sl in chunks(trials, n + 2 * k):
            b = sl.stop - sl.start
            targets = rng.integers(0, X + 1, size=(b, k))
            x = np.sort(rng.integers(0, X, size=(b, n)), axis=1)
            h = erm_thresholds_uniform(x, targets, X)
            ok[sl] = np.all(within(np.abs(h - targets), point["alpha"] * X), axis=-1)
        return ok

    def _points(self, point, n, trials, rng):
        cls = make_class("point", point["d"])
        k, m = point["k"], HEAVY
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, cls.domain_size + k * m):
            b = sl.stop - sl.start
            support, probs, targets = heavy_points(cls.domain_size, k, b, rng)
            counts = rng.multinomial(n, probs)
            labels = cls.evaluate(targets[:, None, :], support[:, :, None])  # (b, m, k)
            h = erm_first_consistent_grouped(cls, support, counts, labels)
            err = cls.exact_error(h, targets, support, probs)
            ok[sl] = np.all(within(err, point["alpha"]), axis=-1)
        return ok

    def _parities(self, point, n, trials, rng):
        d, k = point["d"], point["k"]
        cls = make_class("par", d)
        ok = np.empty(trials, dtype=bool)
        for sl in chunks(trials, n * (d + k)):
            b = sl.stop - sl.start
            targets = rng.integers(0, 2 ** d, size=(b, k))
            x = rng.integers(0, 2 ** d, size=(b, n))
            y = cls.evaluate(targets[:, None, :], x[:, :, None])  # (b, n, k)
            h, _, _ = gf2.solve(gf2.bits(x, d), y)
            ok[sl] = np.all(h == targets, axis=-1)  # any other parity errs on half the cube
        return ok


class BnsThm27(BnsCor212):
    """Theorem 2.7 (VC bound, realizable) on its own: consistent ERM with one concept,
    against alpha on THRESH and against d = VC on PAR_d."""

    theorem_id = "bns.thm2_7"
    _alphas = {"smoke": [0.2, 0.05], "quick": [0.4, 0.2, 0.1, 0.05, 0.025, 0.0125],
               "full": [0.4, 0.28, 0.2, 0.14, 0.1, 0.07, 0.05, 0.035, 0.025, 0.0125]}
    _ds = {"smoke": [4, 8], "quick": [2, 4, 6, 8, 10, 12, 14, 16], "full": [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]}

    def grid(self, fidelity, overrides):
        pts = expand({"class": ["thresh"], "d": [10], "k": [1], "alpha": self._alphas[fidelity], "beta": [0.25]},
                     overrides)
        pts += expand({"class": ["par"], "d": self._ds[fidelity], "k": [1], "alpha": [0.1], "beta": [0.25]},
                      overrides)
        return pts
