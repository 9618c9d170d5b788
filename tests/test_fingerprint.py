"""Boneh-Shaw fingerprinting code (Bun-Nissim-Stemmer Lemma 4.5): calibrated soundness
(innocents accused at rate <= xi) and completeness (someone guilty accused at rate
>= 1 - xi) for every pirate strategy, a planted broken tracer that the test catches,
and refusal of bad parameters."""

import numpy as np
import pytest

from privbounds.params import ParameterError
from privbounds.simulators import fingerprint as fp
from privbounds.simulators.stats import clopper_pearson

CONF = 0.999
XI = 0.1


@pytest.mark.parametrize("n", [4, 8, 16])
@pytest.mark.parametrize("strategy", fp.STRATEGIES)
def test_boneh_shaw_soundness_and_completeness(n, strategy):
    rng = np.random.default_rng(100 + n)
    for size in sorted({1, 2, n // 2, n}):
        _, guilty, innocent = fp.accusations(n, size, XI, strategy, 4000, rng)
        assert clopper_pearson(int(innocent.sum()), innocent.size, CONF)[0] <= XI
        assert clopper_pearson(int(guilty.sum()), guilty.size, CONF)[1] >= 1 - XI


def test_length_is_cubic_in_n():
    d = [fp.block_length(n, XI) for n in (4, 8, 16)]
    k = [(n - 1) * dd for n, dd in zip((4, 8, 16), d)]
    assert k[2] == 15 * int(np.ceil(512 * np.log(320)))      # the catalog's ~44,000 columns at n = 16
    assert 7 < k[2] / k[1] < 10                                 # about 2^3, times a log factor


def test_a_broken_tracer_is_caught():
    # planted bug: an off-by-one tracer (accuses user s - 1 where the scan found s). The
    # soundness check must catch it: the user below the coalition's lowest member is
    # innocent.
    n, d, rng = 8, fp.block_length(8, XI), np.random.default_rng(7)
    coalition = fp.random_coalitions(n, 2, 4000, rng)
    w = fp.pirate_block_weights(coalition, d, "random", rng)
    correct = fp.trace(w, d, XI)
    broken = np.where(correct > 1, correct - 1, correct)
    for accused, bad in ((correct, False), (broken, True)):
        idx = np.clip(accused - 1, 0, n - 1)
        innocent = (accused != fp.BOTTOM) & ~coalition[np.arange(len(accused)), idx]
        assert (clopper_pearson(int(innocent.sum()), innocent.size, CONF)[0] > XI) == bad


@pytest.mark.parametrize("kwargs,name", [({"n": 4, "size": 5, "xi": 0.1}, "coalition size"),
                                         ({"n": 4, "size": 2, "xi": 1.0}, "xi"),
                                         ({"n": 1, "size": 1, "xi": 0.1}, "n")])
def test_bad_parameters_are_refused(kwargs, name):
    with pytest.raises(ParameterError, match=name):
        fp.accusations(kwargs["n"], kwargs["size"], kwargs["xi"], "majority", 10, np.random.default_rng(0))


def test_unknown_strategy_is_refused():
    with pytest.raises(ParameterError, match="strategy"):
        fp.pirate_block_weights(np.ones((1, 4), bool), 10, "clever", np.random.default_rng(0))
