/*
 * The C port of org.largecat.special.LambertW: W0(x) and W0(e^x) by two Fritsch-Shafer-Crowley
 * steps (Algorithm 443, Comm. ACM 16(2), 1973) from Winitzki's guess, or from the branch-point
 * series of Corless et al. (Adv. Comput. Math. 5, 1996, Eq. 4.22) near -1/e; same thresholds and
 * order of operations as the Java class, which gives the derivations. One value at a time, with
 * libm's exp, log and log1p (as accurate as java.lang.Math's), so the ulp contracts carry over.
 */
#ifndef LARGECAT_LAMBERT_W_H
#define LARGECAT_LAMBERT_W_H

#include <math.h>

static const double LAMBERT_BRANCH_POINT = -0.36787944117144233; /* the double nearest -1/e */
static const double E_HI = 2.718281828459045;                    /* e = E_HI + E_LO to 1e-32 */
static const double E_LO = 1.4456468917292502e-16;
static const double LAMBERT_SERIES_LIMIT = 0x1p-26;    /* below, W0(x) = x - x^2 + 3/2 x^3 */
static const double LAMBERT_NEAR_BRANCH = -0.30326532985631671; /* -e^(-1/2)/2, where W0 = -1/2 */
static const double OMEGA_LOG_SPACE = 1;               /* from here W0(e^x) iterates on x itself */

/** Winitzki's approximation of W0(x) from log(1 + x), within 8% for x >= LAMBERT_NEAR_BRANCH. */
static inline double winitzki(double logOnePlusX) {
  return logOnePlusX * (1 - log1p(logOnePlusX) / (2 + logOnePlusX));
}

/** The Fritsch-Shafer-Crowley change of w, with 1 + w passed separately and z = log(x / w) - w. */
static inline double fsc_correction(double w, double onePlusW, double z) {
  double zOverOnePlusW = z / onePlusW;
  double r = onePlusW + 2 * z / 3;
  return w * zOverOnePlusW * ((r - zOverOnePlusW / 2) / (r - zOverOnePlusW));
}

/** W0 for x below LAMBERT_NEAR_BRANCH, iterating on eps = 1 + w from the branch-point series. */
static inline double lambert_w0_near_branch_point(double x) {
  if (!(x >= LAMBERT_BRANCH_POINT)) {
    return NAN;
  }
  double d = fma(E_HI, x, 1) + E_LO * x; /* e x + 1 */
  if (d <= 0) {
    return -1;
  }
  double p = sqrt(2 * d);
  double eps = p * (1 + p * (-1.0 / 3 + p * (11.0 / 72 - p * (43.0 / 540))));
  double log1pMinusD = log1p(-d);
  for (int step = 0; step < 2; step++) {
    double z = log1pMinusD - (log1p(-eps) + eps);
    eps += fsc_correction(eps - 1, eps, z);
  }
  return eps - 1;
}

/** W0(x), LambertW.w0. */
static inline double lambert_w0(double x) {
  if (fabs(x) < LAMBERT_SERIES_LIMIT) {
    return x - x * x * (1 - 1.5 * x);
  }
  if (x < LAMBERT_NEAR_BRANCH) {
    return lambert_w0_near_branch_point(x);
  }
  if (!(x < INFINITY)) {
    return x;
  }
  double w = winitzki(log1p(x));
  for (int step = 0; step < 2; step++) {
    w += fsc_correction(w, 1 + w, log(x / w) - w);
  }
  return w;
}

/** W0(e^x), the Wright omega function, never forming e^x for x >= 1; LambertW.w0OfExp. */
static inline double lambert_w0_of_exp(double x) {
  if (!(x >= OMEGA_LOG_SPACE)) {
    return lambert_w0(exp(x));
  }
  if (x == INFINITY) {
    return x;
  }
  double w = winitzki(x + log1p(exp(-x)));
  for (int step = 0; step < 2; step++) {
    w += fsc_correction(w, 1 + w, x - log(w) - w);
  }
  return w;
}

#endif
