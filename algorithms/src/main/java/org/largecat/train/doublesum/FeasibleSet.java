package org.largecat.train.doublesum;

import org.largecat.special.Logistic;

/**
 * The bounded set of App. A that holds the optimum, onto which U-max projects (Algorithm 1, lines
 * 21–23). On the mean scale used here, −log K = L(0)/N ≤ L(W*)/N ≤ −(μ/2)‖W*‖² gives Lemma 1's ‖W*‖
 * ≤ B_W = √(2 log K / μ), and Lemma 2 gives u*_i ≤ B_u = log(1 + (K − 1) e^{2 B_x B_W}), evaluated
 * as softplus(log(K − 1) + 2 B_x B_W) so that it does not overflow. With μ = 0 both are infinite
 * and nothing is projected.
 *
 * @param weightNorm B_W, the bound on each extended row's norm ‖w̃_k‖ (Algorithm 1 projects row by
 *     row)
 * @param uUpper B_u
 * @param ramanLower the interval of Raman et al.'s u*_i = log Σ_k e^{ψ_k} (Eq. 8): log K − B_x B_W
 * @param ramanUpper log K + B_x B_W
 */
record FeasibleSet(double weightNorm, double uUpper, double ramanLower, double ramanUpper) {

  static FeasibleSet of(AugmentedData data, double ridge) {
    double weightNorm =
        ridge > 0 ? Math.sqrt(2 * Math.log(data.classes) / ridge) : Double.POSITIVE_INFINITY;
    double uUpper = Logistic.softplus(Math.log(data.classes - 1) + 2 * data.maxNorm * weightNorm);
    double spread = data.maxNorm * weightNorm;
    return new FeasibleSet(
        weightNorm, uUpper, Math.log(data.classes) - spread, Math.log(data.classes) + spread);
  }
}
