"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts",
Theorem 4.7 (agnostic lower bound from any fingerprinting code), Remark 4.8 (agnostic
padding) and Proposition 4.11 (agnostic parities under the uniform distribution), run
as the proofs' attacks with Tardos' code (Proposition 4.9, ``tardos.py``).

POINT (Thm 4.7, Rem 4.8). Concepts c_1 = point(x0) and c_0 = point(x2) differ at x0 and
agree (both 0) at x1. The database has N rows: (x0, codeword i) for the users of the
coalition S and the junk row (x1, 0...0) for everything else (users outside S and the
N - n padding rows). The pirate bit is c'_j = h_j(x0). On a b-marked column the best
concept errs nowhere while a hypothesis with h_j(x0) != b errs on all n coded rows, so
an agnostic alpha-accurate learner gives a feasible word whenever alpha N < n.

PARITY (Prop 4.11). n = 2^d users, user i owns the i-th string x_i of {0,1}^d, so the
rows are exactly the uniform distribution; a user outside S keeps its point with all
labels 0. Pirate bit c'_j = [h_j is 1 on at least a quarter of the cube], i.e. h_j is
not the zero parity (every other parity is 1 on exactly half). On a 0-marked column
the zero parity errs nowhere; on a 1-marked column every parity errs on at least half
the rows, so alpha < 1/4 makes the word feasible.

Tardos' tracer is sound against every word, so for each user i, P[accuse i | D_-i] <= xi
for any learner, and an (eps, delta)-DP learner has P[accuse i | D] <= e^eps xi + delta.

Exact and cheap per column: the learners treat columns independently and a column's
hypothesis depends only on the pattern of labels of the coded rows, so the simulator
computes the learner's law over (accurate?, pirate bit) for each of the 2^n patterns
once and draws each column from the law of its pattern. The codebook itself is drawn in
full (Tardos' columns are all different) and traced with ``tardos.trace``.

Learners: non-private ERM and the direct sum of exponential mechanisms (Obs 3.2) with
advanced composition, over POINT_X (|X| = 2^10) or PAR_d.

Events (engine "n" is the rows N, or the users for the parity curves): "accurate" (all
k hypotheses agnostic alpha-accurate on D), "bottom" (trace = nobody on D), "traced"
(trace = somebody on D), "accused" (trace = I on D, I uniform), "framed" (trace = I on
D_-I), "complete-fail" (word feasible and trace = nobody on D).

Privacy audits (engine/audit.py; ``point_column_events``). On POINT the attack's own
neighbours (a coded row replaced by a junk row at x1) move the scores one way only
(point(x0) or the |X| - 2 other points gain, point(x1) loses), so no event shows more
than eps0/2 of a column's loss plus a trace. A coded row whose label flips moves
point(x0) by +1 and all other points by -1, the exponential mechanism's worst case:
with 64 coded rows and 59 ones (60 on D') point(x0) leads the 1022 other points by 54,
the column picks it w.p. 0.01 as declared and 0.09 to 0.10 with the budget doubled,
where the log-ratio is 1.8 eps0. On PAR_d every neighbour pair is a flipped label,
but the 2^d parities' errors differ by at most 2^d and half of them label the flipped
point 1, so the loss never concentrates: see ``BnsProp411.unaudited``.
"""

from __future__ import annotations

import numpy as np

from privbounds.bounds import bns as bounds
from privbounds.params import ALPHA, BETA, DELTA, EPSILON, Interval, Options, ParameterError
from privbounds.simulators.bns import tardos
from privbounds.simulators.bns.fp_attack import FingerprintAttack, column_audit_reason
from privbounds.simulators.engine.audit import AuditCase, NoiseSource, noise_sources
from privbounds.simulators.engine.simulator import expand
from privbounds.simulators.shared.accuracy import within
from privbounds.simulators.shared.mechanisms import exponential_mechanism_probs

LEARNERS = ("erm", "directsum-advanced")
EVENTS = ("accurate", "bottom", "traced", "accused", "framed", "complete-fail")
POINT_DOMAIN = 2 ** 10


def _bits(users):
    """(2^users, users) label bits of every pattern; bit i is user i + 1's label."""
    pat = np.arange(2 ** users)
    return (pat[:, None] >> np.arange(users)[None, :]) & 1


def point_hypotheses(w, m, junk, rows, alpha, learner, eps0):
    """The learner's law over the three groups of POINT_X hypotheses (point(x0), whose
    bit is 1; point(x1); the |X| - 2 other points, one score) for a column whose m coded
    rows (all at x0) hold w ones, with ``junk`` junk rows at x1; and whether each group
    is agnostic alpha-accurate. Returns (probs, accurate, bit), probs and accurate
    (len(w), 3)."""
    errs = np.stack([m - w, w + junk, w], axis=1).astype(float)
    size = np.array([1.0, 1.0, POINT_DOMAIN - 2.0])
    acc = within(errs - errs.min(axis=1, keepdims=True), alpha * rows)
    if learner == "erm":
        probs = np.zeros_like(errs)
        probs[np.arange(len(w)), np.argmin(errs, axis=1)] = 1.0
    else:
        # a group of equal scores: weight its size (the mechanism over single points)
        probs = exponential_mechanism_probs(-errs + 2 * np.log(size) / eps0, eps0)
    return probs, acc, np.array([True, False, False])


def _point_law_counts(w, m, junk, rows, alpha, learner, eps0):
    """(len(w), 4) law of (accurate, bit), indexed 2 * accurate + bit."""
    probs, acc, bit = point_hypotheses(w, m, junk, rows, alpha, learner, eps0)
    law = np.zeros((len(w), 4))
    for g in range(3):
        law[np.arange(len(w)), 2 * acc[:, g] + bit[g]] += probs[:, g]
    return law


def parity_hypotheses(d, alpha, learner, eps0):
    """The learner's law over the 2^d parities for a PAR_d column whose n = 2^d rows (one
    per point of the cube, user i at the binary string of i - 1) carry each of the 2^n
    label patterns, and whether each parity is agnostic alpha-accurate. Returns
    (probs, accurate), both (2^n, 2^d); the pirate bit of parity a is [a != 0]."""
    n = 2 ** d
    y = _bits(n)                                        # (patterns, n)
    x = np.arange(n)
    par = np.array([[bin(a & xx).count("1") & 1 for xx in x] for a in range(n)])   # (parities, points)
    errs = (y[:, None, :] != par[None, :, :]).sum(axis=2).astype(float)           # (patterns, parities)
    acc = within(errs - errs.min(axis=1, keepdims=True), alpha * n)
    if learner == "erm":
        probs = np.zeros_like(errs)
        probs[np.arange(len(y)), np.argmin(errs, axis=1)] = 1.0
    else:
        probs = exponential_mechanism_probs(-errs, eps0)
    return probs, acc


def parity_law(d, alpha, learner, eps0):
    """(2^(2^d), 4) law of (accurate, bit), indexed 2 * accurate + bit, per label pattern."""
    probs, acc = parity_hypotheses(d, alpha, learner, eps0)
    bit = np.arange(2 ** d) != 0
    law = np.zeros((len(probs), 4))
    for c in range(4):
        law[:, c] = np.where((2 * acc + bit[None, :]) == c, probs, 0.0).sum(axis=1)
    return law


def weight_law(users: int, nodes: int = 400) -> np.ndarray:
    """P[w ones in a Tardos column of ``users`` users], w = 0..users: the binomial law
    averaged over the column bias p = sin^2 r, r uniform on [t', pi/2 - t'] (Gauss-Legendre
    quadrature in r; the integrand is smooth)."""
    from scipy import stats  # here, not at import: see engine/stats.py:_stats

    t_prime = np.arcsin(np.sqrt(1.0 / (300 * users)))
    x, wts = np.polynomial.legendre.leggauss(nodes)
    r = t_prime + (x + 1) / 2 * (np.pi / 2 - 2 * t_prime)
    p = np.sin(r) ** 2
    pmf = stats.binom.pmf(np.arange(users + 1)[:, None], users, p[None, :])
    return pmf @ (wts / 2)


@noise_sources(NoiseSource("column", "expmech", "privbounds.simulators.bns.fp_agnostic:point_hypotheses",
                           param="epsilon", arg="eps0",
                           what="one column's exponential mechanism, at eps0"))
def point_column_events(budget, trials, rng, coded, ones, eps0):
    """Audit of one column of the exponential-mechanism direct sum on POINT_X: the
    column's ``coded`` rows at x0 hold ``ones`` ones on D and one more on D' (one coded
    row's label flips from 0 to 1), no junk rows. Each trial draws the column's group
    (point(x0), point(x1), the other points) from the learner's law (``point_hypotheses``
    at eps0 * budget); E = {h = point(x0)}, i.e. the pirate bit 1."""
    out = []
    for w in (ones, ones + 1):
        probs = point_hypotheses(np.array([w]), coded, 0, coded, 0.1, "directsum-advanced", eps0 * budget)[0][0]
        g = np.minimum(np.searchsorted(np.cumsum(probs), rng.random(trials), side="right"), 2)
        out.append(g == 0)
    return out[0], out[1]


def _draw(law, patterns, rng):
    """Per column category 0..3 drawn from the law of its pattern."""
    cum = np.cumsum(law, axis=1)[patterns]             # (..., 4)
    u = rng.random(patterns.shape)[..., None]
    return np.minimum((u >= cum).sum(axis=-1), 3)


class _AgnosticAttack(FingerprintAttack):
    params = {
        "class": Options(("point", "parity")),
        "users": Interval(2, 64, "both", integer=True),
        "k": Interval(1, 1 << 20, "both", integer=True),
        "learner": Options(LEARNERS),
        "event": Options(EVENTS),
        "epsilon": EPSILON,
        "delta": DELTA,
        "alpha": ALPHA,
        "beta": BETA,
    }

    code_name = "Tardos"
    code_length = staticmethod(tardos.code_length)
    lower_bound_users = staticmethod(bounds.n_lb_agnostic_users)

    def check_point(self, point):
        super().check_point(point)
        if point["class"] == "parity":
            d = int(np.log2(point["users"]))
            if 2 ** d != point["users"] or d > 3:
                raise ParameterError("users must be 2, 4 or 8 for parities (one user per point of the cube, "
                                     f"2^users label patterns), got {point['users']}")
            if point["alpha"] >= 0.25:
                raise ParameterError(f"alpha must be < 1/4 for the parity reduction, got {point['alpha']}")

    def trials_factor(self, point):
        return 2

    AUDIT_K = 4  # the k whose per-concept eps0 the column audit runs at (see unaudited)

    unaudited = column_audit_reason("k >= 2000 columns (eps0 <= 0.0038)",
                                    "about 0.8 eps0 = 0.003 on an event of probability 0.1", "5 x 10^7")

    def audits(self):
        eps0 = bounds.per_concept_epsilon(1.0, self.AUDIT_K, "advanced", 1e-7)
        return [AuditCase(
            "column-advanced", f"one column of the advanced direct sum over POINT_{POINT_DOMAIN} (k = {self.AUDIT_K}, "
            f"eps = 1, delta = 1e-7): the exponential mechanism at eps0 = {eps0:.4f}",
            "a column of a 64-user code, every user coded and no padding, with 59 ones versus 60 (one coded row's "
            "label flipped from 0 to 1)", "h = point(x0) (the pirate bit 1)", eps0, 0.0, point_column_events,
            {"coded": 64, "ones": 59, "eps0": eps0}, trials=4_000_000)]

    def rows(self, point, n):
        return point["users"] if point["class"] == "parity" else n

    @staticmethod
    def _extra_ok(law, extra, trials, rng):
        """Whether the k - length constant-0 columns (label pattern 0) are all accurate."""
        if not extra:
            return np.ones(trials, dtype=bool)
        return rng.binomial(extra, min(1.0, law[0, 0] + law[0, 1]), size=trials) == 0

    def _accurate_point(self, point, rows, eps0, length, trials, rng):
        """Accuracy on D for POINT depends on each column only through its number of ones
        w_j, and Tardos' columns are i.i.d.: so P[all k columns accurate] is exactly
        (sum_w P[w] P[accurate | w])^length * P[accurate | w = 0]^(k - length), with P[w]
        the code's weight law (``weight_law``). Each trial is a Bernoulli draw with that
        probability (identical in law to drawing the columns, and k times cheaper)."""
        users, alpha, learner = point["users"], point["alpha"], point["learner"]
        law = _point_law_counts(np.arange(users + 1), users, rows - users, rows, alpha, learner, eps0)
        good = law[:, 2] + law[:, 3]
        log_p = length * np.log(max(float(weight_law(users) @ good), 1e-300)) \
            + (point["k"] - length) * np.log(max(float(good[0]), 1e-300))
        return rng.random(trials) < np.exp(log_p)

    def run_trials(self, point, n, trials, rng):
        users, k, alpha, learner = point["users"], point["k"], point["alpha"], point["learner"]
        xi = self.xi(point)
        rows = self.rows(point, n)
        eps0 = None if learner == "erm" else bounds.per_concept_epsilon(point["epsilon"], k, "advanced",
                                                                          point["delta"])
        length = tardos.code_length(users, xi)
        event = point["event"]
        if event == "accurate" and point["class"] == "point":
            return self._accurate_point(point, rows, eps0, length, trials, rng)
        # the learner's per-column laws do not depend on the trial: compute them once
        if point["class"] == "parity":
            plaw = parity_law(int(np.log2(users)), alpha, learner, eps0)
        else:   # by the number of coded rows m (users on D, users - 1 on D_-I)
            plaws = {m: _point_law_counts(np.arange(users + 1), m, rows - m, rows, alpha, learner, eps0)
                     for m in (users, users - 1)}
        out = np.empty(trials, dtype=bool)
        step = max(1, int(4e6 // (users * length)))
        for a in range(0, trials, step):
            b = min(trials, a + step)
            T = b - a
            p, cb = tardos.generate(users, length, T, rng)
            suspect = rng.integers(0, users, size=T)
            members = np.ones((T, users), dtype=bool)
            if event == "framed":
                members[np.arange(T), suspect] = False
            if point["class"] == "parity":
                patterns = np.zeros((T, length), dtype=np.int64)
                for i in range(users):      # label bit of user i + 1 (0 for a user outside S)
                    patterns |= (cb[:, i, :] & members[:, i, None]).astype(np.int64) << i
                cat = _draw(plaw, patterns, rng)
            else:
                # only the number of ones among the members matters; the rest are junk rows
                w = (cb & members[:, :, None]).sum(axis=1)
                cat = np.empty(w.shape, dtype=np.int64)
                size = members.sum(axis=1)
                for m in np.unique(size):
                    sel = size == m
                    cat[sel] = _draw(plaws[int(m)], w[sel], rng)
            word = (cat % 2).astype(bool)
            if event == "accurate":
                out[a:b] = (cat >= 2).all(axis=1) & self._extra_ok(plaw, k - length, T, rng)
                continue
            accused = tardos.trace(cb, p, word, xi)
            if event == "bottom":
                out[a:b] = accused == tardos.BOTTOM
            elif event == "traced":
                out[a:b] = accused != tardos.BOTTOM
            elif event in ("accused", "framed"):
                out[a:b] = accused == suspect + 1
            else:   # complete-fail
                out[a:b] = (accused == tardos.BOTTOM) & tardos.feasible(cb, members, word)
        return out


def _base(cls, alpha):
    return {"class": [cls], "epsilon": [1.0], "delta": [1e-7], "alpha": [alpha], "beta": [0.1]}


class BnsThm47(_AgnosticAttack):
    """The attack on POINT_X as curves over the rows N at fixed codes."""

    theorem_id = "bns.thm4_7"
    _users = {"smoke": [2], "quick": [3], "full": [2, 3, 4]}

    def grid(self, fidelity, overrides):
        return self.with_code_length(expand({"users": self._users[fidelity], "k": [0], "learner": list(LEARNERS),
                                        "event": list(EVENTS), **_base("point", 0.1)}, overrides), overrides)

    def curve(self, point):
        users = point["users"]
        if point["learner"] == "erm":
            return [users, 4 * users, 16 * users]       # ERM fits exactly at every N
        if point["event"] != "accurate":                # tracing draws whole codebooks: sparser
            return [users << e for e in range(0, 16, 4)]
        grid = users * 2.0 ** (np.arange(0, 2 * 15 + 1) / 2)
        return [int(x) for x in np.unique(np.round(grid))]


class BnsRem48(_AgnosticAttack):
    """N*(alpha) of the private learner on the attack databases of a 4-user code."""

    theorem_id = "bns.rem4_8"
    _alphas = {"smoke": [0.1], "quick": [0.05, 0.1, 0.2], "full": [0.025, 0.05, 0.1, 0.2, 0.4]}

    def grid(self, fidelity, overrides):
        axes = {"users": [4], "k": [0], "learner": ["directsum-advanced"], "event": ["accurate"],
                **_base("point", 0.1), "alpha": self._alphas[fidelity]}
        return self.with_code_length(expand(axes, overrides), overrides)

    def n_range(self, point):
        return point["users"], 1 << 20

    def trials_factor(self, point):
        return 1


class BnsCor410(_AgnosticAttack):
    """N*(k) over a grid of k, with the Tardos code of n_LB(k) users."""

    theorem_id = "bns.cor4_10"
    _ks = {"smoke": [1 << 11], "quick": [1 << e for e in range(11, 19)],
           "full": [1 << e for e in range(11, 21)]}

    def grid(self, fidelity, overrides):
        return self.grid_over_k(self._ks[fidelity], {"learner": ["directsum-advanced"], "event": ["accurate"],
                                                     **_base("point", 0.1)}, overrides)

    def n_range(self, point):
        return point["users"], 1 << 21

    def trials_factor(self, point):
        return 1


class BnsProp411(_AgnosticAttack):
    """The parity attack on n = 2^d rows (one per point of the cube); one point per
    code size, the engine's n being the users = rows."""

    theorem_id = "bns.prop4_11"
    _users = {"smoke": [4], "quick": [4], "full": [4, 8]}

    unaudited = {
        "the advanced direct sum over PAR_d, as a whole and column by column": (
            "no instance has power: a column's learner is the exponential mechanism over the 2^d parities on "
            "the 2^d points of the cube, and neighbours flip one point's label, which moves the parities "
            "labelling it 1 (half of them, or none for the zero point) against the others by 1 each. Their "
            "errors differ by at most 2^d rows, so neither side can be made rare: over every label pattern, "
            "flipped point and event, a doubled budget shows at most 1.002 eps0 on PAR_2 and 1.006 eps0 on "
            "PAR_3 at the eps0 = 0.085 of k = 4 (1.007 and 1.024 at the 0.17 of k = 1), never clearly above "
            "the declared eps0; the whole is (eps, delta)-DP by advanced composition of those columns "
            "(Dwork-Roth Thm 3.20), and at the attack's k (9600 columns for 4 users) eps0 = 0.0018. The exact "
            "law both column learners compute (mechanisms.exponential_mechanism_probs) is audited with power on "
            "POINT in bns.thm4_7, rem4_8 and cor4_10."),
    }

    def audits(self):
        return []

    def grid(self, fidelity, overrides):
        return self.with_code_length(expand({"users": self._users[fidelity], "k": [0], "learner": list(LEARNERS),
                                        "event": list(EVENTS), **_base("parity", 0.2)}, overrides), overrides)

    def curve(self, point):
        return [point["users"]]
