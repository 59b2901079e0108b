#!/usr/bin/env bash
# The table of formulation B at scale (docs/benchmarks.md, "GauS at scale"): for each circuit at
# D = its list schedule's latency, the peak of list scheduling, of FDS, of GauS's start +
# refinement (-O max_steps=0 -O windows=false), of GauS, and the best bound any of these runs or
# `gaus bound` reported, with the argument that gave it and GauS / bound.
#   scripts/scale-table.sh [--seconds S] [--bound-seconds S] GRAPH...
# GRAPH is a file (.aig, or a generated circuit, docs/random_graphs.md); each run gets S seconds
# (default 60), `gaus bound` its own (default 60; 0 skips it). One run at a time: the machine's
# two cores are what each run is timed on.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
gaus="${GAUS_BINARY:-$root/build/apps/gaus/gaus}"
seconds=60
bound_seconds=60
graphs=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --bound-seconds) bound_seconds="$2"; shift 2 ;;
    *) graphs+=("$1"); shift ;;
  esac
done
if [[ ${#graphs[@]} -eq 0 ]]; then
  echo "usage: scripts/scale-table.sh [--seconds S] [--bound-seconds S] GRAPH..." >&2
  exit 2
fi
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
echo "| circuit | ops | D | list | fds (s) | start + refinement | GauS (steps) | bound | argument | GauS / bound |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for graph in "${graphs[@]}"; do
  name="$(basename "${graph%.*}")"
  horizon="$("$gaus" schedule "$graph" --method list --json -q |
    python3 -c 'import json,sys; print(int(json.load(sys.stdin)["objective"]["value"]))')"
  ops="$("$gaus" info "$graph" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["ops"])')"
  common=(--kind latency-bounded --horizon "$horizon" --objective peak_memory --json -q)
  "$gaus" schedule "$graph" "${common[@]}" --method list > "$scratch/list.json"
  "$gaus" schedule "$graph" "${common[@]}" --method fds --time-limit "$seconds" > "$scratch/fds.json"
  "$gaus" schedule "$graph" "${common[@]}" --method gaus --time-limit "$seconds" \
    -O max_steps=0 -O windows=false > "$scratch/start.json"
  "$gaus" schedule "$graph" "${common[@]}" --method gaus --time-limit "$seconds" > "$scratch/gaus.json"
  if [[ "$bound_seconds" != 0 ]]; then
    "$gaus" bound "$graph" --horizon "$horizon" --time-limit "$bound_seconds" --json -q \
      > "$scratch/bound.json"
  else
    echo '{}' > "$scratch/bound.json"
  fi
  python3 - "$scratch" "$name" "$horizon" "$ops" <<'PY'
import json, sys
scratch, name, horizon, ops = sys.argv[1:5]
runs = {k: json.load(open(f"{scratch}/{k}.json")) for k in ("list", "fds", "start", "gaus", "bound")}
def value(run):
    return run.get("objective", {}).get("value") if run else None
best, argument = None, ""
for key in ("list", "fds", "start", "gaus"):
    bounds = runs[key].get("bounds", {})
    if bounds.get("lower_bound") is not None and (best is None or bounds["lower_bound"] > best):
        best, argument = bounds["lower_bound"], f'{bounds.get("argument", "")} ({key})'
if runs["bound"].get("lower_bound") is not None and (best is None or runs["bound"]["lower_bound"] > best):
    best, argument = runs["bound"]["lower_bound"], f'{runs["bound"]["argument"]} (gaus bound)'
cells = [value(runs[k]) for k in ("list", "fds", "start", "gaus")]
fmt = lambda v: "" if v is None else f"{v:g}"
ratio = f"{cells[3] / best:.3f}" if cells[3] and best else ""
# FDS's seconds beside its peak: the issue asks that it answer within the run's own time.
fds = fmt(cells[1]) + (f' ({runs["fds"]["seconds"]:.1f} s)' if "seconds" in runs["fds"] else "")
steps = runs["gaus"].get("iterations")
gaus = fmt(cells[3]) + (f" ({steps:g})" if steps is not None else "")
print(f"| {name} | {ops} | {horizon} | {fmt(cells[0])} | {fds} | {fmt(cells[2])} | {gaus} | "
      f"{fmt(best)} | {argument} | {ratio} |")
PY
done
