package org.largecat.kernel;

import java.util.function.DoubleUnaryOperator;
import org.largecat.special.Gumbel;
import org.largecat.special.LambertW;
import org.largecat.special.Logistic;
import org.largecat.special.Normal;
import org.largecat.special.PolyaGamma;
import org.largecat.special.TruncatedNormal;
import org.largecat.special.TruncationSide;

/**
 * The functions {@link SpecialFunctions#apply} evaluates, each with its scalar reference and the
 * agreement every other backend must keep with that reference: |got - ref| <= relative * |ref| +
 * absolute. The reference's own accuracy against an arbitrary-precision oracle is stated (and
 * tested) in the classes of {@code org.largecat.special}.
 */
public enum ElementwiseFunction {
  /** e^x. */
  EXP("exp", Math::exp, 1e-13, 0),
  /** log(1 + x). */
  LOG1P("log1p", Math::log1p, 1e-13, 0),
  /** log sigma(x) = -log(1 + e^-x), also the logistic log-cdf. */
  LOG_SIGMOID("log-sigmoid", Logistic::logSigmoid, 1e-13, 0),
  /** log(1 - sigma(x)) = log sigma(-x), the logistic log-survival function. */
  LOGISTIC_LOG_SURVIVAL("logistic-logsf", x -> Logistic.logSigmoid(-x), 1e-13, 0),
  /** log(1 + e^x). */
  SOFTPLUS("softplus", Logistic::softplus, 1e-13, 0),
  /** Log-density of the standard logistic distribution. */
  LOGISTIC_LOG_PDF("logistic-logpdf", Logistic::logPdf, 1e-13, 0),
  /** Log-cdf of the standard Gumbel (maximum) distribution, -e^-x. */
  GUMBEL_LOG_CDF("gumbel-logcdf", Gumbel::logCdf, 1e-13, 0),
  /** Log-density of the standard Gumbel (maximum) distribution, -x - e^-x. */
  GUMBEL_LOG_PDF("gumbel-logpdf", Gumbel::logPdf, 1e-13, 0),
  /** log Phi(x), the standard normal log-cdf. */
  NORMAL_LOG_CDF("normal-logcdf", Normal::logCdf, 1e-13, 0),
  /** log(1 - Phi(x)) = log Phi(-x), the standard normal log-survival function. */
  NORMAL_LOG_SURVIVAL("normal-logsf", x -> Normal.logCdf(-x), 1e-13, 0),
  /** phi(x) / Phi(x), the inverse Mills ratio. */
  NORMAL_MILLS_RATIO("normal-mills", Normal::millsRatio, 1e-13, 0),
  /** Mean of N(mu, 1) truncated to [0, inf). */
  TRUNCATED_NORMAL_MEAN_POSITIVE(
      "truncnorm-mean+", mu -> TruncatedNormal.mean(mu, TruncationSide.POSITIVE), 1e-13, 0),
  /** Mean of N(mu, 1) truncated to (-inf, 0). */
  TRUNCATED_NORMAL_MEAN_NEGATIVE(
      "truncnorm-mean-", mu -> TruncatedNormal.mean(mu, TruncationSide.NEGATIVE), 1e-13, 0),
  /** Variance of N(mu, 1) truncated to [0, inf). */
  TRUNCATED_NORMAL_VARIANCE_POSITIVE(
      "truncnorm-variance+", mu -> TruncatedNormal.variance(mu, TruncationSide.POSITIVE), 1e-13, 0),
  /** Variance of N(mu, 1) truncated to (-inf, 0). */
  TRUNCATED_NORMAL_VARIANCE_NEGATIVE(
      "truncnorm-variance-", mu -> TruncatedNormal.variance(mu, TruncationSide.NEGATIVE), 1e-13, 0),
  /** Entropy of N(mu, 1) truncated to [0, inf); it crosses zero, hence the absolute floor. */
  TRUNCATED_NORMAL_ENTROPY_POSITIVE(
      "truncnorm-entropy+",
      mu -> TruncatedNormal.entropy(mu, TruncationSide.POSITIVE),
      1e-13,
      1e-15),
  /** Entropy of N(mu, 1) truncated to (-inf, 0); it crosses zero, hence the absolute floor. */
  TRUNCATED_NORMAL_ENTROPY_NEGATIVE(
      "truncnorm-entropy-",
      mu -> TruncatedNormal.entropy(mu, TruncationSide.NEGATIVE),
      1e-13,
      1e-15),
  /** Polya-Gamma PG(1, c) mean tanh(c/2) / (2c), 1/4 at c = 0. */
  POLYA_GAMMA_MEAN("pg-mean", PolyaGamma::mean, 1e-13, 0),
  /** Principal branch of the Lambert W function on [-1/e, inf). */
  LAMBERT_W0("lambertw0", LambertW::w0, 1e-13, 0),
  /** W0(e^x), the Wright omega function on the reals, for x where e^x overflows too. */
  WRIGHT_OMEGA("wright-omega", LambertW::w0OfExp, 1e-13, 0);

  private final String label;
  private final DoubleUnaryOperator reference;
  private final double relative;
  private final double absolute;

  ElementwiseFunction(
      String label, DoubleUnaryOperator reference, double relative, double absolute) {
    this.label = label;
    this.reference = reference;
    this.relative = relative;
    this.absolute = absolute;
  }

  /** A short name used in messages, logs and benchmark parameters. */
  public String label() {
    return label;
  }

  /** The scalar reference value at x. */
  public double reference(double x) {
    return reference.applyAsDouble(x);
  }

  /** Relative part of the agreement bound a backend keeps with the reference. */
  public double relativeTolerance() {
    return relative;
  }

  /** Absolute part of the agreement bound, for functions that cross zero. */
  public double absoluteTolerance() {
    return absolute;
  }
}
