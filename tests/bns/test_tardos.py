"""Tardos fingerprinting code (Bun-Nissim-Stemmer Proposition 4.9): calibrated soundness
(innocents accused at rate <= xi) and completeness (someone guilty accused at rate
>= 1 - xi) for every pirate strategy, planted broken tracers that the checks catch, the
marking assumption, the score formula against a direct evaluation, determinism, and
refusal of bad parameters."""

import numpy as np
import pytest

from privbounds.params import ParameterError
from privbounds.simulators.bns import tardos as td
from privbounds.simulators.engine.stats import clopper_pearson

CONF = 0.999
XI = 0.1


def _rates_ok(guilty, innocent):
    sound = clopper_pearson(int(innocent.sum()), innocent.size, CONF)[0] <= XI
    complete = clopper_pearson(int(guilty.sum()), guilty.size, CONF)[1] >= 1 - XI
    return sound, complete


@pytest.mark.parametrize("strategy", td.STRATEGIES)
def test_soundness_and_completeness_n4(strategy):
    rng = np.random.default_rng(11)
    for size in (1, 2, 4):
        _, guilty, innocent, feasible = td.accusations(4, size, XI, strategy, 300, rng)
        assert feasible.all()
        assert _rates_ok(guilty, innocent) == (True, True)


@pytest.mark.parametrize("strategy", ["majority", "interleaving"])
def test_soundness_and_completeness_n8(strategy):
    rng = np.random.default_rng(12)
    for size in (2, 8):
        _, guilty, innocent, feasible = td.accusations(8, size, XI, strategy, 120, rng)
        assert feasible.all()
        assert _rates_ok(guilty, innocent) == (True, True)


def test_lengths_and_threshold():
    assert td.code_length(8, XI) == 32_000          # the catalog's 100 * 64 * ceil(ln 80)
    assert td.code_length(4, XI) == 6_400
    assert td.threshold(8, XI) == 20 * 8 * 5


def test_biases_lie_in_the_cutoff_interval():
    p, cb = td.generate(5, 4000, 3, np.random.default_rng(0))
    t = 1 / 1500
    assert p.shape == (3, 4000) and cb.shape == (3, 5, 4000) and cb.dtype == bool
    assert p.min() >= t - 1e-12 and p.max() <= 1 - t + 1e-12
    # arcsine-like density: symmetric about 1/2 and heavy near the ends
    assert abs(p.mean() - 0.5) < 0.02 and (p < 0.1).mean() > 0.15
    # C_ij ~ Bernoulli(p_j): the column frequency tracks p
    assert abs(cb.mean() - p.mean()) < 0.01


def test_scores_match_the_definition():
    rng = np.random.default_rng(3)
    p, cb = td.generate(3, 50, 2, rng)
    word = rng.random((2, 50)) < 0.5
    U = np.where(cb, np.sqrt((1 - p) / p)[:, None, :], -np.sqrt(p / (1 - p))[:, None, :])
    direct = (U * word[:, None, :]).sum(axis=2)
    np.testing.assert_allclose(td.scores(cb, p, word), direct, rtol=1e-10, atol=1e-9)


def test_innocent_scores_are_centred():
    # E[U_ij] = 0 for a user whose row the pirate never saw: the reason soundness holds
    n, k, rng = 4, 6400, np.random.default_rng(5)
    p, cb = td.generate(n, k, 200, rng)
    coalition = np.zeros((200, n), bool)
    coalition[:, 0] = True
    s = td.scores(cb, p, td.pirate(cb, coalition, "majority", rng))
    innocent = s[:, 1:].ravel()
    assert abs(innocent.mean()) < 4 * innocent.std() / np.sqrt(innocent.size)
    assert s[:, 0].mean() > td.threshold(n, XI)


@pytest.mark.parametrize("strategy", td.STRATEGIES)
def test_pirates_respect_the_marking_assumption(strategy):
    rng = np.random.default_rng(8)
    p, cb = td.generate(6, 500, 20, rng)
    coalition = np.argsort(rng.random((20, 6)), axis=1) < 3
    word = td.pirate(cb, coalition, strategy, rng)
    assert word.shape == (20, 500) and word.dtype == bool
    assert td.feasible(cb, coalition, word).all()
    bad = word.copy()
    members = coalition[:, :, None]
    marked1 = (cb | ~members).all(axis=1)
    bad[marked1] = False                                # flipping a 1-marked column is infeasible
    assert not td.feasible(cb, coalition, bad)[marked1.any(axis=1)].any()


def test_strategies_on_a_fixed_codebook():
    cb = np.array([[[1, 1, 0, 0, 1, 0], [1, 0, 1, 0, 1, 1], [0, 0, 1, 1, 1, 0]]], bool)
    rng = np.random.default_rng(0)
    every = np.ones((1, 3), bool)
    assert td.pirate(cb, every, "majority", rng).tolist() == [[1, 0, 1, 0, 1, 0]]
    assert td.pirate(cb, every, "minority", rng).tolist() == [[0, 1, 0, 1, 1, 1]]
    assert td.pirate(cb, every, "ones", rng).tolist() == [[1, 1, 1, 1, 1, 1]]
    assert td.pirate(cb, every, "zeros", rng).tolist() == [[0, 0, 0, 0, 1, 0]]
    # interleaving: positions 0-1 from user 1, 2-3 from user 2, 4-5 from user 3
    assert td.pirate(cb, every, "interleaving", rng).tolist() == [[1, 1, 1, 0, 1, 0]]
    pair = np.array([[False, True, True]])
    assert td.pirate(cb, pair, "interleaving", rng).tolist() == [[1, 0, 1, 1, 1, 0]]


def test_random_pirate_copies_a_random_member():
    cb = np.zeros((1, 3, 30000), bool)
    cb[0, 0] = True                                     # 1 of 3 members holds 1 everywhere
    word = td.pirate(cb, np.ones((1, 3), bool), "random", np.random.default_rng(1))
    assert abs(word.mean() - 1 / 3) < 0.015


def test_broken_tracers_are_caught():
    # Planted bugs, each caught by the calibrated check that should catch it:
    # (a) off-by-one user index => innocents accused (soundness);
    # (b) scores summed over the columns with c'_j = 0 instead of 1 => the guilty score
    #     collapses and nobody is accused (completeness).
    n, rng = 4, np.random.default_rng(21)
    k = td.code_length(n, XI)
    p, cb = td.generate(n, k, 300, rng)
    coalition = np.zeros((300, n), bool)
    coalition[np.arange(300), rng.integers(0, n, 300)] = True
    word = td.pirate(cb, coalition, "majority", rng)

    def rates(accused):
        member = coalition[np.arange(300), np.clip(accused - 1, 0, n - 1)]
        hit = accused != td.BOTTOM
        return _rates_ok(hit & member, hit & ~member)

    correct = td.trace(cb, p, word, XI)
    off_by_one = np.where(correct == td.BOTTOM, correct, correct % n + 1)
    complement = td.trace(cb, p, ~word, XI)
    assert rates(correct) == (True, True)
    assert not rates(off_by_one)[0]
    assert not rates(complement)[1]


def test_same_seed_same_numbers_and_chunking_is_invisible(monkeypatch):
    a = td.accusations(4, 2, XI, "random", 30, np.random.default_rng(9))
    b = td.accusations(4, 2, XI, "random", 30, np.random.default_rng(9))
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    p1, c1 = td.generate(4, 700, 9, np.random.default_rng(4))
    monkeypatch.setattr(td, "_CHUNK_BYTES", 8 * 4 * 700 * 2)     # two trials per chunk
    p2, c2 = td.generate(4, 700, 9, np.random.default_rng(4))
    np.testing.assert_array_equal(p1, p2)
    np.testing.assert_array_equal(c1, c2)
    word = td.pirate(c1, np.ones((9, 4), bool), "ones", np.random.default_rng(0))
    monkeypatch.setattr(td, "_CHUNK_BYTES", 1e9)
    np.testing.assert_array_equal(td.pirate(c1, np.ones((9, 4), bool), "ones", np.random.default_rng(0)), word)


@pytest.mark.parametrize("call,name", [
    (lambda: td.code_length(1, XI), "n"),
    (lambda: td.code_length(4, 1.0), "xi"),
    (lambda: td.threshold(4, 0.0), "xi"),
    (lambda: td.generate(4, 0, 1, np.random.default_rng(0)), "k"),
    (lambda: td.generate(1, 10, 1, np.random.default_rng(0)), "n"),
    (lambda: td.pirate(np.zeros((1, 4, 5), bool), np.ones((1, 5), bool), "majority",
                       np.random.default_rng(0)), "coalition is larger"),
    (lambda: td.pirate(np.zeros((1, 4, 5), bool), np.zeros((1, 4), bool), "majority",
                       np.random.default_rng(0)), "empty coalition"),
    (lambda: td.pirate(np.zeros((1, 4, 5), bool), np.ones((1, 4), bool), "clever",
                       np.random.default_rng(0)), "strategy"),
    (lambda: td.trace(np.zeros((1, 4, 5), bool), np.full((1, 5), 0.5), np.ones((1, 5), bool), 1.5), "xi"),
    (lambda: td.accusations(4, 5, XI, "majority", 2, np.random.default_rng(0)), "coalition size"),
])
def test_bad_parameters_are_refused(call, name):
    with pytest.raises(ParameterError, match=name) as err:
        call()
    assert "\n" not in str(err.value)


# --- the registered entry bns.prop4_9 (simulators/bns/codes.py) -----------------------------

def _claim_verdicts(thm, points, trials, rng):
    """Evaluate the theorem's claims on curve rows produced directly by its simulator."""
    rows = []
    for p in points:
        for n in thm.simulator.curve(p):
            s = int(thm.simulator.run_trials(p, n, trials, rng).sum())
            rows.append({**p, "n": n, "trials": trials, "successes": s, "p_hat": s / trials,
                         "experiment": "curve"})
    return {c.id: c.evaluate([], rows)["verdict"] for c in thm.claims}


def test_prop4_9_entry_confirms_and_catches_a_broken_tracer(monkeypatch):
    from privbounds import registry

    thm = registry.get("bns.prop4_9")
    assert [c.id for c in thm.claims] == ["ceiling-completeness", "ceiling-soundness", "ceiling-soundness-truncated"]
    assert "k = 32000" in thm.notes and "k = 6400" in thm.notes
    points = [p for p in thm.simulator.points("smoke") if p["strategy"] == "majority"]
    good = _claim_verdicts(thm, points, 150, np.random.default_rng(0))
    assert set(good.values()) == {"confirmed"}
    # planted bug: the tracer accuses the next user (off by one) -> soundness refuted
    correct = td.trace
    monkeypatch.setattr(td, "trace", lambda *a: np.where((r := correct(*a)) == td.BOTTOM, r, r % a[0].shape[1] + 1))
    bad = _claim_verdicts(thm, points, 150, np.random.default_rng(0))
    assert bad["ceiling-soundness"] == "refuted"


def test_prop4_9_curves_and_events():
    from privbounds.simulators.bns.codes import BnsProp49

    sim = BnsProp49()
    for fid in ("smoke", "quick", "full"):
        pts = sim.points(fid)
        assert all(sim.privacy(p)["epsilon"] is None for p in pts)
    quick = sim.points("quick")
    assert {p["users"] for p in quick} == {4, 8}
    assert {p["strategy"] for p in quick if p["part"] == "code"} == set(td.STRATEGIES)
    code = {"users": 8, "xi": 0.1, "strategy": "zeros", "event": "soundness", "part": "code"}
    assert sim.curve(code) == [1, 2, 4, 8]
    length = {**code, "event": "traced", "part": "length"}
    ks = sim.curve(length)
    assert ks[-1] == 32_000 and ks[0] == 4_000
    # traced at 1/8 of the length almost never, at the full length almost always
    rng = np.random.default_rng(3)
    small = {**length, "users": 4}
    k4 = sim.curve(small)
    assert sim.run_trials(small, k4[0], 60, rng).mean() < 0.1
    assert sim.run_trials(small, k4[-1], 60, rng).mean() > 0.9
    # overrides select families: "traced" exists on the length curve only
    assert {p["part"] for p in sim.points("quick", {"event": ["traced"]})} == {"length"}
    assert {p["event"] for p in sim.points("quick", {"part": ["code"]})} == {"completeness", "soundness"}
    with pytest.raises(ParameterError, match="traced"):
        sim.points("quick", {"event": ["traced"], "part": ["code"]})


def test_prop4_9_same_seed_same_numbers():
    from privbounds.simulators.bns.codes import BnsProp49

    sim = BnsProp49()
    p = {"users": 4, "xi": 0.1, "strategy": "random", "event": "traced", "part": "length"}
    k = sim.curve(p)[3]
    a = sim.run_trials(p, k, 40, np.random.default_rng(1))
    b = sim.run_trials(p, k, 40, np.random.default_rng(1))
    np.testing.assert_array_equal(a, b)
    assert 0 < a.mean() < 1                         # at half length the outcome is genuinely random


def test_lengths_agree_with_the_bounds_module():
    from privbounds.bounds import bns as bns_bounds

    if not hasattr(bns_bounds, "tardos_code_length"):
        pytest.skip("bounds.bns has no tardos_code_length")
    for n in (2, 4, 8, 16):
        assert td.code_length(n, XI) == int(bns_bounds.tardos_code_length(n, XI))
