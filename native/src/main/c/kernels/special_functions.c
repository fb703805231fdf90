/*
 * Elementwise special functions of the native backend (org.largecat.kernel.SpecialFunctions):
 * out[outOff + i] = f(x[xOff + i]) for i < n, out possibly x itself, LANES elements at a time
 * (vmath.h, logistic.h, normal.h, lambert_w.h).
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


static inline vdouble truncated_normal_mean_negative(vdouble mu) {
  return -truncated_normal_mean(-mu); /* T- has the law of -T+ for -mu */
}

static inline vdouble truncated_normal_variance_negative(vdouble mu) {
  return truncated_normal_variance(-mu);
}

static inline vdouble truncated_normal_entropy_negative(vdouble mu) {
  return truncated_normal_entropy(-mu);
}

/** Defines KERNEL(name) applying the lane function f. */
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
ELEMENTWISE_KERNEL(log_sigmoid, vlog_sigmoid)
ELEMENTWISE_KERNEL(lambert_w0, lambert_w0)
ELEMENTWISE_KERNEL(wright_omega, wright_omega)
