package org.largecat.kernel.blas;

import dev.ludovic.netlib.blas.BLAS;
import org.largecat.kernel.scalar.ScalarVectorOps;

/**
 * The double dot product of long vectors from netlib's BLAS (ddot, faster than the scalar loop from
 * n = {@value #SHORTEST_FOR_BLAS}); every other vector kernel is the scalar reference's. The rest
 * of BLAS does not fit our contract or does not pay: sdot accumulates in float, so it overflows and
 * underflows where the reference's double accumulation does not; axpy and scal treat a zero
 * multiplier specially (y left as is, x zeroed even where it holds NaN or Inf); and Java already
 * vectorises those two loops, which match BLAS up to n = 10^3 once the JNI call is counted.
 */
final class NetlibVectorOps extends ScalarVectorOps {
  /** Below this length the JNI call costs more than the scalar loop it would replace. */
  static final int SHORTEST_FOR_BLAS = 128;

  private final BLAS blas;

  NetlibVectorOps(BLAS blas) {
    this.blas = blas;
  }

  @Override
  protected double dotKernel(int n, double[] x, int xOff, double[] y, int yOff) {
    if (n < SHORTEST_FOR_BLAS) {
      return super.dotKernel(n, x, xOff, y, yOff);
    }
    double dot = blas.ddot(n, x, xOff, 1, y, yOff, 1);
    // An overflowed or NaN sum depends on the order of the terms: take the reference's.
    return Double.isFinite(dot) ? dot : super.dotKernel(n, x, xOff, y, yOff);
  }
}
