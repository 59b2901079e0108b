#!/usr/bin/env bash
# Builds gaus against LibTorch 2.x built with CUDA (PyPI's torch wheel) and runs the GauS
# engine's tests on the CPU with it: the unit tests of the fused and the LibTorch kernels
# (ctest -R differentiable) and the command-line tests of method gaus. Opt-in, not part of
# scripts/test.sh or CI: the wheel and the nvidia-* runtime wheels it pulls weigh about 5 GB.
#
#   scripts/check-libtorch2.sh           install torch (once), configure, build, test
#   scripts/check-libtorch2.sh --bench   then time `gaus-bench gaus-step` at 1 and 2 threads,
#                                        with this build and with build/ (Debian's LibTorch)
#
# Environment: GAUS_TORCH_REQUIREMENT (pip requirement, default the version last checked),
# GAUS_TORCH_CUDA_ARCH_LIST (default 9.0), GAUS_JOBS (build and test jobs, default nproc).
# docs/gaus.md, "Building with a CUDA LibTorch", explains every setting below and records the
# versions this last ran with.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/build/libtorch2-venv"
build_dir="$root/build-libtorch2"
requirement="${GAUS_TORCH_REQUIREMENT:-torch==2.15.0}"
arch_list="${GAUS_TORCH_CUDA_ARCH_LIST:-9.0}"
jobs="${GAUS_JOBS:-$(nproc)}"
bench=false
for argument in "$@"; do
  case "$argument" in
    --bench) bench=true ;;
    *) echo "check-libtorch2: unknown argument '$argument' (expected --bench)" >&2; exit 2 ;;
  esac
done

say() { echo "check-libtorch2: $*"; }
fail() {
  echo "check-libtorch2: $*" >&2
  exit 1
}

# --- 1. torch from PyPI, in a virtual environment under build/ (ignored by git) -------------
mkdir -p "$root/build"
if [[ ! -x "$venv/bin/python" ]]; then
  python3 -m venv "$venv" || fail "python3 -m venv $venv failed (Debian: apt-get install python3-venv)"
fi
pip_log="$root/build/libtorch2-pip.log"
say "installing $requirement into $venv (pip's log: $pip_log)"
if ! "$venv/bin/pip" install --progress-bar off "$requirement" >"$pip_log" 2>&1; then
  # An index that does not answer shows as connection warnings while pip retries, then (or,
  # with PIP_RETRIES=0, only) as "from versions: none": PyPI always lists versions of torch.
  if grep -qiE "connection broken|failed to establish|name resolution|network is unreachable|timed out|proxyerror|sslerror|from versions: none" "$pip_log"; then
    fail "cannot reach the package index to install $requirement (no network, or a proxy or" \
      "PIP_INDEX_URL is needed; or the index has no torch wheel for $("$venv/bin/python" -V)" \
      "on $(uname -m)); the last lines of $pip_log:"$'\n'"$(tail -n 3 "$pip_log")"
  fi
  fail "pip could not install $requirement; the last lines of $pip_log:"$'\n'"$(tail -n 5 "$pip_log")"
fi

# What the wheel is: its version, the CUDA it was built with, its C++ ABI and where its CMake
# package, its libraries and the nvidia-* libraries it loads live. (torch warns on import when
# NumPy is missing; gaus does not need NumPy.)
torch_facts="$("$venv/bin/python" -W ignore - <<'EOF'
import glob, os, torch, torch.utils
site = os.path.dirname(os.path.dirname(torch.__file__))
nvidia = sorted(glob.glob(os.path.join(site, "nvidia", "*", "lib")))
print(torch.__version__)
print(torch.version.cuda or "none")
print(int(torch.compiled_with_cxx11_abi()))
print(torch.utils.cmake_prefix_path)
print(os.path.join(os.path.dirname(torch.__file__), "lib"))
print(":".join(nvidia))
EOF
)" || fail "the installed torch cannot be imported ($venv/bin/python -c 'import torch')"
{
  read -r torch_version
  read -r torch_cuda
  read -r torch_cxx11_abi
  read -r torch_prefix
  read -r torch_lib
  read -r nvidia_libs
} <<<"$torch_facts"

# Every library linked with the engine must use one std::string and std::list layout. Debian's
# fmt, spdlog and yaml-cpp, which gaus links, are built with the C++11 ABI; so is the torch
# wheel from 2.7 on (manylinux_2_28). An older wheel cannot be mixed with them.
if [[ "$torch_cxx11_abi" != 1 ]]; then
  fail "torch $torch_version uses the pre-C++11 ABI (_GLIBCXX_USE_CXX11_ABI=0), but Debian's" \
    "fmt, spdlog and yaml-cpp use the C++11 ABI; install torch 2.7 or newer" \
    "(GAUS_TORCH_REQUIREMENT=torch==2.15.0)"
fi

# --- 2. the CUDA toolkit: find_package(Torch) of a CUDA build enables CMake's CUDA language --
nvcc="$(command -v nvcc || true)"
[[ -n "$nvcc" ]] || fail "nvcc is not on the PATH: the CUDA LibTorch's CMake package needs the" \
  "CUDA toolkit (12.6 or newer) to configure, even though gaus compiles no CUDA source"
nvcc="$(readlink -f "$nvcc")"
toolkit_root="$(dirname "$(dirname "$nvcc")")"
nvcc_version="$("$nvcc" --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p')"
say "torch $torch_version (CUDA $torch_cuda, C++11 ABI), nvcc $nvcc_version in $toolkit_root"
if [[ "${torch_cuda%%.*}" != "${nvcc_version%%.*}" ]]; then
  say "note: nvcc $nvcc_version and the wheel's CUDA $torch_cuda differ in major version; gaus" \
    "compiles no CUDA source, and at run time the wheel's own CUDA libraries are loaded"
fi

# --- 3. configure and build in build-libtorch2/ -------------------------------------------------
# The wheel's CUDA libraries (nvidia/*/lib) come before the toolkit's in every RPATH and in
# LD_LIBRARY_PATH: the CMake package links libcudart and libnvrtc from the toolkit found at
# configure time, whose minor version may differ from the wheel's, and a library of one soname
# is loaded once, from the first folder that has it. LD_LIBRARY_PATH also covers the test
# listing that catch_discover_tests runs during the build.
export LD_LIBRARY_PATH="$nvidia_libs:$torch_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
configure_log="$root/build/libtorch2-configure.log"
say "configuring $build_dir (cmake's log: $configure_log)"
# --fresh: a cache left by a configure against another LibTorch would otherwise keep its paths.
# TORCH_LIBRARY and c10_LIBRARY: the package looks for libtorch.so and libc10.so on the system's
# paths before its own folder, and would take Debian's 1.13 from /usr/lib (libtorch-dev).
cmake --fresh -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DGAUS_WERROR=ON \
  -DCMAKE_PREFIX_PATH="$torch_prefix" \
  -DCMAKE_CUDA_COMPILER="$nvcc" -DCUDAToolkit_ROOT="$toolkit_root" \
  -DTORCH_CUDA_ARCH_LIST="$arch_list" -DCAFFE2_USE_CUDNN=OFF \
  -DTORCH_LIBRARY="$torch_lib/libtorch.so" -Dc10_LIBRARY="$torch_lib/libc10.so" \
  -DCMAKE_BUILD_RPATH="$nvidia_libs:$torch_lib" >"$configure_log" 2>&1 ||
  fail "cmake could not configure $build_dir; see $configure_log:"$'\n'"$(grep -A5 'CMake Error' "$configure_log" | head -n 20)"
say "building (-j $jobs): the GauS engine and its plugin, gaus, the tests that use them, gaus-bench"
cmake --build "$build_dir" -j "$jobs" --target differentiable_tests cli_tests gaus gaus-bench

# Debian's libtorch-dev puts LibTorch 1.13 in /usr/lib, on the loader's default path: check that
# what the tests load is the wheel's LibTorch and CUDA runtime.
for binary in "$build_dir/tests/unit/differentiable/differentiable_tests" \
  "$build_dir/apps/gaus/libgaus-engine-differentiable.so"; do
  for library in libtorch_cpu.so libc10.so libcudart.so.13; do
    loaded="$(ldd "$binary" | awk -v name="$library" '$1 == name { print $3 }')"
    [[ "$loaded" == "$venv"/* ]] || fail "$binary loads $library from '${loaded:-nowhere}'," \
      "not from the wheel in $venv (ldd $binary)"
  done
done

# --- 4. the tests, on the CPU -------------------------------------------------------------------
say "testing: differentiable_tests (fused and LibTorch kernels) and cli_tests of method gaus"
ctest --test-dir "$build_dir" --output-on-failure -j "$jobs" -LE 'slow|browser|fuzz' \
  -R '^differentiable_tests:|^cli_tests:.*(method gaus|--device)'

if ! $bench; then
  say "passed with torch $torch_version (CUDA $torch_cuda), nvcc $nvcc_version"
  exit 0
fi

# --- 5. optional: gaus-step, this build beside Debian's LibTorch in build/ ---------------------
# Each setting runs both builds one after the other, so that the two figures of a row share the
# machine's load; the fused kernels at the suite's 300 steps, LibTorch's operators at 100.
debian_bench="$root/build/apps/gaus-bench/gaus-bench"
[[ -x "$debian_bench" ]] || fail "no $debian_bench to compare with: run scripts/build.sh first"
# gaus-bench exits with 1 when a figure misses its target (50 ms per step); the figure counts.
time_per_step() {
  local report figure
  report="$("$1" gaus-step "${@:2}")" || true
  figure="$(awk -F'|' '$2 ~ /^ time per step / { gsub(/ /, "", $3); print $3 }' <<<"$report")"
  [[ -n "$figure" ]] || fail "$1 gaus-step ${*:2} reported no time per step"
  echo "$figure"
}
echo "| kernels | threads | LibTorch $torch_version | Debian's LibTorch | 2.x / Debian | load average |"
echo "|---|---|---|---|---|---|"
for kernels in fused torch; do
  steps=300
  [[ "$kernels" == torch ]] && steps=100
  for threads in 1 2; do
    load="$(cut -d' ' -f1 /proc/loadavg)"
    settings=(--kernels "$kernels" --threads "$threads" --steps "$steps")
    libtorch2_ms="$(time_per_step "$build_dir/apps/gaus-bench/gaus-bench" "${settings[@]}")"
    debian_ms="$(time_per_step "$debian_bench" "${settings[@]}")"
    ratio="$(awk -v a="${libtorch2_ms%ms}" -v b="${debian_ms%ms}" 'BEGIN { printf "%.2f", a / b }')"
    echo "| $kernels | $threads | $libtorch2_ms | $debian_ms | $ratio | $load |"
  done
done
