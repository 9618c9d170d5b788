"""Learners over the concept classes of ``concepts.py``, batched over trials and concepts.

- ``expmech_learner``: the generic private learner of Kasiviswanathan et al. (Sivakumar
  Thm 3.3, Bun-Nissim-Stemmer Thm 2.22): the exponential mechanism with
  score = -(misclassified rows), sensitivity 1, so eps-DP per concept.
- ``erm_first_consistent``: Sivakumar Thm 2.1's consistent ERM (first consistent
  hypothesis in the class's fixed order). Not private.
- ``erm_middle_consistent``: Sivakumar Thm 2.2's ERM for thresholds: the middle of the
  consistent interval (a, b], i.e. t = (a + 1 + b) // 2. Not private.
- Direct sum (Bun-Nissim-Stemmer Obs 3.2): ``expmech_learner`` on every label column with
  the per-concept budget of ``bounds.tools.per_concept_epsilon``.

Every learner takes the sample as label histograms (pos, neg) of shape (B, k, |X|): the
multiset of labelled rows is a sufficient statistic for all of them.
"""

from __future__ import annotations

import numpy as np

from privbounds.simulators.shared.concepts import ConceptClass
from privbounds.simulators.shared.mechanisms import exponential_mechanism

# Largest (trials x concepts x hypotheses) array built at once: keeps the working set in
# cache-friendly tens of MB however large the block.
CHUNK_ELEMENTS = 1 << 20


def chunks(trials: int, per_trial: int):
    """Slices of the trial axis whose arrays stay under CHUNK_ELEMENTS."""
    step = max(1, CHUNK_ELEMENTS // max(1, per_trial))
    for start in range(0, trials, step):
        yield slice(start, min(trials, start + step))


def expmech_learner(cls: ConceptClass, pos, neg, epsilon: float, rng: np.random.Generator):
    """Hypothesis indices (B, k) drawn by the exponential mechanism, epsilon per column."""
    return exponential_mechanism(-cls.errors_from_histograms(pos, neg), epsilon, rng)


def expmech_learner_grouped(cls: ConceptClass, support, counts, labels, epsilon: float,
                            rng: np.random.Generator):
    """The same distribution as ``expmech_learner``, sampled through the class's runs of
    equal error: pick a run with probability proportional to its size times
    exp(-eps errors / 2) (Gumbel-max with log weights), then a uniform member
    (the fast form of Sivakumar's exponential-mechanism threshold learner). Cost O(k * support) per trial
    instead of O(k * |H|), so the domain size no longer matters."""
    errors, mult, member = cls.groups(support, counts, labels)
    with np.errstate(divide="ignore"):  # an empty run gets weight 0, never chosen
        log_mult = np.log(mult)[:, None, :]
    g = exponential_mechanism(-errors, epsilon, rng, log_weight=log_mult)  # (B, k)
    return member(g, rng.random(g.shape))


def erm_first_consistent(cls: ConceptClass, pos, neg):
    errors = cls.errors_from_histograms(pos, neg)
    return np.argmax(errors == 0, axis=-1)


def erm_first_consistent_grouped(cls: ConceptClass, support, counts, labels):
    """``erm_first_consistent`` through the class's runs of equal error (``groups``):
    the smallest member of any run with no error. Cost O(k * support) per trial."""
    errors, mult, member = cls.groups(support, counts, labels)
    B, _, G = errors.shape
    smallest = member(np.broadcast_to(np.arange(G), (B, G)), np.zeros((B, G)))  # (B, G)
    fits = (errors == 0) & (mult > 0)[:, None, :]
    return np.where(fits, smallest[:, None, :], np.iinfo(np.int64).max).min(axis=-1)


def erm_middle_consistent(cls: ConceptClass, pos, neg):
    errors = cls.errors_from_histograms(pos, neg)
    ok = errors == 0
    first = np.argmax(ok, axis=-1)
    last = ok.shape[-1] - 1 - np.argmax(ok[..., ::-1], axis=-1)
    return (first + last) // 2
