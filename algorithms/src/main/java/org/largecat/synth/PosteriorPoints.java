package org.largecat.synth;

/**
 * What the B-step sees of the E-step: {@code pointsPerUser} rows per user, each {@code width} wide
 * with a weight (null: 1 / pointsPerUser each). Width 2d: [λ_u, v_u], one row per user, q(z_u) =
 * N(λ_u, diag(v_u)) as VEM fits it. Width d: draws z_us ~ q(z_u), S per user, with equal weights
 * (Monte Carlo) or self-normalised importance weights p(x_u, z_us) / q(z_us).
 */
record PosteriorPoints(double[] rows, int width, int pointsPerUser, double[] pointWeights) {

  double weight(int point) {
    return pointWeights == null ? 1.0 / pointsPerUser : pointWeights[point];
  }
}
