package org.largecat.spark.cb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.largecat.cb.CaviFit;
import org.largecat.cb.CaviOptions;
import org.largecat.cb.CbPredictor;
import org.largecat.cb.Design;
import org.largecat.cb.GaussianPrior;
import org.largecat.cb.IbCavi;
import org.largecat.cb.Link;
import org.largecat.kernel.Kernels;
import org.largecat.spark.Frames;

class DistributedCaviTest {
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark = Frames.localSession();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  static Stream<Arguments> cases() {
    return Stream.of(Link.values())
        .flatMap(
            link ->
                Stream.of(false, true)
                    .flatMap(
                        diagonal ->
                            Stream.of(false, true)
                                .map(sparse -> Arguments.of(link, diagonal, sparse))));
  }

  /**
   * The single-machine fit on the same rows is the truth: the partitions' sums differ from it only
   * in their order, so every ELBO agrees to 1e-9 relative, and so do the means and the evidence.
   */
  @ParameterizedTest(name = "{0} diagonal={1} sparse={2}")
  @MethodSource("cases")
  void equalsTheSingleMachineFit(Link link, boolean diagonal, boolean sparse) {
    // K = 70 makes two blocks of categories, one of them partial.
    org.largecat.data.Dataset data = CbSparkData.simulated(900, 70, 12, sparse, 23);
    org.largecat.data.Dataset single = sparse ? CbSparkData.asSparse(data) : data;
    Dataset<Row> frame = CbSparkData.frame(spark, data, sparse, 3);
    GaussianPrior prior = GaussianPrior.isotropic(13, 1.0);
    CaviOptions options = new CaviOptions(link, diagonal, 8, 0, 2);
    Kernels kernels = Kernels.get();
    CaviFit expected = IbCavi.fit(single, prior, options, kernels);
    CbPredictor predictor = new CbPredictor(expected.posterior(), kernels);
    CbPredictor.ModelEvidence expectedEvidence =
        predictor.evidence(
            Design.withIntercept(single.features(), kernels), single.labels(), 4, 17);
    CaviFit fit;
    CbPredictor.ModelEvidence evidence;
    try (DistributedCavi run =
        DistributedCavi.start(frame, "label", "features", 12, 70, prior, options)) {
      fit = IbCavi.iterate(run, options);
      evidence = run.evidence(4, 17);
    }
    assertEquals(expected.elbo().length, fit.elbo().length);
    for (int t = 0; t < fit.elbo().length; t++) {
      double want = expected.elbo()[t];
      assertEquals(want, fit.elbo()[t], 1e-9 * Math.abs(want), "ELBO at iteration " + t);
      if (t > 0) {
        assertTrue(
            fit.elbo()[t] >= fit.elbo()[t - 1],
            "ELBO fell at iteration " + t + ": " + fit.elbo()[t - 1] + " -> " + fit.elbo()[t]);
      }
    }
    assertEquals(expected.cells(), fit.cells());
    double[] want = expected.posterior().means();
    double[] got = fit.posterior().means();
    for (int i = 0; i < want.length; i++) {
      assertEquals(want[i], got[i], 1e-9 * (1 + Math.abs(want[i])), "mean " + i);
    }
    assertEquals(
        expectedEvidence.logEvidenceCbc(),
        evidence.logEvidenceCbc(),
        1e-9 * Math.abs(expectedEvidence.logEvidenceCbc()));
    assertEquals(
        expectedEvidence.logEvidenceCbm(),
        evidence.logEvidenceCbm(),
        1e-9 * Math.abs(expectedEvidence.logEvidenceCbm()));
    assertEquals(expectedEvidence.weightCbc(), evidence.weightCbc(), 1e-9, "BMA weight on CBC");
  }

  @Test
  void refusesAShapeThatDoesNotFitThePriorOrTheData() {
    org.largecat.data.Dataset data = CbSparkData.simulated(50, 3, 4, false, 1);
    Dataset<Row> frame = CbSparkData.frame(spark, data, false, 2);
    CaviOptions options = new CaviOptions(Link.PROBIT, false, 2, 0, 1);
    IllegalArgumentException prior =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                DistributedCavi.start(
                    frame, "label", "features", 4, 3, GaussianPrior.isotropic(3, 1), options));
    assertTrue(prior.getMessage().contains("prior has dimension 3"), prior.getMessage());
    Exception size =
        assertThrows(
            Exception.class,
            () ->
                DistributedCavi.fit(
                    frame, "label", "features", 5, 3, GaussianPrior.isotropic(6, 1), options));
    assertTrue(
        String.valueOf(rootCause(size).getMessage()).contains("have size 4"),
        rootCause(size).toString());
    Exception empty =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                DistributedCavi.start(
                    frame.limit(0),
                    "label",
                    "features",
                    4,
                    3,
                    GaussianPrior.isotropic(5, 1),
                    options));
    assertTrue(empty.getMessage().contains("at least one example"), empty.getMessage());
  }

  private static Throwable rootCause(Throwable t) {
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t;
  }
}
