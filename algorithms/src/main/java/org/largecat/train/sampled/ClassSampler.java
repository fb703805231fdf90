package org.largecat.train.sampled;

import java.util.Arrays;

/**
 * Draws the classes S of one example, all different from its label y, with the weights w_j that
 * make Σ_j w_j f(k_j) unbiased for Σ_{k≠y} f(k) — the sums every sampled bound estimates.
 *
 * <ul>
 *   <li>Uniform (A&R's choice): |S| distinct classes without replacement (Floyd's algorithm over
 *       the K − 1 others), each w_j = (K − 1)/|S|.
 *   <li>Frequency-proportional (A&R footnote 2): |S| independent draws from q_k ∝ (n_k + 1)^power,
 *       n_k the training count of class k (the +1 keeps every class reachable, so no term is
 *       dropped), conditioned on k ≠ y by redrawing y; w_j = (1 − q_y)/(|S| q_{k_j}), the
 *       importance weight of q restricted to k ≠ y. Draws use Vose's alias table, O(1) each.
 * </ul>
 *
 * <p>Shared mode ({@link #sampleShared}, the shared-sampling issue): one set S for a whole
 * mini-batch, drawn from all K classes — uniformly without replacement with w = K/|S|, or |S| draws
 * from q with w_j = 1/(|S| q_{k_j}). For an example with label y the slots with k_j = y get weight
 * 0 ({@link #excludeLabel}). Unbiasedness, uniform: P(k ∈ S) = |S|/K for every k, so E[Σ_{k∈S, k≠y}
 * (K/|S|) f(k)] = Σ_{k≠y} (|S|/K)(K/|S|) f(k) = Σ_{k≠y} f(k). Frequency: each draw has E[[k_j ≠ y]
 * f(k_j)/(|S| q_{k_j})] = Σ_{k≠y} q_k f(k)/(|S| q_k) = Σ_{k≠y} f(k)/|S|, and there are |S| draws.
 * So every example's estimate stays unbiased (and each bound stays the same bound in expectation),
 * with |S| or |S| − 1 terms that count.
 *
 * <p>One instance per thread; the alias table is shared read-only.
 */
final class ClassSampler {
  private final int classes;
  private final int sampled;
  private final double[] probability;
  private final double[] aliasThreshold;
  private final int[] alias;
  private final int[] mark;
  private int stamp;

  private ClassSampler(
      int classes, int sampled, double[] probability, double[] aliasThreshold, int[] alias) {
    this.classes = classes;
    this.sampled = sampled;
    this.probability = probability;
    this.aliasThreshold = aliasThreshold;
    this.alias = alias;
    this.mark = probability == null ? new int[classes] : null;
  }

  /** |S| = {@code sampled} ≤ K − 1 classes uniformly without replacement. */
  static ClassSampler uniform(int classes, int sampled) {
    return new ClassSampler(classes, sampled, null, null, null);
  }

  /** |S| = {@code sampled} draws from q_k ∝ (counts[k] + 1)^power, with replacement. */
  static ClassSampler frequency(int[] counts, double power, int sampled) {
    int k = counts.length;
    double[] q = new double[k];
    double total = 0;
    for (int c = 0; c < k; c++) {
      q[c] = Math.pow(counts[c] + 1.0, power);
      total += q[c];
    }
    for (int c = 0; c < k; c++) {
      q[c] /= total;
    }
    // Vose: split the scaled probabilities into columns of height 1, each at most two classes.
    double[] threshold = new double[k];
    int[] alias = new int[k];
    int[] small = new int[k];
    int[] large = new int[k];
    int ns = 0;
    int nl = 0;
    double[] scaled = new double[k];
    for (int c = 0; c < k; c++) {
      scaled[c] = q[c] * k;
      if (scaled[c] < 1) {
        small[ns++] = c;
      } else {
        large[nl++] = c;
      }
    }
    while (ns > 0 && nl > 0) {
      int s = small[--ns];
      int l = large[--nl];
      threshold[s] = scaled[s];
      alias[s] = l;
      scaled[l] -= 1 - scaled[s];
      if (scaled[l] < 1) {
        small[ns++] = l;
      } else {
        large[nl++] = l;
      }
    }
    while (nl > 0) {
      threshold[large[--nl]] = 1;
    }
    while (ns > 0) {
      threshold[small[--ns]] = 1;
    }
    return new ClassSampler(k, sampled, q, threshold, alias);
  }

  /** A sampler for another thread, sharing the tables. */
  ClassSampler copy() {
    return new ClassSampler(classes, sampled, probability, aliasThreshold, alias);
  }

  /**
   * Writes the classes at rows[base..base+|S|) and their weights and logs at weight[0..|S|),
   * logWeight[0..|S|).
   */
  void sample(
      int label, int[] rows, int base, double[] weight, double[] logWeight, CounterRandom random) {
    if (probability == null) {
      sampleUniform(label, rows, base, random);
      return;
    }
    double restricted = (1 - probability[label]) / sampled;
    for (int j = 0; j < sampled; j++) {
      int k;
      do {
        k = drawFromAlias(random);
      } while (k == label);
      rows[base + j] = k;
      weight[j] = restricted / probability[k];
      logWeight[j] = Math.log(weight[j]);
    }
  }

  /**
   * Draws one shared set from all K classes into rows[base..base+|S|) with each draw's weight
   * before exclusion.
   */
  void sampleShared(int[] rows, int base, double[] weight, CounterRandom random) {
    if (probability == null) {
      floyd(classes, -1, rows, base, random);
      Arrays.fill(weight, 0, sampled, classes / (double) sampled);
      return;
    }
    for (int j = 0; j < sampled; j++) {
      int k = drawFromAlias(random);
      rows[base + j] = k;
      weight[j] = 1 / (sampled * probability[k]);
    }
  }

  /**
   * An example's weights over a shared set: the shared weight and its log, or 0 (log −∞) where the
   * class is its label.
   */
  static void excludeLabel(
      int label,
      int[] rows,
      int base,
      double[] shared,
      double[] sharedLog,
      int count,
      double[] weight,
      double[] logWeight) {
    for (int j = 0; j < count; j++) {
      boolean own = rows[base + j] == label;
      weight[j] = own ? 0 : shared[j];
      logWeight[j] = own ? Double.NEGATIVE_INFINITY : sharedLog[j];
    }
  }

  /** Fills the constant uniform weights once: (K − 1)/|S|. */
  void uniformWeights(double[] weight, double[] logWeight) {
    if (probability == null) {
      Arrays.fill(weight, 0, sampled, (classes - 1) / (double) sampled);
      Arrays.fill(logWeight, 0, sampled, Math.log((classes - 1) / (double) sampled));
    }
  }

  private int drawFromAlias(CounterRandom random) {
    int column = random.nextInt(classes);
    return random.nextDouble() < aliasThreshold[column] ? column : alias[column];
  }

  private void sampleUniform(int label, int[] rows, int base, CounterRandom random) {
    if (sampled == classes - 1) {
      for (int k = 0, j = base; k < classes; k++) {
        if (k != label) {
          rows[j++] = k;
        }
      }
      return;
    }
    floyd(classes - 1, label, rows, base, random);
  }

  /**
   * |S| distinct values of [0, range) by Floyd's algorithm, each v ≥ skip shifted up by one (skip <
   * 0: none).
   */
  private void floyd(int range, int skip, int[] rows, int base, CounterRandom random) {
    if (++stamp == Integer.MAX_VALUE) {
      Arrays.fill(mark, 0);
      stamp = 1;
    }
    int j = base;
    for (int top = range - sampled; top < range; top++) {
      int v = random.nextInt(top + 1);
      if (mark[v] == stamp) {
        v = top;
      }
      mark[v] = stamp;
      rows[j++] = skip >= 0 && v >= skip ? v + 1 : v;
    }
  }
}
