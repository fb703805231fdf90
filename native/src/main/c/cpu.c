/*
 * Which instruction-set builds of the kernels liblargecat holds, and which of them this CPU and its
 * OS can run. Compiled once, for the baseline of the architecture; the names are the ones
 * build-native.sh compiles the kernels for.
 */
#include "largecat.h"

/** The builds in this library, best first, separated by spaces. */
EXPORT const char *largecat_isas(void) {
#if defined(__x86_64__)
  return "avx512 avx2 sse2";
#else
  return "portable";
#endif
}

/** The index in largecat_isas() of the best build this machine runs. */
EXPORT int32_t largecat_best_runnable_isa(void) {
#if defined(__x86_64__)
  __builtin_cpu_init(); /* these checks include the OS saving the vector registers (XCR0) */
  int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  int avx512 = avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")
      && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw");
  return avx512 ? 0 : avx2 ? 1 : 2;
#else
  return 0;
#endif
}
