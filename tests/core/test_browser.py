"""The static report, rendered by a real headless Chromium (Debian's ``chromium`` package).

The session's smoke-fidelity site (tests/conftest.py) is read in two ways. Every page's
HTML is checked directly (links, data files, statements and verdicts: theorem pages run
no script, so that is what the browser shows). Pages of every kind (index, findings,
papers, one theorem page per kind of plotter) are opened in the browser through
``file://`` URLs, for console errors, sorting and filtering, badges and painted figures,
so passing these tests also shows that the report needs no web server; every page is
opened in the slow session. Chromium is driven only through its
command line (``--dump-dom`` for the rendered DOM, ``--screenshot`` for pixels), each call
with a fresh profile and everything that could reach the network switched off.

Without ``/usr/bin/chromium`` the tests are skipped, except when the environment variable
``CI`` is set (CI installs the browser), where they fail and say how to install it.

    pytest -m browser tests/core/test_browser.py
"""

from __future__ import annotations

import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit
from urllib.request import url2pathname

import numpy as np
import pytest
from matplotlib.image import imread

import privbounds
from privbounds.claims.verdicts import VERDICTS as VOCABULARY
from privbounds.reports import chromium
from privbounds.reports.chromium import PNG_MAGIC
from privbounds.reports.site import vclass

WINDOW = (1280, 2000)
# The report may show any word of the verdict vocabulary, and no other.
VERDICTS = set(VOCABULARY)
THEOREM_IDS = [t.id for t in privbounds.theorems()]
RUNNABLE_IDS = [t.id for t in privbounds.theorems() if t.runnable]
# The full figure-painting check (two screenshots a page) runs for every theorem in the
# slow session; the default suite paints one page per kind of plotter.
PAINTED = ["siv.thm3_3", "bns.thm2_16", "bns.thm4_3", "bns.cor3_9"]

# Appended to a copy of a page (never to the report itself): once everything has loaded,
# it writes what the browser made of the images and the stylesheet into the DOM, where
# --dump-dom picks it up.
PROBE = """<script>
addEventListener("load", () => {
  const header = document.querySelector("header");
  const result = {
    images: Array.from(document.images, (img) => ({
      src: img.getAttribute("src"), complete: img.complete,
      width: img.naturalWidth, height: img.naturalHeight})),
    headerBackground: header ? getComputedStyle(header).backgroundColor : null,
  };
  const out = document.createElement("pre");
  out.id = "privbounds-probe";
  out.textContent = JSON.stringify(result);
  document.body.appendChild(out);
});
</script>
"""

# Put at the top of <head> in a copy of a page: records every uncaught script error,
# every console.error and console.warn, and every resource that failed to load (error
# events of images, scripts and stylesheets do not bubble, so they are caught in the
# capture phase), then writes them into the DOM once the page has loaded.
CONSOLE = """<script>
(() => {
  const seen = [];
  addEventListener("error", (e) => {
    const t = e.target;
    if (t && t !== window && (t.src || t.href)) seen.push("failed to load " + (t.src || t.href));
    else seen.push("uncaught " + (e.message || e.type));
  }, true);
  addEventListener("unhandledrejection", (e) => seen.push("unhandled rejection " + e.reason));
  for (const level of ["error", "warn"]) {
    const orig = console[level];
    console[level] = (...args) => { seen.push("console." + level + ": " + args.join(" ")); orig.apply(console, args); };
  }
  addEventListener("load", () => {
    const out = document.createElement("pre");
    out.id = "privbounds-console";
    out.textContent = JSON.stringify(seen);
    document.body.appendChild(out);
  });
})();
</script>
"""

# --------------------------------------------------------------------------- the browser

class Browser:
    """Runs /usr/bin/chromium, one process (and one fresh profile) per call."""

    def __init__(self, scratch: Path):
        self.scratch = scratch
        self.calls = self.copies = 0
        self._doms: dict[str, Node] = {}
        self.missing = chromium.missing()

    def require(self) -> None:
        """Fail (under CI) or skip (elsewhere) when there is no browser."""
        if self.missing is None:
            return
        if os.environ.get("CI"):
            pytest.fail(f"{self.missing}; CI is set, so the browser must be installed",
                        pytrace=False)
        pytest.skip(self.missing)

    def _run(self, *args: str) -> str:
        self.calls += 1
        try:
            return chromium.run(args, self.scratch / f"call{self.calls}")
        except chromium.ChromiumError as e:
            pytest.fail(str(e), pytrace=False)

    def dom(self, page: Path) -> Node:
        """The DOM of ``page`` as the browser rendered it (after scripts and loading)."""
        url = page.resolve().as_uri()
        if url not in self._doms:
            html = self._run("--dump-dom", url)
            assert "<body" in html, f"--dump-dom returned no document for {url}:\n{html[:500]}"
            self._doms[url] = parse(html)
        return self._doms[url]

    def dom_query(self, page: Path, query: str) -> Node:
        """The DOM of ``page?query`` (the index's sorting and filtering read the query)."""
        return self.dom_url(f"{page.resolve().as_uri()}?{query}")

    def dom_url(self, url: str) -> Node:
        if url not in self._doms:
            html = self._run("--dump-dom", url)
            assert "<body" in html, f"--dump-dom returned no document for {url}:\n{html[:500]}"
            self._doms[url] = parse(html)
        return self._doms[url]

    def screenshot(self, page: Path, png: Path) -> np.ndarray:
        self._run(f"--screenshot={png}", f"--window-size={WINDOW[0]},{WINDOW[1]}",
                  page.resolve().as_uri())
        assert png.is_file() and png.read_bytes()[:8] == PNG_MAGIC, f"no screenshot written to {png}"
        return imread(png)

    def copy(self, page: Path, head: str = "", body: str = "") -> Path:
        """A copy of ``page`` outside the report that resolves every URL exactly as the page
        does (through <base>), with ``head`` and ``body`` appended to those elements."""
        html = page.read_text(encoding="utf-8")
        base = f'<base href="{page.resolve().parent.as_uri()}/">'
        html, n_head = re.subn(r"<head[^>]*>", lambda m: m.group(0) + base + head, html, count=1)
        html, n_body = re.subn(r"</body>", lambda m: body + m.group(0), html, count=1)
        assert n_head == n_body == 1, f"{page} has no <head> or no </body>"
        self.copies += 1
        copy = self.scratch / f"copy{self.copies}-{page.name}"
        copy.write_text(html, encoding="utf-8")
        return copy

    def console(self, page: Path) -> tuple[Node, list[str]]:
        """The rendered DOM of ``page`` and what went wrong while the browser loaded it:
        uncaught errors, console errors and warnings, resources that failed to load."""
        dom = self.dom(self.copy(page, head=CONSOLE))
        found = dom.find(id="privbounds-console")
        assert found is not None, f"the console probe did not run in the copy of {page}"
        return dom, json.loads(found.text(normalize=False))

    def probe(self, page: Path) -> tuple[Node, dict]:
        """The rendered DOM of ``page`` and what the browser loaded for it: naturalWidth of
        each image, computed style of the header (a script in a copy of the page reports
        them into the DOM; the copy's DOM is the page's, with that script, its report and
        a <base> added)."""
        dom = self.dom(self.copy(page, body=PROBE))
        found = dom.find(id="privbounds-probe")
        assert found is not None, f"the probe script did not run in the copy of {page}"
        return dom, json.loads(found.text(normalize=False))


# --------------------------------------------------------------------------- a small DOM

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "source", "track", "wbr"}


class Node:
    def __init__(self, tag: str, attrs: dict, parent: Node | None = None):
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node | str] = []

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def iter(self):
        yield self
        for c in self.children:
            if isinstance(c, Node):
                yield from c.iter()

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs) -> list[Node]:
        return [n for n in self.iter()
                if (tag is None or n.tag == tag) and (cls is None or cls in n.classes)
                and all(n.attrs.get(k) == v for k, v in attrs.items())]

    def find(self, tag: str | None = None, cls: str | None = None, **attrs) -> Node | None:
        found = self.find_all(tag, cls, **attrs)
        return found[0] if found else None

    def text(self, normalize: bool = True) -> str:
        parts = []
        for c in self.children:
            parts.append(c if isinstance(c, str) else c.text(normalize=False))
        s = "".join(parts)
        return " ".join(s.split()) if normalize else s

    def __repr__(self):
        return f"<{self.tag} {self.attrs}>"


class _TreeBuilder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.cur = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: (v if v is not None else "") for k, v in attrs}, self.cur)
        self.cur.children.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Node(tag, {k: v or "" for k, v in attrs}, self.cur))

    def handle_endtag(self, tag):
        n = self.cur
        while n is not self.root and n.tag != tag:
            n = n.parent
        if n is not self.root:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.children.append(data)


def parse(html: str) -> Node:
    b = _TreeBuilder()
    b.feed(html)
    b.close()
    return b.root


def norm(s: str) -> str:
    return " ".join(str(s).split())


def section(dom: Node, heading: str) -> Node:
    """The <section> whose <h2> reads ``heading``."""
    for s in dom.find_all("section"):
        h2 = s.find("h2")
        if h2 is not None and h2.text() == heading:
            return s
    raise AssertionError(f"no section headed {heading!r}")


def resolve(page: Path, ref: str) -> Path:
    """The local file a relative URL in ``page`` points to; fails for anything that would
    need a server or the network (absolute http(s) URLs, root-relative paths)."""
    assert ref, f"empty URL in {page.name}"
    assert not ref.startswith("/"), f"{page.name}: root-relative URL {ref!r} breaks under file://"
    url = urlsplit(urljoin(page.resolve().as_uri(), ref))
    assert url.scheme == "file", f"{page.name}: {ref!r} is not a local file"
    return Path(url2pathname(url.path))


# --------------------------------------------------------------------------- fixtures

@pytest.fixture(scope="module")
def browser(tmp_path_factory) -> Browser:
    return Browser(tmp_path_factory.mktemp("chromium"))


class Site:
    def __init__(self, out: Path):
        self.out = out
        self.dir = out / "report"
        self.index = self.dir / "index.html"
        self.shots = out / "screenshots"
        self.shots.mkdir(exist_ok=True)

    def page(self, tid: str) -> Path:
        return self.dir / f"{tid}.html"

    def record(self, tid: str) -> dict:
        return json.loads((self.dir / "data" / f"{tid}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def site(browser, smoke_site) -> Site | None:
    """The one smoke-fidelity site of the session (tests/conftest.py)."""
    if browser.missing:
        return None  # each test then fails or skips through browser.require()
    s = Site(smoke_site)
    assert s.index.is_file()
    return s


# --------------------------------------------------------------------------- tests

@pytest.mark.browser
def test_index_lists_every_theorem_with_its_verdicts(browser, site):
    browser.require()
    dom = browser.dom(site.index)
    table = dom.find("table", cls="index")
    assert table is not None, "index.html has no theorem table"
    rows = {}
    for tr in table.find("tbody").find_all("tr"):
        link = tr.find("td").find("a")
        assert link is not None, f"index row without a link: {tr.text()}"
        rows[link.text()] = (tr, link)
    assert sorted(rows) == sorted(THEOREM_IDS), "index does not list exactly the registered theorems"

    for tid in THEOREM_IDS:
        tr, link = rows[tid]
        assert link.attrs.get("href") == f"{tid}.html"
        assert resolve(site.index, link.attrs["href"]) == site.page(tid).resolve()
        assert site.page(tid).is_file()
        badges = tr.find_all("span", cls="v")
        if tid not in RUNNABLE_IDS:  # bound-only / summary: one badge naming the status
            status = privbounds.get(tid).status
            assert [b.text() for b in badges] == [status] and "summary" in badges[0].classes
            continue
        expected = site.record(tid)["verdicts"]
        assert len(badges) == len(expected), f"{tid}: {len(badges)} badges for {len(expected)} claims"
        for badge, v in zip(badges, expected):
            assert v["verdict"] in VERDICTS
            assert badge.text() == v["verdict"], f"{tid}/{v['claim']}: badge says {badge.text()!r}"
            assert vclass(v["verdict"]) in badge.classes, f"{tid}/{v['claim']}: badge not styled as {v['verdict']}"
            name = badge.parent.find("a", cls="cname")  # the claim's name, visible beside it
            assert name is not None and name.text() == v["claim"], f"{tid}: badge of {v['claim']} is not named"
            assert name.attrs.get("href") == f"{tid}.html#{v['claim']}"


def theorem_dom(site: Site, tid: str) -> Node:
    """A theorem page's DOM read from its HTML: a theorem page runs no script, so the
    browser renders exactly this (the console test renders a theorem page of every kind
    of plotter in Chromium)."""
    html = site.page(tid).read_text(encoding="utf-8")
    assert "<script" not in html, f"{tid}: a theorem page now runs a script; read it through the browser"
    return parse(html)


@pytest.mark.parametrize("tid", THEOREM_IDS)
def test_theorem_page_shows_statement_and_every_verdict(smoke_site, tid):
    site = Site(smoke_site)
    dom = theorem_dom(site, tid)
    h1 = dom.find("h1")
    assert h1 is not None and h1.text().startswith(f"{tid}:")

    if tid not in RUNNABLE_IDS:
        thm = privbounds.get(tid)
        statement = section(dom, "Statement").text()
        assert norm(thm.statement) in statement and norm(thm.math) in statement
        why = section(dom, f"Not simulated on its own ({thm.status})").text()
        assert norm(thm.reason) in why and all(other in why for other in thm.tested_by)
        return
    rec = site.record(tid)
    statement = section(dom, "Statement").text()
    assert norm(rec["statement"]) in statement
    assert norm(rec["math"]) in statement

    verdicts = section(dom, "Verdicts")
    claims = verdicts.find_all("div", cls="claim")
    assert [c.attrs.get("id") for c in claims] == [v["claim"] for v in rec["verdicts"]]
    for div, v in zip(claims, rec["verdicts"]):
        badge = div.find("h3").find("span", cls="v")
        assert badge is not None and badge.text() == v["verdict"] and vclass(v["verdict"]) in badge.classes, \
            f"{tid}/{v['claim']}: verdict badge missing or wrong"
        assert norm(v["description"]) in div.text()
        assert div.find("table") is not None or "No fit:" in div.text(), \
            f"{tid}/{v['claim']}: neither a table nor a reason"


@pytest.mark.browser
@pytest.mark.parametrize("tid", [pytest.param(t, marks=() if t in PAINTED else pytest.mark.slow)
                                 for t in RUNNABLE_IDS])
def test_theorem_figure_is_loaded_and_painted(browser, site, tid):
    browser.require()
    page = site.page(tid)
    # one browser call gives the rendered page and what it loaded (the probe's copy)
    dom, probe = browser.probe(page)
    # one figure, or the figure and its parts (<id>-<part>.png) under "Figures"
    parts = sorted(p.stem for p in (site.dir / "figures").glob(f"{tid}-*.png"))
    imgs = section(dom, "Figures" if parts else "Figure").find_all("img")
    assert [i.attrs.get("src") for i in imgs] == [f"figures/{s}.png" for s in [tid, *parts]], \
        f"{tid}: figures on the page {[i.attrs.get('src') for i in imgs]}, parts on disk {parts}"
    loaded = {i["src"]: i for i in probe["images"]}
    for img in imgs:
        src = img.attrs.get("src", "")
        png = resolve(page, src)
        assert png.is_file(), f"{tid}: figure {src} does not exist next to the page"
        assert png.read_bytes()[:8] == PNG_MAGIC, f"{tid}: {src} is not a PNG"
        pixels = imread(png)
        assert pixels.shape[0] > 100 and pixels.shape[1] > 100

        # What the browser itself made of it: the image decoded at its full size and the
        # stylesheet applied, both through file:// URLs.
        assert src in loaded, f"{tid}: probe saw images {list(loaded)}"
        assert loaded[src]["complete"] and loaded[src]["width"] > 0, f"{tid}: {src} did not load: {loaded[src]}"
        assert (loaded[src]["height"], loaded[src]["width"]) == pixels.shape[:2]
    assert probe["headerBackground"] not in (None, "rgba(0, 0, 0, 0)", "transparent"), \
        f"{tid}: style.css not applied (header background {probe['headerBackground']})"

    shot = browser.screenshot(page, site.shots / f"{tid}.png")
    assert shot.shape[:2] == (WINDOW[1], WINDOW[0])
    rgb = shot[..., :3].astype(float)
    ink = (rgb < 0.9).any(axis=-1).mean()
    assert ink > 0.05, f"{tid}: screenshot is {100 * (1 - ink):.1f}% white"
    assert rgb.std() > 0.05, f"{tid}: screenshot is nearly uniform (std {rgb.std():.3f})"

    # The figure is really painted: hiding the image (same layout) changes a good part of
    # the screenshot. A broken image would change only its small icon.
    hidden = browser.copy(page, head="<style>img { visibility: hidden; }</style>")
    blank = browser.screenshot(hidden, site.shots / f"{tid}-hidden.png")[..., :3].astype(float)
    painted = (np.abs(rgb - blank) > 0.05).any(axis=-1).mean()
    assert painted > 0.01, f"{tid}: the figure covers only {100 * painted:.2f}% of the screenshot"


@pytest.mark.parametrize("tid", RUNNABLE_IDS)
def test_data_links_point_to_the_files(smoke_site, tid):
    site = Site(smoke_site)
    page = site.page(tid)
    links = section(theorem_dom(site, tid), "Data and method").find_all("a")
    by_ext = {}
    for a in links:
        href = a.attrs.get("href", "")
        by_ext.setdefault(Path(urlsplit(href).path).suffix, []).append((a.text(), href))
    assert set(by_ext) >= {".csv", ".json"}, f"{tid}: data links {links}"

    (text, href), = by_ext[".csv"]
    assert "CSV" in text
    csv = resolve(page, href)
    assert csv.is_file(), f"{tid}: {href} does not exist relative to {page.name}"
    lines = csv.read_text(encoding="utf-8").splitlines()
    assert "theorem" in lines[0].split(",") and len(lines) > 1, f"{tid}: {href} is not the trials table"
    assert all(line.split(",")[lines[0].split(",").index("theorem")] == tid for line in lines[1:3])

    (text, href), = by_ext[".json"]
    assert "JSON" in text
    js = resolve(page, href)
    assert js.is_file(), f"{tid}: {href} does not exist relative to {page.name}"
    assert json.loads(js.read_text(encoding="utf-8"))["id"] == tid


def test_every_link_and_resource_works_from_file_urls(smoke_site):
    """No server needed: every href and src of every page of the site (index, papers,
    findings, theorems) is relative and names a file that exists in the report folder.
    Read from the HTML files (the pages' script sorts and filters rows, it adds no link)."""
    folder = smoke_site / "report"
    pages = sorted(folder.glob("*.html"))
    assert folder / "index.html" in pages and len(pages) >= len(THEOREM_IDS)
    for page in pages:
        dom = parse(page.read_text(encoding="utf-8"))
        refs = ([a.attrs.get("href", "") for a in dom.find_all("a")]
                + [link.attrs.get("href", "") for link in dom.find_all("link")]
                + [el.attrs.get("src", "") for el in dom.find_all() if "src" in el.attrs])
        assert refs, f"{page.name}: no links at all"
        for ref in refs:
            if ref.startswith("#"):
                continue
            target = resolve(page, ref)
            assert target.is_file(), f"{page.name}: {ref!r} -> {target} does not exist"
            assert folder.resolve() in target.resolve().parents, f"{page.name}: {ref!r} leaves the report folder"


# Every kind of page loads in the default suite (one theorem page per kind of plotter, and
# one bound-only page); every page of the site in the slow session.
CONSOLE_PAGES = ["index", "findings", "paper-bns", "paper-pap", "paper-kmms", "paper-siv", *PAINTED, "siv.thm3_6"]


@pytest.mark.browser
@pytest.mark.parametrize("name", [*CONSOLE_PAGES, pytest.param("*", marks=pytest.mark.slow)])
def test_pages_load_without_console_errors(browser, site, name):
    """A page (``*``: every page of the site) loads in the browser without a script error,
    a console error or warning, or a resource that fails to load."""
    browser.require()
    pages = sorted(site.dir.glob("*.html")) if name == "*" else [site.dir / f"{name}.html"]
    for page in pages:
        assert page.is_file(), page
        _, errors = browser.console(page)
        assert not errors, f"{page.name}: {errors}"


@pytest.mark.browser
def test_the_console_check_catches_script_errors_and_missing_files(browser, site, tmp_path):
    """The check above can fail: a page with a planted script error, a console error and
    a missing image reports all three."""
    browser.require()
    planted = tmp_path / "planted.html"
    planted.write_text(site.index.read_text(encoding="utf-8").replace(
        "</body>", '<img src="figures/no-such-figure.png"><script>console.error("planted");'
        "notDefinedAnywhere();</script></body>"), encoding="utf-8")
    page = site.dir / "planted-copy.html"
    try:
        page.write_text(planted.read_text(encoding="utf-8"), encoding="utf-8")
        _, errors = browser.console(page)
    finally:
        page.unlink()
    text = " | ".join(errors)
    assert "no-such-figure.png" in text and "console.error: planted" in text and "notDefinedAnywhere" in text


def _visible_rows(dom: Node) -> list[Node]:
    return [tr for tr in dom.find("table", id="theorems").find("tbody").find_all("tr") if "hidden" not in tr.attrs]


@pytest.mark.browser
def test_index_sorts_and_filters_in_the_browser(browser, site):
    """table.js, run by the browser from a file:// URL: a filter word, a verdict and a sort
    column read from the query, as a bookmarked view would give them."""
    browser.require()
    from privbounds.reports.site import natural_key

    def shown(dom):
        return [tr.find("td").find("a").text() for tr in _visible_rows(dom)]

    default = shown(browser.dom(site.index))
    assert sorted(default) == sorted(THEOREM_IDS)
    assert default == THEOREM_IDS  # each paper's own order: thm2_7 before thm2_11, thm1_1 first
    full = browser.dom(site.index)
    dom = browser.dom_query(site.index, "q=kmms.thm")  # any row whose text holds it
    ids = shown(dom)
    want = [tr.find("td").find("a").text() for tr in _visible_rows(full) if "kmms.thm" in tr.text().lower()]
    assert ids == want and "kmms.thm3_5" in ids and not any(i.startswith("bns.") for i in ids)
    assert dom.find(id="filter-count").text() == f"{len(ids)} of {len(THEOREM_IDS)} shown"
    dom = browser.dom_query(site.index, "verdict=inconclusive")
    want = [t for t in RUNNABLE_IDS if any(v["verdict"] == "inconclusive" for v in site.record(t)["verdicts"])]
    assert want and sorted(shown(dom)) == sorted(want)
    dom = browser.dom_query(site.index, "sort=id&dir=desc")
    assert shown(dom) == sorted(THEOREM_IDS, key=natural_key, reverse=True)
    th = dom.find("th", **{"data-col": "id"})
    assert th.attrs.get("aria-sort") == "descending"
    # the overall count of verdicts at the top agrees with the records
    total = dom.find("p", cls="totals").text()
    n = sum(len(site.record(t)["verdicts"]) for t in RUNNABLE_IDS)
    assert f"{len(RUNNABLE_IDS)} theorems with results, {n} claims" in total


@pytest.mark.browser
def test_badges_for_custom_grids_and_failed_runs_appear_where_they_should(browser, tmp_path, monkeypatch):
    browser.require()
    from privbounds.registry import get

    privbounds.run(["bns.obs3_2"], fidelity="smoke", out=tmp_path, progress=False, overrides={"k": [1, 4]})

    def boom(self, point, n, trials, rng):
        raise RuntimeError("planted failure")
    monkeypatch.setattr(type(get("siv.thm3_3").simulator), "run_trials", boom)
    from privbounds.api import TheoremsFailed

    with pytest.raises(TheoremsFailed):
        privbounds.run(["siv.thm3_3"], fidelity="smoke", out=tmp_path, progress=False, backend="sequential")
    privbounds.plot(out=tmp_path)
    index = privbounds.report(out=tmp_path)
    dom = browser.dom(index)
    rows = {tr.find("td").find("a").text(): tr for tr in _visible_rows(dom)}
    badge = rows["bns.obs3_2"].find("span", cls="override")
    assert badge is not None and badge.text() == "custom grid: --set k=1,4"
    assert rows["siv.thm3_3"].find("span", cls="failed") is not None
    assert all(tr.find("span", cls="override") is None for tid, tr in rows.items() if tid != "bns.obs3_2")
    page = browser.dom(index.parent / "bns.obs3_2.html")
    assert page.find("span", cls="override") is not None
    paper = browser.dom(index.parent / "paper-bns.html")
    assert len(paper.find_all("span", cls="override")) == 1
