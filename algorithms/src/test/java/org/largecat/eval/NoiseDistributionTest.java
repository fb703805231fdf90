package org.largecat.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.largecat.kernel.Kernels;

/**
 * What the quadrature relies on in each noise: h = f/F, the derivatives of log h its Newton steps
 * use, and the batched kernels agreeing with the scalar forms.
 */
class NoiseDistributionTest {
  private static final double[] POINTS = {-30, -8, -2.5, -0.75, 0, 0.5, 1.75, 4, 9, 25};

  /** The quotient is formed in log space, so it carries the rounding of log F's magnitude. */
  @ParameterizedTest
  @EnumSource(NoiseDistribution.class)
  void hazardIsDensityOverCdf(NoiseDistribution noise) {
    for (double x : POINTS) {
      double expected = Math.exp(noise.logDensity(x) - noise.logCdf(x));
      double tolerance = 1e-12 + 4 * Math.ulp(noise.logCdf(x)) + 4 * Math.ulp(noise.logDensity(x));
      assertEquals(expected, noise.hazard(x), tolerance * expected, noise + " at x=" + x);
    }
  }

  /** Central differences of log h and of (log h)' with step 1e-4: error about 1e-8 relative. */
  @ParameterizedTest
  @EnumSource(NoiseDistribution.class)
  void logHazardDerivativesMatchDifferences(NoiseDistribution noise) {
    double d = 1e-4;
    for (double x : POINTS) {
      double slope = (Math.log(noise.hazard(x + d)) - Math.log(noise.hazard(x - d))) / (2 * d);
      double gotSlope = noise.logHazardSlope(x, noise.hazard(x));
      assertEquals(slope, gotSlope, 1e-6 * (1 + Math.abs(slope)), noise + " (log h)' at x=" + x);
      double curvature =
          (noise.logHazardSlope(x + d, noise.hazard(x + d))
                  - noise.logHazardSlope(x - d, noise.hazard(x - d)))
              / (2 * d);
      double gotCurvature = noise.logHazardCurvature(x, noise.hazard(x));
      assertEquals(
          curvature,
          gotCurvature,
          1e-6 * (1 + Math.abs(curvature)),
          noise + " (log h)'' at x=" + x);
    }
  }

  @ParameterizedTest
  @EnumSource(NoiseDistribution.class)
  void batchedKernelsMatchScalarForms(NoiseDistribution noise) {
    Kernels kernels = Kernels.of("scalar");
    int n = POINTS.length;
    double[] logCdf = new double[n + 1];
    kernels.specialFunctions().apply(noise.logCdfFunction(), n, POINTS, 0, logCdf, 1);
    double[] logHazard = new double[n + 1];
    System.arraycopy(POINTS, 0, logHazard, 1, n);
    noise.logHazards(n, logHazard, logCdf, 1);
    double[] x = POINTS.clone();
    double[] hazard = new double[n];
    noise.hazards(kernels.specialFunctions(), n, x, hazard);
    for (int i = 0; i < n; i++) {
      double h = noise.hazard(POINTS[i]);
      assertEquals(noise.logCdf(POINTS[i]), logCdf[1 + i], 0, noise + " log F at x=" + POINTS[i]);
      assertEquals(
          Math.log(h),
          logHazard[1 + i],
          1e-12 * (1 + Math.abs(Math.log(h))),
          noise + " log h at x=" + POINTS[i]);
      assertEquals(h, hazard[i], 1e-13 * h, noise + " h at x=" + POINTS[i]);
    }
  }
}
