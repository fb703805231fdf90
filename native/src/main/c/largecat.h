/*
 * Shared by every C source of liblargecat: how exported kernels are named. Each kernel source is
 * compiled once per instruction set (build-native.sh passes -DLARGECAT_ISA=avx512, avx2, sse2 or
 * portable), and KERNEL(dot) names the build's copy, e.g. largecat_dot_avx512; the Java side binds
 * the copy for the instruction set it chose. Kernels assume arguments the Java front has checked.
 */
#ifndef LARGECAT_H
#define LARGECAT_H

#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))
#define LARGECAT_GLUE(name, isa) largecat_##name##_##isa
#define LARGECAT_NAME(name, isa) LARGECAT_GLUE(name, isa)
#define KERNEL(name) LARGECAT_NAME(name, LARGECAT_ISA)

#endif
