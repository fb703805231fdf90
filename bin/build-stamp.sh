#!/usr/bin/env bash
# The build stamp: the source revision a build of largecat.jar was made from, the checkout's commit
# (or "unversioned" outside a git checkout). The build writes it beside the jar
# (cli/target/build-stamp) and the launcher rebuilds when it differs from the checkout's commit, so
# a run reads one small file instead of comparing the time of every source file with the jar's.
# Edits not yet committed are not seen: build them with ./mvnw package.

# Prints the commit of the checkout at $1.
largecat_source_revision() {
  git -C "$1" rev-parse -q --verify HEAD 2>/dev/null || echo unversioned
}

# Run by the build (cli/pom.xml): build-stamp.sh ROOT FILE writes ROOT's revision to FILE.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  largecat_source_revision "$1" >"$2"
fi
