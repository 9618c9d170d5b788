"""What computes one block, and nothing else: its seed and the call of the simulator.

Not tied to one paper: every theorem's blocks (searches, curves, means and privacy audits)
run through ``run_block`` or ``run_audit_block``. This module and what it imports are the
engine's part of every block's code hash (store.ENGINE): a change here recomputes every
stored block, while a change to how blocks are scheduled, sent to a cluster or shown
(runner.py, pipeline.py, cluster.py, progress.py) keeps them.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np

from privbounds.simulators.engine.stats import moments


def block_seed(root_seed: int, theorem_id: str, key: str, n: int, block: int) -> np.random.SeedSequence:
    """SeedSequence of one block. The identity is hashed to 128 bits so that any
    parameter point maps to its own stream."""
    ident = f"{theorem_id}|{key}|{n}|{block}".encode()
    words = np.frombuffer(hashlib.sha256(ident).digest()[:16], dtype=np.uint32)
    return np.random.SeedSequence([int(root_seed), *map(int, words)])


def run_block(sim, theorem_id: str, key: str, n: int, block: int, size: int, root_seed: int,
              code: str):
    """Successes in one block, or for a simulator that measures a mean, the moments
    (mean, M2, min, max) of its ``size`` values. The simulator travels with the task (it
    is a small stateless object); ``theorem_id`` and ``code`` (the hash of the code that
    computes the block) make the cache key explicit."""
    rng = np.random.default_rng(block_seed(root_seed, theorem_id, key, n, block))
    out = sim.run_trials(json.loads(key), int(n), int(size), rng)
    if getattr(sim, "measure", "success") == "mean":
        return moments(out, int(size), f"{theorem_id} at {key}, n={n}")
    return int(np.count_nonzero(out))


def run_audit_block(sim, theorem_id: str, name: str, budget: float, block: int, size: int,
                    root_seed: int, code: str) -> tuple[int, int]:
    """Event counts (on D, on D') of ``size`` trials per side of the audit ``name`` at
    ``budget`` times its declared privacy budget. Seeded like a block of n = 0 under its
    own key, so it never shares a stream with a search."""
    rng = np.random.default_rng(block_seed(root_seed, theorem_id, f"audit:{name}:{budget:g}", 0, block))
    case = next((c for c in sim.audits() if c.name == name), None)
    if case is None:
        raise KeyError(f"{theorem_id} has no audit named {name!r}")
    return case.run(budget, int(size), rng)
