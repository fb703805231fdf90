/*
 * exp, expm1, log and log1p on vdouble lanes, and exp on float lanes, without branches, so that the
 * special functions and float kernels built on them vectorise. exp, log and log1p are within 0.9
 * ulp (3 million random arguments against long-double libm, with FMA; 1.2 ulp without), expm1
 * within a few, the float exp within 1 float ulp; the oracle tests of the functions built on them
 * hold those to their contracts. IEEE special values as in java.lang.Math:
 * NaN gives NaN, exp(+-Inf) = +Inf / 0, log(0) = -Inf, log(x < 0) = NaN, log1p(+-0) = +-0.
 *
 * Argument reduction after Cody and Waite (Software Manual for the Elementary Functions, 1980),
 * ln 2 split as in fdlibm so that k * LN2_HI is exact; log after fdlibm's e_log.c: log(1 + f) =
 * f - (f^2/2 - s (f^2/2 + R(s^2))) with s = f / (2 + f), where 2 atanh(s) = 2s + s R(s^2). The
 * polynomials are the Taylor series themselves, long enough that truncation is below 1e-18 (6e-9
 * for the float exp).
 */
#ifndef LARGECAT_VMATH_H
#define LARGECAT_VMATH_H

#include <float.h>

#include "simd.h"

static const double LN2_HI = 6.93147180369123816490e-01; /* ln 2 to 32 bits: k * LN2_HI is exact */
static const double LN2_LO = 1.90821492927058770002e-10; /* ln 2 - LN2_HI */
static const double INV_LN2 = 1.44269504088896338700e+00;
/** Adding 1.5 * 2^52 rounds a double of magnitude below 2^51 to an integer, held in the low bits. */
static const double ROUNDING_SHIFTER = 0x1.8p52;

/** The integers n in the lanes (|n| < 2^51) as doubles, exactly. */
static inline vdouble small_integer_to_double(vlong n) {
  return (vdouble) (n + (vlong) broadcast(ROUNDING_SHIFTER)) - ROUNDING_SHIFTER;
}

/** 2^k for integers k in [-1022, 1023], from the exponent bits. */
static inline vdouble power_of_two(vlong k) {
  return (vdouble) ((k + 1023) << 52);
}

/** (e^r - 1)/r = sum over n >= 0 of r^n / (n + 1)!, to r^12 (truncation below 5e-18 for |r| <= ln 2 / 2). */
static inline vdouble exp_taylor_quotient(vdouble r) {
  vdouble q = broadcast(1.0 / 6227020800);
  q = multiply_add(q, r, broadcast(1.0 / 479001600));
  q = multiply_add(q, r, broadcast(1.0 / 39916800));
  q = multiply_add(q, r, broadcast(1.0 / 3628800));
  q = multiply_add(q, r, broadcast(1.0 / 362880));
  q = multiply_add(q, r, broadcast(1.0 / 40320));
  q = multiply_add(q, r, broadcast(1.0 / 5040));
  q = multiply_add(q, r, broadcast(1.0 / 720));
  q = multiply_add(q, r, broadcast(1.0 / 120));
  q = multiply_add(q, r, broadcast(1.0 / 24));
  q = multiply_add(q, r, broadcast(1.0 / 6));
  q = multiply_add(q, r, broadcast(0.5));
  return multiply_add(q, r, broadcast(1));
}

/** p 2^k for the integers k in kd (and k), rounded once; kd in [-1076, 1024], p in [1/2, 2]. */
static inline vdouble scale_by_power_of_two(vdouble p, vdouble kd, vlong k) {
#if defined(__AVX512F__)
  (void) k;
  return (vdouble) _mm512_scalef_pd((__m512d) p, (__m512d) kd); /* one instruction, same rounding */
#else
  (void) kd;
  /* 2^k in two factors, each a normal double; only the last product rounds. */
  vlong half = (vlong) ((vulong) (k + 2048) >> 1) - 1024; /* floor(k / 2) */
  return p * power_of_two(half) * power_of_two(k - half);
#endif
}

/** e^x. */
static inline vdouble vexp(vdouble x) {
  /* Beyond [-746, 710] the result is 0 or +Inf, which the clamped arguments still give; NaN stays. */
  vdouble clamped = where(x > 710, broadcast(710), where(x < -746, broadcast(-746), x));
  /* k = round(x / ln 2), as a double and, from the same bits, as an integer. */
  vdouble shifted = multiply_add(clamped, broadcast(INV_LN2), broadcast(ROUNDING_SHIFTER));
  vdouble kd = shifted - ROUNDING_SHIFTER;
  vlong k = (vlong) shifted - (vlong) broadcast(ROUNDING_SHIFTER);
  vdouble r = (clamped - kd * LN2_HI) - kd * LN2_LO; /* |r| <= ln 2 / 2 */
  vdouble p = multiply_add(exp_taylor_quotient(r), r, broadcast(1));
  return scale_by_power_of_two(p, kd, k);
}

static const float LN2_HI_FLOAT = 0x1.63p-1f;      /* ln 2 to 9 bits: k * LN2_HI_FLOAT is exact for |k| < 2^15 */
static const float LN2_LO_FLOAT = -0x1.bd0106p-13f; /* ln 2 - LN2_HI_FLOAT, rounded to float */
static const float INV_LN2_FLOAT = 0x1.715476p0f;
/** Adding 1.5 * 2^23 rounds a float of magnitude below 2^22 to an integer, held in the low bits. */
static const float ROUNDING_SHIFTER_FLOAT = 0x1.8p23f;

/** 2^k for integers k in [-126, 127], from the exponent bits. */
static inline vsingle power_of_two_single(vint k) {
  return (vsingle) ((k + 127) << 23);
}

/**
 * e^x on float lanes, within 1 float ulp (0.94 at worst: every float argument checked against
 * double exp), subnormal results rounded once. With FMA, as vexp with float constants and the
 * Taylor quotient to r^6 (truncation below 6e-9 relative for |r| <= ln 2 / 2): the first reduction
 * step is exact (k * LN2_HI_FLOAT is, and so is its difference from x), and p = 1 + r q rounds
 * once. Without FMA the extra roundings of the float steps reach 1.2 ulps, so the lanes are widened
 * and taken through vexp.
 */
static inline vsingle vexp_single(vsingle x) {
#if defined(__FMA__)
  /* Beyond [-104, 89] the result is 0 or +Inf, which the clamped arguments still give; NaN stays. */
  vsingle clamped = where_single(x > 89, broadcast_single(89),
      where_single(x < -104, broadcast_single(-104), x));
  /* k = round(x / ln 2), as a float and, from the same bits, as an integer. */
  vsingle shifted = vfma_single(clamped, broadcast_single(INV_LN2_FLOAT), broadcast_single(ROUNDING_SHIFTER_FLOAT));
  vsingle kf = shifted - ROUNDING_SHIFTER_FLOAT; /* in [-150, 128] */
  vsingle r = vfma_single(kf, broadcast_single(-LN2_HI_FLOAT), clamped); /* exact */
  r = vfma_single(kf, broadcast_single(-LN2_LO_FLOAT), r); /* |r| <= ln 2 / 2 */
  vsingle q = broadcast_single(1.0f / 5040);
  q = vfma_single(q, r, broadcast_single(1.0f / 720));
  q = vfma_single(q, r, broadcast_single(1.0f / 120));
  q = vfma_single(q, r, broadcast_single(1.0f / 24));
  q = vfma_single(q, r, broadcast_single(1.0f / 6));
  q = vfma_single(q, r, broadcast_single(0.5f));
  q = vfma_single(q, r, broadcast_single(1));
  vsingle p = vfma_single(q, r, broadcast_single(1));
#if defined(__AVX512F__)
  return (vsingle) _mm512_scalef_ps((__m512) p, (__m512) kf); /* p 2^k rounded once */
#else
  /* 2^k in two normal factors, as in scale_by_power_of_two; only the last product rounds. */
  vint k = (vint) shifted - (vint) broadcast_single(ROUNDING_SHIFTER_FLOAT);
  vint half = (vint) ((vuint) (k + 256) >> 1) - 128; /* floor(k / 2) */
  return p * power_of_two_single(half) * power_of_two_single(k - half);
#endif
#else
  vdouble low, high;
  widen_halves(x, &low, &high);
  return narrow_halves(vexp(low), vexp(high));
#endif
}

/**
 * e^x - 1: by its Taylor series for |x| < ln 2 / 2, where e^x - 1 would cancel; e^x - 1 beyond,
 * where it loses at most a few ulps (the callers need it relative, not to the last bit).
 */
static inline vdouble vexpm1(vdouble x) {
  return where(vabs(x) < M_LN2 / 2, exp_taylor_quotient(x) * x, vexp(x) - 1);
}

/**
 * log x + c for a correction |c| below an ulp of 1: the correction joins the low-order terms before
 * the last rounding (as in fdlibm's s_log1p.c). Special values are the caller's.
 */
static inline vdouble log_plus(vdouble x, vdouble c) {
  /* x = 2^e m with m in [sqrt(2)/2, sqrt(2)); subnormals are scaled by 2^54 first. */
  vlong subnormal = x < DBL_MIN;
  vdouble scaled = where(subnormal, x * 0x1p54, x);
  vlong bits = (vlong) scaled;
  vlong e = (vlong) ((vulong) bits >> 52) - 1023 - (subnormal & 54);
  vdouble m = (vdouble) ((bits & 0x000fffffffffffffL) | 0x3ff0000000000000L);
  vlong high = m > M_SQRT2;
  m = where(high, m * 0.5, m);
  e -= high; /* high is -1 where true */
  vdouble f = m - 1; /* exact */
  vdouble s = f / (2 + f);
  vdouble z = s * s;
  /* R(z) = sum over n >= 1 of 2 z^n / (2n + 1), to n = 10 (z <= 0.0295: truncation below 1e-18). */
  vdouble r = broadcast(2.0 / 21);
  r = multiply_add(r, z, broadcast(2.0 / 19));
  r = multiply_add(r, z, broadcast(2.0 / 17));
  r = multiply_add(r, z, broadcast(2.0 / 15));
  r = multiply_add(r, z, broadcast(2.0 / 13));
  r = multiply_add(r, z, broadcast(2.0 / 11));
  r = multiply_add(r, z, broadcast(2.0 / 9));
  r = multiply_add(r, z, broadcast(2.0 / 7));
  r = multiply_add(r, z, broadcast(2.0 / 5));
  r = multiply_add(r, z, broadcast(2.0 / 3));
  r = r * z;
  vdouble halfSquare = 0.5 * f * f;
  vdouble ed = small_integer_to_double(e);
  return ed * LN2_HI - ((halfSquare - (s * (halfSquare + r) + (ed * LN2_LO + c))) - f);
}

/** log x from log_plus's result r: the IEEE special values where x is not a positive finite double. */
static inline vdouble log_special_values(vdouble x, vdouble r) {
  vdouble special = where(x == 0, broadcast(-INFINITY), where(x == INFINITY, x, broadcast(NAN)));
  return where((x > 0) & (x < INFINITY), r, special);
}

/** log x. */
static inline vdouble vlog(vdouble x) {
  return log_special_values(x, log_plus(x, broadcast(0)));
}

/** log(1 + y), as log u + c/u with u = 1 + y rounded and c = y - (u - 1) its rounding error; +-0 stay. */
static inline vdouble vlog1p(vdouble y) {
  vdouble u = 1 + y;
  vdouble result = log_special_values(u, log_plus(u, (y - (u - 1)) / u));
  return where(y == 0, y, result);
}

#endif
