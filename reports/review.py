"""The figure review: every theorem page and paper page of a built report, rendered by
headless Chromium at a reader's window width, put on contact sheets (one or more per
paper) for a person to look over, with the automated readability checks of the figures
beside them.

    privbounds review --out DIR [--draw] [--jobs 2] [--no-fail]
    python -m privbounds.reports.review --out DIR ...      (the same, without the CLI)

It reads ``DIR/report`` (``privbounds report``; ``--draw`` first redraws every figure with
its drawing record and rebuilds the report) and writes ``DIR/review/``:

- ``shots/<page>.png``: each page at 1400 CSS px wide, its full height;
- ``figures/<page>.png``: the page's figures as drawn there (the thumbnails);
- ``<paper>.png`` (or ``<paper>-1.png``, ``-2``, ...): the contact sheets (reports/sheets.py);
- ``problems.txt``: per figure, the problems that ``privbounds.figures.layout`` found when
  it was drawn (``figures/<name>.drawn.json``), figures shown without such a record, and
  pages whose figure is missing or did not load;
- ``index.html``: the sheets, and a link to each page's screenshot and the page itself;
- ``pages.json``: per page, its height, figures, errors and the thumbnail's region of it.

The exit status is 1 when problems.txt lists anything (``--no-fail``: 0), 2 for a folder
without a report. Pages render in ``--jobs`` browser processes, each rendering many pages
(reports/chromium.py ``Session``).
"""

from __future__ import annotations

import argparse
import fnmatch
import html
import json
import math
import queue
import re
import shutil
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from privbounds.params import ParameterError
from privbounds.reports import chromium

WIDTH = 1400  # CSS pixels: a reader's browser window on a laptop or desktop screen
COLUMNS = 2
MAX_HEIGHT = 6000  # pixels of one sheet: about three screens; a paper with more gets more sheets
PAD = 6  # CSS pixels kept around a page's figures in its thumbnail


@dataclass
class Page:
    """A page of the report: a theorem's (``id`` is the theorem id) or a paper's
    (``id`` is ``paper-<prefix>``)."""

    id: str
    paper: str
    file: Path


@dataclass
class Shot:
    """What rendering a page gave: its screenshot and thumbnail (None without a figure),
    the figures it shows, and what went wrong."""

    page: Page
    shot: Path | None = None
    thumb: Path | None = None
    box: tuple[int, int, int, int] | None = None  # the thumbnail's region of the page, in CSS pixels
    height: int = 0
    figures: list[str] = field(default_factory=list)
    widths: dict[str, tuple[float, int]] = field(default_factory=dict)  # figure -> (shown CSS px, drawn px)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0


def pages(out: Path, patterns=None) -> list[Page]:
    """The paper and theorem pages that the report's index links, in its order (each
    paper's), those whose id matches one of ``patterns`` when given. Read from the index,
    so a page left over from an earlier build is not reviewed."""
    folder = Path(out) / "report"
    index = folder / "index.html"
    if not index.is_file():
        raise ParameterError(f"no report in {folder}: build it with 'privbounds report --out {out}' "
                             "(or review with --draw, which draws the figures and builds it)")
    found = {}
    for href in re.findall(r'href="([^"#?]+)\.html(?:#[^"]*)?"', index.read_text(encoding="utf-8")):
        if href in ("index", "findings") or "/" in href or not (folder / f"{href}.html").is_file():
            continue
        paper = href[len("paper-"):] if href.startswith("paper-") else href.split(".")[0]
        found.setdefault(href, Page(href, paper, folder / f"{href}.html"))
    chosen = [p for p in found.values() if not patterns or any(fnmatch.fnmatchcase(p.id, pat) for pat in patterns)]
    if not chosen:
        raise ParameterError(f"no page of {index} matches {', '.join(patterns)}" if patterns
                             else f"{index} links no theorem or paper page")
    # each paper in the index's order, its own page first: its headline figures open its sheet
    order = {pid: i for i, pid in enumerate(found)}
    papers = list(dict.fromkeys(p.paper for p in found.values()))
    return sorted(chosen, key=lambda p: (papers.index(p.paper), not p.id.startswith("paper-"), order[p.id]))


def _render_one(session: chromium.Session, page: Page, folder: Path, page_scale: float = 1.0) -> Shot:
    """Render ``page``: its full-height screenshot (at ``page_scale``) and the region of
    its figures (at the session's scale: the thumbnail)."""
    started = time.perf_counter()
    shot = Shot(page)
    info = session.load(page.file.resolve().as_uri())
    shot.height = min(info["height"], 30000)  # the browser cannot capture much taller in one piece
    figures = [i for i in info["images"] if (i["src"] or "").startswith("figures/")]
    shot.figures = [Path(i["src"]).stem for i in figures]
    shot.widths = {Path(i["src"]).stem: (i["box"][2] - i["box"][0], i["natural"]) for i in figures if i["natural"]}
    shot.errors += [f"image {i['src']} did not load" for i in info["images"] if not i["loaded"]]
    shot.errors += [t.split(":")[0] for t in info["missing"] if "figure" in t]
    shot.shot = folder / "shots" / f"{page.id}.png"
    shot.shot.write_bytes(session.capture((0, 0, WIDTH, shot.height), page_scale))
    if info["figures"]:
        left, right = math.floor(info["main"][0] - PAD), math.ceil(info["main"][2] + PAD)
        top = max(0, math.floor(min(f[1] for f in info["figures"]) - PAD))
        bottom = min(shot.height, math.ceil(max(f[3] for f in info["figures"]) + PAD))
        shot.box = (left, top, right, bottom)
        shot.thumb = folder / "figures" / f"{page.id}.png"
        shot.thumb.write_bytes(session.capture(shot.box))
    shot.seconds = time.perf_counter() - started
    return shot


def render(todo: list[Page], folder: Path, jobs: int = 2, scale: float = 1.0, page_scale: float = 1.0,
           progress: bool = True) -> list[Shot]:
    """Render every page of ``todo`` in ``jobs`` browser processes at once (each renders
    page after page); the shots in the order of ``todo``. ``scale``: device pixels per CSS
    pixel; ``page_scale``: the whole-page screenshots' size relative to that. A page the
    browser fails on is reported in its shot's errors, and its browser is started anew."""
    for sub in ("shots", "figures"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    work = queue.Queue()
    for i, page in enumerate(todo):
        work.put((i, page))
    done: dict[int, Shot] = {}
    lock = threading.Lock()
    scratch = Path(tempfile.mkdtemp(prefix="privbounds-review-"))

    def worker(k: int) -> None:
        starts = 0
        session = None
        try:
            while True:
                try:
                    i, page = work.get_nowait()
                except queue.Empty:
                    return
                try:
                    if session is None:
                        starts += 1
                        session = chromium.Session(scratch / f"browser{k}-{starts}", WIDTH, scale)
                    shot = _render_one(session, page, folder, page_scale)
                except (chromium.ChromiumError, OSError) as e:
                    # the page is reported as not rendered, and the next one gets a new browser
                    shot = Shot(page, errors=[f"could not render: {e}".splitlines()[0]])
                    if session is not None:
                        session.close()
                    session = None
                with lock:
                    done[i] = shot
                    if progress:
                        _say_progress(len(done), len(todo), shot)
        finally:
            if session is not None:
                session.close()

    threads = [threading.Thread(target=worker, args=(k,), daemon=True) for k in range(max(1, min(jobs, len(todo))))]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return [done[i] for i in range(len(todo)) if i in done]


def _say_progress(n: int, total: int, shot: Shot) -> None:
    width = len(str(total))
    what = f"{shot.height} px, {len(shot.figures)} figure{'s' if len(shot.figures) != 1 else ''}"
    if shot.errors:
        what += f", {'; '.join(shot.errors)}"
    print(f"review: [{n:>{width}}/{total}] {shot.page.id}: {what}, {shot.seconds:.2f} s", flush=True)


def recorded_problems(out: Path) -> dict[str, list[str]]:
    """Every drawing record in ``out/figures`` (figures/drawn.py): figure name -> the
    readability problems found when it was drawn (empty for a readable figure)."""
    from privbounds.figures import drawn

    found = {}
    for path in sorted((Path(out) / "figures").glob(f"*{drawn.SUFFIX}")):
        try:
            found[path.name[:-len(drawn.SUFFIX)]] = list(json.loads(path.read_text())["problems"])
        except (OSError, ValueError, KeyError, TypeError) as e:  # a damaged record is itself a problem
            found[path.name[:-len(drawn.SUFFIX)]] = [f"unreadable drawing record {path.name}: {e}"]
    return found


def problems_text(out: Path, shots: list[Shot], recorded: dict[str, list[str]]) -> tuple[str, int]:
    """The text of problems.txt and how many problems it lists."""
    shown = sorted({f for s in shots for f in s.figures})
    unrecorded = [f for f in shown if f not in recorded]
    bad = {name: lines for name, lines in recorded.items() if lines}
    pages = [s for s in shots if s.errors]
    lines = [f"Figure review of {out}: {len(shots)} pages, {len(shown)} figures shown, "
             f"{len(recorded)} drawing records in {Path(out) / 'figures'}.", ""]
    lines.append("Readability problems found when each figure was drawn (privbounds.figures.layout):")
    lines += [f"{name}:\n" + "\n".join(f"  - {p}" for p in probs) for name, probs in bad.items()] or ["  none"]
    if unrecorded:
        lines += ["", f"Figures shown without a drawing record, so not checked ({len(unrecorded)}; "
                      "review with --draw, or draw with privbounds.plot(record=True)):",
                  *(f"  {name}" for name in unrecorded)]
    if pages:
        lines += ["", "Pages whose figures are missing or did not render:",
                  *(f"  {s.page.id}: {'; '.join(s.errors)}" for s in pages)]
    count = sum(len(v) for v in bad.values()) + len(unrecorded) + sum(len(s.errors) for s in pages)
    lines += text_sizes(out, shots)
    lines += ["", f"{count} problem{'s' if count != 1 else ''}."]
    return "\n".join(lines) + "\n", count


SMALL_TEXT = 11.5  # CSS pixels: legend text below this is listed (the page's own text is 16 px)


def text_sizes(out: Path, shots: list[Shot]) -> list[str]:
    """Informational lines of problems.txt: each figure's smallest legend text as the page
    shows it, in CSS pixels (points / 72 x shown width / drawn width in inches), where it
    is under ``SMALL_TEXT``; and pages that show their figures at different scales, so
    that the same font size reads differently from one figure to the next."""
    from privbounds.figures import drawn

    sizes = []
    for s in shots:
        for name, (css, natural) in s.widths.items():
            try:
                rec = drawn.load(Path(out) / "figures", name)
                pt = min(a["legend_fontsize"] for a in rec["axes"] if a.get("legend_fontsize"))
                shown = pt / 72 * css / rec["width_in"]
            except (OSError, ValueError, KeyError, TypeError, ZeroDivisionError):  # no record, no legend
                continue
            if shown < SMALL_TEXT:
                sizes.append((shown, name, css / natural))
    lines = ["", f"Legend text under {SMALL_TEXT:g} CSS px as the page shows it (informational, not counted; "
                 "the page's text is 16 px):"]
    lines += [f"  {px:4.1f} px  {name} (shown at {100 * scale:.0f}% of its drawn size)"
              for px, name, scale in sorted(sizes)] or ["  none"]
    scales = {s.page.id: {n: css / natural for n, (css, natural) in s.widths.items()} for s in shots}
    mixed = {p: v for p, v in scales.items() if len(v) > 1 and max(v.values()) > 1.15 * min(v.values())}
    if mixed:
        lines += ["", "Pages whose figures are shown at different scales (their text sizes differ; informational):",
                  *(f"  {p}: " + ", ".join(f"{n} {100 * x:.0f}%" for n, x in v.items()) for p, v in mixed.items())]
    return lines


def _cells(shots: list[Shot], paper: str, recorded: dict) -> list:
    """The thumbnails of a paper's pages that show a figure, captioned with the page's id
    and, in red, how many problems its figures have and how many were not checked."""
    from privbounds.reports import sheets  # Pillow: only when sheets are made, not for every command's parser

    cells = []
    for s in shots:
        if s.page.paper != paper or s.thumb is None:
            continue
        n = sum(len(recorded.get(f, [])) for f in s.figures) + len(s.errors)
        unchecked = [f for f in s.figures if f not in recorded]
        caption = s.page.id + (" (headline)" if s.page.id.startswith("paper-") else "")
        if n:
            caption += f" - {n} problem{'s' if n != 1 else ''}"
        if unchecked:
            caption += f" - {len(unchecked)} not checked"
        cells.append(sheets.Cell(s.page.id, s.thumb, caption, alert=bool(n or unchecked)))
    return cells


def make_sheets(shots: list[Shot], folder: Path, recorded: dict, columns: int, max_height: int,
                jobs: int = 2) -> dict:
    """The contact sheets of each paper: paper -> sheet files. Papers in ``jobs`` threads
    (Pillow decodes and encodes PNG without holding the interpreter's lock)."""
    from concurrent.futures import ThreadPoolExecutor

    from privbounds.reports import sheets

    papers = list(dict.fromkeys(s.page.paper for s in shots))
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        done = pool.map(lambda paper: sheets.write(_cells(shots, paper, recorded), folder, paper, columns,
                                                   max_height), papers)
        return dict(zip(papers, done))


def write_index(folder: Path, shots: list[Shot], made: dict, count: int, timing: str) -> Path:
    """``index.html``: the sheets of each paper, then each page's screenshot and page."""
    e = html.escape
    body = [f"<h1>Figure review</h1><p>{e(timing)}</p>",
            f'<p><a href="problems.txt">problems.txt</a>: {count} problem{"s" if count != 1 else ""}.</p>']
    for paper, files in made.items():
        body.append(f"<h2>{e(paper)}</h2>")
        body += [f'<p><a href="{e(f.name)}"><img src="{e(f.name)}" alt="contact sheet {e(f.stem)}"></a></p>'
                 for f in files]
        rows = []
        for s in shots:
            if s.page.paper != paper:
                continue
            shot = f'<a href="shots/{e(s.page.id)}.png">screenshot</a>' if s.shot else "-"
            rows.append(f'<tr><td>{e(s.page.id)}</td><td>{shot}</td><td><a href="../report/{e(s.page.file.name)}">'
                        f'page</a></td><td>{len(s.figures)}</td><td>{e("; ".join(s.errors))}</td></tr>')
        body.append("<table><tr><th>page</th><th>screenshot</th><th>report</th><th>figures</th><th>errors</th></tr>"
                    + "".join(rows) + "</table>")
    style = ("body{font-family:system-ui,sans-serif;margin:1em 2em}img{max-width:100%;border:1px solid #ccc}"
             "td,th{border:1px solid #ddd;padding:.2em .5em}table{border-collapse:collapse}")
    path = folder / "index.html"
    path.write_text(f'<!doctype html><html><head><meta charset="utf-8"><title>Figure review</title>'
                    f"<style>{style}</style></head><body>{''.join(body)}</body></html>\n", encoding="utf-8")
    return path


def _clean(folder: Path) -> None:
    """Remove what an earlier review wrote: a sheet or screenshot no longer made must not
    be shown stale."""
    for sub in ("shots", "figures"):
        shutil.rmtree(folder / sub, ignore_errors=True)
    for f in [*folder.glob("*.png"), *folder.glob("*.json")]:
        f.unlink()


def review(out, jobs: int = 2, patterns=None, draw: bool = False, svg: bool = True, scale: float = 1.0,
           page_scale: float = 1.0, columns: int = COLUMNS, max_height: int = MAX_HEIGHT, progress: bool = True) -> tuple[int, Path]:
    """Review the report in ``out`` (see the module docstring): the number of problems
    listed in problems.txt, and the review's index.html. ``draw``: first redraw every
    figure (``jobs`` at once) with its drawing record, and rebuild the report."""
    out = Path(out)
    if draw:
        from privbounds import api

        started = time.perf_counter()
        api.plot(out=out, jobs=jobs, svg=svg, record=True)
        api.report(out)
        if progress:
            print(f"review: figures drawn and report built in {time.perf_counter() - started:.1f} s", flush=True)
    todo = pages(out, patterns)
    missing = chromium.missing()
    if missing:
        raise ParameterError(missing)
    folder = out / "review"
    folder.mkdir(exist_ok=True)
    _clean(folder)
    started = time.perf_counter()
    shots = render(todo, folder, jobs=jobs, scale=scale, page_scale=page_scale, progress=progress)
    rendered = time.perf_counter() - started
    recorded = recorded_problems(out)
    made = make_sheets(shots, folder, recorded, columns, max(max_height, 1), jobs)
    n_sheets = sum(len(v) for v in made.values())
    timing = (f"{len(shots)} pages rendered in {rendered:.1f} s ({jobs} browser{'s' if jobs != 1 else ''}), "
              f"{n_sheets} sheet{'s' if n_sheets != 1 else ''} in {time.perf_counter() - started - rendered:.1f} s")
    (folder / "pages.json").write_text(json.dumps([
        {"id": s.page.id, "paper": s.page.paper, "height": s.height, "figures": s.figures, "errors": s.errors,
         "shot": s.shot and str(s.shot.relative_to(folder)), "thumb": s.thumb and str(s.thumb.relative_to(folder)),
         "box": s.box, "seconds": round(s.seconds, 3)} for s in shots], indent=1))
    text, count = problems_text(out, shots, recorded)
    (folder / "problems.txt").write_text(text, encoding="utf-8")
    index = write_index(folder, shots, made, count, timing)
    if progress:
        print(f"review: {timing}")
    return count, index


def add_parser(sub, out_opt=None) -> argparse.ArgumentParser:
    """The ``review`` command's options, on the subparsers ``sub`` of a parser."""
    sp = sub.add_parser("review", help="render every theorem and paper page in headless Chromium and write "
                                       "contact sheets and the figures' readability problems to <out>/review")
    sp.add_argument("pages", nargs="*", metavar="PAGE",
                    help="page ids or shell patterns, e.g. 'bns.*' or paper-siv (default: every theorem and paper page)")
    sp.add_argument("--jobs", type=_positive(int), default=2, metavar="N", help="browsers at once (default: 2)")
    sp.add_argument("--draw", action="store_true",
                    help="first redraw every figure with its drawing record and rebuild the report")
    sp.add_argument("--no-svg", dest="svg", action="store_false", help="with --draw: PNG files only")
    sp.add_argument("--no-fail", dest="fail", action="store_false", help="exit 0 even when problems are listed")
    sp.add_argument("--scale", type=_positive(float), default=1.0,
                    help="device pixels per CSS pixel of the screenshots and thumbnails (default: 1)")
    sp.add_argument("--page-scale", type=_positive(float), default=1.0, metavar="SCALE",
                    help="size of the whole-page screenshots relative to --scale; the thumbnails keep "
                         "--scale (default: 1; 0.5 renders about a third faster)")
    sp.add_argument("--columns", type=_positive(int), default=COLUMNS, help=f"thumbnails a row (default: {COLUMNS})")
    sp.add_argument("--max-height", type=_positive(int), default=MAX_HEIGHT, metavar="PX",
                    help=f"height of a sheet before the next one starts (default: {MAX_HEIGHT})")
    sp.add_argument("--quiet", action="store_true", help="no line per page")
    if out_opt is not None:
        out_opt(sp)
    else:
        sp.add_argument("--out", default="privbounds-out", metavar="DIR", help="output folder (default: %(default)s)")
    return sp


def _positive(kind):
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be positive, got {text}")
        return value
    return parse


def run(args) -> int:
    """Run the parsed ``review`` command; its exit status."""
    count, index = review(args.out, jobs=args.jobs, patterns=args.pages or None, draw=args.draw, svg=args.svg,
                          scale=args.scale, page_scale=args.page_scale, columns=args.columns, max_height=args.max_height,
                          progress=not args.quiet)
    print(f"review: {count} problem{'s' if count != 1 else ''} ({index.parent / 'problems.txt'}); "
          f"sheets: {index}")
    return 1 if count and args.fail else 0


def main(argv=None) -> int:
    """``python -m privbounds.reports.review``: the ``review`` command on its own."""
    parser = argparse.ArgumentParser(prog="python -m privbounds.reports.review")
    sub = parser.add_subparsers(dest="command", required=True)
    add_parser(sub)
    args = parser.parse_args(["review", *(sys.argv[1:] if argv is None else argv)])
    try:
        return run(args)
    except ParameterError as e:
        print(f"privbounds review: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
