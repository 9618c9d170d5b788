"""The verdict vocabulary of privbounds: what a claim's measurement allows it to say.

Design notes, "Verdicts": a verdict says what the theorem's statement and the interval
allow, and nothing more. The words, for every claim kind and every part of the product
(pages, figures, findings, ``list``, ``show``, ``check``):

- *confirmed*: the interval lies on the theorem's side of the bound (or, for a scaling
  claim, at or on the allowed side of the predicted exponent);
- *confirmed (slack >= 100x)*: confirmed, but the bound is looser than ``SLACK_LIMIT``
  times at every point it was tested, so this test could not have failed; counted apart
  from confirmations that were at risk;
- *confirmed up to lower-order terms*: a scaling interval that excludes the exact
  exponent but lies within the tolerance the claim declared in advance;
- *confirmed (exact)*: the measured quantity has a closed form or a small exact sum, and
  its exact value lies on the theorem's side of the bound (Monte Carlo cross-checks the
  simulator: its interval must hold the exact value); an exact value across the bound is
  *refuted*;
- *inconclusive*: the interval cannot decide (the record says why);
- *vacuous*: the bound says nothing (a lower bound at or below 0, a ceiling at or above 1);
- *refuted*: the measurement contradicts the theorem's statement;
- *erratum*: the measurement contradicts a claim on a printed form that the paper's own
  proof does not give; the claim on the corrected form stands beside it;
- *above the bound* / *below the bound*: a bound held to a learner that the theorem is
  not about (a user's or another library's) is a comparison, never a confirmation or a
  refutation of the theorem.

Slack is how many times a bound could be tightened before its test could fail: bound /
measured for an upper bound or a ceiling, measured / bound for a lower bound (the
inverse of the tightness).
"""

from __future__ import annotations

CONFIRMED, REFUTED, INCONCLUSIVE = "confirmed", "refuted", "inconclusive"
SLACK = "confirmed (slack >= 100x)"
EXACT = "confirmed (exact)"
LOWER_ORDER = "confirmed up to lower-order terms"
VACUOUS = "vacuous"
ERRATUM = "erratum"
ABOVE, BELOW = "above the bound", "below the bound"
VERDICTS = (CONFIRMED, EXACT, SLACK, LOWER_ORDER, INCONCLUSIVE, VACUOUS, REFUTED, ERRATUM, ABOVE, BELOW)
# How good a verdict is, for the check ("got worse"): a vacuous bound tests nothing; an
# erratum is a refutation of a misprint, expected; a comparison above a bound is the worst
# a comparison can be.
ORDER = {REFUTED: 0, ERRATUM: 0, ABOVE: 0, INCONCLUSIVE: 1, VACUOUS: 1, LOWER_ORDER: 2, CONFIRMED: 3, EXACT: 3,
         SLACK: 3, BELOW: 3}
SLACK_LIMIT = 100.0  # a bound this many times loose at every tested point could not have failed
# Why a verdict qualifies a confirmation, in a phrase the report and the CLI share.
MEANING = {
    SLACK: "this test could not have failed: the bound is over 100x loose at every point tested",
    EXACT: "decided on the quantity's exact value, which the Monte Carlo estimate's interval holds",
    ERRATUM: "the paper's printed form contradicts its own proof; see the corrected claim",
    ABOVE: "a comparison with a learner the theorem is not about: it needs more examples than the bound",
    BELOW: "a comparison with a learner the theorem is not about: it needs no more examples than the bound",
}


def combine(verdicts: list[str]) -> str:
    """A claim over several points: refuted if any point is, vacuous if every point is,
    otherwise the weakest verdict of its non-vacuous points; confirmed points of which only
    some were decided exactly make the claim *confirmed*, not *confirmed (exact)*."""
    if not verdicts:
        return INCONCLUSIVE
    real = [v for v in verdicts if v != VACUOUS]
    if not real:
        return VACUOUS
    worst = min(real, key=ORDER.__getitem__)
    return CONFIRMED if worst == EXACT and CONFIRMED in real else worst


def with_slack(verdict: str, details: list[dict]) -> str:
    """``confirmed`` becomes ``confirmed (slack >= 100x)`` when every non-vacuous point's
    least slack (the slack at the interval's end nearest the bound) is at least
    ``SLACK_LIMIT``: there the measurement could not have crossed the bound."""
    if verdict != CONFIRMED:
        return verdict
    ends = [d.get("slack_low") for d in details if d.get("verdict") != VACUOUS]
    if ends and all(e is not None and e >= SLACK_LIMIT for e in ends):
        return SLACK
    return verdict


def slack_of(bound: float, value, low, high, upper: bool) -> tuple:
    """(slack, least slack, largest slack) of one measurement with interval [low, high]
    against a bound: bound / measured for an upper bound, measured / bound for a lower one.
    None where a ratio is undefined (an open interval end, a bound at or below 0); an upper
    bound over a measured value at or below 0 has no ratio (a signed quantity such as a
    generalisation gap would otherwise read as infinitely slack however small the margin)."""
    def ratio(num, den):
        if num is None or den is None or den <= 0:
            return None
        return float(num) / float(den)
    if upper:
        return ratio(bound, value), ratio(bound, high), ratio(bound, low)
    if bound is None or bound <= 0:
        return None, None, None
    return ratio(value, bound), ratio(low, bound), ratio(high, bound)
