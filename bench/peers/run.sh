#!/usr/bin/env bash
# Builds the peer harness against the largecat in the local Maven repository and runs it once:
# every library, every backend, one JVM per piece of work, all with the same flags. Arguments go to
# PeerBench (e.g. --classes 1000 --fit-reps 3). MAVEN_REPO chooses the local repository (default
# ~/.m2/repository); install largecat there first (README.md).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=../../bin/find-jdk.sh
source "$root/bin/find-jdk.sh"
JAVA_HOME="$(largecat_find_jdk)"
export JAVA_HOME
# shellcheck source=../../bin/openblas-env.sh
source "$root/bin/openblas-env.sh"
largecat_openblas_coretype
repo=(); [ -n "${MAVEN_REPO:-}" ] && repo=(-Dmaven.repo.local="$MAVEN_REPO")
mvn -B -q "${repo[@]}" -f "$here/pom.xml" compile dependency:build-classpath \
  -Dmdep.outputFile="$here/target/classpath.txt"
exec "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED \
  -cp "$here/target/classes:$(cat "$here/target/classpath.txt")" org.largecat.peers.PeerBench "$@"
