package org.largecat.train;

import org.largecat.Labelled;

/**
 * Whether each example draws its own classes or a mini-batch shares one draw (drawn by {@code
 * train.sampled.ClassSampler}).
 */
public enum Sampling implements Labelled {
  /** |S| classes per example, excluding its label (A&R Algorithms 1 and 2). */
  PER_EXAMPLE("per-example"),
  /** One set of |S| classes per mini-batch; dense steps become two matrix products. */
  SHARED("shared");

  private final String label;

  Sampling(String label) {
    this.label = label;
  }

  @Override
  public String label() {
    return label;
  }

  /** Returns the constant with this command-line name. */
  public static Sampling byLabel(String label) {
    return Labelled.byLabel(Sampling.class, label, "sampling");
  }
}
