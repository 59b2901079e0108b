#!/usr/bin/env bash
# Installs every Debian package gaus needs; skips what is already installed. Safe to re-run.
#   scripts/setup.sh          what the build and the default tests need
#   scripts/setup.sh --fuzz   also clang and its runtime (libFuzzer, sanitizers) for the fuzzing
#                             build (docs/contributing.md, "Fuzzing"); CI installs them too
#                             (scripts/test.sh --ci)
set -euo pipefail

# Why each is here (README "Dependencies" says more):
packages=(
  build-essential cmake ccache pkg-config  # compiler, build system, compile cache
  libfmt-dev libspdlog-dev                 # formatting and logging
  nlohmann-json3-dev libyaml-cpp-dev       # JSON and YAML formats
  libpugixml-dev                           # XML: HatScheT GraphML graphs and resource models
  libcli11-dev                             # command-line parsing
  catch2                                   # unit tests (v2)
  libeigen3-dev                            # dense linear algebra for fused CPU kernels
  libtorch-dev                             # GauS engine (tensors, autograd, Adam)
  libz3-dev                                # exact engine: joint SWP + WS (SMT), Z3 4.8.12
                                           # (PyPI's z3-solver 5.4.1 with -DGAUS_Z3_WHEEL=ON:
                                           # docs/exact.md, "Z3 version")
  coinor-libcbc-dev                        # MILPs (src/milp): CBC
  libopenmpi-dev openmpi-bin               # experiment runner scale-out (mpirun gaus run)
  libssl-dev                               # experiment runner: SHA-256 content hashes of graphs
  chromium                                 # browser test: opens the pictures and the report
  libpng-dev                               # browser test: decodes Chromium's screenshots
  time                                     # gaus-bench startup: /usr/bin/time per command
  python3 python3-venv python3-dev         # the Python package: its build and test venvs
  python3-pip                              # HiGHS from PyPI (install_highs below)
)
if [[ "${1:-}" == "--fuzz" ]]; then
  packages+=(clang libclang-rt-14-dev)     # libFuzzer harnesses of tests/fuzz
fi

# HiGHS, the other MILP solver of src/milp: Debian 12 has no package, PyPI's highsbox wheel ships
# libhighs, its headers and its CMake files (cmake/FindHighs.cmake asks the same python3 where).
highs_wheel="highsbox>=1.15,<1.16"
install_highs() {
  if python3 -c "import highsbox" 2>/dev/null; then
    echo "setup: HiGHS present ($(python3 -c 'import highsbox, os; print(highsbox.highs_dist_dir())'))"
    return
  fi
  echo "setup: installing HiGHS ($highs_wheel) with $(command -v python3) -m pip"
  # A Debian python3 refuses system-wide pip installs (PEP 668) unless told otherwise.
  python3 -m pip install -q "$highs_wheel" ||
    python3 -m pip install -q --break-system-packages "$highs_wheel"
}

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} packages present"
  install_highs
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"
install_highs
