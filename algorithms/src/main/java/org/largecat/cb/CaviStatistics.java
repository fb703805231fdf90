package org.largecat.cb;

import java.io.Serializable;

/**
 * Sums over a set of rows that an IB-CAVI driver needs ({@link CaviRows}): the ELBO's data terms
 * and one array of sufficient statistics (its meaning depends on the call that made it). Sums of
 * disjoint sets of rows add up to those of their union, so partitions' statistics are combined with
 * {@link #add}.
 *
 * @param data the ELBO's data terms summed over the rows
 * @param sums the sufficient statistics summed over the rows
 * @param rows how many rows were summed
 */
public record CaviStatistics(double data, double[] sums, long rows) implements Serializable {
  public CaviStatistics {
    if (sums == null || rows < 0) {
      throw new IllegalArgumentException("statistics need sums and a row count >= 0");
    }
  }

  /** The statistics of both sets of rows (the arrays of this one are reused). */
  public CaviStatistics add(CaviStatistics other) {
    if (other.sums.length != sums.length) {
      throw new IllegalArgumentException(
          "statistics of " + sums.length + " and " + other.sums.length + " numbers do not add");
    }
    for (int i = 0; i < sums.length; i++) {
      sums[i] += other.sums[i];
    }
    return new CaviStatistics(data + other.data, sums, rows + other.rows);
  }
}
