/*
 * The C port of org.largecat.special.LambertW on vdouble lanes: W0(x) and W0(e^x) by two
 * Fritsch-Shafer-Crowley steps (Algorithm 443, Comm. ACM 16(2), 1973) from Winitzki's guess, or from
 * the branch-point series of Corless et al. (Adv. Comput. Math. 5, 1996, Eq. 4.22) near -1/e; the
 * same regimes, thresholds and order of operations as the Java class, which gives the derivations.
 * Every regime a lane of the vector needs is evaluated and each lane keeps its own; the costly ones
 * are skipped when no lane needs them. exp, log and log1p come from vmath.h.
 */
#ifndef LARGECAT_LAMBERT_W_H
#define LARGECAT_LAMBERT_W_H

#include "vmath.h"

static const double LAMBERT_BRANCH_POINT = -0.36787944117144233; /* the double nearest -1/e */
static const double E_HI = 2.718281828459045;                    /* e = E_HI + E_LO to 1e-32 */
static const double E_LO = 1.4456468917292502e-16;
static const double LAMBERT_SERIES_LIMIT = 0x1p-26;              /* below, W0(x) = x - x^2 + 3/2 x^3 */
static const double LAMBERT_NEAR_BRANCH = -0.30326532985631671;  /* -e^(-1/2)/2, where W0 = -1/2 */
static const double OMEGA_LOG_SPACE = 1;                         /* from here W0(e^x) iterates on x */

/** Winitzki's approximation of W0(x) from L = log(1 + x), within 8% for x >= LAMBERT_NEAR_BRANCH. */
static inline vdouble winitzki(vdouble logOnePlusX) {
  return logOnePlusX * (1 - vlog1p(logOnePlusX) / (2 + logOnePlusX));
}

/** The Fritsch-Shafer-Crowley change of w, with 1 + w passed separately and z = log(x / w) - w. */
static inline vdouble fsc_correction(vdouble w, vdouble onePlusW, vdouble z) {
  vdouble zOverOnePlusW = z / onePlusW;
  vdouble r = onePlusW + 2 * z / 3;
  return w * zOverOnePlusW * ((r - zOverOnePlusW / 2) / (r - zOverOnePlusW));
}

/** W0 for x in [BRANCH_POINT, NEAR_BRANCH), iterating on eps = 1 + w; NaN below the branch point. */
static inline vdouble lambert_w0_near_branch_point(vdouble x) {
  vdouble d = vfma(broadcast(E_HI), x, broadcast(1)) + E_LO * x; /* e x + 1 */
  vdouble p = vsqrt(2 * d);
  vdouble eps = p * (1 + p * (-1.0 / 3 + p * (11.0 / 72 - p * (43.0 / 540))));
  vdouble log1pMinusD = vlog1p(-d);
  for (int step = 0; step < 2; step++) {
    vdouble z = log1pMinusD - (vlog1p(-eps) + eps);
    eps += fsc_correction(eps - 1, eps, z);
  }
  vdouble w = where(d <= 0, broadcast(-1), eps - 1); /* d <= 0: x is BRANCH_POINT itself */
  return where(x >= LAMBERT_BRANCH_POINT, w, broadcast(NAN));
}

/** W0(x) for finite x >= NEAR_BRANCH outside the series range. */
static inline vdouble lambert_w0_iterated(vdouble x) {
  vdouble w = winitzki(vlog1p(x));
  for (int step = 0; step < 2; step++) {
    w += fsc_correction(w, 1 + w, vlog(x / w) - w);
  }
  return w;
}

/** W0(x), LambertW.w0. */
static inline vdouble lambert_w0(vdouble x) {
  vdouble series = x - x * x * (1 - 1.5 * x);
  vdouble w = where(x < INFINITY, lambert_w0_iterated(x), x); /* NaN, +Inf */
  vlong near = x < LAMBERT_NEAR_BRANCH;
  if (any(near)) {
    w = where(near, lambert_w0_near_branch_point(x), w);
  }
  return where(vabs(x) < LAMBERT_SERIES_LIMIT, series, w);
}

/** W0(e^x) for x >= OMEGA_LOG_SPACE, finite, iterating on w + log w = x. */
static inline vdouble wright_omega_log_space(vdouble x) {
  vdouble w = winitzki(x + vlog1p(vexp(-x))); /* log(1 + e^x) without overflow */
  for (int step = 0; step < 2; step++) {
    w += fsc_correction(w, 1 + w, x - vlog(w) - w);
  }
  return w;
}

/** W0(e^x), the Wright omega function, never forming e^x from x = 1 on; LambertW.w0OfExp. */
static inline vdouble wright_omega(vdouble x) {
  vlong logSpace = x >= OMEGA_LOG_SPACE;
  vdouble w = broadcast(0);
  if (any(logSpace)) {
    w = where(x == INFINITY, x, wright_omega_log_space(x));
  }
  if (any(~logSpace)) {
    w = where(logSpace, w, lambert_w0(vexp(x))); /* e^x is representable here */
  }
  return w;
}

#endif
