#!/usr/bin/env bash
# Collects the seed inputs of every reader harness into OUT/<reader>/: the files of that format
# in tests/data and in the shared benchmarks (up to 64 KB each, the harnesses' -max_len), and
# for the two-file readers the graph and its companion joined by a NUL (fuzz_two_file_reader.hpp).
#   tests/fuzz/make_seed_corpus.sh OUT [SHARED]     (SHARED: the folder holding benchmarks/)
# It also unpacks the corpus grown by the long fuzzing runs, tests/fuzz/corpus/<reader>.tar.xz
# (minimized with -merge=1; packed because JSON and XML shrink a hundredfold), into the same
# folders, so the default tests replay it and every fuzzing run starts from it.
# The test "fuzz seed corpus" runs it into BUILD/fuzz-seeds/ (tests/fuzz/CMakeLists.txt); what
# fuzzing grows from the seeds stays in BUILD/fuzz/ (docs/contributing.md, "Fuzzing").
set -euo pipefail
out="${1:?usage: make_seed_corpus.sh OUT [SHARED]}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
shared="${2:-$root/../shared}"
data="$root/tests/data"
benchmarks="$shared/benchmarks"
max_bytes=65536

# seed READER FILE...: copies each file of at most max_bytes into OUT/READER/.
seed() {
  local reader="$1"
  shift
  mkdir -p "$out/$reader"
  for file in "$@"; do
    [[ -f "$file" && $(stat -c %s "$file") -le $max_bytes ]] || continue
    cp "$file" "$out/$reader/$(basename "$(dirname "$file")")_$(basename "$file")"
  done
}

# joined READER MAIN COMPANION: MAIN, a NUL, then COMPANION (when it exists) as one input.
joined() {
  local reader="$1" main="$2" companion="$3"
  mkdir -p "$out/$reader"
  local target
  target="$out/$reader/$(basename "$(dirname "$main")")_$(basename "$main")"
  { cat "$main"; if [[ -f "$companion" ]]; then printf '\0'; cat "$companion"; fi; } >"$target"
  [[ $(stat -c %s "$target") -le $max_bytes ]] || rm -f "$target"
}

shopt -s nullglob
native_json=()
for file in "$data"/native/*.json "$data"/cli/*.json "$data"/bad/*.json; do
  grep -q '"gaus-0.1"\|"ops"' "$file" && native_json+=("$file")
done
seed native_json "${native_json[@]}"
seed native_yaml "$data"/native/*.yaml "$data"/bad/*.yaml "$root"/configs/kernels/*.yaml
seed heurigym "$benchmarks"/heurigym-operator-scheduling/*/*.json "$data"/bad/*.json
seed gml "$data"/gml/*.gml "$data"/bad/*.gml "$benchmarks"/gs-schedule-icml24-rw/*.gml
seed aiger_binary "$data"/aiger/*.aig "$data"/bad/*.aig "$benchmarks"/epfl-combinational/*.aig
seed aiger_ascii "$data"/aiger/*.aag
seed schedule_json "$data"/cli/*.schedule.json "$data"/report/schedules/*.json
seed machine_yaml "$root"/configs/machines/*.yaml "$data"/native/machines/*.yaml \
  "$data"/bad/negative_capacity.yaml
seed experiment_yaml "$root"/configs/experiments/*.yaml
for dump in "$benchmarks"/triton-ddg/*.ddg.json; do
  joined triton_ddg "$dump" "${dump%.ddg.json}.schedule_graph.json"
done
for graph in "$data"/hatschet/*.graphml "$data"/bad/*.graphml \
  "$benchmarks"/hatschet-machsuite/*/*.graphml; do
  joined hatschet "$graph" "${graph%.graphml}_RM.xml"
done
for packed in "$root"/tests/fuzz/corpus/*.tar.xz; do
  reader="$(basename "$packed" .tar.xz)"
  mkdir -p "$out/$reader"
  tar -C "$out/$reader" -xJf "$packed"
done
for reader in "$out"/*; do
  echo "$(basename "$reader"): $(find "$reader" -type f | wc -l) seeds"
done
