package org.largecat.synth;

import java.util.Locale;

/**
 * How well synthetic survey answers reproduce real ones: per item the total-variation distance
 * between the marginals, ½ Σ_k |p_real(k) − p_synth(k)|; per pair of items Cramér's V of their K x
 * K contingency table, V = sqrt(χ² / (n (min(r, c) − 1))) over the r rows and c columns that occur
 * (0 when either item shows a single choice), in both data sets, and their difference.
 */
public final class FidelityReport {
  private final int items;
  private final int realUsers;
  private final int syntheticUsers;
  private final double[] marginalDistance;
  private final double[] realCramersV;
  private final double[] syntheticCramersV;

  private FidelityReport(
      int items,
      int realUsers,
      int syntheticUsers,
      double[] marginalDistance,
      double[] realCramersV,
      double[] syntheticCramersV) {
    this.items = items;
    this.realUsers = realUsers;
    this.syntheticUsers = syntheticUsers;
    this.marginalDistance = marginalDistance;
    this.realCramersV = realCramersV;
    this.syntheticCramersV = syntheticCramersV;
  }

  /** Compares the two data sets, which must have the same number of items. */
  public static FidelityReport compare(ChoiceData real, ChoiceData synthetic) {
    if (real.items() != synthetic.items()) {
      throw new IllegalArgumentException(
          "real data have " + real.items() + " items, synthetic data " + synthetic.items());
    }
    int items = real.items();
    int choiceCount = Math.max(real.choiceCount(), synthetic.choiceCount());
    double[] distance = new double[items];
    for (int i = 0; i < items; i++) {
      double[] p = marginal(real, i, choiceCount);
      double[] q = marginal(synthetic, i, choiceCount);
      double total = 0;
      for (int k = 0; k < choiceCount; k++) {
        total += Math.abs(p[k] - q[k]);
      }
      distance[i] = 0.5 * total;
    }
    return new FidelityReport(
        items,
        real.users(),
        synthetic.users(),
        distance,
        cramersV(real, choiceCount),
        cramersV(synthetic, choiceCount));
  }

  /** The number of items compared. */
  public int items() {
    return items;
  }

  public int realUsers() {
    return realUsers;
  }

  public int syntheticUsers() {
    return syntheticUsers;
  }

  /** Total-variation distance between the item's marginals. */
  public double marginalDistance(int item) {
    return marginalDistance[item];
  }

  public double maxMarginalDistance() {
    double max = 0;
    for (double v : marginalDistance) {
      max = Math.max(max, v);
    }
    return max;
  }

  /** Mean over items of the marginals' total-variation distance. */
  public double meanMarginalDistance() {
    return mean(marginalDistance);
  }

  /** Total-variation distance between the marginals of each item. */
  public double[] marginalDistances() {
    return marginalDistance.clone();
  }

  /** Cramér's V of every pair of items in the real data, items x items row-major. */
  public double[] realCramersV() {
    return realCramersV.clone();
  }

  /** Cramér's V of every pair of items in the synthetic data, items x items row-major. */
  public double[] syntheticCramersV() {
    return syntheticCramersV.clone();
  }

  /** Cramér's V of items i and j in the real data. */
  public double realCramersV(int i, int j) {
    return realCramersV[i * items + j];
  }

  /** Cramér's V of items i and j in the synthetic data. */
  public double syntheticCramersV(int i, int j) {
    return syntheticCramersV[i * items + j];
  }

  /** Mean over pairs i < j of |V_synthetic − V_real| (0 for a single item). */
  public double meanAbsCramersVDifference() {
    double total = 0;
    int pairs = 0;
    for (int i = 0; i < items; i++) {
      for (int j = i + 1; j < items; j++) {
        total += Math.abs(syntheticCramersV(i, j) - realCramersV(i, j));
        pairs++;
      }
    }
    return pairs == 0 ? 0 : total / pairs;
  }

  /** Largest |V_synthetic − V_real| over pairs. */
  public double maxAbsCramersVDifference() {
    double max = 0;
    for (int i = 0; i < items; i++) {
      for (int j = i + 1; j < items; j++) {
        max = Math.max(max, Math.abs(syntheticCramersV(i, j) - realCramersV(i, j)));
      }
    }
    return max;
  }

  /** Readable report: summary, per-item distances and the three V matrices. */
  public String toText() {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "real users %d, synthetic users %d, items %d%n",
            realUsers,
            syntheticUsers,
            items));
    out.append(
        String.format(
            Locale.ROOT,
            "marginal TV distance: max %.4f, mean %.4f%n",
            maxMarginalDistance(),
            mean(marginalDistance)));
    out.append(
        String.format(
            Locale.ROOT,
            "Cramer's V |synthetic - real|: mean %.4f, max %.4f (over %d pairs)%n",
            meanAbsCramersVDifference(),
            maxAbsCramersVDifference(),
            items * (items - 1) / 2));
    out.append("per-item TV:");
    for (int i = 0; i < items; i++) {
      out.append(String.format(Locale.ROOT, " %.4f", marginalDistance[i]));
    }
    out.append('\n');
    appendMatrix(out, "Cramer's V, real", realCramersV);
    appendMatrix(out, "Cramer's V, synthetic", syntheticCramersV);
    double[] difference = new double[items * items];
    for (int j = 0; j < difference.length; j++) {
      difference[j] = syntheticCramersV[j] - realCramersV[j];
    }
    appendMatrix(out, "Cramer's V, synthetic - real", difference);
    return out.toString();
  }

  static void appendMatrix(StringBuilder out, String title, double[] matrix) {
    int n = (int) Math.round(Math.sqrt(matrix.length));
    out.append(title).append(":\n");
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        out.append(String.format(Locale.ROOT, "%8.4f", matrix[i * n + j]));
      }
      out.append('\n');
    }
  }

  private static double mean(double[] values) {
    double total = 0;
    for (double v : values) {
      total += v;
    }
    return total / values.length;
  }

  private static double[] marginal(ChoiceData data, int item, int choiceCount) {
    double[] p = new double[choiceCount];
    for (int u = 0; u < data.users(); u++) {
      p[data.choice(u, item)]++;
    }
    for (int k = 0; k < choiceCount; k++) {
      p[k] /= data.users();
    }
    return p;
  }

  private static double[] cramersV(ChoiceData data, int choiceCount) {
    int items = data.items();
    int n = data.users();
    double[] v = new double[items * items];
    long[] table = new long[choiceCount * choiceCount];
    long[] rows = new long[choiceCount];
    long[] cols = new long[choiceCount];
    for (int i = 0; i < items; i++) {
      v[i * items + i] = 1;
      for (int j = i + 1; j < items; j++) {
        java.util.Arrays.fill(table, 0);
        java.util.Arrays.fill(rows, 0);
        java.util.Arrays.fill(cols, 0);
        for (int u = 0; u < n; u++) {
          int a = data.choice(u, i);
          int b = data.choice(u, j);
          table[a * choiceCount + b]++;
          rows[a]++;
          cols[b]++;
        }
        int r = 0;
        int c = 0;
        for (int k = 0; k < choiceCount; k++) {
          r += rows[k] > 0 ? 1 : 0;
          c += cols[k] > 0 ? 1 : 0;
        }
        double value = 0;
        if (Math.min(r, c) > 1) {
          double chiSquare = 0;
          for (int a = 0; a < choiceCount; a++) {
            for (int b = 0; b < choiceCount; b++) {
              if (rows[a] > 0 && cols[b] > 0) {
                double expected = (double) rows[a] * cols[b] / n;
                double diff = table[a * choiceCount + b] - expected;
                chiSquare += diff * diff / expected;
              }
            }
          }
          value = Math.sqrt(chiSquare / (n * (double) (Math.min(r, c) - 1)));
        }
        v[i * items + j] = value;
        v[j * items + i] = value;
      }
    }
    return v;
  }
}
