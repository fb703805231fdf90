package org.largecat.synth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.largecat.kernel.Kernels;
import org.largecat.kernel.MatrixOps;

/**
 * §5.4 (β prior, MGF of §5.4.3): the MGF against quadrature, its derivatives, both coordinate
 * steps, the EM loop.
 */
class BetaPriorEmTest {
  private static final MatrixOps MATRIX_OPS = Kernels.get().matrixOps();

  /** (λ, v, ψ, w) cases: ordinary, negative means, v w near 1, tiny variances. */
  private static final double[][] CASES = {
    {0.3, 0.5, -0.7, 0.4},
    {-1.2, 1.5, 0.8, 0.2},
    {2.0, 0.9, 1.1, 1.0},
    {0.5, 1.9, -0.4, 0.5},
    {-0.1, 1e-4, 0.3, 1e-3},
    {1.5, 0.3, -2.0, 3.0}
  };

  // ---- the moment-generating function of §5.4.3 ----

  /**
   * log E_β E_z exp(zβ) by Simpson's rule over β of exp(λβ + vβ²/2) N(β; ψ, w), an integral that
   * does not go through the non-central χ² of §5.4.3.
   */
  private static double logMomentByQuadrature(double lambda, double v, double psi, double w) {
    double curvature = (1 - v * w) / w;
    double centre = (lambda + psi / w) / curvature;
    double spread = 1 / Math.sqrt(curvature);
    int intervals = 20_000;
    double low = centre - 40 * spread;
    double h = 80 * spread / intervals;
    double largest = Double.NEGATIVE_INFINITY;
    double[] exponent = new double[intervals + 1];
    for (int j = 0; j <= intervals; j++) {
      double beta = low + j * h;
      exponent[j] = lambda * beta + 0.5 * v * beta * beta - (beta - psi) * (beta - psi) / (2 * w);
      largest = Math.max(largest, exponent[j]);
    }
    double sum = 0;
    for (int j = 0; j <= intervals; j++) {
      double weight = j == 0 || j == intervals ? 1 : (j % 2 == 1 ? 4 : 2);
      sum += weight * Math.exp(exponent[j] - largest);
    }
    return largest + Math.log(sum * h / 3) - 0.5 * Math.log(2 * Math.PI * w);
  }

  @Test
  void momentGeneratingFunctionMatchesQuadratureAndIsSymmetric() {
    for (double[] c : CASES) {
      double exact = GaussianMoment.log(c[0], c[1], c[2], c[3]);
      assertEquals(
          logMomentByQuadrature(c[0], c[1], c[2], c[3]),
          exact,
          1e-9 * Math.max(1, Math.abs(exact)),
          () -> java.util.Arrays.toString(c));
      assertEquals(
          exact, GaussianMoment.log(c[2], c[3], c[0], c[1]), 1e-12 * Math.max(1, Math.abs(exact)));
      double[] out = new double[GaussianMoment.COUNT];
      assertTrue(GaussianMoment.derivatives(c[0], c[1], c[2], c[3], out, 0));
      assertEquals(exact, out[0], 1e-12 * Math.max(1, Math.abs(exact)));
    }
    // w = 0: β known, f = exp(λβ + vβ²/2) (the §3 log-moment).
    assertEquals(0.3 * 1.7 + 0.5 * 0.8 * 1.7 * 1.7, GaussianMoment.log(0.3, 0.8, 1.7, 0), 1e-14);
    assertEquals(Double.POSITIVE_INFINITY, GaussianMoment.log(0.1, 2, 0.2, 0.5));
    assertEquals(Double.POSITIVE_INFINITY, GaussianMoment.log(0.1, 2, 0.2, 0.6));
    assertFalse(GaussianMoment.derivatives(0.1, 2, 0.2, 0.6, new double[GaussianMoment.COUNT], 0));
  }

  @Test
  void derivativesMatchFiniteDifferences() {
    double[] out = new double[GaussianMoment.COUNT];
    double[] plus = new double[GaussianMoment.COUNT];
    double[] minus = new double[GaussianMoment.COUNT];
    for (double[] c : CASES) {
      GaussianMoment.derivatives(c[0], c[1], c[2], c[3], out, 0);
      double hl = 1e-5;
      double hv = 1e-5 * c[1];
      double dLambda =
          (GaussianMoment.log(c[0] + hl, c[1], c[2], c[3])
                  - GaussianMoment.log(c[0] - hl, c[1], c[2], c[3]))
              / (2 * hl);
      double dV =
          (GaussianMoment.log(c[0], c[1] + hv, c[2], c[3])
                  - GaussianMoment.log(c[0], c[1] - hv, c[2], c[3]))
              / (2 * hv);
      assertEquals(
          dLambda,
          out[1],
          1e-7 * Math.max(1, Math.abs(dLambda)),
          () -> "dh/dlambda " + java.util.Arrays.toString(c));
      assertEquals(
          dV,
          out[2],
          1e-6 * Math.max(1, Math.abs(dV)),
          () -> "dh/dv " + java.util.Arrays.toString(c));
      GaussianMoment.derivatives(c[0] + hl, c[1], c[2], c[3], plus, 0);
      GaussianMoment.derivatives(c[0] - hl, c[1], c[2], c[3], minus, 0);
      assertEquals((plus[1] - minus[1]) / (2 * hl), out[3], 1e-6 * Math.max(1, Math.abs(out[3])));
      assertEquals((plus[2] - minus[2]) / (2 * hl), out[4], 1e-6 * Math.max(1, Math.abs(out[4])));
      GaussianMoment.derivatives(c[0], c[1] + hv, c[2], c[3], plus, 0);
      GaussianMoment.derivatives(c[0], c[1] - hv, c[2], c[3], minus, 0);
      assertEquals((plus[1] - minus[1]) / (2 * hv), out[4], 1e-6 * Math.max(1, Math.abs(out[4])));
      assertEquals((plus[2] - minus[2]) / (2 * hv), out[5], 1e-6 * Math.max(1, Math.abs(out[5])));
    }
  }

  // ---- the coordinate steps against an independent bound ----

  /**
   * A small §5.4 problem: I items, K choices, d latent, q(β) means and variances, users' q(z),
   * data.
   */
  private record Problem(
      int items,
      int choices,
      int latent,
      double[] psi,
      double[] w,
      double[] lambda,
      double[] v,
      double[] mean,
      double[] precision,
      ChoiceData data) {

    static Problem random(int users, int items, int choices, int latent, long seed) {
      SplittableRandom random = new SplittableRandom(seed);
      double[] psi = new double[items * choices * latent];
      double[] w = new double[psi.length];
      for (int j = 0; j < psi.length; j++) {
        psi[j] = random.nextGaussian();
        w[j] = 0.05 + 0.3 * random.nextDouble();
      }
      double[] lambda = new double[users * latent];
      double[] v = new double[users * latent];
      for (int j = 0; j < lambda.length; j++) {
        lambda[j] = 0.5 * random.nextGaussian();
        v[j] = 0.2 + 0.5 * random.nextDouble();
      }
      double[] mean = new double[latent];
      double[] precision = new double[latent * latent];
      for (int s = 0; s < latent; s++) {
        mean[s] = 0.2 * (s + 1);
        for (int t = 0; t < latent; t++) {
          precision[s * latent + t] = s == t ? 1.5 : 0.4;
        }
      }
      int[] choices1 = new int[users * items];
      for (int j = 0; j < choices1.length; j++) {
        choices1[j] = random.nextInt(choices);
      }
      return new Problem(
          items,
          choices,
          latent,
          psi,
          w,
          lambda,
          v,
          mean,
          precision,
          new ChoiceData(users, items, choices, choices1));
    }

    /**
     * The user's part of the §5.4.1 bound, written out: Σ_i [λ'ψ_{i,x} − log Σ_k Π_s f] −
     * ½(λ−μ)'P(λ−μ) − ½ Σ_s P_ss v_s + ½ Σ_s log v_s.
     */
    double userBound(int user, double[] lambdaU, double[] vU) {
      double total = 0;
      for (int i = 0; i < items; i++) {
        double sum = 0;
        for (int k = 0; k < choices; k++) {
          double a = 0;
          for (int s = 0; s < latent; s++) {
            int j = (i * choices + k) * latent + s;
            a += GaussianMoment.log(lambdaU[s], vU[s], psi[j], w[j]);
          }
          sum += Math.exp(a);
        }
        int chosen = data.choice(user, i);
        for (int s = 0; s < latent; s++) {
          total += lambdaU[s] * psi[(i * choices + chosen) * latent + s];
        }
        total -= Math.log(sum);
      }
      for (int s = 0; s < latent; s++) {
        for (int t = 0; t < latent; t++) {
          total -=
              0.5 * (lambdaU[s] - mean[s]) * precision[s * latent + t] * (lambdaU[t] - mean[t]);
        }
        total += -0.5 * precision[s * latent + s] * vU[s] + 0.5 * Math.log(vU[s]);
      }
      return total;
    }

    /**
     * Item i's part of the bound in q(B_i), prior N(0, γ² I): Σ_u [λ_u'ψ_{i,x_ui} − log Σ_k Π_s f]
     * + Σ_k prior and entropy.
     */
    double itemBound(int item, double priorVariance) {
      double total = 0;
      for (int u = 0; u < data.users(); u++) {
        double sum = 0;
        for (int k = 0; k < choices; k++) {
          double a = 0;
          for (int s = 0; s < latent; s++) {
            int j = (item * choices + k) * latent + s;
            a += GaussianMoment.log(lambda[u * latent + s], v[u * latent + s], psi[j], w[j]);
          }
          sum += Math.exp(a);
        }
        int chosen = data.choice(u, item);
        for (int s = 0; s < latent; s++) {
          total += lambda[u * latent + s] * psi[(item * choices + chosen) * latent + s];
        }
        total -= Math.log(sum);
      }
      for (int j = item * choices * latent; j < (item + 1) * choices * latent; j++) {
        total += -(psi[j] * psi[j] + w[j]) / (2 * priorVariance) + 0.5 * Math.log(w[j]);
      }
      return total;
    }

    int[] userChoices(int user) {
      int[] chosen = new int[items];
      for (int i = 0; i < items; i++) {
        chosen[i] = data.choice(user, i);
      }
      return chosen;
    }
  }

  private static double fitUser(Problem p, int user) {
    MeanFieldNewton newton = new MeanFieldNewton(p.choices(), p.latent(), 1, 1e-13, MATRIX_OPS);
    return newton.maximise(
        new MeanFieldNewton.Layout(p.items(), 1, p.choices(), 1, 0),
        p.lambda(),
        p.v(),
        user * p.latent(),
        p.psi(),
        p.w(),
        p.userChoices(user),
        p.mean(),
        p.precision(),
        100);
  }

  @Test
  void userStepReachesTheBruteForceOptimumInOneDimension() {
    Problem p = Problem.random(1, 3, 3, 1, 21);
    double value = fitUser(p, 0);
    assertEquals(p.userBound(0, p.lambda(), p.v()), value, 1e-10 * Math.abs(value));
    // Grid over (λ, log v), zooming in five times around the best cell.
    double bestLambda = 0;
    double bestLogV = 0;
    double best = Double.NEGATIVE_INFINITY;
    double lambdaWidth = 4;
    double logVWidth = 6;
    double centreLambda = 0;
    double centreLogV = -1;
    for (int zoom = 0; zoom < 6; zoom++) {
      for (int a = -100; a <= 100; a++) {
        for (int b = -100; b <= 100; b++) {
          double lambda = centreLambda + lambdaWidth * a / 100;
          double logV = centreLogV + logVWidth * b / 100;
          double f = p.userBound(0, new double[] {lambda}, new double[] {Math.exp(logV)});
          if (f > best) {
            best = f;
            bestLambda = lambda;
            bestLogV = logV;
          }
        }
      }
      centreLambda = bestLambda;
      centreLogV = bestLogV;
      lambdaWidth /= 20;
      logVWidth /= 20;
    }
    assertTrue(value >= best - 1e-12 * Math.abs(best), value + " < grid optimum " + best);
    assertEquals(best, value, 1e-9 * Math.abs(best));
    assertEquals(bestLambda, p.lambda()[0], 1e-4);
    assertEquals(bestLogV, Math.log(p.v()[0]), 1e-4);
  }

  @Test
  void userStepIsStationaryInEveryCoordinate() {
    Problem p = Problem.random(2, 4, 3, 2, 22);
    for (int u = 0; u < 2; u++) {
      double before = p.userBound(u, row(p.lambda(), u, 2), row(p.v(), u, 2));
      double value = fitUser(p, u);
      double[] lambda = row(p.lambda(), u, 2);
      double[] v = row(p.v(), u, 2);
      assertTrue(value > before, value + " <= " + before);
      assertEquals(p.userBound(u, lambda, v), value, 1e-10 * Math.abs(value));
      for (int s = 0; s < 2; s++) {
        double h = 1e-5;
        double[] up = lambda.clone();
        double[] down = lambda.clone();
        up[s] += h;
        down[s] -= h;
        assertEquals(
            0,
            (p.userBound(u, up, v) - p.userBound(u, down, v)) / (2 * h),
            1e-6,
            "dL/dlambda_" + s);
        double[] vUp = v.clone();
        double[] vDown = v.clone();
        vUp[s] *= Math.exp(h);
        vDown[s] *= Math.exp(-h);
        assertEquals(
            0,
            (p.userBound(u, lambda, vUp) - p.userBound(u, lambda, vDown)) / (2 * h),
            1e-6,
            "dL/dlog v_" + s);
      }
    }
  }

  @Test
  void itemStepIsStationaryAndNeverLowersTheBound() {
    Problem p = Problem.random(40, 2, 3, 2, 23);
    double priorVariance = 0.8;
    double[] precision = {1 / priorVariance, 0, 0, 1 / priorVariance};
    MeanFieldNewton newton = new MeanFieldNewton(3, 2, 3, 0, MATRIX_OPS);
    MeanFieldNewton.Layout layout = new MeanFieldNewton.Layout(40, 3, 1, 0, 1);
    for (int item = 0; item < 2; item++) {
      int[] chosen = new int[40];
      for (int u = 0; u < 40; u++) {
        chosen[u] = p.data().choice(u, item);
      }
      double before = p.itemBound(item, priorVariance);
      double value =
          newton.maximise(
              layout,
              p.psi(),
              p.w(),
              item * 3 * 2,
              p.lambda(),
              p.v(),
              chosen,
              new double[2],
              precision,
              200);
      double after = p.itemBound(item, priorVariance);
      assertTrue(after > before, after + " <= " + before);
      assertEquals(after, value, 1e-10 * Math.abs(after));
      for (int j = item * 6; j < (item + 1) * 6; j++) {
        double h = 1e-5;
        double saved = p.psi()[j];
        p.psi()[j] = saved + h;
        double up = p.itemBound(item, priorVariance);
        p.psi()[j] = saved - h;
        double down = p.itemBound(item, priorVariance);
        p.psi()[j] = saved;
        assertEquals(0, (up - down) / (2 * h), 1e-6, "dL/dpsi " + j);
        saved = p.w()[j];
        p.w()[j] = saved * Math.exp(h);
        up = p.itemBound(item, priorVariance);
        p.w()[j] = saved * Math.exp(-h);
        down = p.itemBound(item, priorVariance);
        p.w()[j] = saved;
        assertEquals(0, (up - down) / (2 * h), 1e-6, "dL/dlog w " + j);
      }
    }
  }

  @Test
  void anInfeasibleStartIsAClearError() {
    Problem p = Problem.random(1, 2, 2, 1, 24);
    p.v()[0] = 4;
    p.w()[0] = 0.5;
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> fitUser(p, 0));
    assertTrue(e.getMessage().contains("1 − v w <= 0"), e.getMessage());
  }

  @Test
  void gammaSquaredIsTheArgmaxOfItsTerms() {
    double[] psi = {0.3, -1.2, 0.7, 2.0};
    double[] w = {0.1, 0.2, 0.05, 0.3};
    double gamma2 = BetaPriorEm.priorVariance(psi, w);
    assertEquals((0.09 + 1.44 + 0.49 + 4.0 + 0.65) / 4, gamma2, 1e-15);
    double at = BetaPriorEm.embeddingTerms(psi, w, gamma2, 2);
    assertTrue(at > BetaPriorEm.embeddingTerms(psi, w, gamma2 * 1.01, 2));
    assertTrue(at > BetaPriorEm.embeddingTerms(psi, w, gamma2 * 0.99, 2));
  }

  // ---- the EM loop ----

  private static VariationalEm.Result fit(ChoiceData data, int threads, int iterations)
      throws InterruptedException {
    return VariationalEm.fit(
        data,
        new VariationalEm.Options(
            2, VariationalEm.Method.BETA_PRIOR, threads, iterations, 0, 5, 3, 0),
        null,
        it -> {});
  }

  @Test
  void boundNeverDecreasesAndIsReproducibleAcrossThreadCounts() throws InterruptedException {
    ChoiceData data = SynthModel.randomTruth(6, 4, 2, 31).sample(300, 32);
    VariationalEm.Result one = fit(data, 1, 25);
    VariationalEm.Result two = fit(data, 2, 25);
    List<Double> bounds = new ArrayList<>();
    for (VariationalEm.Iteration it : one.iterations()) {
      bounds.add(it.bound());
    }
    for (int t = 1; t < bounds.size(); t++) {
      assertTrue(
          bounds.get(t) >= bounds.get(t - 1), "bound fell at iteration " + (t + 1) + ": " + bounds);
    }
    assertTrue(bounds.getLast() > bounds.getFirst() + 1, bounds.toString());
    assertEquals(0, one.boundDecreases());
    assertArrayEquals(one.model().embeddings(), two.model().embeddings());
    assertArrayEquals(one.lambda(), two.lambda());
    assertEquals(one.iterations().getLast().bound(), two.iterations().getLast().bound());
  }

  @Test
  void samplesAreRefusedForBetaPrior() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new VariationalEm.Options(2, VariationalEm.Method.BETA_PRIOR, 1, 5, 0, 1, 3, 4));
    assertTrue(
        e.getMessage().contains("--samples does not apply to --method beta-prior"), e.getMessage());
    assertEquals(VariationalEm.Method.BETA_PRIOR, VariationalEm.Method.parse("beta-prior"));
  }

  private static double[] row(double[] values, int row, int width) {
    return java.util.Arrays.copyOfRange(values, row * width, (row + 1) * width);
  }
}
