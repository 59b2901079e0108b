#!/usr/bin/env bash
# Configures and builds gaus in build/ (Release by default). Extra arguments go to cmake.
# GAUS_TARGETS (space-separated) builds only those targets and what they need: scripts/run.sh
# builds the gaus program and its engine plugins, not the tests. Unset: everything.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${GAUS_BUILD_DIR:-$root/build}"
jobs="${GAUS_JOBS:-$(nproc)}"
cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE="${GAUS_BUILD_TYPE:-Release}" \
  -DGAUS_WERROR=ON "$@" >/dev/null
targets=()
for target in ${GAUS_TARGETS:-}; do targets+=(--target "$target"); done
cmake --build "$build_dir" -j "$jobs" "${targets[@]}"
