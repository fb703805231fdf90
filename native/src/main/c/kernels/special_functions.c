/*
 * Elementwise special functions of the native backend (org.largecat.kernel.SpecialFunctions):
 * out[outOff + i] = f(x[xOff + i]) for i < n, out possibly x itself. The normal family and exp run
 * LANES elements at a time (normal.h, vmath.h); log-sigmoid and Lambert W one at a time on libm.
 */
#include "largecat.h"
#include "lambert_w.h"
#include "logistic.h"
#include "normal.h"

/** Applies a lane function to n elements: whole vectors, then the tail in one partial vector. */
static inline __attribute__((always_inline)) void apply(vdouble (*f)(vdouble), int32_t n, const double *x,
    double *out) {
  int32_t i = 0;
  for (; i + LANES <= n; i += LANES) {
    store(out + i, f(load(x + i)));
  }
  if (i < n) {
    store_part(out + i, n - i, f(load_part(x + i, n - i, 0)));
  }
}

/** A scalar function in every lane. */
static inline __attribute__((always_inline)) vdouble lanewise(double (*f)(double), vdouble x) {
  vdouble r;
  for (int k = 0; k < LANES; k++) {
    r[k] = f(x[k]);
  }
  return r;
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

static inline vdouble log_sigmoid_lanes(vdouble x) {
  return lanewise(log_sigmoid, x);
}

static inline vdouble lambert_w0_lanes(vdouble x) {
  return lanewise(lambert_w0, x);
}

static inline vdouble lambert_w0_of_exp_lanes(vdouble x) {
  return lanewise(lambert_w0_of_exp, x);
}

#define ELEMENTWISE_KERNEL(name, f) \
  EXPORT void KERNEL(name)(int32_t n, const double *x, int32_t xOff, double *out, int32_t outOff) { \
    apply(f, n, x + xOff, out + outOff); \
  }

ELEMENTWISE_KERNEL(exp, vexp)
ELEMENTWISE_KERNEL(normal_log_cdf, normal_log_cdf)
ELEMENTWISE_KERNEL(normal_mills_ratio, normal_mills_ratio)
ELEMENTWISE_KERNEL(truncated_normal_mean_positive, truncated_normal_mean)
ELEMENTWISE_KERNEL(truncated_normal_mean_negative, truncated_normal_mean_negative)
ELEMENTWISE_KERNEL(truncated_normal_variance_positive, truncated_normal_variance)
ELEMENTWISE_KERNEL(truncated_normal_variance_negative, truncated_normal_variance_negative)
ELEMENTWISE_KERNEL(truncated_normal_entropy_positive, truncated_normal_entropy)
ELEMENTWISE_KERNEL(truncated_normal_entropy_negative, truncated_normal_entropy_negative)
ELEMENTWISE_KERNEL(log_sigmoid, log_sigmoid_lanes)
ELEMENTWISE_KERNEL(lambert_w0, lambert_w0_lanes)
ELEMENTWISE_KERNEL(wright_omega, lambert_w0_of_exp_lanes)
