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

#if defined(__AVX512F__)
#define VECTOR_BYTES 64
#elif defined(__AVX2__)
#define VECTOR_BYTES 32
#else
#define VECTOR_BYTES 16
#endif

/** Doubles per vector. */
#define LANES (VECTOR_BYTES / 8)

typedef double vdouble __attribute__((vector_size(VECTOR_BYTES)));
typedef int64_t vlong __attribute__((vector_size(VECTOR_BYTES)));
typedef uint64_t vulong __attribute__((vector_size(VECTOR_BYTES)));
/** LANES floats, which widen to one vdouble. */
typedef float vfloat __attribute__((vector_size(VECTOR_BYTES / 2)));

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

/** The first n < LANES elements at p, the other lanes set to fill. */
static inline vdouble load_part(const double *p, int n, double fill) {
  vdouble v = broadcast(fill);
  for (int k = 0; k < n; k++) {
    v[k] = p[k];
  }
  return v;
}

/** Stores the first n < LANES lanes of v at p. */
static inline void store_part(double *p, int n, vdouble v) {
  for (int k = 0; k < n; k++) {
    p[k] = v[k];
  }
}

/** LANES floats at p, widened exactly to double. */
static inline vdouble load_widened(const float *p) {
  vfloat v;
  memcpy(&v, p, sizeof v);
  return __builtin_convertvector(v, vdouble);
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

static inline vdouble vsqrt(vdouble a) {
  vdouble r;
  for (int k = 0; k < LANES; k++) {
    r[k] = sqrt(a[k]);
  }
  return r;
}

/** table[index[k]] in every lane k. */
static inline vdouble gather(const double *table, vlong index) {
  vdouble r;
  for (int k = 0; k < LANES; k++) {
    r[k] = table[index[k]];
  }
  return r;
}

static inline double sum_lanes(vdouble v) {
  double s = 0;
  for (int k = 0; k < LANES; k++) {
    s += v[k];
  }
  return s;
}

#endif
