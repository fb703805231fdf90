package org.largecat.synth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.largecat.kernel.Kernels;

class SynthTest {
  @TempDir Path dir;

  // ---- data and model files ----

  @Test
  void choiceDataRoundTripsThroughText() throws IOException {
    ChoiceData data = SynthModel.randomTruth(4, 3, 2, 5).sample(50, 6);
    Path file = dir.resolve("data.txt");
    data.write(file);
    ChoiceData back = ChoiceData.read(file, 3);
    assertEquals(50, back.users());
    assertEquals(4, back.items());
    for (int u = 0; u < 50; u++) {
      for (int i = 0; i < 4; i++) {
        assertEquals(data.choice(u, i), back.choice(u, i));
      }
    }
  }

  @Test
  void malformedDataIsRefusedNamingFileAndLine() throws IOException {
    assertMalformed("0 1 2\n1 2\n", 0, ":2: has 2 choices, the first line has 3");
    assertMalformed("0 1 2\n1 2 3\n", 3, ":2: item 2: choice 3 >= K = 3");
    assertMalformed("0 1\n1 x\n", 0, ":2: item 1: 'x' is not an integer choice");
    assertMalformed("0 1\n-1 0\n", 0, ":2: item 0: choice -1 is negative");
    assertMalformed("0 1\n\n0 1\n", 0, ":2: empty line");
    assertMalformed("", 0, ": empty file");
  }

  private void assertMalformed(String text, int declaredChoices, String expected)
      throws IOException {
    Path file = dir.resolve("bad.txt");
    Files.writeString(file, text);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ChoiceData.read(file, declaredChoices));
    assertTrue(
        e.getMessage().startsWith(file.toString()) && e.getMessage().contains(expected),
        e.getMessage());
  }

  @Test
  void modelRoundTripsAndCorruptFilesAreRefused() throws IOException {
    SynthModel model = SynthModel.randomTruth(3, 4, 2, 9);
    Path file = dir.resolve("model.bin");
    model.save(file);
    SynthModel back = SynthModel.load(file);
    assertArrayEquals(model.mean(), back.mean());
    assertArrayEquals(model.covariance(), back.covariance());
    assertArrayEquals(model.embeddings(), back.embeddings());

    byte[] bytes = Files.readAllBytes(file);
    Path truncated = dir.resolve("truncated.bin");
    Files.write(truncated, Arrays.copyOf(bytes, bytes.length - 9));
    assertRefused(truncated, "truncated");
    byte[] flipped = bytes.clone();
    flipped[40] ^= 1;
    Path corrupt = dir.resolve("corrupt.bin");
    Files.write(corrupt, flipped);
    assertRefused(corrupt, "checksum mismatch");
    Path text = dir.resolve("text.bin");
    Files.writeString(text, "0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9\n");
    assertRefused(text, "bad magic");
  }

  private static void assertRefused(Path file, String reason) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SynthModel.load(file));
    assertTrue(
        e.getMessage().startsWith(file.toString()) && e.getMessage().contains(reason),
        e.getMessage());
  }

  // ---- E-step against brute force ----

  /** A small problem: I = 4 items, K = 3, d = 2, a correlated Σ and a nonzero μ. */
  private static ModelParameters smallParameters() {
    SynthModel truth = SynthModel.randomTruth(4, 3, 2, 11);
    double[] covariance = {1.3, 0.5, 0.5, 0.8};
    double[] mean = {0.3, -0.2};
    return new ModelParameters(
        4, 3, 2, mean, covariance, truth.embeddings(), Kernels.get().matrixOps());
  }

  private static final ChoiceData SMALL_DATA =
      new ChoiceData(2, 4, 3, new int[] {0, 2, 1, 1, 2, 2, 0, 1});

  /**
   * The bound L_u written out independently of {@link UserPosterior}: E_q log p(x_u, z) + H(q) with
   * E_q log b_ui replaced by log E_q b_ui, for q = N(λ, diag(v)).
   */
  private static double bruteBound(
      ModelParameters p, ChoiceData data, int user, double[] lambda, double[] v) {
    int d = p.latent;
    double total = 0;
    for (int i = 0; i < p.items; i++) {
      double[] a = new double[p.choiceCount];
      for (int k = 0; k < p.choiceCount; k++) {
        int row = (i * p.choiceCount + k) * d;
        for (int s = 0; s < d; s++) {
          a[k] +=
              lambda[s] * p.embeddings[row + s]
                  + 0.5 * v[s] * p.embeddings[row + s] * p.embeddings[row + s];
        }
      }
      int chosen = data.choice(user, i);
      double linear = 0;
      for (int s = 0; s < d; s++) {
        linear += lambda[s] * p.embeddings[(i * p.choiceCount + chosen) * d + s];
      }
      double sum = 0;
      for (double x : a) {
        sum += Math.exp(x);
      }
      total += linear - Math.log(sum);
    }
    double quadratic = 0;
    double trace = 0;
    double logDet = 0;
    for (int s = 0; s < d; s++) {
      for (int t = 0; t < d; t++) {
        quadratic += (lambda[s] - p.mean[s]) * p.precision[s * d + t] * (lambda[t] - p.mean[t]);
      }
      trace += p.precision[s * d + s] * v[s];
      logDet += Math.log(v[s]);
    }
    return total - 0.5 * (quadratic + trace - logDet - p.logDetPrecision - d);
  }

  @Test
  void variationalEStepReachesTheBruteForceOptimum() {
    ModelParameters p = smallParameters();
    UserPosterior posterior = new UserPosterior(4, 3, 2, 1e-14, Kernels.get());
    double[] lambda = new double[4];
    double[] covariance = {1, 0, 0, 1, 1, 0, 0, 1};
    for (int user = 0; user < 2; user++) {
      double bound = posterior.fitVariational(p, SMALL_DATA, user, lambda, covariance);
      double[] lam = Arrays.copyOfRange(lambda, 2 * user, 2 * user + 2);
      double[] v = {covariance[4 * user], covariance[4 * user + 3]};
      assertEquals(bruteBound(p, SMALL_DATA, user, lam, v), bound, 1e-10);
      assertEquals(
          bound,
          posterior.bound(p, SMALL_DATA, user, lambda, covariance),
          1e-10,
          "the full-covariance bound agrees with the diagonal one");
      // The optimum: every central finite difference of the brute-force bound vanishes, and no
      // coordinate move of size 1e-3 (v in log space) improves it.
      double h = 1e-5;
      for (int c = 0; c < 4; c++) {
        double[] plusLam = lam.clone();
        double[] minusLam = lam.clone();
        double[] plusV = v.clone();
        double[] minusV = v.clone();
        if (c < 2) {
          plusLam[c] += h;
          minusLam[c] -= h;
        } else {
          plusV[c - 2] *= Math.exp(h);
          minusV[c - 2] *= Math.exp(-h);
        }
        double derivative =
            (bruteBound(p, SMALL_DATA, user, plusLam, plusV)
                    - bruteBound(p, SMALL_DATA, user, minusLam, minusV))
                / (2 * h);
        assertEquals(0, derivative, 1e-6, "user " + user + " coordinate " + c);
      }
    }
  }

  @Test
  void laplaceEStepFindsTheModeAndTheInverseNegativeHessian() {
    ModelParameters p = smallParameters();
    UserPosterior posterior = new UserPosterior(4, 3, 2, 1e-14, Kernels.get());
    double[] lambda = new double[4];
    double[] covariance = {1, 0, 0, 1, 1, 0, 0, 1};
    int user = 1;
    posterior.fitLaplace(p, SMALL_DATA, user, lambda, covariance);
    double[] mode = Arrays.copyOfRange(lambda, 2, 4);
    double h = 1e-4;
    double[][] hessian = new double[2][2];
    for (int s = 0; s < 2; s++) {
      double[] plus = mode.clone();
      double[] minus = mode.clone();
      plus[s] += h;
      minus[s] -= h;
      assertEquals(
          0,
          (logPosterior(p, user, plus) - logPosterior(p, user, minus)) / (2 * h),
          1e-7,
          "gradient " + s);
      for (int t = 0; t < 2; t++) {
        double[] pp = mode.clone();
        double[] pm = mode.clone();
        double[] mp = mode.clone();
        double[] mm = mode.clone();
        pp[s] += h;
        pp[t] += h;
        pm[s] += h;
        pm[t] -= h;
        mp[s] -= h;
        mp[t] += h;
        mm[s] -= h;
        mm[t] -= h;
        hessian[s][t] =
            (logPosterior(p, user, pp)
                    - logPosterior(p, user, pm)
                    - logPosterior(p, user, mp)
                    + logPosterior(p, user, mm))
                / (4 * h * h);
      }
    }
    // V · (−H) = I
    for (int s = 0; s < 2; s++) {
      for (int t = 0; t < 2; t++) {
        double product = 0;
        for (int r = 0; r < 2; r++) {
          product -= covariance[4 + s * 2 + r] * hessian[r][t];
        }
        assertEquals(s == t ? 1 : 0, product, 1e-5, "V (-H) at " + s + "," + t);
      }
    }
  }

  /** log p(x_u | z) + log N(z; μ, Σ) up to a constant, independent of the code under test. */
  private static double logPosterior(ModelParameters p, int user, double[] z) {
    double total = 0;
    int d = p.latent;
    for (int i = 0; i < p.items; i++) {
      double sum = 0;
      double chosenUtility = 0;
      for (int k = 0; k < p.choiceCount; k++) {
        double a = 0;
        for (int s = 0; s < d; s++) {
          a += z[s] * p.embeddings[(i * p.choiceCount + k) * d + s];
        }
        sum += Math.exp(a);
        if (k == SMALL_DATA.choice(user, i)) {
          chosenUtility = a;
        }
      }
      total += chosenUtility - Math.log(sum);
    }
    double quadratic = 0;
    for (int s = 0; s < d; s++) {
      for (int t = 0; t < d; t++) {
        quadratic += (z[s] - p.mean[s]) * p.precision[s * d + t] * (z[t] - p.mean[t]);
      }
    }
    return total - 0.5 * quadratic;
  }

  // ---- M-step ----

  @Test
  void embeddingUpdateReachesAStationaryPointOfItsObjective() {
    int users = 40;
    SynthModel truth = SynthModel.randomTruth(2, 3, 2, 21);
    ChoiceData data = truth.sample(users, 22);
    java.util.SplittableRandom random = new java.util.SplittableRandom(23);
    // [λ_u, v_u] rows (VEM), then two weighted draws per user (v = 0).
    double[] meanAndVariance = new double[users * 4];
    double[] draws = new double[users * 2 * 2];
    double[] drawWeights = new double[users * 2];
    for (int u = 0; u < users; u++) {
      meanAndVariance[4 * u] = random.nextGaussian();
      meanAndVariance[4 * u + 1] = random.nextGaussian();
      meanAndVariance[4 * u + 2] = 0.2 + random.nextDouble();
      meanAndVariance[4 * u + 3] = 0.2 + random.nextDouble();
      for (int j = 0; j < 4; j++) {
        draws[4 * u + j] = random.nextGaussian();
      }
      drawWeights[2 * u] = random.nextDouble();
      drawWeights[2 * u + 1] = 1 - drawWeights[2 * u];
    }
    for (PosteriorPoints points :
        List.of(
            new PosteriorPoints(meanAndVariance, 4, 1, null),
            new PosteriorPoints(draws, 2, 2, drawWeights))) {
      double[] embeddings = truth.embeddings().clone();
      EmbeddingUpdate update = new EmbeddingUpdate(3, 2, 100, 0, Kernels.get());
      double objective = update.update(1, embeddings, data, points);
      double h = 1e-5;
      for (int j = 6; j < 12; j++) {
        double[] plus = embeddings.clone();
        double[] minus = embeddings.clone();
        plus[j] += h;
        minus[j] -= h;
        double derivative =
            (itemObjective(plus, data, points) - itemObjective(minus, data, points)) / (2 * h);
        assertEquals(0, derivative, 1e-5, "width " + points.width() + ": dF/dB[" + j + "]");
      }
      assertEquals(itemObjective(embeddings, data, points), objective, 1e-9);
    }
  }

  /**
   * F_1 written out: Σ over points of w (z'β_{1,x} − log Σ_k exp(z'β_1k + ½ Σ_s v_s β_1ks²)) −
   * ½|B_1|², v = 0 for draws.
   */
  private static double itemObjective(
      double[] embeddings, ChoiceData data, PosteriorPoints points) {
    double total = 0;
    int width = points.width();
    for (int point = 0; point < data.users() * points.pointsPerUser(); point++) {
      double[] row = Arrays.copyOfRange(points.rows(), point * width, (point + 1) * width);
      double sum = 0;
      double linearChosen = 0;
      for (int k = 0; k < 3; k++) {
        double b0 = embeddings[(3 + k) * 2];
        double b1 = embeddings[(3 + k) * 2 + 1];
        double linear = row[0] * b0 + row[1] * b1;
        double quadratic = width == 4 ? row[2] * b0 * b0 + row[3] * b1 * b1 : 0;
        sum += Math.exp(linear + 0.5 * quadratic);
        if (k == data.choice(point / points.pointsPerUser(), 1)) {
          linearChosen = linear;
        }
      }
      total += points.weight(point) * (linearChosen - Math.log(sum));
    }
    double prior = 0;
    for (int j = 6; j < 12; j++) {
      prior += embeddings[j] * embeddings[j];
    }
    return total - 0.5 * prior;
  }

  // ---- the whole fit ----

  @Test
  void variationalEmBoundNeverDecreasesAndIsReproducibleAcrossThreadCounts()
      throws InterruptedException {
    ChoiceData data = SynthModel.randomTruth(6, 4, 2, 31).sample(400, 32);
    List<Double> bounds = new ArrayList<>();
    VariationalEm.Result one =
        VariationalEm.fit(
            data,
            new VariationalEm.Options(2, VariationalEm.Method.VEM, 1, 25, 0, 33, 3, 0),
            null,
            it -> bounds.add(it.bound()));
    for (int t = 1; t < bounds.size(); t++) {
      assertTrue(
          bounds.get(t) >= bounds.get(t - 1) - 1e-9 * Math.abs(bounds.get(t)),
          "bound fell at iteration " + (t + 1) + ": " + bounds);
    }
    VariationalEm.Result two =
        VariationalEm.fit(
            data,
            new VariationalEm.Options(2, VariationalEm.Method.VEM, 2, 25, 0, 33, 3, 0),
            null,
            it -> {});
    assertArrayEquals(one.model().embeddings(), two.model().embeddings());
    assertArrayEquals(one.model().covariance(), two.model().covariance());
  }

  @Test
  void importanceSamplingEmKeepsTheTruthsCovariance() throws InterruptedException {
    SynthModel truth = SynthModel.randomTruth(10, 4, 2, 41);
    ChoiceData data = truth.sample(1500, 42);
    VariationalEm.Result fit =
        VariationalEm.fit(
            data,
            new VariationalEm.Options(2, VariationalEm.Method.IMPORTANCE, 2, 4, 0, 43, 3, 16),
            truth,
            it -> {});
    double ratio = CovarianceRecovery.compare(truth, fit.model()).traceRatio();
    assertTrue(ratio > 0.85 && ratio < 1.15, "utility variance ratio " + ratio);
  }

  // ---- reports ----

  @Test
  void fidelityReportOfKnownTables() {
    // item 1 copies item 0 (V = 1), item 2 is independent of both by construction (V = 0).
    int[] choices = new int[4 * 3 * 2];
    int u = 0;
    for (int a = 0; a < 2; a++) {
      for (int b = 0; b < 2; b++) {
        for (int repeat = 0; repeat < 2; repeat++) {
          choices[u * 3] = a;
          choices[u * 3 + 1] = a;
          choices[u * 3 + 2] = b;
          u++;
        }
      }
    }
    ChoiceData real = new ChoiceData(8, 3, 2, choices);
    FidelityReport same = FidelityReport.compare(real, real);
    assertEquals(0, same.maxMarginalDistance());
    assertEquals(1, same.realCramersV(0, 1), 1e-15);
    assertEquals(0, same.realCramersV(0, 2), 1e-15);
    ChoiceData allZero = new ChoiceData(8, 3, 2, new int[24]);
    FidelityReport other = FidelityReport.compare(real, allZero);
    assertEquals(0.5, other.marginalDistance(0), 1e-15);
    assertEquals((1 + 0 + 0) / 3.0, other.meanAbsCramersVDifference(), 1e-15);
  }

  @Test
  void covarianceRecoveryIsBlindToTheGauge() {
    SynthModel truth = SynthModel.randomTruth(5, 4, 2, 51);
    double[] a = {1.5, 0.3, -0.4, 0.8};
    double[] aInverse = {0.8 / 1.32, -0.3 / 1.32, 0.4 / 1.32, 1.5 / 1.32};
    // z' = A z, β' = A^-T β: Σ' = A Σ A', rows of B' = rows of B times A^-1.
    double[] sigma = truth.covariance();
    double[] sigmaPrime = new double[4];
    for (int s = 0; s < 2; s++) {
      for (int t = 0; t < 2; t++) {
        for (int q = 0; q < 2; q++) {
          for (int r = 0; r < 2; r++) {
            sigmaPrime[s * 2 + t] += a[s * 2 + q] * sigma[q * 2 + r] * a[t * 2 + r];
          }
        }
      }
    }
    double[] b = truth.embeddings();
    double[] bPrime = new double[b.length];
    for (int c = 0; c < b.length / 2; c++) {
      for (int t = 0; t < 2; t++) {
        bPrime[c * 2 + t] = b[c * 2] * aInverse[t] + b[c * 2 + 1] * aInverse[2 + t];
      }
    }
    SynthModel moved = new SynthModel(5, 4, 2, truth.mean(), sigmaPrime, bPrime);
    CovarianceRecovery recovery = CovarianceRecovery.compare(truth, moved);
    assertEquals(1, recovery.traceRatio(), 1e-12);
    assertEquals(1, recovery.slope(), 1e-12);
    assertArrayEquals(sigma, recovery.alignedCovariance(), 1e-12);
  }
}
