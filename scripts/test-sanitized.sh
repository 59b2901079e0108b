#!/usr/bin/env bash
# Builds gaus with AddressSanitizer and UndefinedBehaviorSanitizer (GAUS_SANITIZE,
# cmake/GausSanitizers.cmake) and runs the default tests of the modules gaus writes itself:
# core, io, heuristic, and the replays of the readers' fuzz regressions (docs/contributing.md,
# "Sanitizers").
#   scripts/test-sanitized.sh                  those suites, in build-asan/ (the default compiler)
#   scripts/test-sanitized.sh --fuzz SECONDS   the same in build-fuzz/ with clang and libFuzzer,
#                                              then every reader's harness for SECONDS (CI: 20)
#   scripts/test-sanitized.sh [--fuzz S] CTEST_ARGS...  other ctest arguments (e.g. -R io_tests)
# The engines are left out (GAUS_WITH_TORCH and GAUS_WITH_EXACT off): LibTorch, Z3 and CBC are
# not instrumented, their tests take longer than the rest together, and the cross-method check
# covers the engines' answers.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fuzz_seconds=""
if [[ "${1:-}" == "--fuzz" ]]; then
  fuzz_seconds="${2:?--fuzz needs the seconds per harness}"
  shift 2
fi
jobs="${GAUS_JOBS:-$(nproc)}"
suppressions="$root/cmake/sanitizer-suppressions"
configure=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DGAUS_SANITIZE=address,undefined
  -DGAUS_WITH_TORCH=OFF -DGAUS_WITH_EXACT=OFF)
targets=(core_tests io_tests heuristic_tests)
if [[ -n "$fuzz_seconds" ]]; then
  build_dir="${GAUS_FUZZ_BUILD_DIR:-$root/build-fuzz}"
  configure+=(-DGAUS_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++)
  targets+=(gaus_fuzzers)
else
  build_dir="${GAUS_ASAN_BUILD_DIR:-$root/build-asan}"
fi
cmake -S "$root" -B "$build_dir" "${configure[@]}" >/dev/null
replays=$(cd "$root/tests/fuzz" && sed -n 's/^ *\([a-z_]*\):k[A-Za-z]*:.*/fuzz_replay_\1/p;s/^gaus_add_fuzz_harness(\([a-z_]*\) .*/fuzz_replay_\1/p' CMakeLists.txt)
# shellcheck disable=SC2086
cmake --build "$build_dir" -j "$jobs" --target "${targets[@]}" $replays
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:${ASAN_OPTIONS:-}"
export LSAN_OPTIONS="suppressions=$suppressions/lsan.supp:${LSAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$suppressions/ubsan.supp:${UBSAN_OPTIONS:-}"
cd "$build_dir"
if (($# == 0)); then
  set -- -LE 'slow|browser|fuzz' -R '^(core_tests|io_tests|heuristic_tests|fuzz regressions|fuzz seed)'
fi
ctest --output-on-failure -j "$jobs" "$@"
if [[ -n "$fuzz_seconds" ]]; then
  GAUS_FUZZ_SECONDS="$fuzz_seconds" ctest --output-on-failure -j "$jobs" -L fuzz
fi
