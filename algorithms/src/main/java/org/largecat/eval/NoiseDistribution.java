package org.largecat.eval;

import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.SpecialFunctions;
import org.largecat.model.Link;
import org.largecat.special.Gumbel;
import org.largecat.special.Logistic;
import org.largecat.special.Normal;

/**
 * The standard noise of an additive-noise categorical model, y = argmax_k (psi_k + eps_k) with
 * eps_k iid of density f and cdf F (augment-and-reduce Eq. 4), and what {@link
 * UtilityModelQuadrature} needs of it: log f, log F, the ratio h = f/F (the reverse hazard; phi/Phi
 * for the Gaussian), log h and its first two derivatives, and the batched SPI kernels that compute
 * log F and h.
 *
 * <p>For all three, log F and log h are concave (for the Gaussian (log h)'' = -1 + h (x + h) lies
 * in (-1, 0)), so every integrand of Eq. 5 is log-concave.
 */
public enum NoiseDistribution {
  /** Standard Gumbel (maximum): the softmax. F = exp(-e^-x), h = e^-x. */
  GUMBEL(ElementwiseFunction.GUMBEL_LOG_CDF) {
    @Override
    public double logDensity(double x) {
      return Gumbel.logPdf(x);
    }

    @Override
    public double hazard(double x) {
      return Math.exp(-x);
    }

    @Override
    public double logHazardSlope(double x, double hazard) {
      return -1;
    }

    @Override
    public double logHazardCurvature(double x, double hazard) {
      return 0;
    }

    @Override
    void logHazards(int n, double[] x, double[] logCdf, int off) {
      for (int i = off; i < off + n; i++) {
        x[i] = -x[i];
      }
    }

    @Override
    public void hazards(SpecialFunctions sf, int n, double[] x, double[] out) {
      negate(n, x, out);
      sf.apply(ElementwiseFunction.EXP, n, out, 0, out, 0);
    }
  },

  /** Standard normal: the multinomial probit. h = phi/Phi, the inverse Mills ratio. */
  GAUSSIAN(ElementwiseFunction.NORMAL_LOG_CDF) {
    private static final double HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);

    @Override
    public double logDensity(double x) {
      return -0.5 * x * x - HALF_LOG_2PI;
    }

    @Override
    public double hazard(double x) {
      return Normal.millsRatio(x);
    }

    @Override
    public double logHazardSlope(double x, double hazard) {
      return -x - hazard; // h' = h (-x - h)
    }

    @Override
    public double logHazardCurvature(double x, double hazard) {
      return -1 + hazard * (x + hazard);
    }

    /**
     * log phi(x) - log Phi(x): it cancels only for x far below 0, where the integrand (which
     * carries the factor Phi(x) once more) is negligible.
     */
    @Override
    void logHazards(int n, double[] x, double[] logCdf, int off) {
      for (int i = off; i < off + n; i++) {
        x[i] = logDensity(x[i]) - logCdf[i];
      }
    }

    @Override
    public void hazards(SpecialFunctions sf, int n, double[] x, double[] out) {
      sf.apply(ElementwiseFunction.NORMAL_MILLS_RATIO, n, x, 0, out, 0);
    }
  },

  /**
   * Standard logistic: the multinomial logistic. F = sigma, f = sigma(x) sigma(-x), h = sigma(-x).
   */
  LOGISTIC(ElementwiseFunction.LOG_SIGMOID) {
    @Override
    public double logDensity(double x) {
      return Logistic.logPdf(x);
    }

    @Override
    public double hazard(double x) {
      return Math.exp(Logistic.logSigmoid(-x));
    }

    @Override
    public double logHazardSlope(double x, double hazard) {
      return hazard - 1; // -sigma(x)
    }

    @Override
    public double logHazardCurvature(double x, double hazard) {
      return -hazard * (1 - hazard); // -sigma(x) sigma(-x)
    }

    /**
     * log sigma(-x) = log sigma(x) - x: no second log sigmoid pass. It cancels only for x far below
     * 0, to an absolute error of an ulp of x, which is a relative error of the integrand.
     */
    @Override
    void logHazards(int n, double[] x, double[] logCdf, int off) {
      for (int i = off; i < off + n; i++) {
        x[i] = logCdf[i] - x[i];
      }
    }

    @Override
    public void hazards(SpecialFunctions sf, int n, double[] x, double[] out) {
      negate(n, x, out);
      sf.apply(ElementwiseFunction.LOG_SIGMOID, n, out, 0, out, 0);
      sf.apply(ElementwiseFunction.EXP, n, out, 0, out, 0);
    }
  };

  private final ElementwiseFunction logCdfFunction;

  NoiseDistribution(ElementwiseFunction logCdfFunction) {
    this.logCdfFunction = logCdfFunction;
  }

  /** log f(x). */
  public abstract double logDensity(double x);

  /** log F(x), the scalar reference of {@link #logCdfFunction()}. */
  public double logCdf(double x) {
    return logCdfFunction.reference(x);
  }

  /** h(x) = f(x) / F(x). */
  public abstract double hazard(double x);

  /** (log h)'(x), given h(x). */
  public abstract double logHazardSlope(double x, double hazard);

  /** (log h)''(x), given h(x). */
  public abstract double logHazardCurvature(double x, double hazard);

  /** The batched SPI kernel for log F. */
  public ElementwiseFunction logCdfFunction() {
    return logCdfFunction;
  }

  /**
   * x[off..off+n) := log h(x), in place, from logCdf[off..off+n) = log F at the same points: plain
   * arithmetic for all three, so the quadrature's only special-function pass per node is log F.
   */
  abstract void logHazards(int n, double[] x, double[] logCdf, int off);

  /** out[0..n) := h(x[0..n)), batched through the SPI. */
  public abstract void hazards(SpecialFunctions sf, int n, double[] x, double[] out);

  /**
   * The noise of a model's link: Gumbel for the softmax, Gaussian for the probit, logistic for the
   * logistic.
   */
  public static NoiseDistribution of(Link link) {
    return switch (link) {
      case SOFTMAX -> GUMBEL;
      case PROBIT -> GAUSSIAN;
      case LOGISTIC -> LOGISTIC;
    };
  }

  private static void negate(int n, double[] x, double[] out) {
    for (int i = 0; i < n; i++) {
      out[i] = -x[i];
    }
  }
}
