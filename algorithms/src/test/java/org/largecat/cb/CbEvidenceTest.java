package org.largecat.cb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.largecat.data.Dataset;
import org.largecat.kernel.Kernels;
import org.largecat.special.Normal;

/**
 * The evidence bound behind the BMA weights (Sec. 4, Eq. 3.2.1), checked on a problem small enough
 * to integrate: K = 2 categories, an intercept and one covariate, so B has four coordinates and
 * q(B) = q(beta_1) q(beta_2) is two 2-D Gaussians. Tensor Gauss-Hermite quadrature gives E_q[log
 * p_c(y | B)] and the log evidence log p_c(y) itself; the KL is the textbook Gaussian formula with
 * the covariance factored here. None of it goes through the engine's sampler, KL or CB probability
 * kernels.
 */
class CbEvidenceTest {
  private static final Kernels SCALAR = Kernels.of("scalar");
  private static final int SAMPLES = 20_000;
  private static final int NODES = 16;

  @ParameterizedTest
  @CsvSource({"PROBIT, false", "LOGIT, false", "PROBIT, true", "LOGIT, true"})
  void monteCarloBoundMatchesQuadratureAndStaysBelowTheEvidence(Link link, boolean diagonal) {
    // sigma_low = 2: with M = 1 < K no covariate group exists, so the one covariate predicts
    // through sigma_low.
    Dataset data = CbSimulation.generate(12, 2, 1, 2.0, 2.0, 0.5, 5).data();
    CaviFit fit =
        IbCavi.fit(
            data,
            GaussianPrior.isotropic(2, 1),
            CaviOptions.of(link).withDiagonal(diagonal).withThreads(1),
            SCALAR);
    CbPosterior q = fit.posterior();
    CbPredictor.ModelEvidence mc =
        new CbPredictor(q, SCALAR)
            .evidence(Design.withIntercept(data.features(), SCALAR), data.labels(), SAMPLES, 11);

    double[][] x = new double[data.rows()][];
    for (int i = 0; i < x.length; i++) {
      x[i] = CbTestData.row(data, i);
    }
    double[] mu = q.means(); // 2 x 2 row-major, column k is mu_k
    double[][] mean = {{mu[0], mu[2]}, {mu[1], mu[3]}};
    double[][] cov = {q.covariance(0), q.covariance(1)};
    double kl = 0;
    for (int k = 0; k < 2; k++) {
      // KL(N(m, S) || N(0, I)) = (tr S + m^T m - d - log det S) / 2
      kl +=
          0.5
              * (cov[k][0]
                  + cov[k][3]
                  + mean[k][0] * mean[k][0]
                  + mean[k][1] * mean[k][1]
                  - 2
                  - CbTestData.logDet(cov[k], 2));
    }
    double[][] rule = gaussHermite(NODES);
    double[] zMoments = new double[3];
    for (int i = 0; i < NODES; i++) {
      double z2 = rule[0][i] * rule[0][i];
      zMoments[0] += rule[1][i];
      zMoments[1] += rule[1][i] * z2;
      zMoments[2] += rule[1][i] * z2 * z2;
    }
    org.junit.jupiter.api.Assertions.assertArrayEquals(
        new double[] {1, 1, 3}, zMoments, 1e-12, "E 1, E Z^2, E Z^4");
    for (CbModel model : CbModel.values()) {
      // E_q[L] and E_q[L^2] of L = log p_c(y | B), and log E_r[p_c(y | B) pi(B) / r(B)] with r = q
      // widened 2x.
      double[] moments = new double[2];
      double[] evidence = {Double.NEGATIVE_INFINITY};
      forEachNode(
          rule,
          mean,
          cov,
          1,
          (b, w) -> {
            double l = logLikelihood(link, model, x, data.labels(), b);
            moments[0] += w * l;
            moments[1] += w * l * l;
          });
      forEachNode(
          rule,
          mean,
          cov,
          2,
          (b, w) -> {
            double logTerm =
                Math.log(w)
                    + logLikelihood(link, model, x, data.labels(), b)
                    + logPrior(b)
                    - logDensity(b, mean, cov, 2);
            double hi = Math.max(evidence[0], logTerm);
            evidence[0] = hi + Math.log(Math.exp(evidence[0] - hi) + Math.exp(logTerm - hi));
          });
      double bound = moments[0] - kl;
      double standardError = Math.sqrt(moments[1] - moments[0] * moments[0]) / Math.sqrt(SAMPLES);
      double estimate = model == CbModel.CBC ? mc.logEvidenceCbc() : mc.logEvidenceCbm();
      assertEquals(bound, estimate, 5 * standardError, model + ": Monte-Carlo bound vs quadrature");
      assertTrue(
          estimate <= evidence[0] + 5 * standardError,
          model + ": bound " + estimate + " above the log evidence " + evidence[0]);
      assertTrue(
          evidence[0] - bound > 0.01,
          model + ": the gap to the evidence is real, " + (evidence[0] - bound));
    }
  }

  /** Work at one quadrature node: B as {beta_1, beta_2} and the node's weight. */
  private interface NodeWork {
    void run(double[][] b, double weight);
  }

  /** Tensor Gauss-Hermite over q(beta_1) q(beta_2) with each covariance scaled by scale^2. */
  private static void forEachNode(
      double[][] rule, double[][] mean, double[][] cov, double scale, NodeWork work) {
    double[][] chol = new double[2][];
    for (int k = 0; k < 2; k++) {
      double l00 = Math.sqrt(cov[k][0]);
      double l10 = cov[k][2] / l00;
      chol[k] = new double[] {scale * l00, scale * l10, scale * Math.sqrt(cov[k][3] - l10 * l10)};
    }
    int n = rule[0].length;
    double[][] b = new double[2][2];
    for (int a = 0; a < n; a++) {
      for (int c = 0; c < n; c++) {
        for (int e = 0; e < n; e++) {
          for (int f = 0; f < n; f++) {
            int[] z = {a, c, e, f};
            for (int k = 0; k < 2; k++) {
              double z0 = rule[0][z[2 * k]];
              double z1 = rule[0][z[2 * k + 1]];
              b[k][0] = mean[k][0] + chol[k][0] * z0;
              b[k][1] = mean[k][1] + chol[k][1] * z0 + chol[k][2] * z1;
            }
            work.run(b, rule[1][a] * rule[1][c] * rule[1][e] * rule[1][f]);
          }
        }
      }
    }
  }

  /**
   * sum_i log p_c(y_i | x_i, B) from Eqs. 2.4.1 / 2.4.2, K = 2, in logs (the widened nodes reach
   * utilities where H rounds to 1): CBM a_k = log H(eta_k), CBC a_k = log H(eta_k) + log(1 -
   * H(eta_other)).
   */
  private static double logLikelihood(
      Link link, CbModel model, double[][] x, int[] labels, double[][] b) {
    double s = 0;
    for (int i = 0; i < x.length; i++) {
      double[] logH = new double[2];
      double[] logOneMinusH = new double[2];
      for (int k = 0; k < 2; k++) {
        double eta = b[k][0] * x[i][0] + b[k][1] * x[i][1];
        logH[k] = logCdf(link, eta);
        logOneMinusH[k] = logCdf(link, -eta);
      }
      double[] a =
          model == CbModel.CBM
              ? logH
              : new double[] {logH[0] + logOneMinusH[1], logH[1] + logOneMinusH[0]};
      double hi = Math.max(a[0], a[1]);
      s += a[labels[i]] - hi - Math.log(Math.exp(a[0] - hi) + Math.exp(a[1] - hi));
    }
    return s;
  }

  /** log H(eta): log Phi, or log sigma(eta) = -log(1 + e^-eta) written for both signs. */
  private static double logCdf(Link link, double eta) {
    if (link == Link.PROBIT) {
      return Normal.logCdf(eta);
    }
    return eta >= 0 ? -Math.log1p(Math.exp(-eta)) : eta - Math.log1p(Math.exp(eta));
  }

  /** log N(B | 0, I). */
  private static double logPrior(double[][] b) {
    double s = 0;
    for (double[] beta : b) {
      for (double v : beta) {
        s -= 0.5 * (v * v + Math.log(2 * Math.PI));
      }
    }
    return s;
  }

  /** log of q(B) with each covariance scaled by scale^2. */
  private static double logDensity(double[][] b, double[][] mean, double[][] cov, double scale) {
    double s = 0;
    for (int k = 0; k < 2; k++) {
      double[] c = new double[4];
      for (int j = 0; j < 4; j++) {
        c[j] = scale * scale * cov[k][j];
      }
      double[] d = {b[k][0] - mean[k][0], b[k][1] - mean[k][1]};
      double[] solved = CbTestData.solve(c, d);
      s -=
          0.5
              * (d[0] * solved[0]
                  + d[1] * solved[1]
                  + CbTestData.logDet(c, 2)
                  + 2 * Math.log(2 * Math.PI));
    }
    return s;
  }

  /**
   * Gauss-Hermite nodes and weights for E f(Z), Z ~ N(0, 1): the physicists' rule for weight
   * e^{-t^2} (roots of H_n by Newton from the usual asymptotic guesses), then z = sqrt(2) t, w /
   * sqrt(pi).
   */
  static double[][] gaussHermite(int n) {
    double[] t = new double[n];
    double[] w = new double[n];
    double z = 0;
    for (int i = 0; i < (n + 1) / 2; i++) {
      if (i == 0) {
        z = Math.sqrt(2.0 * n + 1) - 1.85575 * Math.pow(2.0 * n + 1, -1.0 / 6);
      } else if (i == 1) {
        z -= 1.14 * Math.pow(n, 0.426) / z;
      } else if (i == 2) {
        z = 1.86 * z - 0.86 * t[0];
      } else if (i == 3) {
        z = 1.91 * z - 0.91 * t[1];
      } else {
        z = 2.0 * z - t[i - 2];
      }
      double derivative = 0;
      for (int iteration = 0; iteration < 100; iteration++) {
        // orthonormal recurrence: p_j = z sqrt(2/j) p_{j-1} - sqrt((j-1)/j) p_{j-2}
        double p1 = Math.pow(Math.PI, -0.25);
        double p2 = 0;
        for (int j = 1; j <= n; j++) {
          double p3 = p2;
          p2 = p1;
          p1 = z * Math.sqrt(2.0 / j) * p2 - Math.sqrt((j - 1.0) / j) * p3;
        }
        derivative = Math.sqrt(2.0 * n) * p2;
        double step = p1 / derivative;
        z -= step;
        if (Math.abs(step) <= 1e-14) {
          break;
        }
      }
      t[i] = z;
      t[n - 1 - i] = -z;
      w[i] = 2.0 / (derivative * derivative);
      w[n - 1 - i] = w[i];
    }
    double[][] rule = new double[2][n];
    for (int i = 0; i < n; i++) {
      rule[0][i] = Math.sqrt(2) * t[i];
      rule[1][i] = w[i] / Math.sqrt(Math.PI);
    }
    return rule;
  }
}
