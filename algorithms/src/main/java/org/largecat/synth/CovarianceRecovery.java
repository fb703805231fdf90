package org.largecat.synth;

import java.util.Locale;
import org.largecat.kernel.Kernels;
import org.largecat.kernel.MatrixOps;

/**
 * How well a fitted model recovers the Σ of the model its data were simulated from. Σ alone is not
 * identified: z → A'z, β → A⁻¹β (and a shift of each item's β_ik by a common vector) leave model
 * (1) unchanged. Two measures that respect this:
 *
 * <ul>
 *   <li>the covariance of the users' utilities, C = B̄ Σ B̄' over the I K cells (B̄: each item's
 *       β_ik minus their mean over k), which is invariant: {@code traceRatio} = tr C_fit / tr
 *       C_true (below 1 is shrinkage), {@code slope} = ⟨C_fit, C_true⟩ / ⟨C_true, C_true⟩
 *       (least-squares slope of the entries of C_fit on those of C_true) and their correlation;
 *   <li>Σ_fit carried into the truth's coordinates: X = argmin |B̄_true − B̄_fit X| by least
 *       squares, Σ_aligned = X⁻¹ Σ_fit X⁻ᵀ, reported next to Σ_true with the alignment's relative
 *       residual.
 * </ul>
 */
public final class CovarianceRecovery {
  private final int latent;
  private final double traceRatio;
  private final double slope;
  private final double correlation;
  private final double[] trueCovariance;
  private final double[] alignedCovariance;
  private final double alignmentResidual;

  private CovarianceRecovery(
      int latent,
      double traceRatio,
      double slope,
      double correlation,
      double[] trueCovariance,
      double[] alignedCovariance,
      double alignmentResidual) {
    this.latent = latent;
    this.traceRatio = traceRatio;
    this.slope = slope;
    this.correlation = correlation;
    this.trueCovariance = trueCovariance;
    this.alignedCovariance = alignedCovariance;
    this.alignmentResidual = alignmentResidual;
  }

  /**
   * Compares a fitted model with the truth; both must have the same items, choices and latent
   * dimension.
   */
  public static CovarianceRecovery compare(SynthModel truth, SynthModel fitted) {
    if (truth.items() != fitted.items()
        || truth.choiceCount() != fitted.choiceCount()
        || truth.latent() != fitted.latent()) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "truth has items=%d choices=%d latent=%d, fitted model items=%d choices=%d latent=%d; they must match",
              truth.items(),
              truth.choiceCount(),
              truth.latent(),
              fitted.items(),
              fitted.choiceCount(),
              fitted.latent()));
    }
    MatrixOps ops = Kernels.get().matrixOps();
    int d = truth.latent();
    int cells = truth.items() * truth.choiceCount();
    double[] bTrue = centred(truth);
    double[] bFit = centred(fitted);
    double[] hTrue = new double[d * d];
    double[] hFit = new double[d * d];
    double[] cross = new double[d * d];
    ops.gemm(true, false, d, d, cells, 1, bTrue, 0, d, bTrue, 0, d, 0, hTrue, 0, d);
    ops.gemm(true, false, d, d, cells, 1, bFit, 0, d, bFit, 0, d, 0, hFit, 0, d);
    ops.gemm(true, false, d, d, cells, 1, bFit, 0, d, bTrue, 0, d, 0, cross, 0, d);
    double[] sTrue = truth.covariance();
    double[] sFit = fitted.covariance();
    double traceTrue = trace(product(sTrue, hTrue, d), d);
    double traceFit = trace(product(sFit, hFit, d), d);
    // ⟨C_f, C_t⟩ = tr(Σ_f G Σ_t G'), G = B̄_f'B̄_t; |C|² = tr(Σ H Σ H), H = B̄'B̄.
    double inner =
        trace(product(product(sFit, cross, d), product(sTrue, transpose(cross, d), d), d), d);
    double normTrue = trace(product(product(sTrue, hTrue, d), product(sTrue, hTrue, d), d), d);
    double normFit = trace(product(product(sFit, hFit, d), product(sFit, hFit, d), d), d);
    double[] alignment = product(inverse(hFit, d), cross, d);
    double[] alignmentInverse = inverse(alignment, d);
    double[] aligned =
        product(product(alignmentInverse, sFit, d), transpose(alignmentInverse, d), d);
    double[] fittedAsTrue = new double[cells * d];
    ops.gemm(false, false, cells, d, d, 1, bFit, 0, d, alignment, 0, d, 0, fittedAsTrue, 0, d);
    double residual = 0;
    double total = 0;
    for (int j = 0; j < fittedAsTrue.length; j++) {
      residual += (bTrue[j] - fittedAsTrue[j]) * (bTrue[j] - fittedAsTrue[j]);
      total += bTrue[j] * bTrue[j];
    }
    return new CovarianceRecovery(
        d,
        traceFit / traceTrue,
        inner / normTrue,
        inner / Math.sqrt(normTrue * normFit),
        sTrue.clone(),
        aligned,
        residual / total);
  }

  /** tr C_fit / tr C_true: the utilities' total variance, fitted over true. */
  public double traceRatio() {
    return traceRatio;
  }

  /** Least-squares slope of the entries of C_fit on those of C_true. */
  public double slope() {
    return slope;
  }

  public double correlation() {
    return correlation;
  }

  /** The latent dimension d. */
  public int latent() {
    return latent;
  }

  /** Σ_true, d x d row-major. */
  public double[] trueCovariance() {
    return trueCovariance.clone();
  }

  /** Σ_fit in the truth's coordinates, d x d row-major. */
  public double[] alignedCovariance() {
    return alignedCovariance.clone();
  }

  /** |B̄_true − B̄_fit X|² / |B̄_true|²: how far the alignment X is from exact. */
  public double alignmentResidual() {
    return alignmentResidual;
  }

  /** Mean over s of Σ_aligned,ss / Σ_true,ss. */
  public double meanVarianceRatio() {
    double total = 0;
    for (int s = 0; s < latent; s++) {
      total += alignedCovariance[s * latent + s] / trueCovariance[s * latent + s];
    }
    return total / latent;
  }

  public String toText() {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "utility covariance C = B'SigmaB: tr C_fit / tr C_true = %.4f, slope = %.4f, correlation = %.4f%n",
            traceRatio,
            slope,
            correlation));
    out.append(
        String.format(
            Locale.ROOT,
            "Sigma aligned to the truth's coordinates (alignment residual %.4f): mean variance ratio %.4f%n",
            alignmentResidual,
            meanVarianceRatio()));
    FidelityReport.appendMatrix(out, "Sigma true", trueCovariance);
    FidelityReport.appendMatrix(out, "Sigma fitted, aligned", alignedCovariance);
    return out.toString();
  }

  /** B with each item's mean embedding (over its K choices) subtracted. */
  private static double[] centred(SynthModel model) {
    int d = model.latent();
    int k = model.choiceCount();
    double[] b = model.embeddings().clone();
    for (int i = 0; i < model.items(); i++) {
      for (int s = 0; s < d; s++) {
        double mean = 0;
        for (int c = 0; c < k; c++) {
          mean += b[(i * k + c) * d + s];
        }
        mean /= k;
        for (int c = 0; c < k; c++) {
          b[(i * k + c) * d + s] -= mean;
        }
      }
    }
    return b;
  }

  private static double[] product(double[] a, double[] b, int n) {
    double[] c = new double[n * n];
    Kernels.get().matrixOps().gemm(false, false, n, n, n, 1, a, 0, n, b, 0, n, 0, c, 0, n);
    return c;
  }

  private static double[] transpose(double[] a, int n) {
    double[] t = new double[n * n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        t[j * n + i] = a[i * n + j];
      }
    }
    return t;
  }

  private static double trace(double[] a, int n) {
    double t = 0;
    for (int i = 0; i < n; i++) {
      t += a[i * n + i];
    }
    return t;
  }

  /** Gauss-Jordan inverse with partial pivoting of a small n x n matrix. */
  private static double[] inverse(double[] a, int n) {
    double[] m = a.clone();
    double[] inv = ModelParameters.identity(n);
    for (int col = 0; col < n; col++) {
      int pivot = col;
      for (int r = col + 1; r < n; r++) {
        if (Math.abs(m[r * n + col]) > Math.abs(m[pivot * n + col])) {
          pivot = r;
        }
      }
      if (m[pivot * n + col] == 0) {
        throw new IllegalArgumentException(
            "the fitted embeddings are rank deficient; cannot align them to the truth");
      }
      for (int j = 0; j < n; j++) {
        double tmp = m[col * n + j];
        m[col * n + j] = m[pivot * n + j];
        m[pivot * n + j] = tmp;
        tmp = inv[col * n + j];
        inv[col * n + j] = inv[pivot * n + j];
        inv[pivot * n + j] = tmp;
      }
      double scale = 1 / m[col * n + col];
      for (int j = 0; j < n; j++) {
        m[col * n + j] *= scale;
        inv[col * n + j] *= scale;
      }
      for (int r = 0; r < n; r++) {
        if (r != col) {
          double f = m[r * n + col];
          for (int j = 0; j < n; j++) {
            m[r * n + j] -= f * m[col * n + j];
            inv[r * n + j] -= f * inv[col * n + j];
          }
        }
      }
    }
    return inv;
  }
}
