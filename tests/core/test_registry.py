"""Generic tests over the registry: every theorem smoke-runs end to end, every declared
parameter constraint refuses bad values by name, every claim gets a verdict."""

import json

import pytest
from markupsafe import escape

import privbounds
from privbounds.params import ParameterError

THEOREMS = privbounds.theorems()
VERDICTS = {"confirmed", "refuted", "inconclusive"}


def test_get_unknown_id():
    with pytest.raises(ParameterError, match="unknown theorem id"):
        privbounds.get("bns.thm99")


@pytest.mark.parametrize("thm", THEOREMS, ids=lambda t: t.id)
def test_every_theorem_runs_and_records_verdicts(thm, smoke_out):
    rec = json.loads((smoke_out / "results" / f"{thm.id}.json").read_text())
    assert rec["fidelity"] == "smoke"
    assert [v["claim"] for v in rec["verdicts"]] == [c.id for c in thm.claims]
    assert all(v["verdict"] in VERDICTS for v in rec["verdicts"])
    assert rec["provenance"]["seed"] == 0 and rec["provenance"]["code_version"]
    assert (smoke_out / "results" / f"{thm.id}.csv").read_text().startswith("theorem,")


@pytest.mark.parametrize("thm", THEOREMS, ids=lambda t: t.id)
def test_every_theorem_draws_its_figure(thm, smoke_out):
    paths = privbounds.plot([thm.id], out=smoke_out)
    assert {p.suffix for p in paths} == {".png", ".svg"}
    assert all(p.stat().st_size > 5000 for p in paths)


CASES = [(t, name, bad) for t in THEOREMS for name, spec in t.simulator.params.items()
         for bad in spec.bad_values()]


@pytest.mark.parametrize("thm, name, bad", CASES, ids=[f"{t.id}-{n}-{b}" for t, n, b in CASES])
def test_every_parameter_constraint_refuses_bad_values(thm, name, bad):
    with pytest.raises(ParameterError, match=name):
        thm.simulator.points("smoke", {name: [bad]})


def test_report_builds(smoke_out):
    privbounds.plot(out=smoke_out)
    index = privbounds.report(out=smoke_out)
    html = index.read_text()
    for t in THEOREMS:
        assert f'href="{t.id}.html"' in html
        page = (index.parent / f"{t.id}.html").read_text()
        assert str(escape(t.title)) in page and "Provenance" in page  # as Jinja escapes it


def test_plot_and_report_default_to_the_theorems_that_have_results(tmp_path):
    # the README's notebook snippet: run one theorem, then draw and report
    privbounds.run(["bns.thm5_1"], fidelity="smoke", out=tmp_path, progress=False)
    paths = privbounds.plot(out=tmp_path)
    assert {p.stem for p in paths} == {"bns.thm5_1"}
    assert privbounds.report(out=tmp_path).is_file()


@pytest.mark.parametrize("thm", THEOREMS, ids=lambda t: t.id)
def test_every_point_declares_its_privacy(thm):
    for fidelity in ("smoke", "quick", "full"):
        for p in thm.simulator.points(fidelity):
            priv = thm.simulator.privacy(p)
            assert set(priv) == {"epsilon", "delta", "accounting"} and priv["accounting"]
            if priv["epsilon"] is not None:
                assert priv["epsilon"] > 0 and 0 <= priv["delta"] < 1


def test_report_opens_each_paper_with_its_headline_figures(smoke_out):
    privbounds.plot(out=smoke_out)
    index = privbounds.report(out=smoke_out)
    site = index.parent
    assert 'href="paper-bns.html"' in index.read_text()
    page = (site / "paper-bns.html").read_text()
    for cls in ("point", "thresh", "par"):
        assert f'src="figures/paper-bns-{cls}.png"' in page
        assert (site / "figures" / f"paper-bns-{cls}.png").stat().st_size > 5000
    # the headline opens the page, before the list of theorems
    assert page.index("paper-bns-point.png") < page.index("<h2>Theorems</h2>")
    for t in THEOREMS:
        if t.id.startswith("bns."):
            assert f'href="{t.id}.html"' in page
    assert "No headline figure" in (site / "paper-siv.html").read_text()
