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
