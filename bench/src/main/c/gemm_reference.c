/*
 * The OpenBLAS-from-C reference for GemmBenchmark: the same dgemm and sgemm, on the same shapes and
 * the same row-major layout, called through CBLAS from the libblas.so.3 that netlib binds. Prints the
 * median time of REPS products after two warm-up products. Built and run by bench/gemm-vs-c.sh (not
 * by Maven); OpenBLAS takes its thread count from OPENBLAS_NUM_THREADS.
 *
 * usage: gemm-reference square|xtEz double|float REPS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* CBLAS and OpenBLAS declarations, so that only the runtime libraries are needed (no -dev package). */
enum { ROW_MAJOR = 101, NO_TRANS = 111, TRANS = 112 };
void cblas_dgemm(int order, int transa, int transb, int m, int n, int k, double alpha, const double *a, int lda,
                 const double *b, int ldb, double beta, double *c, int ldc);
void cblas_sgemm(int order, int transa, int transb, int m, int n, int k, float alpha, const float *a, int lda,
                 const float *b, int ldb, float beta, float *c, int ldc);
char *openblas_get_config(void);
int openblas_get_num_threads(void);

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int compare_doubles(const void *x, const void *y) {
  double a = *(const double *) x, b = *(const double *) y;
  return (a > b) - (a < b);
}

/* Uniform in [-1, 1) from a fixed-seed xorshift, as the Java side fills with SplittableRandom. */
static double next_uniform(unsigned long long *state) {
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return (*state >> 11) * 0x1p-52 - 1.0;
}

int main(int argc, char **argv) {
  if (argc != 4 || (strcmp(argv[1], "square") && strcmp(argv[1], "xtEz"))
      || (strcmp(argv[2], "double") && strcmp(argv[2], "float")) || atoi(argv[3]) < 1) {
    fprintf(stderr, "usage: %s square|xtEz double|float REPS\n", argv[0]);
    return 2;
  }
  int xtEz = strcmp(argv[1], "xtEz") == 0;
  int single = strcmp(argv[2], "float") == 0;
  int reps = atoi(argv[3]);
  /* square: C = A B, all 1000 x 1000; xtEz: C (M x K) = X^T E[Z], X N x M, E[Z] N x K. */
  int m = xtEz ? 100 : 1000, n = 1000, k = xtEz ? 100000 : 1000;
  int transa = xtEz ? TRANS : NO_TRANS, lda = xtEz ? m : k;
  size_t sizes[3] = {(size_t) m * k, (size_t) k * n, (size_t) m * n};
  size_t element = single ? sizeof(float) : sizeof(double);
  void *arrays[3];
  unsigned long long state = 88172645463325252ULL;
  for (int i = 0; i < 3; i++) {
    arrays[i] = malloc(sizes[i] * element);
    if (arrays[i] == NULL) {
      fprintf(stderr, "gemm-reference: out of memory\n");
      return 1;
    }
    for (size_t j = 0; j < sizes[i]; j++) {
      double v = i == 2 ? 0 : next_uniform(&state);
      if (single) ((float *) arrays[i])[j] = (float) v; else ((double *) arrays[i])[j] = v;
    }
  }
  double *times = malloc(reps * sizeof(double));
  for (int r = -2; r < reps; r++) {
    double start = now_seconds();
    if (single) {
      cblas_sgemm(ROW_MAJOR, transa, NO_TRANS, m, n, k, 1, arrays[0], lda, arrays[1], n, 0, arrays[2], n);
    } else {
      cblas_dgemm(ROW_MAJOR, transa, NO_TRANS, m, n, k, 1, arrays[0], lda, arrays[1], n, 0, arrays[2], n);
    }
    if (r >= 0) times[r] = now_seconds() - start;
  }
  qsort(times, reps, sizeof(double), compare_doubles);
  double median = reps % 2 ? times[reps / 2] : (times[reps / 2 - 1] + times[reps / 2]) / 2;
  printf("C %s %s threads=%d median_ms=%.3f gflops=%.1f (%s)\n", argv[2], argv[1], openblas_get_num_threads(),
         1e3 * median, 2e-9 * m * n * k / median, openblas_get_config());
  return 0;
}
