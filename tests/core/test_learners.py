"""Bring your own learner (privbounds/learners.py, privbounds/instances/): the public
instances score exactly, ``measure`` writes a normal result beside the theorem's own
learners and bounds, the result is read back by a fresh process for figures, report and
check, a script's learner runs with jobs=2, the cache sees a learner's settings, and bad
input is one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import privbounds
from privbounds.instances import get as family
from privbounds.params import ParameterError


class NoisyThreshold:
    """The exponential mechanism over thresholds at the sample's features (and one above
    them), score minus the errors; a counts learner. Its candidates come from the data, so
    it is eps-DP only against neighbours that change a label (the audit's below), not a
    feature."""

    sample_form = "counts"

    def __init__(self, epsilon=1.0, temper=1.0):
        self.epsilon, self.delta, self.temper = epsilon, 0.0, temper

    def fit(self, sample, rng):
        x = sample.features[:, 0]
        cands = np.append(np.sort(x), np.inf)
        errs = np.array([np.sum(sample.counts * ((x >= t) != sample.labels)) for t in cands])
        w = np.exp(-self.temper * self.epsilon * (errs - errs.min()) / 2)
        t = rng.choice(cands, p=w / w.sum())
        return lambda X: (X[:, 0] >= t).astype(int)


class NoPrivacy:
    sample_form = "rows"

    def fit(self, sample, rng):
        return lambda X: np.zeros(len(X), dtype=int)


@pytest.fixture(autouse=True, scope="module")
def _registry_restored(registry_restored):  # see tests/conftest.py
    """The entries this module measures leave the registry with it (a later module's
    ``list`` would otherwise show them, never run, in this process)."""
    yield


# --- instances ----------------------------------------------------------------------

def test_thresholds_instance_scores_exactly():
    inst = family("thresholds").make(d=6)
    rng = np.random.default_rng(1)
    draws = inst.draw(50, 200, rng)
    assert draws.support.shape == (200, 4) and np.all(draws.counts.sum(axis=1) == 50)
    assert np.all(draws.labels == [0, 0, 1, 1])  # the target is p3 of each cluster
    feats = inst.features(draws.support)
    assert feats.shape == (200, 4, 1) and feats.min() >= 0 and feats.max() <= 1
    for i in range(5):
        sup, pr, lab = draws.support[i], draws.probs[i], draws.labels[i]
        t = inst.features(sup[2])[0]
        assert inst.error(lambda X, t=t: (X[:, 0] >= t).astype(int), sup, pr, lab) == 0.0
        assert inst.error(lambda X: np.zeros(len(X), int), sup, pr, lab) == 0.5
        t2 = inst.features(sup[1])[0]  # threshold at p2: wrong on p2 only
        assert inst.error(lambda X, t=t2: (X[:, 0] >= t).astype(int), sup, pr, lab) == 0.25


def test_kgon_instance_scores_exactly():
    inst = family("kgon").make(d=8, k=4)
    rng = np.random.default_rng(3)
    draws = inst.draw(40, 5, rng)
    assert np.allclose(draws.probs.sum(axis=1), 1) and inst.n_features == 2
    for i in range(5):
        sup, pr, lab = draws.support[i], draws.probs[i], draws.labels[i]
        feats = inst.features(sup)
        assert feats.shape == (len(sup), 2) and feats.min() >= 0 and feats.max() <= 1

        def truth(X, feats=feats, lab=lab):  # the target, looked up on the support
            return lab[np.argmin(((X[:, None, :] - feats[None]) ** 2).sum(-1), axis=1)]
        assert inst.error(truth, sup, pr, lab) == 0.0
        assert inst.error(lambda X: np.ones(len(X), int), sup, pr, lab) == pytest.approx(0.5)
    with pytest.raises(ParameterError, match="d must be at least 10 for a 8-gon"):
        family("kgon").make(d=4, k=8)


def test_parities_instance_has_k_labels_and_scores_each_hypothesis():
    inst = family("parities").make(d=5, k=3)
    assert inst.k == 3 and inst.n_features == 5
    rng = np.random.default_rng(4)
    draws = inst.draw(64, 4, rng)
    for i in range(4):
        rows, counts = draws.sample(i, "rows", rng), draws.sample(i, "counts")
        assert rows.X.shape == (64, 5) and rows.y.shape == (64, 3) and counts.labels.shape[1] == 3
        # recover each trial's targets from the full truth table: a = the labels of the unit vectors
        table = draws.labels[i]  # (32, 3)
        a = (table[1 << np.arange(5)] << np.arange(5)[:, None]).sum(axis=0)

        def truth(X, a=a, flip=None):
            p = X.astype(np.int64) @ (1 << np.arange(5))
            out = np.bitwise_count(a[None, :] & p[:, None]) & 1
            if flip is not None:
                out[:, flip] ^= 1
            return out
        assert np.all(truth(rows.X) == rows.y)
        assert draws.column_errors(i, truth).tolist() == [0, 0, 0] and draws.error(i, truth) == 0
        # one hypothesis complemented: that column errs everywhere, the worst error is 1
        assert draws.column_errors(i, lambda X: truth(X, flip=1)).tolist() == [0, 1, 0]
        assert draws.error(i, lambda X: truth(X, flip=1)) == 1.0
    with pytest.raises(ParameterError, match=r"3 labels per point, shape \(32, 3\)"):
        draws.error(0, lambda X: np.zeros(len(X), int))
    # one concept: labels (n,), as for every family
    one = family("parities").make(d=4, k=1).draw(16, 2, rng)
    assert one.sample(0, "rows", rng).y.shape == (16,) and one.sample(1, "counts").labels.ndim == 1
    assert one.labels.shape == (2, 16)


def test_noisy_points_counts_positives_and_scores_the_excess_error():
    inst = family("noisy_points").make(d=8, k=3)
    assert inst.noise == pytest.approx(0.1) and inst.k == 3
    rng = np.random.default_rng(6)
    draws = inst.draw(300, 5, rng)
    for i in range(5):
        rows, counts = draws.sample(i, "rows", rng), draws.sample(i, "counts")
        assert counts.labels is None and counts.positives.shape == (len(counts.counts), 3)
        for j, p in enumerate(counts.support):  # the rows at a point carry its positives, column by column
            at = rows.points == p
            assert at.sum() == counts.counts[j] and rows.y[at].sum(axis=0).tolist() == counts.positives[j].tolist()
        truth = draws.labels_at(i)  # (32, 3): the noiseless targets on the support
        feats = inst.features(draws.support[i])

        def target(X, truth=truth, feats=feats):  # the noiseless targets, 0 off the support
            hit = X[:, None, 0] == feats[None, :, 0]
            return (hit[:, :, None] & (truth[None] == 1)).any(axis=1).astype(int)
        assert draws.error(i, target) == 0.0
        # the all-zero predictor's excess error is (1 - 2 eta) times each target's mass
        mass = draws.probs[i] @ truth
        assert draws.column_errors(i, lambda X: np.zeros((len(X), 3), int)) == pytest.approx(0.8 * mass)
    # the labels are noisy: about 10% of the rows at a target point are 0
    c = inst.draw(20000, 1, rng).sample(0, "counts")
    assert c.positives.sum() < 0.5 * c.counts.sum() * 3


class Constant:
    """A learner of any family: predicts 0 everywhere, in the shape the family asks for."""

    def __init__(self, epsilon=1.0, k=1):
        self.epsilon, self.delta, self.k = epsilon, 0.0, k

    def fit(self, sample, rng):
        return lambda X: np.zeros((len(X), self.k) if self.k > 1 else len(X), dtype=int)


@pytest.mark.parametrize("name", sorted(privbounds.instances.families()))
def test_every_family_draws_samples_and_scores_at_its_default_grid(name, tmp_path):
    """Each public family: its default grid is valid for measure against its theorem (or it
    says why it cannot be measured), each grid point makes an instance whose samples have
    the promised shapes, and a constant predictor's error is a probability."""
    from privbounds.learners import make_spec
    from privbounds.registry import get
    from privbounds.simulators.engine.simulator import expand

    fam = family(name)
    for thm in (fam.theorem, *fam.also) if not fam.measurable else ():
        # a parameter of the family that the theorem does not take is pinned by it (left out here)
        grid = {k: v for k, v in fam.grid.items() if k in get(thm).simulator.params}
        spec = make_spec(Constant, name="c", instance=name, compare_to=thm, grid=grid, max_n=64)
        assert spec["beside"], f"{name}: no learner of {thm} runs at its default grid"
        assert spec["theorem_point"] == fam.point_for(thm)
    rng = np.random.default_rng(0)
    for point in expand(fam.grid, {}):
        inst = fam.make(**{k: v for k, v in point.items() if k in fam.params})
        draws = inst.draw(20, 2, rng)
        rows, counts = draws.sample(0, "rows", rng), draws.sample(1, "counts")
        assert rows.X.shape == (20, inst.n_features) and rows.y.shape[0] == 20 and counts.counts.sum() == 20
        err = draws.column_errors(0, Constant(k=inst.k).fit(rows, rng))
        assert err.shape == (inst.k,) and np.all((0 <= err) & (err <= 1))


def test_rows_and_counts_are_the_same_sample():
    inst = family("points").make(d=5)
    rng = np.random.default_rng(2)
    draws = inst.draw(30, 3, rng)
    for i in range(3):
        rows, counts = draws.sample(i, "rows", rng), draws.sample(i, "counts")
        assert rows.X.shape == (30, 1) and rows.y.shape == (30,)
        assert np.all(counts.counts >= 1) and counts.counts.sum() == 30
        for j, p in enumerate(counts.support):
            assert np.sum(rows.points == p) == counts.counts[j]
            assert np.all(rows.y[rows.points == p] == counts.labels[j])


def test_a_sample_tells_nothing_of_the_points_it_did_not_draw():
    inst = family("thresholds").make(d=12)
    rng = np.random.default_rng(5)
    draws = inst.draw(1, 200, rng)
    for i in range(200):
        c = draws.sample(i, "counts")
        assert c.counts.tolist() == [1] and c.support.size == 1 and c.labels.size == 1


def test_instance_errors_name_the_parameter():
    with pytest.raises(ParameterError, match="instance must be one of"):
        family("nope")
    with pytest.raises(ParameterError, match="d must be"):
        family("thresholds").make(d=40)
    with pytest.raises(ParameterError, match="unknown parameter 'k'"):
        family("thresholds").make(d=4, k=2)
    with pytest.raises(ParameterError, match="n must be an integer"):
        family("thresholds").make(d=4).draw(0, 2, np.random.default_rng(0))


# --- measure ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def measured(tmp_path_factory):
    out = tmp_path_factory.mktemp("measured")
    rec = privbounds.measure(NoisyThreshold, instance="thresholds", grid={"d": [4, 6]}, fidelity="smoke",
                             jobs=1, seed=0, out=out, name="noisy", progress=False)
    return out, rec


def test_measure_writes_a_result_beside_the_theorems_learners(measured):
    out, rec = measured
    assert rec.id == "learner.noisy" and rec.status == "finished"
    learners = {p.point["learner"] for p in rec.points}
    assert learners == {"noisy", "expmech", "erm"}
    mine = [p for p in rec.points if p.point["learner"] == "noisy"]
    assert all(p.n_hat is not None and p.n_low <= p.n_hat <= p.n_high for p in mine)
    claims = {v.claim: v for v in rec.verdicts}
    vs = claims["noisy-vs-upper-expmech-thresh"]
    # the bound held to our learner is Theorem 3.3's at the same point
    from privbounds.bounds.sivakumar import n_expmech_learner
    for d in vs.details:
        assert d.bound == pytest.approx(n_expmech_learner(h_size=2 ** d.point["d"] + 1,
                                                             epsilon=1.0, alpha=0.25, beta=0.25))
    assert "upper-expmech-thresh" in claims  # the theorem's own claims at these points
    assert (out / "figures" / "learner.noisy.png").is_file()
    assert json.loads((out / "learners" / "learner.noisy.json").read_text())["compare_to"] == "siv.thm3_3"
    assert rec.points[0].privacy.accounting.startswith("declared by")


class ParityExpMech:
    """The exponential mechanism over the 2^d parities on each of the k columns at eps/k
    (Example 3.5's learner, written as a user would: a counts learner)."""

    sample_form = "counts"

    def __init__(self, epsilon=1.0, d=4, k=1):
        self.epsilon, self.delta, self.d, self.k = epsilon, 0.0, d, k

    def fit(self, sample, rng):
        weights = 1 << np.arange(self.d)
        pts = sample.features.astype(np.int64) @ weights
        table = np.bitwise_count(np.arange(2 ** self.d)[:, None] & pts[None, :]) & 1  # (2^d, m)
        labels = sample.labels.reshape(len(sample.counts), -1)  # (m,) for one concept
        errs = ((table[:, :, None] != labels[None]) * sample.counts[None, :, None]).sum(axis=1)
        chosen = np.argmax(-self.epsilon / self.k * errs / 2 + rng.gumbel(size=errs.shape), axis=0)
        return lambda X: np.bitwise_count(chosen[None, :] & (X.astype(np.int64) @ weights)[:, None]) & 1


def test_a_theorem_with_one_learner_is_measured_beside_it(tmp_path):
    """bns.ex3_5 has no "learner" parameter: its learner shows under its number, its claims
    stay on its own points, and Theorem 5.4's packing bound is held to the measured one."""
    rec = privbounds.measure(ParityExpMech, instance="parities", grid={"d": [4], "k": [1, 2]}, fidelity="smoke",
                             out=tmp_path, name="par", progress=False)
    assert {p.point["learner"] for p in rec.points} == {"par", "ex3_5"}
    claims = {v.claim: v for v in rec.verdicts}
    assert {"par-vs-upper", "par-vs-lower-thm5_4", "upper", "lower-thm5_4"} <= set(claims)
    for cid, who in (("par-vs-lower-thm5_4", "par"), ("lower-thm5_4", "ex3_5")):
        assert {d.point["learner"] for d in claims[cid].details} == {who}
    from privbounds.bounds.bns import parity_packing_lower_bound
    for d in claims["par-vs-lower-thm5_4"].details:
        assert d.bound == pytest.approx(parity_packing_lower_bound(k=d.point["k"], d=4, epsilon=1.0, beta=0.1))
    # Theorem 3.12 runs the same instance, as an (eps, delta) statement: its delta is the point's
    from privbounds.learners import build_theorem, make_spec
    spec = make_spec(ParityExpMech, name="par", instance="parities", compare_to="bns.thm3_12",
                     grid={"d": [4], "k": [1, 4]}, max_n=1024)
    assert spec["beside"] == ["thm3_12"] and spec["grid"]["delta"] == [1e-6] and spec["grid"]["alpha"] == [0.1]
    # a learner that declares delta > 0 is not held to the pure-DP packing bound
    class Approx(ParityExpMech):
        def __init__(self, epsilon=1.0, d=4, k=1):
            super().__init__(epsilon, d, k)
            self.delta = 1e-6
    ids = {c.id for c in build_theorem(make_spec(Approx, name="ap", instance="parities", compare_to="bns.ex3_5",
                                                 grid={"d": [4], "k": [1, 4]}, max_n=1024)).claims}
    assert "ap-vs-upper" in ids and "ap-vs-lower-thm5_4" not in ids
    # a grid at which the theorem runs none of its learners is refused, with the theorem's reason
    with pytest.raises(ParameterError, match=r"bns.thm3_12 runs none of its learners at this grid \(epsilon"):
        make_spec(ParityExpMech, name="par", instance="parities", compare_to="bns.thm3_12",
                  grid={"d": [4], "k": [1], "epsilon": [2.0]}, max_n=1024)
    with pytest.raises(ParameterError, match="name 'ex3_5' is the name of one of bns.ex3_5's learners"):
        privbounds.measure(ParityExpMech, instance="parities", grid={"d": [4], "k": [1]}, out=tmp_path, name="ex3_5")


class PointDirectSum:
    """Per column, the exponential mechanism (eps/k) over the point concepts of the support
    points drawn and the all-zero concept, scored from a counts sample's positives."""

    sample_form = "counts"

    def __init__(self, epsilon=1.0, k=1):
        self.epsilon, self.delta, self.k = epsilon, 0.0, k

    def fit(self, sample, rng):
        pos = sample.positives.reshape(len(sample.counts), -1)
        errs = np.vstack([pos.sum(axis=0) - 2 * pos + sample.counts[:, None], pos.sum(axis=0)])
        pick = np.argmax(-self.epsilon / self.k * errs / 2 + rng.gumbel(size=errs.shape), axis=0)
        pts = np.append(sample.features[:, 0], np.nan)[pick]  # nan: the all-zero concept
        return lambda X: (X[:, :1] == pts[None, :]).astype(int).reshape(len(X), self.k)


def test_a_theorem_whose_learners_are_accountings_is_measured_beside_them(tmp_path):
    """bns.cor3_9 names its variants by "rule"; bns.cor3_3 runs on the same instance, with
    Theorem 5.1's packing bound, and refuses the advanced rule, which is then not run."""
    rec = privbounds.measure(PointDirectSum, instance="noisy_points", grid={"d": [10], "k": [1, 4]},
                             fidelity="smoke", out=tmp_path, name="pds", progress=False)
    assert {(p.point["learner"], p.point["rule"]) for p in rec.points} == {
        ("pds", "pds"), ("basic", "basic"), ("advanced", "advanced")}
    claims = {v.claim: v for v in rec.verdicts}
    assert {d.point["learner"] for d in claims["pds-vs-upper"].details} == {"pds"}
    assert {d.point["learner"] for d in claims["upper"].details} <= {"basic", "advanced"}
    rec = privbounds.measure(PointDirectSum, instance="noisy_points", grid={"d": [10], "k": [1, 4]},
                             fidelity="smoke", out=tmp_path, name="pds3", compare_to="bns.cor3_3", progress=False)
    assert {p.point["learner"] for p in rec.points} == {"pds3", "basic"}
    from privbounds.bounds.bns import packing_lower_bound
    for d in {v.claim: v for v in rec.verdicts}["pds3-vs-lower-thm5_1"].details:
        assert d.bound == pytest.approx(packing_lower_bound(k=d.point["k"], epsilon=1.0, beta=0.1))


def _cli(*args, cwd=None, env_extra=None):
    env = {**os.environ, "MPLBACKEND": "Agg", **(env_extra or {})}
    return subprocess.run([sys.executable, "-m", "privbounds", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=300)


def test_a_fresh_process_reports_and_checks_a_measured_learner(measured, tmp_path):
    out, _ = measured
    r = _cli("report", "--out", out)
    assert r.returncode == 0, r.stderr
    index = (out / "report" / "index.html").read_text()
    assert "Learners from other libraries and your own" in index and "paper-learner.html" in index
    assert "not a theorem&#39;s algorithm" in (out / "report" / "learner.noisy.html").read_text().lower() \
        or "not a theorem's algorithm" in (out / "report" / "learner.noisy.html").read_text().lower()
    r = _cli("check", "--out", out)  # no baseline yet: a note, not a regression
    assert r.returncode == 0 and "no baseline yet" in r.stdout, r.stdout + r.stderr
    # at smoke fidelity too, the baseline of a user's learner is kept in <out>/baselines
    r = _cli("check", "--out", out, "--update")
    assert r.returncode == 0 and (out / "baselines" / "smoke.json").is_file(), r.stdout + r.stderr
    r = _cli("check", "--out", out)
    assert r.returncode == 0 and "learner.noisy" in r.stdout and "not checked" not in r.stdout, r.stdout + r.stderr
    # a run that cannot find the learner says how to rerun it, in one line
    r = _cli("run", "learner.noisy", "--fidelity", "smoke", "--out", out, "--no-cache", "--quiet")
    assert r.returncode == 2 and "rerun privbounds.measure" in r.stderr and len(r.stderr.splitlines()) == 1


def test_the_cache_key_holds_the_learners_settings(tmp_path):
    kw = dict(instance="thresholds", grid={"d": [4]}, fidelity="smoke", out=tmp_path, name="t", progress=False)
    a = privbounds.measure(NoisyThreshold(1.0, temper=1.0), **kw)
    b = privbounds.measure(NoisyThreshold(1.0, temper=1.0), **kw)
    c = privbounds.measure(NoisyThreshold(1.0, temper=0.25), **kw)
    assert b.engine.blocks_run == 0 and b.engine.blocks_cached > 0
    # a new setting is measured anew; the theorem's learners beside it are not (their blocks
    # are keyed by the theorem's simulator, Simulator.delegate), and give the same numbers
    assert c.engine.blocks_run > 0 and c.engine.blocks_cached > 0
    mine = [[p.n_hat, p.n_low, p.n_high] for r in (a, c) for p in r.points
            if p.point["learner"] == "t"]
    assert mine[0] != mine[1]  # a tempered learner (a quarter of its epsilon) needs more examples
    theirs = [[(p.point["learner"], p.n_hat) for p in r.points if p.point["learner"] != "t"]
              for r in (a, c)]
    assert theirs[0] == theirs[1] and theirs[0]
    fresh = privbounds.measure(NoisyThreshold(1.0, temper=0.25), **{**kw, "out": tmp_path / "fresh"})
    assert fresh.engine.blocks_run == c.engine.blocks_run + c.engine.blocks_cached


def test_a_learner_defined_in_a_script_runs_with_two_jobs(tmp_path):
    script = tmp_path / "mine.py"
    script.write_text(textwrap.dedent("""
        import numpy as np
        import privbounds

        SHIFT = 0  # a setting kept outside the learner object

        class Majority:
            sample_form = "rows"
            def __init__(self, epsilon=1.0):
                self.epsilon, self.delta = epsilon, 0.0
            def fit(self, sample, rng):
                # the smallest positive example (a toy, not private; the test is about running it)
                pos = sample.X[sample.y == 1, 0]
                t = (pos.min() if pos.size else 1.0) + SHIFT + rng.laplace(0, 1e-9)
                return lambda X: (X[:, 0] >= t).astype(int)

        if __name__ == "__main__":
            rec = privbounds.measure(Majority, grid={"d": [4, 6]}, fidelity="smoke", jobs=2, out="o",
                                     progress=False)
            print(sorted(p.n_hat for p in rec.points if p.point["learner"] == "majority"))
    """))
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path,
                       env={**os.environ, "MPLBACKEND": "Agg"}, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip().startswith("[")
    # a setting kept outside the learner, edited in the script: the blocks run again
    # (nothing stale from the cache)
    script.write_text(script.read_text().replace("SHIFT = 0 ", "SHIFT = 0.001 "))
    r = subprocess.run([sys.executable, "-c", "import runpy, json; runpy.run_path('mine.py', run_name='__main__'); "
                        "rec = json.load(open('o/results/learner.majority.json')); print(rec['engine'])"],
                       capture_output=True, text=True, cwd=tmp_path, env={**os.environ, "MPLBACKEND": "Agg"},
                       timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    engine = eval(r.stdout.strip().splitlines()[-1])
    # the learner's own blocks run again; the theorem's learners' are reused (Simulator.delegate)
    assert engine["blocks_run"] > 0
    # the command line, with a file path
    r = _cli("measure", f"{script}:Majority", "--set", "d=4", "--fidelity", "smoke", "--jobs", "2", "--quiet",
             "--out", tmp_path / "o2", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "<- yours" in r.stdout and "majority-vs-upper-expmech-thresh" in r.stdout


@pytest.mark.parametrize("kw, message", [
    ({"name": "Bad Name"}, "name must be"),
    ({"instance": "nope"}, "instance must be one of"),
    ({"compare_to": "bns.thm5_1"}, "does not use the instance"),
    ({"grid": {"k": [2]}}, "grid key 'k' is not a parameter"),
    ({"grid": {"delta": [0.1]}}, "grid key 'delta' is not a parameter"),
    ({"grid": {"d": [99]}}, "d must be"),
    ({"max_n": 1}, "max_n must be"),
    ({"fidelity": "fast"}, "fidelity must be one of"),
])
def test_bad_measure_input_is_one_line(tmp_path, kw, message):
    args = {"grid": {"d": [4]}, "fidelity": "smoke", "out": tmp_path, "progress": False, **kw}
    with pytest.raises(ParameterError, match=message):
        privbounds.measure(NoisyThreshold, **args)
    assert not (tmp_path / "results").exists()


def test_a_learner_must_declare_its_privacy(tmp_path):
    with pytest.raises(ParameterError, match="must declare its privacy as an attribute epsilon"):
        privbounds.measure(NoPrivacy, grid={"d": [4]}, fidelity="smoke", out=tmp_path, progress=False)


# --- audit of a learner --------------------------------------------------------------

def test_audit_of_a_learner_passes_a_private_one_and_catches_a_non_private_one():
    from privbounds.blackbox import audit, instance_neighbours, learner_mechanism, predictor_statistic

    d, dp = instance_neighbours("thresholds", 6, seed=0, d=3)
    assert np.sum(np.any(d != dp, axis=1)) == 1
    mech, takes = learner_mechanism(NoisyThreshold)
    assert takes
    ok = audit(mech, d, dp, epsilon=1.0, trials=3000, pilot=1000, statistic=predictor_statistic(d, dp))
    # on these neighbours the label-only statistic has no power at a doubled budget: the
    # verdict says so (inconclusive), and a leak would still show
    assert ok.verdict in ("no violation found", "inconclusive") and ok.eps_hat <= 1.0, ok.summary()

    class Leaky(NoisyThreshold):  # the planted bug: the noise is gone, the declaration stays
        def __init__(self, epsilon=1.0):
            super().__init__(epsilon, temper=1e4)
    # a pair on which the noiseless learner's output moves: the positive row turns negative
    from privbounds.blackbox import replace_one

    d = np.array([[0.2, 0], [0.6, 1], [0.9, 1]])
    dp = replace_one(d, 1, [0.6, 0])
    bad = audit(learner_mechanism(Leaky)[0], d, dp, epsilon=1.0, trials=3000, pilot=1000,
                statistic=predictor_statistic(d, dp))
    assert bad.verdict == "refuted" and bad.eps_hat > 1.0, bad.summary()
