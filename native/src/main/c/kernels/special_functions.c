/*
 * Elementwise special functions of the native backend (org.largecat.kernel.SpecialFunctions):
 * out[outOff + i] = f(x[xOff + i]) for i < n, out possibly x itself, LANES elements at a time
 * (vmath.h, logistic.h, normal.h, lambert_w.h).
 */
#include <stddef.h>

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


static inline vdouble normal_log_survival(vdouble x) {
  return normal_log_cdf(-x);
}

static inline vdouble logistic_log_survival(vdouble x) {
  return vlog_sigmoid(-x);
}

static inline vdouble gumbel_log_cdf(vdouble x) {
  return -vexp(-x);
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

/**
 * log Phi(x) and the mean of N(x, 1) truncated to [0, inf) from one tail evaluation at t = |x|:
 * the values normal_log_cdf and truncated_normal_mean give, by the same operations. A vector with
 * no lane below 0 (most of the probit CAVI's cells) skips the left-hand formulas and their log.
 */
static inline __attribute__((always_inline)) void log_cdf_and_mean(vdouble x, vdouble *log_cdf,
    vdouble *mean) {
  normal_tail n = normal_tail_at(vabs(x));
  vdouble right_log_cdf = log_cdf_nonnegative(x, n);
  vdouble right_mean = x + mills_ratio_nonnegative(x, n);
  vlong left = x < 0;
  if (any(left)) {
    vdouble left_log_cdf = -n.hi - (n.lo + HALF_LOG_2PI + vlog(n.t + n.a1));
    left_log_cdf = where(n.hi == INFINITY, broadcast(-INFINITY), left_log_cdf);
    *log_cdf = where(left, left_log_cdf, right_log_cdf);
    *mean = where(left, n.a1, right_mean);
  } else {
    *log_cdf = right_log_cdf;
    *mean = right_mean;
  }
}

/**
 * log Phi into log_cdf (if not null) and the positive truncated-normal mean into mean (if not
 * null, possibly x itself) over n elements; returns the sum of log Phi, in LANES partial sums.
 */
static inline __attribute__((always_inline)) double log_cdf_and_mean_over(int32_t n,
    const double *x, double *log_cdf, double *mean) {
  vdouble sum = broadcast(0);
  vdouble f, g;
  int32_t i = 0;
  for (; i + LANES <= n; i += LANES) {
    log_cdf_and_mean(load(x + i), &f, &g);
    sum += f;
    if (log_cdf) {
      store(log_cdf + i, f);
    }
    if (mean) {
      store(mean + i, g);
    }
  }
  if (i < n) {
    /* The missing lanes get log Phi(+Inf) = 0. */
    log_cdf_and_mean(load_part(x + i, n - i, INFINITY), &f, &g);
    sum += f;
    if (log_cdf) {
      store_part(log_cdf + i, n - i, f);
    }
    if (mean) {
      store_part(mean + i, n - i, g);
    }
  }
  return sum_lanes(sum);
}

/** SpecialFunctions.applyPair(NORMAL_LOG_CDF, TRUNCATED_NORMAL_MEAN_POSITIVE, ...). */
EXPORT void KERNEL(normal_log_cdf_and_mean_positive)(int32_t n, const double *x, int32_t xOff,
    double *fOut, int32_t fOutOff, double *gOut, int32_t gOutOff) {
  log_cdf_and_mean_over(n, x + xOff, fOut + fOutOff, gOut + gOutOff);
}

/** SpecialFunctions.sumAndApply(NORMAL_LOG_CDF, TRUNCATED_NORMAL_MEAN_POSITIVE, ...). */
EXPORT double KERNEL(sum_normal_log_cdf_and_mean_positive)(int32_t n, const double *x,
    int32_t xOff, double *gOut, int32_t gOutOff) {
  return log_cdf_and_mean_over(n, x + xOff, NULL, gOut + gOutOff);
}

/** SpecialFunctions.sumAndApply(NORMAL_LOG_CDF, null, ...). */
EXPORT double KERNEL(sum_normal_log_cdf)(int32_t n, const double *x, int32_t xOff) {
  return log_cdf_and_mean_over(n, x + xOff, NULL, NULL);
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
ELEMENTWISE_KERNEL(log1p, vlog1p)
ELEMENTWISE_KERNEL(softplus, vsoftplus)
ELEMENTWISE_KERNEL(log_sigmoid, vlog_sigmoid)
ELEMENTWISE_KERNEL(logistic_log_survival, logistic_log_survival)
ELEMENTWISE_KERNEL(gumbel_log_cdf, gumbel_log_cdf)
ELEMENTWISE_KERNEL(normal_log_survival, normal_log_survival)
ELEMENTWISE_KERNEL(polya_gamma_mean, polya_gamma_mean)
ELEMENTWISE_KERNEL(lambert_w0, lambert_w0)
ELEMENTWISE_KERNEL(wright_omega, wright_omega)
