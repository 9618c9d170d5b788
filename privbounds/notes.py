"""A theorem's notes as a template: measured numbers are quoted from the record, never typed.

A note (``Theorem.notes``) is prose about the theorem and its experiment. Wherever it quotes
a number that a run measures (an n_hat, a fitted exponent, a slack or tightness, an
eps_hat, a measured mean or rate) it writes a placeholder instead, and the page and
``privbounds show`` fill it in from the theorem's record, so the text cannot go stale
when a number moves. Parameters of the grid, constants of a bound and facts of the paper
stay plain text.

A placeholder is ``{KIND: ARGS}``; ARGS are items separated by commas:

- ``{n_hat: p=64, dist=random}``: the n_hat of the one searched point whose parameters
  take these values, with its interval (``211k [125k, 298k]``). One parameter may be
  ``*`` (``p=*``): every point that matches the others, one per value of that parameter,
  in increasing order (``211k [...] at p = 4, 441k [...] at p = 8``).
- ``{exponent: CLAIM}``: a scaling claim's fitted exponent with its interval
  (``0.43 [0.19, 0.67]``); ``{exponent: CLAIM, fit=raw}`` the raw fit (n_hat not divided
  by the claim's factor).
- ``{slack: CLAIM}``, ``{tightness: CLAIM}``: a bound claim's slack (bound / n_hat, or
  bound / value for a mean bound) or tightness (its inverse) over the claim's points, least
  to largest (``19 to 128``); with parameters (``{tightness: CLAIM, p=4, dist=random}``)
  over the points that match, and at one point with its interval.
- ``{value: CLAIM, ...}``: a mean bound's measured value (its interval at one point).
- ``{p_hat: CLAIM, ...}``: a success ceiling's measured rate (its interval at one point).
- ``{eps_hat: CLAIM}``: a privacy audit's eps_hat, and at the doubled budget.

CLAIM is a claim of the theorem, or ``ID#CLAIM`` for a claim of another theorem (its
record is looked up where the notes are shown). Parameter names are the simulator's, and
``n`` (the engine's sample size, for a curve's point).

Rendering (``render``) formats numbers as the report does (3 significant digits; n_hat
from 10,000 on as k or M). Without a record (``privbounds show`` before a run, a page of
an entry not run) a placeholder says what it stands for and that it is "measured when
run"; in a record that lacks the point or the claim (another fidelity's grid) it says
"not in this run". A stale number is never printed. ``problems`` checks every placeholder
of a theorem's notes against its claims and its simulator's parameters (a test runs it on
every registered theorem); rendering itself never raises.

The record on disk keeps the notes as the registry wrote them at the run, placeholders
included (what the theorem said; a record is data, not a page). A page and ``privbounds
show`` render the registry's current notes (``shown``; the record's own for an id no longer
registered) with the numbers of the record they show, so a note fixed since the run shows
at once, and its numbers are always that record's.
``bare_numbers`` finds measured numbers typed as prose (the forms notes used to take), for
the test that keeps them out.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from privbounds.record import ClaimResult, Detail, PointResult, Record

KINDS = ("n_hat", "exponent", "slack", "tightness", "value", "p_hat", "eps_hat")
# which kind of claim each placeholder reads (n_hat reads the record's points, not a claim)
CLAIM_KINDS = {"exponent": ("scaling",), "slack": ("upper bound", "lower bound", "mean bound"),
               "tightness": ("upper bound", "lower bound", "mean bound"), "value": ("mean bound",),
               "p_hat": ("success ceiling",), "eps_hat": ("privacy audit",)}
OPTIONS = {"fit": ("raw",)}  # name -> the values it takes (only exponent has one)
ENGINE_PARAMS = ("n",)  # names a curve's point has beside the simulator's parameters
STAR = "*"
PLACEHOLDER = re.compile(r"\{([a-z_]+):([^{}]*)\}")
NOT_RUN, NOT_HERE = "measured when run", "not in this run"

Lookup = Callable[[str], "Record | None"]


class NoteError(ValueError):
    """A placeholder that cannot be read (the message quotes it)."""


@dataclass(frozen=True)
class Placeholder:
    """One ``{KIND: ARGS}`` of a note, parsed."""

    text: str
    kind: str
    claim: str | None = None
    theorem: str | None = None  # another theorem's id (``ID#CLAIM``)
    where: tuple = ()  # (name, value) pairs; value STAR lists over that name
    options: tuple = ()  # (name, value) pairs of OPTIONS

    def what(self) -> str:
        """What the placeholder stands for, in words (shown when there is no number)."""
        whose = f"{self.theorem}#{self.claim}" if self.theorem else self.claim
        head = {"n_hat": "n_hat", "exponent": f"fitted exponent of {whose}",
                "slack": f"slack of {whose}", "tightness": f"tightness of {whose}",
                "value": f"measured value of {whose}", "p_hat": f"measured rate of {whose}",
                "eps_hat": f"eps_hat of {whose}"}[self.kind]
        if dict(self.options).get("fit") == "raw":
            head = head.replace("fitted exponent", "raw fitted exponent")
        where = ", ".join(f"{k}={v}" for k, v in self.where)
        return f"{head} at {where}" if where else head


# --- parsing ------------------------------------------------------------------------------------


def _scalar(text: str):
    """A parameter's value as the records hold it: an integer, a number or a word."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse(text: str) -> Placeholder:
    """One placeholder from its text ``{KIND: ARGS}``; NoteError says what is wrong."""
    m = PLACEHOLDER.fullmatch(text)
    if m is None:
        raise NoteError(f"{text!r} is not a placeholder {{KIND: ARGS}}")
    kind, items = m.group(1), [a.strip() for a in m.group(2).split(",") if a.strip()]
    if kind not in KINDS:
        raise NoteError(f"{text}: unknown kind {kind!r} (one of {', '.join(KINDS)})")
    claim = theorem = None
    if kind != "n_hat":
        if not items or "=" in items[0]:
            raise NoteError(f"{text}: {kind} names a claim first")
        claim = items.pop(0)
        if "#" in claim:
            theorem, claim = claim.split("#", 1)
    where, options = [], []
    for item in items:
        name, eq, value = (s.strip() for s in item.partition("="))
        if not eq or not name or not value:
            raise NoteError(f"{text}: {item!r} is not NAME=VALUE")
        if name in OPTIONS:
            if kind != "exponent" or value not in OPTIONS[name]:
                raise NoteError(f"{text}: option {item!r} is not allowed here")
            options.append((name, value))
        else:
            where.append((name, value if value == STAR else _scalar(value)))
    stars = [k for k, v in where if v == STAR]
    if len(stars) > 1 or (stars and kind != "n_hat"):
        raise NoteError(f"{text}: only n_hat lists over one parameter ({STAR})")
    if kind == "eps_hat" and where:
        raise NoteError(f"{text}: eps_hat takes no parameters (an audit has one instance)")
    return Placeholder(text, kind, claim, theorem, tuple(where), tuple(options))


def placeholders(notes: str) -> list[Placeholder]:
    """Every placeholder of a note, in order (NoteError at the first that cannot be read)."""
    return [parse(m.group(0)) for m in PLACEHOLDER.finditer(notes or "")]


def problems(theorem) -> list[str]:
    """What is wrong with the placeholders of a registered theorem's notes: one that cannot
    be read, a claim the theorem (or the named theorem) does not have or of a kind the
    placeholder cannot read, a parameter its simulator does not have. Empty: all is well."""
    out = []
    try:
        found = placeholders(theorem.notes)
    except NoteError as e:
        return [f"{theorem.id}: {e}"]
    params = set(getattr(theorem.simulator, "params", None) or {}) | set(ENGINE_PARAMS)
    for ph in found:
        owner = theorem
        if ph.theorem is not None:
            from privbounds.registry import get, ids

            if ph.theorem not in ids():
                out.append(f"{theorem.id}: {ph.text}: no theorem {ph.theorem!r}")
                continue
            owner = get(ph.theorem)
        if ph.claim is not None:
            kinds = {c.id: c.kind for c in owner.claims}
            if ph.claim not in kinds:
                out.append(f"{theorem.id}: {ph.text}: {owner.id} has no claim {ph.claim!r}")
            elif kinds[ph.claim] not in CLAIM_KINDS[ph.kind]:
                out.append(f"{theorem.id}: {ph.text}: {ph.claim} is a {kinds[ph.claim]} claim; "
                           f"{ph.kind} reads a {' or '.join(CLAIM_KINDS[ph.kind])} claim")
        own = params if owner is theorem else \
            set(getattr(owner.simulator, "params", None) or {}) | set(ENGINE_PARAMS)
        out += [f"{theorem.id}: {ph.text}: {owner.id}'s simulator has no parameter {name!r}"
                for name, _ in ph.where if name not in own]
    return out


# --- numbers as the report writes them --------------------------------------------------------


def number(x) -> str:
    """A measured number to 3 significant digits, without an exponent between 0.001 and 10^6."""
    if x is None:
        return "—"
    if x == 0:
        return "0"
    if 1000 <= abs(x) < 1e6:
        return f"{float(f'{x:.3g}'):.0f}"
    return f"{x:.3g}"


def count(n) -> str:
    """A sample size: exact below 10,000, else in k or M to 3 significant digits (211k, 1.14M)."""
    if n is None:
        return "open"
    if abs(n) < 10_000:
        return f"{n:.0f}"
    if abs(n) < 1e6:
        return f"{n / 1e3:.3g}k"
    return f"{n / 1e6:.3g}M"


def _with_interval(value: str, low, high, fmt=number) -> str:
    if low is None and high is None:
        return value
    return f"{value} [{fmt(low) if low is not None else 'open'}, {fmt(high) if high is not None else 'open'}]"


def _range(values: list[float]) -> str:
    """Least to largest of several points' values (one value once when they agree)."""
    lo, hi = min(values), max(values)
    return number(lo) if number(lo) == number(hi) else f"{number(lo)} to {number(hi)}"


# --- rendering ----------------------------------------------------------------------------------


def _n_hat_text(p: PointResult) -> str:
    if p.n_hat is None:  # not reached on the grid: the interval's open upper end
        return f"not reached (above {count(p.n_low)})" if p.n_low is not None else "not reached"
    return _with_interval(count(p.n_hat), p.n_low, p.n_high, count)


def _n_hat(ph: Placeholder, rec: Record) -> str | None:
    """The n_hat of the one matching searched point, or one per value of the starred name."""
    fixed = {k: v for k, v in ph.where if v != STAR}
    star = next((k for k, v in ph.where if v == STAR), None)
    found = [p for p in rec.select(**fixed) if p.searched and (star is None or star in p.point)]
    if not found:
        return None
    if star is None:
        return _n_hat_text(found[0]) if len(found) == 1 else _ambiguous(ph, len(found))
    by = sorted({p.point[star] for p in found}, key=lambda v: (isinstance(v, str), v))
    parts = []
    for value in by:
        mine = [p for p in found if p.point[star] == value]
        if len(mine) > 1:
            return _ambiguous(ph, len(mine))
        parts.append(f"{_n_hat_text(mine[0])} at {star} = {value}")
    return ", ".join(parts)


def _ambiguous(ph: Placeholder, n: int) -> str:
    # a registered note cannot get here (tests/core/test_notes.py renders every one); a
    # record of another grid can, and says so rather than picking a point
    return f"[{ph.what()}: {n} points match; name more parameters]"


def _details(ph: Placeholder, v: ClaimResult) -> list[Detail]:
    want = dict(ph.where)
    return [d for d in v.details
            if not want or (d.point is not None and all(d.point.get(k) == x for k, x in want.items()))]


FIELDS = {"slack": ("slack", "slack_low", "slack_high"),
          "tightness": ("tightness", "tightness_low", "tightness_high"),
          "value": ("value", "low", "high"), "p_hat": ("p_hat", "p_low", "p_high")}


def _claim_text(ph: Placeholder, v: ClaimResult) -> str | None:
    """The claim's number(s) the placeholder asks for, or None if the run has none."""
    if ph.kind == "eps_hat":
        if v.eps_hat is None:
            return None
        doubled = f" (doubled: {number(v.eps_hat_doubled)})" if v.eps_hat_doubled is not None else ""
        return f"{number(v.eps_hat)}{doubled}"
    if ph.kind == "exponent":
        f = v.fit_raw if dict(ph.options).get("fit") == "raw" else v.fit
        # the claim ran but fitted nothing (too few points): say so, not "not in this run"
        return f"no fit ({v.reason})" if f is None and v.reason else "no fit" if f is None else \
            f"{f.exponent:.2f} [{f.low:.2f}, {f.high:.2f}]"
    name, low, high = FIELDS[ph.kind]
    asked = _details(ph, v)
    mine = [d for d in asked if getattr(d, name) is not None]
    if not mine:
        return None
    if len(mine) == 1:
        d = mine[0]
        text = _with_interval(number(getattr(d, name)), getattr(d, low), getattr(d, high))
    else:
        text = _range([getattr(d, name) for d in mine])
    # a point without the value (no crossing found: an open interval) may be the one that
    # reaches the bound: the range says it left it out
    left = len(asked) - len(mine)
    return text + (f" (and {left} point{'s' if left > 1 else ''} without one)" if left else "")


def _fill(ph: Placeholder, rec: Record | None, lookup: Lookup | None) -> str:
    if ph.theorem is not None:
        rec = lookup(ph.theorem) if lookup is not None else None
    if rec is None or rec.provenance is None:
        return f"[{ph.what()}: {NOT_RUN}]"
    if ph.kind == "n_hat":
        text = _n_hat(ph, rec)
    else:
        claim = next((v for v in rec.verdicts if v.claim == ph.claim), None)
        text = None if claim is None else _claim_text(ph, claim)
    if text is None:
        return f"[{ph.what()}: {NOT_HERE} ({rec.fidelity} fidelity)]"
    return text


def render(notes: str, record: Record | None = None, lookup: Lookup | None = None) -> str:
    """The notes with every placeholder filled from ``record`` (a claim of another theorem
    from ``lookup(id)``, its record or None). Never raises: a placeholder that cannot be
    read is left as it is, marked."""
    def one(m: re.Match) -> str:
        try:
            ph = parse(m.group(0))
        except NoteError as e:
            return f"[unreadable placeholder {m.group(0)}: {e}]"
        return _fill(ph, record, lookup)

    return PLACEHOLDER.sub(one, notes or "")


def shown(record: Record, lookup: Lookup | None = None) -> str:
    """A record's notes as its page shows them: the registry's current text (as ``privbounds
    show`` does; the record's own for an id the registry no longer has), so that prose fixed
    since the run shows at once, with the numbers of this record."""
    from privbounds.registry import get, ids

    text = get(record.id).notes if record.id in ids() else record.notes
    return render(text, record, lookup)


def records_in(out) -> Lookup:
    """A lookup of the records in an output folder (a record that cannot be read: None)."""
    def get(theorem_id: str) -> Record | None:
        from privbounds.results import ResultError, available, load

        try:
            return load(out, theorem_id) if theorem_id in available(out) else None
        except ResultError:
            return None

    return get


# --- the guard against typed measured numbers -------------------------------------------------

# The forms in which notes quoted measured numbers before they were templated (issue 31,
# item 5): an n_hat or exponent with its value, an interval of decimals, "N or more times
# below", "A to B times", a value in k or M, a tightness, slack, eps_hat or TV with its value,
# and "we measured ... 3.3". A parameter of the grid ("eps = 0.1, 0.5") matches none of them.
BARE = {
    "n_hat with a value": r"\bn_hat\s*(=|is|of|stays at|reads)\s*(about\s*)?\d",
    "exponent with a value": r"\b(exponents?|slopes?)\b[^.;:,{}]{0,40}?\b(about|reads?|of|is|are)?\s*\d*\.\d+",
    "an interval of decimals": r"\[\s*-?\d*\.\d+\s*,\s*-?\d*\.\d+\s*\]",
    "times below / above": r"\d+\s*(or more|-|to|\.\.)\s*\d*\.?\d*\s*times\s+(below|above|larger|smaller|looser|the|\d)",
    "a count in k or M": r"(?<![\w(/.^])\d+(\.\d+)?[kM]\b(?!\s*[/(])",
    "a slack, tightness, eps_hat or TV": r"\b(tightness|slack|eps_hat|TV)\s*(of|=|is)?\s*\d*\.\d+",
    "orders of magnitude": r"\b(one|two|three|four|\d)\s*(to|-)\s*(two|three|four|five|\d)\s+orders\s+of\s+magnitude",
    "a measured number": r"\bmeasured\b[^.;{}]{0,30}?\d*\.\d+",
    "a quantile or a scratch run": r"\b(quantile\b[^.;{}]{0,40}?\d*\.\d+|scratch runs?\b)",
    "a sample count": r"\b(about|stays at)\s+\d+\s+samples\b",
    "a factor in words": r"\b(\d+|two|three|four|five|six|seven|eight|nine|ten)\s+times\s+(less|more)\s+\w",
    "a fraction of the bound": r"\b(about|nearly)\s+(half|a third|a quarter)\s+of\s+the\s+bound",
    # any number soon after a measured quantity's name ("n_hat was 4100", "the slack is 12")
    "a number after a measured quantity": (r"\b(n_hat|slack|tightness|eps_hat|p_hat)\s+(was|is|were|are|of|near|"
                                           r"around|reached|reaches|about|stays|equals|=)\s+(\w+\s+){0,2}?\d"),
    "a factor with x": r"(?<![\w^])\d+(\.\d+)?\s*x\s+(below|above|under|over|looser|tighter)\b",
    "a measured count": r"\bwe\s+measured\b[^.;{}]{0,30}?\d",
}


def bare_numbers(notes: str) -> list[tuple[str, str]]:
    """(form, text) of each measured number typed as prose, outside placeholders."""
    prose = PLACEHOLDER.sub(" ", notes or "")
    return [(form, m.group(0)) for form, pattern in BARE.items() for m in re.finditer(pattern, prose)]
