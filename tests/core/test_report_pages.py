"""What a report page says is true of the record behind it (issue: the report as a
researcher meets it)."""

import json

import privbounds

RUNNABLE = [t.id for t in privbounds.theorems() if t.runnable]


def test_each_theorem_page_shows_its_own_computation_time(smoke_site):
    seen = set()
    for tid in RUNNABLE:
        rec = json.loads((smoke_site / "results" / f"{tid}.json").read_text())
        page = (smoke_site / "report" / f"{tid}.html").read_text()
        own = round(rec["engine"]["block_seconds"], 1)
        assert f"{own} s of computation in this theorem's own blocks" in page, tid
        seen.add(own)
    assert len(seen) > 5  # not one run-wide number repeated on every page


def test_a_custom_grid_is_marked_everywhere_and_replacing_registered_results_warns(tmp_path, capsys):
    import matplotlib.figure

    from privbounds.cli import main

    out = str(tmp_path)
    assert main(["run", "bns.obs3_2", "--fidelity", "smoke", "--quiet", "--out", out]) == 0
    assert "replacing" not in capsys.readouterr().err
    assert main(["run", "bns.obs3_2", "--fidelity", "smoke", "--set", "k=1,4", "--quiet", "--out", out]) == 0
    err = capsys.readouterr().err
    assert "warning: replacing the registered results of bns.obs3_2" in err and "--set k=1,4" in err
    titles = []
    real = matplotlib.figure.Figure.savefig

    def keep(fig, *a, **k):
        titles.append(fig._suptitle.get_text() if fig._suptitle else "")
        return real(fig, *a, **k)
    import pytest

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(matplotlib.figure.Figure, "savefig", keep)
        privbounds.plot(["bns.obs3_2"], out=out)
    assert any("custom grid --set k=1,4" in t for t in titles if t.startswith("bns.obs3_2"))
    site = privbounds.report(out=out).parent
    for page in ("index.html", "paper-bns.html", "bns.obs3_2.html"):
        assert "custom grid: --set k=1,4" in (site / page).read_text(), page
    # a run at another fidelity or seed over registered results warns too
    assert main(["run", "bns.obs3_2", "--fidelity", "smoke", "--quiet", "--out", out]) == 0
    capsys.readouterr()
    assert main(["run", "bns.obs3_2", "--fidelity", "smoke", "--seed", "5", "--quiet", "--out", out]) == 0
    assert "by a run with seed 5 (they have seed 0)" in capsys.readouterr().err
