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

#endif
