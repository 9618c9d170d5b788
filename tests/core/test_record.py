"""The typed result record (privbounds/record.py): every field checked, the first wrong
one named by its path, optional parts too; the one rendering of a verdict and a fit."""

import pytest

from privbounds.record import ClaimResult, Record, RecordShapeError, fit_text, parse, verdict_text

PROV = {"code_version": "0", "command": "test", "seed": 0, "wall_seconds": 1.0}
BASE = {"id": "siv.thm3_3", "paper": "p", "number": "1", "title": "t", "statement": "s", "fidelity": "smoke",
        "provenance": PROV}
SCALING = {"claim": "scaling-k", "kind": "scaling", "description": "", "bound_kind": None, "bound_source": None,
           "verdict": "confirmed", "predicted": 0.5, "variable": "k", "direction": "upper", "divided_by": "ln k",
           "fit": {"exponent": 0.52, "low": 0.4, "high": 0.61, "points": 5, "method": "wls"}}


@pytest.mark.parametrize("change, message", [
    ({"provenance": {k: v for k, v in PROV.items() if k != "seed"}}, "^provenance.seed is missing$"),
    ({"provenance": {**PROV, "seed": "0"}}, "^provenance.seed must be an integer, found str '0'$"),
    ({"verdicts": [{**SCALING, "fit": {"exponent": 0.5, "low": 0.4, "high": 0.6, "points": 5}}]},
     r"^verdicts\[0\].fit.method is missing$"),
    ({"verdicts": [{**SCALING, "bogus": 1}]}, r"^verdicts\[0\].bogus is not a field of ClaimResult$"),
    ({"points": [{"point": {}, "conf": 0.9, "trials": 10, "privacy": {"epsilon": 1.0, "delta": 0.0},
                  "n_hat": 1.5}]}, r"^points\[0\].n_hat must be an integer or null, found float 1.5$"),
])
def test_the_first_wrong_field_is_named_by_its_path(change, message):
    with pytest.raises(RecordShapeError, match=message):
        Record.parse({**BASE, **change})


def test_a_measured_learner_s_provenance_is_kept_apart_and_given_back():
    rec = Record.parse({**BASE, "provenance": {**PROV, "learner": "mine", "learner_code": "abc"}})
    assert rec.provenance.extra == {"learner": "mine", "learner_code": "abc"}
    assert rec.to_dict()["provenance"]["learner"] == "mine"


def test_a_verdict_and_a_fit_are_written_one_way():
    v = parse(ClaimResult, SCALING)
    assert verdict_text(v) == "scaling-k: confirmed"
    assert fit_text(v) == "exponent of n_hat / (ln k) in k 0.52 [0.40, 0.61], at most 0.5"
    assert fit_text(v, 3).startswith("exponent of n_hat / (ln k) in k 0.520 [0.400, 0.610]")
    assert fit_text(parse(ClaimResult, {**SCALING, "fit": None})) == "no fit"
