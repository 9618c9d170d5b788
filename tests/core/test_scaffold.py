"""`privbounds new paper` and `privbounds new theorem` (privbounds/scaffold.py), and the
common checks (privbounds.testing) on what they write: a generated paper passes every
check but its baseline's, and each planted bug is caught by the check made for it (a
check that cannot fail would prove nothing). The generated package is put on sys.path and
registered directly (pip would be too slow here); the registry is restored after each test."""

from __future__ import annotations

import importlib
import sys
import types

import pytest

from privbounds import cli, registry, scaffold, testing


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """A function that writes a new plugin paper into tmp_path (``privbounds new paper``),
    optionally with a text replaced in one of its files, and registers it as the plugin
    loader would; registry and sys.path are restored after the test."""
    registry.ids()  # discover first: a copy made before discovery would lose every built-in entry
    for name in ("_ENTRIES", "_BUILT", "_PAPERS"):
        monkeypatch.setattr(registry, name, dict(getattr(registry, name)))
    monkeypatch.syspath_prepend(str(tmp_path))

    def make(prefix: str, plant: tuple[str, str, str] | None = None):
        assert cli.main(["new", "paper", prefix, "--dir", str(tmp_path)]) == 0
        base = tmp_path / f"privbounds-{prefix}"
        if plant is not None:
            rel, old, new = plant
            path = base / f"privbounds_{prefix}" / rel
            text = path.read_text()
            assert old in text, f"the planted bug's text {old!r} is not in {rel}"
            path.write_text(text.replace(old, new))
        monkeypatch.syspath_prepend(str(base))
        pkg = importlib.import_module(f"privbounds_{prefix}")
        registry.add_paper(pkg.PAPER)
        return base, pkg

    return make


def test_a_new_paper_is_a_whole_distribution_and_passes_every_check_but_its_baseline(fresh, capsys):
    base, pkg = fresh("zdemo")
    out = capsys.readouterr().out
    assert "wrote 7 files" in out and "pip install -e" in out
    pyproject = (base / "pyproject.toml").read_text()
    assert '[project.entry-points."privbounds.plugins"]\nzdemo = "privbounds_zdemo"' in pyproject
    assert (base / "tests" / "test_common.py").read_text().count('parametrize_with_checks("zdemo")') == 1
    assert (base / "privbounds_zdemo" / "baselines").is_dir()
    thm = registry.get("zdemo.thm1")
    assert thm.plotter is None and thm.simulator.audits()  # drawn by the generic plotter; audited
    testing.check_theorem("zdemo.thm1")
    with pytest.raises(AssertionError, match=r"^check check_paper_baselines failed for zdemo: no quick baseline "
                                             r".*privbounds check --update"):
        testing.check_paper("zdemo")
    names = [c.name for c in testing.checks("zdemo")]
    assert names[:3] == ["check_paper_ids", "check_paper_entries", "check_paper_baselines"]
    assert {"check_uses_rng", "check_params_finite", "check_claims_verdicts"} <= set(names)


def test_a_new_theorem_of_a_plugin_paper(fresh, capsys):
    base, pkg = fresh("zdemb")
    assert cli.main(["new", "theorem", "zdemb.lem2"]) == 0
    out = capsys.readouterr().out
    folder = base / "privbounds_zdemb"
    assert f"wrote {folder / 'lem2.py'}" in out and f"wrote {folder / 'bounds.py'}" in out
    assert "def n_lem2(" in (folder / "bounds.py").read_text()
    # a new process would import the package afresh; here the bounds module is read again
    importlib.reload(importlib.import_module("privbounds_zdemb.bounds"))
    importlib.import_module("privbounds_zdemb.lem2")
    assert registry.module_of("zdemb.lem2") == "privbounds_zdemb.lem2"
    testing.check_theorem("zdemb.lem2")
    assert [i for i in registry.ids() if i.startswith("zdemb.")] == ["zdemb.thm1", "zdemb.lem2"]


@pytest.mark.parametrize("prefix, registry_file", [("siv", "privbounds/registry/siv.py"),
                                                    ("pap", "privbounds/registry/pap/zthm.py")])
def test_a_new_theorem_of_a_built_in_paper_writes_three_files(prefix, registry_file, monkeypatch):
    """Its simulator (new), its bound (appended to the paper's bounds module) and its entry
    (a new module of a registry package, or appended to the paper's one module). The files
    are not written here: their text is run in place of them, and passes the checks."""
    registry.ids()
    for name in ("_ENTRIES", "_BUILT", "_PAPERS"):
        monkeypatch.setattr(registry, name, dict(getattr(registry, name)))
    files = scaffold.theorem_files(f"{prefix}.zthm")
    bounds = {"siv": "bounds/sivakumar.py", "pap": "bounds/pap.py"}[prefix]
    want = [f"simulators/{prefix}/zthm.py", bounds, registry_file]
    assert all(str(w.path).endswith(e) for w, e in zip(files, want)) and len(files) == 3, [w.path for w in files]
    assert [w.append for w in files] == [False, True, registry_file.endswith(f"{prefix}.py")]
    sim, bound, entry = files
    simmod = types.ModuleType(f"privbounds.simulators.{prefix}.zthm")
    monkeypatch.setitem(sys.modules, simmod.__name__, simmod)
    exec(compile(sim.text, str(sim.path), "exec"), simmod.__dict__)
    bmod = importlib.import_module(scaffold._bounds_module(prefix))
    space = dict(bmod.__dict__)
    exec(compile(bound.text, str(bound.path), "exec"), space)
    monkeypatch.setattr(bmod, "n_zthm", space["n_zthm"], raising=False)
    exec(compile(entry.text, str(entry.path), "exec"), {"__name__": f"privbounds.registry.{prefix}",
                                                       "entry": registry.entry})
    testing.check_theorem(f"{prefix}.zthm")
    with pytest.raises(AssertionError, match=rf"check_paper_baselines failed for {prefix}: {prefix}.zthm: not in"):
        testing.check_paper(prefix)


@pytest.mark.parametrize("args, message", [
    (["new", "paper", "Bad!"], "NAME must be a paper prefix"),
    (["new", "paper", "siv"], "NAME 'siv' is already a registered paper"),
    (["new", "theorem", "siv"], "ID must be <paper>.<name>"),
    (["new", "theorem", "siv.Thm"], "ID must be <paper>.<name>"),
    (["new", "theorem", "nope.thm1"], "ID 'nope.thm1': no paper 'nope'"),
    (["new", "theorem", "siv.thm3_3"], "ID 'siv.thm3_3' is already registered"),
])
def test_bad_input_is_one_line_naming_the_parameter(args, message, capsys):
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"privbounds: error: {message}") and err.count("\n") == 1, err


def test_bad_dir_and_a_second_paper_of_one_name(tmp_path, capsys):
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("")
    assert cli.main(["new", "paper", "zdemc", "--dir", str(not_a_dir)]) == 2
    assert capsys.readouterr().err.startswith(f"privbounds: error: --dir {not_a_dir} is not a folder")
    assert cli.main(["new", "paper", "zdemc", "--dir", str(tmp_path)]) == 0
    before = sorted(p.read_text() for p in (tmp_path / "privbounds-zdemc").rglob("*") if p.is_file())
    assert cli.main(["new", "paper", "zdemc", "--dir", str(tmp_path)]) == 2
    assert "already exists; nothing was written" in capsys.readouterr().err
    assert sorted(p.read_text() for p in (tmp_path / "privbounds-zdemc").rglob("*") if p.is_file()) == before
    with pytest.raises(SystemExit) as e:  # argparse's own errors: one line too, exit 2
        cli.main(["new", "paper"])
    assert e.value.code == 2


# (file, text of the generated paper, the planted bug, the check that must catch it)
PLANTED = [
    ("thm1.py", 'counts = rng.binomial(n, point["p"], size=trials)',
     'rng = np.random.default_rng(0)\n        counts = rng.binomial(n, point["p"], size=trials)', "check_uses_rng"),
    ("thm1.py", "counts = rng.binomial(", "counts = np.random.binomial(", "check_run_trials"),
    ("thm1.py", 'ALPHA = Interval(0.01, 0.5, "both")', 'ALPHA = Interval(0.01, None, "left")',
     "check_params_finite"),
    ("thm1.py", 'size=trials)', "size=1)", "check_run_trials"),
    ("thm1.py", "return 4, N_CAP", "return 0, N_CAP", "check_n_range"),
    ("thm1.py", "    def audits(self):", "    def _audits(self):", "check_privacy"),
    ("thm1.py", ':laplace_mechanism", param="epsilon"', ':laplace_mech", param="epsilon"', "check_privacy"),
    ("thm1.py", "lambda p: True", "lambda p: False", "check_claims_select"),
    ("thm1.py", '"delta": 0.0, "accounting"', '"delta": 1.0, "accounting"', "check_privacy"),
    ("bounds.py", "@bound(EXACT, ", "# @bound(EXACT, ", "check_claim_bounds"),
]


@pytest.mark.parametrize("i", range(len(PLANTED)), ids=[f"{p[3]}-{i}" for i, p in enumerate(PLANTED)])
def test_each_planted_bug_is_caught_by_its_check(i, fresh):
    rel, old, new, check = PLANTED[i]
    prefix = f"zbug{i}"
    fresh(prefix, (rel, old, new))
    with pytest.raises(AssertionError, match=rf"^check {check} failed for {prefix}\.thm1: "):
        testing.check_theorem(f"{prefix}.thm1")


def test_parametrize_with_checks_gives_one_case_per_check_and_target():
    mark = testing.parametrize_with_checks(["siv.thm3_3", "siv.lem3_2"])
    ids = [p.id for p in mark.args[1]]
    assert mark.args[0] == "check" and len(ids) == len(set(ids))
    assert "siv.thm3_3-check_uses_rng" in ids and "siv.lem3_2-check_claims_verdicts" in ids
    assert not any(i.startswith("siv-") for i in ids)  # theorems named: the paper's own checks are not run
    assert [p.id for p in testing.parametrize_with_checks("siv").args[1]][:3] == [
        "siv-check_paper_ids", "siv-check_paper_entries", "siv-check_paper_baselines"]


def test_the_example_plugin_paper_passes_every_common_check(monkeypatch):
    """examples/privbounds-laplace, loaded from its folder as the plugin loader would (CI
    also installs it and runs its own tests): every check, its own quick baseline included."""
    from pathlib import Path

    registry.ids()
    for name in ("_ENTRIES", "_BUILT", "_PAPERS"):
        monkeypatch.setattr(registry, name, dict(getattr(registry, name)))
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2] / "examples" / "privbounds-laplace"))
    pkg = importlib.import_module("privbounds_laplace")
    for tid in ("laplace.thm1",):  # a module imported before this test registered its entries then
        if tid not in registry._ENTRIES:
            importlib.reload(importlib.import_module(f"privbounds_laplace.{tid.split('.')[1]}"))
    registry.add_paper(pkg.PAPER)
    testing.check_paper("laplace")
