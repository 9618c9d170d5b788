"""Property tests over the command line and the Python API (issue 30 item 7; the slow
session): whatever a user types or passes, the answer is a result, or one line naming what
was wrong and exit 2; never a traceback, an internal error or a hang.

Bounded in time: each property draws a fixed number of examples, and the runs it starts are
of the cheapest theorems at smoke fidelity without the block store."""

import math

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import privbounds  # noqa: E402
from privbounds.cli import main  # noqa: E402
from privbounds.params import Interval, Options, ParameterError  # noqa: E402
from privbounds.registry import get, ids  # noqa: E402

pytestmark = pytest.mark.slow
RUNNABLE = [t for t in ids() if get(t).runnable and not getattr(get(t).simulator, "measured", False)]
CHEAP = ["siv.thm3_3", "siv.lem3_2", "wlf.lem37"]
EDGE_NUMBERS = [0, -1, 1, 2, 2**31, 2**63, 10**400, 5e-324, 1e-300, 1e300, math.inf, -math.inf, math.nan, 0.5, 4.0]
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _numbers():
    return st.one_of(st.sampled_from(EDGE_NUMBERS), st.integers(-10, 10**6),
                     st.floats(allow_nan=True, allow_infinity=True))


def _word():
    return st.one_of(st.text(max_size=12), st.sampled_from(["", "\x00", "é", "..", "/", "-1", "1e999", "nan"]),
                     _numbers().map(repr))


def _value_for(spec):
    """Values a user might give a parameter: inside its range, at its ends, far outside it."""
    if isinstance(spec, Options):
        return st.one_of(st.sampled_from(list(spec.allowed)), _word())
    inside = []
    if isinstance(spec, Interval) and spec.low is not None and spec.high is not None:
        inside = [st.integers(math.ceil(spec.low), math.floor(spec.high)) if spec.integer
                  else st.floats(spec.low, spec.high)]
    return st.one_of(*inside, _numbers())


@st.composite
def an_override(draw):
    tid = draw(st.sampled_from(RUNNABLE))
    sim = get(tid).simulator
    name = draw(st.sampled_from(sorted(sim.params)) if sim.params else st.just("x"))
    spec = sim.params.get(name)
    values = draw(st.lists(_value_for(spec) if spec is not None else _numbers(), min_size=1, max_size=3))
    return tid, name, values


@SETTINGS
@given(an_override())
def test_any_override_of_any_theorem_gives_its_points_or_one_parameter_error(case):
    """Every theorem, every parameter: the points a run would start from, or ParameterError."""
    tid, name, values = case
    sim = get(tid).simulator
    for fidelity in ("smoke", "full"):
        try:
            points = sim.points(fidelity, {name: values})
        except ParameterError as e:
            assert "\n" not in str(e) and len(str(e)) < 400
            continue
        for p in points:
            lo, hi = sim.n_range(p)
            assert 1 <= lo <= hi < 2**40, (tid, p, lo, hi)


def _argv():
    ids_ = st.lists(st.one_of(st.sampled_from(CHEAP + ["siv.*", "nope", "bns.thm2_7"]), _word()), max_size=2)
    sets = st.lists(st.tuples(st.sampled_from(["d", "epsilon", "alpha", "beta", "k", "size", "delta", "zz"]),
                              st.lists(_numbers().map(repr), min_size=1, max_size=2)), max_size=2)
    run = st.tuples(st.just(["run", "--fidelity", "smoke", "--no-cache", "--quiet"]), ids_, sets,
                    st.lists(st.sampled_from([["--jobs", "0"], ["--jobs", "x"], ["--seed", "-1"],
                                              ["--seed", str(2**70)], ["--backend", "ray"], ["--scheduler", "tcp://x"],
                                              ["--cache-max", "1Q"], ["--paper", "xyz"], ["--out", ""]]), max_size=2))
    other = st.tuples(st.sampled_from([["list"], ["show"], ["plan"], ["check"], ["figures"], ["findings"],
                                       ["plan", "--workers", "0"], ["plan", "--fidelity", "full"], ["show", "siv.thm3_3"]]),
                      ids_, st.just([]), st.lists(st.sampled_from([["--json"], ["--paper", "siv"], ["--out", "\x00"],
                                                                    ["--workers", "3"], ["--update"]]), max_size=2))
    return st.one_of(run, other)


@SETTINGS
@given(_argv())
def test_any_command_line_answers_in_one_line_or_a_result(tmp_path_factory, capsys, parts):
    head, ids_, sets, opts = parts
    out = tmp_path_factory.mktemp("cli")
    argv = [*head, *ids_, *[f"--set={n}={','.join(v)}" for n, v in sets], *[o for opt in opts for o in opt]]
    if "--out" not in argv:
        argv += ["--out", str(out)]
    try:
        code = main(argv)
    except SystemExit as e:  # argparse's own refusals
        code = e.code
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    assert code in (0, 2), (argv, code, err)
    if code == 2:
        last = [line for line in err.splitlines() if line.startswith("privbounds")][-1:]
        assert last and ("error" in last[0] or "usage" in err), (argv, err)


@SETTINGS
@given(st.one_of(st.none(), st.sampled_from(CHEAP), st.integers(), st.lists(st.sampled_from(CHEAP + ["nope"]), max_size=2)),
       st.sampled_from(["smoke", "fast", 3, None]), st.one_of(st.sampled_from([1, 0, -2, 1.5, True, "2"]), st.integers(-3, 3)),
       st.one_of(st.sampled_from([0, -1, 2**64, 1.0, "0", None]), st.integers(0, 2**62)),
       st.one_of(st.none(), st.dictionaries(st.sampled_from(["d", "epsilon", "alpha", "zz", 3]),
                                            st.one_of(_numbers(), st.lists(_numbers(), max_size=2)), max_size=2)))
def test_the_python_api_returns_results_or_raises_parameter_error(tmp_path_factory, ids_, fidelity, jobs, seed,
                                                                   overrides):
    out = tmp_path_factory.mktemp("api")
    if ids_ is None:
        ids_ = CHEAP[:1]
    try:
        recs = privbounds.run(ids_, fidelity=fidelity, jobs=jobs, seed=seed, out=out, overrides=overrides,
                              progress=False, use_cache=False)
    except ParameterError as e:
        assert "\n" not in str(e)
        return
    except privbounds.api.TheoremsFailed as e:  # a valid input that crashed a theorem: a bug
        pytest.fail(f"{ids_!r} {overrides!r}: {e}")
    assert recs and all(r.status == "finished" for r in recs.values())
