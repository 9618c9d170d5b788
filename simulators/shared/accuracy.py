"""The one tolerance for "error at most alpha", shared by every simulator of every paper.

Errors are computed exactly, but in floating point: at alpha = 0.35 and 180 rows,
``alpha * rows`` is 62.99999999999999, so an error count of 63 would fail a raw
``<=`` although 63 = alpha * rows exactly. ``within`` allows a relative slack of 1e-9
(and 1e-12 absolute), far below any difference a success check means to draw: error
counts are integers, and exact error probabilities differ by at least 1/|X| or a
distribution's smallest mass.
"""

from __future__ import annotations

import numpy as np

RTOL = 1e-9
ATOL = 1e-12


def within(error, alpha):
    """Elementwise ``error <= alpha`` up to floating-point rounding (see the module)."""
    a = np.asarray(alpha, dtype=float)
    return np.asarray(error) <= a + RTOL * np.abs(a) + ATOL
