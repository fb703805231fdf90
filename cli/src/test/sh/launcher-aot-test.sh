#!/usr/bin/env bash
# The launcher's AOT cache (bin/aot-cache.sh, LARGECAT_AOT=on) and its CDS archives (the default): a
# run that makes one, and runs that cannot use it (a stale cache made for an earlier build of the
# jar, a foreign file in its place, a directory it cannot make) must succeed, say nothing about the
# cache, and give the result of a run without one. The build runs this after packaging the jar
# (cli/pom.xml); the caches it makes go to a scratch directory.
set -euo pipefail
root="$(cd "$1" && pwd)"
launcher="$root/largecat"
jar="$root/cli/target/largecat.jar"
work="$(mktemp -d)"
mtime="$(stat -c %Y "$jar")"
# The stale case moves the jar's time; put it back.
trap 'touch -d "@$mtime" "$jar"; rm -rf "$work"' EXIT
fail() {
  echo "launcher-aot-test: $*" >&2
  exit 1
}

"$launcher" data synth softmax --rows 600 --test-rows 200 --columns 8 --classes 5 --seed 4 \
  --out "$work/train.txt" --test-out "$work/test.txt" >/dev/null 2>&1
# The printed result without the timings; the scalar backend, so that nothing depends on what the
# JIT has compiled when (a Vector API sum may run in another order interpreted than compiled).
result() { # $1: the case's name; the environment says how to run
  LARGECAT_BACKEND=scalar "$launcher" train --train "$work/train.txt" --test "$work/test.txt" \
    --method ar-softmax --iterations 300 --threads 1 --seed 5 --json 2>"$work/$1.err" \
    | sed -E 's/"seconds(_per_epoch)?":[^,]*,//g' >"$work/$1.out" \
    || fail "$1: the run failed: $(cat "$work/$1.err")"
  if grep -qiE 'aot|cds|shared (archive|class)' "$work/$1.err"; then
    fail "$1: the run spoke of the cache: $(grep -iE 'aot|cds|shared' "$work/$1.err")"
  fi
  if [ "$1" != fresh ] && grep -q 'warm-up cache' "$work/$1.err"; then
    fail "$1: the launcher made a cache again instead of trying the one there"
  fi
  cmp -s "$work/none.out" "$work/$1.out" \
    || fail "$1: another result than without a cache: $(cat "$work/$1.out")" \
      "against $(cat "$work/none.out")"
}

LARGECAT_AOT=off LARGECAT_CDS=off result none
[ -s "$work/none.out" ] || fail "no result without a cache"
export LARGECAT_AOT=on LARGECAT_AOT_DIR="$work/aot"
result fresh
# shellcheck source=bin/aot-cache.sh
source "$root/bin/aot-cache.sh"
# shellcheck source=bin/jvm-options.sh
source "$root/bin/jvm-options.sh"
# shellcheck source=bin/find-jdk.sh
source "$root/bin/find-jdk.sh"
largecat_jvm_options
java_home="$(largecat_find_jdk)"
cache="$(largecat_aot_file "$java_home" "$jar" "${jvm_options[@]}")"
[ -s "$cache" ] || fail "the first run made no cache at $cache: $(cat "$cache.failed" 2>/dev/null)"
# AOTMode=on makes the JVM exit rather than run without the cache: the cache fits the launcher's run.
"$java_home/bin/java" "${jvm_options[@]}" -XX:AOTMode=on -XX:AOTCache="$cache" -jar "$jar" \
  --version >/dev/null 2>"$work/mode-on.err" \
  || fail "the JVM cannot use the cache made: $(cat "$work/mode-on.err")"

# Stale: the jar rebuilt at the same path, and the old cache under the new jar's name.
touch -d "@$((mtime + 60))" "$jar"
stale="$(largecat_aot_file "$java_home" "$jar" "${jvm_options[@]}")"
mv "$cache" "$stale"
# Newer than the jar, as a cache made after the build is: the launcher deletes older ones.
touch -d "@$((mtime + 120))" "$stale"
result stale
[ -f "$stale" ] || fail "the stale cache was replaced instead of tried"

# Foreign: another file where the cache should be.
head -c 100000 /dev/urandom >"$stale"
result foreign

# A directory it cannot make.
LARGECAT_AOT_DIR=/dev/null/aot result unwritable

# The CDS archive of a command's classes, used without LARGECAT_AOT=on: made by the command's first
# run, mapped by the next, rewritten when the file is not an archive, skipped where it cannot be.
touch -d "@$mtime" "$jar"
export LARGECAT_AOT=off LARGECAT_AOT_DIR="$work/cds"
result cds-fresh
archive="$(find "$work/cds" -name 'largecat-*-train.jsa')"
[ -s "$archive" ] || fail "the first run made no CDS archive in $work/cds"
# -Xshare:on makes the JVM exit rather than run without the archive.
"$java_home/bin/java" "${jvm_options[@]}" -Xshare:on -XX:SharedArchiveFile="$archive" -jar "$jar" \
  --version >/dev/null 2>"$work/share-on.err" \
  || fail "the JVM cannot map the CDS archive made: $(cat "$work/share-on.err")"
made="$(stat -c %Y "$archive")"
result cds-reuse
[ "$(stat -c %Y "$archive")" = "$made" ] || fail "the CDS archive was rewritten instead of used"
head -c 100000 /dev/urandom >"$archive"
result cds-foreign
LARGECAT_AOT_DIR=/dev/null/aot result cds-unwritable
echo "launcher-aot-test: fresh, stale, foreign and unwritable AOT caches and CDS archives all gave" \
  "the result of none"
