"""The public instances of Sivakumar's notes beyond ``thresholds`` and ``points``
(privbounds/instances/siv.py): ``cluster_thresholds``, Theorem 3.4's 4-point cluster on
grids of up to 2^48 points, whose four points keep distinct features there and whose
target p3 is scored exactly."""

from __future__ import annotations

import numpy as np
import pytest

from privbounds.instances import get as family
from privbounds.params import ParameterError


def test_the_cluster_keeps_four_distinct_features_on_the_largest_grid():
    inst = family("cluster_thresholds").make(b=48)
    rng = np.random.default_rng(7)
    draws = inst.draw(40, 5, rng)
    for i in range(5):
        feats = inst.features(draws.support[i])[:, 0]
        assert np.unique(feats).size == 4 and np.all(np.diff(feats) > 0)
        p3 = feats[2]
        assert draws.error(i, lambda F, c=p3: (F[:, 0] >= c).astype(int)) == 0.0
        assert draws.error(i, lambda F: np.zeros(len(F), int)) == pytest.approx(0.5)  # p3 and p4 carry 1
    with pytest.raises(ParameterError, match="b must be"):
        family("cluster_thresholds").make(b=49)
