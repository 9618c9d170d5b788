"""Differentially private mechanisms, batched along a leading trial axis.

- Laplace mechanism (Dwork, McSherry, Nissim, Smith 2006): add Lap(sensitivity/eps).
- Exponential mechanism (McSherry and Talwar 2007; Sivakumar Lemma 3.2, Bun-Nissim-
  Stemmer Prop 3.8): output r with probability proportional to
  exp(eps * score(r) / (2 * sensitivity)). Sampled exactly with the Gumbel-max trick,
  argmax_r (eps * score(r) / (2 * sensitivity) + G_r) with G_r i.i.d. standard Gumbel,
  which never exponentiates raw scores of size eps * n. ``exponential_mechanism_probs``
  gives the same distribution in closed form (log-sum-exp) for tests and audits.
"""

from __future__ import annotations

import numpy as np
from scipy.special import log_softmax

from privbounds.params import check_positive


def laplace_mechanism(values, sensitivity: float, epsilon: float, rng: np.random.Generator):
    """values + Lap(sensitivity / epsilon), elementwise; eps-DP for a query of that
    L1 sensitivity."""
    check_positive("epsilon", epsilon)
    check_positive("sensitivity", sensitivity)
    values = np.asarray(values, dtype=float)
    return values + rng.laplace(0.0, sensitivity / epsilon, size=values.shape)


def exponential_mechanism(scores, epsilon: float, rng: np.random.Generator,
                          sensitivity: float = 1.0, log_weight=None) -> np.ndarray:
    """Index of the chosen candidate along the last axis of ``scores`` (batched over the
    leading axes); eps-DP when each score has the given sensitivity.

    ``log_weight`` (broadcast against scores) gives candidate r the probability
    proportional to w_r exp(eps score_r / (2 sensitivity)): with w_r the size of a group
    of hypotheses sharing one score, this samples the group of an exponential mechanism
    over the individual hypotheses, whose distribution (and so privacy) it leaves
    unchanged."""
    check_positive("epsilon", epsilon)
    check_positive("sensitivity", sensitivity)
    scores = np.asarray(scores, dtype=float)
    logits = (epsilon / (2.0 * sensitivity)) * scores
    if log_weight is not None:
        logits = logits + log_weight
    logits += rng.gumbel(size=logits.shape)
    return np.argmax(logits, axis=-1)


def exponential_mechanism_probs(scores, epsilon: float, sensitivity: float = 1.0) -> np.ndarray:
    """Exact output distribution of ``exponential_mechanism`` (softmax via log-sum-exp)."""
    check_positive("epsilon", epsilon)
    scores = np.asarray(scores, dtype=float)
    return np.exp(log_softmax((epsilon / (2.0 * sensitivity)) * scores, axis=-1))


def adist_noise_scale(epsilon: float) -> float:
    """A_dist's noise scale 4/eps on the gap (its own function so that a privacy audit's
    mutation test can halve the noise alone, leaving the release threshold where it is)."""
    return 4.0 / epsilon


def stable_choice(q1, q2, epsilon: float, delta: float, rng: np.random.Generator) -> np.ndarray:
    """A_dist (Smith and Thakurta 2013; Bun-Nissim-Stemmer Prop 3.11, Alg 3), batched:
    True where the top solution is released, False for "bottom".

    q1, q2: the best and second-best quality scores (quality of sensitivity 1 in the
    database). The released decision is dist + Lap(4/eps) >= (4/eps) ln(1/delta) with
    dist = q1 - q2. dist has sensitivity 2, so the noise costs eps/2; when the top
    solution differs between neighbours, dist <= 2 on both sides and release happens
    with probability <= delta e^(eps/2) / 2 <= delta for eps <= 1 (our
    constants, RECONSTRUCTED: the extracted text lost the noise scale and threshold).
    If q1 - q2 >= (4/eps) ln(1/(beta delta)) the top solution is released with
    probability >= 1 - beta / 2."""
    check_positive("epsilon", epsilon)
    if not 0 < delta < 1:
        raise ValueError(f"delta must be in (0, 1), got {delta!r}")
    dist = np.asarray(q1, float) - np.asarray(q2, float)
    scale = 4.0 / epsilon
    return dist + rng.laplace(0.0, adist_noise_scale(epsilon), size=dist.shape) >= scale * np.log(1.0 / delta)
