package org.largecat.train;

/** How many local steps each example has had: the clock of its own step-size sequence. */
final class LocalStepCounts {
  private final int[] visits;

  LocalStepCounts(int examples) {
    visits = new int[examples];
  }

  /** Returns the visits to example n before this one, and counts this one. */
  int next(int n) {
    return visits[n]++;
  }
}
