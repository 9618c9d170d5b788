"""Generic tests over the registry: every theorem smoke-runs end to end, draws its
measurement and its bound, and every claim gets a verdict (the common checks of each
simulator, claim set and paper are privbounds.testing's, run in test_simulators.py)."""

import json

import numpy as np
import pytest
from markupsafe import escape

import privbounds
from privbounds.claims import VERDICTS  # the one vocabulary every part uses
from privbounds.params import ParameterError

THEOREMS = privbounds.theorems()
RUNNABLE = [t for t in THEOREMS if t.runnable]


def test_get_unknown_id():
    with pytest.raises(ParameterError, match="unknown theorem id"):
        privbounds.get("bns.thm99")


@pytest.mark.parametrize("thm", RUNNABLE, ids=lambda t: t.id)
def test_every_theorem_runs_and_records_verdicts(thm, smoke_out):
    rec = json.loads((smoke_out / "results" / f"{thm.id}.json").read_text())
    assert rec["fidelity"] == "smoke"
    assert [v["claim"] for v in rec["verdicts"]] == [c.id for c in thm.claims]
    assert all(v["verdict"] in VERDICTS for v in rec["verdicts"])
    assert rec["provenance"]["seed"] == 0 and rec["provenance"]["code_version"]
    assert (smoke_out / "results" / f"{thm.id}.csv").read_text().startswith("theorem,")


def _plotted_values(drawing: dict) -> np.ndarray:
    """Every y value a recorded figure draws: lines, markers, and the edges of shaded bands."""
    ys = [v for ax in drawing["axes"] for ln in ax["lines"] for v in ln["y"]]
    ys += [v for ax in drawing["axes"] for v in ax["collections_y"]]
    return np.array([np.nan if v is None else v for v in ys], float)


def _drawn(values, plotted) -> bool:
    values = np.asarray([v for v in values if v is not None and np.isfinite(v)], float)
    plotted = plotted[np.isfinite(plotted)]
    return bool(values.size) and bool(np.any(np.isclose(values[:, None], plotted[None, :], rtol=1e-6, atol=0)))


@pytest.mark.parametrize("thm", RUNNABLE, ids=lambda t: t.id)
def test_every_theorem_draws_its_measurement_and_its_bound(thm, smoke_site):
    """The figure shows what was measured (an n_hat, interval end or success rate of the
    record) and what the theorem says (a bound or ceiling of one of its claims), and is
    readable at the report's width. Read from what the session's one drawing of every
    figure recorded (tests/conftest.py: ``smoke_site``)."""
    from privbounds.figures import drawn

    rec = json.loads((smoke_site / "results" / f"{thm.id}.json").read_text())
    mine = [d for d in drawn.records(smoke_site / "figures", thm.id).values() if d["title"].startswith(thm.id)]
    assert mine, "no figure titled with the theorem id"
    for d in mine:  # readable at the report's width: no legend over data, no tiny text
        assert not d["problems"], d["problems"]
    shown = [v for v in rec["verdicts"] if v["kind"] != "privacy audit"]
    if shown:  # the verdicts of the claims drawn are on the figure
        title = " ".join(d["title"] for d in mine).replace("\n", " ")
        assert "verdicts:" in title and shown[0]["claim"] in title and shown[0]["verdict"] in title
    plotted = np.concatenate([_plotted_values(d) for d in mine])
    measured = [p.get(k) for p in rec["points"] for k in ("n_hat", "n_low", "n_high")]
    measured += [r.get("p_hat", r.get("mean")) for r in rec["rows"]] + [r["ci_high"] for r in rec["rows"]]
    measured += [r["max"] for r in rec["rows"] if "max" in r]  # a worst-case claim draws the largest value
    assert _drawn(measured, plotted), "no measured value is drawn"
    bounds = [d.get("bound", d.get("ceiling")) for v in rec["verdicts"] for d in v.get("details", [])]
    if any(b is not None for b in bounds):
        assert _drawn(bounds, plotted), "no bound or ceiling value of a claim is drawn"


def test_a_recorded_drawing_is_what_was_drawn(smoke_out, tmp_path):
    """The record the figure tests read holds the drawn figure's lines and problems, and
    a figure not rasterised leaves no PNG (and removes an old one)."""
    import shutil

    from privbounds.figures import drawn

    tid = "siv.thm3_3"
    shutil.copytree(smoke_out / "results", tmp_path / "results")
    png = privbounds.plot([tid], out=tmp_path, svg=False)
    assert (tmp_path / "figures" / f"{tid}.png").is_file() and not list((tmp_path / "figures").glob("*.drawn.json"))
    paths = privbounds.plot([tid], out=tmp_path, svg=False, png=("paper-*",), record=True)
    assert not (tmp_path / "figures" / f"{tid}.png").exists() and png[0] not in paths
    d = drawn.load(tmp_path / "figures", tid)
    assert d["title"].startswith(tid) and d["problems"] == [] and d["axes"][0]["lines"]
    assert any(ln["label"] and not ln["label"].startswith("_") for ln in d["axes"][0]["lines"])


def test_every_parameter_spec_is_named_by_its_key():
    """A parameter's name is written once, as its params dict's key (issue 31): the key
    names the spec, so that every message names the parameter the user wrote."""
    from privbounds.instances import families

    for t in RUNNABLE:
        for name, spec in t.simulator.params.items():
            assert spec.name == name, (t.id, name, spec)
    for fam in families().values():
        for name, spec in fam.params.items():
            assert spec.name == name, (fam.name, name, spec)


def test_report_builds(smoke_site):
    index = smoke_site / "report" / "index.html"
    html = index.read_text()
    for t in THEOREMS:
        assert f'href="{t.id}.html"' in html
        page = (index.parent / f"{t.id}.html").read_text()
        assert str(escape(t.title)) in page  # as Jinja escapes it
        assert ("Provenance" in page) == t.runnable


def test_plot_and_report_default_to_the_theorems_that_have_results(tmp_path):
    # the Python example of docs/guide/run.md: run one theorem (its siv.thm3_3, a cheap one), then draw and report
    privbounds.run(["siv.thm3_3"], fidelity="smoke", out=tmp_path, progress=False)
    paths = privbounds.plot(out=tmp_path)
    assert {p.stem for p in paths} == {"siv.thm3_3"}
    assert privbounds.report(out=tmp_path).is_file()


def test_figures_drawn_in_two_processes_are_the_files_of_one(smoke_out, tmp_path):
    import shutil

    # a bespoke and a generic plotter, of papers without headline figures (which plot draws
    # in this process, not in the workers, and which would only add to the time here)
    ids = ["siv.thm3_3", "wlf.ex16"]
    for tid in ids:
        for ext in ("json", "csv"):
            (tmp_path / "results").mkdir(exist_ok=True)
            shutil.copy(smoke_out / "results" / f"{tid}.{ext}", tmp_path / "results")
    one = privbounds.plot(ids, out=tmp_path)
    for p in one:
        p.unlink()
    two = privbounds.plot(ids, out=tmp_path, jobs=2)
    assert two == one and all(p.stat().st_size > 1000 for p in two)
    assert {p.stem for p in two} >= set(ids)


def test_png_only_figures_leave_no_stale_svg_and_the_report_links_none(tmp_path, capsys):
    tid = "siv.thm3_3"
    privbounds.run([tid], fidelity="smoke", out=tmp_path, progress=False)
    both = privbounds.plot([tid], out=tmp_path)
    assert {p.suffix for p in both} == {".png", ".svg"}
    page = (privbounds.report(out=tmp_path).parent / f"{tid}.html").read_text()
    assert f'href="figures/{tid}.svg"' in page and (tmp_path / "report" / "figures" / f"{tid}.svg").is_file()
    png = privbounds.plot([tid], out=tmp_path, svg=False)  # redrawn without the SVG:
    assert {p.suffix for p in png} == {".png"} and png[0].stat().st_size > 1000
    assert not list((tmp_path / "figures").glob("*.svg"))  # the old SVG would be stale
    page = (privbounds.report(out=tmp_path).parent / f"{tid}.html").read_text()
    assert ".svg" not in page and f'src="figures/{tid}.png"' in page
    assert not list((tmp_path / "report" / "figures").glob("*.svg"))  # nor its copy in the report
    from privbounds.cli import main

    assert main(["figures", tid, "--no-svg", "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out.split()
    assert printed == [str(tmp_path / "figures" / f"{tid}.png")]


def test_headline_figures_are_readable_and_label_every_line(smoke_site):
    """Each paper's headline figures pass the layout check, and every line drawn in a
    panel (a learner's measurement or bound, a lower bound) has its own legend entry. Read
    from what the session's drawing recorded (tests/conftest.py: ``smoke_site``)."""
    import matplotlib.colors

    from privbounds.figures import drawn

    folder = smoke_site / "figures"
    heads = sorted(folder.glob("paper-*.drawn.json")) + sorted(folder.glob("*.headline.drawn.json"))
    assert {p.name.split("-")[1] if p.name.startswith("paper-") else p.name.split(".")[0] for p in heads} \
        >= {"bns", "pap", "kmms"}
    for path in heads:
        d = drawn.load(folder, path.name[:-len(drawn.SUFFIX)])
        assert not d["problems"], (path.name, d["problems"])
        for ax in d["axes"]:
            unlabelled = [ln for ln in ax["lines"] if len(ln["x"]) > 1 and ln["label"].startswith("_")]
            assert not unlabelled, f"{len(unlabelled)} lines without a legend entry in {ax['title']!r}"
            # readable in greyscale: no two labelled lines of a panel share marker, line style
            # and grey level, so colour is never the only thing that tells them apart
            looks = {}
            for ln in ax["lines"]:
                if len(ln["x"]) < 2 or ln["label"].startswith("_"):
                    continue
                r, g, b = matplotlib.colors.to_rgb(ln["color"])
                look = (ln["marker"], ln["linestyle"], round(0.299 * r + 0.587 * g + 0.114 * b, 1))
                assert look not in looks, f"{ln['label']!r} looks like {looks[look]!r} in greyscale"
                looks[look] = ln["label"]


def test_report_opens_each_paper_with_its_headline_figures(smoke_site):
    index = smoke_site / "report" / "index.html"
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
    for prefix in ("siv", "wlf"):  # papers without headline figures: no section, no advice to draw one
        page = (site / f"paper-{prefix}.html").read_text()
        assert "No headline figure" not in page and "The headline" not in page
    for prefix in ("pap", "kmms"):  # one figure named <prefix>.headline, and its own caption
        page = (site / f"paper-{prefix}.html").read_text()
        assert f'src="figures/{prefix}.headline.png"' in page and (site / "figures" / f"{prefix}.headline.png").is_file()
        assert page.index(f"{prefix}.headline.png") < page.index("<h2>Theorems</h2>")
        assert "number of concepts" not in page and "Right:" in page


# --- bounds written once, every catalog id listed, selection, show

from privbounds.registry import SUMMARY, select  # noqa: E402


def test_the_built_in_papers_have_summaries_scaling_claims_and_errata():
    """What the common checks (privbounds.testing, run over every paper in test_simulators.py)
    check for is there to check: a summary entry, scaling claims, claims on misprints."""
    from privbounds.claims import Scaling

    assert privbounds.get("bns.thm1_1").status == SUMMARY
    assert any(isinstance(c, Scaling) for t in THEOREMS for c in t.claims)
    # the built-in papers have misprints with claims (wlf.lem37, wlf.thm19)
    assert any(c.erratum for t in THEOREMS for c in t.claims)


def test_selection_by_pattern_and_paper():
    assert select(["bns.cor3_*"]) == ["bns.cor3_3", "bns.cor3_4", "bns.cor3_9", "bns.cor3_10"]
    assert "siv.thm3_3" in select(paper="siv") and all(i.startswith("siv.") for i in select(paper="siv"))
    assert select(["*thm3_3"], paper="siv") == ["siv.thm3_3"]
    with pytest.raises(ParameterError, match=r"^no theorem id matches 'bns\.nope\*'"):
        select(["bns.nope*"])
    with pytest.raises(ParameterError, match=r"^--paper must be one of"):
        select(paper="xyz")


def test_show_names_the_files_of_a_theorem(capsys):
    from privbounds import cli

    assert cli.main(["show", "bns.thm2_24"]) == 0
    out = capsys.readouterr().out
    for f in ("privbounds/registry/bns/preliminaries.py", "simulators/bns/subsample.py", "figures/generic.py",
              "bounds/bns.py"):
        assert f in out
    assert "bound privbounds.bounds.bns.n_empirical_alg5 [exact]" in out
