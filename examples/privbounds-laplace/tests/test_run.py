"""The example paper end to end at smoke fidelity: it runs through privbounds' engine,
every claim gets a verdict, the generic plotter draws its figure and the report gives the
paper and the theorem a page (CI runs it at quick fidelity and checks it against
privbounds_laplace/baselines/quick.json)."""

import os

import pytest

import privbounds
from privbounds import registry

if os.environ.get(registry.NO_PLUGINS, "") not in ("", "0"):
    pytest.skip(f"plugins are off ({registry.NO_PLUGINS} is set)", allow_module_level=True)


def test_the_paper_runs_draws_and_has_its_pages(tmp_path):
    recs = privbounds.run("laplace.*", fidelity="smoke", jobs=1, seed=0, out=tmp_path, progress=False)
    verdicts = {v.claim: v.verdict for v in recs["laplace.thm1"].verdicts}
    assert set(verdicts) == {"upper", "lower", "privacy-count-laplace"}
    assert verdicts["upper"] == "confirmed" and verdicts["privacy-count-laplace"] == "confirmed"
    assert (tmp_path / "figures" / "laplace.thm1.png") in privbounds.plot(out=tmp_path, svg=False)
    privbounds.report(out=tmp_path)
    site = tmp_path / "report"
    assert "laplace.thm1" in (site / "paper-laplace.html").read_text()
    assert "Anderson" in (site / "laplace.thm1.html").read_text()
    assert 'href="laplace.thm1.html"' in (site / "index.html").read_text()
