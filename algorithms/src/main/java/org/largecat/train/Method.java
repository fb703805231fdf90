package org.largecat.train;

import org.largecat.Labelled;
import org.largecat.model.Link;

/**
 * Every training method: the bounds the sampled-bound trainer of {@code org.largecat.train.sampled}
 * maximises, the double-sum trainers of {@code org.largecat.train.doublesum}
 * (unbiased-scalable-softmax), and the full-batch solver of {@code org.largecat.train.fullbatch};
 * each with the link of the model it fits.
 */
public enum Method implements Labelled {
  /** Softmax A&R (Algorithm 1): the bound of Eq. 8 with a natural-gradient local step on η_n. */
  AR_SOFTMAX("ar-softmax", Link.SOFTMAX),
  /**
   * Multinomial probit A&R (Algorithm 2): Gaussian q(ε_n), reparameterisation gradients (Eq. 9).
   */
  AR_PROBIT("ar-probit", Link.PROBIT),
  /**
   * Multinomial logistic A&R (Algorithm 2): logistic q(ε_n), reparameterisation gradients (Eq. 9).
   */
  AR_LOGISTIC("ar-logistic", Link.LOGISTIC),
  /** The one-vs-each bound on the softmax (Eq. 10, Titsias 2016). */
  OVE("ove", Link.SOFTMAX),
  /**
   * Exact softmax maximum likelihood (or MAP) by L-BFGS over the whole training set at every step
   * ({@code org.largecat.train.fullbatch}); not a step-wise {@link Trainer}.
   */
  EXACT_SOFTMAX("exact-softmax", Link.SOFTMAX),
  /**
   * Exact softmax maximum likelihood by stochastic gradients: every class for each example of a
   * mini-batch, A&R's adaptive step (the exact baseline of A&R §4).
   */
  EXACT_SOFTMAX_SGD("exact-softmax-sgd", Link.SOFTMAX),
  /** Noise-contrastive estimation (Mnih and Teh 2012), a biased sampled baseline. */
  NCE("nce", Link.SOFTMAX),
  /** Importance sampling: sampled softmax with the log-Q correction (Bengio and Senécal 2008). */
  IMPORTANCE_SAMPLING("is", Link.SOFTMAX),
  /** Vanilla SGD on the double-sum f(u, W) (unbiased-scalable-softmax Eqs. 6–7). */
  DOUBLE_SUM_SGD("sgd", Link.SOFTMAX),
  /**
   * U-max (unbiased-scalable-softmax §3.1, Algorithm 1). The model written is the average of the
   * iterates ({@link DoubleSumSpec#averaged}), under a stopping rule or a fixed length alike.
   */
  UMAX("umax", Link.SOFTMAX),
  /**
   * Implicit SGD with one datapoint and one class (unbiased-scalable-softmax App. F.1). The model
   * written is the average of the iterates ({@link DoubleSumSpec#averaged}).
   */
  IMPLICIT_SGD("isgd", Link.SOFTMAX),
  /**
   * Implicit SGD on fixed mini-batches of n datapoints and m sampled classes
   * (unbiased-scalable-softmax App. F.3). The model written is the average of the iterates ({@link
   * DoubleSumSpec#averaged}).
   */
  IMPLICIT_SGD_BATCH("isgd-batch", Link.SOFTMAX),
  /**
   * U-max on the double-sum of Raman et al. (unbiased-scalable-softmax Eq. 8), for the comparison
   * of its Figure 2.
   */
  UMAX_RAMAN("umax-raman", Link.SOFTMAX);

  private final String label;
  private final Link link;

  Method(String label, Link link) {
    this.label = label;
    this.link = link;
  }

  @Override
  public String label() {
    return label;
  }

  /** The link of the model this method fits. */
  public Link link() {
    return link;
  }

  /**
   * Whether the method is one of the double-sum trainers of {@code org.largecat.train.doublesum}.
   */
  public boolean isDoubleSum() {
    return switch (this) {
      case DOUBLE_SUM_SGD, UMAX, IMPLICIT_SGD, IMPLICIT_SGD_BATCH, UMAX_RAMAN -> true;
      default -> false;
    };
  }

  /** Whether the method is the full-batch solver of {@code org.largecat.train.fullbatch}. */
  public boolean isFullBatch() {
    return this == EXACT_SOFTMAX;
  }

  /** Returns the constant with this command-line name. */
  public static Method byLabel(String label) {
    return Labelled.byLabel(Method.class, label, "method");
  }
}
