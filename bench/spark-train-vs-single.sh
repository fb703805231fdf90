#!/usr/bin/env bash
# One epoch of A&R softmax (the paper's settings, per-example sampling) on kjv-nextword: the
# single-machine SampledTrainer on 2 threads against DistributedTrainer on Spark's local[2] (2
# partitions, ROUNDS_PER_EPOCH rounds an epoch, default 1), ROUNDS interleaved rounds (default 3) in
# one JVM (bench/src/main/java/org/largecat/bench/TrainSparkTiming.java), then the medians and
# spark / single. Needs the data of
# `./largecat data prepare kjv-nextword` in DATA (default data/kjv-nextword) and a heap for four
# copies of the 629 MB model (HEAP, default 12g). Raw output goes to bench/results/spark-train/.
# usage: bench/spark-train-vs-single.sh     e.g. DATA=/path/kjv-nextword ROUNDS=5 bench/spark-train-vs-single.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
data="${DATA:-$root/data/kjv-nextword}"
out="$here/results/spark-train"
mkdir -p "$out"
cd "$root"
# shellcheck source=../bin/find-jdk.sh
source "$root/bin/find-jdk.sh"
JAVA_HOME="$(largecat_find_jdk)"
export JAVA_HOME
# shellcheck source=../bin/openblas-env.sh
source "$root/bin/openblas-env.sh"
largecat_openblas_coretype
export OPENBLAS_NUM_THREADS=1
./mvnw -B -q -o package dependency:build-classpath -pl bench -am -DskipTests \
  -Dlargecat.fuzz.skip=true -Dmaven.javadoc.skip=true -Dmdep.outputFile="$out/classpath.txt" -Dmdep.includeScope=provided \
  > "$out/build.log"
classpath="$here/target/classes:$(cat "$out/classpath.txt")"
# shellcheck source=../bin/jvm-options.sh
source "$root/bin/jvm-options.sh"
largecat_jvm_options
largecat_spark_options_of_pom "$root/pom.xml"
log="$out/$(date -u +%Y%m%dT%H%M%SZ).txt"
{
  lscpu | grep -E '^(Model name|CPU family|Model):'
  echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
  "$JAVA_HOME/bin/java" "${jvm_options[@]}" "${spark_options[@]}" -Xmx"${HEAP:-12g}" -cp "$classpath" \
    org.largecat.bench.TrainSparkTiming "$data/train.txt" "$data/test.txt" "${ROUNDS:-3}" 2 \
    "${ROUNDS_PER_EPOCH:-1}" 2>&1 | grep --line-buffered -v -E ' (INFO|WARN) |^WARNING|^Using Spark'
  echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$log"
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
single="$(grep -E '^round [0-9]+ single' "$log" | awk '{ print $4 }' | median)"
spark="$(grep -E '^round [0-9]+ spark' "$log" | awk '{ print $4 }' | median)"
echo "median epoch: single $single s, spark $spark s, spark / single $(awk -v a="$spark" -v b="$single" 'BEGIN { printf "%.2f", a / b }')" | tee -a "$log"
