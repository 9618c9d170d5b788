"""The command line: listing, every bad input (one line, non-zero exit, nothing lost)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import privbounds
from privbounds.cli import main
from privbounds.registry import get


def test_list_json_has_every_theorem(capsys, run_cli):
    code, out, _ = run_cli(["list", "--json"], capsys)
    assert code == 0
    rows = json.loads(out)
    assert [r["id"] for r in rows] == [t.id for t in privbounds.theorems()]
    for r in rows:
        assert r["paper"] and r["number"] and (r["claims"] or r["status"] != "simulated")
        assert all({"id", "kind", "description"} <= set(c) for c in r["claims"])
    assert {r["id"]: r["status"] for r in rows}["bns.thm1_1"] == "summary"
    # each runnable theorem's parameters, with what they allow and their registered grids
    for r in rows:
        thm = privbounds.get(r["id"])
        assert [p["name"] for p in r["parameters"]] == (list(thm.simulator.params) if thm.runnable else [])
    obs = next(r for r in rows if r["id"] == "bns.obs3_2")
    k = next(p for p in obs["parameters"] if p["name"] == "k")
    assert k["allowed"].startswith("an integer") and k["grid"]["quick"] == sorted(
        {p["k"] for p in privbounds.get("bns.obs3_2").simulator.points("quick")})


def test_list_shows_last_verdicts(smoke_out, capsys, run_cli):
    code, out, _ = run_cli(["list", "--out", str(smoke_out)], capsys)
    assert code == 0 and "confirmed" in out and "not run" not in out


def snapshot(folder: Path) -> dict:
    """Every file under ``folder`` (relative path -> bytes). os.walk and open rather than
    Path.rglob, Path.is_file and Path.read_bytes: the same contents, read several times
    faster (the session's folder holds some 15,000 files, read once per bad input)."""
    files = {}
    for root, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                files[os.path.relpath(path, folder)] = f.read()
    return files


BAD = [
    (["run", "no.such_theorem"], "theorem id"),
    (["run", "--fidelity", "ultra"], "--fidelity"),
    (["run", "--jobs", "0"], "--jobs"),
    (["run", "--jobs", "two"], "--jobs"),
    (["run", "--seed", "-1"], "--seed"),
    (["run", "--seed", "1.5"], "--seed"),
    (["run", "--backend", "spark"], "--backend"),
    (["run", "--scheduler", "tcp://x:1"], "--scheduler"),
    (["run", "siv.thm3_3", "--set", "epsilon=0"], "epsilon"),
    (["run", "siv.thm3_3", "--set", "epsilon=-1"], "epsilon"),
    (["run", "siv.thm3_3", "--set", "alpha=1.5"], "alpha"),
    (["run", "siv.thm3_3", "--set", "beta=0"], "beta"),
    (["run", "bns.obs3_2", "--set", "k=0"], "k"),
    (["run", "bns.obs3_2", "--set", "delta=1"], "delta"),
    (["run", "siv.thm3_3", "--set", "colour=red"], "colour"),
    (["run", "siv.thm3_3", "--set", "epsilon"], "--set"),
    (["figures", "no.such_theorem"], "theorem id"),
    (["frobnicate"], "COMMAND"),
    (["run", "bns.thm5_1", "--set", "curve_k=16"], "curve_k"),
    # issue 30: values that passed the checks and then crashed a theorem or filled the memory
    (["run", "bns.obs3_2", "--set", "k=" + "9" * 400], "k must be an integer in [1, 4096], got 99999999999999999999...(400"),
    (["run", "bns.obs3_2", "--set", "epsilon=" + "9" * 400], "epsilon must be"),
    (["run", "bns.obs3_2", "--set", "epsilon=5e-324"], "epsilon must be a number in [0.001, 64]"),
    (["run", "bns.obs3_2", "--set", "epsilon=1e-300"], "epsilon"),
    (["run", "bns.obs3_2", "--set", "epsilon=1e300"], "epsilon"),
    (["run", "pap.thm3_1", "--set", "m=2147483648"], "m must be an integer in [0, 131072]"),
    (["run", "kmms.thm4_7", "--set", "k=100000"], "k must be an integer in [3, 64]"),
]


_BEFORE: dict = {}  # the folder's bytes before the first bad input (each case must leave it so)


@pytest.mark.parametrize("argv, needle", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_one_line_nonzero_nothing_lost(argv, needle, smoke_out, capsys, run_cli):
    # read once: every case compares with it, so a case that wrote anything fails (and so,
    # as they follow it, do the later ones: the folder is no longer what it was)
    if smoke_out not in _BEFORE:
        _BEFORE[smoke_out] = snapshot(smoke_out)
    before = _BEFORE[smoke_out]
    code, out, err = run_cli(argv + ["--out", str(smoke_out)] if argv[0] != "frobnicate" else argv, capsys)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("privbounds: error:"), err
    assert needle in lines[0]
    assert "Traceback" not in err
    assert snapshot(smoke_out) == before


def test_empty_out_is_refused(capsys, run_cli):
    code, _, err = run_cli(["run", "--fidelity", "smoke", "--out", ""], capsys)
    assert code == 2 and "--out" in err


def test_override_that_reaches_only_some_theorems_is_noted(tmp_path, capsys, run_cli):
    code, _, err = run_cli(["run", "siv.thm3_3", "bns.thm5_1", "--fidelity", "smoke", "--set", "k=2",
                            "--out", str(tmp_path), "--quiet"], capsys)
    assert code == 0 and "does not apply to siv.thm3_3" in err


def test_unwritable_out(tmp_path, capsys, run_cli):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    code, _, err = run_cli(["run", "--fidelity", "smoke", "--out", str(blocker / "sub")], capsys)
    assert code == 2 and "--out" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("command", [["report"], ["check"], ["figures"]])
def test_commands_on_a_folder_without_results(tmp_path, command, capsys, run_cli):
    code, _, err = run_cli(command + ["--out", str(tmp_path)], capsys)
    assert code == 2 and "no results" in err and len(err.strip().splitlines()) == 1


def test_real_process_exit_code_and_no_traceback(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "privbounds.cli", "run", "--jobs", "0",
                           "--out", str(tmp_path)], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "privbounds: error: argument --jobs: must be an integer >= 1, got '0'"


def test_help_texts(capsys, run_cli):
    for argv in (["--help"], ["run", "--help"], ["check", "--help"]):
        code, out, _ = run_cli(argv, capsys)
        assert code == 0 and "usage: privbounds" in out
    assert "reproduce" in run_cli(["--help"], capsys)[1]


def test_run_overrides_reach_the_grid(tmp_path, capsys, run_cli):
    code, out, err = run_cli(["run", "bns.thm5_1", "--fidelity", "smoke", "--set", "k=2,3",
                              "--out", str(tmp_path), "--quiet"], capsys)
    assert code == 0, err
    rec = json.loads((tmp_path / "results" / "bns.thm5_1.json").read_text())
    assert {p["point"]["k"] for p in rec["points"] if p["point"]["experiment"] == "search"} == {2, 3}
    assert rec["overrides"] == {"k": [2, 3]}
    # results of a custom grid are not compared with the baseline
    code, _, err = run_cli(["check", "--out", str(tmp_path)], capsys)
    assert code == 2 and "--set k=2,3" in err


def test_a_value_set_twice_runs_once_with_a_note(tmp_path, capsys, run_cli):
    code, _, err = run_cli(["run", "bns.obs3_2", "--fidelity", "smoke", "--set", "k=4,4,4.0",
                            "--out", str(tmp_path / "cli"), "--quiet"], capsys)
    assert code == 0, err
    assert "note: --set k names 1 distinct value of 3; each runs once" in err
    once = json.loads((tmp_path / "cli" / "results" / "bns.obs3_2.json").read_text())
    keys = [json.dumps(p["point"], sort_keys=True) for p in once["points"]]
    assert len(keys) == len(set(keys)) and {p["point"]["k"] for p in once["points"]} == {4}
    # the Python API: 4 and 4.0 are one point there too
    sim = get("bns.obs3_2").simulator
    assert sim.points("smoke", {"k": [4, 4.0]}) == sim.points("smoke", {"k": [4]})


def test_bad_ids_and_out_are_one_line_errors_from_python_and_the_command_line(tmp_path, capsys, run_cli):
    import privbounds
    from privbounds.params import ParameterError

    for kw, needle in [({"ids": 5}, "ids must be a theorem id, a pattern, or a list of them, got 5"),
                       ({"ids": ["siv.thm3_3", 3]}, "got ['siv.thm3_3', 3]"),
                       ({"out": tmp_path / "a\0b"}, "with a NUL byte"),
                       ({"out": 7}, "must be a folder's name, got 7"),
                       ({"out": tmp_path / ("x" * 300)}, "a path component of 300 bytes")]:
        with pytest.raises(ParameterError) as e:
            privbounds.run(**{"ids": ["siv.thm3_3"], "fidelity": "smoke", "progress": False, **kw})
        assert needle in str(e.value) and "\n" not in str(e.value)
    for command in (["run", "siv.thm3_3", "--fidelity", "smoke"], ["list"], ["report"]):
        code, _, err = run_cli([*command, "--out", str(tmp_path / ("y" * 256))], capsys)
        assert code == 2 and err.count("\n") == 1 and "a path component of 256 bytes" in err, err


# --- the command line as a new user meets it ----------------------------------------------------

def test_version_and_a_bare_command(capsys, run_cli):
    from importlib import metadata

    code, out, _ = run_cli(["--version"], capsys)
    assert code == 0 and out.strip() == f"privbounds {metadata.version('privbounds')}"
    code, out, err = run_cli([], capsys)
    assert code == 0 and out.startswith("usage: privbounds") and "reproduce" in out and not err


def test_every_argument_has_help_and_reproduce_offers_no_refused_option():
    from privbounds.cli import build_parser

    parser = build_parser()
    subs = next(a for a in parser._actions if a.dest == "command").choices
    for name, sp in subs.items():
        for action in sp._actions:
            assert action.help, f"{name} {action.option_strings or action.dest} has no help text"
    assert "--set" in subs["run"].format_help() and "--set" not in subs["reproduce"].format_help()


def test_reproduce_at_smoke_says_it_skips_the_check_and_ends_with_a_summary(tmp_path, capsys, run_cli):
    code, out, err = run_cli(["reproduce", "kmms.thm2_4", "--fidelity", "smoke", "--quiet",
                              "--out", str(tmp_path)], capsys)
    assert code == 0
    assert err.startswith("privbounds: smoke fidelity has no committed baseline")
    lines = out.strip().splitlines()
    assert "check skipped: smoke fidelity has no baseline" in lines
    assert lines[-3].startswith("verdicts of 1 theorems, 3 claims: ")
    assert lines[-2] == f"report: {(tmp_path / 'report' / 'index.html').resolve()}"
    assert lines[-1].startswith("reproduce finished in ") and lines[-1].endswith(" s")


def test_check_update_never_writes_a_smoke_baseline(smoke_out, tmp_path, capsys, run_cli):
    import shutil

    from privbounds.reports.check import BASELINE_DIR

    out = tmp_path / "out"
    shutil.copytree(smoke_out / "results", out / "results")
    before = sorted(BASELINE_DIR.rglob("*.json"))
    code, _, err = run_cli(["check", "--update", "--out", str(out)], capsys)
    assert code == 2 and "smoke results have no committed baseline" in err
    assert sorted(BASELINE_DIR.rglob("*.json")) == before and not list(BASELINE_DIR.rglob("smoke.json"))


def test_the_python_api_names_its_arguments_and_takes_numpy_overrides(tmp_path):
    import numpy as np

    from privbounds.params import ParameterError

    for kw, message in ((dict(jobs=0), "^jobs must be"), (dict(fidelity="fast"), "^fidelity must be"),
                        (dict(overrides={"k": 4}), r"^overrides\['k'\] must be a list of values"),
                        (dict(overrides={"nope": [1]}), "^overrides key nope is not a parameter"),
                        (dict(out=""), "^out must name a folder")):
        kw = {"fidelity": "smoke", "out": tmp_path, **kw}
        with pytest.raises(ParameterError, match=message):
            privbounds.run("bns.obs3_2", progress=False, **kw)
    rec = privbounds.run("bns.obs3_2", fidelity="smoke", out=tmp_path, progress=False,
                         overrides={"k": np.array([1, 4])})["bns.obs3_2"]
    assert rec.overrides == {"k": [1, 4]} and all(type(v) is int for v in rec.overrides["k"])
    rec = privbounds.run("bns.obs3_2", fidelity="smoke", out=tmp_path, progress=False,
                         overrides={"k": [np.int64(4)]})["bns.obs3_2"]
    assert rec.overrides == {"k": [4]}
    # and the same mistakes on the command line name the flags
    assert main(["run", "bns.obs3_2", "--set", "nope=1", "--fidelity", "smoke", "--out", str(tmp_path)]) == 2


def test_a_point_whose_blocks_would_not_fit_in_memory_is_refused_before_any_block(tmp_path, monkeypatch, capsys, run_cli):
    """Simulator.memory's estimate of the largest block, times the blocks at once, against the
    machine's memory (8 GiB here, whatever this machine has): one line, exit 2, nothing run."""
    from privbounds import arguments

    monkeypatch.setattr(arguments, "machine_memory", lambda: 8 << 30)
    out = tmp_path / "o"
    code, _, err = run_cli(["run", "wlf.ex24", "--set", "c=1000000", "--out", str(out)], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "wlf.ex24 at " in err and "c=1000000.0" in err and "more than this machine's 8.0 GiB" in err
    assert not (out / "results").exists() and not (out / "blocks.sqlite").exists()
    # two blocks at once need twice the memory of one: kmms.thm5_1 at d = 160 (about 4.3 GiB a block)
    code, _, err = run_cli(["run", "kmms.thm5_1", "--set", "d=160", "--jobs", "2", "--force-jobs", "--fidelity",
                            "smoke", "--out", str(out)], capsys)
    assert code == 2 and "2 at once do not fit" in err and "--jobs" in err, err


def test_numpy_warnings_are_the_runs_own_notes(tmp_path, monkeypatch, capsys, run_cli):
    import numpy as np

    cls = type(get("siv.thm3_3").simulator)
    original = cls.run_trials

    def loud(self, point, n, trials, rng):
        np.log(np.zeros(2))  # divide by zero: what an accepted edge value may make numpy say
        return original(self, point, n, trials, rng)

    monkeypatch.setattr(cls, "run_trials", loud)
    out = tmp_path / "o"
    code, _, err = run_cli(["run", "siv.thm3_3", "--fidelity", "smoke", "--backend", "sequential", "--quiet",
                            "--no-cache", "--out", str(out)], capsys)
    assert code == 0, err
    notes = [line for line in err.splitlines() if "Warning" in line]
    assert len(notes) == 1 and notes[0].startswith("privbounds: note: siv.thm3_3: ") and \
        "blocks warned RuntimeWarning: divide by zero encountered in log (" in notes[0], err
    record = json.loads((out / "results" / "siv.thm3_3.json").read_text())
    assert 0 < list(record["engine"]["notes"].values())[0] <= record["engine"]["blocks_run"]  # audit blocks: quiet
