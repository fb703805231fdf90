package org.largecat.model;

/**
 * How mean utilities ψ become class probabilities: y = argmax_k (ψ_k + ε_k) with ε_k iid from a
 * standard noise distribution (A&R §2, Eqs. 4–5).
 */
public enum Link {
  /** Gumbel noise: the softmax, p(y = k) ∝ exp(ψ_k) (Eq. 1). */
  SOFTMAX,
  /** Gaussian noise: the multinomial probit. */
  PROBIT,
  /** Logistic noise: the multinomial logistic. */
  LOGISTIC
}
