#!/usr/bin/env bash
# largecat.jar without the JMH suite, and `largecat bench` with it: the jar holds no class of JMH or
# of the bench module, and the launcher's bench command still finds the suite in
# cli/target/bench-jars. The build runs this after packaging the jar (cli/pom.xml).
set -euo pipefail
root="$(cd "$1" && pwd)"
jar="$root/cli/target/largecat.jar"
fail() {
  echo "launcher-bench-test: $*" >&2
  exit 1
}
inside="$("$JAVA_HOME/bin/jar" tf "$jar" | grep -E '^org/(openjdk/jmh|largecat/bench)/' | head -3 || true)"
[ -z "$inside" ] || fail "largecat.jar carries the JMH suite: $inside ..."
listed="$("$root/largecat" bench -l 2>&1)" || fail "largecat bench -l failed: $listed"
grep -q '^org.largecat.bench.VectorOpsBenchmark' <<<"$listed" \
  || fail "largecat bench -l lists no benchmark of the suite: $listed"
