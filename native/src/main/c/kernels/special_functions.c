/*
 * Elementwise special functions of the native backend (org.largecat.kernel.SpecialFunctions):
 * out[outOff + i] = f(x[xOff + i]) for i < n, out possibly x itself. exp, log-sigmoid and the
 * normal family run LANES elements at a time (vmath.h, logistic.h, normal.h); Lambert W0 and
 * W0(e^x) one element at a time on libm (lambert_w.h).
 */
#include "largecat.h"
#include "lambert_w.h"
#include "logistic.h"
#include "normal.h"

/** Applies a lane function to n elements: whole vectors, then the tail in one partial vector. */
static inline __attribute__((always_inline)) void apply_vector(vdouble (*f)(vdouble), int32_t n, const double *x,
    double *out) {
  int32_t i = 0;
  for (; i + LANES <= n; i += LANES) {
    store(out + i, f(load(x + i)));
  }
  if (i < n) {
    store_part(out + i, n - i, f(load_part(x + i, n - i, 0)));
  }
}

/** Applies a scalar function to n elements. */
static inline __attribute__((always_inline)) void apply_scalar(double (*f)(double), int32_t n, const double *x,
    double *out) {
  for (int32_t i = 0; i < n; i++) {
    out[i] = f(x[i]);
  }
}

static inline vdouble truncated_normal_mean_negative(vdouble mu) {
  return -truncated_normal_mean(-mu); /* T- has the law of -T+ for -mu */
}

static inline vdouble truncated_normal_variance_negative(vdouble mu) {
  return truncated_normal_variance(-mu);
}

static inline vdouble truncated_normal_entropy_negative(vdouble mu) {
  return truncated_normal_entropy(-mu);
}

/** Defines KERNEL(name): a vdouble function f with apply_vector, a double one with apply_scalar. */
#define ELEMENTWISE_KERNEL(name, apply, f) \
  EXPORT void KERNEL(name)(int32_t n, const double *x, int32_t xOff, double *out, int32_t outOff) { \
    apply(f, n, x + xOff, out + outOff); \
  }

ELEMENTWISE_KERNEL(exp, apply_vector, vexp)
ELEMENTWISE_KERNEL(normal_log_cdf, apply_vector, normal_log_cdf)
ELEMENTWISE_KERNEL(normal_mills_ratio, apply_vector, normal_mills_ratio)
ELEMENTWISE_KERNEL(truncated_normal_mean_positive, apply_vector, truncated_normal_mean)
ELEMENTWISE_KERNEL(truncated_normal_mean_negative, apply_vector, truncated_normal_mean_negative)
ELEMENTWISE_KERNEL(truncated_normal_variance_positive, apply_vector, truncated_normal_variance)
ELEMENTWISE_KERNEL(truncated_normal_variance_negative, apply_vector, truncated_normal_variance_negative)
ELEMENTWISE_KERNEL(truncated_normal_entropy_positive, apply_vector, truncated_normal_entropy)
ELEMENTWISE_KERNEL(truncated_normal_entropy_negative, apply_vector, truncated_normal_entropy_negative)
ELEMENTWISE_KERNEL(log_sigmoid, apply_vector, vlog_sigmoid)
ELEMENTWISE_KERNEL(lambert_w0, apply_scalar, lambert_w0)
ELEMENTWISE_KERNEL(wright_omega, apply_scalar, lambert_w0_of_exp)
