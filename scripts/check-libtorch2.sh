#!/usr/bin/env bash
# Builds gaus against LibTorch 2.x built with CUDA (PyPI's torch wheel) and runs the GauS
# engine's tests on the CPU with it: the unit tests of the fused and the LibTorch kernels
# (ctest -R differentiable) and the command-line tests of method gaus. Opt-in, not part of
# scripts/test.sh or CI: the wheel and the nvidia-* runtime wheels it pulls weigh about 5 GB.
#
#   scripts/check-libtorch2.sh           install torch (once), configure, build, test
#   scripts/check-libtorch2.sh --bench   then time `gaus-bench gaus-step` at 1 and 2 threads,
#                                        with this build and with build/ (Debian's LibTorch)
#
# Environment: GAUS_TORCH_REQUIREMENT (pip requirement, default the version last checked),
# GAUS_TORCH_CUDA_ARCH_LIST (default 9.0), GAUS_JOBS (build and test jobs, default nproc).
# docs/gaus.md, "Building with a CUDA LibTorch", explains every setting below and records the
# versions this last ran with.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/build/libtorch2-venv"
build_dir="$root/build-libtorch2"
requirement="${GAUS_TORCH_REQUIREMENT:-torch==2.15.0}"
arch_list="${GAUS_TORCH_CUDA_ARCH_LIST:-9.0}"
jobs="${GAUS_JOBS:-$(nproc)}"
bench=false
for argument in "$@"; do
  case "$argument" in
    --bench) bench=true ;;
    *) echo "check-libtorch2: unknown argument '$argument' (expected --bench)" >&2; exit 2 ;;
  esac
done

say() { echo "check-libtorch2: $*"; }
fail() {
  echo "check-libtorch2: $*" >&2
  exit 1
}

# --- 1. torch from PyPI, in a virtual environment under build/ (ignored by git) -------------
# --- 2. the CUDA toolkit, and 3. configure build-libtorch2/ (scripts/lib/libtorch2.sh) ---------
source "$root/scripts/lib/libtorch2.sh"
libtorch2_install "$venv" "$requirement" "$root/build/libtorch2-pip.log"
libtorch2_configure "$build_dir" "$arch_list" "$root/build/libtorch2-configure.log"
say "building (-j $jobs): the GauS engine and its plugin, gaus, the tests that use them, gaus-bench"
cmake --build "$build_dir" -j "$jobs" --target differentiable_tests cli_tests gaus gaus-bench

# Debian's libtorch-dev puts LibTorch 1.13 in /usr/lib, on the loader's default path: check that
# what the tests load is the wheel's LibTorch and CUDA runtime.
for binary in "$build_dir/tests/unit/differentiable/differentiable_tests" \
  "$build_dir/apps/gaus/libgaus-engine-differentiable.so"; do
  for library in libtorch_cpu.so libc10.so libcudart.so.13; do
    loaded="$(ldd "$binary" | awk -v name="$library" '$1 == name { print $3 }')"
    [[ "$loaded" == "$venv"/* ]] || fail "$binary loads $library from '${loaded:-nowhere}'," \
      "not from the wheel in $venv (ldd $binary)"
  done
done

# --- 4. the tests, on the CPU -------------------------------------------------------------------
say "testing: differentiable_tests (fused and LibTorch kernels) and cli_tests of method gaus"
ctest --test-dir "$build_dir" --output-on-failure -j "$jobs" -LE 'slow|browser|fuzz' \
  -R '^differentiable_tests:|^cli_tests:.*(method gaus|--device)'

if ! $bench; then
  say "passed with torch $torch_version (CUDA $torch_cuda), nvcc $nvcc_version"
  exit 0
fi

# --- 5. optional: gaus-step, this build beside Debian's LibTorch in build/ ---------------------
# Each setting runs both builds one after the other, so that the two figures of a row share the
# machine's load; the fused kernels at the suite's 300 steps, LibTorch's operators at 100.
debian_bench="$root/build/apps/gaus-bench/gaus-bench"
[[ -x "$debian_bench" ]] || fail "no $debian_bench to compare with: run scripts/build.sh first"
# gaus-bench exits with 1 when a figure misses its target (50 ms per step); the figure counts.
time_per_step() {
  local report figure
  report="$("$1" gaus-step "${@:2}")" || true
  figure="$(awk -F'|' '$2 ~ /^ time per step / { gsub(/ /, "", $3); print $3 }' <<<"$report")"
  [[ -n "$figure" ]] || fail "$1 gaus-step ${*:2} reported no time per step"
  echo "$figure"
}
echo "| kernels | threads | LibTorch $torch_version | Debian's LibTorch | 2.x / Debian | load average |"
echo "|---|---|---|---|---|---|"
for kernels in fused torch; do
  steps=300
  [[ "$kernels" == torch ]] && steps=100
  for threads in 1 2; do
    load="$(cut -d' ' -f1 /proc/loadavg)"
    settings=(--kernels "$kernels" --threads "$threads" --steps "$steps")
    libtorch2_ms="$(time_per_step "$build_dir/apps/gaus-bench/gaus-bench" "${settings[@]}")"
    debian_ms="$(time_per_step "$debian_bench" "${settings[@]}")"
    ratio="$(awk -v a="${libtorch2_ms%ms}" -v b="${debian_ms%ms}" 'BEGIN { printf "%.2f", a / b }')"
    echo "| $kernels | $threads | $libtorch2_ms | $debian_ms | $ratio | $load |"
  done
done
