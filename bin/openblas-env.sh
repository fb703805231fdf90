# Chooses OpenBLAS's CPU kernels when the user has not (OPENBLAS_CORETYPE unset). Debian's OpenBLAS
# 0.3.21 takes CPUs newer than itself for older ones and runs them on old kernels (SSE3 or AVX2 on a
# CPU with AVX-512; bench/log/ has the cost). OpenBLAS reads the variable once, when it
# loads, so it must be set before the JVM starts.
largecat_openblas_coretype() {
  [ -n "${OPENBLAS_CORETYPE:-}" ] && return 0
  local flags
  flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "
  if largecat_cpu_has "$flags" avx512f avx512bw avx512dq avx512vl; then
    export OPENBLAS_CORETYPE=SkylakeX
  elif largecat_cpu_has "$flags" avx2 fma; then
    export OPENBLAS_CORETYPE=Haswell
  fi
}

# Whether the space-padded flags list ($1) has every flag that follows.
largecat_cpu_has() {
  local flags="$1" flag
  shift
  for flag in "$@"; do
    [[ "$flags" == *" $flag "* ]] || return 1
  done
}
