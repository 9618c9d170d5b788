"""Bounds from Wang, Lei and Fienberg, "Learning with Differential Privacy: Stability,
Learnability and the Sufficiency and Necessity of ERM Principle" (JMLR 17, 2016): the
subsampling, privacy and stability results (Lemmas 4, 8, 29, 30, 31, 34; Proposition 33;
Theorems 25 and 32). The paper's other bounds are in wlf.py, which also exposes these
under its own name. log is the natural logarithm, as in wlf.py.
"""

from __future__ import annotations

import numpy as np

from ._meta import EXACT, bound, positive, unit_open

# --- subsampling, privacy and stability (Lem 4, 8, 29, 30, 31, 34; Prop 33; Thm 25, 32) ---
# gamma is a subsampling rate in (0, 1]; epsilon, delta are privacy parameters of the base
# mechanism unless a docstring says otherwise.

@bound(EXACT, "Wang-Lei-Fienberg Lemma 34 (from Beimel et al. 2014, Lemma 4.4), as stated")
def lem34_bound(gamma, epsilon):
    """Lemma 34: A eps-DP => A on a random gamma-fraction is 2 gamma (e^eps - e^-eps)-DP.
    The proof's last step needs gamma <= 1/2 (RECONSTRUCTED condition: log(1 + x) >=
    x/(1 + x) turns the second term into gamma (1 - e^-eps)/(1 - gamma (1 - e^-eps)),
    at most 2 gamma (1 - e^-eps) when gamma (1 - e^-eps) <= 1/2)."""
    eps = positive("epsilon", epsilon)
    return 2.0 * positive("gamma", gamma) * (np.exp(eps) - np.exp(-eps))


@bound(EXACT, "Wang-Lei-Fienberg Lemma 34's proof, before its simplification")
def lem34_exact_form(gamma, epsilon):
    """The ratio the proof of Lemma 34 bounds, (1 + gamma (e^eps - 1)) / (1 + gamma
    (e^-eps - 1)), in logs: valid for every gamma in (0, 1]."""
    g, eps = positive("gamma", gamma), positive("epsilon", epsilon)
    return np.log1p(g * np.expm1(eps)) - np.log1p(g * np.expm1(-eps))


@bound(EXACT, "recalled: Balle, Barthe, Gaboardi 2018 (substitution, sampling without replacement); not in the paper")
def subsample_tight_epsilon(gamma, epsilon):
    """The tight amplification log(1 + gamma (e^eps - 1)) for replace-one neighbours and a
    subset drawn without replacement (attained by the subsampled geometric count)."""
    return np.log1p(positive("gamma", gamma) * np.expm1(positive("epsilon", epsilon)))


@bound(EXACT, "Wang-Lei-Fienberg Lemma 4, as stated")
def lem4_privacy(n, epsilon):
    """Lemma 4: A eps-DP run on floor(sqrt n) of n rows is (2/sqrt n)(e^eps - e^-eps)-DP."""
    eps = positive("epsilon", epsilon)
    return 2.0 / np.sqrt(positive("n", n)) * (np.exp(eps) - np.exp(-eps))


@bound(EXACT, "Wang-Lei-Fienberg Lemma 34's proof before simplification, at gamma = floor(sqrt n)/n (derived)")
def lem4_privacy_exact_form(n, epsilon):
    n = positive("n", n)
    return lem34_exact_form(np.floor(np.sqrt(n) + 1e-9) / n, epsilon)


@bound(EXACT, "Wang-Lei-Fienberg Lemma 29's proof at m = floor(sqrt n) (the selection probability m/n)")
def lem29_exact(n):
    """The differing row is in the subset with probability m/n, m = floor(sqrt n): delta = m/n."""
    n = positive("n", n)
    return np.floor(np.sqrt(n) + 1e-9) / n


@bound(EXACT, "Wang-Lei-Fienberg Lemma 29, as stated: (0, 1/sqrt n)-DP")
def lem29_bound(n):
    return 1.0 / np.sqrt(positive("n", n))


@bound(EXACT, "Wang-Lei-Fienberg Lemma 31, as stated (eps')")
def lem31_epsilon(gamma, epsilon):
    """eps' = log(1 + gamma e^eps (e^eps - 1))."""
    eps = positive("epsilon", epsilon)
    return np.log1p(positive("gamma", gamma) * np.exp(eps) * np.expm1(eps))


@bound(EXACT, "Wang-Lei-Fienberg Lemma 31, as stated (delta')")
def lem31_delta(gamma, epsilon, delta):
    """delta' = gamma e^eps delta: the delta of the subsampled mechanism at eps'."""
    return positive("gamma", gamma) * np.exp(positive("epsilon", epsilon)) * np.asarray(delta, float)


@bound(EXACT, "recalled: Balle, Barthe, Gaboardi 2018, delta' = gamma delta at log(1 + gamma (e^eps - 1)); not in the paper")
def subsample_tight_delta(gamma, delta):
    return positive("gamma", gamma) * np.asarray(delta, float)


@bound(EXACT, "Wang-Lei-Fienberg Lemma 8, as stated (and as Corollary 9 and Theorem 35 use it)")
def lem8_stability(epsilon):
    """Lemma 8: eps-DP and loss in [0, 1] => (e^eps - 1)-stable."""
    return np.expm1(positive("epsilon", epsilon))


@bound(EXACT, "Wang-Lei-Fienberg Lemma 8, second part (eps <= 1; as Theorem 19 uses it)")
def lem8_stability_linear(epsilon):
    """Lemma 8: 2 eps-stable when eps <= 1 (e^eps - 1 <= 2 eps holds up to eps = 1.256)."""
    return 2.0 * positive("epsilon", epsilon)


@bound(EXACT, "reconstructed: the total variation of an eps-DP pair is at most tanh(eps/2) (not in the paper)")
def pure_dp_tv(epsilon):
    """The middle quantity of Lemma 8's proof is a TV distance, and an eps-DP pair has TV
    <= (e^eps - 1)/(e^eps + 1) = tanh(eps/2) (attained by randomised response and by the
    two-sided geometric count)."""
    return np.tanh(positive("epsilon", epsilon) / 2.0)


@bound(EXACT, "Wang-Lei-Fienberg Lemma 30, as stated")
def lem30_stability(epsilon, delta):
    """Lemma 30: (eps, delta)-DP and loss in [0, 1] => (e^eps - 1 + delta)-stable."""
    return np.expm1(np.asarray(epsilon, float)) + np.asarray(delta, float)


@bound(EXACT, "Wang-Lei-Fienberg Theorem 32 (eps(n) RECONSTRUCTED from Lemma 31 at gamma = n^-1/2)")
def thm32_epsilon(n, epsilon):
    """The always-AERM learner of Theorem 32 is Lemma 31 at gamma = n^-1/2:
    eps(n) = log(1 + n^-1/2 e^eps (e^eps - 1)) -> 0 (the theorem does not write it out)."""
    return lem31_epsilon(1.0 / np.sqrt(positive("n", n)), epsilon)


@bound(EXACT, "Wang-Lei-Fienberg Theorem 32, as stated: n^-1/2 e^eps delta(sqrt n)")
def thm32_delta(n, epsilon, delta_at_sqrt_n):
    return lem31_delta(1.0 / np.sqrt(positive("n", n)), epsilon, delta_at_sqrt_n)


@bound(EXACT, "Wang-Lei-Fienberg Proposition 33 (i) at delta~(n) = n^-1/2 (our choice of an omega(1/n) rate)")
def prop33_subsample_delta(n):
    """Part (i): a consistent learner on a delta~(n)-fraction is (0, delta~(n))-DP; with
    delta~(n) = n^-1/2."""
    return 1.0 / np.sqrt(positive("n", n))


@bound(EXACT, "ours: ERM on a finite class, 2 E sup_h |R - R_hat| <= sqrt(2 log(2|H|)/m) (Massart), at m = floor(sqrt n)")
def prop33_erm_rate(n, h_size):
    """The rate xi(n delta~(n)) = xi(floor(sqrt n)) of part (i) for ERM over a finite class:
    E R(ERM) - R* <= 2 E sup_h |R(h) - R_hat(h)| <= sqrt(2 log(2|H|)/m)."""
    m = np.floor(np.sqrt(positive("n", n)) + 1e-9)
    return np.sqrt(2.0 * np.log(2.0 * positive("h_size", h_size)) / m)


@bound(EXACT, "Wang-Lei-Fienberg Proposition 33 (ii), as stated, with a constant eps(n) = eps")
def prop33_threshold(n, epsilon):
    """Part (ii): thresholds are not Delta(n)-approximately privately learnable when
    delta~(n) <= exp(-eps(n^2) n^2)/n; here eps(n^2) = eps. Returned as log10."""
    n = positive("n", n)
    return (-positive("epsilon", epsilon) * n ** 2) / np.log(10) - np.log10(n)


@bound(EXACT, "Wang-Lei-Fienberg Proposition 33's remark (direct argument): exp(-eps n)/n, as log10")
def prop33_threshold_direct(n, epsilon):
    n = positive("n", n)
    return (-positive("epsilon", epsilon) * n) / np.log(10) - np.log10(n)


@bound(EXACT, "Wang-Lei-Fienberg Proposition 33's packing step, RECONSTRUCTED: delta <= 0.4 e^(-eps (n-1))/n (printed 0.4 n e^(-eps n)), as log10")
def prop33_packing_delta(n, epsilon):
    """Group privacy over n replacements loses n e^((n-1) eps) delta; summed over K - 1 ~
    e^(eps n) windows the argument needs delta <= 0.4 e^(-eps (n-1))/n (the paper prints
    0.4 n e^(-eps n): n in the numerator is a typo)."""
    n = positive("n", n)
    return np.log10(0.4) - positive("epsilon", epsilon) * (n - 1) / np.log(10) - np.log10(n)


def _thm25_parts(n, beta):
    a = np.ceil(np.log(3.0 / unit_open("beta", beta)))
    return positive("n", n), a, np.floor(positive("n", n) / (a + 1))


@bound(EXACT, "ours: Algorithm 1's excess-risk rate on a finite class at eps(m) = sqrt((M + log m)/m), tail integral plus Massart")
def thm25_base_rate(m, bits):
    """A valid rate xi(m) for the base learner of Theorem 25 (Algorithm 1 on a class of
    2^M + 1 thresholds at eps(m) = sqrt((M + log m)/m)): 4(log|H| + 1)/(eps m) +
    sqrt(log|H|/(2m)) [E_h R_hat - R_hat* <= (log|H| + 1)/lambda for weights
    exp(-lambda R_hat), lambda = eps m/4; E sup_h (R - R_hat) by Massart's lemma].
    Thm 19's rate (Ex 20) is also valid but above 1 at every m a run can afford."""
    m = positive("m", m)
    M = np.asarray(bits, float)
    log_h = np.log(2.0 ** M + 1)
    eps = np.sqrt((M + np.log(m)) / m)
    return 4.0 * (log_h + 1.0) / (eps * m) + np.sqrt(log_h / (2.0 * m))


@bound(EXACT, "Wang-Lei-Fienberg Theorem 25's proof before simplification, RECONSTRUCTED: Hoeffding on n/(a+1) validation rows, twice")
def thm25_excess_bound(n, beta, bits):
    """R(h) - R* <= e xi(n/(a+1)) + 2 sqrt((a+1) log(2a/delta_1)/(2n))
    + 8(log(3/delta) + log a)(a+1)/(eps_v n) with probability >= 1 - delta (the paper's
    delta; ``beta`` here), a = ceil(log(3/delta)), delta_1 = delta/3, eps_v = (log(3/delta)
    + 1)/sqrt n. The proof prints sqrt(log(2a/delta_1)/(2n)) once: the validation part has
    n/(a+1) rows, and the chain R(h) <= R_hat(h) + t <= R_hat(h_best) + gap + t <=
    R(h_best) + gap + 2t uses the deviation twice."""
    n, a, m = _thm25_parts(n, beta)
    b = np.asarray(beta, float)
    eps_v = (np.log(3.0 / b) + 1.0) / np.sqrt(n)
    hoeffding = 2.0 * np.sqrt((a + 1) * np.log(2 * a / (b / 3.0)) / (2.0 * n))
    select = 8.0 * (np.log(3.0 / b) + np.log(a)) * (a + 1) / (eps_v * n)
    return np.e * thm25_base_rate(m, bits) + hoeffding + select


@bound(EXACT, "Wang-Lei-Fienberg Theorem 25 (privacy, with log(3/n) read as log(3/delta)), RECONSTRUCTED typo fix")
def thm25_privacy(n, beta, bits):
    """max{eps(n/(a+1)), (log(3/delta) + 1)/sqrt n} with eps(m) = sqrt((M + log m)/m) the
    base learner's schedule (the paper prints eps(n/(log(3/n) + 1)))."""
    n, a, m = _thm25_parts(n, beta)
    eps_m = np.sqrt((np.asarray(bits, float) + np.log(m)) / m)
    return np.maximum(eps_m, (np.log(3.0 / np.asarray(beta, float)) + 1.0) / np.sqrt(n))


@bound(EXACT, "Wang-Lei-Fienberg Theorem 25: the failure probability delta (the paper's symbol; beta here)")
def thm25_failure(n, beta, bits):
    """P[R(h) - R* > thm25_excess_bound] <= delta; 1 (says nothing) where the excess bound
    is at least 1, since an excess risk never exceeds 1."""
    return np.where(thm25_excess_bound(n, beta, bits) < 1.0, unit_open("beta", beta), 1.0)


@bound(EXACT, "Wang-Lei-Fienberg Algorithm 1 with the paper's Delta q = 2/n: realised privacy eps/2 (derived)")
def alg1_realised_epsilon(epsilon):
    """The true replace-one sensitivity of R_hat for a loss in [0, 1] is 1/n, so
    Algorithm 1 run at eps with Delta q = 2/n is eps/2-DP."""
    return positive("epsilon", epsilon) / 2.0


@bound(EXACT, "reconstructed: tanh(eps/4), the TV limit of an eps/2-DP pair (Algorithm 1's realised privacy)")
def alg1_realised_tv(epsilon):
    return np.tanh(positive("epsilon", epsilon) / 4.0)


