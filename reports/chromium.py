"""Headless Chromium (Debian's ``chromium`` package) driven from Python, for looking at
the report as a reader's browser draws it: the browser tests (tests/core/test_browser.py)
and the figure review (reports/review.py).

Two ways, both with the same switches (``FLAGS``: headless, nothing that could reach the
network) and a fresh profile and home folder per browser process:

- ``run``: one process per call, the command line only (``--dump-dom``,
  ``--screenshot``): simple, about 1-2 s a call, most of it the browser's start;
- ``Session``: one process that renders many pages, spoken to over
  ``--remote-debugging-pipe`` (the DevTools protocol as NUL-terminated JSON on file
  descriptors 3 and 4, so no port is opened and no client library is needed): about 0.4 s
  a page, full page height in one capture.
"""

from __future__ import annotations

import base64
import json
import math
import os
import select
import signal
import subprocess
import time
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TIMEOUT = 45  # seconds for one browser call; a normal one takes about one second
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


class ChromiumError(RuntimeError):
    """The browser failed, timed out or answered with an error."""


def missing() -> str | None:
    """Why there is no browser to run, or None when there is one."""
    if CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK):
        return None
    return f"{CHROMIUM} not found: it needs Debian's chromium package (apt-get install -y chromium)"


def fresh(work: Path) -> tuple[Path, dict]:
    """A new profile folder under ``work`` and an environment whose home is there too: no
    call sees what an earlier one left (cookies, cache, crash reports)."""
    profile, home = work / "profile", work / "home"
    profile.mkdir(parents=True)
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_CACHE_HOME": str(home / ".cache")}
    return profile, env


def _kill(proc: subprocess.Popen) -> None:
    """End the browser and every helper process it started (its own session)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def run(args, work: Path, timeout: float = TIMEOUT) -> str:
    """Run one browser process with ``args`` (a URL and e.g. ``--dump-dom``), a fresh
    profile in ``work``; its standard output."""
    profile, env = fresh(work)
    cmd = [str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", *args]
    # Own session, so that on a timeout the browser and all its helpers go together.
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, start_new_session=True)
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(proc)
        proc.communicate()
        raise ChromiumError(f"chromium took over {timeout} s: {' '.join(cmd)}") from None
    if proc.returncode != 0:
        tail = "\n".join(stderr.splitlines()[-20:])
        raise ChromiumError(f"chromium exited with {proc.returncode}: {' '.join(cmd)}\n{tail}")
    return stdout


# What a page is made of, read once it has loaded: its full height, the box of its main
# column, each figure (its box and its image's), and the "no figure yet" notes.
PROBE = """JSON.stringify((() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return [r.left + scrollX, r.top + scrollY, r.right + scrollX, r.bottom + scrollY]; };
  const main = document.querySelector("main") || document.body;
  const pad = getComputedStyle(main);
  const m = box(main);
  return {
    // the body's bottom, not the document's scroll height: a short page is not padded to the window
    height: Math.ceil(document.body.getBoundingClientRect().bottom + scrollY),
    main: [m[0] + parseFloat(pad.paddingLeft), m[1], m[2] - parseFloat(pad.paddingRight), m[3]],
    figures: Array.from(document.querySelectorAll("figure"), (f) => box(f)),
    images: Array.from(document.images, (i) => ({src: i.getAttribute("src"), box: box(i),
      natural: i.naturalWidth, loaded: i.complete && i.naturalWidth > 0})),
    missing: Array.from(document.querySelectorAll(".missing"), (e) => e.textContent.trim()),
    title: document.title,
  };
})())"""


class Session:
    """One browser process that renders pages one after another (see the module
    docstring); a context manager, which ends the process however the block ends."""

    def __init__(self, work: Path, width: int = 1400, scale: float = 1.0, timeout: float = TIMEOUT):
        self.width, self.scale, self.timeout = width, scale, timeout
        profile, env = fresh(work)
        self._log = open(work / "stderr.txt", "wb")  # closed in close()
        ours_r, theirs_w = os.pipe()  # what the browser writes (its fd 4), we read
        theirs_r, ours_w = os.pipe()  # what we write, the browser reads (its fd 3)
        # The browser reads and writes fds 3 and 4 exactly; a shell puts the pipes there (no
        # preexec_fn, which is unsafe once threads run). Bash: dash's redirections take one
        # digit, and a second browser's pipes are past fd 9.
        shell = f'exec "$@" 3<&{theirs_r} 4>&{theirs_w} {theirs_r}<&- {theirs_w}>&-'
        cmd = ["/bin/bash", "-c", shell, "bash", str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}",
               "--remote-debugging-pipe", "about:blank"]
        self._proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log, env=env,
                                      pass_fds=(theirs_r, theirs_w), start_new_session=True)
        os.close(theirs_r)
        os.close(theirs_w)
        self._r, self._w = ours_r, ours_w
        self._buf, self._id, self._session = b"", 0, None
        try:
            target = self.call("Target.createTarget", url="about:blank")["targetId"]
            self._session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
            self.call("Page.enable")
            # no scrollbar: the page is laid out at the window's full width, whatever its height
            self.call("Emulation.setScrollbarsHidden", hidden=True)
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._proc.poll() is None:
            try:
                self._send("Browser.close", {}, session=False)
                self._proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired, ChromiumError):
                pass
        _kill(self._proc)
        self._proc.wait()
        for fd in (self._r, self._w):
            try:
                os.close(fd)
            except OSError:
                pass
        self._r = self._w = -1
        self._log.close()

    def _send(self, method: str, params: dict, session: bool = True) -> int:
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params}
        if session and self._session is not None:
            msg["sessionId"] = self._session
        data = json.dumps(msg).encode() + b"\0"
        try:
            while data:
                data = data[os.write(self._w, data):]
        except OSError as e:  # the browser has gone (a broken pipe)
            raise ChromiumError(f"chromium is not running ({e}; exit {self._proc.poll()}); {self._log.name}") from e
        return self._id

    def _receive(self, deadline: float) -> dict:
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._r], [], [], left)[0]:
                raise ChromiumError(f"chromium did not answer within {self.timeout} s")
            chunk = os.read(self._r, 1 << 20)
            if not chunk:
                raise ChromiumError(f"chromium closed its pipe (exit {self._proc.poll()}); {self._log.name}")
            self._buf += chunk
        message, self._buf = self._buf.split(b"\0", 1)
        return json.loads(message)

    def call(self, method: str, **params) -> dict:
        """Send one command and wait for its answer (events meanwhile are dropped)."""
        sent = self._send(method, params)
        deadline = time.monotonic() + self.timeout
        while True:
            msg = self._receive(deadline)
            if msg.get("id") == sent:
                if "error" in msg:
                    raise ChromiumError(f"{method}: {msg['error'].get('message', msg['error'])}")
                return msg["result"]

    def load(self, url: str) -> dict:
        """Open ``url`` and wait for its load event (images and scripts done); what the
        page is made of (``PROBE``)."""
        self._window(1000)  # every page laid out in the same window, whatever the last one's height
        sent = self._send("Page.navigate", {"url": url})
        deadline = time.monotonic() + self.timeout
        answered = loaded = False
        while not (answered and loaded):
            msg = self._receive(deadline)
            if msg.get("id") == sent:
                if "error" in msg or msg["result"].get("errorText"):
                    raise ChromiumError(f"cannot open {url}: {msg.get('error') or msg['result']['errorText']}")
                answered = True
            # an event of a load started before this one carries no way to tell it apart,
            # but loads here never overlap: each waits for its own event
            loaded = loaded or msg.get("method") == "Page.loadEventFired"
        # A window as tall as the page: every capture is then a crop of one layout. (With
        # captureBeyondViewport the browser lays the page out again for each clip, at the
        # clip's width, so that a region's capture is not what the full page shows.) The
        # page is measured again in that window, where its boxes are final.
        self._window(self._probe()["height"])
        return self._probe()

    def _probe(self) -> dict:
        return json.loads(self.call("Runtime.evaluate", expression=PROBE, returnByValue=True)["result"]["value"])

    def _window(self, height: int) -> None:
        self.call("Emulation.setDeviceMetricsOverride", width=self.width, height=max(1, int(height)),
                  deviceScaleFactor=self.scale, mobile=False)

    def capture(self, box: tuple[float, float, float, float], zoom: float = 1.0) -> bytes:
        """A PNG of the page's region ``box`` (CSS pixels: left, top, right, bottom; the
        window is as tall as the page once it is loaded), at the session's device scale
        times ``zoom`` (drawn at that size, not resampled: a zoom of 0.5 takes about a third
        of the time of 1)."""
        # whole CSS pixels: a clip at a fraction of a pixel is drawn shifted by it, so its
        # pixels would not be those of the same region in a capture of the whole page
        x0, y0, x1, y1 = math.floor(box[0]), math.floor(box[1]), math.ceil(box[2]), math.ceil(box[3])
        clip = {"x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0, "scale": zoom}
        data = self.call("Page.captureScreenshot", format="png", clip=clip)["data"]
        png = base64.b64decode(data)
        if png[:8] != PNG_MAGIC:
            raise ChromiumError("the screenshot is not a PNG")
        return png
