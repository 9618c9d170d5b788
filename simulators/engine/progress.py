"""The run's progress bar and its watch on the executor (runner.py uses them). Not tied to
one paper: one bar for a whole run of any theorems, moving as each theorem finishes, with
the time left from the last run's records; the watch says when no block has returned
for a long time and ends a run whose executor (a Dask cluster) is gone."""

from __future__ import annotations

import sys
import time

from privbounds.simulators.engine.pipeline import ExecutorLost

STALL_AFTER = 600.0  # seconds without a returned block before the run says so


class Watch:
    """Looks at the executor while no block returns (pipeline.completed): ``health()``
    gives (why it is gone, or None; a word on its workers, or ""); a run whose executor is
    gone ends (ExecutorLost), and one where no block has returned for ``STALL_AFTER``
    seconds says so, once per stall, instead of waiting silently."""

    def __init__(self, health, say):
        self.health, self.say = health, say
        self.said = None  # the start of the wait whose stall was last reported

    def __call__(self, idle: float, inflight: dict, started: float) -> None:
        gone, workers = self.health() if self.health else (None, "")
        if gone:
            raise ExecutorLost(gone)
        if idle >= STALL_AFTER and self.said != started:  # a wait started since the last report
            self.said = started
            where = sorted({t.theorem for t in inflight.values()})
            self.say(f"no block has returned for {_minutes(idle)} ({len(inflight)} in flight, of "
                     f"{', '.join(where[:3])}{', ...' if len(where) > 3 else ''}){workers}; still waiting")


class Progress:
    """One progress bar for a whole run (tqdm on stderr), quiet when disabled. Its total is
    the number of theorems, known from the start, and it moves as each one finishes; the
    blocks done (and how many came from the store), the theorem of the latest block and,
    when the last run's records time every theorem, the time left ride along as its
    postfix. Time left is counted in the last run's block seconds: each block done counts
    its theorem's mean block time of that run, whether computed or read from the store,
    and what is left is divided by the rate at which computed blocks count, so that a
    machine uniformly slower (or busier) than last time still gets a fair estimate.
    tqdm's own estimate, by theorems finished, would be wrong: the longest theorems start
    first and finish last."""

    def __init__(self, enabled: bool, theorems: int, expected: dict | None = None):
        self.bar = None
        self.blocks = self.cached = 0
        self.credit = 0.0  # last run's block seconds of the blocks done so far
        self.computed = 0.0  # the same, of the blocks computed (not read from the store)
        self.expected = expected or None  # theorem id -> (block seconds, mean seconds a block)
        self.total = sum(e[0] for e in expected.values()) if expected else 0.0
        self.started = self.drawn = time.perf_counter()
        self.current = ""
        if enabled and theorems:
            from tqdm import tqdm
            self.bar = tqdm(total=theorems, unit="theorem", desc="theorems", file=sys.stderr,
                            dynamic_ncols=True, mininterval=0.5 if sys.stderr.isatty() else 10.0,
                            bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}{postfix}]")

    def eta(self) -> float | None:
        """Seconds left, estimated from the last run's block seconds (None without them)."""
        elapsed = time.perf_counter() - self.started
        if self.expected is None or self.computed <= 0 or elapsed <= 0:
            return None
        # more blocks than last time: never "nothing left" while blocks still come back
        left = max(self.total - self.credit, 0.01 * self.total)
        return left / (self.computed / elapsed)

    def _postfix(self) -> str:
        cached = f" ({self.cached} stored)" if self.cached else ""
        now = f", now {self.current}" if self.current else ""
        eta = self.eta()
        left = f", about {_minutes(eta)} left (last run's times)" if eta is not None and self.current else ""
        return f"{self.blocks} blocks{cached}{now}{left}"

    def block(self, theorem_id: str, cached: bool = False):
        self.blocks += 1
        self.cached += cached
        if self.expected is not None:
            mean = self.expected.get(theorem_id, (0.0, 0.0))[1]
            self.credit += mean
            self.computed += 0.0 if cached else mean
        self.current = theorem_id
        now = time.perf_counter()
        if self.bar is not None and now - self.drawn >= self.bar.mininterval:
            # redrawn by hand, at most every mininterval: tqdm's update(0) stops redrawing
            # once its dynamic miniters has grown, and a log then went silent for minutes
            self.drawn = now
            self.bar.set_postfix_str(self._postfix(), refresh=False)
            self.bar.refresh()

    def theorem_done(self, theorem_id: str):
        if self.bar is not None:
            self.bar.update(1)

    def say(self, line: str) -> None:
        """A note on stderr, above the bar when there is one (shown under --quiet too)."""
        if self.bar is not None:
            self.bar.write(f"privbounds: {line}", file=sys.stderr)
        else:
            print(f"privbounds: {line}", file=sys.stderr)

    def close(self):
        if self.bar is not None:
            self.current = ""
            self.bar.set_postfix_str(self._postfix(), refresh=False)
            self.bar.close()  # draws the final state once


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"
