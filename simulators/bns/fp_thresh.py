"""Bun, Nissim, Stemmer, "Simultaneous Private Learning of Multiple Concepts",
Theorem 4.3 (a compatible fingerprinting code rules out private empirical k-learners),
Remark 4.4 (padding) and Corollary 4.6 (THRESH needs about k^(1/3) / alpha rows), run as
the proof's attack with the Boneh-Shaw code of Lemma 4.5.

The attack (the fingerprinting adversary of the proof of Theorem 4.3). The code has n users and k columns; a
column of type m (m = 1..n-1) gives users i <= m the bit 1, i.e. it is the labelling of
u_1..u_n by the threshold [x <= m]. The database has N rows: row i = (u_i, codeword i)
for the users of the coalition S, and the junk row (u_0, 0...0) for everything else
(users outside S and the N - n padding rows; u_0 = n + 1 is labelled 0 by every
threshold). Columns beyond the code's length (when a k-grid value exceeds it) are
constant 0. The learner returns one threshold h_j per column; the pirate bit is
c'_j = [h_j is 1 on at least half of the coalition's points u_i, i in S]; the
Boneh-Shaw tracer reads c'. (Averaging over all of u_1..u_n, as a literal reading suggests,
lets an accurate hypothesis be 1 on the absent user's point for free, so a 0-marked
column could get bit 1; over S, alpha N < |S|/2 errors cannot flip a marked column.)

Databases and events (engine "n" is N, the rows):
- D: S = all users. No column is marked, so every word is feasible and the tracer
  accuses somebody except with probability xi (completeness).
- D_-i: S = all users but i, whose row is junk. For a middle user (2..n-1) the pirate
  cannot tell types i-1 and i apart, so P[accuse i | D_-i] <= xi for ANY word
  (soundness from the secret permutation). Users 1 and n are protected only against
  feasible words, which an alpha-accurate learner produces when alpha N < (n - 1)/2.
- i* = ceil(n/2): the user an accurate learner gets accused for (its word's weight
  jumps from 0 to d between types i* - 1 and i*); fixed before any trial.
Events: "accurate" (all k hypotheses alpha-accurate on D_-J, J uniform in {1, n});
"bottom" (trace = nobody on D); for the suspect i = i* ("middle") or i = 1 ("first"):
"accused-*" (trace = i on D), "framed-*" (trace = i on D_-i), and "unaccused-middle"
(trace != i* on D). The pair (accused, framed) of one suspect bounds the learner's
epsilon from below: P[accused] <= e^eps P[framed] + delta.

Exact and cheap: every learner here treats columns independently and the d columns of
one type carry identical labels, so per type the learner's hypotheses are d
independent draws from one law over the n + 2 thresholds; the simulator computes that
law exactly and draws, per trial and type, the multinomial counts of (accurate?,
pirate bit). The pirate's block weights w(B_m) are exactly what the tracer reads.

Learners: non-private ERM (the smallest consistent threshold), the direct sum of
exponential mechanisms (Obs 3.2) with basic or advanced composition, and Algorithm 2
over the binary-tree sanitizer with advanced accounting (the learner of Cor 3.10, run
by ``sanitize_learn.alg2_thresholds``). Algorithm 2's columns share the sanitizer's
output, so its columns are not independent: it is simulated column by column (the
d columns of a type get independent exponential-mechanism draws given the sanitized
database), which costs O(k) per trial instead of O(n).

Privacy audits (engine/audit.py; ``column_events``). The attack's own neighbours (a coded
row replaced by a junk row) move the scores of a column's thresholds one way only,
except for the threshold users + 1 that labels the junk point 1: a type-m column with
m >= i gains 1 on the thresholds t < i and loses 1 on t = users + 1. So one column's
loss on E = {h = users + 1} comes close to its eps0 when t < i carries most of the
mass: i = users - 1 in the column of type users - 1. With 8 users and no padding that
event has probability 0.10 to 0.12 and a log-ratio of 0.78 eps0 as declared and 1.54
eps0 with the budget doubled. The per-column laws are exact (``column_hypotheses``),
and the audit draws each trial's threshold from them. Doubling eps0 at its site (the
mutation test of engine/mutations.py) is the doubled budget exactly, and its log-ratio
of 1.54 eps0 = 0.131 stands out of the declared 0.085 only at the instance's own 4 x 10^6
trials per side (expected eps_hat about 0.12; 0.08 at 200,000), where the mutation test
runs it too (``mutation_trials``).
"""

from __future__ import annotations

import numpy as np

from privbounds.bounds import bns as bounds
from privbounds.params import ALPHA_BELOW_HALF, BETA, DELTA, EPSILON, Interval, Options
from privbounds.simulators.bns.audit_direct_sums import tree_sanitizer_events
from privbounds.simulators.bns.fingerprint import BOTTOM, block_length, trace
from privbounds.simulators.bns.fp_attack import FingerprintAttack, column_audit_reason
from privbounds.simulators.bns.sanitize_learn import alg2_thresholds
from privbounds.simulators.engine.audit import AuditCase, NoiseSource, noise_sources
from privbounds.simulators.engine.simulator import expand
from privbounds.simulators.shared.accuracy import within
from privbounds.simulators.shared.mechanisms import exponential_mechanism_probs

LEARNERS = ("erm", "directsum-basic", "directsum-advanced", "alg2-tree-advanced")
EVENTS = ("accurate", "bottom", "accused-middle", "framed-middle", "unaccused-middle",
          "accused-first", "framed-first")


def middle_user(users: int) -> int:
    """ceil(n/2): where an accurate learner's word jumps from 0 to d (types m >= n/2 get
    bit 1); a middle user (2..n-1) for every n >= 3."""
    return (users + 1) // 2


def column_hypotheses(users: int, members: np.ndarray, junk: int, rows: int, alpha: float, learner: str,
                      eps0: float | None):
    """The learner's law over the thresholds t = 0..users+1 (h_t(x) = [x <= t] on
    X = {1..users+1}) for one column of each type m = 0..users-1 (m = 0: the constant-0
    padding column), on the database whose coded rows are the users in ``members``
    (bool (users,)) and that has ``junk`` junk rows; and each threshold's outcome
    category 2 * accurate + pirate bit. Returns (probs, category), both (users, users+2)."""
    t = np.arange(users + 2)
    cum = np.concatenate([[0], np.cumsum(members)])             # members with index <= x
    m = np.arange(users)
    errs = np.abs(cum[np.minimum(t, users)][None, :] - cum[m][:, None]) + junk * (t == users + 1)
    acc = within(errs, alpha * rows)
    # the pirate averages h_t over the coalition's points only (it knows S): a point it
    # does not hold could be labelled 1 for free and break feasibility
    bit = 2 * cum[np.minimum(t, users)] >= members.sum()
    if learner == "erm":
        probs = np.zeros(errs.shape)
        probs[m, np.argmin(errs, axis=1)] = 1.0                 # the smallest consistent threshold
    else:
        probs = exponential_mechanism_probs(-errs.astype(float), eps0)
    return probs, (2 * acc + bit).astype(int)


def column_law(users: int, members: np.ndarray, junk: int, rows: int, alpha: float, learner: str,
               eps0: float | None) -> np.ndarray:
    """(users, 4) probabilities of the categories 2 * accurate + bit per column type."""
    probs, cat = column_hypotheses(users, members, junk, rows, alpha, learner, eps0)
    law = np.zeros((users, 4))
    for c in range(4):
        law[:, c] = np.where(cat == c, probs, 0.0).sum(axis=1)
    return law


def draw_word(law: np.ndarray, d: int, extra: int, trials: int, rng: np.random.Generator):
    """Per trial: block weights w(B_m), m = 1..users-1, and whether every column
    (including ``extra`` constant columns) is accurate."""
    counts = rng.multinomial(d, law[1:], size=(trials, law.shape[0] - 1))   # (trials, users-1, 4)
    weights = counts[..., 1] + counts[..., 3]
    wrong = (counts[..., 0] + counts[..., 1]).sum(axis=1)
    if extra:
        wrong = wrong + rng.binomial(extra, min(1.0, law[0, 0] + law[0, 1]), size=trials)
    return weights, wrong == 0


@noise_sources(NoiseSource("column", "expmech", "privbounds.simulators.bns.fp_thresh:column_hypotheses",
                           param="epsilon", arg="eps0",
                           what="one column's exponential mechanism, at eps0"))
def column_events(budget, trials, rng, users, suspect, column, eps0):
    """Audit of one column of the exponential-mechanism direct sum on the attack's
    neighbours: D has every user coded and no padding, D' has ``suspect``'s row replaced
    by the junk row; the column is of type ``column``. Each trial draws the column's
    threshold from the learner's law (``column_hypotheses`` at eps0 * budget); E = {h =
    users + 1}."""
    full = np.ones(users, dtype=bool)
    out = []
    for members in (full, full & (np.arange(1, users + 1) != suspect)):
        junk = users - int(members.sum())
        probs = column_hypotheses(users, members, junk, users, 0.1, "directsum-advanced", eps0 * budget)[0][column]
        h = np.minimum(np.searchsorted(np.cumsum(probs), rng.random(trials), side="right"), users + 1)
        out.append(h == users + 1)
    return out[0], out[1]


def alg2_word(users: int, members: np.ndarray, junk: int, rows: int, alpha: float, d: int, extra: int,
              epsilon: float, delta: float, k: int, trials: int, rng: np.random.Generator):
    """Block weights and accuracy of Algorithm 2 (tree sanitizer, advanced accounting) on
    the attack database. Its THRESH convention is c_t(x) = [x >= t], so the domain is
    mirrored: junk at x = 0, user i at x = users + 1 - i; a type-m column is then the
    threshold t_m = users + 1 - m, the constant-0 column t = users + 1. The tree sanitizer
    needs a power-of-2 domain, so X is padded with empty points above users."""
    X = 1 << int(np.ceil(np.log2(users + 1)))
    e_san, _, eps0 = bounds.alg2_budget(epsilon, k, "advanced", delta)
    hist = np.zeros((trials, X), dtype=np.int64)
    hist[:, 0] = junk
    hist[:, users + 1 - np.arange(1, users + 1)] = members.astype(np.int64)
    cm = np.concatenate([[0], np.cumsum(hist[0, :] * (np.arange(X) > 0))])       # members below x
    targets = np.concatenate([np.repeat(users + 1 - np.arange(1, users), d), np.full(extra, users + 1)])

    def positives_in_bins(edges):
        b = edges.shape[0]
        lo = np.concatenate([np.zeros((b, 1), int), edges], axis=1)[:, None, :]
        hi = np.concatenate([edges, np.full((b, 1), X)], axis=1)[:, None, :]
        cut = np.clip(targets[None, :, None], lo, hi)
        return cm[hi] - cm[cut]                                                 # members on x >= t_j

    h = alg2_thresholds(hist, positives_in_bins, e_san, alpha * rows / 8, eps0, rng)      # (trials, k)
    errs = np.abs(cm[np.minimum(h, X)] - cm[targets][None, :]) + junk * (h == 0)
    accurate = within(errs, alpha * rows).all(axis=1)
    M = int(members.sum())
    bit = 2 * (M - cm[np.minimum(h, X)]) >= M                                        # members with x >= h
    weights = bit[:, : (users - 1) * d].reshape(trials, users - 1, d).sum(axis=2)     # types m = 1..users-1
    return weights, accurate


class _ThreshAttack(FingerprintAttack):
    params = {
        "users": Interval(3, 24, "both", integer=True),
        "k": Interval(1, 1 << 22, "both", integer=True),
        "learner": Options(LEARNERS),
        "event": Options(EVENTS),
        "epsilon": EPSILON,
        "delta": DELTA,
        "alpha": ALPHA_BELOW_HALF,
        "beta": BETA,
    }

    code_name = "Boneh-Shaw"
    min_users = 3          # a middle user (2..n-1) is needed
    code_length = staticmethod(bounds.bs_code_length)
    lower_bound_users = staticmethod(bounds.n_lb_thresh_users)

    def n_range(self, point):
        return point["users"], 1 << 21

    def privacy(self, point):
        if point["learner"] == "alg2-tree-advanced":
            return {"epsilon": point["epsilon"], "delta": point["delta"] / 2,
                    "accounting": "Algorithm 2: tree sanitizer at eps/2 (pure); k exponential mechanisms "
                                  "(eps/2, delta/2)-DP by advanced composition"}
        return super().privacy(point)

    def eps0(self, point):
        if point["learner"] in ("erm", "alg2-tree-advanced"):
            return None
        rule = point["learner"].removeprefix("directsum-")
        return bounds.per_concept_epsilon(point["epsilon"], point["k"], rule, point["delta"] or None)

    AUDIT_K = 4  # the k whose per-concept eps0 the column audit runs at (see unaudited)

    unaudited = column_audit_reason("k >= 256 columns (eps0 <= 0.011, 0.007 at the 603 columns of a 4-user code)",
                                    "about 0.5 eps0 = 0.004", "4 x 10^7")

    def audits(self):
        eps0 = self.eps0({"learner": "directsum-advanced", "epsilon": 1.0, "k": self.AUDIT_K, "delta": 1e-7})
        return [AuditCase(
            "column-advanced", f"one column of the advanced direct sum (k = {self.AUDIT_K}, eps = 1, delta = 1e-7): "
            f"the exponential mechanism over the thresholds of an 8-user code at eps0 = {eps0:.4f}",
            "the attack database of an 8-user code with no padding, every user coded, versus user 7's row replaced "
            "by the junk row; the column of type 7", "h = the threshold 9 (1 on every point, the junk point too)",
            eps0, 0.0, column_events, {"users": 8, "suspect": 7, "column": 7, "eps0": eps0}, trials=4_000_000,
            mutation_trials=4_000_000)]

    def run_trials(self, point, n, trials, rng):
        users, k, alpha = point["users"], point["k"], point["alpha"]
        xi = self.xi(point)
        d = block_length(users, xi)
        extra = k - (users - 1) * d
        eps0 = self.eps0(point)
        star = middle_user(users)
        full = np.ones(users, dtype=bool)

        def without(i):
            s = full.copy()
            s[i - 1] = False
            return s

        event = point["event"]
        if point["learner"] == "alg2-tree-advanced":
            return self._alg2_trials(point, n, trials, rng, d, extra, xi, star, without)
        if event == "accurate":
            # D_-J with J uniform in {1, users}: alpha-accurate hypotheses on these make the
            # word feasible for users 1 and n, the two users whose soundness needs it
            first = rng.random(trials) < 0.5
            ok = np.empty(trials, dtype=bool)
            for mask, j in ((first, 1), (~first, users)):
                law = column_law(users, without(j), n - users + 1, n, alpha, point["learner"], eps0)
                ok[mask] = draw_word(law, d, extra, int(mask.sum()), rng)[1]
            return ok
        suspect = 1 if event.endswith("-first") else star
        members = without(suspect) if event.startswith("framed") else full
        law = column_law(users, members, n - int(members.sum()), n, alpha, point["learner"], eps0)
        weights, _ = draw_word(law, d, extra, trials, rng)
        accused = trace(weights, d, xi)
        if event == "bottom":
            return accused == BOTTOM
        if event == "unaccused-middle":
            return accused != suspect
        return accused == suspect

    def _alg2_trials(self, point, n, trials, rng, d, extra, xi, star, without):
        users, event = point["users"], point["event"]
        full = np.ones(users, dtype=bool)
        out = np.empty(trials, dtype=bool)
        step = max(1, int(2e6 // point["k"]))
        for a in range(0, trials, step):
            b = min(trials, a + step)
            if event == "accurate":
                # D_-J, J uniform in {1, users}, as for the other learners
                first = rng.random(b - a) < 0.5
                for mask, j in ((first, 1), (~first, users)):
                    if mask.any():
                        out[a:b][mask] = alg2_word(users, without(j), n - users + 1, n, point["alpha"], d, extra,
                                                   point["epsilon"], point["delta"], point["k"], int(mask.sum()),
                                                   rng)[1]
                continue
            suspect = 1 if event.endswith("-first") else star
            members = without(suspect) if event.startswith("framed") else full
            weights, _ = alg2_word(users, members, n - int(members.sum()), n, point["alpha"], d, extra,
                                   point["epsilon"], point["delta"], point["k"], b - a, rng)
            accused = trace(weights, d, xi)
            out[a:b] = {"bottom": accused == BOTTOM, "unaccused-middle": accused != suspect}.get(
                event, accused == suspect)
        return out


def _base():
    return {"epsilon": [1.0], "delta": [1e-7], "alpha": [0.1], "beta": [0.1]}


class BnsThm43(_ThreshAttack):
    """The attack as curves over the database size N at two fixed codes."""

    theorem_id = "bns.thm4_3"
    _users = {"smoke": [4], "quick": [4, 8], "full": [4, 6, 8]}

    def grid(self, fidelity, overrides):
        pts = []
        for users in overrides.get("users", self._users[fidelity]):
            # Algorithm 2 draws every column (O(k) per trial): only on the smaller codes
            learners = ["directsum-advanced", "erm"] + (["alg2-tree-advanced"] if users <= 6 else [])
            # with every user coded the tracer always accuses somebody: "bottom" is not measured
            events = [e for e in EVENTS if e != "bottom"]
            pts += expand({"users": [users], "k": [0], "learner": learners, "event": events, **_base()},
                          {kk: v for kk, v in overrides.items() if kk != "users"})
        return self.with_code_length(pts, overrides)

    def curve(self, point):
        users = point["users"]
        if point["learner"] == "erm":
            return [users, 2 * users, 8 * users]        # ERM fits exactly at every N
        if point["learner"] == "alg2-tree-advanced":    # O(k) per trial: one point per 4x
            return [users << e for e in range(0, 18, 2)]
        # two points per doubling from N = users (no padding) to 2^19 rows
        grid = users * 2.0 ** (np.arange(0, 2 * np.log2((1 << 19) / users) + 1) / 2)
        return [int(x) for x in np.unique(np.round(grid))]

    def trials_factor(self, point):
        # ceilings near xi ~ 0.01 need a few thousand trials to be resolved
        return 4

    unaudited = {
        **_ThreshAttack.unaudited,
        "Algorithm 2 (advanced accounting) as a whole, and its k exponential mechanisms": (
            "no instance has power: its k mechanisms share (eps/2, delta/2) by advanced composition, eps0 = "
            "0.0035 each at the 603 columns of a 4-user code (0.042 even at k = 4), so a doubled budget shows "
            "on one column only as a shift of a few thousandths, below what its O(k)-per-trial simulation can "
            "resolve; and a row moved between the attack's points changes the tree sanitizer's counts on up to 6 "
            "nodes, whose eps/2 shows only on events of probability about 1/64 of the raw counts, blurred by the "
            "rounding to multiples of alpha N / 8. The sanitizer is audited on its counts "
            "(privacy-alg2-sanitizer); the mechanisms' code (sanitize_learn.alg2_thresholds) is audited with "
            "power under basic accounting in bns.thm5_1 (privacy-alg2-labels)."),
    }

    def audits(self):
        # Algorithm 2 runs on the attack's domain padded to a power of 2: X = 8 for 4 users
        e_san = bounds.alg2_budget(1.0, self.AUDIT_K, "advanced", 1e-7)[0]
        return [*super().audits(), AuditCase(
            "alg2-sanitizer", f"Algorithm 2's tree sanitizer at eps/2 = {e_san:g} (THRESH_8 of a 4-user code: "
            "3 levels, Lap(12) per node), on the node counts it computes", "one row at x = 0 versus at x = 7",
            "on every level the node of 0 reads >= 1 and the node of 7 reads <= 0", e_san, 0.0,
            tree_sanitizer_events, {"d": 3, "eps_san": e_san}, trials=600_000)]


class BnsRem44(_ThreshAttack):
    """N*(alpha): rows at which the private learner becomes accurate on the attack
    databases, against the padding bound n / (2 alpha)."""

    theorem_id = "bns.rem4_4"
    _alphas = {"smoke": [0.1], "quick": [0.05, 0.1, 0.2], "full": [0.025, 0.05, 0.1, 0.2, 0.4]}

    def grid(self, fidelity, overrides):
        pts = expand({"users": [4, 8] if fidelity != "smoke" else [4], "k": [0], "learner": ["directsum-advanced"],
                      "event": ["accurate"], **_base(), "alpha": self._alphas[fidelity]}, overrides)
        return self.with_code_length(pts, overrides)

    def trials_factor(self, point):
        return 1


class BnsCor46(_ThreshAttack):
    """N*(k) over a grid of k, with the code of n_LB(k) users."""

    theorem_id = "bns.cor4_6"
    _ks = {"smoke": [1 << 8, 1 << 10], "quick": [1 << e for e in range(6, 16, 1)],
           "full": [1 << e for e in range(6, 19)]}

    def grid(self, fidelity, overrides):
        return self.grid_over_k(self._ks[fidelity], {"learner": ["directsum-advanced"], "event": ["accurate"],
                                                     **_base()}, overrides)
