"""What a report page says is true of the record behind it (issue: the report as a
researcher meets it)."""

import json
import re

import privbounds

RUNNABLE = [t.id for t in privbounds.theorems() if t.runnable]


def _claim_blocks(site):
    """(theorem id, verdict of a claim, the HTML of that claim's block) for every claim of
    every runnable theorem of the site."""
    for tid in RUNNABLE:
        rec = json.loads((site / "results" / f"{tid}.json").read_text())
        page = (site / "report" / f"{tid}.html").read_text()
        for v in rec["verdicts"]:
            yield tid, v, page.split(f'id="{v["claim"]}"', 1)[1].split('<div class="claim"', 1)[0]


def test_each_theorem_page_shows_its_own_computation_time(smoke_site):
    seen = set()
    for tid in RUNNABLE:
        rec = json.loads((smoke_site / "results" / f"{tid}.json").read_text())
        page = (smoke_site / "report" / f"{tid}.html").read_text()
        own = round(rec["engine"]["block_seconds"], 1)
        assert f"{own} s of computation in this theorem's own blocks" in page, tid
        if rec["engine"]["blocks_run"]:  # blocks the session's store already held cost 0 s here
            seen.add(own)
    computed = sum(1 for tid in RUNNABLE
                   if json.loads((smoke_site / "results" / f"{tid}.json").read_text())["engine"]["blocks_run"])
    assert len(seen) > 5 or computed < 6  # not one run-wide number repeated on every page


def test_a_custom_grid_is_marked_everywhere_and_replacing_registered_results_warns(tmp_path, capsys):
    from privbounds.cli import main

    out = str(tmp_path)
    assert main(["run", "bns.obs3_2", "--fidelity", "smoke", "--quiet", "--out", out]) == 0
    assert "replacing" not in capsys.readouterr().err
    # replacing registered results by a --set run is refused (tests/core/test_cli.py), unless forced
    assert main(["run", "bns.obs3_2", "--fidelity", "smoke", "--set", "k=1,4", "--quiet", "--out", out,
                 "--force"]) == 0
    err = capsys.readouterr().err
    assert "warning: replacing the registered results of bns.obs3_2" in err and "--set k=1,4" in err
    from privbounds.figures import drawn

    privbounds.plot(["bns.obs3_2"], out=out, png=("bns.obs3_2*",), record=True)  # the headlines: not rendered
    titles = [d["title"] for d in drawn.records(tmp_path / "figures", "bns.obs3_2").values()]
    assert any("custom grid --set k=1,4" in t for t in titles)
    site = privbounds.report(out=out).parent
    for page in ("index.html", "paper-bns.html", "bns.obs3_2.html"):
        assert "custom grid: --set k=1,4" in (site / page).read_text(), page
    # a run at another fidelity or seed over registered results warns too
    assert main(["run", "bns.obs3_2", "--fidelity", "smoke", "--quiet", "--out", out]) == 0
    assert "replacing the custom-grid results of bns.obs3_2 (--set k=1,4)" in capsys.readouterr().err
    assert main(["run", "bns.obs3_2", "--fidelity", "smoke", "--seed", "5", "--quiet", "--out", out]) == 0
    assert "by a run with seed 5 (they have seed 0)" in capsys.readouterr().err


def test_every_verdict_other_than_confirmed_says_why_on_its_page(smoke_site):
    import html
    import re

    checked = 0
    for tid, v, block in _claim_blocks(smoke_site):
        why = re.search(r"<b>Why ([^:]+):</b> ([^<]+)", block)
        if v["verdict"] == "confirmed" and not v.get("finding"):
            assert why is None, (tid, v["claim"])
        else:
            assert why and html.unescape(why.group(1)) == v["verdict"] and len(why.group(2)) > 20, (tid, v["claim"])
            checked += 1
    assert checked > 20


def test_a_headline_figure_drawn_from_some_of_its_theorems_names_the_missing_ones(smoke_site, tmp_path):
    import shutil

    from privbounds.api import plot_papers
    from privbounds.figures import drawn, headline_ids
    from privbounds.figures.common import Files, files

    def texts(folder) -> list[str]:  # the figure texts of every headline drawn in folder
        names = [p.name[:-len(drawn.SUFFIX)] for p in sorted(folder.glob(f"*{drawn.SUFFIX}"))]
        return [" ".join(drawn.load(folder, n)["texts"]) for n in names if n.startswith("paper-")
                or n.endswith(".headline")]
    for paper, keep in (("kmms", "kmms.thm3_5"), ("pap", "pap.thm3_1"), ("bns", "bns.obs3_2")):
        out = tmp_path / paper
        (out / "results").mkdir(parents=True)
        shutil.copy(smoke_site / "results" / f"{keep}.json", out / "results")
        with files(Files(png=False, record=True)):  # laid out and recorded, not rendered
            assert plot_papers({paper}, out)
        missing = sorted(set(headline_ids(paper)) - {keep})
        drawn_texts = texts(out / "figures")
        assert missing and drawn_texts
        for text in drawn_texts:
            assert "Partial: drawn without" in text and missing[0] in text, (paper, text)
    # with every theorem present (the session's site), no such note
    full = texts(smoke_site / "figures")
    assert len(full) >= 5 and not any("Partial" in t for t in full)


def test_reconstructed_constants_are_marked_and_each_paper_says_where_its_formulas_come_from(smoke_site):
    from privbounds.reports.site import origin, sources

    marked = 0
    for tid, v, block in _claim_blocks(smoke_site):
        badge = 'class="badge reconstructed"' in block
        assert badge == (origin(v.get("bound_source")) == "reconstructed"), (tid, v["claim"])
        marked += badge
    assert marked > 10
    for prefix in ("bns", "pap", "kmms", "siv"):
        page = (smoke_site / "report" / f"paper-{prefix}.html").read_text()
        assert "Where the formulas come from" in page
        for s in sources(prefix):
            assert f"<code>{s['name']}</code>" in page
    # no page points a reader to a file outside the project
    for page in (smoke_site / "report").glob("*.html"):
        assert "catalog" not in page.read_text().lower(), page.name


def test_reasons_and_origins_say_what_the_numbers_say():
    from privbounds.record import ClaimResult, parse
    from privbounds.reports.site import origin, verdict_reason

    never = {"claim": "c", "description": "", "bound_kind": None, "bound_source": None, "verdict": "refuted",
             "kind": "success ceiling",
             "details": [{"verdict": "refuted", "label": "d=8", "ceiling": 0.05, "p_hat": 0.005, "p_low": 0.0001,
                          "p_high": 0.03, "trials": 200}]}
    reason = verdict_reason(parse(ClaimResult, never))
    assert reason == "at d=8, the claim says the event never happens, and it happened in 1 of 200 trials"
    above = {**never, "details": [{**never["details"][0], "p_hat": 0.5, "p_low": 0.4, "p_high": 0.6}]}
    assert "lies above the ceiling 0.05" in verdict_reason(parse(ClaimResult, above))
    assert origin("Sivakumar Thm 2.1; constant derived from the proof's union bound") == "reconstructed"
    assert origin("BNS Cor 2.12 via Thm 2.7 (Blumer et al.), constants as used across BNS papers") == "reconstructed"
    assert origin("KMMS Thm 3.5, explicit (RECONSTRUCTED)") == "reconstructed"
    assert origin("Binary-tree histogram (our substitute for BNS Prop 2.21)") == "ours"
    assert origin("BNS Thm 5.1, as stated") == "paper"


def test_python_reproduce_at_smoke_skips_the_check_and_plot_takes_one_id(tmp_path):
    import pytest

    from privbounds.params import ParameterError

    outcome = privbounds.reproduce("siv.thm3_3", fidelity="smoke", out=tmp_path, progress=False)
    assert outcome.exit_code == 0 and outcome.lines == ["check skipped: smoke fidelity has no baseline"]
    assert {p.stem for p in privbounds.plot("siv.thm3_3", out=tmp_path)} == {"siv.thm3_3"}
    with pytest.raises(ParameterError, match="no results for bns.obs3_2"):
        privbounds.plot("bns.obs3_2", out=tmp_path)
    with pytest.raises(ParameterError, match="^jobs must be an integer >= 1"):
        privbounds.plot(out=tmp_path, jobs=0)


def test_long_ceiling_tables_are_summarised_with_the_full_table_folded(smoke_site):
    from privbounds.reports.site import FOLD

    folded = 0
    for tid in RUNNABLE:
        rec = json.loads((smoke_site / "results" / f"{tid}.json").read_text())
        page = (smoke_site / "report" / f"{tid}.html").read_text()
        for v in rec["verdicts"]:
            if v["kind"] != "success ceiling":
                continue
            block = page.split(f'id="{v["claim"]}"', 1)[1].split('<div class="claim"', 1)[0]
            long = len(v["details"]) > FOLD
            assert ('class="summary"' in block) == long and (f"<summary>All {len(v['details'])} points" in block) == long
            if long:  # the summary counts every point, by verdict
                counts = [int(n) for n in re.findall(r'<tr class="[^"]*"><td>[^<]+</td><td>(\d+)</td>',
                                                    block.split("<details>")[0])]
                assert sum(counts) == len(v["details"])
                folded += 1
    assert folded >= 2


def test_a_theorem_may_draw_several_figures_and_stale_parts_are_removed(smoke_out, tmp_path, monkeypatch):
    """A plotter may save parts ``<id>-<part>.png`` beside ``<id>.png``: the page shows each
    with its name, and a part the plotter no longer draws is removed, not shown stale."""
    import shutil

    import privbounds.figures as figures
    from privbounds.registry import get

    tid = "siv.thm3_3"
    out = tmp_path
    (out / "results").mkdir()
    shutil.copy2(smoke_out / "results" / f"{tid}.json", out / "results")
    folder = out / "figures"
    folder.mkdir()
    for name in (f"{tid}-old-panel.png", f"{tid}-old-panel.svg", "siv.thm3_33-other.png"):
        (folder / name).write_bytes(b"stale")

    def fake(spec, theorem, record, out_):
        paths = []
        for stem in (tid, f"{tid}-privacy-curve"):
            for ext in ("png", "svg"):
                (folder / f"{stem}.{ext}").write_bytes(b"\x89PNG fresh")
                paths.append(folder / f"{stem}.{ext}")
        return paths
    monkeypatch.setattr(figures, "call", fake)
    rec = json.loads((out / "results" / f"{tid}.json").read_text())
    figures.draw(get(tid), rec, out)
    assert not (folder / f"{tid}-old-panel.png").exists() and not (folder / f"{tid}-old-panel.svg").exists()
    assert (folder / "siv.thm3_33-other.png").exists()  # another id's file is not touched
    page = privbounds.report(out=out).parent / f"{tid}.html"
    html = page.read_text()
    assert f'src="figures/{tid}.png"' in html and f'src="figures/{tid}-privacy-curve.png"' in html
    assert html.index(f"{tid}.png") < html.index(f"{tid}-privacy-curve.png")
    assert "privacy curve" in html and "old-panel" not in html and "<h2>Figures</h2>" in html
