package org.largecat.synth;

import org.largecat.kernel.MatrixOps;

/**
 * The parameters θ = (μ, Σ, B) of model (1) as the E-step reads them: besides μ and B, the
 * precision Σ⁻¹ with log |Σ⁻¹|, and per cell (i, k) the feature row [β_ik, ½β_ik²] (2d wide), whose
 * product with [λ; v] is the variational log-moment log E_q exp(z'β_ik) = λ'β_ik + ½ Σ_s v_s β_iks²
 * (§3). Immutable once built; shared by all threads.
 */
final class ModelParameters {
  final int items;
  final int choiceCount;
  final int latent;
  final double[] mean;
  final double[] covariance;
  final double[] embeddings;
  final double[] features;
  final double[] precision;
  final double logDetPrecision;

  ModelParameters(
      int items,
      int choiceCount,
      int latent,
      double[] mean,
      double[] covariance,
      double[] embeddings,
      MatrixOps matrixOps) {
    this.items = items;
    this.choiceCount = choiceCount;
    this.latent = latent;
    this.mean = mean;
    this.covariance = covariance;
    this.embeddings = embeddings;
    this.features = new double[2 * embeddings.length];
    for (int c = 0; c < items * choiceCount; c++) {
      for (int s = 0; s < latent; s++) {
        double b = embeddings[c * latent + s];
        features[c * 2 * latent + s] = b;
        features[c * 2 * latent + latent + s] = 0.5 * b * b;
      }
    }
    double[] factor = covariance.clone();
    matrixOps.choleskyFactor(latent, factor, 0, latent);
    double logDetCovariance = 0;
    for (int s = 0; s < latent; s++) {
      logDetCovariance += 2 * Math.log(factor[s * latent + s]);
    }
    this.logDetPrecision = -logDetCovariance;
    this.precision = identity(latent);
    matrixOps.choleskySolve(latent, latent, factor, 0, latent, precision, 0, latent);
  }

  /** K I, the number of (item, choice) cells. */
  int cells() {
    return items * choiceCount;
  }

  static double[] identity(int n) {
    double[] m = new double[n * n];
    for (int s = 0; s < n; s++) {
      m[s * n + s] = 1;
    }
    return m;
  }
}
