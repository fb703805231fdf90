#!/usr/bin/env bash
# FullSoftmaxStepBenchmark (exact-softmax-sgd, K = 10^4, D = 784, |B| = 500) against PyTorch's
# cross-entropy step of the same shape (src/main/python/torch_full_softmax.py), on 1 and 2 threads,
# ROUNDS interleaved rounds (default 3), with the OpenBLAS kernels ./largecat would choose; both
# get the same OPENBLAS_CORETYPE (PyTorch's gemm is the same OpenBLAS). Prints examples/s per run,
# then per thread count the medians and largecat / PyTorch. Needs Debian's python3-torch. Raw output
# goes to bench/results/full-softmax/.
# usage: bench/full-softmax-vs-pytorch.sh          e.g. ROUNDS=5 bench/full-softmax-vs-pytorch.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
# shellcheck source=../bin/openblas-env.sh
source "$root/bin/openblas-env.sh"
largecat_openblas_coretype
out="$here/results/full-softmax"
mkdir -p "$out"
python=/usr/bin/python3
declare -A ours theirs
for r in $(seq "${ROUNDS:-3}"); do
  for t in 1 2; do
    echo "round $r, $t threads, load $(cut -d' ' -f1 /proc/loadavg), OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset}"
    json="$(OMP_NUM_THREADS=$t MKL_NUM_THREADS=$t OPENBLAS_NUM_THREADS=$t "$python" \
      "$here/src/main/python/torch_full_softmax.py" "$t" 20)"
    echo "$json" | tee -a "$out/pytorch.jsonl"
    theirs[$t]+="$(echo "$json" | sed 's/.*"examples_per_second": \([0-9.]*\).*/\1/') "
    OPENBLAS_NUM_THREADS=1 "$root/largecat" bench -p threads="$t" FullSoftmaxStepBenchmark \
      > "$out/largecat-$r-$t.txt" 2>&1
    ms="$(grep -E '^FullSoftmaxStepBenchmark\.iteration ' "$out/largecat-$r-$t.txt" | awk '{print $(NF-3)}')"
    grep -m1 -o 'vector-ops=[a-z]*, special-functions=[a-z]*, implicit-updates=[a-z]*, matrix-ops=[a-z]*' "$out/largecat-$r-$t.txt" || true
    ours[$t]+="$(awk -v ms="$ms" 'BEGIN { printf "%.1f", 500000 / ms }') "
    echo "largecat: $ms ms/step, $(awk -v ms="$ms" 'BEGIN { printf "%.1f", 500000 / ms }') examples/s"
  done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for t in 1 2; do
  a="$(echo "${ours[$t]}" | median)"
  b="$(echo "${theirs[$t]}" | median)"
  echo "$t threads: largecat ${ours[$t]}-> median $a; pytorch ${theirs[$t]}-> median $b; ratio $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }')"
done
