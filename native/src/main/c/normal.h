/*
 * The C port of org.largecat.special.Normal and TruncatedNormal on vdouble lanes: log Phi, the
 * inverse Mills ratio phi/Phi and the moments of N(mu, 1) truncated to either half-line, with the
 * same thresholds, the same fitted tail (normal_tail_fit.h) and the same order of operations; see
 * the Java classes for the derivations (categorical-from-binary, App. D.1.2, Eqs. D.1.4-D.1.8).
 * Both branches of every test on x are computed in every lane and the right one chosen, so the
 * loops vectorise; a lane's result never depends on the other branch's value (which may be NaN).
 * The one difference from Java: e^x, log and log1p come from vmath.h, within about 1 ulp.
 */
#ifndef LARGECAT_NORMAL_H
#define LARGECAT_NORMAL_H

#include "normal_tail_fit.h"
#include "vmath.h"

static const double HALF_LOG_2PI = 0.9189385332046728;     /* log(2 pi)/2 */
static const double HALF_LOG_2PI_E = 1.4189385332046727;   /* log(2 pi e)/2 */
static const double INV_SQRT_2PI = 0.3989422804014327;     /* 1/sqrt(2 pi) */
static const double UPPER_UNDERFLOW = 39; /* above, phi(x) and Q(x) are below half the smallest double */

/** Horner evaluation of the given piece of the fit, Normal.polynomial. */
static inline vdouble tail_polynomial(vlong piece, vdouble u) {
  vlong base = piece * (NORMAL_TAIL_DEGREE + 1);
  vdouble p = gather(NORMAL_TAIL_COEFFICIENTS, base + NORMAL_TAIL_DEGREE);
  for (int j = NORMAL_TAIL_DEGREE - 1; j >= 0; j--) {
    p = vfma(p, u, gather(NORMAL_TAIL_COEFFICIENTS, base + j));
  }
  return p;
}

/** A2(t) = 2/(t + 3/(t + ...)), t >= 0 or +Inf (giving 0), Normal.tail2. */
static inline vdouble tail2(vdouble t) {
  vlong near = t < NORMAL_TAIL_SPLIT;
  /* The piece: floor(t) below SPLIT, SPLIT itself at and above it (NaN too); 0 for the t < 0 of
     lanes whose result the caller discards, so the index stays in the table. */
  vdouble clamped = where(near, where(t > 0, t, broadcast(0)), broadcast(NORMAL_TAIL_SPLIT));
  vlong piece = __builtin_convertvector(clamped, vlong);
  vdouble s = NORMAL_TAIL_SPLIT / t;
  vdouble u = where(near, t - __builtin_convertvector(piece, vdouble) - 0.5, s * s - 0.5);
  vdouble p = tail_polynomial(piece, u);
  return where(near, p, p / t);
}

/** A1(t) = 1/(t + A2(t)), Normal.tail1. */
static inline vdouble tail1(vdouble t) {
  return 1 / (t + tail2(t));
}

/** R(t) = Q(t)/phi(t) = 1/(t + A1(t)), Normal.ratio. */
static inline vdouble ratio(vdouble t) {
  return 1 / (t + tail1(t));
}

/** e^{-x^2/2} with x^2/2 = hi + lo exactly, Normal.expMinusHalfSquare. */
static inline vdouble exp_minus_half_square(vdouble x) {
  vdouble hi = x * (0.5 * x);
  vdouble lo = vfma(x, 0.5 * x, -hi);
  return vexp(-hi) * (1 - lo);
}

/** log Phi(x), Normal.logCdf. */
static inline vdouble normal_log_cdf(vdouble x) {
  vdouble t = -x;
  vdouble hi = t * (0.5 * t);
  vdouble lo = vfma(t, 0.5 * t, -hi);
  vdouble left = -hi - (lo + HALF_LOG_2PI + vlog(t + tail1(t)));
  left = where(hi == INFINITY, broadcast(-INFINITY), left);
  vdouble upperTail = exp_minus_half_square(x) * (ratio(x) * INV_SQRT_2PI);
  vdouble right = where(x > UPPER_UNDERFLOW, broadcast(-0.0), vlog1p(-upperTail));
  return where(x < 0, left, right);
}

/** phi(x)/Phi(x), Normal.millsRatio. */
static inline vdouble normal_mills_ratio(vdouble x) {
  vdouble t = -x;
  vdouble left = t + tail1(t);
  vdouble phi = exp_minus_half_square(x) * INV_SQRT_2PI;
  vdouble right = where(x > UPPER_UNDERFLOW, broadcast(0), phi / (1 - ratio(x) * phi));
  return where(x < 0, left, right);
}

/** min(x, UPPER_UNDERFLOW), NaN staying NaN as in Math.min. */
static inline vdouble below_underflow(vdouble x) {
  return where(x > UPPER_UNDERFLOW, broadcast(UPPER_UNDERFLOW), x);
}

/** E of N(mu, 1) truncated to [0, inf), TruncatedNormal.meanPositive. */
static inline vdouble truncated_normal_mean(vdouble mu) {
  return where(mu < 0, tail1(-mu), mu + normal_mills_ratio(mu));
}

/** Var of N(mu, 1) truncated to [0, inf), never below the smallest double, TruncatedNormal.variancePositive. */
static inline vdouble truncated_normal_variance(vdouble mu) {
  vdouble t = -mu;
  vdouble a2 = tail2(t);
  vdouble a1 = 1 / (t + a2);
  vdouble left = a1 * (a2 - a1);
  left = where(left < DBL_TRUE_MIN, broadcast(DBL_TRUE_MIN), left); /* Math.max: NaN stays */
  vdouble m = below_underflow(mu);
  vdouble lambda = normal_mills_ratio(m);
  vdouble right = 1 - lambda * (m + lambda);
  return where(mu < 0, left, right);
}

/** Entropy of N(mu, 1) truncated to [0, inf), TruncatedNormal.entropyPositive. */
static inline vdouble truncated_normal_entropy(vdouble mu) {
  vdouble t = -mu;
  vdouble a2 = tail2(t);
  vdouble a1 = 1 / (t + a2);
  vdouble left = 1 - 0.5 * a1 * a2 - vlog(t + a1);
  vdouble m = below_underflow(mu);
  vdouble right = HALF_LOG_2PI_E + normal_log_cdf(m) - 0.5 * m * normal_mills_ratio(m);
  return where(mu < 0, left, right);
}

#endif
