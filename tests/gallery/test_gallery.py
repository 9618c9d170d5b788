"""The gallery of other libraries' learners (privbounds/gallery.py) and the
bring-your-own-learner example of docs/guide/measure.md, with diffprivlib. Skipped without
the gallery extra; ``nox -s gallery`` installs it and runs these."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("diffprivlib")
pytest.importorskip("sklearn")

PAGE = Path(__file__).resolve().parents[2] / "docs" / "guide" / "measure.md"
PLUGINS_ON = {"PRIVBOUNDS_NO_PLUGINS": "0", "MPLBACKEND": "Agg"}


def _example() -> str:
    """The python block marked ``<!-- docs-test: gallery -->`` (tests/core/test_docs.py
    checks that it is the page's only one and that this test runs it)."""
    text = PAGE.read_text()
    return re.search(r"<!-- docs-test: gallery -->\s*```python\n(.*?)```", text, re.S).group(1)


def _run(args, cwd, **kw):
    return subprocess.run(args, capture_output=True, text=True, cwd=cwd, env={**os.environ, **PLUGINS_ON},
                          timeout=600, **kw)


def test_the_docs_example_is_at_most_40_lines_and_runs_with_two_jobs(tmp_path):
    code = _example()
    lines = code.rstrip("\n").splitlines()
    assert len(lines) <= 40
    assert f"({len(lines)} lines" in PAGE.read_text()  # the page says how long it is
    small = (code.replace('grid={"d": [4, 8, 12]}', 'grid={"d": [4]}').replace('fidelity="quick"', 'fidelity="smoke"')
             .replace("max_n=2**21", "max_n=2**12"))
    assert small != code
    (tmp_path / "dplr_example.py").write_text(small)
    r = _run([sys.executable, "dplr_example.py"], tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    assert (tmp_path / "byol-out" / "report" / "learner.dplogreg.html").is_file()
    assert "dplogreg 4" in r.stdout and "expmech 4" in r.stdout


def test_audit_of_the_example_learner_does_not_refute_it(tmp_path):
    (tmp_path / "dplr_example.py").write_text(_example())
    r = _run([sys.executable, "-m", "privbounds", "audit", "dplr_example.py:DPLogReg", "--instance", "thresholds",
              "--n", "100", "--epsilon", "1", "--trials", "300", "--pilot", "200"], tmp_path)
    assert r.returncode == 0 and not r.stdout.startswith("refuted"), r.stdout + r.stderr


def test_audit_catches_a_planted_non_private_variant_of_the_example(tmp_path):
    (tmp_path / "dplr_example.py").write_text(_example())
    (tmp_path / "planted.py").write_text(
        "import numpy as np\n"
        "from sklearn.linear_model import LogisticRegression\n"
        "from dplr_example import DPLogReg\n\n\n"
        "class Leaky(DPLogReg):  # the private fit replaced by a non-private one; it still declares epsilon\n"
        "    def fit(self, sample, rng):\n"
        "        X, y = np.vstack([sample.X, [[0.0], [1.0]]]), np.append(sample.y, [0, 1])\n"
        "        return LogisticRegression().fit(X, y)\n")
    r = _run([sys.executable, "-m", "privbounds", "audit", "planted.py:Leaky", "--instance", "thresholds",
              "--n", "100", "--epsilon", "1", "--trials", "200", "--pilot", "100"], tmp_path)
    assert r.returncode == 1 and r.stdout.startswith("refuted"), r.stdout + r.stderr


def test_gallery_entries_register_and_run(tmp_path):
    r = _run([sys.executable, "-m", "privbounds", "list"], tmp_path)
    assert r.returncode == 0 and "gallery.diffprivlib_lr " in r.stdout and "gallery.diffprivlib_lr_blowups" in r.stdout
    r = _run([sys.executable, "-m", "privbounds", "run", "gallery.diffprivlib_lr", "--set", "d=4", "--fidelity",
              "smoke", "--jobs", "2", "--quiet", "--out", "o"], tmp_path)
    assert r.returncode == 0, r.stderr
    r = _run([sys.executable, "-m", "privbounds", "report", "--out", "o"], tmp_path)
    assert r.returncode == 0, r.stderr
    page = (tmp_path / "o" / "report" / "gallery.diffprivlib_lr.html").read_text()
    assert "diffprivlib 0.6.6" in page and "not a theorem" in page.lower()
    assert "Learners from other libraries" in (tmp_path / "o" / "report" / "index.html").read_text()
    # without plugins (what the default test suite sees), the gallery is not there
    r = subprocess.run([sys.executable, "-m", "privbounds", "list"], capture_output=True, text=True,
                       env={**os.environ, "PRIVBOUNDS_NO_PLUGINS": "1"}, timeout=120)
    assert r.returncode == 0 and "gallery." not in r.stdout
