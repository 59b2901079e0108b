#!/usr/bin/env bash
# Installs what is missing, builds in Release and runs the main job: a tour of gaus on bundled
# kernels and the shared benchmark graphs (the experiment runner will take this over).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
build_dir="${GAUS_BUILD_DIR:-$root/build}"
gaus="$build_dir/apps/gaus/gaus"
shared="${GAUS_SHARED_DIR:-$root/../shared}"
benchmarks="$shared/benchmarks"
out="${GAUS_OUT_DIR:-$root/out}"
mkdir -p "$out"

step() { printf '\n== %s\n' "$*"; }
# Listed once: `grep -q` on a pipe would stop reading early, and with pipefail the writer's
# SIGPIPE would make the test fail.
methods="$("$gaus" methods)"
commands="$("$gaus" --help)"

ewf="$benchmarks/heurigym-operator-scheduling/small/ewf.json"
step "gaus info $ewf"
"$gaus" info "$ewf"

step "list scheduling (heuristic baseline)"
"$gaus" schedule "$ewf" --method list -o "$out/ewf.list.json"
"$gaus" verify "$ewf" "$out/ewf.list.json"

if grep -q '^ilp:' <<<"$methods"; then
  step "exact latency (MILP) of the same graph"
  "$gaus" schedule "$ewf" --method ilp --time-limit 60
fi

if grep -q '^gaus:' <<<"$methods"; then
  step "GauS (formulation L) of the same graph"
  "$gaus" schedule "$ewf" --method gaus --time-limit 20 --seed 1
  h2v2="$benchmarks/heurigym-operator-scheduling/small/h2v2.json"
  step "list scheduling vs GauS where they differ (h2v2: baseline.json's ILP latency is 23)"
  "$gaus" schedule "$h2v2" --method list
  "$gaus" schedule "$h2v2" --method gaus --time-limit 20 --seed 1 -o "$out/h2v2.gaus.json"
fi

loop="$benchmarks/hatschet-machsuite/md_grid/graph6.graphml"
step "iterative modulo scheduling of a MachSuite loop"
"$gaus" schedule "$loop" --method ims

if grep -q 'twill' <<<"$commands"; then
  step "optimal software pipelining + warp specialization of built-in kernels"
  "$gaus" twill toy_fa --explain
  "$gaus" twill fa_fwd_hopper
fi

printf '\nschedules written to %s\n' "$out"
