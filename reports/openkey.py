"""The one-line key to censored points and open intervals, on every report page that
shows one (all papers alike).

A search for the smallest n that never reached its target on the grid has no upper end
(its interval is written "[low, open]", its point drawn as an arrow up); a learner that
already succeeds at the smallest n it runs at has n_hat at most that n (an arrow down).
Figures draw both with the same glyphs everywhere (``figures.style.OPEN_ABOVE`` and
``OPEN_BELOW``). A page says what they mean once: under its figures when its record has
such points, else at the end of the page when any text on it printed an open end.
"""

from __future__ import annotations

import re

from jinja2 import pass_context

from privbounds.record import Record

TEXT = ("Open ends: \u2191 (an interval [low, open]) means the target was not reached by the largest n tried, "
        "so n_hat is above low; \u2193 means the learner succeeds already at the smallest n it runs at, so "
        "n_hat is at most that n.")
OPEN = re.compile(r"\[open,|, open\]")  # an interval end printed open, not the word in prose


class Key:
    """Whether the page being rendered needs the key, and whether it has shown it."""

    def __init__(self) -> None:
        self.needed = False
        self.shown = False

    def show(self) -> str:
        self.shown = True
        return TEXT


def censored(rec: Record) -> bool:
    """Whether the record has a censored point or an open interval end anywhere."""
    points = [*rec.points, *(d for v in rec.verdicts for d in v.details)]
    for p in points:
        low, high = getattr(p, "n_low", None), getattr(p, "n_high", None)
        if (low is not None and high is None) or getattr(p, "floor_reached", False):
            return True
    return False


def _mark(ctx, text) -> None:
    key = ctx.get("key")
    if key is not None and isinstance(text, str) and OPEN.search(text):
        key.needed = True


@pass_context
def opens(ctx, text):
    """A filter: the text unchanged, the page's key marked needed when it prints an open end."""
    _mark(ctx, text)
    return text


def marking(fn):
    """``fn`` as a template function or filter that marks the page's key when what it
    returns prints an open end."""
    @pass_context
    def wrapped(ctx, *args, **kw):
        text = fn(*args, **kw)
        _mark(ctx, str(text))
        return text

    wrapped.__name__ = getattr(fn, "__name__", "marking")
    return wrapped


def register(env) -> None:
    """Make the key's filters and globals known to the report's templates."""
    env.filters["opens"] = opens
    env.filters["censored"] = censored
