#!/usr/bin/env bash
# Installs what is missing, builds, and runs the tests with ctest.
#   scripts/test.sh          every test except those labelled slow, browser or fuzz
#   scripts/test.sh --all    every test, those labels included
# (docs/contributing.md, "Tests", says what each label holds.)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
build_dir="${GAUS_BUILD_DIR:-$root/build}"
label_filter=(-LE 'slow|browser|fuzz')
if [[ "${1:-}" == "--all" ]]; then label_filter=(); fi
cd "$build_dir"
ctest --output-on-failure -j "${GAUS_JOBS:-$(nproc)}" "${label_filter[@]}"
