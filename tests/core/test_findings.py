"""Findings (reports/findings.py, ``privbounds findings``, the report's findings page)."""

import json
import shutil

import pytest

import privbounds
from privbounds import cli
from privbounds.reports.findings import LOOSE


@pytest.fixture
def out(smoke_out, tmp_path):
    dst = tmp_path / "out"
    shutil.copytree(smoke_out / "results", dst / "results")
    return dst


def _edit(out, tid, fn):
    path = out / "results" / f"{tid}.json"
    rec = json.loads(path.read_text())
    fn(rec)
    path.write_text(json.dumps(rec))


def test_every_non_confirmed_claim_is_a_finding_with_its_numbers(out):
    found = privbounds.findings(out)
    verdicts = {(tid, v["claim"]): v["verdict"]
                for tid in privbounds.api.available(out)
                for v in json.loads((out / "results" / f"{tid}.json").read_text()).get("verdicts", [])}
    listed = {(f["theorem"], f["claim"]) for f in found if f["claim"] is not None
              and f["category"] in ("refuted", "erratum", "could-not-fail", "inconclusive", "qualified")}
    # the paper's misprints that no claim tests are errata too, each with its record
    assert all(f["category"] == "erratum" and f["erratum"] for f in found if "erratum" in f)
    # a confirmation decided on an exact value is as plain as any (not a finding)
    assert listed == {k for k, v in verdicts.items() if v not in ("confirmed", "confirmed (exact)")}
    # a bound that could not fail is listed apart from the confirmations that were at risk
    assert all(f["verdict"] == "confirmed (slack >= 100x)" for f in found if f["category"] == "could-not-fail")
    assert all(f["text"] and f["page"].startswith(f["theorem"] + ".html") for f in found)


def test_a_planted_refutation_and_a_loose_bound_are_reported(out):
    def refute(rec):
        v = rec["verdicts"][0]
        v["verdict"] = "refuted"
        for d in v["details"]:
            d["verdict"] = "refuted"
    _edit(out, "bns.thm5_1", refute)

    def loosen(rec):  # every point 20x under its upper bound
        v = next(v for v in rec["verdicts"] if v["kind"] == "upper bound")
        for d in v["details"]:
            d["slack_low"] = d["slack_high"] = 2 * LOOSE
    _edit(out, "siv.thm3_3", loosen)
    found = privbounds.findings(out)
    assert any(f["category"] == "refuted" and f["theorem"] == "bns.thm5_1" and "refuted" in f["text"]
               for f in found)
    assert any(f["category"] == "loose" and f["theorem"] == "siv.thm3_3" for f in found)


def test_the_cli_prints_the_findings_by_category(out, capsys):
    assert cli.main(["findings", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Constants reconstructed by us" in text  # bns has reconstructed constants
    assert cli.main(["findings", "--out", str(out / "nothing")]) == 2


def test_the_report_has_a_findings_page(smoke_site):
    site = smoke_site / "report"
    assert 'href="findings.html"' in (site / "index.html").read_text()
    page = (site / "findings.html").read_text()
    assert "Findings: where theory and experiment part" in page and 'href="bns.' in page
