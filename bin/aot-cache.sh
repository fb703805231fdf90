# The JDK's ahead-of-time cache for largecat.jar (JEPs 483, 514, 515), made from a training run of
# the commands (`largecat aot-training`); LARGECAT_AOT=on turns it on. JDK 25 archives neither
# linked classes nor method profiles while an incubator module (the Vector API) is in the boot
# layer, so there the cache holds parsed classes only and does not shorten the JIT's warm-up
# (docs/training.md); hence off by default. A cache is valid only for the JDK, the jar (its path,
# size and time) and the JVM options it was made with; on any mismatch the JVM runs without it. The
# file name is a hash of all three, so a rebuilt jar, another JDK or other options get a cache of
# their own instead of a stale one.

# Prints the cache file for the JDK at $1, the jar $2 and the JVM options that follow.
largecat_aot_file() {
  local java_home="$1" jar="$2" key
  shift 2
  key="$({ cat "$java_home/release"; stat -c '%s %Y' "$jar"; echo "$jar"; printf '%s\n' "$@"; } \
    | sha256sum | cut -c1-16)"
  echo "${LARGECAT_AOT_DIR:-$(dirname "$jar")/aot}/largecat-$key.aot"
}

# With LARGECAT_AOT=on, prints the JVM options that use the cache, one a line, after making the
# cache when it is missing; prints nothing where there can be none: a directory it cannot write, a
# JDK without AOT caches, a training run that failed (its log is kept as CACHE.failed and not
# retried for this jar). Its own output goes to the log, and the JVM's messages about a cache it cannot use
# are turned off, so that a run without the cache looks like one with it.
largecat_aot_options() {
  local java_home="$1" jar="$2" file dir tmp
  shift 2
  [ "${LARGECAT_AOT:-off}" = on ] || return 0
  file="$(largecat_aot_file "$java_home" "$jar" "$@")"
  dir="$(dirname "$file")"
  if [ ! -f "$file" ] && [ ! -f "$file.failed" ]; then
    mkdir -p "$dir" 2>/dev/null && [ -w "$dir" ] || return 0
    # Caches of earlier builds of the jar.
    find "$dir" -maxdepth 1 -name 'largecat-*.aot*' ! -newer "$jar" -delete 2>/dev/null || true
    tmp="$(mktemp -d "$dir/training.XXXXXX" 2>/dev/null)" || return 0
    echo "largecat: making the JIT warm-up cache (once per jar and JDK, a minute or two) ..." >&2
    if "$java_home/bin/java" "$@" -XX:AOTCacheOutput="$tmp/cache.aot" -jar "$jar" \
      aot-training "$tmp" >"$tmp/log" 2>&1 && [ -s "$tmp/cache.aot" ]; then
      mv -f "$tmp/cache.aot" "$file"
    else
      mv -f "$tmp/log" "$file.failed"
    fi
    rm -rf "$tmp"
  fi
  if [ -f "$file" ]; then
    printf '%s\n' "-XX:AOTCache=$file" "-Xlog:aot*=off" "-Xlog:cds*=off"
  fi
}

# Without LARGECAT_AOT=on, and unless LARGECAT_CDS=off, prints the JVM options of a CDS archive of
# the classes a command loads (JDK 19+ -XX:+AutoCreateSharedArchive): the first run of a command
# writes it as it exits, later runs map those classes instead of reading, parsing and verifying them
# from the jar and the JDK's modules again; the JVM rewrites an archive it cannot use and runs
# without it meanwhile (it does not rewrite one that is merely incomplete). One archive per command
# (the first argument after -- that is no option), since each loads other classes, one for help (of
# any command, and runs that name none) and one for --version. Takes the JDK, the jar, the JVM
# options, --, and the command's arguments; prints nothing where the directory cannot be written.
largecat_cds_options() {
  local java_home="$1" jar="$2" command="" file dir arg
  shift 2
  [ "${LARGECAT_AOT:-off}" != on ] && [ "${LARGECAT_CDS:-on}" != off ] || return 0
  local -a options=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do
    options+=("$1")
    shift
  done
  shift
  for arg in "$@"; do
    case "$arg" in
      # A command's help loads few of its classes: its archive would stay that small.
      -h | --help)
        command=help
        break
        ;;
      -V | --version)
        command=version
        break
        ;;
      -*) ;;
      *) command="${command:-$arg}" ;;
    esac
  done
  # A name, not a path: a command's name is letters and dashes.
  [[ "$command" =~ ^[a-z-]+$ ]] || command=help
  file="$(largecat_aot_file "$java_home" "$jar" "${options[@]}")"
  file="${file%.aot}-$command.jsa"
  dir="$(dirname "$file")"
  mkdir -p "$dir" 2>/dev/null && [ -w "$dir" ] || return 0
  # Archives of earlier builds of the jar.
  find "$dir" -maxdepth 1 -name 'largecat-*.jsa' ! -newer "$jar" -delete 2>/dev/null || true
  # The JVM takes a file that is no dynamic archive (its magic number is 0xf00baba8) for a base
  # archive and warns on standard error; without the file, it writes one.
  if [ -f "$file" ] && [ "$(od -An -tx1 -N4 "$file" 2>/dev/null | tr -d ' ')" != a8ab0bf0 ]; then
    rm -f "$file" 2>/dev/null || return 0
  fi
  printf '%s\n' -XX:+AutoCreateSharedArchive "-XX:SharedArchiveFile=$file" "-Xlog:aot*=off" \
    "-Xlog:cds*=off"
}
