# Finds a JDK whose feature version is at least LARGECAT_MIN_JDK (25) and prints its home.
# On failure prints what it needs and every place it looked, and returns 1.
LARGECAT_MIN_JDK=25

largecat_jdk_feature() { # prints the feature version of the JDK at $1, or nothing
  local release="$1/release" v
  [ -x "$1/bin/javac" ] && [ -f "$release" ] || return 0
  v="$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$release")"
  echo "$v"
}

largecat_find_jdk() {
  local candidates=() looked=() c v
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if command -v javac >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")")
  fi
  local -a places=(/usr/lib/jvm/* /opt/java/* /opt/jdk* /usr/local/jdk*)
  # A run may have no HOME (a service, env -i): then there are no per-user JDKs to look at.
  [ -n "${HOME:-}" ] && places+=("$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/*)
  for c in "${places[@]}"; do
    [ -d "$c" ] && candidates+=("$c")
  done
  for c in "${candidates[@]}"; do
    v="$(largecat_jdk_feature "$c")"
    looked+=("$c (${v:-not a JDK})")
    if [ -n "$v" ] && [ "$v" -ge "$LARGECAT_MIN_JDK" ]; then
      echo "$c"
      return 0
    fi
  done
  {
    echo "largecat needs a JDK $LARGECAT_MIN_JDK or newer and found none. Looked at:"
    for c in "${looked[@]}"; do echo "  $c"; done
    [ ${#looked[@]} -eq 0 ] && echo "  (no JAVA_HOME, no javac on PATH, nothing under /usr/lib/jvm, /opt, ~/.sdkman, ~/.jdks)"
    echo "Install one (e.g. Temurin 25) or set JAVA_HOME to it."
  } >&2
  return 1
}
