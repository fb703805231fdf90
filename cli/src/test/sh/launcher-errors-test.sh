#!/usr/bin/env bash
# Errors the launcher's environment causes, run through ./largecat as a user would: a bogus backend
# for every command that resolves one, a file name the locale cannot encode, a heap too small to
# start in, no HOME, and Spark failing on bad data or a bad master. Each must print one line on standard error (besides the JVM's notice of the
# incubator module), no stack frame, with its exit status. The build runs this after packaging the
# jar (cli/pom.xml).
set -euo pipefail
root="$(cd "$1" && pwd)"
launcher="$root/largecat"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "launcher-errors-test: $*" >&2
  failures=$((failures + 1))
}

# Runs the launcher with the environment before it ("name=value ..." then --), expects exit status
# $status and one line on standard error that starts with $prefix and contains $text (and, for a
# usage error, the line that points to the help).
expect() { # status prefix text env... -- args...
  local status="$1" prefix="$2" text="$3" got lines
  shift 3
  local -a env=()
  while [ "$1" != -- ]; do
    env+=("$1")
    shift
  done
  shift
  got=0
  (cd "$work" && env "${env[@]}" "$launcher" "$@") >"$work/out" 2>"$work/err" || got=$?
  # A usage error's line is followed by where to read the usage.
  grep -v -e '^WARNING: Using incubator modules' -e "^see 'largecat [a-z ]*--help'$" "$work/err" \
    >"$work/lines" || true
  lines="$(wc -l <"$work/lines")"
  if [ "$got" != "$status" ]; then
    fail "${env[*]} $*: exit $got, not $status: $(cat "$work/err")"
  elif [ "$lines" != 1 ]; then
    fail "${env[*]} $*: $lines lines on standard error, not 1: $(cat "$work/err")"
  elif ! grep -q "^$prefix" "$work/lines" || ! grep -qF -- "$text" "$work/lines"; then
    fail "${env[*]} $*: not '$prefix ... $text': $(cat "$work/err")"
  fi
}

"$launcher" data synth softmax --rows 40 --columns 4 --classes 5 --seed 1 \
  --out "$work/t.txt" >/dev/null 2>&1
"$launcher" train --train "$work/t.txt" --method ar-softmax --iterations 5 \
  --model "$work/m.bin" >/dev/null 2>&1
"$launcher" data synth cb --classes 3 --covariates 2 --rows 30 --sigma-high 1 \
  --out "$work/cb.txt" >/dev/null 2>&1

unknown="unknown largecat backend 'bogus'"
for how in LARGECAT_BACKEND=bogus LARGECAT_JAVA_OPTS=-Dlargecat.backend=bogus; do
  expect 2 "largecat evaluate: " "$unknown" "$how" -- evaluate --model m.bin --test t.txt
  expect 2 "largecat predict: " "$unknown" "$how" -- predict --model m.bin --input t.txt
  expect 2 "largecat cavi: " "$unknown" "$how" -- cavi --train cb.txt --link probit
  expect 2 "largecat kernels: " "$unknown" "$how" -- kernels
  expect 2 "largecat train: " "$unknown" "$how" -- train --train t.txt --iterations 5
done

cp "$work/t.txt" "$work/nöpe.txt"
expect 2 "largecat train: " "could not be encoded under the current locale" LC_ALL=C -- \
  train --train nöpe.txt --iterations 5
grep -qF "LC_ALL=C.UTF-8" "$work/lines" || fail "the locale message names no fix: $(cat "$work/lines")"

# Where the heap runs out decides who says so: the command's handler ("largecat train: ") or, when
# even that has no room, main's message made before the run ("largecat: ").
expect 1 "largecat\( train\)\?: " "out of memory" LARGECAT_JAVA_OPTS=-Xmx4m -- train --train t.txt

expect 2 "largecat train: " "Invalid value for option '--feature-base': 2 must be 0 or 1" -- \
  train --train t.txt --feature-base 2

# Spark: the task's failure and Spark's own warnings go to the log file the line names, not to
# standard error (the JDK's own warnings about Spark's use of sun.misc.Unsafe aside).
spark_case() { # name args...
  local name="$1" got=0 log
  shift
  (cd "$work" && env -u LARGECAT_BACKEND "$launcher" spark "$@") >"$work/out" 2>"$work/err" || got=$?
  grep -v '^WARNING: ' "$work/err" >"$work/lines" || true
  if [ "$got" != 2 ] || [ "$(wc -l <"$work/lines")" != 1 ]; then
    fail "spark $name: exit $got, not 2 with one line: $(cat "$work/err")"
    return
  fi
  if grep -qE '^\s+at |Exception in thread' "$work/err"; then
    fail "spark $name: stack frames on standard error: $(cat "$work/err")"
  fi
  log="$(sed -n "s/.*; Spark's log: \([^ ]*\) (--debug prints it here)$/\1/p" "$work/lines")"
  if [ -z "$log" ] || ! grep -q 'Exception' "$log"; then
    fail "spark $name: no log named, or no trace in it: $(cat "$work/lines")"
  fi
  rm -f "$log"
}
printf '3 2 2\n0 0:1\n1 1:NaN\n0 1:2\n' >"$work/with-nan.txt"
spark_case "cavi on NaN data" cavi --train with-nan.txt --link probit
grep -qF "with-nan.txt:3: feature value 'NaN' is not finite" "$work/lines" \
  || fail "spark cavi on NaN data: the line does not say what is wrong: $(cat "$work/lines")"
spark_case "train on a bogus master" train --train t.txt --method ar-softmax \
  --master bogus://nowhere:1
grep -qF "cannot start Spark with master bogus://nowhere:1" "$work/lines" \
  || fail "spark train on a bogus master: the line does not say what is wrong: $(cat "$work/lines")"

# Without HOME, as under env -i or a service manager.
(cd "$work" && env -u HOME "$launcher" --version) >"$work/out" 2>"$work/err" \
  || fail "without HOME: $(cat "$work/err")"
grep -q '^largecat ' "$work/out" || fail "without HOME, no version: $(cat "$work/out" "$work/err")"

[ "$failures" = 0 ] || exit 1
echo "launcher-errors-test: every case one line"
