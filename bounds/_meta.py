"""What every bound function declares about itself, and input checks.

``bounds`` imports nothing else of privbounds (design.md: dependencies point one way),
so its few checks live here. They raise ``ValueError``; a user's bad value never reaches
them, since every theorem validates its parameters first (``privbounds.params``), so one
of these at run time is a bug and is reported as such (exit 1, with a log).
"""

from __future__ import annotations

import numpy as np

EXACT = "exact"            # constants taken from (or derived step by step in) the proof
UP_TO_CONSTANTS = "up to constants"
ASYMPTOTIC = "asymptotic"


def bound(kind: str, source: str):
    """Tag a bound function with how exact it is and where it comes from."""
    if kind not in (EXACT, UP_TO_CONSTANTS, ASYMPTOTIC):
        raise ValueError(f"kind must be exact, up to constants or asymptotic, got {kind!r}")

    def tag(fn):
        fn.kind = kind
        fn.source = source
        return fn
    return tag


def origin(source: str | None) -> str:
    """Where a bound's formula comes from, read off its ``source`` tag: 'reconstructed'
    (derived by us from the proof, or a constant the paper does not state), 'ours' (our
    construction), or 'paper' (as stated). The report's badges and the figures' legends
    both read it."""
    s = (source or "").lower()
    # constants we derived from a proof, or recalled from elsewhere, are not the paper's
    if any(w in s for w in ("reconstructed", "derived", "as used", "usually quoted", "recalled")):
        return "reconstructed"
    if any(w in s for w in ("ours", "our ", "substitute", "level", "at toy size")):
        return "ours"
    return "paper"


def positive(name, value):
    v = np.asarray(value, dtype=float)
    if not np.all(np.isfinite(v)) or np.any(v <= 0):
        raise ValueError(f"{name} must be > 0, got {value!r}")
    return v


def unit_open(name, value):
    v = np.asarray(value, dtype=float)
    if not np.all(np.isfinite(v)) or np.any((v <= 0) | (v >= 1)):
        raise ValueError(f"{name} must be in (0, 1), got {value!r}")
    return v


def at_least(name, value, low):
    v = np.asarray(value, dtype=float)
    if not np.all(np.isfinite(v)) or np.any(v < low):
        raise ValueError(f"{name} must be >= {low}, got {value!r}")
    return v
