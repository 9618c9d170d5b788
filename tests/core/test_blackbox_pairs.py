"""The pairs a black-box audit tries (privbounds/blackbox_pairs.py): a declared row domain
catches an unclipped sum that the user's own pair misses, and leaves a clipped one at
"no violation found"; a learner's neighbours are ((X, y), (X2, y2)), anything else one
line; on an instance family, label flips at the points that carry one row catch a
threshold learner with 20x too little noise and leave the correct one unrefuted."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest

from privbounds.blackbox import NO_VIOLATION, audit
from privbounds.blackbox_pairs import domain_plan, instance_plan
from privbounds.params import ParameterError

D = np.zeros(10)
D_PRIME = D.copy()
D_PRIME[0] = 1.0  # the pair of docs/guide/audit.md: one row moved by 1


def laplace_sum(data, epsilon, rng, size=None):
    """Sensitivity 1 assumed, never enforced: eps-DP on rows in [0, 1] only."""
    return np.sum(data) + rng.laplace(0, 1 / epsilon, size=size)


def clipped_sum(data, epsilon, rng, size=None):
    """The same with every row clipped to [0, 1]: eps-DP on any rows."""
    return np.sum(np.clip(data, 0, 1)) + rng.laplace(0, 1 / epsilon, size=size)


def test_a_declared_range_refutes_the_unclipped_sum_its_own_pair_misses():
    kw = dict(trials=20_000, pilot=5_000)
    alone = audit(laplace_sum, D, D_PRIME, 1.0, **kw)
    assert alone.verdict == NO_VIOLATION and alone.eps_hat <= 1.0, alone.summary()
    wide = audit(laplace_sum, D, D_PRIME, 1.0, domain=(-5, 5), **kw)
    assert wide.verdict == "refuted" and wide.eps_hat > 1.0, wide.summary()
    est = {p["pair"]: p["eps_hat"] for p in wide.pairs if p["estimated"]}
    assert "D, D' (yours)" in est and len(est) > 1  # every pair tried is reported with its eps_hat
    assert wide.pair == max(est, key=est.get) and "row 0 = -5" in wide.pair and "row 0 = 5" in wide.pair


def test_the_clipped_sum_shows_no_violation_on_the_same_domain_and_says_so():
    r = audit(clipped_sum, D, D_PRIME, 1.0, domain=(-5, 5), trials=20_000, pilot=5_000)
    assert r.verdict == NO_VIOLATION and r.powered and r.eps_hat <= 1.0, r.summary()
    assert r.summary().startswith("no violation found on these pairs and events (eps_hat ")
    assert "confirmed" not in r.summary()


def test_a_finite_set_and_a_sampler_find_the_extreme_rows():
    kw = dict(trials=5_000, pilot=2_000, takes_epsilon=False)
    r = audit(laplace_sum, D, D_PRIME, 1.0, domain=[0.0, 0.5, 1.0, 5.0], **kw)
    assert r.verdict == "refuted" and "row 0 = 5" in r.pair, r.summary()
    r = audit(laplace_sum, D, D_PRIME, 1.0, domain=lambda rng: rng.uniform(-5, 5), **kw)
    assert r.verdict == "refuted", r.summary()
    plan = domain_plan(D, D_PRIME, (0.0, 1.0), seed=0)  # lo and hi are D's and D''s rows: no new pair
    assert len(plan.sets) == 2 and len(plan.pairs) == 1
    with pytest.raises(ParameterError, match=r"^domain \(lo, hi\) must be finite with lo < hi"):
        audit(laplace_sum, D, D_PRIME, 1.0, domain=(5, -5), **kw)
    with pytest.raises(ParameterError, match="^domain rows must have the shape of a row of D"):
        audit(laplace_sum, D, D_PRIME, 1.0, domain=[[1, 2], [3, 4]], **kw)


def test_the_command_line_takes_a_domain_and_exits_1_on_the_leak_it_finds(tmp_path):
    mod = tmp_path / "mine.py"
    mod.write_text(textwrap.dedent("""
        import numpy as np
        def mechanism(data, epsilon, rng, size=None):
            return np.sum(data) + rng.laplace(0, 1 / epsilon, size=size)
        D = np.zeros(10)
        D2 = D.copy(); D2[0] = 1.0
        PAIR = (D, D2)
    """))
    out = subprocess.run([sys.executable, "-m", "privbounds", "audit", f"{mod}:mechanism", "--neighbours",
                          f"{mod}:PAIR", "--epsilon", "1", "--trials", "5000", "--pilot", "2000", "--domain=-5,5"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and out.stdout.startswith("refuted"), out.stdout + out.stderr
    assert "pairs tried" in out.stdout and "D, D' (yours): eps_hat" in out.stdout


# --- learners -----------------------------------------------------------------------

class GridThreshold:
    """The exponential mechanism over 65 fixed thresholds in [0, 1], score minus the errors
    (sensitivity 1): eps-DP against any replace-one neighbours. ``temper`` > 1 is the
    planted bug: that many times too little noise, the declaration unchanged."""

    sample_form = "rows"
    temper = 1.0

    def __init__(self, epsilon=1.0):
        self.epsilon, self.delta = epsilon, 0.0

    def fit(self, sample, rng):
        cands = np.linspace(0, 1.0001, 65)
        errs = ((sample.X[:, 0][None, :] >= cands[:, None]) != sample.y[None, :]).sum(axis=1)
        w = np.exp(-self.temper * self.epsilon * (errs - errs.min()) / 2)
        t = rng.choice(cands, p=w / w.sum())
        return lambda X: (X[:, 0] >= t).astype(int)


class TooLittleNoise(GridThreshold):
    temper = 20.0


X = np.array([[0.2], [0.6], [0.9]])
Y, Y2 = np.array([0, 1, 1]), np.array([0, 0, 1])


def test_a_learner_takes_its_neighbours_as_x_y_pairs():
    kw = dict(epsilon=1.0, trials=2_000, pilot=500, takes_epsilon=False)
    bad = audit(TooLittleNoise, neighbours=((X, Y), (X, Y2)), **kw)
    assert bad.verdict == "refuted", bad.summary()
    ok = audit(GridThreshold, neighbours=((X, Y), (X, Y2)), **kw)
    assert ok.verdict != "refuted" and ok.eps_hat <= 1.0, ok.summary()
    rows = np.column_stack([X, Y])
    for malformed in ((rows, (X, Y2)), (X, Y, Y2), ((X, Y), (X[:2], Y2[:2])), ((X, Y), (X, Y2 + 1))):
        with pytest.raises(ParameterError, match=r"^neighbours for a learner must be \(\(X, y\), \(X2, y2\)\)"):
            audit(GridThreshold, neighbours=malformed, **kw)


def test_the_instance_audit_refutes_20x_too_little_noise_and_not_the_correct_learner():
    kw = dict(epsilon=1.0, instance="thresholds", instance_params={"d": 4}, trials=2_000, pilot=500,
              takes_epsilon=False)
    bad = audit(TooLittleNoise, **kw)
    assert bad.verdict == "refuted" and bad.eps_hat > 1.0, bad.summary()
    ok = audit(GridThreshold, **kw)
    assert ok.verdict != "refuted" and ok.eps_hat <= 1.0, ok.summary()


def test_instance_flips_keep_every_point_to_one_label_on_a_noiseless_family():
    plan, k, agnostic = instance_plan("thresholds", 10, seed=0, d=4)
    assert k == 1 and not agnostic and len(plan.pairs) >= 1
    for s in plan.sets:
        pts, labels = s[:, 0], s[:, 1]
        assert all(len(set(labels[pts == p])) == 1 for p in np.unique(pts))
        assert np.sum(np.any(s != plan.sets[0], axis=1)) <= 1


@pytest.mark.slow
def test_the_instance_audit_has_power_on_the_correct_learner():
    r = audit(GridThreshold, epsilon=1.0, instance="thresholds", instance_params={"d": 4}, trials=20_000,
              pilot=5_000)
    assert r.verdict == NO_VIOLATION and r.powered, r.summary()


def test_a_learners_domain_is_of_feature_rows_and_labels_stay_labels():
    d = np.column_stack([X, Y]).astype(float)
    d2 = np.column_stack([X, Y2]).astype(float)
    plan = domain_plan(d, d2, (0.0, 1.0), seed=0, labels=1)
    tried = {tuple(s[1]) for s in plan.sets[2:]}  # the changed row (row 1) of each new dataset
    assert tried == {(0.0, 0.0), (0.0, 1.0), (1.0, 0.0), (1.0, 1.0)}
    assert all(set(np.unique(s[:, -1])) <= {0.0, 1.0} for s in plan.sets)
    ok = audit(GridThreshold, neighbours=((X, Y), (X, Y2)), domain=(0.0, 1.0), epsilon=1.0, trials=2_000,
               pilot=500, takes_epsilon=False)
    assert ok.verdict != "refuted", ok.summary()


def test_with_no_row_alone_at_its_point_a_rows_learner_is_audited_and_a_counts_learner_refused():
    # 100 rows on the 16 points of X_4: every point holds several rows in every draw
    plan, _, _ = instance_plan("thresholds", 100, 0, d=4)
    assert plan.pairs  # two labels at one point is a dataset too, and DP holds on every dataset
    with pytest.raises(ParameterError, match="counts sample cannot hold"):
        instance_plan("thresholds", 100, 0, counts_form=True, d=4)
