"""Plugins: a separate package registers a paper through the entry-point group
``privbounds.plugins``. The plugins here are written into tmp_path with a ``.dist-info``
folder beside them, so that with PYTHONPATH=tmp_path importlib.metadata finds them as
installed distributions: no pip, no network. The commands run in subprocesses, since
discovery happens once per process."""

import json
import os
import pkgutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import privbounds.registry as registry
from privbounds.figures import draw, headline_caption, headline_ids
from privbounds.registry import Paper, Theorem, add_paper

TINY = {
    "tinyplug/__init__.py": '''
        """A tiny privbounds plugin: one paper, one simulated theorem."""

        from pathlib import Path

        from privbounds.claims import UpperBound, use
        from privbounds.registry import Paper, Theorem, entry
        from tinyplug import bounds
        from tinyplug.plot import headline, plot

        PAPER = Paper("tiny", "A tiny plugin paper (tests)", figures=headline,
                      baselines=Path(__file__).resolve().parent / "baselines")


        @entry("tiny.thm1")
        def _tiny_thm1() -> Theorem:
            from tinyplug.sim import TinyCoin

            return Theorem(
                number="Theorem 1", title="A coin that needs about s ln(1/beta) tosses",
                statement="Success after n tosses has probability 1 - exp(-n/s).",
                math="n <= 3 s ln(1/beta)", simulator=TinyCoin(), plotter=plot,
                claims=[UpperBound("upper", "n_hat <= 3 s ln(1/beta)", lambda p: True, ("scale",),
                                   bound=use(bounds.n_coin))])
    ''',
    "tinyplug/learners.py": '''
        """The tiny plugin's learner: registered through the same entry point, under a paper
        of kind "learners", measured on the public thresholds instance beside siv.thm3_3."""

        import numpy as np

        from privbounds.learners import learner_entry
        from privbounds.registry import Paper, add_paper


        class FirstPositive:
            """Threshold at the smallest positive example (non-private, declares nothing
            more than it is: a huge epsilon)."""

            sample_form = "counts"

            def __init__(self, epsilon=1.0):
                self.epsilon, self.delta = epsilon, 0.0

            def fit(self, sample, rng):
                pos = sample.features[sample.labels == 1, 0]
                t = pos.min() if pos.size else np.inf
                return lambda X: (X[:, 0] >= t).astype(int)


        def register():
            add_paper(Paper("tinyl", "The tiny plugin's learners (tests)", kind="learners"))
            learner_entry("tinyl.firstpos", FirstPositive, instance="thresholds", grid={"d": [4, 6]},
                          max_n=1 << 10, label="first positive (tiny plugin)")
    ''',
    "tinyplug/bounds.py": '''
        """The tiny plugin's bounds, tagged as privbounds.bounds tags its own."""

        import numpy as np

        from privbounds.bounds._meta import EXACT, bound, positive, unit_open


        @bound(EXACT, "tiny plugin, Theorem 1: three times the coin's exact threshold (ours)")
        def n_coin(scale, beta):
            return 3 * positive("scale", scale) * np.log(1 / unit_open("beta", beta))
    ''',
    "tinyplug/sim.py": '''
        """The tiny plugin's simulator: a coin that succeeds with probability 1 - exp(-n/s)."""

        import numpy as np

        from privbounds.params import BETA, Interval
        from privbounds.simulators.engine.simulator import Simulator, expand


        class TinyCoin(Simulator):
            theorem_id = "tiny.thm1"
            params = {"scale": Interval("scale", 0, None), "beta": BETA}
            _scales = {"smoke": [4.0, 8.0], "quick": [4.0, 8.0, 16.0], "full": [4.0, 8.0, 16.0]}

            def grid(self, fidelity, overrides):
                return expand({"scale": self._scales[fidelity], "beta": [0.25]}, overrides)

            def privacy(self, point):
                return {"epsilon": None, "delta": None, "accounting": "non-private coin"}

            def n_range(self, point):
                return 1, 1 << 10

            def run_trials(self, point, n, trials, rng):
                return rng.random(trials) < 1 - np.exp(-n / point["scale"])
    ''',
    "tinyplug/plot.py": '''
        """The tiny plugin's figures, as callables (matplotlib is imported when they draw)."""


        def plot(theorem, record, out):
            from privbounds.figures.common import new_figure, save

            fig, (ax,) = new_figure()
            pts = [p for p in record.points if p.n_hat is not None]
            xs = [p.point["scale"] for p in pts]
            ax.plot(xs, [p.n_hat for p in pts], "o-", label="n_hat")
            ax.plot(xs, [theorem.claims[0].bound(p.point) for p in pts], "--", label="bound")
            ax.set_xlabel("scale")
            ax.set_ylabel("n")
            ax.legend()
            return save(fig, record, out)


        def headline(records, out):
            from privbounds.figures.common import new_figure, save_named

            fig, (ax,) = new_figure()
            for rec in records.values():
                pts = [p for p in rec.points if p.n_hat is not None]
                ax.plot([p.point["scale"] for p in pts], [p.n_hat for p in pts], "o-", label=rec.id)
            ax.set_xlabel("scale")
            ax.legend()
            return save_named(fig, "tiny.headline", "tiny: n_hat against the scale", out)


        headline.theorem_ids = {"tiny.thm1"}
        headline.CAPTION = "n_hat of the tiny coin against its scale."
    ''',
}

# a plugin that raises on import, one whose id is a built-in's, one registered by a callable
MISC = {
    "brokenplug/__init__.py": '''
        """A plugin that fails to import."""

        raise RuntimeError("boom at import")
    ''',
    "clashplug/__init__.py": '''
        """A plugin whose theorem id is a built-in one."""

        from privbounds.registry import Paper, Theorem, entry

        PAPER = Paper("clash", "A colliding plugin (tests)")


        @entry("clash.ok")
        def _ok():
            return Theorem(number="1", title="fine", statement="", math="", status="bound-only")


        @entry("siv.thm3_3")
        def _taken():
            return Theorem(number="2", title="taken", statement="", math="", status="bound-only")
    ''',
    "callplug/__init__.py": '''
        """A plugin that registers its paper and theorem from a callable."""

        from privbounds.registry import Paper, Theorem, add_paper, entry


        def register():
            add_paper(Paper("zcall", "A plugin registered by a callable (tests)"))
            entry("zcall.thm1")(lambda: Theorem(number="1", title="by a callable", statement="s", math="m",
                                                status="bound-only", reason="a test entry"))
    ''',
}


def _install(root: Path, files: dict, dists: dict) -> None:
    """Write the packages and one ``<name>-0.1.dist-info`` per distribution, whose
    entry_points.txt holds ``dists[name]`` under ``[privbounds.plugins]``."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())
    for name, eps in dists.items():
        info = root / f"{name}-0.1.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
        (info / "entry_points.txt").write_text("[privbounds.plugins]\n" + "".join(f"{e}\n" for e in eps))


def _cli(root: Path, *args) -> subprocess.CompletedProcess:
    """``privbounds ARGS`` with the plugins under ``root`` installed; it must exit 0."""
    env = {**os.environ, "PYTHONPATH": str(root), "MPLBACKEND": "Agg", "PRIVBOUNDS_NO_PLUGINS": "0"}
    proc = subprocess.run([sys.executable, "-m", "privbounds", *args], cwd=root, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"privbounds {' '.join(args)}: exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return proc


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    root = tmp_path_factory.mktemp("tinyplugin")
    _install(root, TINY, {"tinyplug": ["tiny = tinyplug", "tinyl = tinyplug.learners:register"]})
    return root


def test_plugin_theorem_through_every_command(tiny):
    out = tiny / "out"
    listed = _cli(tiny, "list")
    assert "tiny.thm1" in listed.stdout and "siv.thm3_3" in listed.stdout and "tiny" not in listed.stderr
    _cli(tiny, "run", "tiny.thm1", "--fidelity", "smoke", "--out", str(out), "--quiet")
    rec = json.loads((out / "results" / "tiny.thm1.json").read_text())
    assert rec["verdicts"][0]["claim"] == "upper" and rec["verdicts"][0]["verdict"] == "confirmed"

    _cli(tiny, "figures", "--out", str(out))
    # the theorem's callable plotter and the paper's callable headline figure
    for name in ("tiny.thm1.png", "tiny.thm1.svg", "tiny.headline.png"):
        assert (out / "figures" / name).stat().st_size > 0, name

    _cli(tiny, "report", "--out", str(out))
    site = out / "report"
    assert "tiny.thm1" in (site / "tiny.thm1.html").read_text()
    paper = (site / "paper-tiny.html").read_text()
    assert "tiny.headline.png" in paper and "n_hat of the tiny coin against its scale." in paper
    assert "tiny.thm1" in (site / "index.html").read_text()


def test_plugin_learner_through_run_report_and_check(tiny):
    out, base = tiny / "lout", tiny / "lb.json"
    assert "tinyl.firstpos" in _cli(tiny, "list").stdout
    _cli(tiny, "run", "tinyl.firstpos", "--fidelity", "smoke", "--out", str(out), "--quiet")
    rec = json.loads((out / "results" / "tinyl.firstpos.json").read_text())
    assert {p["point"]["learner"] for p in rec["points"]} == {"firstpos", "expmech", "erm"}
    assert "firstpos-vs-upper-expmech-thresh" in {v["claim"] for v in rec["verdicts"]}
    _cli(tiny, "figures", "--out", str(out))
    _cli(tiny, "report", "--out", str(out))
    index = (out / "report" / "index.html").read_text()
    assert "Learners from other libraries and your own" in index and "paper-tinyl.html" in index
    _cli(tiny, "check", "--update", "--baseline", str(base), "--out", str(out))
    assert "check ok: 1 theorems" in _cli(tiny, "check", "--baseline", str(base), "--out", str(out)).stdout


def test_plugin_baselines(tiny):
    """``check`` at quick fidelity (smoke has no baseline but a --baseline FILE): with
    --baseline, the file; without, a plugin's paper reads ``<Paper.baselines>/<fidelity>.json``."""
    out, base = tiny / "quick", tiny / "b.json"
    _cli(tiny, "run", "tiny.thm1", "--fidelity", "quick", "--out", str(out), "--quiet")
    done = _cli(tiny, "check", "--update", "--baseline", str(base), "--out", str(out))
    assert "baseline updated" in done.stdout
    assert set(json.loads(base.read_text())["theorems"]) == {"tiny.thm1"}
    ok = _cli(tiny, "check", "--baseline", str(base), "--out", str(out))
    assert "check ok: 1 theorems" in ok.stdout

    own = tiny / "tinyplug" / "baselines" / "quick.json"
    own.parent.mkdir()
    own.write_text(base.read_text())  # what 'check --update' would write there (baseline_path, below)
    ok = _cli(tiny, "check", "--out", str(out))
    assert "check ok: 1 theorems" in ok.stdout and "tiny.thm1" in ok.stdout and str(own) in ok.stdout


def test_broken_colliding_and_callable_plugins(tmp_path):
    _install(tmp_path, MISC, {"brokenplug": ["broken = brokenplug"], "clashplug": ["clash = clashplug"],
                              "callplug": ["calls = callplug:register"]})
    proc = _cli(tmp_path, "list", "--json")
    warnings = proc.stderr.strip().splitlines()
    broken = [w for w in warnings if "brokenplug" in w]
    clash = [w for w in warnings if "clashplug" in w]
    assert len(broken) == 1 and "plugin broken" in broken[0] and "boom at import" in broken[0], proc.stderr
    assert len(clash) == 1 and "plugin clash" in clash[0] and "siv.thm3_3" in clash[0], proc.stderr
    assert not any("callplug" in w for w in warnings), proc.stderr
    ids = [t["id"] for t in json.loads(proc.stdout)]
    # the refused plugin is refused whole, and the built-in theorem is untouched
    assert "clash.ok" not in ids and "siv.thm3_3" in ids
    # a callable's theorem is registered, after every theorem of the package's own papers
    own = {m.name for m in pkgutil.iter_modules(registry.__path__)}  # siv.py, bns/, ...: their prefixes
    assert own >= {"bns", "siv"}
    last_own = max(i for i, t in enumerate(ids) if t.split(".")[0] in own)
    assert ids.index("zcall.thm1") > last_own
    assert next(t for t in json.loads(proc.stdout) if t["id"] == "siv.thm3_3")["title"] != "taken"


def test_callable_plotter_via_draw(tmp_path, monkeypatch):
    calls = []

    def plotter(theorem, record, out):
        calls.append((theorem.id, record["id"]))
        path = Path(out) / "figures" / f"{theorem.id}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"png")
        return [path]

    thm = Theorem(number="1", title="t", statement="s", math="m", id="tiny.unit", plotter=plotter)
    stale = tmp_path / "figures" / "tiny.unit-old.png"  # a part an earlier version drew
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"old")
    assert draw(thm, {"id": "tiny.unit"}, tmp_path) == [tmp_path / "figures" / "tiny.unit.png"]
    assert calls == [("tiny.unit", "tiny.unit")] and not stale.exists()

    # the theorem's files name the callable's module; a paper's callable headline figure
    # says what it draws through its attributes
    registry.ids()  # discover first: a copy made before discovery would lose every built-in entry on undo
    monkeypatch.setattr(registry, "_ENTRIES", {**registry._ENTRIES, "tiny.unit": (__name__, lambda: thm)})
    monkeypatch.setattr(registry, "_PAPERS", dict(registry.papers()))
    assert any(f.endswith("test_plugins.py") for f in thm.files())
    plotter.theorem_ids, plotter.CAPTION = ["tiny.unit"], "what it shows"
    add_paper(Paper("tiny", "Tiny", figures=plotter))
    assert headline_ids("tiny") == ["tiny.unit"] and headline_caption("tiny") == "what it shows"
    add_paper(Paper("tinier", "Tinier", figures=lambda records, out: []))
    assert headline_ids("tinier") == [] and headline_caption("tinier") == ""


def test_add_paper_and_baseline_path(monkeypatch, tmp_path):
    from privbounds.reports.check import BASELINE_DIR, baseline_path

    registry.ids()  # discover first (see above)
    monkeypatch.setattr(registry, "_PAPERS", dict(registry.papers()))
    siv = registry.papers()["siv"]
    add_paper(siv)  # the same paper again: nothing happens
    with pytest.raises(RuntimeError, match="paper prefix 'siv' of 'Other' is already taken by 'Sivakumar"):
        add_paper(Paper("siv", "Other"))
    add_paper(Paper("tiny", "Tiny", baselines=str(tmp_path)))
    assert baseline_path("tiny", "quick") == tmp_path / "quick.json"
    assert baseline_path("siv", "full") == BASELINE_DIR / "siv" / "full.json"
