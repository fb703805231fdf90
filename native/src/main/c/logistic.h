/*
 * The C port of org.largecat.special.Logistic's softplus and log-sigmoid, with libm's exp and log1p
 * (as accurate as java.lang.Math's), so the 2-ulp contract carries over.
 */
#ifndef LARGECAT_LOGISTIC_H
#define LARGECAT_LOGISTIC_H

#include <math.h>

/** log(1 + e^x), as x + log(1 + e^-x) for x > 0 so that nothing overflows; Logistic.softplus. */
static inline double softplus(double x) {
  return x > 0 ? x + log1p(exp(-x)) : log1p(exp(x));
}

/** log sigma(x) = -softplus(-x); Logistic.logSigmoid. */
static inline double log_sigmoid(double x) {
  return -softplus(-x);
}

#endif
