"""The one tolerance for "error at most alpha" (simulators/shared/accuracy.py)."""

import numpy as np

from privbounds.simulators.shared.accuracy import within


def test_the_rounding_case_from_the_issue():
    alpha, rows = 0.35, 180
    assert alpha * rows == 62.99999999999999  # why a raw comparison is wrong
    assert not 63 <= alpha * rows
    assert within(63, alpha * rows)
    assert not within(64, alpha * rows)


def test_slack_is_far_below_any_real_difference():
    assert within(0.25, 0.25) and within(0.25 + 1e-13, 0.25)
    assert not within(0.25 + 1e-6, 0.25)
    np.testing.assert_array_equal(within(np.array([0.1, 0.2, 0.3]), 0.2), [True, True, False])
