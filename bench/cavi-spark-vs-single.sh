#!/usr/bin/env bash
# Data-parallel IB-CAVI on Spark's local[2] against the single-machine IbCavi on 2 threads, same
# data, same JVM, interleaved rounds (bench/src/main/java/org/largecat/bench/CaviSparkTiming.java):
# CB-probit, K = 1,000, M = 21, N = 16,000. Builds bench and what it needs (offline, no install),
# runs with the launcher's JVM options plus the opens Spark needs (the root pom's spark.javaOptions).
# Output goes to bench/results/cavi-spark-vs-single.txt too.
# usage: bench/cavi-spark-vs-single.sh [rounds (3)] [iterations per run (100)] [partitions: 2 or e.g. 2,4,8] [N (16000)]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
# shellcheck source=../bin/find-jdk.sh
source "$root/bin/find-jdk.sh"
JAVA_HOME="$(largecat_find_jdk)" || exit 1
export JAVA_HOME
# shellcheck source=../bin/openblas-env.sh
source "$root/bin/openblas-env.sh"
largecat_openblas_coretype
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}"
mkdir -p "$here/target" "$here/results"
classpath="$here/target/cavi-spark-classpath.txt"
(cd "$root" && ./mvnw -B -q -o package dependency:build-classpath -pl bench -am -DskipTests \
  -Dlargecat.fuzz.skip=true -Dmaven.javadoc.skip=true -Dmdep.outputFile="$classpath" -Dmdep.includeScope=provided)
# shellcheck source=../bin/jvm-options.sh
source "$root/bin/jvm-options.sh"
largecat_jvm_options
largecat_spark_options_of_pom "$root/pom.xml"
lscpu | grep -E 'Model name|CPU family|^Model:' | tr -s ' ' | tee "$here/results/cavi-spark-vs-single.txt"
uptime | tee -a "$here/results/cavi-spark-vs-single.txt"
"$JAVA_HOME/bin/java" "${jvm_options[@]}" "${spark_options[@]}" -Xmx6g \
  -cp "$here/target/classes:$(cat "$classpath")" org.largecat.bench.CaviSparkTiming "$@" 2>&1 \
  | grep -v -E "^(WARNING|[0-9/]+ [0-9:]+ (INFO|WARN) )" | tee -a "$here/results/cavi-spark-vs-single.txt"
