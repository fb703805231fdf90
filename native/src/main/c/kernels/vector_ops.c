/*
 * Vector kernels of the native backend (org.largecat.kernel.VectorOps): float dot products
 * accumulated in double, gather-dot and scatter-axpy over a row subset of a K x D row-major float
 * matrix with dense or sparse x, and the sum of exp(v - shift). Rows, indices and lengths were
 * checked by the Java front; offsets are in elements.
 */
#include "largecat.h"
#include "simd.h"
#include "vmath.h"

/**
 * Sum of x[i] y[i] over n floats. Each product is exact in double; four vector accumulators keep
 * the adds independent, so the sum's order differs from the scalar loop's (as VectorOps allows).
 */
static inline double dot_widened(const float *x, const float *y, int64_t n) {
  vdouble sum0 = broadcast(0), sum1 = broadcast(0), sum2 = broadcast(0), sum3 = broadcast(0);
  int64_t i = 0;
  for (; i + 4 * LANES <= n; i += 4 * LANES) {
    sum0 += load_widened(x + i) * load_widened(y + i);
    sum1 += load_widened(x + i + LANES) * load_widened(y + i + LANES);
    sum2 += load_widened(x + i + 2 * LANES) * load_widened(y + i + 2 * LANES);
    sum3 += load_widened(x + i + 3 * LANES) * load_widened(y + i + 3 * LANES);
  }
  for (; i + LANES <= n; i += LANES) {
    sum0 += load_widened(x + i) * load_widened(y + i);
  }
  double sum = sum_lanes((sum0 + sum1) + (sum2 + sum3));
  for (; i < n; i++) {
    sum += (double) x[i] * y[i];
  }
  return sum;
}

/** x[xOff..xOff+n) . y[yOff..yOff+n), accumulated in double. */
EXPORT double KERNEL(dot_float)(int32_t n, const float *x, int32_t xOff, const float *y, int32_t yOff) {
  return dot_widened(x + xOff, y + yOff, n);
}

/** out[outOff + i] = W[rows[rowsOff + i]] . x[xOff..xOff+d) for i < count. */
EXPORT void KERNEL(gather_dot)(const float *w, int32_t d, const int32_t *rows, int32_t rowsOff, int32_t count,
    const float *x, int32_t xOff, double *out, int32_t outOff) {
  for (int32_t i = 0; i < count; i++) {
    out[outOff + i] = dot_widened(w + (int64_t) rows[rowsOff + i] * d, x + xOff, d);
  }
}

/** out[outOff + i] = W[rows[rowsOff + i]] . x for i < count, x the nnz pairs (indices, values) from nzOff. */
EXPORT void KERNEL(gather_dot_sparse)(const float *w, int32_t d, const int32_t *rows, int32_t rowsOff,
    int32_t count, const int32_t *indices, const float *values, int32_t nzOff, int32_t nnz, double *out,
    int32_t outOff) {
  const int32_t *index = indices + nzOff;
  const float *value = values + nzOff;
  for (int32_t i = 0; i < count; i++) {
    const float *row = w + (int64_t) rows[rowsOff + i] * d;
    double sum = 0;
    for (int32_t j = 0; j < nnz; j++) {
      sum += (double) row[index[j]] * value[j];
    }
    out[outOff + i] = sum;
  }
}

/** W[rows[rowsOff + i]] += coef[coefOff + i] * x[xOff..xOff+d), each element rounded once, rows in order. */
EXPORT void KERNEL(scatter_axpy)(float *w, int32_t d, const int32_t *rows, int32_t rowsOff, int32_t count,
    const float *coef, int32_t coefOff, const float *x, int32_t xOff) {
  const float *xs = x + xOff;
  for (int32_t i = 0; i < count; i++) {
    float *row = w + (int64_t) rows[rowsOff + i] * d;
    float c = coef[coefOff + i];
    for (int32_t j = 0; j < d; j++) {
      row[j] = fmaf(c, xs[j], row[j]);
    }
  }
}

/** W[rows[rowsOff + i]] += coef[coefOff + i] * x for i < count, x sparse; each element rounded once. */
EXPORT void KERNEL(scatter_axpy_sparse)(float *w, int32_t d, const int32_t *rows, int32_t rowsOff,
    int32_t count, const float *coef, int32_t coefOff, const int32_t *indices, const float *values,
    int32_t nzOff, int32_t nnz) {
  const int32_t *index = indices + nzOff;
  const float *value = values + nzOff;
  for (int32_t i = 0; i < count; i++) {
    float *row = w + (int64_t) rows[rowsOff + i] * d;
    float c = coef[coefOff + i];
    for (int32_t j = 0; j < nnz; j++) {
      row[index[j]] = fmaf(c, value[j], row[index[j]]);
    }
  }
}

/** Sum of exp(v[vOff + i] - shift) over n elements, LANES partial sums. */
EXPORT double KERNEL(sum_exp)(int32_t n, const double *v, int32_t vOff, double shift) {
  const double *vs = v + vOff;
  vdouble sum = broadcast(0);
  int32_t i = 0;
  for (; i + LANES <= n; i += LANES) {
    sum += vexp(load(vs + i) - shift);
  }
  double total = sum_lanes(sum);
  if (i < n) {
    /* The missing lanes get exp(-Inf) = 0, whatever the shift. */
    vdouble tail = load_part(vs + i, n - i, 0) - shift;
    for (int k = n - i; k < LANES; k++) {
      tail[k] = -INFINITY;
    }
    total += sum_lanes(vexp(tail));
  }
  return total;
}
