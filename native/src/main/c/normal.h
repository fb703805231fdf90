/*
 * The C port of org.largecat.special.Normal and TruncatedNormal on vdouble lanes: log Phi, the
 * inverse Mills ratio phi/Phi and the moments of N(mu, 1) truncated to either half-line, with the
 * same thresholds, the same fitted tail (normal_tail_fit.h) and the same order of operations; the
 * Java classes give the derivations (categorical-from-binary, App. D.1.2, Eqs. D.1.4-D.1.8).
 *
 * Lanes take different branches, so both branches are evaluated and each lane keeps its own (the
 * other may be NaN). Each Java branch evaluates the fitted tail at one argument t >= 0, which is
 * |x| for log Phi and phi/Phi; so the tail is evaluated once, at the argument of the lane's branch
 * (normal_tail), and both branch formulas read it. The one difference from Java: e^x, log and
 * log1p come from vmath.h, within about 1 ulp.
 */
#ifndef LARGECAT_NORMAL_H
#define LARGECAT_NORMAL_H

#include "normal_tail_fit.h"
#include "vmath.h"

static const double HALF_LOG_2PI = 0.9189385332046728;   /* log(2 pi)/2 */
static const double HALF_LOG_2PI_E = 1.4189385332046727; /* log(2 pi e)/2 */
static const double INV_SQRT_2PI = 0.3989422804014327;   /* 1/sqrt(2 pi) */
static const double UPPER_UNDERFLOW = 39; /* above, phi(x) and Q(x) are below half the smallest double */

/**
 * Coefficient j of each lane's piece. Where two vectors hold all the pieces (AVX-512), one
 * two-table permute picks it; otherwise a gather from the table.
 */
static inline vdouble tail_coefficient(int j, vlong piece) {
#if 2 * LANES > NORMAL_TAIL_SPLIT
  vdouble low, high;
  for (int k = 0; k < LANES; k++) {
    low[k] = NORMAL_TAIL_COEFFICIENTS[k * (NORMAL_TAIL_DEGREE + 1) + j];
    int upper = k + LANES <= NORMAL_TAIL_SPLIT ? k + LANES : NORMAL_TAIL_SPLIT;
    high[k] = NORMAL_TAIL_COEFFICIENTS[upper * (NORMAL_TAIL_DEGREE + 1) + j];
  }
  return __builtin_shuffle(low, high, piece);
#else
  return gather(NORMAL_TAIL_COEFFICIENTS, piece * (NORMAL_TAIL_DEGREE + 1) + j);
#endif
}

/** Horner evaluation of each lane's piece of the fit, Normal.polynomial. */
static inline vdouble tail_polynomial(vlong piece, vdouble u) {
  vdouble p = tail_coefficient(NORMAL_TAIL_DEGREE, piece);
#pragma GCC unroll 16 /* so that each coefficient's table vectors are constants */
  for (int j = NORMAL_TAIL_DEGREE - 1; j >= 0; j--) {
    p = vfma(p, u, tail_coefficient(j, piece));
  }
  return p;
}

/** A2(t) = 2/(t + 3/(t + ...)) for t >= 0 or +Inf (giving 0), NaN for NaN; Normal.tail2. */
static inline vdouble tail2(vdouble t) {
  vlong near = t < NORMAL_TAIL_SPLIT;
  /* floor(t) below SPLIT, SPLIT from there on and for NaN: always an index into the table. */
  vlong piece = __builtin_convertvector(where(near, t, broadcast(NORMAL_TAIL_SPLIT)), vlong);
  vdouble s = NORMAL_TAIL_SPLIT / t;
  vdouble u = where(near, t - __builtin_convertvector(piece, vdouble) - 0.5, s * s - 0.5);
  vdouble p = tail_polynomial(piece, u);
  return where(near, p, p / t);
}

/** The terms of Normal at one argument t >= 0: the tails A2(t) and A1(t) = 1/(t + A2), t^2/2 = hi + lo exactly. */
typedef struct {
  vdouble t, a2, a1, hi, lo;
} normal_tail;

static inline normal_tail normal_tail_at(vdouble t) {
  normal_tail n;
  n.t = t;
  n.a2 = tail2(t);
  n.a1 = 1 / (t + n.a2); /* Normal.tail1 */
  n.hi = t * (0.5 * t);
  n.lo = vfma(t, 0.5 * t, -n.hi);
  return n;
}

/** phi(t) = e^{-hi} (1 - lo) / sqrt(2 pi), Normal.expMinusHalfSquare. */
static inline vdouble normal_density(normal_tail n) {
  return vexp(-n.hi) * (1 - n.lo) * INV_SQRT_2PI;
}

/** R(t) = Q(t)/phi(t) = 1/(t + A1(t)), Normal.ratio. */
static inline vdouble normal_ratio(normal_tail n) {
  return 1 / (n.t + n.a1);
}

/** log Phi(x) for x >= 0 (or NaN), n at t = x: log1p(-Q(x)), Q = e^{-hi} (1 - lo) (R / sqrt(2 pi)). */
static inline vdouble log_cdf_nonnegative(vdouble x, normal_tail n) {
  vdouble upperTail = vexp(-n.hi) * (1 - n.lo) * (normal_ratio(n) * INV_SQRT_2PI);
  return where(x > UPPER_UNDERFLOW, broadcast(-0.0), vlog1p(-upperTail));
}

/** phi(x)/Phi(x) for x >= 0 (or NaN), n at t = x: phi / (1 - R phi). */
static inline vdouble mills_ratio_nonnegative(vdouble x, normal_tail n) {
  vdouble phi = normal_density(n);
  return where(x > UPPER_UNDERFLOW, broadcast(0), phi / (1 - normal_ratio(n) * phi));
}

/** log Phi(x), Normal.logCdf; for x < 0, -hi - (lo + log(2 pi)/2 + log(t + A1)) at t = -x. */
static inline vdouble normal_log_cdf(vdouble x) {
  normal_tail n = normal_tail_at(vabs(x));
  vdouble left = -n.hi - (n.lo + HALF_LOG_2PI + vlog(n.t + n.a1));
  left = where(n.hi == INFINITY, broadcast(-INFINITY), left);
  return where(x < 0, left, log_cdf_nonnegative(x, n));
}

/** phi(x)/Phi(x), Normal.millsRatio; for x < 0, t + A1(t) at t = -x. */
static inline vdouble normal_mills_ratio(vdouble x) {
  normal_tail n = normal_tail_at(vabs(x));
  return where(x < 0, n.t + n.a1, mills_ratio_nonnegative(x, n));
}

/** min(mu, UPPER_UNDERFLOW), NaN staying NaN as in Math.min. */
static inline vdouble below_underflow(vdouble mu) {
  return where(mu > UPPER_UNDERFLOW, broadcast(UPPER_UNDERFLOW), mu);
}

/** E of N(mu, 1) truncated to [0, inf), TruncatedNormal.meanPositive: A1(-mu) below 0, else mu + phi(mu)/Phi(mu). */
static inline vdouble truncated_normal_mean(vdouble mu) {
  normal_tail n = normal_tail_at(vabs(mu));
  return where(mu < 0, n.a1, mu + mills_ratio_nonnegative(mu, n));
}

/**
 * Var of N(mu, 1) truncated to [0, inf), TruncatedNormal.variancePositive: max(A1 (A2 - A1), MIN_VALUE)
 * at t = -mu below 0, else 1 - lambda (m + lambda) with m = min(mu, 39), lambda = phi(m)/Phi(m).
 */
static inline vdouble truncated_normal_variance(vdouble mu) {
  vdouble m = below_underflow(mu);
  normal_tail n = normal_tail_at(where(mu < 0, -mu, m));
  vdouble left = n.a1 * (n.a2 - n.a1);
  left = where(left < DBL_TRUE_MIN, broadcast(DBL_TRUE_MIN), left); /* Math.max: NaN stays */
  vdouble lambda = mills_ratio_nonnegative(m, n);
  return where(mu < 0, left, 1 - lambda * (m + lambda));
}

/**
 * Entropy of N(mu, 1) truncated to [0, inf), TruncatedNormal.entropyPositive: 1 - A1 A2 / 2 -
 * log(t + A1) at t = -mu below 0, else log(2 pi e)/2 + log Phi(m) - m lambda / 2, m = min(mu, 39).
 */
static inline vdouble truncated_normal_entropy(vdouble mu) {
  vdouble m = below_underflow(mu);
  normal_tail n = normal_tail_at(where(mu < 0, -mu, m));
  vdouble left = 1 - 0.5 * n.a1 * n.a2 - vlog(n.t + n.a1);
  vdouble right = HALF_LOG_2PI_E + log_cdf_nonnegative(m, n) - 0.5 * m * mills_ratio_nonnegative(m, n);
  return where(mu < 0, left, right);
}

#endif
