"""On-disk state never produces a traceback: every file privbounds reads (result records,
baselines, cache entries) is validated before use; a bad one is named by path with what
is wrong, skipped where the command can go on without it, and never silently trusted.
Each test plants one case the way a user meets it."""

import json
import re
import shutil
import subprocess
import sys

import pytest

import privbounds
from privbounds.cli import main
from privbounds.results import ResultError, load

TID = "siv.thm3_3"
OTHER = "bns.thm5_1"


@pytest.fixture
def out(smoke_out, tmp_path):
    dst = tmp_path / "out"
    for tid in (TID, OTHER):
        for ext in ("json", "csv"):
            (dst / "results").mkdir(parents=True, exist_ok=True)
            shutil.copy(smoke_out / "results" / f"{tid}.{ext}", dst / "results")
    return dst


def cli(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as e:
        code = e.code
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def _truncated(p):
    p.write_text(p.read_text()[:300])


def _bad_verdict(p):
    rec = json.loads(p.read_text())
    rec["verdicts"][0]["verdict"] = "maybe"
    p.write_text(json.dumps(rec))


def _renamed_claim(p):
    rec = json.loads(p.read_text())
    rec["verdicts"][0]["claim"] = "a-claim-of-another-version"
    p.write_text(json.dumps(rec))


BAD_RECORDS = {
    "truncated": (_truncated, "not valid JSON (Unterminated string"),
    "empty-object": (lambda p: p.write_text("{}"), "has no theorem id"),
    "list": (lambda p: p.write_text("[]"), "a JSON object is expected, found list"),
    "unknown-verdict": (_bad_verdict, "has verdict 'maybe', not one of"),
    "other-version": (_renamed_claim, "written by another version"),
    "bare-override": (lambda p: p.write_text(p.read_text().replace('"overrides": {}', '"overrides": {"k": 4}')),
                      "overrides must map each parameter to a list of values"),
}


@pytest.mark.parametrize("case", BAD_RECORDS)
def test_a_bad_record_is_named_skipped_by_readers_and_fails_the_check(out, tmp_path, capsys, case):
    base = tmp_path / "base.json"
    assert cli(capsys, "check", "--out", str(out), "--baseline", str(base), "--update")[0] == 0
    path = out / "results" / f"{TID}.json"
    plant, what = BAD_RECORDS[case]
    plant(path)
    with pytest.raises(ResultError, match=rf"^{re.escape(str(path))}: .*{re.escape(what)}"):
        load(out, TID)
    # list, figures, report and show go on with the other theorem, naming the file once
    for argv in (["list", "--paper", "siv"], ["figures"], ["report"], ["show", TID]):
        code, stdout, err = cli(capsys, *argv, "--out", str(out))
        assert code == 0, (argv, err)
        assert "Traceback" not in err + stdout
        if argv[0] != "show":
            warns = [line for line in err.splitlines() if str(path) in line]
            assert len(warns) <= 1 and (warns or argv[0] != "list")
    assert (out / "figures" / f"{OTHER}.png").is_file() and not (out / "figures" / f"{TID}.png").exists()
    assert (out / "report" / f"{OTHER}.html").is_file()
    # asked for by name, it is one line and exit 2
    code, _, err = cli(capsys, "figures", TID, "--out", str(out))
    assert code == 2 and err.strip().splitlines() == [err.strip()] and str(path) in err
    # the check never trusts it: a regression naming the file
    code, stdout, _ = cli(capsys, "check", "--out", str(out), "--baseline", str(base))
    assert code == 1 and f"REGRESSION {TID}: its result file is unreadable ({path}" in stdout
    # and no baseline is made from it
    code, _, err = cli(capsys, "check", "--out", str(out), "--baseline", str(base), "--update")
    assert code == 2 and str(path) in err


def test_stray_json_files_are_not_theorems(out, tmp_path, capsys):
    base = tmp_path / "base.json"
    cli(capsys, "check", "--out", str(out), "--baseline", str(base), "--update")
    (out / "results" / "notes.json").write_text('{"mine": 1}')
    shutil.copy(out / "results" / f"{OTHER}.json", out / "results" / f"{OTHER} (copy).json")
    code, stdout, err = cli(capsys, "check", "--out", str(out), "--baseline", str(base))
    assert code == 0 and "check ok: 2 theorems" in stdout
    assert "notes.json: not the result of a registered theorem" in err and "(copy).json" in err
    code, stdout, _ = cli(capsys, "list", "--json", "--out", str(out))
    assert code == 0 and len(json.loads(stdout)) == len(privbounds.theorems())


def test_a_deleted_csv_is_rebuilt_from_its_record(out, capsys):
    (out / "results" / f"{TID}.csv").unlink()
    assert cli(capsys, "report", "--out", str(out))[0] == 0
    csv = (out / "report" / "data" / f"{TID}.csv").read_text()
    rows = json.loads((out / "results" / f"{TID}.json").read_text())["rows"]
    assert csv.startswith("theorem,") and len(csv.strip().splitlines()) == len(rows) + 1


@pytest.mark.parametrize("content, what", [
    ("{", "not valid JSON"),
    ("[1, 2]", "a JSON object is expected, found list"),
    ('{"format": 3, "fidelity": "smoke"}', "has no 'theorems' object"),
    ('{"theorems": {"siv.thm3_3": {"seed": 0}}}', "the entry of siv.thm3_3 lacks claims"),
])
def test_a_bad_baseline_is_one_line_naming_it(out, tmp_path, capsys, content, what):
    base = tmp_path / "base.json"
    base.write_text(content)
    code, stdout, err = cli(capsys, "check", "--out", str(out), "--baseline", str(base))
    assert code == 2 and err.strip() == err.strip().splitlines()[0]
    assert f"baseline {base}: {what}" in err and "Traceback" not in err + stdout


def test_bad_cache_entries_are_recomputed_with_a_warning(tmp_path, capsys):
    """Rows of the block store that were damaged (value and checksum disagree) or that hold
    a value of the wrong kind under a valid checksum are reported in one warning, deleted
    and recomputed: the numbers are those of the clean run."""
    import sqlite3

    from privbounds.simulators.engine.blockstore import FILENAME, _checksum

    privbounds.run([TID], fidelity="smoke", out=tmp_path / "a", progress=False)
    clean = json.loads((tmp_path / "a" / "results" / f"{TID}.json").read_text())
    db = sqlite3.connect(tmp_path / "a" / FILENAME)
    rows = db.execute("SELECT digest, key FROM blocks ORDER BY digest").fetchall()
    assert len(rows) > 8
    with db:
        for digest, _ in rows[:4]:  # damaged: the checksum no longer matches
            db.execute("UPDATE blocks SET value = '12345' WHERE digest = ?", (digest,))
        for digest, key in rows[4:8]:  # well-formed, but not a block's value
            db.execute("UPDATE blocks SET value = ?, checksum = ? WHERE digest = ?",
                       ('"a string"', _checksum(key, '"a string"'), digest))
    db.close()
    code, _, err = cli(capsys, "run", TID, "--fidelity", "smoke", "--quiet", "--out", str(tmp_path / "a"))
    assert code == 0 and "Traceback" not in err
    assert "could not be used" in err and ("checksum" in err or "a string" in err)
    again = json.loads((tmp_path / "a" / "results" / f"{TID}.json").read_text())
    assert again["rows"] == clean["rows"]  # the same numbers, recomputed
    assert again["engine"]["blocks_run"] == 8
    # and the rows were rewritten: a third run reads all of them from the store, silently
    code, _, err = cli(capsys, "run", TID, "--fidelity", "smoke", "--quiet", "--out", str(tmp_path / "a"))
    assert code == 0 and "could not be used" not in err
    assert json.loads((tmp_path / "a" / "results" / f"{TID}.json").read_text())["engine"]["blocks_run"] == 0


@pytest.mark.parametrize("argv", [["list", "--paper", "siv"], ["list", "--json"]])
def test_a_closed_pipe_is_not_an_error(out, argv):
    # 'privbounds list | head -1': the reader is gone before the output is written, at the
    # final flush (a short listing) or in the middle (a long one)
    proc = subprocess.Popen([sys.executable, "-m", "privbounds", *argv, "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0 and "Error" not in err and "Exception" not in err, err


def test_an_unwritable_out_is_one_line(out, capsys, monkeypatch):
    (out / "figures").write_text("a file where the folder should be")
    code, _, err = cli(capsys, "figures", "--out", str(out))
    assert code == 2 and err.strip() == f"privbounds: error: --out {out}: {out / 'figures'} is not a writable " \
                                       "folder (a file of that name is in the way)"
    # a folder we may not write to (tests run as root, so the refusal is planted)
    import tempfile

    real = tempfile.mkstemp

    def refuse(*a, dir=None, **k):
        if str(dir).endswith("report"):
            raise PermissionError(13, "Permission denied")
        return real(*a, dir=dir, **k)
    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    code, _, err = cli(capsys, "report", "--out", str(out))
    assert code == 2 and err.strip() == f"privbounds: error: --out {out}: {out / 'report'} is not a writable " \
                                       "folder (Permission denied)"
