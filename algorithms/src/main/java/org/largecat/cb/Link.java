package org.largecat.cb;

import org.largecat.Labelled;
import org.largecat.kernel.ElementwiseFunction;

/**
 * The inverse link H of the independent-binary base model (Sec. 2.2): the standard normal cdf for
 * probit, the standard logistic cdf for logit, with the kernels for log H and log(1 - H) (= log
 * H(-eta), both being symmetric), which the CB probabilities take from one pass.
 */
public enum Link implements Labelled {
  PROBIT("probit", ElementwiseFunction.NORMAL_LOG_CDF, ElementwiseFunction.NORMAL_LOG_SURVIVAL),
  LOGIT("logit", ElementwiseFunction.LOG_SIGMOID, ElementwiseFunction.LOGISTIC_LOG_SURVIVAL);

  private final String label;
  private final ElementwiseFunction logCdf;
  private final ElementwiseFunction logSurvival;

  Link(String label, ElementwiseFunction logCdf, ElementwiseFunction logSurvival) {
    this.label = label;
    this.logCdf = logCdf;
    this.logSurvival = logSurvival;
  }

  @Override
  public String label() {
    return label;
  }

  /** The batched kernel for log H. */
  public ElementwiseFunction logCdf() {
    return logCdf;
  }

  /** The batched kernel for log(1 - H). */
  public ElementwiseFunction logSurvival() {
    return logSurvival;
  }

  /** Returns the constant with this command-line name. */
  public static Link byLabel(String label) {
    return Labelled.byLabel(Link.class, label, "link");
  }
}
