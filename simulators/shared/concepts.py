"""Concept classes over the domain X_d = {0, ..., 2^d - 1}, batched over trials.

The classes of Bun-Nissim-Stemmer ("Simultaneous Private Learning of Multiple
Concepts", Sec. 2) and Sivakumar's notes (Thm 2.2, 3.3):

- POINT_d: c_x(y) = 1 iff y = x, for x in X_d (|POINT_d| = 2^d);
- THRESH_d: c_t(y) = 1 iff y >= t, for t in {0, ..., 2^d} (|THRESH_d| = 2^d + 1). This is
  Sivakumar's convention (label 1 above the threshold); Bun et al. label a prefix 1,
  which is the complement class and has the same sample complexity;
- PAR_d: c_a(y) = <a, y> mod 2, for a in {0,1}^d (|PAR_d| = 2^d).

Hypotheses are integer indices. ``error_counts`` gives, for every hypothesis at once, the
number of sample rows it misclassifies (the exponential mechanism's score, negated);
``exact_error`` is err_D(h, c) computed exactly for a distribution given by its support
and probabilities. Labels may carry a column axis for k concepts at once.
"""

from __future__ import annotations

import numpy as np

from privbounds.params import Interval

DIMENSION = Interval("d", 1, 24, "both", integer=True)


class ConceptClass:
    name = "?"
    max_enumerate_d = 16

    def __init__(self, d: int):
        DIMENSION.validate(d)
        self.d = int(d)
        self.domain_size = 2 ** self.d

    def __repr__(self) -> str:
        return f"{self.name}_{self.d}"

    @property
    def size(self) -> int:
        raise NotImplementedError

    def evaluate(self, h, x):
        """Label of hypothesis index h at domain point x (numpy broadcasting)."""
        raise NotImplementedError

    def truth_table(self) -> np.ndarray:
        """(|H|, |X|) boolean matrix; only for small domains (tests, generic scoring)."""
        if self.d > self.max_enumerate_d:
            raise ValueError(f"d must be <= {self.max_enumerate_d} to enumerate {self.name}, got {self.d}")
        h = np.arange(self.size)[:, None]
        x = np.arange(self.domain_size)[None, :]
        return self.evaluate(h, x).astype(bool)

    def _histograms(self, x, y):
        """Histograms of an explicit sample: x (B, n) ints, y (B, n) or (B, n, k) bools;
        each row is a support point of count 1."""
        x = np.asarray(x)
        return self.histograms_from_counts(x, np.ones(x.shape), y)

    def histograms_from_counts(self, support, counts, labels):
        """Histograms of a sample given as counts on a support (the sample's multiset,
        a sufficient statistic for every learner here). support, counts: (B, m);
        labels: (B, m) or (B, m, k) bools. Returns pos, neg of shape (B, k, |X|)."""
        support = np.asarray(support)
        counts = np.asarray(counts)
        labels = np.asarray(labels, dtype=bool)
        if labels.ndim == 2:
            labels = labels[:, :, None]
        B, m, k = labels.shape
        X = self.domain_size
        base = (np.arange(B)[:, None, None] * k + np.arange(k)[None, None, :]) * X
        idx = (base + support[:, :, None]).ravel()
        w = np.broadcast_to(counts[:, :, None], labels.shape).ravel()
        lf = labels.ravel()
        pos = np.bincount(idx, weights=w * lf, minlength=B * k * X).reshape(B, k, X)
        neg = np.bincount(idx, weights=w * ~lf, minlength=B * k * X).reshape(B, k, X)
        return pos, neg

    def errors_from_histograms(self, pos, neg) -> np.ndarray:
        """Misclassified rows for every hypothesis, (B, k, |H|). Generic version through
        the truth table; classes override it with a faster exact formula."""
        T = self.truth_table().astype(pos.dtype)
        return neg @ T.T + pos @ (1 - T).T

    def error_counts(self, x, y) -> np.ndarray:
        """Misclassified rows for every hypothesis: shape (B, |H|), or (B, k, |H|) when
        y has a column axis."""
        out = self.errors_from_histograms(*self._histograms(x, y))
        return out[:, 0, :] if np.asarray(y).ndim == 2 else out

    def groups(self, support, counts, labels):
        """Hypotheses grouped into runs on which the error count is constant, for a sample
        given as counts on a support: returns errors (B, k, G), multiplicities (B, G) and
        a function ``member(g, u)`` mapping group indices (B, k) and uniforms in [0, 1) to
        a hypothesis drawn uniformly from the group. Only classes whose structure makes
        G small (thresholds, points) implement it; others raise NotImplementedError."""
        raise NotImplementedError(f"{self.name} has no grouped form")

    @staticmethod
    def _sorted_sample(support, counts, labels):
        support = np.asarray(support)
        labels = np.asarray(labels, dtype=bool)
        if labels.ndim == 2:
            labels = labels[:, :, None]
        order = np.argsort(support, axis=1)
        s = np.take_along_axis(support, order, axis=1)
        c = np.take_along_axis(np.asarray(counts, dtype=float), order, axis=1)
        lab = np.take_along_axis(labels, order[:, :, None], axis=1)
        pos = np.moveaxis(c[:, :, None] * lab, 1, 2)    # (B, k, m)
        neg = np.moveaxis(c[:, :, None] * ~lab, 1, 2)
        return s, pos, neg

    def exact_error(self, h, target, support, probs) -> np.ndarray:
        """err_D(h, c_target) = sum over the support of D(x) [h(x) != c(x)].

        h, target: (B,) or (B, k) hypothesis indices; support, probs: (B, m)."""
        h = np.asarray(h)
        target = np.asarray(target)
        extra = h.ndim - 1
        sup = np.asarray(support).reshape(support.shape[0], *([1] * extra), -1)
        pr = np.asarray(probs).reshape(probs.shape[0], *([1] * extra), -1)
        disagree = self.evaluate(h[..., None], sup) != self.evaluate(target[..., None], sup)
        return np.sum(pr * disagree, axis=-1)


class Points(ConceptClass):
    name = "POINT"

    @property
    def size(self) -> int:
        return self.domain_size

    def evaluate(self, h, x):
        return np.asarray(h) == np.asarray(x)

    def errors_from_histograms(self, pos, neg):
        # c_x errs on every positive row not at x and on every negative row at x.
        return pos.sum(axis=-1, keepdims=True) - pos + neg

    def groups(self, support, counts, labels):
        # One group per (distinct) support point x (the hypothesis c_x) and one for all
        # points outside the support, which err exactly on the positive rows.
        s, pos, neg = self._sorted_sample(support, counts, labels)
        if np.any(np.diff(s, axis=1) == 0):
            raise ValueError("grouped POINT scoring needs distinct support points")
        B, m = s.shape
        total = pos.sum(axis=-1, keepdims=True)
        errors = np.concatenate([total - pos + neg, total], axis=-1)
        mult = np.concatenate([np.ones((B, m)), np.full((B, 1), self.domain_size - m)], axis=1)

        def member(g, u):
            rest = np.floor(u * (self.domain_size - m)).astype(np.int64)
            for i in range(m):  # r-th point outside the support, in increasing order
                rest += rest >= s[:, i:i + 1]
            inside = np.take_along_axis(s, np.minimum(g, m - 1), axis=1)
            return np.where(g < m, inside, rest)
        return errors, mult, member


class Thresholds(ConceptClass):
    name = "THRESH"

    @property
    def size(self) -> int:
        return self.domain_size + 1

    def evaluate(self, h, x):
        return np.asarray(x) >= np.asarray(h)

    def errors_from_histograms(self, pos, neg):
        # c_t errs on positives below t and on negatives at or above t:
        # errors(t) = #neg + sum_{x < t} (pos(x) - neg(x)), one prefix sum.
        out = np.empty(pos.shape[:-1] + (pos.shape[-1] + 1,), dtype=pos.dtype)
        out[..., 0] = neg.sum(axis=-1)
        np.cumsum(pos - neg, axis=-1, out=out[..., 1:])
        out[..., 1:] += out[..., :1]
        return out

    def groups(self, support, counts, labels):
        # With support s_1 <= ... <= s_m, every t in [0, s_1], in [s_i + 1, s_{i+1}] or in
        # [s_m + 1, 2^d] labels the support alike: m + 1 runs of constant error, given by
        # the same prefix sum as errors_from_histograms over the support only.
        s, pos, neg = self._sorted_sample(support, counts, labels)
        B, m = s.shape
        errors = np.empty(pos.shape[:-1] + (m + 1,))
        errors[..., 0] = neg.sum(axis=-1)
        errors[..., 1:] = errors[..., :1] + np.cumsum(pos - neg, axis=-1)
        starts = np.concatenate([np.zeros((B, 1), np.int64), s + 1], axis=1)
        ends = np.concatenate([s, np.full((B, 1), self.domain_size)], axis=1)  # inclusive
        mult = (ends - starts + 1).astype(float)  # 0 for a repeated support point

        def member(g, u):
            st = np.take_along_axis(starts, g, axis=1)
            mu = np.take_along_axis(mult, g, axis=1)
            return st + np.floor(u * mu).astype(np.int64)
        return errors, mult, member


class Parities(ConceptClass):
    name = "PAR"
    max_enumerate_d = 12

    @property
    def size(self) -> int:
        return self.domain_size

    def evaluate(self, h, x):
        v = np.bitwise_and(np.asarray(h), np.asarray(x)).astype(np.uint64)
        return (np.bitwise_count(v) & 1).astype(bool)


CLASSES = {"point": Points, "thresh": Thresholds, "par": Parities}


def make_class(name: str, d: int) -> ConceptClass:
    if name not in CLASSES:
        raise ValueError(f"concept class must be one of {', '.join(CLASSES)}, got {name!r}")
    return CLASSES[name](d)
