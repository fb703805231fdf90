/*
 * Vector kernels of the native backend (org.largecat.kernel.VectorOps): float dot products
 * accumulated in double, gather-dot and scatter-axpy over a row subset of a K x D row-major float
 * matrix with dense or sparse x, the maximum, the sum of exp(v - shift) over doubles and over
 * floats, log-sum-exp, the float exponential, the float softmax of a row and the gradient step of
 * a set of rows. Rows, indices and lengths were checked by the Java front; offsets are in elements.
 */
#include "largecat.h"
#include "simd.h"
#include "vmath.h"

/** Columns of x widened to double at a time: 8 KB of stack. */
#define BLOCK 1024

/** Widens n <= BLOCK floats of x to double. */
static inline void widen(const float *x, int32_t n, double *wide) {
  for (int32_t j = 0; j < n; j++) {
    wide[j] = x[j];
  }
}

/**
 * Sum of w[j] xWide[j] over n <= BLOCK, w widened as it is read. Each product is exact in double,
 * so a fused multiply-add rounds only the sum, as the scalar loop does; four vector accumulators
 * keep the adds independent, so the order of the sum differs from the scalar loop's (as VectorOps
 * allows).
 */
static inline double dot_with_widened(const float *w, const double *xWide, int32_t n) {
  vdouble sum0 = broadcast(0), sum1 = broadcast(0), sum2 = broadcast(0), sum3 = broadcast(0);
  int32_t j = 0;
  for (; j + 4 * LANES <= n; j += 4 * LANES) {
    sum0 = multiply_add(load_widened(w + j), load(xWide + j), sum0);
    sum1 = multiply_add(load_widened(w + j + LANES), load(xWide + j + LANES), sum1);
    sum2 = multiply_add(load_widened(w + j + 2 * LANES), load(xWide + j + 2 * LANES), sum2);
    sum3 = multiply_add(load_widened(w + j + 3 * LANES), load(xWide + j + 3 * LANES), sum3);
  }
  for (; j + LANES <= n; j += LANES) {
    sum0 = multiply_add(load_widened(w + j), load(xWide + j), sum0);
  }
  double sum = sum_lanes((sum0 + sum1) + (sum2 + sum3));
  for (; j < n; j++) {
    sum += w[j] * xWide[j];
  }
  return sum;
}

/** x[xOff..xOff+n) . y[yOff..yOff+n), accumulated in double. */
EXPORT double KERNEL(dot_float)(int32_t n, const float *x, int32_t xOff, const float *y, int32_t yOff) {
  double xWide[BLOCK];
  double sum = 0;
  for (int32_t start = 0; start < n; start += BLOCK) {
    int32_t length = n - start < BLOCK ? n - start : BLOCK;
    widen(x + xOff + start, length, xWide);
    sum += dot_with_widened(y + yOff + start, xWide, length);
  }
  return sum;
}

/**
 * out[outOff + i] = W[rows[rowsOff + i]] . x[xOff..xOff+d) for i < count; x is widened once per
 * block of columns for all the rows.
 */
EXPORT void KERNEL(gather_dot)(const float *w, int32_t d, const int32_t *rows, int32_t rowsOff, int32_t count,
    const float *x, int32_t xOff, double *out, int32_t outOff) {
  double xWide[BLOCK];
  for (int32_t i = 0; i < count; i++) {
    out[outOff + i] = 0;
  }
  for (int32_t start = 0; start < d; start += BLOCK) {
    int32_t length = d - start < BLOCK ? d - start : BLOCK;
    widen(x + xOff + start, length, xWide);
    for (int32_t i = 0; i < count; i++) {
      out[outOff + i] += dot_with_widened(w + (int64_t) rows[rowsOff + i] * d + start, xWide, length);
    }
  }
}

/**
 * out[outOff + i] = W[rows[rowsOff + i]] . x for i < count, x the nnz pairs (indices, values) from
 * nzOff: LANES of a row's elements gathered at a time, the products summed as in dot_with_widened.
 */
EXPORT void KERNEL(gather_dot_sparse)(const float *w, int32_t d, const int32_t *rows, int32_t rowsOff,
    int32_t count, const int32_t *indices, const float *values, int32_t nzOff, int32_t nnz, double *out,
    int32_t outOff) {
  const int32_t *index = indices + nzOff;
  const float *value = values + nzOff;
  for (int32_t i = 0; i < count; i++) {
    const float *row = w + (int64_t) rows[rowsOff + i] * d;
    vdouble sums = broadcast(0);
    int32_t j = 0;
    for (; j + LANES <= nnz; j += LANES) {
      sums = multiply_add(gather_widened(row, index + j), load_widened(value + j), sums);
    }
    double sum = sum_lanes(sums);
    for (; j < nnz; j++) {
      sum += (double) row[index[j]] * value[j];
    }
    out[outOff + i] = sum;
  }
}

/** y[yOff..yOff+n) += a * x[xOff..xOff+n), each element rounded once. */
EXPORT void KERNEL(axpy_float)(int32_t n, float a, const float *x, int32_t xOff, float *y, int32_t yOff) {
  const float *xs = x + xOff;
  float *ys = y + yOff;
  for (int32_t i = 0; i < n; i++) {
    ys[i] = fmaf(a, xs[i], ys[i]);
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

/**
 * Rows ahead of the one being used whose lines gather_axpy and row_step ask the memory system for,
 * so that the misses of random rows of a large table overlap the work on the rows before.
 */
#define ROWS_AHEAD 8

/** Asks for the d floats at p, a line at a time, to be read (RW 0) or written (RW 1) soon. */
#define PREFETCH_ROW(p, d, RW)                                          \
  do {                                                                  \
    for (int32_t line = 0; line < (d); line += 64 / (int32_t) sizeof(float)) \
      __builtin_prefetch((p) + line, RW, 0);                            \
    __builtin_prefetch((p) + (d) - 1, RW, 0);                           \
  } while (0)

/** y[yOff..yOff+d) += coef[coefOff + i] * W[rows[rowsOff + i]] for i < count, rows in order; each element rounded once a row. */
EXPORT void KERNEL(gather_axpy)(const float *w, int32_t d, const int32_t *rows, int32_t rowsOff, int32_t count,
    const float *coef, int32_t coefOff, float *y, int32_t yOff) {
  float *ys = y + yOff;
  for (int32_t i = -ROWS_AHEAD; i < count; i++) { /* from -ROWS_AHEAD: the first rows are asked for too */
    if (i + ROWS_AHEAD < count) {
      PREFETCH_ROW(w + (int64_t) rows[rowsOff + i + ROWS_AHEAD] * d, d, 0);
    }
    if (i < 0) {
      continue;
    }
    const float *row = w + (int64_t) rows[rowsOff + i] * d;
    float c = coef[coefOff + i];
    for (int32_t j = 0; j < d; j++) {
      ys[j] = fmaf(c, row[j], ys[j]);
    }
  }
}

/**
 * VectorOps.rowStep: the gradient step of count rows of w (and s, NULL for the plain step), each
 * operation rounded once as the Java reference writes it (-ffp-contract=off), so the bits are the
 * same; each row's lines are asked for ROWS_AHEAD rows early.
 */
EXPORT void KERNEL(row_step)(float *w, float *s, int32_t d, const int32_t *rows, int32_t rowsOff,
    int32_t count, float *g, int32_t gOff, const float *fresh, const float *keep, int32_t weightsOff,
    float rate, float scale, float precision) {
  for (int32_t i = -ROWS_AHEAD; i < count; i++) { /* from -ROWS_AHEAD: the first rows are asked for too */
    if (i + ROWS_AHEAD < count) {
      int64_t ahead = (int64_t) rows[rowsOff + i + ROWS_AHEAD] * d;
      PREFETCH_ROW(w + ahead, d, 1);
      if (s != NULL) {
        PREFETCH_ROW(s + ahead, d, 1);
      }
    }
    if (i < 0) {
      continue;
    }
    float *wr = w + (int64_t) rows[rowsOff + i] * d;
    float *gr = g + gOff + (int64_t) i * d;
    if (s == NULL) {
      for (int32_t j = 0; j < d; j++) {
        float gj = gr[j] * scale - precision * wr[j];
        gr[j] = 0;
        wr[j] += rate * gj;
      }
      continue;
    }
    float *sr = s + (int64_t) rows[rowsOff + i] * d;
    float f = fresh[weightsOff + i];
    float k = keep[weightsOff + i];
    for (int32_t j = 0; j < d; j++) {
      float gj = gr[j] * scale - precision * wr[j];
      gr[j] = 0;
      float sj = f * gj * gj + k * sr[j];
      sr[j] = sj;
      wr[j] += rate * gj / (1 + sqrtf(sj));
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

/** The largest of n elements, NaN if any is NaN, -Inf for n = 0 (VectorOps.max); LANES running maxima. */
static inline double max_of(int32_t n, const double *v) {
  vdouble max = broadcast(-INFINITY);
  vlong nan = (vlong) broadcast(0);
  int32_t i = 0;
  for (; i + LANES <= n; i += LANES) {
    vdouble x = load(v + i);
    nan |= is_nan(x);
    max = where(x > max, x, max);
  }
  double result = -INFINITY;
  for (int k = 0; k < LANES; k++) {
    result = max[k] > result ? max[k] : result;
  }
  for (; i < n; i++) {
    if (isnan(v[i])) {
      return v[i];
    }
    result = v[i] > result ? v[i] : result;
  }
  return any(nan) ? NAN : result;
}

EXPORT double KERNEL(max)(int32_t n, const double *v, int32_t vOff) {
  return max_of(n, v + vOff);
}

/** Sum of exp(v[i] - shift) over n elements, LANES partial sums. */
static inline double sum_exp(int32_t n, const double *v, double shift) {
  vdouble sum = broadcast(0);
  int32_t i = 0;
  for (; i + LANES <= n; i += LANES) {
    sum += vexp(load(v + i) - shift);
  }
  double total = sum_lanes(sum);
  if (i < n) {
    /* The missing lanes get exp(-Inf) = 0, whatever the shift. */
    vdouble tail = load_part(v + i, n - i, 0) - shift;
    for (int k = n - i; k < LANES; k++) {
      tail[k] = -INFINITY;
    }
    total += sum_lanes(vexp(tail));
  }
  return total;
}

EXPORT double KERNEL(sum_exp)(int32_t n, const double *v, int32_t vOff, double shift) {
  return sum_exp(n, v + vOff, shift);
}

/**
 * log(sum exp(v)) over n elements, shifted by the maximum, as ScalarVectorOps.logSumExpKernel: the
 * maximum itself where it is infinite or NaN (all -Inf, n = 0, or a +Inf or NaN term).
 */
EXPORT double KERNEL(log_sum_exp)(int32_t n, const double *v, int32_t vOff) {
  double max = max_of(n, v + vOff);
  if (!isfinite(max)) {
    return max;
  }
  return max + log(sum_exp(n, v + vOff, max));
}

/** The float exponentials of the lanes of difference, each half widened and added into its partial sums. */
static inline vsingle exp_accumulated(vsingle difference, vdouble *low_sum, vdouble *high_sum) {
  vsingle e = vexp_single(difference);
  vdouble low, high;
  widen_halves(e, &low, &high);
  *low_sum += low;
  *high_sum += high;
  return e;
}

/**
 * Sum of the floats e^{v[i] - shift} over n elements in double, each the float exponential of the
 * float difference (VectorOps.sumExp on floats), FLOAT_LANES at a time into two vectors of partial
 * sums; each term is also stored at out[i] unless out is NULL.
 */
static inline double sum_exp_single(int32_t n, const float *v, float shift, float *out) {
  vdouble low_sum = broadcast(0), high_sum = broadcast(0);
  int32_t i = 0;
  for (; i + FLOAT_LANES <= n; i += FLOAT_LANES) {
    vsingle e = exp_accumulated(load_single(v + i) - shift, &low_sum, &high_sum);
    if (out != NULL) {
      store_single(out + i, e);
    }
  }
  if (i < n) {
    vsingle difference = load_single_part(v + i, n - i, 0) - shift;
    for (int k = n - i; k < FLOAT_LANES; k++) {
      difference[k] = -INFINITY; /* the missing lanes get exp(-Inf) = 0, whatever the shift */
    }
    vsingle e = exp_accumulated(difference, &low_sum, &high_sum);
    if (out != NULL) {
      store_single_part(out + i, n - i, e);
    }
  }
  return sum_lanes(low_sum + high_sum);
}

EXPORT double KERNEL(sum_exp_float)(int32_t n, const float *v, int32_t vOff, float shift) {
  return sum_exp_single(n, v + vOff, shift, NULL);
}

/** out[outOff + i] = e^{x[xOff + i]} over n floats (VectorOps.exp), FLOAT_LANES at a time; in place when out is x. */
EXPORT void KERNEL(exp_float)(int32_t n, const float *x, int32_t xOff, float *out, int32_t outOff) {
  const float *xs = x + xOff;
  float *ys = out + outOff;
  int32_t i = 0;
  for (; i + FLOAT_LANES <= n; i += FLOAT_LANES) {
    store_single(ys + i, vexp_single(load_single(xs + i)));
  }
  if (i < n) {
    store_single_part(ys + i, n - i, vexp_single(load_single_part(xs + i, n - i, 0)));
  }
}

/** The larger of highest and y in every lane; a NaN in either stays. */
static inline vsingle max_keeping_nan(vsingle highest, vsingle y) {
  return where_single((y > highest) | (y != y), y, highest);
}

/**
 * The float softmax of n scores in place, returning their log-sum-exp (VectorOps.softmax): the
 * maximum and the terms FLOAT_LANES at a time, each term the float exponential of the float
 * difference (vexp_single, within 1 float ulp where the scalar reference rounds the double
 * exponential), summed in double; the scaling by the sum's inverse in double. NaN everywhere when
 * the maximum is not finite.
 */
EXPORT double KERNEL(softmax_float)(int32_t n, float *v, int32_t vOff) {
  float *x = v + vOff;
  vsingle highest = broadcast_single(-INFINITY);
  int32_t i = 0;
  for (; i + FLOAT_LANES <= n; i += FLOAT_LANES) {
    highest = max_keeping_nan(highest, load_single(x + i));
  }
  if (i < n) {
    highest = max_keeping_nan(highest, load_single_part(x + i, n - i, -INFINITY));
  }
  float max = -INFINITY;
  for (int k = 0; k < FLOAT_LANES; k++) {
    max = highest[k] > max || isnan(highest[k]) ? highest[k] : max;
  }
  if (!isfinite(max)) {
    for (i = 0; i < n; i++) {
      x[i] = NAN;
    }
    return max;
  }
  double total = sum_exp_single(n, x, max, x);
  vdouble inverse = broadcast(1 / total);
  for (i = 0; i + LANES <= n; i += LANES) {
    store_narrowed(x + i, load_widened(x + i) * inverse);
  }
  for (; i < n; i++) {
    x[i] = (float) (x[i] * (1 / total));
  }
  return max + log(total);
}
