/*
 * Batched Implicit SGD updates of the native backend (org.largecat.kernel.ImplicitUpdates): n
 * independent single-class steps, LANES at a time in lock-step (implicit_step.h). Each vector of
 * problems is read whole before its outputs are written, since the outputs may alias the inputs.
 */
#include "largecat.h"
#include "implicit_step.h"

/**
 * Solves problems i < n: uNew = the root of g, step = a(uNew). Returns 0, or 1 + the index of the
 * first problem of a vector that did not converge within MAX_EVALUATIONS (a bug), in which case the
 * outputs from that vector on are not written.
 */
EXPORT int32_t KERNEL(softmax_single_class)(int32_t n, const double *z, int32_t zOff, const double *uOld,
    int32_t uOldOff, const double *xNorm2, int32_t xNorm2Off, double eta, int64_t datasetSize, int64_t classCount,
    double *uNew, int32_t uNewOff, double *step, int32_t stepOff) {
  step_coefficients c = step_coefficients_of(eta, datasetSize, classCount);
  for (int32_t i = 0; i < n; i += LANES) {
    int32_t lanes = n - i < LANES ? n - i : LANES;
    /* Missing lanes of the last vector get z = NaN, which the solver answers at once. */
    vdouble zi = load_part(z + zOff + i, lanes, NAN);
    vdouble uOldi = load_part(uOld + uOldOff + i, lanes, 0);
    vdouble xi = load_part(xNorm2 + xNorm2Off + i, lanes, 1);
    vdouble u;
    if (!implicit_new_u(&c, zi, uOldi, xi, &u)) {
      return i + 1;
    }
    store_part(uNew + uNewOff + i, lanes, u);
    store_part(step + stepOff + i, lanes, implicit_step(&c, zi, u, xi));
  }
  return 0;
}
