#!/usr/bin/env bash
# The GPU check of the wheel built on PyPI's torch (docs/python.md, "On a GPU"): on a machine
# with PyTorch, a GPU and no network, installs the wheels of FOLDER (scripts/gpu-wheel.sh writes
# it: gaus, z3-solver, highsbox, and the benchmark files the tests read) beside the machine's
# torch, runs the package's Python tests and schedules a real graph with method gaus on CUDA
# from Python and from the package's command line.
#
#   scripts/gpu/check-wheel.sh [FOLDER]        default gpu-wheel/ in the repository root
#
# Prints one line "check-wheel: PASSED" or "check-wheel: FAILED: why" at the end and exits 0 or
# 1; writes under $OUT (default out/check-wheel): check-wheel.log (everything printed),
# pytest.log, and gaus-cuda.json and gaus-cuda-cli.json (the runs' records). GAUS_PYTHON names
# the interpreter that has torch (default python3).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
folder="$(cd "${1:-$root/gpu-wheel}" && pwd)" || {
  echo "check-wheel: FAILED: no folder ${1:-$root/gpu-wheel}" >&2
  exit 1
}
out="${OUT:-$root/out/check-wheel}"
python="${GAUS_PYTHON:-python3}"
mkdir -p "$out"
exec > >(tee "$out/check-wheel.log") 2>&1

fail() {
  echo "check-wheel: FAILED: $*"
  exit 1
}
say() { echo "check-wheel: $*"; }

# --- the machine, the wheels ----------------------------------------------------------------------
nvidia-smi -L 2>/dev/null || say "nvidia-smi: none"
"$python" -W ignore -c 'import sys, torch; print("check-wheel: python", sys.version.split()[0], "torch", torch.__version__, "CUDA available:", torch.cuda.is_available(), torch.cuda.get_device_name(0) if torch.cuda.is_available() else "")' ||
  fail "$python cannot import torch"
site="$(mktemp -d /tmp/gaus-site.XXXXXX)"
"$python" -m pip install -q --no-index --no-deps --target "$site" "$folder"/*.whl ||
  fail "pip install of $folder/*.whl into $site failed"
export PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}"
# The benchmark files the tests read (scripts/gpu-wheel.sh copies them from ../shared).
export GAUS_SHARED_DIR="$folder/shared"
"$python" -c 'import gaus; print("check-wheel: gaus", gaus.version(), "built against torch", gaus.built_torch_version(), "from", gaus.__file__)' ||
  fail "import gaus failed"

# --- the Python tests --------------------------------------------------------------------------------
say "tests/python (pytest log: $out/pytest.log)"
(cd "$root" && "$python" -m pytest -q -p no:cacheprovider tests/python >"$out/pytest.log" 2>&1)
tests_status=$?
tail -n 5 "$out/pytest.log"
[[ $tests_status -eq 0 ]] || fail "the Python tests failed (see pytest.log)"

# --- GauS on CUDA, from Python and from the package's program --------------------------------------
# max (EPFL's max circuit, 3,377 ops): peak live memory within the critical path, GauS's
# formulation B, as docs/benchmarks.md's and-inverter rows; the same run on the CPU beside it.
graph="$folder/shared/benchmarks/epfl-combinational/max.aig"
seconds="${GAUS_CHECK_SECONDS:-30}"
say "gaus.schedule(max.aig, method='gaus', objective='peak_memory', device='cuda' then 'cpu'), $seconds s each"
GAUS_GRAPH="$graph" GAUS_OUT="$out" GAUS_SECONDS="$seconds" "$python" - <<'PYTHON' || fail "the GauS run on CUDA failed"
import json, os, time
import gaus

graph = gaus.Graph(os.environ["GAUS_GRAPH"])
horizon = int(gaus.schedule(graph, method="list").objective)  # the critical path: no resource binds
print(f"check-wheel: graph {graph.name}: {graph.num_ops} ops, {graph.num_edges} edges, D = {horizon}")
for device in ("cuda", "cpu"):
    started = time.perf_counter()
    result = gaus.schedule(graph, method="gaus", kind="latency-bounded", horizon=horizon,
                           objective="peak_memory", time_limit=float(os.environ["GAUS_SECONDS"]),
                           seed=1, device=device)
    seconds = time.perf_counter() - started
    figures = {name: result.figures.get(name) for name in
               ("adam_steps", "seconds_per_step", "batch_used", "first_legal_seconds")}
    print(f"check-wheel: {device}: {result.status} {result.objective_name} {result.objective}"
          f" (bound {result.lower_bound}), verified {result.verified}, {seconds:.1f} s,"
          f" device {result.options.get('device')}, {figures}")
    if device == "cuda":
        with open(os.path.join(os.environ["GAUS_OUT"], "gaus-cuda.json"), "w") as record:
            json.dump(result.to_dict(), record, indent=1)
        if not result.verified or result.options.get("device") != "cuda":
            raise SystemExit("the CUDA run is not verified or did not run on cuda")
PYTHON
say "the package's program: gaus schedule max.aig --method gaus --device cuda (peak memory), 20 s"
"$python" -c 'import gaus, os, sys; os.execv(gaus.cli_path(), [gaus.cli_path()] + sys.argv[1:])' \
  schedule "$graph" --method gaus --device cuda --kind latency-bounded --horizon 288 \
  --objective peak_memory --time-limit 20 --seed 1 --json >"$out/gaus-cuda-cli.json" ||
  fail "the package's program failed on CUDA"
"$python" - "$out/gaus-cuda-cli.json" <<'PYTHON' || fail "the program's CUDA run is not verified"
import json, sys
record = json.load(open(sys.argv[1]))
device = record["options"].get("device")
print(f"check-wheel: CLI: {record['status']} {record['objective']}, verified {record['verified']},"
      f" device {device}")
raise SystemExit(0 if record["verified"] and device == "cuda" else 1)
PYTHON
say "PASSED"
