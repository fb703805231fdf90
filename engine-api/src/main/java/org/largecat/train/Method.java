package org.largecat.train;

import org.largecat.Labelled;
import org.largecat.model.Link;

/** The trainers of {@link SampledTrainer}: the bound each maximises and the link of the model it fits. */
public enum Method implements Labelled {
  /** Softmax A&R (Algorithm 1): the bound of Eq. 8 with a natural-gradient local step on η_n. */
  AR_SOFTMAX("ar-softmax", Link.SOFTMAX),
  /** Multinomial probit A&R (Algorithm 2): Gaussian q(ε_n), reparameterisation gradients (Eq. 9). */
  AR_PROBIT("ar-probit", Link.PROBIT),
  /** Multinomial logistic A&R (Algorithm 2): logistic q(ε_n), reparameterisation gradients (Eq. 9). */
  AR_LOGISTIC("ar-logistic", Link.LOGISTIC),
  /** The one-vs-each bound on the softmax (Eq. 10, Titsias 2016). */
  OVE("ove", Link.SOFTMAX),
  /** Exact softmax maximum likelihood: every class, every example. */
  EXACT_SOFTMAX("exact-softmax", Link.SOFTMAX);

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

  /** Returns the constant with this command-line name. */
  public static Method byLabel(String label) {
    return Labelled.byLabel(Method.class, label, "method");
  }
}
