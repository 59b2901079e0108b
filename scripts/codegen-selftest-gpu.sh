#!/usr/bin/env bash
# Runs the GPU self-test of every built-in kernel (docs/codegen.md "Self-test") on the GPU of
# this machine and prints the table docs/codegen.md records: each kernel at its schedules (gaus
# twill's and those of configs/schedules) for trips 1, 2, 7 and 1000 on 1 block and on
# 2 x the multiprocessors, then each seeded fault, which must fail (exit 1: data error, or 3:
# deadlock). Kernels for another architecture than the GPU's (sm_90a on Hopper, sm_100a on
# Blackwell) are listed as skipped.
#
#   scripts/codegen-selftest-gpu.sh [WORK_FOLDER]     (default: a new folder under /tmp)
#   scripts/codegen-selftest-gpu.sh --compile-only sm_90a|sm_100a [WORK_FOLDER]
#       generates and compiles every case for that architecture without a GPU, running nothing
#   scripts/codegen-selftest-gpu.sh --run-compiled WORK_FOLDER
#       runs the cases a --compile-only run left in WORK_FOLDER on this machine's GPU, with
#       neither gaus nor nvcc (a GPU machine that has only the driver: compile elsewhere, copy
#       the folder over)
#
# Needs the gaus program ($GAUS, default build/apps/gaus/gaus), nvcc and nvidia-smi. Exits 1 when
# a case does not end as expected (or, compiling only, does not compile).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
gaus="${GAUS:-$root/build/apps/gaus/gaus}"
compile_only=""
run_compiled=""
if [[ "${1:-}" == --compile-only ]]; then
  compile_only=yes
  architecture="${2:?--compile-only needs sm_90a or sm_100a}"
  shift 2
elif [[ "${1:-}" == --run-compiled ]]; then
  run_compiled=yes
  [[ -d "${2:-}" ]] || { echo "--run-compiled needs the folder of a --compile-only run" >&2; exit 2; }
  shift
fi
work="${1:-$(mktemp -d /tmp/gaus-selftest.XXXXXX)}"
mkdir -p "$work"
faults=(ring-slot-missing wrong-arrival-count wrong-first-parity missing-producer-tail
        skipped-release aliased-rings)

if [[ -n "$compile_only" ]]; then
  card="no GPU (compiled only)"
  capability="${architecture#sm_}"
else
  capability="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')"
  card="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  case "$capability" in
    90) architecture=sm_90a ;;
    100) architecture=sm_100a ;;
    *) echo "a GPU of compute capability $capability: the self-tests target sm_90a and sm_100a" >&2
       exit 1 ;;
  esac
fi
# A --compile-only run records its architecture; a --run-compiled run checks it is this GPU's.
if [[ -n "$compile_only" ]]; then
  echo "$architecture" >"$work/architecture"
elif [[ -n "$run_compiled" && "$(cat "$work/architecture" 2>/dev/null)" != "$architecture" ]]; then
  echo "$work was compiled for $(cat "$work/architecture" 2>/dev/null || echo "no architecture")," \
    "this GPU needs $architecture" >&2
  exit 1
fi

# The schedules of each kernel: gaus twill's, and those of configs/schedules/KERNEL.*.json (FA4's
# roles for fa_fwd_blackwell_fa4, whose gaus twill schedule is left out: it has four roles and
# takes up to a minute; a GEMM whose tiles stay 2 and 3 iterations in flight, so that
# ring-slot-missing applies). The stand-in fa_fwd_blackwell_subtiled is left out: its split
# over-subscribes the register file.
schedules_of() {
  local kernel="$1"
  if [[ -n "$run_compiled" ]]; then
    ls "$work/$kernel"/*/correct/selftest 2>/dev/null | sed 's|/correct/selftest$|.json|'
    return
  fi
  if [[ "$kernel" != fa_fwd_blackwell_fa4 ]]; then
    "$gaus" twill "$kernel" -q -o "$work/$kernel.twill.json" >/dev/null
    echo "$work/$kernel.twill.json"
  fi
  ls "$root"/configs/schedules/"$kernel".*.json 2>/dev/null || true
}

# One case: the self-test of $1 at schedule $2, correct or with fault $3; prints its row.
run_case() {
  local kernel="$1" schedule="$2" copy="$3"
  local name folder seed=() code expected verdict
  name="$(basename "$schedule" .json)"
  folder="$work/$kernel/$name/$copy"
  [[ "$copy" != correct ]] && seed=(--seed-fault "$copy")
  if [[ -n "$run_compiled" ]]; then
    if [[ ! -x "$folder/selftest" ]]; then
      echo "| $kernel | $name | $copy | - | not applicable | not compiled by the --compile-only run |"
      return
    fi
  elif ! "$gaus" codegen "$kernel" "$schedule" --target selftest "${seed[@]}" -o "$folder" \
      >"$work/generate.log" 2>&1; then
    echo "| $kernel | $name | $copy | - | not applicable | $(tail -1 "$work/generate.log") |"
    return
  fi
  if [[ -z "$run_compiled" ]] && ! nvcc -arch="$architecture" -std=c++17 -O2 \
      -o "$folder/selftest" "$folder/${kernel}_selftest.cu" >"$folder/nvcc.log" 2>&1; then
    echo "| $kernel | $name | $copy | - | compile error | $folder/nvcc.log |"
    status=1
    return
  fi
  if [[ -n "$compile_only" ]]; then
    echo "| $kernel | $name | $copy | - | compiled | - |"
    return
  fi
  set +e
  "$folder/selftest" --trips 1,2,7,1000 --grids 1,2xSM --watchdog 10 >"$folder/run.log" 2>&1
  code=$?
  set -e
  expected="0"
  [[ "$copy" != correct ]] && expected="1 or 3"
  verdict="$(grep -E '^(ok|DATA ERROR|DEADLOCK|CUDA ERROR)' "$folder/run.log" | head -1 | cut -c1-90)"
  echo "| $kernel | $name | $copy | $expected | $code | $verdict |"
  if [[ "$copy" == correct && "$code" != 0 ]] ||
     [[ "$copy" != correct && "$code" != 1 && "$code" != 3 ]]; then
    status=1
  fi
}

status=0
echo "GPU self-test on $card ($architecture), $(date -u +%Y-%m-%d)"
echo
echo "| kernel | schedule | copy | expected | exit | output |"
echo "|---|---|---|---|---|---|"
for file in "$root"/configs/kernels/*.yaml; do
  kernel="$(basename "$file" .yaml)"
  [[ "$kernel" == fa_fwd_blackwell_subtiled ]] && continue
  machine="$(sed -n 's/^machine: *//p' "$file")"
  wants=sm_90a
  [[ "$machine" == *blackwell* ]] && wants=sm_100a
  if [[ "$wants" != "$architecture" ]]; then
    echo "| $kernel | - | - | - | skipped | needs $wants |"
    continue
  fi
  for schedule in $(schedules_of "$kernel"); do
    for copy in correct "${faults[@]}"; do
      run_case "$kernel" "$schedule" "$copy"
    done
  done
done
echo
echo "logs: $work"
exit "$status"
