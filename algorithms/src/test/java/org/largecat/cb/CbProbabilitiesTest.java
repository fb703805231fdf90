package org.largecat.cb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.largecat.data.Dataset;
import org.largecat.kernel.Kernels;
import org.largecat.special.Normal;

class CbProbabilitiesTest {
  private static final Kernels SCALAR = Kernels.of("scalar");

  private static double cdf(Link link, double x) {
    return link == Link.PROBIT ? Math.exp(Normal.logCdf(x)) : 1 / (1 + Math.exp(-x));
  }

  /**
   * Eqs. 2.4.1 and 2.4.2 evaluated as written, with products of H and 1 - H, at moderate utilities.
   */
  @ParameterizedTest
  @EnumSource(Link.class)
  void matchesTheDefinitionsAtModerateUtilities(Link link) {
    int n = 50;
    int k = 7;
    SplittableRandom random = new SplittableRandom(3);
    double[] eta = new double[n * k];
    for (int i = 0; i < eta.length; i++) {
      eta[i] = 3 * random.nextGaussian();
    }
    double[] cbc = new double[n * k];
    double[] cbm = new double[n * k];
    CbProbabilities.logProbabilities(SCALAR, link, n, k, eta, cbc, cbm, 0);
    for (int i = 0; i < n; i++) {
      double[] conditioning = new double[k];
      double[] marginal = new double[k];
      double zc = 0;
      double zm = 0;
      for (int c = 0; c < k; c++) {
        double p = cdf(link, eta[i * k + c]);
        for (int j = 0; j < k; j++) {
          if (j != c) {
            p *= cdf(link, -eta[i * k + j]); // 1 - H(eta), without the cancellation of 1 - H
          }
        }
        conditioning[c] = p;
        marginal[c] = cdf(link, eta[i * k + c]);
        zc += conditioning[c];
        zm += marginal[c];
      }
      for (int c = 0; c < k; c++) {
        assertEquals(
            conditioning[c] / zc,
            Math.exp(cbc[i * k + c]),
            1e-12,
            "CBC row " + i + " category " + c);
        assertEquals(
            marginal[c] / zm, Math.exp(cbm[i * k + c]), 1e-12, "CBM row " + i + " category " + c);
      }
    }
  }

  /**
   * At utilities of +-40 and +-1e4 the direct formulas give 0/0; the log-space ones stay finite and
   * normalised.
   */
  @ParameterizedTest
  @EnumSource(Link.class)
  void finiteAndNormalisedAtExtremeUtilities(Link link) {
    double[][] rows = {
      {1e4, -1e4, 0, 40, -40}, {-1e4, -1e4, -1e4, -1e4, -1e4}, {1e4, 1e4, 1e4, 1e4, 1e4},
      {-40, -41, -45, -1e4, -38}, {40, 41, 45, 1e4, 38}, {-1e4, -1e4 + 1, -1e4, -1e4, -1e4}
    };
    int k = 5;
    double[] eta = new double[rows.length * k];
    for (int i = 0; i < rows.length; i++) {
      System.arraycopy(rows[i], 0, eta, i * k, k);
    }
    double[] cbc = new double[eta.length];
    double[] cbm = new double[eta.length];
    CbProbabilities.logProbabilities(SCALAR, link, rows.length, k, eta, cbc, cbm, 0);
    for (int i = 0; i < rows.length; i++) {
      double sc = 0;
      double sm = 0;
      for (int c = 0; c < k; c++) {
        assertTrue(
            Double.isFinite(cbc[i * k + c]) && Double.isFinite(cbm[i * k + c]),
            "row " + i + " category " + c);
        assertTrue(cbc[i * k + c] <= 0 && cbm[i * k + c] <= 0);
        sc += Math.exp(cbc[i * k + c]);
        sm += Math.exp(cbm[i * k + c]);
      }
      assertEquals(1, sc, 1e-12);
      assertEquals(1, sm, 1e-12);
    }
    // All equal: uniform. The largest utility wins under both where it stands out.
    assertEquals(Math.log(0.2), cbc[k], 1e-12);
    assertEquals(Math.log(0.2), cbm[k], 1e-12);
    assertEquals(0, cbc[3 * k + 4], 0.5);
    assertTrue(cbc[5 * k + 1] > cbc[5 * k] + 0.5, "a unit lead at -1e4 still shows under CBC");
  }

  @Test
  void bmaIsAProperMixtureAndReproducibleForASeed() {
    CbSimulation sim = CbSimulation.generate(600, 4, 8, 1.0, Math.sqrt(0.001), 0.5, 21);
    Dataset data = sim.data();
    CaviFit fit =
        IbCavi.fit(
            data,
            GaussianPrior.isotropic(9, 1),
            CaviOptions.of(Link.PROBIT).withThreads(2),
            SCALAR);
    Design x = Design.withIntercept(data.features(), SCALAR);
    CbPredictor predictor = new CbPredictor(fit.posterior(), SCALAR);
    CbPredictor.ModelEvidence e1 = predictor.evidence(x, data.labels(), 5, 7);
    CbPredictor.ModelEvidence e2 = predictor.evidence(x, data.labels(), 5, 7);
    assertEquals(e1, e2);
    double w = e1.weightCbc();
    assertTrue(w >= 0 && w <= 1);
    assertEquals(1, Math.exp(e1.logWeightCbc()) + Math.exp(e1.logWeightCbm()), 1e-12);
    assertTrue(Double.isFinite(e1.logEvidenceCbc()) && Double.isFinite(e1.logEvidenceCbm()));
    CbPredictor.Predictions p = predictor.plugIn(x);
    // Into a buffer that held other numbers: every cell rewritten, the same as a fresh call.
    CbPredictor.Predictions reused = CbPredictor.Predictions.allocate(600, 4);
    java.util.Arrays.fill(reused.cbc(), Double.NaN);
    java.util.Arrays.fill(reused.cbm(), 7.0);
    assertSame(reused, predictor.plugIn(x, reused));
    assertArrayEquals(p.cbc(), reused.cbc(), 0);
    assertArrayEquals(p.cbm(), reused.cbm(), 0);
    IllegalArgumentException wrongShape =
        assertThrows(
            IllegalArgumentException.class,
            () -> predictor.plugIn(x, CbPredictor.Predictions.allocate(599, 4)));
    assertTrue(wrongShape.getMessage().contains("599 rows"), wrongShape.getMessage());
    double[] bma = CbPredictor.bmaLogProbabilities(p, e1);
    for (int i = 0; i < bma.length; i++) {
      double mix = w * Math.exp(p.cbc()[i]) + (1 - w) * Math.exp(p.cbm()[i]);
      assertEquals(mix, Math.exp(bma[i]), 1e-12);
    }
    double[][] draws = predictor.predictiveDraws(x, e1, 20, 3);
    double[][] again = predictor.predictiveDraws(x, e1, 20, 3);
    for (int t = 0; t < draws.length; t++) {
      assertArrayEquals(draws[t], again[t], 0);
    }
    // the draws scatter around the plug-in prediction
    double meanDraw = 0;
    for (double[] d : draws) {
      meanDraw += d[0] / draws.length;
    }
    assertEquals(Math.exp(bma[0]), meanDraw, 0.05);
    double truthKl = CbMetrics.meanKl(sim.trueProbabilities(data.features()), bma, 4);
    assertTrue(truthKl < 0.1, "mean KL to the truth " + truthKl);
  }

  @Test
  void accuracyGivesOneOverCForTies() {
    double[] logp = {
      Math.log(0.5), Math.log(0.5), Math.log(1e-300), Math.log(0.2), Math.log(0.7), Math.log(0.1)
    };
    assertEquals((0.5 + 0) / 2, CbMetrics.accuracy(logp, 3, new int[] {1, 0}), 0);
    assertEquals((0.5 + 1) / 2, CbMetrics.accuracy(logp, 3, new int[] {0, 1}), 0);
    double[] truth = {0.5, 0.5, 0, 0.2, 0.7, 0.1};
    assertEquals(
        0,
        CbMetrics.meanKl(
            truth,
            new double[] {
              Math.log(0.5), Math.log(0.5), -50, Math.log(0.2), Math.log(0.7), Math.log(0.1)
            },
            3),
        1e-15);
    assertEquals(
        (Math.log(0.5) + Math.log(0.1)) / 2,
        CbMetrics.meanLogLikelihood(logp, 3, new int[] {0, 2}),
        1e-15);
  }

  @Test
  void simulationFollowsG11AndIsReproducible() {
    CbSimulation a = CbSimulation.generate(100, 3, 7, 2.0, 0.01, 0.5, 5);
    CbSimulation b = CbSimulation.generate(100, 3, 7, 2.0, 0.01, 0.5, 5);
    assertArrayEquals(a.weights(), b.weights(), 0);
    assertArrayEquals(a.data().labels(), b.data().labels());
    // S = floor(7/3) = 2: covariates 1-2 predict category 1, 3-4 category 2, 5-6 category 3, 7 none
    int k = 3;
    for (int m = 1; m <= 7; m++) {
      for (int c = 1; c <= k; c++) {
        double w = Math.abs(a.weights()[m * k + c - 1]);
        boolean high = m <= 6 && c == (m + 1) / 2;
        assertTrue(
            high || w < 0.06, "weight (" + m + ", " + c + ") = " + w + " should be from sigma_low");
      }
    }
  }
}
