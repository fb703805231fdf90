package org.largecat.fit;

import java.util.Locale;

/** What a {@link Fitter}'s stopping rule watched after each epoch. */
public enum Watched {
  /** The epoch's mean bound, per training example. */
  TRAIN_BOUND("bound"),
  /** The full-batch solver's exact objective per example, after each iteration. */
  OBJECTIVE("objective"),
  /** The exact mean log-likelihood of a fixed sample of training rows. */
  TRAINING_ROWS("training rows' log-likelihood"),
  /**
   * The objective of a double-sum method given a ridge μ: the exact mean log-likelihood of the
   * training rows less (μ/2)‖W̃‖².
   */
  TRAINING_OBJECTIVE("training objective"),
  /** The exact mean log-likelihood of the held-out slice ({@link Fitter#validationFraction}). */
  HELD_OUT_ROWS("held-out log-likelihood");

  private final String description;

  Watched(String description) {
    this.description = description;
  }

  /** What was watched, as a progress line names it. */
  public String description() {
    return description;
  }

  /** The name in a JSON summary: the constant in lower case. */
  public String json() {
    return name().toLowerCase(Locale.ROOT);
  }
}
