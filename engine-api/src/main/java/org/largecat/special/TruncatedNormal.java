package org.largecat.special;

/**
 * Mean, variance and entropy of N(mu, 1) truncated to [0, inf) or (-inf, 0), the latent variables
 * of the CB-probit variational updates (categorical-from-binary, App. D.1.2, Eqs. D.1.4-D.1.8).
 *
 * <p>T-(mu) has the law of -T+(-mu), so only the positive side is computed. With lambda =
 * phi(mu)/Phi(mu) the paper's formulas read E = mu + lambda (D.1.4), Var = 1 - mu lambda - lambda^2
 * = 1 - lambda E (D.1.5) and H = log(2 pi e)/2 + log Phi(mu) - mu lambda/2 (D.1.7); they are used
 * as written for mu >= 0, where lambda is small. For mu = -t < 0 they cancel ever worse as t grows
 * (E ~ 1/t from terms ~ t, Var ~ 1/t^2 from terms ~ t^2), so they are rewritten with the
 * continued-fraction tails of {@link Normal} (lambda = t + A1(t), A1 = 1/(t + A2)): E = A1, Var =
 * A1 (A2 - A1) and H = 1 - A1 A2/2 - log(t + A1), where no step loses more than a bit or two (bar
 * the entropy's own zero crossing).
 *
 * <p>Accuracy for mu in [-1e6, 1e6]: mean and variance within relative error 1e-12; the entropy,
 * which crosses zero (at mu = -2.0299 on the positive side), within 1e-12 |H| + 1e-15. Outside that
 * range the values stay finite and accurate wherever the true value is a normal double. The
 * variance is positive for every mu but NaN: where the true value, about 1/mu^2 on the emptied
 * side, is below {@link Double#MIN_VALUE} (|mu| beyond about 4.5e161, and the limit at infinity) it
 * returns MIN_VALUE. NaN gives NaN.
 */
public final class TruncatedNormal {
  private TruncatedNormal() {}

  /** log(2 pi e)/2, the entropy of N(mu, 1). */
  private static final double HALF_LOG_2PI_E = 1.4189385332046727;

  /** E[T] of N(mu, 1) truncated to the side (Eq. D.1.4). */
  public static double mean(double mu, TruncationSide side) {
    return switch (side) {
      case POSITIVE -> meanPositive(mu);
      case NEGATIVE -> -meanPositive(-mu);
    };
  }

  /** Var[T] of N(mu, 1) truncated to the side (Eqs. D.1.5, D.1.6); never 0 or negative. */
  public static double variance(double mu, TruncationSide side) {
    return switch (side) {
      case POSITIVE -> variancePositive(mu);
      case NEGATIVE -> variancePositive(-mu);
    };
  }

  /** Differential entropy of N(mu, 1) truncated to the side (Eqs. D.1.7, D.1.8). */
  public static double entropy(double mu, TruncationSide side) {
    return switch (side) {
      case POSITIVE -> entropyPositive(mu);
      case NEGATIVE -> entropyPositive(-mu);
    };
  }

  private static double meanPositive(double mu) {
    if (mu < 0) {
      return Normal.tail1(-mu);
    }
    return mu + Normal.millsRatio(mu);
  }

  private static double variancePositive(double mu) {
    if (mu < 0) {
      double t = -mu;
      double a2 = Normal.tail2(t);
      double a1 = 1 / (t + a2);
      return Math.max(a1 * (a2 - a1), Double.MIN_VALUE);
    }
    // Beyond UPPER_UNDERFLOW lambda is 0 and Var is 1; clamping keeps mu = +Infinity from 0 *
    // Infinity.
    double m = Math.min(mu, Normal.UPPER_UNDERFLOW);
    double lambda = Normal.millsRatio(m);
    return 1 - lambda * (m + lambda);
  }

  private static double entropyPositive(double mu) {
    if (mu < 0) {
      double t = -mu;
      double a2 = Normal.tail2(t);
      double a1 = 1 / (t + a2);
      // D.1.7 with log Phi(-t) = -log(t + A1) - t^2/2 - log(2 pi)/2 and -mu lambda = t^2 + t A1,
      // where t A1 = 1 - A1 A2.
      return 1 - 0.5 * a1 * a2 - Math.log(t + a1);
    }
    double m = Math.min(mu, Normal.UPPER_UNDERFLOW);
    return HALF_LOG_2PI_E + Normal.logCdf(m) - 0.5 * m * Normal.millsRatio(m);
  }
}
