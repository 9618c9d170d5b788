"""The figure review (privbounds.reports.review): pages rendered by headless Chromium,
contact sheets of their figures, and the summary of the figures' readability problems.

A few pages of the session's smoke site (tests/conftest.py) are reviewed in a copy of its
report, with a readability problem planted in one figure's drawing record. Without
``/usr/bin/chromium`` the browser tests are skipped, except when the environment variable
``CI`` is set, where they fail (as in test_browser.py). The review of every page of the
site runs in the slow session.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from privbounds.reports import chromium, review, sheets

PLANTED = "legend of 'planted' covers 7 drawn points of its panel"


def require_browser() -> None:
    missing = chromium.missing()
    if missing is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"{missing}; CI is set, so the browser must be installed", pytrace=False)
    pytest.skip(missing)


def _copy(site: Path, dest: Path) -> Path:
    """The parts of a built site that the review reads (the report, the drawing records),
    copied: the session's site is shared and never written to."""
    shutil.copytree(site / "report", dest / "report")
    (dest / "figures").mkdir()
    for record in (site / "figures").glob("*.drawn.json"):
        shutil.copy2(record, dest / "figures" / record.name)
    return dest


# The theorem page reviewed: a fixture parameter named ``tid`` of a browser test is what
# tests/conftest.py reads to rasterise that page's figures in the smoke site.
@pytest.fixture(scope="module", params=["bns.thm4_3"])
def tid(request) -> str:
    return request.param


@pytest.mark.browser
def test_a_review_renders_pages_draws_a_sheet_and_lists_problems(smoke_site, tid, tmp_path, capsys):
    """The paper page of bns (its headline figures), one theorem page with parts and one
    bound-only page (no figure), with a problem planted in the record of the theorem's
    figure: the command fails on it, and passes with --no-fail. One test, one review: under
    xdist a shared fixture would review once per worker."""
    require_browser()
    out = _copy(smoke_site, tmp_path)
    record = out / "figures" / f"{tid}.drawn.json"
    data = json.loads(record.read_text())
    record.write_text(json.dumps({**data, "problems": [*data["problems"], PLANTED]}))
    assert review.main(["--out", str(out), "paper-bns", tid, "siv.thm3_6"]) == 1
    # a line per page as it is done (two browsers: in any order)
    said = [line for line in capsys.readouterr().out.splitlines() if line.startswith("review: [")]
    assert sorted(line.split("] ")[1].split(":")[0] for line in said) == sorted(["paper-bns", tid, "siv.thm3_6"])
    _check_shots(out, tid)
    _check_sheet(out, tid)
    _check_problems(out, tid)
    # one page, no figure: still the planted problem (every record is summarised), not a failure here
    assert review.main(["--out", str(out), "--quiet", "--no-fail", "siv.thm3_6"]) == 0
    assert "1 problem" in capsys.readouterr().out


def _check_shots(out: Path, tid: str) -> None:
    pages = {p["id"]: p for p in json.loads((out / "review" / "pages.json").read_text())}
    assert sorted(pages) == sorted(["paper-bns", tid, "siv.thm3_6"])
    for page in pages.values():
        shot = np.asarray(Image.open(out / "review" / page["shot"]).convert("RGB"))
        assert shot.shape[1] == review.WIDTH and shot.shape[0] == page["height"] > 600, f"{page['id']}: {shot.shape}"
        # the footer is the page's last thing: the bottom rows are not the blank of a tall window
        assert (shot[-80:] < 200).any(), f"{page['id']}: the bottom of the screenshot is blank"
        if page["thumb"] is None:
            continue
        # a thumbnail is its region of the page's screenshot, pixel for pixel: one layout, at 1400 px
        x0, y0, x1, y1 = page["box"]
        thumb = np.asarray(Image.open(out / "review" / page["thumb"]).convert("RGB"))
        assert np.array_equal(shot[y0:y1, x0:x1], thumb), f"{page['id']}: the thumbnail is not the page's region"
    assert pages["siv.thm3_6"]["thumb"] is None, "a page without a figure got a thumbnail"
    assert len(pages[tid]["figures"]) == 3 and len(pages["paper-bns"]["figures"]) == 3


def _check_sheet(out: Path, tid: str) -> None:
    folder = out / "review"
    assert sorted(p.name for p in folder.glob("*.png")) == ["bns.png"], "one sheet, of bns only"
    layout = json.loads((folder / "bns.json").read_text())
    assert (layout["columns"], layout["rows"]) == (2, 1)
    assert [c["id"] for c in layout["cells"]] == ["paper-bns", tid]
    sheet = np.asarray(Image.open(folder / "bns.png").convert("RGB"), float)
    assert list(sheet.shape[1::-1]) == layout["size"]
    thumb = Image.open(folder / "figures" / f"{tid}.png")
    # two thumbnails side by side at their own size (never shrunk), a gap around each
    assert layout["size"][0] == sheets.GAP + 2 * (thumb.width + sheets.GAP)
    cells = {c["id"]: c for c in layout["cells"]}
    assert cells["paper-bns"]["caption"] == "paper-bns (headline)" and not cells["paper-bns"]["alert"]
    assert cells[tid]["caption"] == f"{tid} - 1 problem" and cells[tid]["alert"]
    for cell in layout["cells"]:
        x0, y0, x1, y1 = cell["caption_box"]
        text = sheet[y0:y1, x0:x1]
        dark, red = (text.max(axis=-1) < 100).mean(), (text[..., 0] - text[..., 1] > 80).mean()
        assert (red if cell["alert"] else dark) > 0.003, f"{cell['id']}: no caption drawn in its colour"
        x0, y0, x1, y1 = cell["box"]
        pixels = sheet[y0:y1, x0:x1]
        ink = (pixels < 230).any(axis=-1).mean()
        assert ink > 0.03 and pixels.std() > 10, f"{cell['id']}: the thumbnail is blank (ink {ink:.3f})"


def _check_problems(out: Path, tid: str) -> None:
    folder = out / "review"
    text = (folder / "problems.txt").read_text()
    assert f"{tid}:\n  - {PLANTED}" in text
    assert text.rstrip().endswith(" problem.") or text.rstrip().endswith(" problems.")
    page = (folder / "index.html").read_text()
    for ref in ["bns.png", "problems.txt", f"shots/{tid}.png", "shots/siv.thm3_6.png", f"../report/{tid}.html"]:
        assert f'href="{ref}"' in page, ref
        assert (folder / ref).resolve().is_file(), ref


def test_a_folder_without_a_report_is_a_one_line_error(tmp_path, capsys):
    assert review.main(["--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(tmp_path / "report") in err


def test_problems_are_read_from_the_drawing_records(tmp_path):
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "a.drawn.json").write_text(json.dumps({"problems": []}))
    (tmp_path / "figures" / "b.drawn.json").write_text(json.dumps({"problems": [PLANTED]}))
    (tmp_path / "figures" / "c.drawn.json").write_text("{")
    found = review.recorded_problems(tmp_path)
    assert found["a"] == [] and found["b"] == [PLANTED] and "unreadable" in found["c"][0]
    page = review.Shot(review.Page("x.thm1", "x", tmp_path / "x.thm1.html"), figures=["b", "d"])
    text, count = review.problems_text(tmp_path, [page], found)
    assert count == 3  # b's problem, c's unreadable record, d shown without a record
    assert f"b:\n  - {PLANTED}" in text and "\n  d\n" in text


def test_small_legend_text_and_mixed_scales_are_listed_but_not_counted(tmp_path):
    (tmp_path / "figures").mkdir()
    for name, width_in in (("x.thm1", 13.0), ("x.thm1-part", 8.0)):
        record = {"problems": [], "width_in": width_in, "axes": [{"legend_fontsize": 9.0}]}
        (tmp_path / "figures" / f"{name}.drawn.json").write_text(json.dumps(record))
    # drawn at 120 dpi; the wide figure is shrunk to the page's 1152 px, the narrow one not
    page = review.Shot(review.Page("x.thm1", "x", tmp_path / "x.thm1.html"), figures=["x.thm1", "x.thm1-part"],
                       widths={"x.thm1": (1152.0, 1560), "x.thm1-part": (960.0, 960)})
    text, count = review.problems_text(tmp_path, [page], review.recorded_problems(tmp_path))
    assert count == 0
    assert "11.1 px  x.thm1 (shown at 74% of its drawn size)" in text and "px  x.thm1-part" not in text
    assert "x.thm1: x.thm1 74%, x.thm1-part 100%" in text


def test_a_paper_too_tall_for_one_sheet_goes_on_several(tmp_path):
    cells = []
    for i, (w, h) in enumerate([(300, 200), (300, 500), (300, 100), (300, 300), (300, 250)]):
        path = tmp_path / f"t{i}.png"
        Image.new("RGB", (w, h), (255, 255, 255)).save(path)
        cells.append(sheets.Cell(f"p.t{i}", path, f"p.t{i}"))
    # rows of two, as tall as their taller thumbnail: 500, 300 and 250 px, each with its
    # caption and a gap; 1000 px hold the first two rows (964 px), the third starts a sheet
    made = sheets.write(cells, tmp_path, "p", columns=2, max_height=1000)
    assert [m.name for m in made] == ["p-1.png", "p-2.png"]
    rows = [json.loads(m.with_suffix(".json").read_text())["rows"] for m in made]
    assert rows == [2, 1]
    assert all(Image.open(m).height <= 1000 for m in made)
    one = sheets.write(cells, tmp_path, "q", columns=2, max_height=10**6)
    assert [m.name for m in one] == ["q.png"]


@pytest.mark.slow
@pytest.mark.browser
def test_every_page_of_the_site_is_reviewed(smoke_site, tmp_path):
    require_browser()
    out = _copy(smoke_site, tmp_path)
    count, index = review.review(out, jobs=2, progress=False)
    pages = review.pages(out)
    assert len(list((out / "review" / "shots").glob("*.png"))) == len(pages)
    assert {p.paper for p in pages if (out / "review" / "figures" / f"{p.id}.png").exists()} \
        <= {json.loads(j.read_text())["cells"][0]["id"].split(".")[0].removeprefix("paper-")
            for j in (out / "review").glob("*.json") if j.name != "pages.json"}
    assert index.is_file() and count >= 0
