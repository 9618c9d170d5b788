"""Statistics: Clopper-Pearson intervals, n_hat crossings, exponent fits."""

import numpy as np
import pytest
from scipy import stats

from privbounds.simulators.engine.stats import clopper_pearson, crossing, fit_exponent, geometric_grid


def test_clopper_pearson_matches_scipy_binomtest():
    for k, n in [(0, 10), (3, 10), (10, 10), (57, 400), (1, 100000)]:
        lo, hi = clopper_pearson(k, n, 0.95)
        ref = stats.binomtest(k, n).proportion_ci(0.95, method="exact")
        assert lo == pytest.approx(ref.low, abs=1e-12)
        assert hi == pytest.approx(ref.high, abs=1e-12)


def test_clopper_pearson_vectorised():
    lo, hi = clopper_pearson(np.array([0, 5, 10]), np.array([10, 10, 10]))
    assert lo.shape == (3,) and lo[0] == 0 and hi[2] == 1 and lo[1] < 0.5 < hi[1]


def test_geometric_grid_doubles_every_steps_points():
    g = geometric_grid(4, 1024, 4)
    assert g[0] == 4 and g[-1] == 1024 and np.all(np.diff(g) > 0)
    assert g[4] == 8 and g[8] == 16


def test_crossing_on_hand_made_curve():
    grid = [1, 2, 3, 4, 6, 8]
    succ = [0, 10, 60, 95, 100, 100]
    c = crossing(grid, succ, [100] * 6, target=0.9, conf=0.95)
    # n=3 is a clear failure (upper end < 0.9), n=4 reaches 0.9 by its point estimate,
    # n=6 is the first whose lower end passes 0.9.
    assert (c.low, c.n_hat, c.high) == (4, 4, 6)
    assert c.monotone


def test_crossing_beyond_grid_is_open_and_non_monotone_flagged():
    c = crossing([1, 2], [0, 1], [100, 100], target=0.9, conf=0.95)
    assert c.high is None and c.n_hat is None and c.low == 3
    c = crossing([1, 2, 4], [100, 0, 100], [100, 100, 100], 0.9, 0.95)
    assert not c.monotone


def test_fit_exponent_recovers_known_power():
    x = np.array([1, 2, 4, 8, 16, 32.0])
    n = 10 * x ** 0.5
    f = fit_exponent(x, n, n / 1.1, n * 1.1)
    assert f.low < 0.5 < f.high and abs(f.exponent - 0.5) < 1e-9
    noisy = n * np.array([1.05, 0.95, 1.03, 0.97, 1.02, 0.99])
    f = fit_exponent(x, noisy, noisy / 1.2, noisy * 1.2)
    assert f.low < 0.5 < f.high and f.high - f.low < 0.3
    with pytest.raises(ValueError, match="at least 3"):
        fit_exponent(x[:2], n[:2], n[:2], n[:2])
