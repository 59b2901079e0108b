#!/usr/bin/env bash
# Writes the folder that scripts/gpu/check-wheel.sh checks on a GPU machine with PyTorch and no
# network (docs/python.md, "On a GPU"):
#
#   scripts/gpu-wheel.sh [FOLDER]       default gpu-wheel/ in the repository root (git ignores it
#                                       through .git/info/exclude)
#
# FOLDER/  gaus-*.whl        the wheel scripts/check-pypi-wheel.sh built (build/pypi-wheel/dist/),
#                            on PyPI's torch, for the Python it was built with
#          z3_solver-*.whl, highsbox-*.whl   its solvers from PyPI, for that Python and manylinux
#          shared/benchmarks/...   the benchmark files the Python tests and the check read
# The wheel does not carry torch (the machine's is used), so the folder stays far below the
# 64 MiB a device run carries. There: scripts/gpu/check-wheel.sh FOLDER
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
folder="${1:-$root/gpu-wheel}"
shared="${GAUS_SHARED_DIR:-$root/../shared}"
say() { echo "gpu-wheel: $*"; }
fail() {
  echo "gpu-wheel: $*" >&2
  exit 1
}

wheels=("$root"/build/pypi-wheel/dist/gaus-*.whl)
[[ -e "${wheels[0]}" ]] || fail "no wheel in build/pypi-wheel/dist: run scripts/check-pypi-wheel.sh first"
wheel="${wheels[0]}"
# cp312 from gaus-0.1.0-cp312-cp312-linux_x86_64.whl: the solvers' wheels for the same Python.
tag="$(basename "$wheel" | cut -d- -f3)"
python_version="${tag#cp}"
python_version="${python_version:0:1}.${python_version:1}"

rm -rf "$folder"
mkdir -p "$folder"
cp "$wheel" "$folder/"
say "downloading z3-solver and highsbox for CPython $python_version (manylinux x86_64)"
python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version "$python_version" \
  --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
  --platform manylinux2014_x86_64 -d "$folder" "z3-solver==4.15.4.0" "highsbox>=1.15,<1.16" ||
  fail "pip download of z3-solver and highsbox failed"
for file in heurigym-operator-scheduling/small/ewf.json triton-ddg/case1_simple_gemm.ddg.json \
  epfl-combinational/max.aig epfl-combinational/LICENSE.txt; do
  mkdir -p "$(dirname "$folder/shared/benchmarks/$file")"
  cp "$shared/benchmarks/$file" "$folder/shared/benchmarks/$file" ||
    fail "no $shared/benchmarks/$file (set GAUS_SHARED_DIR)"
done

# Ignored by git in every worktree of this clone (info/exclude lives in the common git folder).
exclude="$(git -C "$root" rev-parse --git-common-dir)/info/exclude"
relative="$(realpath --relative-to="$root" "$folder" 2>/dev/null || echo "$folder")"
if [[ "$relative" != /* && "$relative" != ..* ]] && ! grep -qx "/$relative/" "$exclude" 2>/dev/null; then
  mkdir -p "$(dirname "$exclude")"
  echo "/$relative/" >>"$exclude"
fi

size_kib="$(du -sk "$folder" | cut -f1)"
((size_kib <= 60 * 1024)) || fail "$folder holds $((size_kib / 1024)) MiB, above the 60 MiB a device run may carry"
say "$folder: $(cd "$folder" && ls -- *.whl | paste -sd' ' -) and $(find "$folder/shared" -type f | wc -l)" \
  "benchmark files, $((size_kib / 1024)) MiB; there: scripts/gpu/check-wheel.sh FOLDER"
