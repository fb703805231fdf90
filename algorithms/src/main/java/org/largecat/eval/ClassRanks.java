package org.largecat.eval;

/** Where classes stand among K values: the best, the top k, the rank of one. */
public final class ClassRanks {
  private ClassRanks() {}

  /** The number of classes ranked above y: larger ψ, or equal ψ at a smaller index. */
  public static int rank(double[] psi, int y) {
    int above = 0;
    double target = psi[y];
    for (int k = 0; k < psi.length; k++) {
      if (psi[k] > target || (psi[k] == target && k < y)) {
        above++;
      }
    }
    return above;
  }

  /** The class of the largest value (ties to the smaller index). */
  public static int best(double[] values) {
    int best = 0;
    for (int k = 1; k < values.length; k++) {
      if (values[k] > values[best]) {
        best = k;
      }
    }
    return best;
  }

  /**
   * Fills {@code best} with the classes of the largest values, largest first (ties to the smaller
   * index).
   */
  public static void topClasses(double[] values, int[] best) {
    int size = 0;
    for (int k = 0; k < values.length; k++) {
      if (size < best.length || values[k] > values[best[size - 1]]) {
        int at = Math.min(size, best.length - 1);
        while (at > 0 && values[k] > values[best[at - 1]]) {
          best[at] = best[at - 1];
          at--;
        }
        best[at] = k;
        size = Math.min(size + 1, best.length);
      }
    }
  }
}
