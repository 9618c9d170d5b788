"""privbounds check: exit 0 against its own baseline, 1 on each kind of regression."""

import json
import shutil

import pytest

from privbounds.cli import main


@pytest.fixture
def out(smoke_out, tmp_path):
    dst = tmp_path / "out"
    shutil.copytree(smoke_out / "results", dst / "results")
    return dst


def check(out, baseline, capsys, *extra):
    try:
        code = main(["check", "--out", str(out), "--baseline", str(baseline), *extra])
    except SystemExit as e:
        code = e.code
    return code, capsys.readouterr()


def edit(out, tid, fn):
    path = out / "results" / f"{tid}.json"
    rec = json.loads(path.read_text())
    fn(rec)
    path.write_text(json.dumps(rec))


def test_update_then_check_passes(out, tmp_path, capsys):
    base = tmp_path / "base.json"
    code, cap = check(out, base, capsys, "--update")
    assert code == 0 and base.is_file()
    code, cap = check(out, base, capsys)
    assert code == 0 and "check ok" in cap.out


def test_worse_verdict_fails(out, tmp_path, capsys):
    base = tmp_path / "base.json"
    check(out, base, capsys, "--update")
    edit(out, "siv.thm3_3", lambda r: r["verdicts"][0].update(verdict="refuted"))
    code, cap = check(out, base, capsys)
    assert code == 1 and "verdict confirmed -> refuted" in cap.out


def test_tightness_drift_fails(out, tmp_path, capsys):
    base = tmp_path / "base.json"
    check(out, base, capsys, "--update")

    def loosen(rec):
        d = rec["verdicts"][0]["details"][0]
        d["tightness_low"], d["tightness_high"] = 50.0, 60.0
    edit(out, "siv.thm3_3", loosen)
    code, cap = check(out, base, capsys)
    assert code == 1 and "no longer overlaps" in cap.out


def test_exponent_drift_fails(out, tmp_path, capsys):
    base = tmp_path / "base.json"
    check(out, base, capsys, "--update")

    def drift(rec):
        v = next(v for v in rec["verdicts"] if v["kind"] == "scaling" and v["fit"])
        v["fit"]["low"], v["fit"]["high"] = 5.0, 6.0
    edit(out, "bns.obs3_2", drift)
    assert check(out, base, capsys)[0] == 1


def test_new_claim_without_baseline_fails(out, tmp_path, capsys):
    base = tmp_path / "base.json"
    check(out, base, capsys, "--update")
    edit(out, "bns.thm5_1", lambda r: r["verdicts"].append({**r["verdicts"][0], "claim": "brand-new"}))
    code, cap = check(out, base, capsys)
    assert code == 1 and "brand-new" in cap.out


def test_missing_baseline_is_a_clear_error(out, tmp_path, capsys):
    code, cap = check(out, tmp_path / "none.json", capsys)
    assert code == 2 and "no baseline" in cap.err


@pytest.mark.parametrize("fidelity", ["quick", "full"])
def test_committed_baselines_cover_every_theorem(fidelity):
    # one file per paper, each holding exactly that paper's runnable theorems
    from privbounds.registry import papers, theorems
    from privbounds.reports.check import baseline_path
    for prefix, paper in papers().items():
        if paper.kind != "paper":  # measured learners keep their baselines in their own folder
            continue
        path = baseline_path(prefix, fidelity)
        assert path.is_file(), (f"no {fidelity} baseline for paper {prefix}: run its theorems at --fidelity "
                                f"{fidelity} and 'privbounds check --update' (docs/guide/own-theorem.md)")
        data = json.loads(path.read_text())
        assert data["fidelity"] == fidelity
        assert set(data["theorems"]) == {t.id for t in theorems() if t.prefix == prefix and t.runnable}


def test_round_off_is_not_a_change():
    """The same trials summed in another order (another CPU) differ in their last bits: an
    exact mean, or an interval of width zero, a few ulps away is the same number; a change
    in the fourth digit is not."""
    import numpy as np

    from privbounds.reports.check import _overlap, _welch

    m = 0.1995
    a = [m, 4.83e-17, 400, m]
    b = [np.nextafter(np.nextafter(m, 1), 1), 5.44e-17, 400, m]
    assert _welch(a, b) == 1.0
    assert _welch(a, [0.1996, 5.44e-17, 400, 0.1996]) == 0.0
    assert _welch([m, 0.1, 400, 1.0], [m + 0.05, 0.1, 400, 1.0]) < 1e-6   # a real spread: Welch decides
    z = np.nextafter(0.085, 0)
    assert _overlap([0.085, 0.085], [z, z]) and not _overlap([0.085, 0.085], [0.0851, 0.0851])
    # a small value made as a difference of numbers near 1 keeps fewer digits (wlf.cor9)
    assert _overlap([5.315784683e-08] * 2, [5.315784644e-08] * 2)
    # but a real spread, however small the values, is left to Welch's test
    assert _welch([2.1e-29, 3.4e-29, 1000, 1e-27], [2e-15, 3e-15, 1000, 1e-13]) < 1e-6
    assert _welch([0.99999994, 6.9e-7, 400, 1.0], [0.999999, 9.9e-7, 400, 1.0]) < 1e-6
    assert _welch([3.7e-13, 0.0, 400, 3.7e-13], [7.4e-13, 0.0, 400, 7.4e-13]) == 0.0  # a doubled exact value
    # a gap that is 0 in exact arithmetic, at two seeds (wlf.lem36 at seed 1 against seed 0):
    # its largest round-off value moves too, and that is no change; a real largest value is one
    assert _welch([7.85e-17, 7.97e-16, 600, 1.49e-14], [3.93e-17, 2.15e-16, 600, 3.53e-15]) == 1.0
    assert _welch([7.85e-17, 7.97e-16, 600, 1e-3], [3.93e-17, 2.15e-16, 600, 3.53e-15]) == 0.0
    from privbounds.reports.check import _same
    assert _same(float("inf"), float("inf")) and not _same(float("inf"), 5.0)


def test_counts_of_trials_that_share_one_instance_are_not_tested_across_seeds():
    from privbounds.registry import get
    from privbounds.reports.check import _tests

    # kmms.lem4_6: one sample S per block, so 193/200 at seed 1 against 0/200 at seed 0 is
    # another S, not a change of the code
    assert get("kmms.lem4_6").simulator.shared_instance
    key = '{"d":16,"experiment":"curve"}'
    now = {"counts": {key: {"7": [193, 200]}}, "audits": {}, "n_hat": {}}
    was = {"counts": {key: {"7": [0, 200]}}, "audits": {}, "n_hat": {}}
    assert _tests("kmms.lem4_6", now, was)[0][0] < 1e-50
    assert _tests("kmms.lem4_6", now, was, counts=False) == []


def test_a_bound_value_is_keyed_by_where_it_was_evaluated_not_by_the_level_measured_there():
    """A ceiling's point carries the row's interval level, which the engine's looks at first
    blocks change (0.95 -> 0.9525 for a theorem whose searches look); the value is the same."""
    from privbounds.reports.baseline import _where

    old = {'{"conf":0.95,"epsilon":1.0,"n":8}|8': 0.5, "epsilon": 1.0}
    new = {'{"conf":0.9525,"epsilon":1.0,"n":8}|8': 0.5, "epsilon": 1.0}
    assert _where(old) == _where(new) == {'{"epsilon":1.0,"n":8}|8': 0.5, "epsilon": 1.0}
    moved = {'{"conf":0.9525,"epsilon":2.0,"n":8}|8': 0.5}
    assert _where(moved) != _where(old)
