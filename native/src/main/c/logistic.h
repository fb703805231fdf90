/*
 * The C port of org.largecat.special.Logistic's softplus and log-sigmoid on vdouble lanes, with
 * the same branches: softplus(x) = x + log(1 + e^-x) for x > 0, log(1 + e^x) otherwise, which is
 * log(1 + e^-|x|) on both sides. exp and log1p come from vmath.h (within 0.9 ulp each), which
 * keeps log-sigmoid within its 2-ulp contract (measured against the oracle table by the tests).
 */
#ifndef LARGECAT_LOGISTIC_H
#define LARGECAT_LOGISTIC_H

#include "vmath.h"

/** log(1 + e^x), Logistic.softplus. */
static inline vdouble vsoftplus(vdouble x) {
  vdouble tail = vlog1p(vexp(-vabs(x)));
  return where(x > 0, x + tail, tail);
}

/** log sigma(x) = -softplus(-x), Logistic.logSigmoid. */
static inline vdouble vlog_sigmoid(vdouble x) {
  return -vsoftplus(-x);
}

/**
 * E of PG(1, c) = tanh(c/2) / (2c), PolyaGamma.mean: 1/4 (1 - c^2/12) below |c| = 1e-5, 1/(2c)
 * above 40, between them one quotient from e^-|c| - 1 below 1 and from e^-|c| above.
 */
static inline vdouble polya_gamma_mean(vdouble x) {
  vdouble c = vabs(x);
  vdouble m = vexpm1(-c);
  vdouble t = vexp(-c);
  vdouble mean = where(c < 1, -0.5 * m / vfma(m, c, 2 * c), 0.5 * (1 - t) / vfma(t, c, c));
  mean = where(c > 40, 0.5 / c, mean);
  return where(c < 1e-5, 0.25 * (1 - c * c / 12), mean);
}

#endif
