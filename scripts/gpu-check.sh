#!/usr/bin/env bash
# The GPU check of method gaus (docs/gaus.md, "On a GPU"): a fixed table of GauS runs on the GPU
# of this machine, printed as markdown for docs/benchmarks.md, in about 7.5 minutes. Each row:
# Adam steps, ms per step, the first legal schedule, the optimizer's wait share, the legalized
# candidates and the wall seconds of one (rows side by side each count whole), the GPU memory
# the run took (nvidia-smi, peak above the idle card, per op), the answer against its bound.
#
#   scripts/gpu-check.sh [BUNDLE] [WORK_FOLDER]
#
# BUNDLE: a folder written by scripts/gpu-bundle.sh (default dist/gaus-gpu); its `run` finds
# this machine's PyTorch. WORK_FOLDER (default a new folder under /tmp) keeps the graphs, each
# run's JSON result and log. GAUS_GPU_CHECK_SECONDS scales every row's time limit (default 1).
# Needs python3 with torch (the bundle's) and nvidia-smi; exits 1 when a row gives no verified
# answer.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bundle="$(cd "${1:-$root/dist/gaus-gpu}" && pwd)"
work="${2:-$(mktemp -d /tmp/gaus-gpu-check.XXXXXX)}"
scale="${GAUS_GPU_CHECK_SECONDS:-1}"
mkdir -p "$work"
gaus() { "$bundle/run" gaus "$@"; }

# The graphs, generated at once (the 10M-op one takes about a minute) and all waited for before
# the first row: on the H200 machine a CPU row beside the generators stepped 3x slower.
L_TYPES=(--degree 3 --type ALU:1-1:1:8 --type MUL:2-4:1:2)
declare -A generator=(
  [L100k]="--ops 100000 ${L_TYPES[*]}"
  [L1M]="--ops 1000000 ${L_TYPES[*]}"
  [L10M]="--ops 10000000 --degree 3 --type ALU:1-1:1:64 --type MUL:2-4:1:16"
  [B214k]="--ops 214591 --layered --layers 24801 --fanin 2 --layer-span 16 --weighted 1 --type AND:1-1:1:inf"
  [Ltight100k]="--ops 100000 --layered --layers 32500 --layer-span 3 --degree 2 --type ALU:1-1:1:8 --type MUL:3-3:3:2"
)
declare -A generating
for graph in "${!generator[@]}"; do
  # shellcheck disable=SC2086 # the generator's words
  gaus generate ${generator[$graph]} --seed 1 -o "$work/$graph.json" >"$work/$graph.generate.log" 2>&1 &
  generating[$graph]=$!
done

for graph in "${!generating[@]}"; do
  wait "${generating[$graph]}" || {
    echo "gpu-check: generating $graph failed: $(tail -1 "$work/$graph.generate.log")" >&2
    exit 1
  }
done

card="$(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | head -1)"
idle_mib="$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits | head -1)"

status=0
# row NAME GRAPH SECONDS DEVICE [gaus schedule arguments...]
row() {
  local name="$1" graph="$2" seconds="$3" device="$4"
  shift 4
  [[ -s "$work/$graph.json" ]] || { echo "| $name | no graph $work/$graph.json |"; status=1; return; }
  local limit sampler peak_mib
  limit="$(awk -v s="$seconds" -v k="$scale" 'BEGIN { print s * k }')"
  nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 200 >"$work/$name.memory" &
  sampler=$!
  set +e
  gaus schedule "$work/$graph.json" --method gaus --device "$device" --time-limit "$limit" \
    --json "$@" >"$work/$name.result.json" 2>"$work/$name.log"
  local code=$?
  set -e
  kill "$sampler" 2>/dev/null || true
  wait "$sampler" 2>/dev/null || true
  peak_mib="$(sort -n "$work/$name.memory" | tail -1)"
  local ops
  ops="$(awk '{ for (i = 1; i < NF; ++i) if ($i == "--ops") print $(i + 1) }' <<<"${generator[$graph]}")"
  python3 - "$name" "$device" "$work/$name.result.json" "$code" "$((peak_mib - idle_mib))" "$ops" <<'PYTHON' || status=1
import json, sys
name, device, path = sys.argv[1], sys.argv[2], sys.argv[3]
code, mib, ops = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
try:
    result = json.load(open(path))
except Exception as error:
    print(f"| {name} | {device} | no result (exit {code}): {error} |")
    sys.exit(1)
figures = result.get("figures") or result.get("extra") or {}
if isinstance(figures, list):
    figures = {entry["name"]: entry["value"] for entry in figures}
def figure(key, form="{:.0f}"):
    return form.format(figures[key]) if key in figures else "-"
objective = result.get("objective") or {}
bounds = result.get("bounds") or {}
verified = result.get("verified", False)
gpu = f"{mib / 1024:.1f} GB" if device == "cuda" else "-"
per_op = f"{mib * 1024 / ops:.1f} KB" if device == "cuda" and ops else "-"
answer = f"{objective.get('name', '?')} {objective.get('value', '?'):g}"
bound = bounds.get("lower_bound")
print(f"| {name} | {device} | {figure('adam_steps')} | {1000 * figures.get('seconds_per_step', float('nan')):.1f} "
      f"| {figure('first_legal_seconds', '{:.1f} s')} | {figure('optimizer_wait_share', '{:.1%}')} "
      f"| {figure('legalized_candidates')} | {figure('seconds_per_candidate', '{:.2f} s')} "
      f"| {figure('batch_used')} | {gpu} | {per_op} "
      f"| {answer}{'' if verified else ' (NOT VERIFIED)'} | {bound if bound is not None else '-'} "
      f"| {result.get('seconds', 0):.0f} s |")
sys.exit(0 if verified else 1)
PYTHON
}

echo "GPU check of method gaus on $card, $(date -u +%Y-%m-%d), $("$bundle/run" gaus --version | head -1)"
echo
echo "| row | device | Adam steps | ms / step | first legal | optimizer wait | candidates | s / candidate | batch | GPU memory | per op | answer | bound | wall |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
row L100k-cpu L100k 20 cpu
row L100k L100k 20 cuda
row L1M L1M 45 cuda
row B214k B214k 60 cuda --horizon 24801 -O formulation=B
row Ltight100k Ltight100k 45 cuda
# Batch 8 (the GPU rule's choice above) against one row stepping more often, same time.
row Ltight100k-batch1 Ltight100k 45 cuda -O batch=1
row L10M L10M 100 cuda
echo
echo "work folder: $work"
exit "$status"
