package org.largecat.synth;

/**
 * What the B-step sees of the E-step: {@code pointsPerUser} points of d per user, each with a weight
 * (null: 1 / pointsPerUser each) and, when {@code covariance} is not null, one d x d covariance V_u per
 * point ({@code diagonal}: only the diagonal is nonzero). VEM and Laplace on the ζ bound: the λ_u with
 * their V_u. Monte Carlo: draws z_us ~ q(z_u) with V = 0, equal weights; importance sampling: the same
 * draws with self-normalised weights p(x_u, z_us) / q(z_us).
 */
record PosteriorPoints(double[] points, int pointsPerUser, double[] pointWeights, double[] covariance,
    boolean diagonal) {

  double weight(int point) {
    return pointWeights == null ? 1.0 / pointsPerUser : pointWeights[point];
  }
}
