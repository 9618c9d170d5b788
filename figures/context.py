"""What one drawing sets for its duration (its files, its colours, its shade plan, the
parameters its record holds fixed): a ContextVar set while the block runs. Not tied to
one paper; imports nothing of ours, so every figure module may use it."""

from __future__ import annotations

import contextlib


@contextlib.contextmanager
def scoped(var, value):
    """``var`` (a ContextVar) set to ``value`` while the block runs, so that what one
    drawing needs to know is not threaded through every plotter's arguments."""
    token = var.set(value)
    try:
        yield value
    finally:
        var.reset(token)
