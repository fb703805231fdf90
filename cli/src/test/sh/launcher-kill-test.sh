#!/usr/bin/env bash
# SIGKILL during `largecat train --model m.bin` with a 40 MB model, 20 times: half at a random time
# of the run, half about the save (once its temporary file has appeared, after a random delay of up
# to a second). After each kill m.bin must be the old model or the new one, byte for byte; once a
# run has completed, no temporary file may be left beside m.bin and no copy of liblargecat in the
# temporary directory. The build runs this after packaging the jar (cli/pom.xml).
set -euo pipefail
root="$(cd "$1" && pwd)"
launcher="$root/largecat"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() {
  echo "launcher-kill-test: $*" >&2
  exit 1
}
mkdir "$work/tmp"
# The native backend, so that every run copies liblargecat, into a temporary directory of its own.
export LARGECAT_BACKEND=native LARGECAT_JAVA_OPTS="-Djava.io.tmpdir=$work/tmp"

# K = 1000 classes, D = 10000 features: a model of 40 MB.
awk 'BEGIN { n = 300; k = 1000; d = 10000; print n, d, k
  for (i = 0; i < n; i++) {
    label = i == 0 ? k - 1 : (i * 37) % k
    f = i == 1 ? d - 1 : (i * 101) % d
    g = (i * 53 + 7) % d
    if (f == g) g = (g + 1) % d
    print label, f ":1", g ":0.5"
  } }' >"$work/train.txt"
train() { # seed model
  "$launcher" train --train "$work/train.txt" --method ove --epochs 1 --threads 1 --seed "$1" \
    --model "$2"
}
train 1 "$work/old.bin" >/dev/null 2>&1 || fail "the old model could not be trained"
start=$(date +%s%N)
train 2 "$work/new.bin" >/dev/null 2>&1 || fail "the new model could not be trained"
run_ms=$((($(date +%s%N) - start) / 1000000))
[ "$(stat -c %s "$work/new.bin")" -ge 40000000 ] || fail "the model is under 40 MB"
cmp -s "$work/old.bin" "$work/new.bin" && fail "the two seeds gave the same model"

olds=0
news=0
for i in $(seq 1 20); do
  cp "$work/old.bin" "$work/m.bin"
  # The launcher itself, not a function that runs it: it execs java, so $! is the JVM's pid.
  "$launcher" train --train "$work/train.txt" --method ove --epochs 1 --threads 1 --seed 2 \
    --model "$work/m.bin" >"$work/run.log" 2>&1 &
  pid=$!
  if [ $((i % 2)) = 1 ]; then
    sleep "$(awk -v ms="$run_ms" -v r="$RANDOM" 'BEGIN { printf "%.3f", ms * r / 32768 / 1000 }')"
  else
    # Until the save has begun (or the run has ended), then up to a second more: into the write,
    # the flush to disk, the rename or past it.
    while kill -0 "$pid" 2>/dev/null && ! compgen -G "$work/.m.bin.*.tmp" >/dev/null; do
      sleep 0.01
    done
    sleep "$(awk -v r="$RANDOM" 'BEGIN { printf "%.3f", r / 32768 }')"
  fi
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  # The launcher's own subshells (finding the JDK) may outlive it by a moment.
  sleep 0.2
  if cmp -s "$work/m.bin" "$work/old.bin"; then
    olds=$((olds + 1))
  elif cmp -s "$work/m.bin" "$work/new.bin"; then
    news=$((news + 1))
  else
    fail "kill $i: m.bin is neither the old model nor the new one ($(stat -c %s "$work/m.bin") bytes)"
  fi
done

# The next run cleans what the killed ones left.
cp "$work/old.bin" "$work/m.bin"
train 2 "$work/m.bin" >"$work/run.log" 2>&1 || fail "the run after the kills failed: $(cat "$work/run.log")"
cmp -s "$work/m.bin" "$work/new.bin" || fail "the run after the kills wrote another model"
left="$(cd "$work" && find . -name '.m.bin.*' -o -name 'liblargecat-*' | sort | tr '\n' ' ')"
[ -z "$left" ] || fail "left behind after the next run: $left"
echo "launcher-kill-test: 20 kills of a ${run_ms} ms run: m.bin old $olds times, new $news times;" \
  "nothing left behind"
