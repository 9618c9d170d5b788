"""The engine with code that is not ours: a simulator defined in a script (``__main__``)
runs with ``jobs=2`` and gives the numbers of ``jobs=1``; its cache key follows its
settings and the globals its code reads; every block runs numerical libraries on one
thread."""

import json
import subprocess
import sys
import textwrap
import time

import numpy as np

from privbounds.simulators.engine.runner import run_points, simulator_digest
from privbounds.simulators.engine.simulator import Fidelity, Simulator

SCRIPT = textwrap.dedent('''
    import json, sys
    import numpy as np
    from privbounds.simulators.engine.runner import run_points
    from privbounds.simulators.engine.simulator import Fidelity, Simulator

    RATE = {rate}  # a global the simulator reads: part of its cache key

    class Coin(Simulator):
        theorem_id = "user.coin"

        def grid(self, fidelity, overrides):
            return [{{"a": 1}}]

        def curve(self, point):
            return [4, 16]

        def privacy(self, point):
            return {{"epsilon": None, "delta": None, "accounting": "none"}}

        def run_trials(self, point, n, trials, rng):
            return rng.random(trials) < RATE

    if __name__ == "__main__":
        sim = Coin()
        res = run_points({{"user.coin": (sim, sim.grid("quick", {{}}))}},
                         {{"user.coin": Fidelity(trials=300, block=100, steps=2)}}, 0, sys.argv[1],
                         jobs=int(sys.argv[2]), progress=False)
        r = res["user.coin"]
        print(json.dumps({{"error": r.get("error"), "rows": r.get("rows"), "run": r.get("blocks_run"),
                          "cached": r.get("blocks_cached")}}))
''')


def _run(tmp_path, cache, jobs, rate=0.5):
    script = tmp_path / f"user_{str(rate).replace('.', '_')}.py"
    script.write_text(SCRIPT.format(rate=rate))
    out = subprocess.run([sys.executable, str(script), str(tmp_path / cache), str(jobs)], capture_output=True,
                         text=True, timeout=300, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_script_simulator_runs_with_two_jobs_and_is_cached_by_its_code(tmp_path):
    one = _run(tmp_path, "one", 1)
    two = _run(tmp_path, "two", 2)
    assert two["error"] is None and two["rows"] == one["rows"]
    again = _run(tmp_path, "two", 2)
    assert again["rows"] == one["rows"] and again["run"] == 0 and again["cached"] == 6
    changed = _run(tmp_path, "two", 2, rate=0.9)  # same class, another global: recomputed
    assert changed["run"] == 6 and changed["rows"] != one["rows"]


class _Setting(Simulator):
    theorem_id = "toy.setting"

    def __init__(self, tol):
        self.tol = tol


def test_the_digest_follows_the_simulators_settings():
    assert simulator_digest(_Setting(1e-4)) == simulator_digest(_Setting(1e-4))
    assert simulator_digest(_Setting(1e-4)) != simulator_digest(_Setting(1e-6))


class _Threads(Simulator):
    """Success when every numerical library in the worker runs on one thread."""

    theorem_id = "toy.threads"

    def grid(self, fidelity, overrides):
        return [{"a": 1}]

    def curve(self, point):
        return [2]

    def privacy(self, point):
        return {"epsilon": None, "delta": None, "accounting": "none"}

    def run_trials(self, point, n, trials, rng):
        from threadpoolctl import threadpool_info

        np.dot(np.ones((64, 64)), np.ones((64, 64)))  # loads the BLAS
        # blocks of uneven length: with the threading backend one ends while another runs
        time.sleep(rng.uniform(0, 0.02))
        one = all(lib["num_threads"] == 1 for lib in threadpool_info())
        return np.full(trials, one)


def test_blocks_run_numerical_libraries_on_one_thread(tmp_path):
    """BLAS's limit is global and OpenMP's per thread: with the threading backend every
    block's thread is limited, and none restores the limits while another runs."""
    import contextlib

    with contextlib.suppress(ImportError):  # OpenMP (libgomp) comes with scikit-learn, where installed
        import sklearn.linear_model  # noqa: F401
    sim = _Threads()
    res = run_points({"toy.threads": (sim, sim.grid("quick", {}))},
                     {"toy.threads": Fidelity(trials=30, block=3, steps=2)}, 0, tmp_path, jobs=2,
                     backend="threading", progress=False)
    row, = res["toy.threads"]["rows"]
    assert row["successes"] == row["trials"] == 30


WARNS = textwrap.dedent('''
    import json, sys
    import numpy as np
    from privbounds.simulators.engine.runner import run_points
    from privbounds.simulators.engine.simulator import Fidelity, Simulator

    class Loud(Simulator):
        theorem_id = "user.loud"

        def grid(self, fidelity, overrides):
            return [{"a": 1}]

        def curve(self, point):
            return [4, 16]

        def privacy(self, point):
            return {"epsilon": None, "delta": None, "accounting": "none"}

        def run_trials(self, point, n, trials, rng):
            return np.log(np.zeros(trials)) < 0  # numpy warns: divide by zero encountered in log

    if __name__ == "__main__":
        sim = Loud()
        res = run_points({"user.loud": (sim, sim.grid("quick", {}))},
                         {"user.loud": Fidelity(trials=300, block=100, steps=2)}, 0, sys.argv[1],
                         jobs=int(sys.argv[2]), backend=sys.argv[3], progress=False, use_cache=False)
        print(json.dumps(res["user.loud"]["notes"]))
''')


def test_numpy_warnings_of_blocks_become_notes_and_never_reach_the_terminal(tmp_path):
    """A block's RuntimeWarnings are caught where it runs (a worker process, or this one) and
    come back with it as one line and a count of blocks; nothing is printed on the terminal."""
    script = tmp_path / "loud.py"
    script.write_text(WARNS)
    for jobs, backend in ((2, "loky"), (1, "sequential")):
        res = subprocess.run([sys.executable, str(script), str(tmp_path / backend), str(jobs), backend],
                             capture_output=True, text=True, timeout=300, check=True)
        notes = json.loads(res.stdout.strip().splitlines()[-1])
        assert list(notes.values()) == [6], (backend, notes)  # 3 blocks at each of 2 n
        line = next(iter(notes))
        # where: the script's line (a class sent to loky by value is "<dynamic-code>" there)
        assert line.startswith("RuntimeWarning: divide by zero encountered in log (") and line.endswith(":20)")
        assert "Warning" not in res.stderr, (backend, res.stderr)
