#!/usr/bin/env bash
# train --method exact-softmax against scikit-learn's LogisticRegression(solver="lbfgs") on
# fashion-mnist, RUNS interleaved runs each (default 3), both on 2 threads with the OpenBLAS kernels
# ./largecat would choose; each model is scored on the same objective by src/main/python/
# sklearn_softmax.py. Needs dataset-fashion-mnist and Debian's python3-sklearn. Results go to
# bench/results/exact-softmax-V/: the JSON of each run, its standard error, and the load when it
# started.
# usage: bench/exact-softmax-vs-sklearn.sh V        e.g. RUNS=1 bench/exact-softmax-vs-sklearn.sh 1
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
v="${1:?usage: bench/exact-softmax-vs-sklearn.sh PRIOR_VARIANCE}"
# shellcheck source=../bin/openblas-env.sh
source "$root/bin/openblas-env.sh"
largecat_openblas_coretype
out="$here/results/exact-softmax-$v"
data="$here/target/fashion-mnist"
mkdir -p "$out"
[ -f "$data/train.txt" ] || "$root/largecat" data prepare fashion-mnist --out "$data"
python=/usr/bin/python3
script="$here/src/main/python/sklearn_softmax.py"
for r in $(seq "${RUNS:-3}"); do
  echo "run $r largecat, load $(cut -d' ' -f1 /proc/loadavg)" | tee -a "$out/log"
  "$root/largecat" train --train "$data/train.txt" --method exact-softmax --prior-variance "$v" \
    --threads 2 --model "$out/largecat-$r.bin" --json > "$out/largecat-$r.json" 2> "$out/largecat-$r.err"
  "$python" "$script" score "$v" "$out/largecat-$r.bin" | tee -a "$out/largecat-$r.json"
  echo "run $r scikit-learn, load $(cut -d' ' -f1 /proc/loadavg)" | tee -a "$out/log"
  OPENBLAS_NUM_THREADS=2 OMP_NUM_THREADS=2 "$python" "$script" fit "$v" 10000 1e-12 \
    | tee "$out/sklearn-$r.json"
done
