/*
 * The vector types the kernels compute with: GCC vector extensions as wide as the instruction set
 * the file is compiled for (64 bytes with AVX-512, 32 with AVX2, 16 otherwise, which GCC maps to
 * SSE2, NEON or plain scalar code), and the few operations C has no operator for. Comparisons of
 * vdouble give a vlong mask per lane: -1 where true, 0 where false (false for NaN, as in Java).
 */
#ifndef LARGECAT_SIMD_H
#define LARGECAT_SIMD_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#if defined(__AVX512F__)
#define VECTOR_BYTES 64
#elif defined(__AVX2__)
#define VECTOR_BYTES 32
#else
#define VECTOR_BYTES 16
#endif

/** Doubles per vector. */
#define LANES (VECTOR_BYTES / 8)
/** Floats per vector: twice LANES. */
#define FLOAT_LANES (VECTOR_BYTES / 4)

typedef double vdouble __attribute__((vector_size(VECTOR_BYTES)));
typedef int64_t vlong __attribute__((vector_size(VECTOR_BYTES)));
typedef uint64_t vulong __attribute__((vector_size(VECTOR_BYTES)));
/** LANES floats, which widen to one vdouble. */
typedef float vfloat __attribute__((vector_size(VECTOR_BYTES / 2)));
/** A whole vector of FLOAT_LANES floats; comparisons give a vint mask, as for vdouble. */
typedef float vsingle __attribute__((vector_size(VECTOR_BYTES)));
typedef int32_t vint __attribute__((vector_size(VECTOR_BYTES)));
typedef uint32_t vuint __attribute__((vector_size(VECTOR_BYTES)));

static inline vdouble broadcast(double x) {
  vdouble v;
  for (int k = 0; k < LANES; k++) {
    v[k] = x;
  }
  return v;
}

static inline vdouble load(const double *p) {
  vdouble v;
  memcpy(&v, p, sizeof v);
  return v;
}

static inline void store(double *p, vdouble v) {
  memcpy(p, &v, sizeof v);
}

/** The first n <= LANES elements at p, the other lanes set to fill. */
static inline vdouble load_part(const double *p, int n, double fill) {
  vdouble v = broadcast(fill);
  for (int k = 0; k < n; k++) {
    v[k] = p[k];
  }
  return v;
}

/** Stores the first n <= LANES lanes of v at p. */
static inline void store_part(double *p, int n, vdouble v) {
  for (int k = 0; k < n; k++) {
    p[k] = v[k];
  }
}

/**
 * LANES floats at p, widened exactly to double. On x86 by the one conversion instruction: GCC 12
 * lowers __builtin_convertvector from float to double in halves and pieces.
 */
static inline vdouble load_widened(const float *p) {
#if defined(__AVX512F__)
  return (vdouble) _mm512_cvtps_pd(_mm256_loadu_ps(p));
#elif defined(__AVX2__)
  return (vdouble) _mm256_cvtps_pd(_mm_loadu_ps(p));
#elif defined(__SSE2__)
  return (vdouble) _mm_cvtps_pd(_mm_castsi128_ps(_mm_loadl_epi64((const __m128i *) p)));
#else
  vfloat v;
  memcpy(&v, p, sizeof v);
  return __builtin_convertvector(v, vdouble);
#endif
}

/** Stores the LANES lanes of v at p, each rounded to float. */
static inline void store_narrowed(float *p, vdouble v) {
#if defined(__AVX512F__)
  _mm256_storeu_ps(p, _mm512_cvtpd_ps((__m512d) v));
#elif defined(__AVX2__)
  _mm_storeu_ps(p, _mm256_cvtpd_ps((__m256d) v));
#elif defined(__SSE2__)
  _mm_storel_epi64((__m128i *) p, _mm_castps_si128(_mm_cvtpd_ps((__m128d) v)));
#else
  for (int k = 0; k < LANES; k++) {
    p[k] = (float) v[k];
  }
#endif
}

/** base[index[k]] for the LANES indices at index, widened exactly to double; by the gather instruction on x86. */
static inline vdouble gather_widened(const float *base, const int32_t *index) {
#if defined(__AVX512F__)
  return (vdouble) _mm512_cvtps_pd(_mm256_i32gather_ps(base, _mm256_loadu_si256((const __m256i *) index), 4));
#elif defined(__AVX2__)
  return (vdouble) _mm256_cvtps_pd(_mm_i32gather_ps(base, _mm_loadu_si128((const __m128i *) index), 4));
#else
  vdouble r;
  for (int k = 0; k < LANES; k++) {
    r[k] = base[index[k]];
  }
  return r;
#endif
}

/** Lane by lane: mask ? a : b. */
static inline vdouble where(vlong mask, vdouble a, vdouble b) {
  return (vdouble) ((mask & (vlong) a) | (~mask & (vlong) b));
}

/** a*b + c rounded once in every lane (an instruction where the ISA has FMA). */
static inline vdouble vfma(vdouble a, vdouble b, vdouble c) {
  vdouble r;
  for (int k = 0; k < LANES; k++) {
    r[k] = fma(a[k], b[k], c[k]);
  }
  return r;
}

/** a*b + c: fused (one instruction) where the ISA has FMA, two roundings elsewhere; for sums whose accuracy allows either. */
static inline vdouble multiply_add(vdouble a, vdouble b, vdouble c) {
#if defined(__FMA__)
  return vfma(a, b, c);
#else
  return a * b + c;
#endif
}

/** sqrt(a) in every lane (an instruction without errno, -fno-math-errno). */
static inline vdouble vsqrt(vdouble a) {
  vdouble r;
  for (int k = 0; k < LANES; k++) {
    r[k] = sqrt(a[k]);
  }
  return r;
}

/** |a| in every lane, by clearing the sign bit. */
static inline vdouble vabs(vdouble a) {
  return (vdouble) ((vlong) a & 0x7fffffffffffffffL);
}

/** table[index[k]] in every lane k, by the gather instruction where there is one. */
static inline vdouble gather(const double *table, vlong index) {
#if defined(__AVX512F__)
  return (vdouble) _mm512_i64gather_pd((__m512i) index, table, 8);
#elif defined(__AVX2__)
  return (vdouble) _mm256_i64gather_pd(table, (__m256i) index, 8);
#else
  vdouble r;
  for (int k = 0; k < LANES; k++) {
    r[k] = table[index[k]];
  }
  return r;
#endif
}

/** Whether the mask is true in any lane. */
static inline int any(vlong mask) {
  int64_t bits = 0;
  for (int k = 0; k < LANES; k++) {
    bits |= mask[k];
  }
  return bits != 0;
}

/** -1 in the lanes where a is NaN, else 0. */
static inline vlong is_nan(vdouble a) {
  return a != a;
}

static inline vsingle broadcast_single(float x) {
  vsingle v;
  for (int k = 0; k < FLOAT_LANES; k++) {
    v[k] = x;
  }
  return v;
}

static inline vsingle load_single(const float *p) {
  vsingle v;
  memcpy(&v, p, sizeof v);
  return v;
}

static inline void store_single(float *p, vsingle v) {
  memcpy(p, &v, sizeof v);
}

/** The first n <= FLOAT_LANES floats at p, the other lanes set to fill. */
static inline vsingle load_single_part(const float *p, int n, float fill) {
  vsingle v = broadcast_single(fill);
  for (int k = 0; k < n; k++) {
    v[k] = p[k];
  }
  return v;
}

/** Stores the first n <= FLOAT_LANES lanes of v at p. */
static inline void store_single_part(float *p, int n, vsingle v) {
  for (int k = 0; k < n; k++) {
    p[k] = v[k];
  }
}

/** Lane by lane: mask ? a : b. */
static inline vsingle where_single(vint mask, vsingle a, vsingle b) {
  return (vsingle) ((mask & (vint) a) | (~mask & (vint) b));
}

/** a*b + c rounded once in every float lane (an instruction where the ISA has FMA). */
static inline vsingle vfma_single(vsingle a, vsingle b, vsingle c) {
  vsingle r;
  for (int k = 0; k < FLOAT_LANES; k++) {
    r[k] = fmaf(a[k], b[k], c[k]);
  }
  return r;
}

/** The first and the second LANES floats of v, each widened exactly to a vdouble. */
static inline void widen_halves(vsingle v, vdouble *low, vdouble *high) {
#if defined(__AVX512F__)
  *low = (vdouble) _mm512_cvtps_pd(_mm512_castps512_ps256((__m512) v));
  *high = (vdouble) _mm512_cvtps_pd(_mm512_extractf32x8_ps((__m512) v, 1));
#elif defined(__AVX2__)
  *low = (vdouble) _mm256_cvtps_pd(_mm256_castps256_ps128((__m256) v));
  *high = (vdouble) _mm256_cvtps_pd(_mm256_extractf128_ps((__m256) v, 1));
#elif defined(__SSE2__)
  *low = (vdouble) _mm_cvtps_pd((__m128) v);
  *high = (vdouble) _mm_cvtps_pd(_mm_movehl_ps((__m128) v, (__m128) v));
#else
  for (int k = 0; k < LANES; k++) {
    (*low)[k] = v[k];
    (*high)[k] = v[k + LANES];
  }
#endif
}

/** The lanes of low then of high, each rounded to float: the inverse of widen_halves, for builds without FMA. */
static inline vsingle narrow_halves(vdouble low, vdouble high) {
#if defined(__SSE2__) && !defined(__AVX2__)
  return (vsingle) _mm_movelh_ps(_mm_cvtpd_ps((__m128d) low), _mm_cvtpd_ps((__m128d) high));
#else
  vsingle v;
  for (int k = 0; k < LANES; k++) {
    v[k] = (float) low[k];
    v[k + LANES] = (float) high[k];
  }
  return v;
#endif
}

static inline double sum_lanes(vdouble v) {
  double s = 0;
  for (int k = 0; k < LANES; k++) {
    s += v[k];
  }
  return s;
}

#endif
