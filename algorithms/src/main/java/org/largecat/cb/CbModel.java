package org.largecat.cb;

/** The two categorical-from-binary likelihoods built on one IB base (Sec. 2.4). */
public enum CbModel {
  /** Conditioning, Eq. (2.4.2): the IB model truncated to one-hot vectors. */
  CBC,
  /** Marginalization, Eq. (2.4.1): the IB success probabilities normalised. */
  CBM
}
