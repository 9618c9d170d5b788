"""Nothing lost on failure, and errors that say what they are: a theorem that raises is
recorded as failed with its traceback in a log file while the others complete; the CLI
exits 1 naming it; only bad input is exit 2; an internal error is one line and a log."""

import json

import pytest

import privbounds
from privbounds import cli
from privbounds.api import TheoremsFailed
from privbounds.registry import get

GOOD, BAD = "bns.thm2_16", "siv.thm3_3"


@pytest.fixture
def broken(monkeypatch):
    sim = type(get(BAD).simulator)

    def boom(self, point, n, trials, rng):
        raise RuntimeError("planted failure in run_trials")
    monkeypatch.setattr(sim, "run_trials", boom)


def test_one_failing_theorem_does_not_lose_the_others(tmp_path, broken):
    with pytest.raises(TheoremsFailed) as e:
        privbounds.run([GOOD, BAD], fidelity="smoke", out=tmp_path, progress=False, backend="sequential")
    assert set(e.value.failures) == {BAD} and set(e.value.records) == {GOOD}
    good = json.loads((tmp_path / "results" / f"{GOOD}.json").read_text())
    assert good["status"] == "finished" and good["verdicts"]
    bad = json.loads((tmp_path / "results" / f"{BAD}.json").read_text())
    assert bad["status"] == "failed" and "planted failure" in bad["error"]
    log = tmp_path / "logs" / f"{BAD}.log"
    assert log.is_file() and "Traceback" in log.read_text() and "planted failure" in log.read_text()
    assert not (tmp_path / "results" / f"{BAD}.csv").exists()
    # the report shows it as failed, with its message
    privbounds.plot(out=tmp_path)
    page = (privbounds.report(out=tmp_path).parent / f"{BAD}.html").read_text()
    assert "planted failure" in page and "Failed" in page


def test_the_cli_exits_1_naming_the_failed_theorem(tmp_path, broken, capsys):
    code = cli.main(["run", GOOD, BAD, "--fidelity", "smoke", "--backend", "sequential", "--quiet",
                     "--out", str(tmp_path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1
    assert err == [f"privbounds: error: {BAD} failed: RuntimeError: planted failure in run_trials "
                   f"(traceback in {(tmp_path / 'logs' / (BAD + '.log')).resolve()})"]


def test_an_internal_error_is_exit_1_with_a_log(tmp_path, monkeypatch, capsys):
    privbounds.run([GOOD], fidelity="smoke", out=tmp_path, progress=False)

    def bug(*a, **k):
        raise ValueError("an internal numpy-like error")
    monkeypatch.setattr("privbounds.api.report", bug)
    code = cli.main(["report", "--out", str(tmp_path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(err) == 1
    assert err[0].startswith("privbounds: internal error: ValueError: an internal numpy-like error (traceback in ")
    assert (tmp_path / "logs" / "privbounds-error.log").is_file()


def test_bad_input_is_still_exit_2(tmp_path, capsys):
    assert cli.main(["run", GOOD, "--set", "epsilon=0", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith("privbounds: error: ")


@pytest.mark.parametrize("method", ["privacy", "n_range", "n_floor", "trials_factor"])
def test_a_failing_simulator_method_is_kept_to_its_theorem(tmp_path, monkeypatch, method):
    sim = type(get(BAD).simulator)

    def boom(self, *a, **k):
        raise RuntimeError(f"planted failure in {method}")
    monkeypatch.setattr(sim, method, boom)
    with pytest.raises(TheoremsFailed) as e:
        privbounds.run([GOOD, BAD], fidelity="smoke", out=tmp_path, progress=False, backend="sequential")
    assert set(e.value.failures) == {BAD} and set(e.value.records) == {GOOD}
    assert f"planted failure in {method}" in e.value.failures[BAD][0]
