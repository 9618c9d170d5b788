"""One-line messages on stderr, shared by every layer of privbounds (the registry of the
five papers' theorems, the results on disk, the API): the bottom of the import order, so
that a layer below the API can warn without importing it."""

from __future__ import annotations

import sys

_warned: set[str] = set()


def warn(message: str) -> None:
    """One line on stderr, once per process for the same message."""
    if message not in _warned:
        _warned.add(message)
        print(f"privbounds: warning: {message}", file=sys.stderr)
