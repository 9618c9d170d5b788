"""Audit instances of the stability-based mechanisms of Bun, Nissim, Stemmer,
"Simultaneous Private Learning of Multiple Concepts": A_dist (Prop 3.11, Alg 3;
``mechanisms.stable_choice``), Algorithm 4 (Thm 3.12, ``stability.alg4_parities``) and
Algorithm 5 (Thm 3.13, ``stability.alg5_points``, also run on a subsample in Thm 2.24).
engine/audit.py explains the audit; the simulators list the instances.

A_dist is (eps, delta)-DP through two halves of one proof, and each half needs its own
event:

- the top solution is the same on D and D' (eps half): the gap q1 - q2 moves by at most
  2 and gets Lap(4/eps), so "release" versus "bottom" loses at most eps/2. On the event
  {release} the ratio is exactly e^(2 eps / 4) while both gaps are below the threshold
  (4/eps) ln(1/delta) (both in the Laplace upper tail). This half can never show power
  against the full eps (doubled, it loses eps, not more), so these cases declare eps/2,
  the share the analysis gives the noise (``stable_choice``'s docstring).
- the top solution changes between D and D' (delta half): then the gap is at most 2 and
  A_dist must release D's top with probability <= delta e^(eps/2) / 2 <= delta (eps <=
  2 ln 2), while on D' it never outputs it. With a gap of exactly 2 on D (its top leads
  by 2; D' moves one vote and ties, the tie going to the other solution) the event
  {release D's top} has probability 0.82 delta at eps = 1 and 1.36 delta with eps
  doubled to 2 (> 2 ln 2): p_D - delta > 0 only under the doubled budget, and with 0
  hits on D' the lower bound on eps is large. So this case declares the full (eps, delta)
  and has power, provided delta x trials is a few hundred.

Ties: ``stability.top_two`` and Alg 5's per-point selection both return the smallest key
among equally frequent ones, so the delta instances give D's top the larger key; Alg 4's
keys are hashes of the solutions, so its instance reads the tie's winner off
``alg4_parities`` itself. On D' the event then never happens (the tests check it).

Algorithm 5 composes Alg 1 (the point sanitizer) and A_dist at (eps/2, delta/2) each.
Doubled, either part alone reaches only its own share, so the whole shows power only on an
event where one moved row costs both parts at once (``alg5_whole_case``: 5/8 eps, 5/4 eps
doubled). Where that instance is out of reach (Thm 2.24's eps <= 1 and delta <= 1e-6 would
need four times the rows) the parts are audited each at its own budget, still on the output of the whole
algorithm: the set of heavy points is a function of Alg 1's output alone (an event on it
is bounded by Alg 1's (eps/2, delta/2)), and the label vector released at a point whose
count does not change is A_dist's.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from privbounds.bounds.bns import alg4_block_size
from privbounds.simulators.bns import gf2
from privbounds.simulators.bns.sanitizers import sanitizer_threshold
from privbounds.simulators.bns.stability import alg4_parities, alg5_points, top_two
from privbounds.simulators.engine.audit import AuditCase, NoiseSource, noise_sources
from privbounds.simulators.shared.learners import chunks
from privbounds.simulators.shared.mechanisms import stable_choice

# What catches these noise scales where an instance cannot (its AuditCase.uncaught says why
# not, with numbers): the instances with power against each scale on its own, as the
# mutation table (engine/mutations.py) shows them at 200,000 trials.
ALG1_CATCHES = "caught by bns.prop2_20 alg1-epsilon (0.954 -> 1.941 of 1, the same point_noise_scale)"
ADIST_CATCHES = "caught by bns.prop3_11 adist-same-top (0.332 -> 0.618 of 0.5, the same adist_noise_scale)"


def _votes(votes) -> np.ndarray:
    """A database of votes [[key, count], ...] as one row of keys (1, total)."""
    return np.repeat(np.array([k for k, _ in votes], dtype=np.uint64), [c for _, c in votes])[None]


@noise_sources(NoiseSource("adist", "laplace", "privbounds.simulators.shared.mechanisms:adist_noise_scale",
                           what="A_dist's Lap(4/eps) on the gap (the release threshold left as it is)"))
def adist_events(budget, trials, rng, epsilon, delta, votes_d, votes_d2, event):
    """A_dist (Prop 3.11) on two vote databases (solution key -> multiplicity, the
    sensitivity-1 quality; D' moves one vote): the top solution and the qualities q1, q2
    from ``top_two`` (as Alg 4 computes them), the release from ``stable_choice`` at
    eps x budget. E: "release" (any solution released) or "release-first" (released,
    and the released solution is the first key of votes_d)."""
    out = []
    for votes in (votes_d, votes_d2):
        keys = _votes(votes)
        pos, q1, q2 = top_two(keys)
        released = stable_choice(np.full(trials, float(q1[0])), np.full(trials, float(q2[0])),
                                 epsilon * budget, delta, rng)
        if event == "release-first":
            released &= keys[0, pos[0]] == votes_d[0][0]
        elif event != "release":
            raise ValueError(f"event must be 'release' or 'release-first', got {event!r}")
        out.append(released)
    return out[0], out[1]


# Alg 4 instance (d = 3, blocks of s = 6 rows): rows 1-5 of a block lie where the parities
# 1 and 3 agree (<1 xor 3, x> = <2, x> = 0) and row 6 where they differ, and the rows span
# {0,1}^3, so every block has full rank and determines its parity; one changed label (row
# 6) turns a block of one into a block of the other.
ALG4_D, ALG4_PAIR, ALG4_ROWS = 3, (1, 3), (1, 4, 5, 1, 4, 2)


def _parity_block(v: int) -> np.ndarray:
    return np.array([bin(v & r).count("1") % 2 for r in ALG4_ROWS], dtype=bool)


def _alg4_database(blocks):
    """(x (1, n), packed labels (1, n, 1)) of blocks labelled by the parities ``blocks``."""
    x = np.tile(np.array(ALG4_ROWS, dtype=np.int64), len(blocks))[None]
    y = np.concatenate([_parity_block(v) for v in blocks])[None, :, None]
    return x, gf2.pack(y)


def _alg4_value(sol) -> np.ndarray:
    """The released parity (as an integer) of solutions (B, d, 1) of one column."""
    return np.sum(gf2.unpack(sol, 1)[:, :, 0] * (1 << np.arange(sol.shape[1])), axis=1)


def alg4_tie_winner() -> int:
    """Which parity of ALG4_PAIR Algorithm 4 takes as its top solution when both have
    the same number of blocks (the smaller hash key): read off alg4_parities itself,
    whose returned solution is the top one whether or not A_dist releases it (the rng
    only decides the release)."""
    x, y = _alg4_database(ALG4_PAIR)
    s = alg4_block_size(ALG4_D)
    _, sol = alg4_parities(x, y, ALG4_D, s, 1.0, 0.5, np.random.default_rng(0))
    return int(_alg4_value(sol)[0])


@noise_sources(NoiseSource("adist", "laplace", "privbounds.simulators.shared.mechanisms:adist_noise_scale",
                           what="A_dist's Lap(4/eps) on the gap (the release threshold left as it is)"))
def alg4_events(budget, trials, rng, epsilon, delta, blocks_d, blocks_d2, event):
    """Algorithm 4 (Thm 3.12) with d = 3, k = 1 on databases given as lists of block
    parities ("top"/"other": the tie winner of ALG4_PAIR and the other one, so that a tie
    goes to "top"), which differ in one row when they differ in one block. E: "release"
    (a parity released) or "release-other" (the released parity is "other")."""
    top = alg4_tie_winner()
    name = {"top": top, "other": ALG4_PAIR[0] + ALG4_PAIR[1] - top}
    s = alg4_block_size(ALG4_D)
    out = []
    for blocks in (blocks_d, blocks_d2):
        x, y = _alg4_database([name[b] for b in blocks])
        hits = np.empty(trials, dtype=bool)
        for sl in chunks(trials, 8 * x.shape[1]):
            b = sl.stop - sl.start
            released, sol = alg4_parities(np.repeat(x, b, 0), np.repeat(y, b, 0), ALG4_D, s,
                                          epsilon * budget, delta, rng)
            if event == "release-other":
                released &= _alg4_value(sol) == name["other"]
            elif event != "release":
                raise ValueError(f"event must be 'release' or 'release-other', got {event!r}")
            hits[sl] = released
        out.append(hits)
    return out[0], out[1]


def _run_alg5(x, keys, trials, alpha, epsilon, delta, rng, per_trial):
    """alg5_points on ``trials`` copies of one database; per_trial(released, heavy, b)
    maps one chunk's output to its boolean events."""
    hits = np.empty(trials, dtype=bool)
    for sl in chunks(trials, 8 * x.size):
        b = sl.stop - sl.start
        released, heavy = alg5_points(np.repeat(x, b, 0), np.repeat(keys, b, 0), alpha, epsilon, delta, rng)
        hits[sl] = per_trial(released, heavy, b)
    return hits


@noise_sources(NoiseSource("sanitizer", "laplace", "privbounds.simulators.bns.sanitizers:point_noise_scale",
                           what="Alg 1's Lap(2/eps) on every non-zero count"))
def alg5_heavy_set_events(budget, trials, rng, epsilon, delta, alpha, count_y, count_z, count_w=0,
                          released=False):
    """Algorithm 5 (Thm 3.13) on D = count_y rows at point 0 (label vector key 1),
    count_z rows at point 1 (key 2) and count_w rows at point 2 (key 3, none if 0); D'
    moves one row from point 0 to point 1. E: "the heavy points are exactly 0 (and 2 if
    it has rows)", and with ``released`` also "A_dist releases". Both moved counts
    change by one, against each other: when count_y <= H <= count_z for the heavy
    threshold H = max(tau, 3 alpha n / 8) (tau Alg 1's suppression threshold) both are
    in a Laplace tail and the heavy set alone loses Alg 1's whole eps/2. With
    ``released``, the gap q1 - q2 = count_y at point 0 (a single vector there and at 2)
    drops by one as well, which costs A_dist's Lap(8/eps) another eps/8 when count_y is
    below A_dist's threshold: 5/8 eps in all."""
    out = []
    for moved in (False, True):
        cy, cz = count_y - moved, count_z + moved
        x = np.r_[np.zeros(cy), np.ones(cz), np.full(count_w, 2)].astype(np.int64)[None]
        keys = np.r_[np.ones(cy), np.full(cz, 2), np.full(count_w, 3)].astype(np.uint64)[None]

        def heavy_set(rel, heavy, b):
            ht, hx, _ = heavy
            seen = [np.zeros(b, bool) for _ in range(3)]
            for p in range(3):
                seen[p][ht[hx == p]] = True
            hit = seen[0] & ~seen[1] & (seen[2] == (count_w > 0))
            return hit & rel if released else hit
        out.append(_run_alg5(x, keys, trials, alpha, epsilon * budget, delta, rng, heavy_set))
    return out[0], out[1]


@noise_sources(NoiseSource("adist", "laplace", "privbounds.simulators.shared.mechanisms:adist_noise_scale",
                           what="A_dist's Lap(4/eps) on the gap (the release threshold left as it is)"), NoiseSource("sanitizer", "laplace", "privbounds.simulators.bns.sanitizers:point_noise_scale",
                           what="Alg 1's Lap(2/eps) on every non-zero count"))
def alg5_point_events(budget, trials, rng, epsilon, delta, alpha, votes_d, votes_d2, event):
    """Algorithm 5 (Thm 3.13) on one point (0) whose rows carry the label vectors (hash
    keys) of votes_d on D and votes_d2 on D' ([[key, count], ...], the same number of
    rows: D' relabels one row, so Alg 1 sees the same count and the change reaches A_dist
    only). E: "release" (point 0 is heavy and A_dist releases) or "release-first" (and
    the vector released at 0 is the first key of votes_d)."""
    if event not in ("release", "release-first"):
        raise ValueError(f"event must be 'release' or 'release-first', got {event!r}")
    first = votes_d[0][0]

    def released_at_zero(keys, released, heavy, b):
        ht, hx, hrow = heavy
        at0 = hx == 0
        ok = np.zeros(b, bool)
        ok[ht[at0]] = True if event == "release" else keys[0, hrow[at0]] == first
        return released & ok
    out = []
    for votes in (votes_d, votes_d2):
        keys = _votes(votes)
        out.append(_run_alg5(np.zeros(keys.shape, dtype=np.int64), keys, trials, alpha, epsilon * budget, delta,
                             rng, partial(released_at_zero, keys)))
    return out[0], out[1]


def alg5_heavy_set_case(epsilon: float, delta: float, alpha: float, where: str = "") -> AuditCase:
    """Alg 1's share (eps/2, delta/2) of Algorithm 5, audited on the heavy set. The
    counts straddle Alg 1's threshold under the doubled budget, tau = 1 + (2/eps)
    ln(4/delta) (eps/2 doubled is eps): count_y = floor(tau), count_z = ceil(tau), so
    under both budgets the two counts sit in the Laplace tails where one row costs the
    full eps/4 per count (eps/2 in all; doubled, eps)."""
    tau = sanitizer_threshold(epsilon, delta / 2)
    cy, cz = int(np.floor(tau)), int(np.ceil(tau))
    return AuditCase("alg5-heavy-set", f"Algorithm 5{where} at eps = {epsilon:g}, delta = {delta:g}, alpha = "
                     f"{alpha:g}: its Alg 1 (point sanitizer) at (eps/2, delta/2), seen through the heavy set",
                     f"{cy} rows at point 0 and {cz} at point 1 versus {cy - 1} and {cz + 1} (one row moved)",
                     "the heavy points are exactly {0}", epsilon / 2, delta / 2, alg5_heavy_set_events,
                     {"epsilon": epsilon, "delta": delta, "alpha": alpha, "count_y": cy, "count_z": cz},
                     trials=60_000)


def alg5_whole_case(epsilon: float = 2.0, h: int = 14, n: int = 250, trials: int = 120_000) -> AuditCase:
    """The whole of Algorithm 5 at (eps, delta) on one instance where the moved row costs
    Alg 1 (two counts) and A_dist (the gap) together, 5/8 eps in all: 5/4 eps doubled,
    above eps. Under the doubled budget every one of the three events sits exactly at
    its Laplace tail (probability 1/2 on D): point 0 has h rows, at the heavy threshold
    3 alpha n / 8 = h (alpha = 8 h / (3 n), the filler point 2 with n - 2h rows keeps n
    large; it needs alpha < 0.15, so n > 8 h / 0.45) and at A_dist's threshold
    (4/eps) ln(2/delta) = h (delta = 2 e^(-h eps / 4)); point 1 has h rows. So
    P_D[E] = 1/8 and P_D'[E] = e^(-5 eps / 4) / 8 doubled; delta, subtracted from P_D,
    must stay small, and delta < 1/n must hold. The row count grows like h, i.e. like
    (1/eps) ln(1/delta), and the time with it: at eps = 2 (the largest eps of Thm 3.13's
    parameters) h = 14 gives delta = 1.8e-3 and n = 250, half of what eps = 1 needs
    (h = 28, n = 500 at the same delta), with the margin of the doubled loss over eps
    twice as large (5/2 against 2 instead of 5/4 against 1)."""
    delta = 2 * np.exp(-h * epsilon / 4)
    alpha = 8 * h / (3 * n)
    if not (alpha < 0.15 and delta * n < 1 and sanitizer_threshold(epsilon, delta / 2) < h):
        raise ValueError(f"no tail-exact Alg 5 instance at h = {h}, n = {n}")
    return AuditCase("alg5-whole", f"Algorithm 5 as a whole at eps = {epsilon:g}, delta = {delta:.3g}, alpha = "
                     f"{alpha:.4f}: Alg 1 and A_dist at (eps/2, delta/2) each, by basic composition",
                     f"{h} rows at point 0, {h} at point 1 and {n - 2 * h} at point 2 versus {h - 1}, {h + 1} and "
                     f"{n - 2 * h} (one row moved from 0 to 1)",
                     "the heavy points are exactly {0, 2} and A_dist releases", epsilon, float(delta),
                     alg5_heavy_set_events,
                     {"epsilon": epsilon, "delta": float(delta), "alpha": alpha, "count_y": h, "count_z": h,
                      "count_w": n - 2 * h, "released": True}, trials=trials)
