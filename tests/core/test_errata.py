"""The paper's misprints that no claim tests (``Theorem.errata``): typed records of the
registry, shown by ``privbounds show``, listed by ``privbounds findings`` (text and
--json) under the errata, and on the theorem's page. One smoke run of one theorem
(wlf.lem10) feeds the findings and the report here, not the session's run of all."""

import json
from dataclasses import asdict

import pytest

import privbounds
from privbounds import cli
from privbounds.registry import Erratum, ErratumError, Paper, Theorem, add_paper, entry, get, ids
from privbounds.reports.findings import NO_CLAIM

RUN = "wlf.lem10"  # simulated, with an erratum, quick at smoke fidelity
UNSIMULATED = "wlf.lem14"  # bound-only, with an erratum: its page is shown whenever its paper is


@pytest.fixture(scope="module")
def one_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("errata")
    privbounds.run([RUN], fidelity="smoke", jobs=1, out=out, progress=False, backend="sequential")
    privbounds.report(out=out)
    return out


def _with_errata():
    return [t for t in ids() if get(t).errata]


def test_the_registered_errata_are_typed_and_where_the_brief_put_them():
    have = _with_errata()
    assert {"wlf.lem10", "wlf.prop12", "wlf.lem14", "wlf.ex21", "wlf.ex22", "wlf.thm25", "wlf.prop33",
            "siv.lem3_2", "siv.thm3_3", "siv.thm3_6"} <= set(have)
    for tid in have:
        errata = get(tid).errata
        assert isinstance(errata, tuple) and all(isinstance(e, Erratum) for e in errata), tid
        # a misprint a claim tests is that claim's business, not a record without a claim
        assert not any(c.erratum for c in get(tid).claims), tid


@pytest.mark.parametrize("tid", ["wlf.lem10", "wlf.thm25", "siv.thm3_6"])
def test_show_prints_every_erratum_of_the_entry(tid, tmp_path, capsys):
    assert cli.main(["show", tid, "--out", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert f"errata in the paper ({NO_CLAIM}):" in text
    for e in get(tid).errata:
        assert f"    {e.where}: printed {e.printed}; corrected {e.corrected}; why: {e.why}\n" in text
    assert privbounds.show(tid, None)["errata"] == [asdict(e) for e in get(tid).errata]


def test_show_of_an_entry_without_errata_prints_no_errata_heading(tmp_path, capsys):
    assert not get("wlf.lem8").errata
    assert cli.main(["show", "wlf.lem8", "--out", str(tmp_path)]) == 0
    assert "errata in the paper" not in capsys.readouterr().out


def test_findings_list_the_errata_of_every_theorem_with_a_page(one_run):
    found = [f for f in privbounds.findings(one_run) if f["category"] == "erratum" and f["claim"] is None]
    # the run's theorem and the bound-only entries of its paper have pages; nothing else does
    assert [f["theorem"] for f in found] == [RUN, UNSIMULATED]
    for f in found:
        (e,) = get(f["theorem"]).errata
        assert f["erratum"] == asdict(e) and f["kind"] == "no claim" and f["verdict"] is None
        assert f["text"] == f"{e.line()}; {NO_CLAIM}" and f["numbers"] == {} and f["page"] == f"{f['theorem']}.html#errata"
    # the other findings keep their shape
    assert all("erratum" not in f for f in privbounds.findings(one_run) if f["claim"] is not None)


def test_findings_text_and_json_carry_the_errata(one_run, capsys):
    assert cli.main(["findings", "--out", str(one_run)]) == 0
    text = capsys.readouterr().out
    group = text[text.index("Errata: "):]
    for tid in (RUN, UNSIMULATED):
        (e,) = get(tid).errata
        assert f"  {tid}: {e.line()}; {NO_CLAIM}\n" in group
    assert cli.main(["findings", "--json", "--out", str(one_run)]) == 0
    rows = json.loads(capsys.readouterr().out)
    listed = {r["theorem"]: r["erratum"] for r in rows if r["category"] == "erratum" and r["claim"] is None}
    assert listed == {t: asdict(get(t).errata[0]) for t in (RUN, UNSIMULATED)}


def test_the_theorem_pages_and_the_findings_page_show_the_errata(one_run):
    site = one_run / "report"
    for tid in (RUN, UNSIMULATED):
        page = (site / f"{tid}.html").read_text()
        assert '<section id="errata">' in page and "<h2>Errata in the paper</h2>" in page and NO_CLAIM in page
        (e,) = get(tid).errata
        for text in (e.where, e.printed.replace("'", "&#39;"), e.corrected.replace("'", "&#39;")):
            assert text in page, (tid, text)
    assert "Errata in the paper" not in (site / "wlf.prop11.html").read_text()  # it has none
    findings = (site / "findings.html").read_text()
    assert f'href="{RUN}.html#errata"' in findings and f'href="{UNSIMULATED}.html#errata"' in findings


@pytest.mark.parametrize("field", ["where", "printed", "corrected", "why"])
def test_an_erratum_with_an_empty_field_is_refused_at_registration(field, registry_restored):
    values = {"where": "Lemma 1", "printed": "a", "corrected": "b", "why": "c", field: " "}
    add_paper(Paper("errtest", "A paper for this test"))

    @entry(f"errtest.{field}")
    def _build():
        return Theorem(number="Lemma 1", title="t", statement="s", math="m", status="bound-only", reason="r",
                       errata=(Erratum(**values),))
    with pytest.raises(ErratumError) as e:
        get(f"errtest.{field}")
    msg = str(e.value)
    assert len(msg.splitlines()) == 1
    assert msg.startswith(f"theorem errtest.{field}: erratum at ") and f"{field} must be one non-empty line" in msg


def test_errata_that_are_not_erratum_records_are_refused(registry_restored):
    add_paper(Paper("errtest", "A paper for this test"))

    @entry("errtest.dicts")
    def _build():
        return Theorem(number="Lemma 2", title="t", statement="s", math="m", status="bound-only", reason="r",
                       errata=({"where": "w", "printed": "p", "corrected": "c", "why": "y"},))
    with pytest.raises(TypeError, match=r"^theorem errtest.dicts: errata must be a tuple of Erratum records, "
                                        r"got dict$"):
        get("errtest.dicts")
    with pytest.raises(ErratumError, match="why must be one non-empty line"):
        Erratum("Lemma 3", "p", "c", "two\nlines")
