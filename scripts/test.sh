#!/usr/bin/env bash
# Installs what is missing, builds, and runs the tests with ctest.
#   scripts/test.sh          every test except those labelled slow, browser or fuzz
#   scripts/test.sh --all    every test, those labels included
#   scripts/test.sh --ci     what CI runs: the default tests, then the sanitized suites and 20 s
#                            of fuzzing per reader (scripts/test-sanitized.sh --fuzz 20)
# (docs/contributing.md, "Tests", says what each label holds.)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode="${1:-}"
if [[ "$mode" == "--ci" ]]; then "$root/scripts/setup.sh" --fuzz; else "$root/scripts/setup.sh"; fi
# Everything: the tests and gaus-bench beside the program that scripts/run.sh builds.
GAUS_TARGETS= "$root/scripts/build.sh"
build_dir="${GAUS_BUILD_DIR:-$root/build}"
label_filter=(-LE 'slow|browser|fuzz')
if [[ "$mode" == "--all" ]]; then label_filter=(); fi
(cd "$build_dir" && ctest --output-on-failure -j "${GAUS_JOBS:-$(nproc)}" "${label_filter[@]}")
if [[ "$mode" == "--ci" ]]; then "$root/scripts/test-sanitized.sh" --fuzz 20; fi
