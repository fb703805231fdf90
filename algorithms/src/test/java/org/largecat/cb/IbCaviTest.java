package org.largecat.cb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.kernel.Kernels;
import org.largecat.special.Logistic;
import org.largecat.special.Normal;

class IbCaviTest {
  private static final Kernels SCALAR = Kernels.of("scalar");

  static Stream<Arguments> everyVariant() {
    List<Arguments> cases = new ArrayList<>();
    for (Link link : Link.values()) {
      for (boolean diagonal : new boolean[] {false, true}) {
        for (boolean sparse : new boolean[] {false, true}) {
          for (long seed : new long[] {1, 2, 3}) {
            cases.add(Arguments.of(link, diagonal, sparse, seed));
          }
        }
      }
    }
    return cases.stream();
  }

  private static CaviFit fit(
      Dataset data, Link link, boolean diagonal, int iterations, double tolerance, int threads) {
    GaussianPrior prior = GaussianPrior.isotropic(data.columns() + 1, 1.0);
    CaviOptions options =
        CaviOptions.of(link)
            .withDiagonal(diagonal)
            .withIterations(iterations)
            .withTolerance(tolerance)
            .withThreads(threads);
    return IbCavi.fit(data, prior, options, SCALAR);
  }

  @ParameterizedTest(name = "{0} diagonal={1} sparse={2} seed={3}")
  @MethodSource("everyVariant")
  void elboNeverDecreases(Link link, boolean diagonal, boolean sparse, long seed) {
    // K = 70 spans two category blocks (64 + 6), so the block bookkeeping is exercised too.
    Dataset data =
        CbTestData.withZeros(CbTestData.simulated(400, seed == 1 ? 70 : 5, 6, 2.0, seed));
    if (sparse) {
      data = CbTestData.asSparse(data);
    }
    CaviFit fit = fit(data, link, diagonal, 25, 0, 2);
    double[] elbo = fit.elbo();
    assertEquals(26, elbo.length);
    for (int t = 1; t < elbo.length; t++) {
      assertTrue(Double.isFinite(elbo[t]), "ELBO " + t + " = " + elbo[t]);
      assertTrue(
          elbo[t] >= elbo[t - 1] - 1e-10 * Math.abs(elbo[t]),
          "ELBO fell at iteration " + t + ": " + elbo[t - 1] + " -> " + elbo[t]);
    }
    assertTrue(elbo[elbo.length - 1] > elbo[0]);
  }

  @ParameterizedTest(name = "{0} diagonal={1}")
  @MethodSource("linksAndFamilies")
  void sparseAndDenseGiveTheSameFit(Link link, boolean diagonal) {
    Dataset dense = CbTestData.withZeros(CbTestData.simulated(300, 4, 1.0, 9));
    CaviFit a = fit(dense, link, diagonal, 15, 0, 1);
    CaviFit b = fit(CbTestData.asSparse(dense), link, diagonal, 15, 0, 1);
    assertArrayEquals(a.posterior().means(), b.posterior().means(), 1e-9);
    assertArrayEquals(a.elbo(), b.elbo(), 1e-9 * Math.abs(a.finalElbo()));
  }

  static Stream<Arguments> linksAndFamilies() {
    return Stream.of(
        Arguments.of(Link.PROBIT, false),
        Arguments.of(Link.PROBIT, true),
        Arguments.of(Link.LOGIT, false),
        Arguments.of(Link.LOGIT, true));
  }

  @ParameterizedTest(name = "{0} diagonal={1}")
  @MethodSource("linksAndFamilies")
  void threadCountDoesNotChangeTheResult(Link link, boolean diagonal) {
    Dataset data = CbTestData.simulated(200, 70, 5, 1.0, 4);
    CaviFit one = fit(data, link, diagonal, 5, 0, 1);
    CaviFit three = fit(data, link, diagonal, 5, 0, 3);
    assertArrayEquals(one.posterior().means(), three.posterior().means(), 0);
    assertArrayEquals(one.elbo(), three.elbo(), 0);
  }

  /** The reported ELBO against an independent evaluation of D.3.8 / E.3.9 from the posterior. */
  @ParameterizedTest(name = "{0} diagonal={1}")
  @MethodSource("linksAndFamilies")
  void reportedElboMatchesAnIndependentEvaluation(Link link, boolean diagonal) {
    Dataset data = CbTestData.simulated(120, 3, 1.0, 5);
    CaviFit fit = fit(data, link, diagonal, 7, 0, 1);
    double independent = independentElbo(data, fit.posterior(), fit.posterior().means());
    assertEquals(independent, fit.finalElbo(), 1e-9 * Math.abs(independent));
  }

  /**
   * At the CAVI fixed point the ELBO (with the auxiliary factor at its optimum) is stationary in
   * the means: its finite-difference gradient, from an independent implementation, is about 0.
   */
  @ParameterizedTest(name = "{0} diagonal={1}")
  @MethodSource("linksAndFamilies")
  void fixedPointIsStationaryByFiniteDifferences(Link link, boolean diagonal) {
    Dataset data = CbTestData.simulated(80, 3, 1.0, 6);
    CaviFit fit = fit(data, link, diagonal, 3000, 1e-15, 1);
    double[] mu = fit.posterior().means();
    double h = 1e-5;
    for (int i = 0; i < mu.length; i++) {
      double[] up = mu.clone();
      double[] down = mu.clone();
      up[i] += h;
      down[i] -= h;
      double g =
          (independentElbo(data, fit.posterior(), up)
                  - independentElbo(data, fit.posterior(), down))
              / (2 * h);
      assertEquals(0, g, 1e-5, "dELBO/dmu at " + i + " (iterations " + fit.iterations() + ")");
    }
    // and the same ELBO moves when the mean is off the fixed point: the test can fail
    double[] off = mu.clone();
    off[0] += 0.1;
    assertTrue(independentElbo(data, fit.posterior(), off) < fit.finalElbo() - 1e-4);
  }

  /**
   * Diagonal probit: the mean fixed point solves the same equations as the full family's (Sec.
   * D.4).
   */
  @Test
  void diagonalProbitMeansReachTheFullFamilysFixedPoint() {
    Dataset data = CbTestData.simulated(150, 3, 1.0, 8);
    CaviFit full = fit(data, Link.PROBIT, false, 4000, 1e-15, 1);
    CaviFit diagonal = fit(data, Link.PROBIT, true, 4000, 1e-15, 1);
    assertArrayEquals(full.posterior().means(), diagonal.posterior().means(), 1e-5);
    assertTrue(
        diagonal.finalElbo() < full.finalElbo(), "the full family bounds at least as tightly");
  }

  /** Features scaled by 1000 drive the linear predictors far past +-40; everything stays finite. */
  @ParameterizedTest(name = "{0} diagonal={1}")
  @MethodSource("linksAndFamilies")
  void extremeLinearPredictorsStayFinite(Link link, boolean diagonal) {
    Dataset base = CbTestData.simulated(200, 4, 3.0, 10);
    DenseFeatures d = (DenseFeatures) base.features();
    float[] v = d.values().clone();
    for (int i = 0; i < v.length; i++) {
      v[i] *= 1000;
    }
    Dataset data =
        new Dataset(new DenseFeatures(d.rows(), d.columns(), v), base.labels(), base.classes());
    // A prior mean of 0.05 per weight starts the linear predictors in the hundreds.
    int m = data.columns() + 1;
    double[] mean = new double[m];
    double[] covariance = new double[m * m];
    for (int a = 0; a < m; a++) {
      mean[a] = 0.05;
      covariance[a * m + a] = 100;
    }
    GaussianPrior prior = GaussianPrior.of(mean, covariance, SCALAR);
    Design x = Design.withIntercept(data.features(), SCALAR);
    double[] priorMeans = new double[m * base.classes()];
    java.util.Arrays.fill(priorMeans, 0.05);
    double[] eta = new double[x.rows() * base.classes()];
    x.multiply(0, x.rows(), 1, priorMeans, 0, base.classes(), base.classes(), eta);
    double maxAbsEta = 0;
    for (double e : eta) {
      maxAbsEta = Math.max(maxAbsEta, Math.abs(e));
    }
    assertTrue(maxAbsEta > 100, "linear predictors start at up to " + maxAbsEta);
    CaviFit fit =
        IbCavi.fit(
            data,
            prior,
            CaviOptions.of(link)
                .withDiagonal(diagonal)
                .withIterations(30)
                .withTolerance(0)
                .withThreads(1),
            SCALAR);
    CbPredictor.Predictions p = new CbPredictor(fit.posterior(), SCALAR).plugIn(x);
    for (double e : fit.elbo()) {
      assertTrue(Double.isFinite(e));
    }
    for (double weight : fit.posterior().means()) {
      assertTrue(Double.isFinite(weight));
    }
    for (int i = 0; i < p.cbc().length; i++) {
      assertTrue(Double.isFinite(p.cbc()[i]) && Double.isFinite(p.cbm()[i]), "cell " + i);
    }
  }

  @Test
  void badInputIsRejectedWithAReason() {
    Dataset data = CbTestData.simulated(50, 3, 1.0, 1);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                IbCavi.fit(
                    data, GaussianPrior.isotropic(3, 1), CaviOptions.of(Link.PROBIT), SCALAR));
    assertTrue(
        e.getMessage().contains("prior has dimension 3 but the design has 7 columns"),
        e.getMessage());
    float[] v = ((DenseFeatures) data.features()).values().clone();
    v[8] = Float.NaN;
    Dataset nan = new Dataset(new DenseFeatures(50, 6, v), data.labels(), 3);
    e = assertThrows(IllegalArgumentException.class, () -> fit(nan, Link.LOGIT, false, 3, 0, 1));
    assertTrue(
        e.getMessage().contains("row 1, column 2") && e.getMessage().contains("NaN"),
        e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class, () -> CaviOptions.of(Link.PROBIT).withIterations(0));
    assertTrue(e.getMessage().contains("iterations = 0"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> CaviOptions.of(Link.PROBIT).withTolerance(Double.NaN));
    assertTrue(e.getMessage().contains("tolerance"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Link.byLabel("cloglog"));
    assertTrue(
        e.getMessage().contains("unknown link 'cloglog'; one of probit, logit"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> GaussianPrior.of(new double[2], new double[] {1, 2, 2, 1}, SCALAR));
    assertTrue(e.getMessage().contains("not positive definite"), e.getMessage());
  }

  @Test
  void convergesAndStopsOnTheRelativeTolerance() {
    Dataset data = CbTestData.simulated(200, 3, 1.0, 12);
    CaviFit fit = fit(data, Link.PROBIT, false, 500, 1e-6, 1);
    assertTrue(fit.converged());
    assertTrue(fit.iterations() < 500);
    double[] e = fit.elbo();
    int t = e.length - 2; // the last update's rise met the criterion
    assertTrue(e[t] - e[t - 1] <= 1e-6 * Math.abs(e[t]));
    assertTrue(e[t - 1] - e[t - 2] > 1e-6 * Math.abs(e[t - 1]));
    assertEquals(fit.finalElbo() / (200.0 * 3), fit.finalElboPerCell(), 1e-15);
  }

  /**
   * ELBO_IB of q(B) given as means (M x K) and the posterior's covariances, the auxiliaries
   * optimal.
   */
  static double independentElbo(Dataset data, CbPosterior q, double[] means) {
    int m = data.columns() + 1;
    int k = data.classes();
    double elbo = 0;
    for (int c = 0; c < k; c++) {
      double[] sigma = q.covariance(c);
      for (int i = 0; i < data.rows(); i++) {
        double[] x = CbTestData.row(data, i);
        double eta = 0;
        double quad = 0;
        for (int a = 0; a < m; a++) {
          eta += x[a] * means[a * k + c];
          for (int b = 0; b < m; b++) {
            quad += x[a] * sigma[a * m + b] * x[b];
          }
        }
        boolean positive = data.labels()[i] == c;
        if (q.link() == Link.PROBIT) {
          elbo += Normal.logCdf(positive ? eta : -eta) - 0.5 * quad;
        } else {
          double cc = Math.sqrt(quad + eta * eta);
          elbo += (positive ? 0.5 : -0.5) * eta + Logistic.logSigmoid(cc) - 0.5 * cc;
        }
      }
      // KL(N(mu, Sigma) || N(0, I)) = (-log|Sigma| - M + mu^T mu + tr Sigma) / 2
      double mahal = 0;
      double trace = 0;
      for (int a = 0; a < m; a++) {
        mahal += means[a * k + c] * means[a * k + c];
        trace += sigma[a * m + a];
      }
      elbo -= 0.5 * (-CbTestData.logDet(sigma, m) - m + mahal + trace);
    }
    return elbo;
  }
}
