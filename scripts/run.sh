#!/usr/bin/env bash
# Installs what is missing, builds in Release and runs the main job.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
build_dir="${GAUS_BUILD_DIR:-$root/build}"
gaus="$build_dir/apps/gaus/gaus"
shared="${GAUS_SHARED_DIR:-$root/../shared}"
graph="$shared/benchmarks/heurigym-operator-scheduling/small/ewf.json"

echo "== gaus info $graph"
"$gaus" info "$graph"
echo
echo "== gaus schedule $graph --method list"
"$gaus" schedule "$graph" --method list
