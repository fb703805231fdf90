/*
 * Batched Implicit SGD updates of the native backend (org.largecat.kernel.ImplicitUpdates): n
 * independent single-class steps (implicit_step.h), each problem's inputs read before its outputs
 * are written, since the outputs may alias the inputs.
 */
#include "largecat.h"
#include "implicit_step.h"

/**
 * Solves problems i < n: uNew = the root of g, step = a(uNew). Returns 0, or 1 + the index of a
 * problem that did not converge within MAX_EVALUATIONS (a bug), in which case the outputs from that
 * problem on are not written.
 */
EXPORT int32_t KERNEL(softmax_single_class)(int32_t n, const double *z, int32_t zOff, const double *uOld,
    int32_t uOldOff, const double *xNorm2, int32_t xNorm2Off, double twoEtaN, double logClassesMinusOne,
    double rate, double logRate, double *uNew, int32_t uNewOff, double *step, int32_t stepOff) {
  step_coefficients c = {twoEtaN, logClassesMinusOne, rate, logRate};
  for (int32_t i = 0; i < n; i++) {
    double zi = z[zOff + i];
    double xi = xNorm2[xNorm2Off + i];
    double u;
    if (!implicit_new_u(&c, zi, uOld[uOldOff + i], xi, &u)) {
      return i + 1;
    }
    uNew[uNewOff + i] = u;
    step[stepOff + i] = implicit_step(&c, zi, u, xi);
  }
  return 0;
}
