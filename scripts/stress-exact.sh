#!/usr/bin/env bash
# Stress runs of the exact engine's tests (docs/contributing.md, "Stress runs of the exact
# engine"): runs the twill and ilp test cases of exact_tests one at a time, each with every time
# limit of the tests replaced by one drawn at random (log-uniform, 10 ms to 2 s by default;
# GAUS_TEST_TIME_LIMIT, tests/support/test_support.hpp), so that the searches stop at many
# different points: inside Z3's checks, the CBC/HiGHS children, the model builds. Failed
# expectations are normal under a changed limit; only a crash counts: a signal, or a sanitizer's
# report. Opt-in (not in CI): a few hundred runs take an hour or more on 2 cores.
#   scripts/stress-exact.sh [--build asan|tsan|release] [--tests EXACT_TESTS] [--runs N]
#                           [--min-ms MS] [--max-ms MS] [--seed S] [--spec CATCH_SPEC] [--log FILE]
#   --build   which build to loop: asan (ASan+UBSan, build-asan-exact/), tsan (TSan,
#             build-tsan-exact/) or release (build/); the sanitized ones are configured and
#             built here (Debug, GAUS_WITH_TORCH=OFF, exact_tests only); default asan
#   --tests   an exact_tests program built elsewhere (another worktree, another Z3): loops it
#             as it is, building nothing
#   --runs    how many test-case runs (default 100)
#   --spec    the Catch2 selection the cases are drawn from (default: the twill and ilp tests,
#             "[exact]~[.slow]", which holds both)
#   --log     one line per run (seed, case, limit, seconds, verdict); a crash's output is kept
#             beside it as FILE.crash-N
# It runs at nice 10 and ends with a summary line "runs N crashes C hangs H failed F passed P"
# (a hang: a run past 10 minutes, killed); its exit status is 1 when a run crashed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build=asan tests="" runs=100 min_ms=10 max_ms=2000 seed=$$ spec='[exact]~[.slow]' log=""
while (($#)); do
  case "$1" in
    --build) build="$2" ;;
    --tests) tests="$2" ;;
    --runs) runs="$2" ;;
    --min-ms) min_ms="$2" ;;
    --max-ms) max_ms="$2" ;;
    --seed) seed="$2" ;;
    --spec) spec="$2" ;;
    --log) log="$2" ;;
    *) echo "stress-exact: unknown argument $1" >&2 && exit 2 ;;
  esac
  shift 2
done
log="${log:-$root/stress-exact-$build.log}"
[[ -n "$tests" ]] && build=_
jobs="${GAUS_JOBS:-1}"
suppressions="$root/cmake/sanitizer-suppressions"
case "$build" in
  _) ;;
  asan | tsan)
    build_dir="$root/build-$build-exact"
    sanitize=address,undefined
    [[ "$build" == tsan ]] && sanitize=thread
    cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Debug -DGAUS_SANITIZE="$sanitize" \
      -DGAUS_WITH_TORCH=OFF -DGAUS_WERROR=ON >/dev/null
    nice -n 10 cmake --build "$build_dir" -j "$jobs" --target exact_tests
    ;;
  release) build_dir="$root/build" ;;
  *) echo "stress-exact: --build is asan, tsan or release" >&2 && exit 2 ;;
esac
tests="$(realpath "${tests:-$build_dir/tests/unit/exact/exact_tests}")"
[[ -x "$tests" ]] || { echo "stress-exact: no program $tests" >&2 && exit 2; }
# Leaks are not crashes (Z3 and CBC keep caches for the process); every report aborts the run.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1:suppressions=$suppressions/ubsan.supp:${UBSAN_OPTIONS:-}"
export TSAN_OPTIONS="halt_on_error=1:abort_on_error=1:second_deadlock_stack=1:${TSAN_OPTIONS:-}"

mapfile -t cases < <("$tests" --list-test-names-only "$spec" | sed '/^$/d')
((${#cases[@]})) || { echo "stress-exact: no test case matches $spec" >&2 && exit 2; }
RANDOM=$seed
: >"$log"
# A crash leaves a core in a scratch folder; its threads' stacks go into the crash file (gdb).
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
ulimit -c unlimited 2>/dev/null || true
crashes=0 hangs=0 failed=0 passed=0
for ((run = 1; run <= runs; ++run)); do
  name="${cases[RANDOM % ${#cases[@]}]}"
  # Log-uniform in [min_ms, max_ms]: as many runs stop within the first 100 ms as near 2 s.
  limit=$(awk -v r="$((RANDOM * 32768 + RANDOM))" -v lo="$min_ms" -v hi="$max_ms" \
    'BEGIN { u = r / 1073741824; printf "%.3f", exp(log(lo) + u * (log(hi) - log(lo))) / 1000 }')
  # Catch2 reads commas and brackets in a name as syntax.
  escaped=$(printf '%s' "$name" | sed 's/[][,\\]/\\&/g')
  output="$log.run"
  begin=$SECONDS
  set +e
  # A run past 10 minutes is a hang (every limit is at most 2 s): counted apart, killed.
  (cd "$scratch" && GAUS_TEST_TIME_LIMIT="$limit" exec timeout 600 nice -n 10 "$tests" "$escaped") \
    >"$output" 2>&1
  status=$?
  set -e
  if ((status == 124)); then
    verdict="HUNG"
    hangs=$((hangs + 1))
    cp "$output" "$log.hung-$run"
  elif ((status >= 128)) || grep -qE 'Sanitizer|runtime error:' "$output"; then
    verdict="CRASH($status)"
    crashes=$((crashes + 1))
    cp "$output" "$log.crash-$run"
    core=$(find "$scratch" -maxdepth 1 -name 'core*' | head -n 1)
    if [[ -n "$core" ]] && command -v gdb >/dev/null; then
      gdb -batch -ex 'thread apply all bt 20' "$tests" "$core" >>"$log.crash-$run" 2>&1 || true
    fi
    rm -f "$scratch"/core*
  elif ((status != 0)); then
    verdict="failed"
    failed=$((failed + 1))
  else
    verdict="passed"
    passed=$((passed + 1))
  fi
  printf 'run %d seed %d limit %ss %ds %s: %s\n' "$run" "$seed" "$limit" $((SECONDS - begin)) \
    "$verdict" "$name" | tee -a "$log"
done
rm -f "$log.run"
echo "stress-exact ($tests): runs $runs crashes $crashes hangs $hangs failed $failed passed $passed" |
  tee -a "$log"
((crashes == 0))
