"""Every command the documentation shows is run here, so the documentation cannot rot.

The pages are ``docs/**/*.md`` and ``README.md``. The convention (docs/testing.md says it
to a contributor):

- A ``console`` block holds commands, each on a line that starts with ``$ `` (a line
  ending in a backslash goes on to the next); its other lines are sample output, not
  compared. A ``python`` block runs as a script. The blocks of a page run in order in one
  folder per page; docs/getting-started.md and the user guide's pages (docs/guide/) share
  one folder, in the order of the navigation of mkdocs.yml. ``cd DIR`` alone on a line changes the folder for the
  page's later commands. Every command must exit 0.
- An HTML comment just before a block, ``<!-- docs-test: ... -->``, says how else to
  treat it: ``exit=N`` (its last command must exit N), ``file=NAME`` (a python block
  written to NAME, not run: the commands after it use it), ``slow``, ``ci`` or
  ``gallery`` (below).
- ``text``, ``toml`` and ``yaml`` blocks are not commands; a block in any other language,
  or in none, fails ``test_every_block_is_of_a_known_kind``, so no command can hide.

How each command is executed or checked:

- by default, here, in the default suite (``test_page_commands``, ``test_user_guide``),
  with the test environment's ``privbounds``, ``python`` and ``pip`` first on the PATH and
  plugins off, as for the rest of the suite. The pages' examples are written to be cheap
  (one theorem at quick fidelity, audits of a few seconds).
- ``slow``: commands that take minutes or change the repository or the environment (the
  quick reproduce of every theorem, a Dask cluster, a new theorem written into the
  source, a plugin installed with pip). ``test_slow_commands`` (``nox -s slow``) runs
  them literally, with every other block of their pages, in a copy of the repository with
  a virtual environment of its own (plugins on, as for a user), so nothing here changes.
  A slow command that two pages show verbatim (the README's quick start is the getting
  started page's) runs once.
- ``ci``: the commands CI runs (the test command, which cannot run inside the tests; the
  documentation build; the quick run and check of every theorem; the example plugin):
  ``test_ci_commands_are_what_ci_runs`` checks that ``.ci/run`` executes each one, the
  same words up to ``.venv/bin/``, ``-q``, ``--quiet`` and ``>/dev/null``.
- ``gallery``: the diffprivlib example of docs/guide/measure.md, which needs the gallery
  extra: tests/gallery/test_gallery.py reads it from the page and runs it (``nox -s
  gallery``); ``test_the_gallery_example_is_the_one_tests_gallery_runs`` checks that it is.
- ``nox -s NAME`` anywhere in the documentation must name a session of noxfile.py
  (``test_nox_sessions_named_exist``); the sessions themselves are the project's own
  commands and are not run from here.
"""

from __future__ import annotations

import ast
import os
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
KINDS = {"console", "python", "text", "toml", "yaml"}
OPTIONS = re.compile(r"^\s*<!-- docs-test: (.*?) -->\s*$")
FENCE = re.compile(r'^(\s*)```(\S*)(?:\s+title="[^"]*")?\s*$')  # a title names the block on the page
TIMEOUT = 300  # seconds for one command of the default suite
SLOW_TIMEOUT = 3600


@dataclass
class Block:
    """One fenced block of a page: its language, text (dedented), options and line."""

    page: Path
    line: int
    kind: str
    text: str
    options: dict = field(default_factory=dict)
    root: Path = ROOT  # the repository (or the slow test's copy of it) the page is in

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(self.root)}:{self.line}"

    @property
    def commands(self) -> list[str]:
        """The ``$ `` lines of a console block, continuation lines joined."""
        out, pending = [], None
        for raw in self.text.splitlines():
            line = raw.rstrip()
            if pending is not None:
                pending += " " + line.rstrip("\\").strip()
                if not line.endswith("\\"):
                    out.append(pending)
                    pending = None
            elif line.startswith("$ "):
                if line.endswith("\\"):
                    pending = line[2:].rstrip("\\").strip()
                else:
                    out.append(line[2:].strip())
        return out


def _options(text: str) -> dict:
    opts = {}
    for word in text.split():
        key, _, value = word.partition("=")
        opts[key] = value or True
    return opts


def blocks(page: Path, root: Path = ROOT) -> list[Block]:
    """The fenced blocks of a markdown page, with the options of the comment before each;
    read from ``root`` (the slow test reads its copy of the repository, a snapshot)."""
    page = root / page.relative_to(ROOT)
    lines = page.read_text().splitlines()
    out, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, kind = m.group(1), m.group(2)
        j = i + 1
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        body = "\n".join(line[len(indent):] if line.startswith(indent) else line.lstrip() for line in lines[i + 1:j])
        before = next((lines[k] for k in range(i - 1, -1, -1) if lines[k].strip()), "")
        opt = OPTIONS.match(before)
        out.append(Block(page, i + 1, kind, body + "\n", _options(opt.group(1)) if opt else {}, root))
        i = j + 1
    return out


def nav_pages() -> list[Path]:
    """The pages of mkdocs.yml's navigation, in its order (README.md first)."""
    text = (ROOT / "mkdocs.yml").read_text()
    nav = text[text.index("\nnav:"):]
    return [README] + [DOCS / p for p in re.findall(r"([\w/.-]+\.md)\s*$", nav, re.M)]


def all_pages() -> list[Path]:
    return [README] + sorted(DOCS.rglob("*.md"))


def _runnable(page: Path) -> bool:
    """Whether the default suite runs a block of the page."""
    return any(b.kind in ("console", "python") and not {"ci", "gallery", "slow"} & set(b.options)
               for b in blocks(page))


# --- what needs no run ---------------------------------------------------------------------------------


def test_every_block_is_of_a_known_kind():
    bad = [f"{b.where}: ```{b.kind or '(no language)'}" for p in all_pages() for b in blocks(p) if b.kind not in KINDS]
    assert not bad, "a fenced block must be console, python, text, toml or yaml:\n" + "\n".join(bad)
    known = {"exit", "file", "slow", "ci", "gallery"}
    odd = [f"{b.where}: {sorted(set(b.options) - known)}" for p in all_pages() for b in blocks(p)
           if set(b.options) - known]
    assert not odd, "unknown docs-test options:\n" + "\n".join(odd)
    stray = [f"{b.where}" for p in all_pages() for b in blocks(p)
             if b.kind == "console" and not b.commands]
    assert not stray, "a console block without a '$ ' command:\n" + "\n".join(stray)


def test_every_page_is_in_the_navigation():
    assert set(all_pages()) == set(nav_pages())


def _sessions() -> set[str]:
    tree = ast.parse((ROOT / "noxfile.py").read_text())
    return {f.name for f in tree.body if isinstance(f, ast.FunctionDef)
            and any("session" in ast.unparse(d) for d in f.decorator_list)}


def test_nox_sessions_named_exist():
    sessions = _sessions()
    assert {"tests", "slow", "docs", "lint"} <= sessions
    named = {(p.relative_to(ROOT), s) for p in all_pages() for s in re.findall(r"nox -s ([a-z][\w-]*)", p.read_text())}
    missing = sorted(f"{p}: nox -s {s}" for p, s in named if s not in sessions)
    assert not missing, missing


def _normalised(command: str) -> str:
    command = command.replace(".venv/bin/", "").replace(">/dev/null", "")
    words = [w for w in command.split() if w not in ("-q", "--quiet")]
    return " ".join(words)


def test_ci_commands_are_what_ci_runs():
    ci = [_normalised(line) for line in (ROOT / ".ci" / "run").read_text().splitlines()
          if line.strip() and not line.lstrip().startswith("#")]
    shown = [(b.where, c) for p in all_pages() for b in blocks(p) if "ci" in b.options for c in b.commands]
    assert len(shown) >= 6
    missing = [f"{where}: {c}" for where, c in shown if not any(_normalised(c) in line for line in ci)]
    assert not missing, ".ci/run does not run:\n" + "\n".join(missing)


def test_the_gallery_example_is_the_one_tests_gallery_runs():
    found = [b for p in all_pages() for b in blocks(p) if "gallery" in b.options]
    assert [b.page for b in found] == [DOCS / "guide" / "measure.md"] and found[0].kind == "python"
    source = (ROOT / "tests" / "gallery" / "test_gallery.py").read_text()
    assert "docs-test: gallery" in source and '"guide" / "measure.md"' in source


def test_the_readme_fits_on_two_screens_and_points_into_the_docs():
    text = README.read_text()
    assert len(text.splitlines()) <= 60
    links = re.findall(r"\]\((docs/[^)#]+)", text)
    assert links and all((ROOT / link).is_file() for link in links), links


# --- running a page ---------------------------------------------------------------------------------


@dataclass
class Runner:
    """Runs blocks in a folder with an environment; keeps the process groups of commands
    left running in the background (``cmd &``) to end them afterwards."""

    cwd: Path
    env: dict
    log: Path
    timeout: float
    background: list = field(default_factory=list)
    done: set = field(default_factory=set)
    slow: bool = False

    def run(self, block: Block) -> None:
        if block.kind == "python":
            if "file" in block.options:
                (self.cwd / block.options["file"]).write_text(block.text)
                return
            script = self.cwd / f"_docs_snippet_{block.line}.py"
            script.write_text(block.text)
            python = "python" if self.slow else shlex.quote(sys.executable)
            self._one(block, f"{python} {script.name}", True)
            return
        commands = block.commands
        for i, cmd in enumerate(commands):
            last = i == len(commands) - 1
            self._one(block, cmd, last)

    def _one(self, block: Block, cmd: str, last: bool) -> None:
        if cmd.startswith("cd ") and len(cmd.split()) == 2:
            self.cwd = (self.cwd / cmd.split()[1]).resolve()
            return
        if self.slow and "slow" in block.options:
            if cmd in self.done:  # shown verbatim on an earlier page: run once
                return
            self.done.add(cmd)
        with self.log.open("a") as out:
            out.write(f"\n$ {cmd}   [{block.where}, in {self.cwd}]\n")
            out.flush()
            proc = subprocess.Popen(["bash", "-c", cmd], cwd=self.cwd, env=self.env, stdout=out,
                                    stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
            if cmd.rstrip().endswith("&"):
                self.background.append(proc.pid)
            start, cpu = time.time(), _children_cpu()
            try:
                rc = proc.wait(timeout=self.timeout)
            except subprocess.TimeoutExpired:
                _end_group(proc.pid)
                raise AssertionError(f"{block.where}: '{cmd}' ran past {self.timeout} s\n{self._tail()}") from None
            out.write(f"[exit {rc}, {time.time() - start:.1f} s, {_children_cpu() - cpu:.1f} s of CPU]\n")
        want = int(block.options.get("exit", 0)) if last else 0
        assert rc == want, f"{block.where}: '{cmd}' exited {rc}, not {want}\n{self._tail()}"

    def _tail(self) -> str:
        return self.log.read_text()[-4000:]

    def end(self) -> None:
        for pgid in self.background:
            _end_group(pgid)


def _children_cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def _end_group(pgid: int) -> None:
    """End the process group a command of ours started (a background server): TERM, then
    KILL after a grace period."""
    for sig, grace in ((signal.SIGTERM, 15.0), (signal.SIGKILL, 0.0)):
        try:
            os.killpg(pgid, sig)
        except ProcessLookupError:
            return
        deadline = time.time() + grace
        while time.time() < deadline:
            try:
                os.killpg(pgid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.2)


def _env(bin_dir: str, plugins: bool) -> dict:
    env = {**os.environ, "MPLBACKEND": "Agg", "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    env["PRIVBOUNDS_NO_PLUGINS"] = "0" if plugins else os.environ.get("PRIVBOUNDS_NO_PLUGINS", "1")
    env.pop("PYTEST_XDIST_WORKER", None)
    return env


def _run_pages(pages, runner: Runner, include_slow=lambda page: False, root: Path = ROOT) -> None:
    """Every block of ``pages`` to run, in order, each page from ``runner``'s folder; the
    slow ones only on the pages ``include_slow`` accepts. What a page left running in the
    background ends with the page."""
    base = runner.cwd
    for page in pages:
        runner.cwd = base
        try:
            for block in blocks(page, root):
                if block.kind not in ("console", "python") or "ci" in block.options or "gallery" in block.options:
                    continue
                if "slow" in block.options and not include_slow(page):
                    continue
                runner.run(block)
        finally:
            runner.end()
            runner.background.clear()


def _shared(page: Path) -> bool:
    """Pages whose commands run in one folder, in order: getting started, then the guide."""
    return page == DOCS / "getting-started.md" or page.parent == DOCS / "guide"


FAST_PAGES = [p for p in nav_pages() if not _shared(p) and _runnable(p)]


@pytest.mark.parametrize("page", FAST_PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_page_commands(page, tmp_path):
    runner = Runner(tmp_path, _env(str(Path(sys.executable).parent), plugins=False), tmp_path / "commands.log",
                    TIMEOUT)
    _run_pages([page], runner)


def test_user_guide(tmp_path):
    """Getting started, then the guide's pages in the navigation's order, in one folder:
    each reads what the pages before it wrote (the report page, the first run's results)."""
    pages = [p for p in nav_pages() if _shared(p)]
    assert len(pages) >= 9
    runner = Runner(tmp_path, _env(str(Path(sys.executable).parent), plugins=False), tmp_path / "commands.log",
                    TIMEOUT)
    _run_pages(pages, runner)


def _sandbox(tmp: Path) -> tuple[Path, Path]:
    """A copy of the repository (its tracked files and the new ones git does not ignore)
    and a virtual environment with it installed (editable, test and dask extras)."""
    repo = tmp / "repo"
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.splitlines()
    for name in files:
        src = ROOT / name
        if src.is_file():
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, repo / name)
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "-e", f"{repo}[test,dask]"], check=True,
                   timeout=SLOW_TIMEOUT)
    return repo, venv


@pytest.mark.slow
def test_slow_commands(tmp_path):
    """The pages with slow blocks, every block of them, in the sandbox, each from the
    copy's root (getting started and the user guide: all of those pages, in order, as in
    the default suite). ``PRIVBOUNDS_DOCS_SLOW=guide/,testing`` runs only the slow blocks
    of the pages whose path holds one of those words (the others' fast blocks still run),
    for a contributor who changed one page."""
    repo, venv = _sandbox(tmp_path)
    env = _env(str(venv / "bin"), plugins=True)
    env["VIRTUAL_ENV"] = str(venv)
    words = [w for w in os.environ.get("PRIVBOUNDS_DOCS_SLOW", "").split(",") if w]

    def chosen(page):
        return not words or any(w in str(page.relative_to(ROOT)) for w in words)
    slow = [p for p in nav_pages() if any("slow" in b.options for b in blocks(p, repo))]
    assert slow
    runner = Runner(repo, env, tmp_path / "commands.log", SLOW_TIMEOUT, slow=True)
    _run_pages([p for p in slow if not _shared(p) and chosen(p)], runner, chosen, repo)
    if any(_shared(p) and chosen(p) for p in slow):
        _run_pages([p for p in nav_pages() if _shared(p)], runner, chosen, repo)
