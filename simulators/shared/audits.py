"""Audit instances shared by several theorems' simulators (engine/audit.py explains the
audit; each simulator lists its instances in ``Simulator.audits``).

An events function runs a mechanism ``trials`` times on each of two neighbouring inputs
D and D', with its privacy parameters multiplied by ``budget``, and returns the two
boolean arrays "output in E". The instances are small on purpose: the privacy loss of a
mechanism shows on events of non-negligible probability only at small sizes (k columns
composed by basic composition lose at most k eps0, but only on events of probability
about p^k), so each learner is audited where its loss is observable.

- ``laplace_events``: a count of sensitivity s, 0 on D and s on D'; E = {output > s}
  has probability ratio exactly e^eps, so the audit is tight.
- ``expmech_events``: the exponential mechanism on 1 + m candidates whose scores all
  move by 1, the first up and the others down (the worst case of its analysis); E =
  {the first candidate}: log-ratio eps/2 + ln((1 + m) / (e^(eps/2) + m e^(-eps/2))),
  0.855 at eps = 1 for m = 10 and 1.54 at eps = 2.
- ``expmech_columns_events``: the exponential-mechanism learner (Thm 2.22, scores =
  -errors) run on k label columns of a one-row sample, D = {(x0, 0)} and D' = {(x0, 1)}
  in every column (one row changes, so all k columns see it); E = {at least ``reveal``
  columns output a hypothesis labelling x0 with 1}. With q = (hypotheses labelling x0
  with 1) / (the others), one column's log-ratio on "labels x0 with 1" is about
  eps0 / (1 + q) for small eps0, so a small q (x0 near the bottom of a threshold
  domain, a point class) brings the audit close to eps0 per column.
"""

from __future__ import annotations

import numpy as np

from privbounds.simulators.engine.audit import NoiseSource, noise_sources
from privbounds.simulators.shared.concepts import make_class
from privbounds.simulators.shared.learners import chunks, expmech_learner, expmech_learner_grouped
from privbounds.simulators.shared.mechanisms import exponential_mechanism, laplace_mechanism


@noise_sources(NoiseSource("laplace", "laplace", "privbounds.simulators.shared.audits:laplace_mechanism",
                           param="epsilon", arg="epsilon",
                           what="the Laplace mechanism itself, at the instance's epsilon"))
def laplace_events(budget, trials, rng, epsilon, sensitivity=1.0):
    eps = epsilon * budget
    on_d = laplace_mechanism(np.zeros(trials), sensitivity, eps, rng)
    on_d2 = laplace_mechanism(np.full(trials, float(sensitivity)), sensitivity, eps, rng)
    return on_d > sensitivity, on_d2 > sensitivity


@noise_sources(NoiseSource("expmech", "expmech", "privbounds.simulators.shared.audits:exponential_mechanism",
                           param="epsilon", arg="epsilon",
                           what="the exponential mechanism itself, at the instance's epsilon"))
def expmech_events(budget, trials, rng, epsilon, candidates=10):
    u = np.zeros(candidates + 1)
    u2 = -np.ones(candidates + 1)
    u2[0] = 1.0
    eps = epsilon * budget
    a = exponential_mechanism(np.broadcast_to(u, (trials, u.size)), eps, rng)
    b = exponential_mechanism(np.broadcast_to(u2, (trials, u.size)), eps, rng)
    return a == 0, b == 0


@noise_sources(NoiseSource("columns", "expmech", "privbounds.simulators.shared.audits:expmech_learner_grouped",
                           param="epsilon", arg="epsilon",
                           what="each column's exponential-mechanism learner (the grouped sampler every instance uses)"))
def expmech_columns_events(budget, trials, rng, cls_name, d, x0, k, eps0, reveal=None, grouped=True):
    """The learner of ``learners.py`` (grouped or over histograms) on k columns; see the
    module docstring."""
    cls = make_class(cls_name, d)
    need = k if reveal is None else reveal
    out = []
    for label in (False, True):
        hits = np.empty(trials, dtype=bool)
        for sl in chunks(trials, k * (cls.domain_size if not grouped else 4)):
            b = sl.stop - sl.start
            support = np.full((b, 1), x0, dtype=np.int64)
            counts = np.ones((b, 1))
            labels = np.full((b, 1, k), label)
            if grouped:
                h = expmech_learner_grouped(cls, support, counts, labels, eps0 * budget, rng)
            else:
                pos, neg = cls.histograms_from_counts(support, counts, labels)
                h = expmech_learner(cls, pos, neg, eps0 * budget, rng)
            ones = cls.evaluate(h, x0).astype(bool)  # (b, k): h_j labels x0 with 1
            hits[sl] = ones.sum(axis=-1) >= need
        out.append(hits)
    return out[0], out[1]
