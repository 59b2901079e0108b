#!/usr/bin/env bash
# The identity check of a refactor (docs/benchmarks.md, "Each decision made once"): two gaus
# binaries, the one before a change and the one after, run the same experiments and the same
# deterministic GauS runs, and compare.py says which records and schedules differ.
#   scripts/identity/identity-check.sh BEFORE_BINARY AFTER_BINARY OUTDIR
# The experiments are configs/experiments/{kernels,heurigym,proofs}.yaml with their schedules
# kept, GauS on HeuriGym made deterministic (sync legalization, 400 steps, no time limit, one
# thread) and proofs' limits cut to 8 s per graph, so that both runs take about 5 minutes each.
# Records that a wall-time limit ends (status timeout, and phases with a time budget such as the
# Lagrangian's cuts) may differ between two runs of one binary; everything else must not. Run it
# on a quiet machine: load moves what a time limit reaches.
set -euo pipefail
if [[ $# -ne 3 ]]; then
  echo "usage: scripts/identity/identity-check.sh BEFORE_BINARY AFTER_BINARY OUTDIR" >&2
  exit 2
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
here="$root/scripts/identity"
before="$(realpath "$1")"
after="$(realpath "$2")"
out="$3"
mkdir -p "$out/configs"
out="$(realpath "$out")"
shared="${GAUS_SHARED_DIR:-$root/../shared}"
export GAUS_SHARED_DIR="$shared"

# The configs, derived from the shipped ones (so that the check follows them).
experiments="$root/configs/experiments"
sed 's/^budgets:$/budgets:\n  schedules: true/' "$experiments/kernels.yaml" >"$out/configs/kernels.yaml"
sed -e 's/options: {time_limit: 5}/options: {legalization: sync, max_steps: 400, time_limit: none, threads: 1}/' \
  -e 's/^budgets:$/budgets:\n  schedules: true/' "$experiments/heurigym.yaml" >"$out/configs/heurigym.yaml"
sed -e 's/time_limit: 30/time_limit: 8/' -e 's/time_limit: 10/time_limit: 5/' \
  -e 's/options: {time_limit: 60}/options: {time_limit: 10}/' "$experiments/proofs.yaml" >"$out/configs/proofs.yaml"

benchmarks="$shared/benchmarks"
deterministic=(-O legalization=sync -O max_steps=400 -O time_limit=none -O threads=1)
gaus_runs() {  # BINARY DIR: ten GauS runs over the three formulations and the modulo problem
  local binary="$1" dir="$2"
  mkdir -p "$dir"
  while read -r name args; do
    # shellcheck disable=SC2086
    "$binary" schedule $args --method gaus "${deterministic[@]}" -q \
      -o "$dir/$name.schedule.json" --json >"$dir/$name.json" 2>"$dir/$name.err"
  done <<RUNS
ewf_L $benchmarks/heurigym-operator-scheduling/small/ewf.json
fir1_L $benchmarks/heurigym-operator-scheduling/small/fir1.json
h2v2_L $benchmarks/heurigym-operator-scheduling/small/h2v2.json
gs3_A $benchmarks/gs-schedule-icml24-rw/rand_graph_1000_3.gml --kind stages --horizon 10
gs1_A $benchmarks/gs-schedule-icml24-rw/rand_graph_sparse_1000_1.gml --kind stages --horizon 10
gs2_A $benchmarks/gs-schedule-icml24-rw/rand_graph_1000_2.gml --kind stages --horizon 10
ctrl_B $benchmarks/epfl-combinational/ctrl.aig --horizon 11
int2float_B $benchmarks/epfl-combinational/int2float.aig --horizon 17
kmp_C $benchmarks/hatschet-machsuite/kmp/graph1.graphml
gemm_C $benchmarks/hatschet-machsuite/gemm_ncubed/graph1.graphml
RUNS
}

for side in before after; do
  mkdir -p "$out/$side"
  binary="$before"
  [[ $side == after ]] && binary="$after"
  for experiment in kernels heurigym proofs; do
    echo "$side: $experiment" >&2
    "$binary" run "$out/configs/$experiment.yaml" -o "$out/$side/$experiment" \
      >"$out/$side/$experiment.log" 2>&1 || { echo "$side $experiment failed: $out/$side/$experiment.log" >&2; exit 1; }
  done
  echo "$side: the GauS runs" >&2
  gaus_runs "$binary" "$out/$side/gaus"
done
python3 "$here/compare.py" "$out/before" "$out/after"
