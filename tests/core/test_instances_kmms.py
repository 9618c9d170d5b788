"""The public instances of Kaplan, Mansour, Matias and Stemmer's conjunction and polygon
experiments (privbounds/instances/kmms.py): ``conjunctions`` and ``disjunctions`` (the
decoy family of kmms.thm3_5, variables permuted per trial) and ``polygons`` (the disjoint
triangles of kmms.thm5_1). They score exactly, hide the target, give the same sample as
rows and as counts, refuse bad input in one line, and ``measure`` runs a learner on each
beside its theorem's learners, held to the theorem's bounds."""

from __future__ import annotations

import numpy as np
import pytest

import privbounds
from privbounds.instances import get as family
from privbounds.params import ParameterError


@pytest.fixture(autouse=True, scope="module")
def _registry_restored(registry_restored):  # see tests/conftest.py
    """The entries this module measures leave the registry with it (as in test_learners)."""
    yield


class Literals:
    """A predictor that is an AND ("and") or OR ("or") of literals of the sample's
    variables, and says so (``literals``: 0..d-1 are v_j, d..2d-1 not v_j)."""

    def __init__(self, ids, mode):
        self.literals, self.mode = list(ids), mode

    def predict(self, X):
        from privbounds.instances.kmms import literal_labels

        return literal_labels(np.asarray(X), self.literals, self.mode)


def _target_columns(draws, i, k):
    """The learner's columns that hold the family's target variables 0..k-1 in trial i."""
    return np.flatnonzero(draws.permutation(i) < k)


# --- conjunctions and disjunctions -------------------------------------------------------

@pytest.mark.parametrize("name, mode", [("conjunctions", "and"), ("disjunctions", "or")])
def test_the_target_scores_zero_and_a_constant_its_mass(name, mode):
    inst = family(name).make(d=12, k=3)  # alpha: the theorem's 0.2
    assert inst.params == {"d": 12, "k": 3, "alpha": 0.2} and inst.n_features == 12
    rng = np.random.default_rng(0)
    draws = inst.draw(300, 6, rng)
    assert len(draws) == 6
    for i in range(6):
        target = Literals(_target_columns(draws, i, 3), mode)
        rows = draws.sample(i, "rows", rng)
        assert rows.X.shape == (300, 12) and rows.X.dtype == np.uint8 and rows.y.shape == (300,)
        assert np.all(target.predict(rows.X) == rows.y)  # realizable, in the permuted columns
        # closed form (literals) and the sum over the cube (a plain function) agree
        assert draws.error(i, target) == 0.0 and draws.error(i, target.predict) == 0.0
        for c in (0, 1):  # half the mass is positive
            assert draws.error(i, lambda X, c=c: np.full(len(X), c)) == pytest.approx(0.5)
        # the empty AND is the constant 1, the empty OR the constant 0
        assert draws.error(i, Literals([], mode)) == pytest.approx(0.5)
        assert draws.column_errors(i, target).shape == (1,)
    assert draws.errors([Literals(_target_columns(draws, i, 3), mode) for i in range(6)]).tolist() == [0.0] * 6


@pytest.mark.parametrize("name, mode", [("conjunctions", "and"), ("disjunctions", "or")])
def test_literal_form_and_enumeration_agree(name, mode):
    inst = family(name).make(d=8, k=2, alpha=0.3)
    rng = np.random.default_rng(1)
    draws = inst.draw(10, 4, rng)
    errs = []
    for i in range(4):
        for size in (1, 2, 3, 5):
            h = Literals(rng.choice(16, size=size, replace=False), mode)
            closed, summed = draws.error(i, h), draws.error(i, h.predict)
            assert closed == pytest.approx(summed, abs=1e-12)
            errs.append(closed)
    assert len(set(np.round(errs, 9))) > 5  # the literals drawn are not all alike
    if mode == "and":
        # a decoy (the family's variable 2, tied to variable 0) with the other relevant variable:
        # it rejects every negative and errs on the alpha/k = 0.15 of the positives where it is 0
        perm = draws.permutation(0)
        h = Literals([int(np.flatnonzero(perm == 2)[0]), int(np.flatnonzero(perm == 1)[0])], mode)
        assert draws.error(0, h) == pytest.approx(0.5 * 0.3 / 2)
        assert draws.error(0, h.predict) == pytest.approx(0.5 * 0.3 / 2)


def test_the_permutation_hides_the_target():
    inst = family("conjunctions").make(d=64, k=2)
    rng = np.random.default_rng(2)
    draws = inst.draw(5, 40, rng)
    placed = {tuple(_target_columns(draws, i, 2)) for i in range(40)}
    assert len(placed) > 30  # different trials put the target on different variables
    assert all(sorted(draws.permutation(i)) == list(range(64)) for i in range(3))
    # the family's first variables, which the unpermuted family uses as its target, are not it
    first = Literals([0, 1], "and")
    assert np.mean([draws.error(i, first) > 0 for i in range(40)]) > 0.9


def test_rows_and_counts_are_the_same_sample_of_a_cube():
    inst = family("disjunctions").make(d=40, k=4)
    rng = np.random.default_rng(3)
    draws = inst.draw(500, 3, rng)
    for i in range(3):
        rows, counts = draws.sample(i, "rows", rng), draws.sample(i, "counts")
        again = draws.sample(i, "rows", rng)
        assert np.array_equal(rows.X, again.X)  # a trial's sample is fixed when it is drawn
        assert counts.support is None and counts.points is None and counts.n == 500
        assert counts.counts.sum() == 500 and np.all(counts.counts >= 1)
        assert len(np.unique(counts.features, axis=0)) == len(counts.features)
        for f, lab, c in zip(counts.features, counts.labels, counts.counts):
            same = np.all(rows.X == f, axis=1)
            assert same.sum() == c and np.all(rows.y[same] == lab)
    assert not np.array_equal(draws.sample(0, "rows", rng).X, draws.sample(1, "rows", rng).X)


def test_a_predictor_must_be_scorable_and_its_literals_must_be_it():
    rng = np.random.default_rng(4)
    big = family("conjunctions").make(d=17, k=2).draw(20, 2, rng)
    with pytest.raises(ParameterError, match="scored exactly only through its literals") as e:
        big.error(0, lambda X: np.ones(len(X), int))
    assert len(str(e.value).splitlines()) == 1
    assert big.error(0, Literals(_target_columns(big, 0, 2), "and")) == 0.0  # d > 16 with literals: fine
    draws = family("conjunctions").make(d=10, k=2).draw(20, 2, rng)
    liar = Literals(_target_columns(draws, 0, 2), "and")
    liar.predict = lambda X: np.ones(len(X), int)  # says it is the target, labels everything 1
    with pytest.raises(ParameterError, match="literals must give its labels"):
        draws.error(0, liar)
    for bad in ([20], [-1], [0.5], [[0, 1]], list(range(100, 200))):
        with pytest.raises(ParameterError, match=r"literals must be a list of literal ids in \[0, 20\)") as e:
            draws.error(0, type("H", (), {"literals": bad})())  # literals alone: no labels to check
        assert len(str(e.value).splitlines()) == 1 and len(str(e.value)) < 200
    with pytest.raises(ParameterError, match="one label per point"):
        draws.error(0, lambda X: np.ones((len(X), 2), int))


# --- polygons ---------------------------------------------------------------------------

def test_polygons_score_exactly_over_the_grid():
    from privbounds.simulators.kmms.polygons import domain, target_pool

    inst = family("polygons").make(d=10, r=2)
    assert inst.n_features == 2 and inst.domain_size == 121
    rng = np.random.default_rng(5)
    draws = inst.draw(60, 8, rng)
    assert np.allclose(draws.probs.sum(axis=1), 1) and np.all(draws.counts.sum(axis=1) == 60)
    for i in range(8):
        sup, pr, lab = draws.support[i], draws.probs[i], draws.labels[i]
        feats = inst.features(sup)
        assert feats.min() >= 0 and feats.max() <= 1 and np.all((feats * 10) % 1 == 0)

        def truth(X, feats=feats, lab=lab):  # the target, looked up on the support
            return lab[np.argmin(((X[:, None, :] - feats[None]) ** 2).sum(-1), axis=1)]
        assert draws.error(i, truth) == 0.0
        assert draws.error(i, lambda X: np.ones(len(X), int)) == pytest.approx(0.5)
        assert draws.error(i, lambda X: np.zeros(len(X), int)) == pytest.approx(0.5)
    # the grid points' masses and labels are the theorem's atoms', point by point
    dom, pool = domain(10, 6), target_pool("disjoint", 10, 2, 6)
    from privbounds.instances.kmms import _polygon_targets

    sup, pr, lab = _polygon_targets(10, 2)
    for j in range(len(pool.labels)):
        full = np.zeros(121)
        full[sup[j]] = pr[j]
        assert np.allclose(dom.to_atoms(full), pool.probs[j])
        assert np.array_equal(lab[j][pr[j] > 0], pool.labels[j][dom.atom_of[sup[j][pr[j] > 0]]])
    rows, counts = draws.sample(0, "rows", rng), draws.sample(0, "counts")
    assert rows.X.shape == (60, 2) and counts.counts.sum() == 60


# --- parameters -------------------------------------------------------------------------

def test_the_families_take_their_theorems_ranges_and_values():
    from privbounds.simulators.kmms import setcover_common as sc
    from privbounds.simulators.kmms import thm5_1
    from privbounds.simulators.kmms.polygons import D_MAX, max_triangles

    for name in ("conjunctions", "disjunctions"):
        f = family(name)
        assert (f.params["d"], f.params["k"]) == (sc.SPECS["d"], sc.SPECS["k"])
        assert f.defaults == {"alpha": 0.2, "beta": 0.1, "epsilon": sc.EPS, "delta": sc.DELTA}
        assert f.theorem == "kmms.thm3_5"
    p = family("polygons")
    assert p.params["d"].high == D_MAX and p.params["r"].high == max_triangles("disjoint", 6)
    assert p.defaults == {"alpha": 0.2, "beta": 0.1, "epsilon": thm5_1.EPSILON, "delta": thm5_1.DELTA}
    assert p.theorem_point == {"family": "disjoint", "m": 6}


@pytest.mark.parametrize("name, params, message", [
    ("conjunctions", {"d": 4, "k": 8}, "k must be at most d"),
    ("conjunctions", {"d": 20000, "k": 2}, "d must be"),
    ("conjunctions", {"d": 8192, "k": 16}, "d must be at most 7710 for k=16"),
    ("disjunctions", {"d": 8, "k": 0}, "k must be"),
    ("disjunctions", {"d": 8, "k": 2, "alpha": 1.5}, "alpha must be"),
    ("conjunctions", {"d": 8}, "instance conjunctions needs k"),
    ("polygons", {"d": 8, "r": 1}, "d must be"),
    ("polygons", {"d": 20, "r": 10}, "r must be"),
    ("polygons", {"d": 20, "k": 2}, "unknown parameter 'k'"),
])
def test_bad_instance_input_is_one_line(name, params, message):
    with pytest.raises(ParameterError, match=message) as e:
        family(name).make(**params)
    assert len(str(e.value).splitlines()) == 1


def test_a_sample_too_large_to_hold_is_refused_and_a_measurement_stops_below_it():
    from privbounds.learners import LearnerSimulator, make_spec

    inst = family("conjunctions").make(d=1024, k=2)
    assert inst.n_max == 1 << 18  # n d <= 2^28 bytes of rows
    with pytest.raises(ParameterError, match="n must be at most 262144 for conjunctions at d = 1024"):
        inst.draw(1 << 20, 1, np.random.default_rng(0))
    spec = make_spec(LiteralExpMech, name="lit", instance="conjunctions", compare_to="kmms.thm3_5",
                     grid={"d": [16, 1024], "k": [2]}, max_n=1 << 20)
    sim = LearnerSimulator(spec, LiteralExpMech)
    ns = {p["d"]: sim.n_range(p) for p in sim.points("smoke") if p["learner"] == "lit"}
    assert ns == {16: (1, 1 << 20), 1024: (1, 1 << 18)}
    assert family("polygons").make(d=10, r=1).n_max is None


# --- measure ----------------------------------------------------------------------------

class LiteralExpMech:
    """The exponential mechanism over the 2d literals (score: minus the errors on the
    sample, sensitivity 1), eps-DP; a counts learner whose predictor names its literal.
    It learns a target of one literal (k = 1)."""

    sample_form = "counts"

    def __init__(self, epsilon=1.0):
        self.epsilon, self.delta = epsilon, 0.0

    def fit(self, sample, rng):
        x = sample.features.astype(bool)
        vals = np.concatenate([x, ~x], axis=1)  # (m, 2d): the literals' values
        errs = sample.counts @ (vals != sample.labels[:, None].astype(bool))
        j = int(np.argmax(-self.epsilon * errs / 2 + rng.gumbel(size=errs.shape)))
        return Literals([j], "and")


class NoisyHistogram:
    """Each grid point of X_d^2 labelled by the sign of its (positives - negatives) count
    plus Lap(2/eps) noise (a replaced example moves two counts by 1): eps-DP."""

    sample_form = "counts"

    def __init__(self, epsilon=1.0, d=10):
        self.epsilon, self.delta, self.d = epsilon, 0.0, d

    def fit(self, sample, rng):
        d = self.d
        score = rng.laplace(0, 2 / self.epsilon, size=(d + 1) ** 2)
        idx = np.rint(sample.features * d).astype(int) @ [d + 1, 1]
        np.add.at(score, idx, sample.counts * (2 * sample.labels - 1))
        return lambda X: (score[np.rint(np.asarray(X) * d).astype(int) @ [d + 1, 1]] > 0).astype(int)


@pytest.mark.parametrize("instance", ["conjunctions", "disjunctions"])
def test_measure_a_literal_learner_against_theorem_3_5(tmp_path, instance):
    from privbounds.bounds.kmms import n_conj

    rec = privbounds.measure(LiteralExpMech, instance=instance, grid={"d": [16, 64], "k": [1]}, fidelity="smoke",
                             out=tmp_path, name="lit", max_n=1 << 11, progress=False)
    assert rec.status == "finished"
    # Theorem 3.5 refuses its non-private learner on DISJ: it is not run there
    beside = {"conjunctions": {"setcover", "setcover-literal", "nonprivate"},
              "disjunctions": {"setcover", "setcover-literal"}}[instance]
    assert {p.point["learner"] for p in rec.points} == {"lit"} | beside
    form = "conj" if instance == "conjunctions" else "disj"
    assert all(p.point["family"] == "decoy" and p.point["form"] == form for p in rec.points)
    mine = [p for p in rec.points if p.point["learner"] == "lit"]
    assert all(p.n_hat is not None for p in mine)
    claims = {v.claim: v for v in rec.verdicts}
    held = f"lit-vs-upper-{form}"
    assert held in claims and f"upper-{form}" in claims
    for d in claims[held].details:
        assert d.point["learner"] == "lit"
        assert d.bound == pytest.approx(n_conj(0.2, 0.1, 0.99, 1e-8, 1, d.point["d"], "safe"))
    assert {d.point["d"] for d in claims[held].details} == {16, 64}


def test_measure_a_histogram_against_theorem_5_1(tmp_path):
    from privbounds.bounds.kmms import n_union
    from privbounds.simulators.kmms.polygons import candidate_count

    rec = privbounds.measure(NoisyHistogram, instance="polygons", grid={"d": [10], "r": [1, 2]}, fidelity="smoke",
                             out=tmp_path, name="hist", max_n=1 << 14, progress=False)
    assert rec.status == "finished"
    assert {p.point["learner"] for p in rec.points} == {"hist", "private", "greedy", "advanced"}
    claims = {v.claim: v for v in rec.verdicts}
    assert {"hist-vs-upper", "hist-vs-upper-advanced", "upper", "upper-greedy"} <= set(claims)
    for d in claims["hist-vs-upper"].details:
        assert d.point["learner"] == "hist"
        assert d.bound == pytest.approx(n_union(0.2, 0.1, 0.99, 1e-7, d.point["r"], candidate_count(10, 6)))
    assert {d.point["r"] for d in claims["hist-vs-upper"].details} == {1, 2}


def test_a_measurement_must_give_every_parameter_of_the_instance(tmp_path):
    with pytest.raises(ParameterError, match="grid must give k, a parameter of the instance conjunctions") as e:
        privbounds.measure(LiteralExpMech, instance="conjunctions", grid={"d": [16]}, fidelity="smoke",
                           out=tmp_path, progress=False)
    assert len(str(e.value).splitlines()) == 1 and not (tmp_path / "results").exists()
