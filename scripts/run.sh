#!/usr/bin/env bash
# Installs what is missing, builds the gaus program in Release and runs the main job: the
# quick-start experiment (configs/experiments/quickstart.yaml: EPFL circuits' peak memory with
# list scheduling, its refinement, GauS and the exact engine; two MachSuite loops where IMS stays
# above MinII, with the modulo MILP; Twill on two Flash-Attention kernels), about 2 minutes on 2
# cores. It ends with a five-line summary and the path of the HTML report, which opens with
# sentences the results write. Extra arguments go to `gaus run` (e.g. --resume, --jobs 4,
# --dry-run).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
# The main job needs the gaus program and its engine plugins only; scripts/test.sh builds the
# tests.
GAUS_TARGETS="${GAUS_TARGETS:-gaus}" "$root/scripts/build.sh"
build_dir="${GAUS_BUILD_DIR:-$root/build}"
# The benchmark graphs are found through ${shared} in the config.
export GAUS_SHARED_DIR="${GAUS_SHARED_DIR:-$root/../shared}"
out="${GAUS_OUT_DIR:-$root/out}/quickstart"
# A finished earlier run is kept: --resume runs only what it lacks (nothing, when it is complete).
resume=()
if [[ -s "$out/results.jsonl" ]]; then resume=(--resume); fi
exec "$build_dir/apps/gaus/gaus" run "$root/configs/experiments/quickstart.yaml" -o "$out" \
  "${resume[@]}" "$@"
