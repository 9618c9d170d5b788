"""The scale model (privbounds/plan.py, issue 30 item 5): its arithmetic, where its costs
come from, the run log that sets measured against predicted, and the command's input."""

import json

import pytest

import privbounds
from privbounds import plan
from privbounds.registry import get, ids


def test_the_model_is_the_larger_of_the_shared_work_and_the_longest_chain():
    known = {"a": plan.Cost("a", 100, 400.0, 2, 1000, "x"),  # chain: 2 rounds x 4 s = 8 s
             "b": plan.Cost("b", 10, 300.0, 10, 500, "x")}  # chain: 10 rounds x 30 s = 300 s
    one = plan.predict("p", ["a", "b"], known, 1)
    assert (one.seconds, one.wall, one.blocks, one.store_bytes) == (700.0, 700.0, 110, 1500)
    assert plan.predict("p", ["a", "b"], known, 2).wall == 350.0
    assert plan.predict("p", ["a", "b"], known, 8).wall == 300.0  # b's rounds follow each other
    part = plan.predict("p", ["a", "c"], known, 1)
    assert part.missing == ("c",) and part.wall == 400.0


def test_committed_costs_name_registered_theorems_and_plan_covers_every_paper(capsys, run_cli):
    runnable = {t for t in ids() if get(t).runnable and not getattr(get(t).simulator, "measured", False)}
    for fidelity in ("quick", "full"):
        have = plan.committed(fidelity)
        assert set(have) <= set(ids())
        assert runnable - set(have) == set(), f"theorems with no committed {fidelity} cost"
    code, out, err = run_cli(["plan", "--fidelity", "full", "--workers", "4", "--json", "--out", "/nonexistent"],
                             capsys)
    assert code == 0, err
    got = json.loads(out)
    rows = {r["label"]: r for r in got["papers"]}
    assert set(rows) == {"bns", "kmms", "pap", "siv", "wlf", "all"}
    assert rows["all"]["theorems"] == len(runnable) and rows["all"]["missing"] == []
    assert rows["all"]["seconds"] == pytest.approx(sum(r["seconds"] for p, r in rows.items() if p != "all"))
    assert rows["all"]["wall"] >= rows["all"]["seconds"] / 4
    code, text, _ = run_cli(["plan", "--paper", "siv", "--workers", "2", "--out", "/nonexistent"], capsys)
    assert code == 0 and "wall on 2" in text and "the project's quick run" in text


@pytest.mark.parametrize("argv, needle", [
    (["plan", "--workers", "0"], "--workers"),
    (["plan", "--workers", "100001"], "--workers must be an integer in [1, 100000]"),
    (["plan", "--fidelity", "slow"], "--fidelity"),
    (["plan", "no.such_id"], "no.such_id"),
])
def test_bad_plan_input_is_one_line_and_exit_2(argv, needle, capsys, run_cli):
    code, out, err = run_cli(argv, capsys)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1 and not out


def test_a_run_logs_its_wall_time_beside_the_prediction_from_the_run_before(tmp_path, capsys, run_cli):
    out = tmp_path / "o"
    privbounds.run("siv.thm3_3", fidelity="smoke", out=out, progress=False)
    first = plan.runs(out)
    assert len(first) == 1 and first[0]["predicted"] is None  # nothing measured at smoke before
    assert first[0]["workers"] == 1 and first[0]["theorems"] == 1 and first[0]["wall"] >= 0
    cost = plan.costs(["siv.thm3_3"], "smoke", out)["siv.thm3_3"]
    assert cost.source == f"the last run in {out}" and cost.blocks > 0 and cost.store_bytes > 0
    privbounds.run("siv.thm3_3", fidelity="smoke", out=out, progress=False)
    (out / plan.RUNS).open("a").write("not json\n")  # a damaged line is skipped, never fatal
    second = plan.runs(out)
    assert len(second) == 2 and second[1]["cached"] > 0  # every block read from the store
    assert plan.ratio_text(second[1]).startswith("not comparable: ")
    assert second[1]["predicted"] == pytest.approx(round(max(cost.seconds, cost.chain), 1))
    code, text, _ = run_cli(["plan", "siv.thm3_3", "--fidelity", "smoke", "--out", str(out)], capsys)
    assert code == 0 and f"costs from the last run in {out}" in text
    privbounds.run("siv.thm3_3", fidelity="smoke", out=out, progress=False, overrides={"d": [3]}, force=True)
    assert plan.runs(out)[-1]["predicted"] is None  # a --set grid is not the one whose cost is known
    assert "siv.thm3_3" not in plan.costs(["siv.thm3_3"], "smoke", out)  # nor its record's cost
    page = privbounds.report(out).read_text()
    assert "Runs: measured against predicted" in page and page.count("<tr><td>20") == 3
