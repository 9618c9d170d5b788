"""``privbounds audit`` (privbounds/blackbox.py): a black-box audit finds no violation in
an eps-DP mechanism, with power, catches a planted leak, keeps the pilot apart from the
estimate, and refuses bad input with one line; the command line exits 1 on a leak."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest

from privbounds.blackbox import _choose_event, audit, load, replace_one
from privbounds.params import ParameterError

D = np.zeros(10)
D_PRIME = replace_one(D, 0, 1.0)


def laplace_mean(data, epsilon, rng, size=None):
    """The mean of n values in [0, 1] plus Laplace(1/(eps n)): eps-DP (sensitivity 1/n)."""
    return np.mean(data) + rng.laplace(0, 1 / (epsilon * len(data)), size=size)


def leaky_mean(data, epsilon, rng, size=None):
    """A planted bug: a quarter of the noise, so 4 eps-DP, declared eps."""
    return np.mean(data) + rng.laplace(0, 1 / (4 * epsilon * len(data)), size=size)


def test_an_eps_dp_mechanism_shows_no_violation_with_power_and_a_leak_is_refuted():
    ok = audit(laplace_mean, D, D_PRIME, 1.0, trials=50_000, pilot=10_000)
    assert ok.verdict == "no violation found" and ok.eps_hat <= 1.0 < ok.eps_hat_doubled and ok.powered
    bad = audit(leaky_mean, D, D_PRIME, 1.0, trials=50_000, pilot=10_000)
    assert bad.verdict == "refuted" and bad.eps_hat > 1.0


def test_same_seed_same_audit_and_one_run_at_a_time_works():
    a = audit(laplace_mean, D, D_PRIME, 1.0, trials=2_000, pilot=500, seed=3)
    b = audit(laplace_mean, D, D_PRIME, 1.0, trials=2_000, pilot=500, seed=3)
    assert a == b

    def one_run(data, epsilon, rng):  # no size argument: called once per run
        return laplace_mean(data, epsilon, rng)
    c = audit(one_run, D, D_PRIME, 1.0, trials=500, pilot=200)
    assert c.trials == 500 and c.verdict in ("no violation found", "inconclusive")
    assert audit(laplace_mean, D, D_PRIME, 1.0, trials=500, pilot=200, takes_epsilon=False).powered is None


def test_the_event_is_chosen_on_the_pilot_only():
    """The final counts are fresh: an event picked on a pilot where D and D' look apart by
    chance does not carry that chance into eps_hat (a mechanism that ignores its input
    has eps_hat near 0 or none)."""
    def constant(data, epsilon, rng, size=None):
        return rng.random(size)
    r = audit(constant, D, D_PRIME, 1.0, trials=20_000, pilot=300, takes_epsilon=False)
    assert r.eps_hat is None or r.eps_hat < 0.1
    name, member = _choose_event(np.array([0.0, 0.0, 1.0]), np.array([1.0, 1.0, 1.0]), 0.0)
    assert name in ("s <= 0", "s = 0")


def test_bad_input_is_one_line():
    with pytest.raises(ParameterError, match="^epsilon must be > 0"):
        audit(laplace_mean, D, D_PRIME, 0.0)
    with pytest.raises(ParameterError, match="^trials must be an integer >= 100"):
        audit(laplace_mean, D, D_PRIME, 1.0, trials=10)
    with pytest.raises(ParameterError, match="^index must be a row"):
        replace_one(D, 10, 1.0)
    with pytest.raises(ParameterError, match="MODULE:NAME"):
        load("nocolon")


def test_the_command_line_audits_a_script_and_exits_1_on_a_leak(tmp_path):
    mod = tmp_path / "mine.py"
    mod.write_text(textwrap.dedent("""
        import numpy as np
        def mechanism(data, epsilon, rng, size=None):
            return np.mean(data) + rng.laplace(0, 1 / (epsilon * len(data)), size=size)
        def leaky(data, epsilon, rng, size=None):
            return np.mean(data) + rng.laplace(0, 1 / (4 * epsilon * len(data)), size=size)
        D = np.zeros(10)
        D2 = D.copy(); D2[0] = 1.0
        PAIR = (D, D2)
    """))
    def run(name, epsilon="1"):
        return subprocess.run([sys.executable, "-m", "privbounds", "audit", f"{mod}:{name}", "--neighbours",
                               f"{mod}:PAIR", "--epsilon", epsilon, "--trials", "30000", "--pilot", "5000"],
                              capture_output=True, text=True, timeout=120)
    ok = run("mechanism")
    assert ok.returncode == 0 and ok.stdout.startswith("no violation found on these pairs and events (eps_hat"), \
        ok.stdout + ok.stderr
    bad = run("leaky")
    assert bad.returncode == 1 and bad.stdout.startswith("refuted")
    err = run("mechanism", "0")
    assert err.returncode == 2 and err.stderr.strip() == "privbounds: error: --epsilon must be > 0, got 0.0"


def test_pairs_that_are_not_replace_one_neighbours_and_failing_user_code_are_one_line():
    far = D.copy()
    far[:6] = 1.0
    with pytest.raises(ParameterError, match="differ in 6 rows"):
        audit(laplace_mean, D, far, 1.0, trials=200, pilot=200)
    with pytest.raises(ParameterError, match="same number of rows"):
        audit(laplace_mean, D, D[:9], 1.0, trials=200, pilot=200)

    def broken(data, epsilon, rng, size=None):
        raise ValueError("boom")
    with pytest.raises(ParameterError, match="^mechanism raised ValueError: boom"):
        audit(broken, D, D_PRIME, 1.0, trials=200, pilot=200)

    def words(data, epsilon, rng):
        return "yes"
    with pytest.raises(ParameterError, match="^statistic must map every output to a number"):
        audit(words, D, D_PRIME, 1.0, trials=200, pilot=200)
