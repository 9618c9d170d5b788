"""A parameter's name written once (issue 31): a params dict's key names its spec."""

import pytest

from privbounds.params import ALPHA, FLOORS, Interval, Options, ParameterError, named, validate
from privbounds.simulators.engine.simulator import Simulator


def test_the_key_names_an_interval_and_its_floor_follows():
    spec = named({"alpha": Interval(0, 1)})["alpha"]
    assert spec.name == "alpha" and spec.floor == FLOORS["alpha"]
    with pytest.raises(ParameterError, match=r"^alpha must be a number in \[0.0001, 1\), got 2"):
        spec.validate(2)
    assert named({"beta": ALPHA})["beta"].floor == FLOORS["beta"]  # the key wins over a constant's use


def test_the_name_may_still_lead():
    assert Interval("n", 1, None, "left", integer=True) == Interval(1, None, "left", integer=True, name="n")
    assert Options("dist", ("a", "b")) == Options(("a", "b"), name="dist")
    with pytest.raises(TypeError):
        Interval("n", 1, None, name="m")


def test_an_unnamed_spec_refuses_to_check_a_value():
    with pytest.raises(ParameterError, match="without a name"):
        Interval(1, 24, "both", integer=True).validate(3)
    with pytest.raises(ParameterError, match="without a name"):
        Options(("a",)).validate("a")


def test_a_simulator_class_names_its_params():
    class Toy(Simulator):
        theorem_id = "toy"
        params = {"d": Interval(1, 24, "both", integer=True), "dist": Options(("u", "c")), "alpha": ALPHA}

    assert {k: s.name for k, s in Toy.params.items()} == {"d": "d", "dist": "dist", "alpha": "alpha"}
    with pytest.raises(ParameterError, match=r"^d must be an integer in \[1, 24\], got 30$"):
        validate(Toy.params, {"d": 30})
    with pytest.raises(ParameterError, match=r"^d must be an integer in \[1, 24\], got 30$"):
        validate({"d": Interval(1, 24, "both", integer=True)}, {"d": 30})
