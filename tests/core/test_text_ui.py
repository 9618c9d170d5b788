"""The text interfaces (issue 32, item 4): the list's table, JSON whose numbers are numbers,
``show`` with patterns and suggestions, the note on a folder without results, and a --set
run that would replace registered results. Single theorems at smoke fidelity: seconds."""

import json
import textwrap

import pytest

import privbounds
from privbounds.params import Interval, ParameterError, number_text
from privbounds.registry import select


def strict_json(text: str):
    """``text`` parsed as JSON proper: NaN and Infinity are not JSON numbers."""
    def refuse(name):
        raise AssertionError(f"{name} is not JSON")
    return json.loads(text, parse_constant=refuse)


def is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


@pytest.fixture(scope="module")
def one_run(tmp_path_factory):
    """siv.thm3_3 at smoke fidelity (registered grid) in a folder of its own."""
    out = tmp_path_factory.mktemp("text-ui") / "out"
    privbounds.run("siv.thm3_3", fidelity="smoke", out=out, progress=False)
    return out


# --- 1. the list: a table that wraps long claim ids, integral numbers exactly -----------------

def _table_rows(out: str) -> list[str]:
    """The lines of the claims' table (between a theorem's heading and its --set lines)."""
    return [line for line in out.splitlines() if line.startswith("    ") and not line.startswith("    --set")
            and not line.startswith("     ")]


def test_list_wraps_long_claim_ids_inside_their_column(tmp_path, monkeypatch, capsys, run_cli):
    monkeypatch.setenv("COLUMNS", "50")  # shutil.get_terminal_size reads it first
    code, out, _ = run_cli(["list", "bns.thm2_24", "bns.thm5_1", "--out", str(tmp_path)], capsys)
    assert code == 0
    lines = out.splitlines()
    assert all(len(line) <= 50 for line in lines), [line for line in lines if len(line) > 50]
    # the long id is cut at a hyphen, its rest on the next line inside the claim column,
    # and the kind column starts at the same place on every row of both theorems
    first = next(i for i, line in enumerate(lines) if line.strip().startswith("privacy-alg5-adist-"))
    assert lines[first + 1].strip() == "same-top" and lines[first + 1].startswith("    same-top")
    kinds = {line.index(kind) for line in lines for kind in ("upper bound", "privacy audit", "scaling  ")
             if kind in line and not line.startswith("    --set")}
    assert len(kinds) == 1, kinds
    assert "privacy-alg5-adist-same-top" not in out
    # in a terminal wide enough, no id is cut
    monkeypatch.setenv("COLUMNS", "120")
    code, wide, _ = run_cli(["list", "bns.thm2_24", "--out", str(tmp_path)], capsys)
    assert "    privacy-alg5-adist-same-top  " in wide


def test_list_prints_integral_numbers_exactly():
    assert Interval("n", 1 << 20, None, "both", integer=True).describe() == "an integer >= 1048576"  # was 1.04858e+06
    assert Interval("c", 1, 1e6, "both").describe() == "a number in [1, 1000000]"  # was 1e+06
    assert [number_text(x) for x in (1048576.0, 2**60, 0.125, 1e-6, True, "par")] == \
        ["1048576", "1152921504606846976", "0.125", "1e-06", "True", "par"]
    assert number_text(1e300) == "1e+300"  # beyond 2^53 a float is not an exact integer anyway


def test_the_list_shows_a_range_with_an_integral_end_exactly(tmp_path, capsys, run_cli):
    code, out, _ = run_cli(["list", "wlf.ex24", "--out", str(tmp_path)], capsys)
    assert code == 0 and "--set c=...  a number in [1, 1000000]; quick grid: 1, 10, 100, 1000" in out
    assert "e+06" not in out


# --- 2. --json: numbers are numbers ---------------------------------------------------------

def test_list_json_gives_each_parameters_limits_as_numbers(capsys, run_cli):
    code, out, _ = run_cli(["list", "wlf.ex24", "bns.obs3_2", "--json", "--out", "/nonexistent"], capsys)
    assert code == 0
    params = {(r["id"], p["name"]): p for r in strict_json(out) for p in r["parameters"]}
    c = params["wlf.ex24", "c"]
    assert c["allowed"] == "a number in [1, 1000000]"  # the words stay, beside the numbers
    assert c["limits"] == {"integer": False, "low": 1, "high": 1e6, "low_closed": True, "high_closed": True,
                           "zero_allowed": False}
    k = params["bns.obs3_2", "k"]["limits"]
    assert k["integer"] is True and type(k["low"]) is int and type(k["high"]) is int
    assert params["wlf.ex24", "learner"]["limits"] == {"choices": ["alg1", "net"]}
    # every theorem's every interval: numbers or null (an unbounded end), never text
    code, out, _ = run_cli(["list", "--json", "--out", "/nonexistent"], capsys)
    for r in strict_json(out):
        for p in r["parameters"]:
            lim = p["limits"]
            assert "choices" in lim or (all(x is None or is_number(x) for x in (lim["low"], lim["high"]))), p


def test_list_instances_json_gives_limits_as_numbers(capsys, run_cli):
    code, out, _ = run_cli(["list", "--instances", "--json"], capsys)
    assert code == 0
    rows = {r["name"]: r for r in strict_json(out)}
    lim = rows["thresholds"]["limits"]["d"]
    assert (lim["low"], lim["high"], lim["integer"]) == (2, 20, True)
    assert all(is_number(v) for r in rows.values() for v in r["defaults"].values())


def test_findings_json_carries_its_numbers_as_numbers(smoke_out, capsys, run_cli):
    code, out, _ = run_cli(["findings", "--json", "--out", str(smoke_out)], capsys)
    assert code == 0
    found = strict_json(out)
    assert found and all(isinstance(f["text"], str) and isinstance(f["numbers"], dict) for f in found)
    for f in found:  # a parameter of the deciding point may be a word; a statistic is one
        values = [v for k, v in f["numbers"].items() if k not in ("point", "statistic")]
        assert all(v is None or is_number(v) or isinstance(v, bool) for v in values), f
    by_kind = {}
    for f in found:
        if f["numbers"] and f["category"] != "loose":
            by_kind.setdefault(f["kind"], f["numbers"])
    bound = by_kind.get("upper bound") or by_kind["lower bound"]
    assert is_number(bound["n_hat"]) and is_number(bound["bound"]) and type(bound["trials"]) is int
    assert isinstance(bound["point"], dict)
    assert all(is_number(by_kind["scaling"][k]) for k in ("exponent", "exponent_low", "exponent_high"))
    loose = next(f["numbers"] for f in found if f["category"] == "loose")
    assert is_number(loose["slack_least"]) and type(loose["points"]) is int
    # the numbers in the text are these numbers, rounded
    f = next(f for f in found if f["kind"] == "scaling" and f["numbers"])
    assert f"{f['numbers']['exponent']:.3f}" in f["text"]


def test_plan_and_audit_json_are_numbers(tmp_path, capsys, run_cli):
    code, out, _ = run_cli(["plan", "siv.thm3_3", "--fidelity", "smoke", "--json", "--out", str(tmp_path)], capsys)
    assert code == 0
    plan = strict_json(out)
    assert type(plan["workers"]) is int and all(is_number(e["seconds"]) for e in plan["papers"])
    mod = tmp_path / "mech.py"
    mod.write_text(textwrap.dedent("""
        import numpy as np
        def mechanism(data, epsilon, rng, size=None):
            return np.mean(data) + rng.laplace(0, 1 / (epsilon * len(data)), size=size)
        D = np.zeros(10)
        D2 = D.copy(); D2[0] = 1.0
        PAIR = (D, D2)
    """))
    code, out, err = run_cli(["audit", f"{mod}:mechanism", "--neighbours", f"{mod}:PAIR", "--epsilon", "1",
                              "--trials", "2000", "--pilot", "500", "--json"], capsys)
    assert code == 0, err
    res = strict_json(out)
    assert is_number(res["epsilon"]) and type(res["trials"]) is int and all(type(h) is int for h in res["hits"])
    assert res["eps_hat"] is None or is_number(res["eps_hat"])


# --- 3. show: patterns, and a suggestion for a mistyped id ---------------------------------

def test_show_takes_patterns_like_run(tmp_path, capsys, run_cli):
    code, out, _ = run_cli(["show", "siv.thm3_*", "--out", str(tmp_path)], capsys)
    assert code == 0
    shown = [line.split()[0] for line in out.splitlines() if line.startswith("siv.") and "  " in line[:14]]
    assert shown == select(["siv.thm3_*"]) and len(shown) > 1
    assert out.count("\nstatement: ") + out.startswith("statement: ") == len(shown)
    code, out, _ = run_cli(["show", "siv.thm3_3", "bns.obs3_2", "--out", str(tmp_path)], capsys)
    # in the registry's order, as run takes them, a blank line between two
    assert code == 0 and out.startswith("bns.obs3_2  ") and "\n\nsiv.thm3_3  " in out


def test_show_of_an_unknown_id_suggests_the_nearest(tmp_path, capsys, run_cli):
    code, out, err = run_cli(["show", "siv.thm33", "--out", str(tmp_path)], capsys)
    assert code == 2 and not out and err.count("\n") == 1
    assert err.startswith("privbounds: error: unknown theorem id 'siv.thm33' (did you mean siv.thm3_3")
    code, _, err = run_cli(["show", "zzz.*", "--out", str(tmp_path)], capsys)
    assert code == 2 and "no theorem id matches 'zzz.*'" in err and "did you mean" not in err
    # the same matcher as run's: the same words there
    code, _, err = run_cli(["run", "siv.thm33", "--out", str(tmp_path)], capsys)
    assert code == 2 and "(did you mean siv.thm3_3" in err


# --- 4. a folder without results says so --------------------------------------------------

@pytest.mark.parametrize("command", [["list", "siv.thm3_3"], ["show", "siv.thm3_3"]])
def test_listing_a_folder_without_results_says_how_to_make_them(tmp_path, command, capsys, run_cli):
    for out, what in ((tmp_path / "missing", "does not exist, so it holds no results"),
                      (tmp_path, "holds no results")):
        code, text, err = run_cli(command + ["--out", str(out)], capsys)
        assert code == 0 and text  # the listing itself
        assert err == (f"privbounds: note: --out {out} {what}; make them with: privbounds run siv.thm3_3 "
                       f"--out {out}\n")
    assert not (tmp_path / "missing").exists()


def test_listing_a_folder_with_results_has_no_note(one_run, capsys, run_cli):
    for command in (["list", "siv.thm3_3"], ["show", "siv.thm3_3"]):
        code, _, err = run_cli(command + ["--out", str(one_run)], capsys)
        assert code == 0 and "no results" not in err


@pytest.mark.parametrize("command", [["findings"], ["report"], ["check"], ["figures"], ["figures", "siv.*"]])
def test_reading_a_folder_without_results_is_one_line_naming_it(tmp_path, command, capsys, run_cli):
    for out, what in ((tmp_path / "missing", "does not exist, so it holds no results"),
                      (tmp_path / "empty", "holds no results")):
        (tmp_path / "empty").mkdir(exist_ok=True)
        code, _, err = run_cli(command + ["--out", str(out)], capsys)
        assert code == 2 and err.count("\n") == 1, err
        assert err.startswith(f"privbounds: error: --out {out} {what}; make them with: privbounds run ")
    assert not (tmp_path / "missing").exists() and not any((tmp_path / "empty").iterdir())


# --- 5. a --set run does not replace registered results unless forced -----------------------

def _files(folder):
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_a_set_run_over_registered_results_is_refused_unless_forced(one_run, tmp_path, capsys, run_cli):
    import shutil

    out = tmp_path / "out"
    shutil.copytree(one_run, out)
    before = _files(out)
    code, _, err = run_cli(["run", "siv.thm3_3", "--fidelity", "smoke", "--set", "d=3", "--quiet",
                            "--out", str(out)], capsys)
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"privbounds: error: --out {out} holds the registered results of siv.thm3_3")
    assert "--set" in err and "--force" in err
    assert _files(out) == before  # nothing written, nothing lost
    with pytest.raises(ParameterError, match="^out .* holds the registered results of siv.thm3_3, which a run with "
                                             "overrides would replace: .* or add force"):
        privbounds.run("siv.thm3_3", fidelity="smoke", out=out, progress=False, overrides={"d": [3]})
    assert _files(out) == before
    # forced, it replaces them, with a warning
    code, _, err = run_cli(["run", "siv.thm3_3", "--fidelity", "smoke", "--set", "d=3", "--quiet", "--force",
                            "--out", str(out)], capsys)
    assert code == 0 and "warning: replacing the registered results of siv.thm3_3" in err
    assert json.loads((out / "results" / "siv.thm3_3.json").read_text())["overrides"] == {"d": [3]}
    # the registered run over them says what it replaces (their blocks stay in the store)
    code, _, err = run_cli(["run", "siv.thm3_3", "--fidelity", "smoke", "--quiet", "--out", str(out)], capsys)
    assert code == 0 and "replacing the custom-grid results of siv.thm3_3 (--set d=3)" in err


def test_a_set_run_into_the_default_folder_is_refused_too(tmp_path, monkeypatch, capsys, run_cli):
    monkeypatch.chdir(tmp_path)
    assert run_cli(["run", "siv.thm3_3", "--fidelity", "smoke", "--quiet"], capsys)[0] == 0
    before = _files(tmp_path / "privbounds-out")
    code, _, err = run_cli(["run", "siv.thm3_3", "--fidelity", "smoke", "--quiet", "--set", "epsilon=0.5"], capsys)
    assert code == 2 and err.strip() == (
        "privbounds: error: --out privbounds-out holds the registered results of siv.thm3_3, which a run with --set "
        "would replace: give it its own --out, or add --force to replace them")
    assert _files(tmp_path / "privbounds-out") == before
    # in a folder of its own it runs
    assert run_cli(["run", "siv.thm3_3", "--fidelity", "smoke", "--quiet", "--set", "epsilon=0.5",
                    "--out", "custom"], capsys)[0] == 0
