package org.largecat.train;

/** Whether each example draws its own classes or a mini-batch shares one draw ({@link ClassSampler}). */
public enum Sampling {
  /** |S| classes per example, excluding its label (A&R Algorithms 1 and 2). */
  PER_EXAMPLE("per-example"),
  /** One set of |S| classes per mini-batch; dense steps become two matrix products. */
  SHARED("shared");

  private final String label;

  Sampling(String label) {
    this.label = label;
  }

  /** The name on the command line. */
  public String label() {
    return label;
  }

  /** Returns the mode with this command-line name. */
  public static Sampling byLabel(String label) {
    for (Sampling s : values()) {
      if (s.label.equals(label)) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown sampling '" + label + "'; per-example or shared");
  }
}
