#!/usr/bin/env bash
# GemmBenchmark next to the OpenBLAS-from-C reference (src/main/c/gemm_reference.c, built here with
# gcc, not by Maven), on 1 and then 2 OpenBLAS threads, with the CPU kernels ./largecat would choose.
# Needs gcc and libopenblas0. Everything goes to bench/results/gemm-<threads>-threads.txt; the C
# medians and JMH's p0.50 rows are printed. The scalar reference takes minutes per xtEz product:
# BACKENDS=blas,jblas,scalar includes it; THREADS="2" runs one thread count. Extra arguments go to JMH.
# usage: bench/gemm-vs-c.sh [JMH options]      e.g. BACKENDS=blas bench/gemm-vs-c.sh -p shape=square
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
# shellcheck source=../bin/openblas-env.sh
source "$root/bin/openblas-env.sh"
largecat_openblas_coretype
mkdir -p "$here/target" "$here/results"
reference="$here/target/gemm-reference"
gcc -O2 -Wall -o "$reference" "$here/src/main/c/gemm_reference.c" -l:libblas.so.3 -l:libopenblas.so.0 \
  || { echo "gemm-vs-c: building the C reference needs gcc and OpenBLAS (apt-get install gcc libopenblas0)" >&2; exit 1; }
for threads in ${THREADS:-1 2}; do
  export OPENBLAS_NUM_THREADS=$threads
  out="$here/results/gemm-$threads-threads.txt"
  echo "== OPENBLAS_NUM_THREADS=$threads OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset} ($out)"
  {
    for shape in square xtEz; do
      for precision in double float; do
        "$reference" "$shape" "$precision" 11
      done
    done
    "$root/largecat" bench -p backend="${BACKENDS:-blas,jblas}" "$@" GemmBenchmark
  } 2>&1 | tee "$out" | grep -E '^C |p0\.50 ' || true
done
