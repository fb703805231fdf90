#!/usr/bin/env bash
# Builds liblargecat, the C kernels of the native backend, for this machine, into
# CLASSES/native/OS-ARCH/liblargecat.so so that it is packaged in the jar; called by the Maven build
# (native/pom.xml) with CLASSES and a scratch directory for object files.
#
# On x86-64 every kernel source is compiled three times, for AVX-512, for AVX2 with FMA, and for
# the SSE2 baseline, each with its own symbol suffix (largecat_dot_avx512, ...); the Java side asks
# the library which of them this CPU runs and binds the best. Elsewhere there is one portable build.
# Without gcc, or on an OS other than Linux, it builds nothing, writes the reason to NOT-BUILT next
# to where the library would be (the backend reports it as unavailable) and still succeeds.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
classes="$1"
objects="$2"
sources="$here/src/main/c"
os="$(uname -s | tr '[:upper:]' '[:lower:]')"
arch="$(uname -m)"
out="$classes/native/$os-$arch"
library="$out/liblargecat.so"
mkdir -p "$out"

not_built() {
  echo "[WARNING] liblargecat not built: $1; the native backend will report itself unavailable." >&2
  rm -f "$library"
  printf '%s\n' "$1" >"$out/NOT-BUILT"
}

if [ "$os" != linux ]; then
  not_built "liblargecat is built on Linux only, and this build ran on $(uname -s)"
  exit 0
fi
if ! command -v gcc >/dev/null; then
  not_built "gcc was not found on PATH when the native module was built"
  exit 0
fi
rm -f "$out/NOT-BUILT"
if [ -f "$library" ] && [ -z "$(find "$sources" "${BASH_SOURCE[0]}" -newer "$library" -print -quit)" ]; then
  exit 0 # up to date
fi

# No -ffast-math: NaN, infinities, signed zeros and the order of rounding must stay as written.
# -ffp-contract=off keeps a*b+c two roundings, as in Java; fused steps are written out (vfma, multiply_add).
# -fno-math-errno and -fno-trapping-math only let sqrt inline and branches be flattened; the
# cross-validation suite (adversarial values) runs on every build to confirm.
common=(-std=gnu11 -O3 -fPIC -fvisibility=hidden -fno-math-errno -fno-trapping-math -ffp-contract=off -Wall -Wextra
  -Werror=implicit-function-declaration)
case "$arch" in
  x86_64) isas=(avx512 avx2 sse2) ;;
  *) isas=(portable) ;;
esac
isa_flags() {
  case "$1" in
    avx512) echo "-mavx512f -mavx512dq -mavx512vl -mavx512bw -mavx2 -mfma -mprefer-vector-width=512" ;;
    avx2) echo "-mavx2 -mfma" ;;
    *) echo "" ;;
  esac
}

rm -rf "$objects"
mkdir -p "$objects"
built=()
for isa in "${isas[@]}"; do
  for source in "$sources"/kernels/*.c; do
    object="$objects/$(basename "$source" .c)-$isa.o"
    # shellcheck disable=SC2046
    gcc "${common[@]}" $(isa_flags "$isa") -DLARGECAT_ISA="$isa" -I"$sources" -c "$source" -o "$object"
    built+=("$object")
  done
done
gcc "${common[@]}" -I"$sources" -c "$sources/cpu.c" -o "$objects/cpu.o"
# -z defs: no undefined symbol can hide in the library; -z now: everything binds when it loads, so a
# broken library is refused at load (the backend reports it) rather than failing inside a call.
gcc -shared -Wl,-z,defs -Wl,-z,now -o "$library" "${built[@]}" "$objects/cpu.o" -lm
echo "[INFO] built $library (${isas[*]})"
