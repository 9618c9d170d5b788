"""Wang, Lei and Fienberg, "Learning with Differential Privacy: Stability, Learnability
and the Sufficiency and Necessity of ERM Principle" (JMLR 2016): the finite problem
P-fin and Algorithm 1 on it, shared by the experiments of Lemma 8, Corollary 9,
Theorem 19, Example 20, Lemmas 36 and 37, Theorem 35 and the others that run Alg 1.

P-fin: thresholds on a grid of G = 2^M points x_j = (j + 1/2)/G, the M-bit class
H = {h_t : t = 0..G}, h_t(x_j) = 1 iff j >= t, with 0-1 loss (so loss is in [0, 1], the
paper's assumption A1). A distribution D puts mass p_j on x_j and labels it by a target
threshold, flipped with probability ``noise`` (agnostic). Everything Alg 1 needs is exact:

- a dataset is its label histogram (pos_j, neg_j), drawn for a batch of trials at once
  (one multinomial over the 2G cells per trial);
- the empirical error count of every threshold is a cumulative sum of the histogram;
- R(h_t) is a dot product with p; so E_{h~A(Z)} R(h), E R_hat(h, Z), R_hat*(Z) and R*
  are exact for each dataset, and only the draw of Z is Monte Carlo.

Algorithm 1 (the exponential mechanism for regularised ERM, g_n = 0, counting measure):
P(h) proportional to exp(eps q(h, Z) / (2 Delta q)) with q = -R_hat and the paper's
Delta q = 2/n, i.e. exp(-eps * errors(h) / 4). The true replace-one sensitivity of R_hat
for a loss in [0, 1] is 1/n, so Alg 1 "at eps" is in fact eps/2-DP: ``alg1_log_probs``
takes ``sensitivity`` so that experiments can run it at the paper's 2/n (the constants
of Thm 19 and Lem 36 assume it) or at the true 1/n, and say which.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import log_softmax

from privbounds.params import check_positive
from privbounds.simulators.engine.audit import NoiseSource, noise_sources


@dataclass(frozen=True)
class Problem:
    """P-fin: M bits, grid masses ``p`` (length G = 2^M), target threshold and label noise."""

    bits: int
    p: np.ndarray
    target: int
    noise: float

    @property
    def size(self) -> int:
        return 1 << self.bits

    @property
    def hypotheses(self) -> int:
        return self.size + 1

    def label_one(self) -> np.ndarray:
        """P(y = 1 | x_j)."""
        clean = (np.arange(self.size) >= self.target).astype(float)
        return clean * (1 - self.noise) + (1 - clean) * self.noise

    def risks(self) -> np.ndarray:
        """R(h_t) for t = 0..G, exact: mass of label-1 points below t plus label-0 points at or above t."""
        one = self.p * self.label_one()
        zero = self.p - one
        below_one = np.concatenate([[0.0], np.cumsum(one)])
        above_zero = np.concatenate([np.cumsum(zero[::-1])[::-1], [0.0]])
        return below_one + above_zero

    def sample(self, n: int, trials: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Label histograms (pos, neg), each (trials, G), of ``trials`` datasets of n points."""
        one = self.p * self.label_one()
        cells = np.concatenate([one, self.p - one])
        counts = rng.multinomial(n, cells / cells.sum(), size=trials)
        return counts[:, : self.size], counts[:, self.size:]


def uniform_problem(bits: int, noise: float = 0.1, target: int | None = None) -> Problem:
    """x uniform on the grid, target in the middle unless given."""
    g = 1 << bits
    return Problem(bits, np.full(g, 1.0 / g), g // 2 if target is None else target, noise)


def cluster_problem(bits: int, noise: float = 0.1, width: int = 4, target: int | None = None) -> Problem:
    """x uniform on ``width`` adjacent grid points around the target (a concentrated D:
    the data say nothing about thresholds away from the cluster)."""
    g = 1 << bits
    t = g // 2 if target is None else target
    lo = max(0, min(t - width // 2, g - width))
    p = np.zeros(g)
    p[lo: lo + width] = 1.0 / width
    return Problem(bits, p, t, noise)


def error_counts(pos: np.ndarray, neg: np.ndarray) -> np.ndarray:
    """Empirical error count of every threshold h_t, t = 0..G, for each dataset:
    the positives below t plus the negatives at or above t. Shape (trials, G + 1)."""
    zeros = np.zeros(pos.shape[:-1] + (1,), dtype=pos.dtype)
    below_pos = np.concatenate([zeros, np.cumsum(pos, axis=-1)], axis=-1)
    above_neg = np.concatenate([np.cumsum(neg[..., ::-1], axis=-1)[..., ::-1], zeros], axis=-1)
    return below_pos + above_neg


def alg1_log_probs(errors: np.ndarray, n: int, epsilon, sensitivity: float | None = None) -> np.ndarray:
    """Log-probabilities of Algorithm 1's output over H for each dataset (rows of
    ``errors``), by log-sum-exp: exp(eps q / (2 Delta q)) with q = -errors/n and
    Delta q = ``sensitivity`` (default the paper's 2/n). ``epsilon`` may be an array
    broadcast against the rows (one eps per trial)."""
    sens = 2.0 / n if sensitivity is None else sensitivity
    check_positive("sensitivity", sens)
    errors = np.asarray(errors, float)  # n F: error counts, plus n g_n(h) for a regulariser
    eps = np.asarray(epsilon, float)
    if np.any(eps <= 0):
        raise ValueError(f"epsilon must be > 0, got {epsilon!r}")
    if eps.ndim:
        eps = eps[..., None]
    return log_softmax(-(eps / (2.0 * sens)) * (errors / n), axis=-1)


def excess_quantities(problem: Problem, errors: np.ndarray, logp: np.ndarray, n: int) -> dict:
    """Per dataset, exact over h ~ A(Z): excess risk E R(h) - R*, AERM gap
    E R_hat(h, Z) - R_hat*(Z), generalisation gap E [R(h) - R_hat(h, Z)]."""
    p = np.exp(logp)
    risk = problem.risks()
    emp = errors / n
    e_risk = p @ risk
    e_emp = np.sum(p * emp, axis=-1)
    return {"excess_risk": e_risk - risk.min(), "aerm_gap": e_emp - emp.min(axis=-1),
            "generalisation_gap": e_risk - e_emp}


def ro_stability(logp: np.ndarray, logp_prime: np.ndarray) -> np.ndarray:
    """sup_z |E_{A(Z)} loss(h, z) - E_{A(Z')} loss(h, z)| for 0-1 loss on thresholds,
    exact: for a test point (x_j, 1) the loss is 1{t > j}, for (x_j, 0) it is 1{t <= j},
    so the supremum is the largest absolute tail sum of p - p' (over j)."""
    diff = np.exp(logp) - np.exp(logp_prime)
    tails = np.cumsum(diff[..., ::-1], axis=-1)[..., ::-1]  # sum over t >= j
    return np.max(np.abs(tails), axis=-1)


def sample_hypotheses(logp: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One draw of h ~ A(Z) per row of ``logp`` (Gumbel-max on the log-probabilities)."""
    return np.argmax(logp + rng.gumbel(size=logp.shape), axis=-1)


# Algorithm 1's one noise, its density exp(eps q / (2 Delta q)), at the function every
# experiment and audit takes its log-probabilities from (looked up as finite.alg1_log_probs)
ALG1 = NoiseSource("alg1", "expmech", "privbounds.simulators.wlf.finite:alg1_log_probs", param="epsilon",
                   arg="epsilon", what="Alg 1's density exp(eps q / (2 Delta q))")


@noise_sources(ALG1)
def alg1_events(budget, trials, rng, bits=3, n=4, j=0, epsilon=2.0, sensitivity=None):
    """Audit events of Algorithm 1 on P-fin (``AuditCase.events``): n - 1 rows (x_{G-1}, 1)
    and one row at x_j labelled 0 (D) or 1 (D'); event "h_t with t <= j" (the few
    thresholds that label x_j with 1, where the privacy loss shows). Algorithm 1 runs at
    nominal ``epsilon`` x budget through the same functions as the experiments. With the
    paper's Delta q = 2/n the realised guarantee is epsilon/2: at bits 3, n 4, j 0 and
    nominal eps 2 the exact log-ratio of the event is 0.875 (declared 1), and 1.72 with
    the budget doubled (above 1), on events of probability 0.08 to 0.28."""
    g = 1 << bits
    pos = np.zeros(g, int)
    neg = np.zeros(g, int)
    pos[g - 1] = n - 1
    neg_d = neg.copy()
    neg_d[j] += 1
    pos_d = pos.copy()
    pos_d[j] += 1
    errs = error_counts(np.stack([pos, pos_d]), np.stack([neg_d, neg]))
    logp = alg1_log_probs(errs, n, epsilon * budget, sensitivity)
    a = sample_hypotheses(np.broadcast_to(logp[0], (trials, g + 1)), rng) <= j
    b = sample_hypotheses(np.broadcast_to(logp[1], (trials, g + 1)), rng) <= j
    return a, b


def replaced_cell(counts: np.ndarray, u) -> np.ndarray:
    """The cell (column of ``counts``, (trials, 2G)) of each dataset's row at position u,
    0 <= u < n, the rows listed cell by cell: the row a replace-one experiment replaces.
    The caller draws u (uniform real or uniform integer in [0, n): one law, two draws that
    the experiments' seeds already fix)."""
    return np.argmax(np.cumsum(counts, axis=1) > np.asarray(u)[:, None], axis=1)


def replacements(pos: np.ndarray, neg: np.ndarray, cell: np.ndarray, n: int, epsilon,
                 sensitivity: float | None = None):
    """Every replacement of one row: for each value v = 0..2G-1 (the cells in
    ``point_losses``' order), (v, Algorithm 1's log-probabilities on each dataset with its
    row at ``cell`` replaced by v). One v at a time, as the table of all of them, (trials,
    2G, G + 1), does not fit at 12 bits and more."""
    trials, size = pos.shape
    counts = np.concatenate([pos, neg], axis=1)
    rows = np.arange(trials)
    for v in range(2 * size):
        c = counts.copy()
        c[rows, cell] -= 1
        c[:, v] += 1
        yield v, alg1_log_probs(error_counts(c[:, :size], c[:, size:]), n, epsilon, sensitivity)


def point_losses(size: int) -> np.ndarray:
    """loss(h_t, z) of every threshold (columns t = 0..G) at every point z = (x_c, 1),
    c < G, then (x_c, 0): 1{t > c} for label 1, 1{t <= c} for label 0. Shape (2G, G + 1);
    row c is also how one row at cell c adds to ``error_counts``."""
    t = np.arange(size + 1)[None, :]
    c = np.arange(size)[:, None]
    return np.concatenate([(t > c), (t <= c)]).astype(float)
