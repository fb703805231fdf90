package org.largecat.cb;

import org.largecat.kernel.ElementwiseFunction;

/**
 * The inverse link H of the independent-binary base model (Sec. 2.2): the standard normal cdf for
 * probit, the standard logistic cdf for logit, with the kernels for log H and log(1 - H) (= log
 * H(-eta), both being symmetric), which the CB probabilities take from one pass.
 */
public enum Link {
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

  /** The name on the command line. */
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

  /** The link named {@code probit} or {@code logit}. */
  public static Link byLabel(String label) {
    for (Link l : values()) {
      if (l.label.equals(label)) {
        return l;
      }
    }
    throw new IllegalArgumentException("unknown link '" + label + "' (expected probit or logit)");
  }
}
