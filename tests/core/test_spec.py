"""The one plotter with options (figures/spec.py): templates, a series and a panel repeated
over a parameter, several series of one learner in shades of it, a claim's bound swept
between the measured points, and the panel kinds taken from the generic plotter."""

from types import SimpleNamespace

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from privbounds.figures import drawn  # noqa: E402
from privbounds.figures.spec import Axis, ClaimLine, Figure, Line, Panel, Series, Slope, fill  # noqa: E402
from privbounds.figures.spec_nhat import _styles  # noqa: E402
from privbounds.record import Record  # noqa: E402


def _record(tmp_path) -> Record:
    """n_hat = 10 k (rule basic) and 5 k (rule advanced) at k = 1, 2, 4, 8, with the claim
    'upper' (bound 40 k) confirmed and a scaling claim per rule."""
    points, verdicts = [], []
    for rule, c in (("basic", 10), ("advanced", 5)):
        for k in (1, 2, 4, 8):
            points.append({"point": {"k": k, "rule": rule, "epsilon": 1.0}, "conf": 0.95, "trials": 100,
                           "privacy": {"epsilon": 1.0, "delta": 0.0}, "n_hat": c * k, "n_low": c * k - 1,
                           "n_high": c * k + 1, "monotone": True})
        verdicts.append({"claim": f"scaling-k-{rule}", "kind": "scaling", "description": "", "bound_kind": None,
                         "bound_source": None, "verdict": "confirmed", "predicted": 1.0, "variable": "k",
                         "fit": {"exponent": 1.0, "low": 0.9, "high": 1.1, "points": 4, "method": "wls"}})
    verdicts.append({"claim": "upper", "kind": "upper bound", "description": "", "bound_kind": "exact",
                     "bound_source": "ours", "verdict": "confirmed"})
    return Record.parse({"id": "bns.fake", "paper": "p", "number": "1", "title": "a fake theorem", "statement": "s",
                         "fidelity": "smoke", "points": points, "verdicts": verdicts,
                         "provenance": {"code_version": "0", "command": "test", "seed": 0, "wall_seconds": 0.0}})


THEOREM = SimpleNamespace(id="bns.fake", claims=[SimpleNamespace(id="upper", bound=lambda p: 40.0 * p["k"])])


def _lines(tmp_path, figure: Figure) -> list[dict]:
    from privbounds.figures.common import Files, files

    with files(Files(svg=False, png=False, record=True)):
        figure(THEOREM, _record(tmp_path), tmp_path)
    return [ln for ax in drawn.load(tmp_path / "figures", "bns.fake")["axes"] for ln in ax["lines"]]


def test_templates_fill_from_the_point_and_keep_what_it_lacks():
    assert fill("{class!u}_{d}, alpha = {alpha}", {"class": "thresh", "d": 10, "alpha": 0.1}) == "THRESH_10, alpha = 0.1"
    assert fill("{missing} and {delta:g}", {"delta": 1e-6}) == "{missing} and 1e-06"
    assert fill("{alpha:g} of {k}", {"k": 3}) == "{alpha:g} of 3"  # a format on a missing name is kept too


def test_series_of_one_learner_get_shades_of_its_colour_and_their_own_markers():
    styles = _styles("bns", ["Alg 5", "Alg 5", "non-private ERM"])
    assert styles[0]["color"] != styles[1]["color"] and styles[0]["marker"] != styles[1]["marker"]
    assert styles[2]["color"] == "0.15"  # another learner keeps its own style


def test_a_series_repeated_over_a_rule_draws_each_rule_with_its_fit_and_its_bound(tmp_path):
    fig = Figure((Panel(Axis("k"), series=(Series(each="rule", label="learner, {rule}", fit="scaling-k-{rule}",
                                                  bound="upper", bound_text="bound, {rule}"),),
                        lines=(Line(lambda k: 3.0 * k, lambda p: (p["k"],), "a reference"),),
                        claims=(ClaimLine("upper", "the upper bound alone"),),
                        slopes=(Slope({"rule": "basic"}, 0.5, "sqrt(k) through the last basic point"),)),))
    lines = _lines(tmp_path, fig)
    labels = [ln["label"] for ln in lines]
    assert any(lab.startswith("learner, advanced (exponent in k 1.00 [0.90, 1.10]") for lab in labels)
    assert any(lab.startswith("learner, basic") for lab in labels)
    assert any("bound, basic (claim upper: confirmed)" in lab for lab in labels)
    measured = {tuple(ln["y"]) for ln in lines if ln["marker"] not in ("None", None) and ln["linestyle"] == "-"}
    assert {(10.0, 20.0, 40.0, 80.0), (5.0, 10.0, 20.0, 40.0)} <= measured
    bound = next(ln for ln in lines if ln["label"].startswith("the upper bound alone"))
    assert bound["x"][0] == 1 and bound["x"][-1] == 8 and bound["y"][-1] == pytest.approx(320.0)
    slope = next(ln for ln in lines if ln["label"].startswith("sqrt(k)"))
    assert slope["y"][-1] == pytest.approx(80.0) and slope["y"][0] == pytest.approx(80.0 / np.sqrt(8))


def test_a_panel_repeated_over_a_parameter_and_a_scaling_panel(tmp_path):
    fig = Figure((Panel(Axis("k"), each="rule", title="rule {rule}", series=(Series(label="n_hat"),)),
                  Panel(kind="scaling", claim="scaling-k-basic")))
    from privbounds.figures.common import Files, files

    with files(Files(svg=False, png=False, record=True)):
        fig(THEOREM, _record(tmp_path), tmp_path)
    axes = drawn.load(tmp_path / "figures", "bns.fake")["axes"]
    assert [ax["title"] for ax in axes] == ["rule advanced", "rule basic", "scaling-k-basic: confirmed"]


def test_an_unknown_panel_kind_is_named(tmp_path):
    with pytest.raises(ValueError, match="panel kind must be"):
        Figure((Panel(kind="pie", claim="upper"),))(THEOREM, _record(tmp_path), tmp_path)
