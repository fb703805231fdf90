package org.largecat.spark.cb;

import java.util.Collections;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.storage.StorageLevel;
import org.largecat.cb.CaviFit;
import org.largecat.cb.CaviOptions;
import org.largecat.cb.CaviRows;
import org.largecat.cb.CaviRun;
import org.largecat.cb.CaviStatistics;
import org.largecat.cb.CaviUpdate;
import org.largecat.cb.CbPosterior;
import org.largecat.cb.CbPredictor;
import org.largecat.cb.GaussianPrior;
import org.largecat.cb.IbCavi;
import org.largecat.kernel.Kernels;
import org.largecat.spark.ExecutorKernels;
import org.largecat.spark.data.PartitionRows;

/**
 * IB-CAVI with the rows in a DataFrame's partitions, never collected: each partition keeps its rows
 * as {@link CaviRows} (cached on its executor); per pass the driver broadcasts q(B), every
 * partition computes its data terms and sufficient statistics, one tree aggregation sums them, and
 * the driver finishes the update with {@link CaviUpdate}, the code the single-machine {@link
 * IbCavi} runs, so the ELBO trace is the single machine's up to the order of the sums.
 */
public final class DistributedCavi implements CaviRun {
  private final JavaSparkContext context;
  private final JavaRDD<CaviRows> partitions;
  private final CaviUpdate update;
  private final Kernels kernels;
  private final long cells;

  private DistributedCavi(
      JavaSparkContext context,
      JavaRDD<CaviRows> partitions,
      CaviUpdate update,
      Kernels kernels,
      long cells) {
    this.context = context;
    this.partitions = partitions;
    this.update = update;
    this.kernels = kernels;
    this.cells = cells;
  }

  /**
   * Prepares a run on the rows of data: a label column of class indices in [0, classes) and a
   * features column of Spark ML vectors of size columns (without the intercept, which the design
   * adds; the prior has columns + 1 dimensions). Caches the partitions' rows until {@link #close}.
   */
  public static DistributedCavi start(
      Dataset<Row> data,
      String labelColumn,
      String featuresColumn,
      int columns,
      int classes,
      GaussianPrior prior,
      CaviOptions options) {
    if (columns < 0 || classes < 2) {
      throw new IllegalArgumentException(
          "IB-CAVI needs >= 0 feature columns and >= 2 classes; got D = "
              + columns
              + ", K = "
              + classes);
    }
    if (prior.dimension() != columns + 1) {
      throw new IllegalArgumentException(
          "prior has dimension "
              + prior.dimension()
              + " but the design has "
              + (columns + 1)
              + " columns ("
              + columns
              + " features and the intercept)");
    }
    CbColumns.requireNumeric(data.schema(), labelColumn, "labelColumn");
    CbColumns.requireVector(data.schema(), featuresColumn, "featuresColumn");
    var link = options.link();
    boolean diagonal = options.diagonal();
    JavaRDD<CaviRows> partitions =
        data.select(labelColumn, featuresColumn)
            .toJavaRDD()
            .mapPartitions(
                rows -> {
                  org.largecat.data.Dataset part = PartitionRows.read(rows, 0, 1, columns, classes);
                  return part.rows() == 0
                      ? Collections.emptyIterator()
                      : List.of(CaviRows.of(part, link, diagonal, ExecutorKernels.get()))
                          .iterator();
                })
            .persist(StorageLevel.MEMORY_ONLY());
    if (partitions.map(CaviRows::rows).isEmpty()) {
      partitions.unpersist(false);
      throw new IllegalArgumentException("IB-CAVI needs at least one example; the data has none");
    }
    CaviStatistics fixed =
        partitions.map(CaviRows::fixedStatistics).treeReduce(CaviStatistics::add);
    Kernels kernels = Kernels.get();
    CaviUpdate update = CaviUpdate.start(prior, options, classes, kernels, fixed);
    return new DistributedCavi(
        JavaSparkContext.fromSparkContext(data.sparkSession().sparkContext()),
        partitions,
        update,
        kernels,
        fixed.rows() * classes);
  }

  /** Fits q(B) to the rows of data as {@link IbCavi#fit} does on one machine. */
  public static CaviFit fit(
      Dataset<Row> data,
      String labelColumn,
      String featuresColumn,
      int columns,
      int classes,
      GaussianPrior prior,
      CaviOptions options) {
    try (DistributedCavi run =
        start(data, labelColumn, featuresColumn, columns, classes, prior, options)) {
      return IbCavi.iterate(run, options);
    }
  }

  @Override
  public double iterate() {
    return pass(true);
  }

  @Override
  public double elbo() {
    return pass(false);
  }

  @Override
  public CbPosterior posterior() {
    return update.posterior();
  }

  @Override
  public long cells() {
    return cells;
  }

  /**
   * The evidence bounds of CBC and CBM from S draws of the current q(B) (seeded: the draws {@link
   * CbPredictor#evidence} takes on one machine), the log-likelihoods summed over the partitions.
   */
  public CbPredictor.ModelEvidence evidence(int samples, long seed) {
    CbPredictor predictor = new CbPredictor(update.posterior(), kernels);
    Broadcast<double[][]> draws = context.broadcast(predictor.draws(samples, seed));
    try {
      double[] sums =
          partitions
              .map(rows -> rows.logLikelihoodSums(draws.value()))
              .treeReduce((a, b) -> new double[] {a[0] + b[0], a[1] + b[1]});
      return predictor.evidence(sums, samples);
    } finally {
      draws.destroy();
    }
  }

  /** Releases the cached rows. */
  @Override
  public void close() {
    partitions.unpersist(false);
  }

  private double pass(boolean updating) {
    Broadcast<CbPosterior.State> q = context.broadcast(update.posterior().state());
    try {
      CaviStatistics totals =
          partitions
              .map(rows -> rows.statistics(q.value(), updating))
              .treeReduce(CaviStatistics::add);
      return update.finish(totals, updating);
    } finally {
      q.destroy();
    }
  }
}
