package org.largecat.cb;

import org.largecat.Labelled;
import org.largecat.kernel.ElementwiseFunction;

/**
 * The inverse link H of the independent-binary base model (Sec. 2.2): the standard normal cdf for
 * probit, the standard logistic cdf for logit. Both are symmetric, so log(1 - H(eta)) = log H(-eta)
 * and one log-cdf kernel serves both factors of the CB probabilities.
 */
public enum Link implements Labelled {
  PROBIT("probit", ElementwiseFunction.NORMAL_LOG_CDF),
  LOGIT("logit", ElementwiseFunction.LOG_SIGMOID);

  private final String label;
  private final ElementwiseFunction logCdf;

  Link(String label, ElementwiseFunction logCdf) {
    this.label = label;
    this.logCdf = logCdf;
  }

  @Override
  public String label() {
    return label;
  }

  /** The batched kernel for log H. */
  public ElementwiseFunction logCdf() {
    return logCdf;
  }

  /** Returns the constant with this command-line name. */
  public static Link byLabel(String label) {
    return Labelled.byLabel(Link.class, label, "link");
  }
}
