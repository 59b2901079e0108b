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
  libz3-dev                                # Z3 4.8, the fallback to the z3-solver wheel (below)
  coinor-libcbc-dev                        # MILPs (src/milp): CBC
  libopenmpi-dev openmpi-bin               # experiment runner scale-out (mpirun gaus run)
  libssl-dev                               # experiment runner: SHA-256 content hashes of graphs
  chromium                                 # browser test: opens the pictures and the report
  libpng-dev                               # browser test: decodes Chromium's screenshots
  time                                     # gaus-bench startup: /usr/bin/time per command
  python3 python3-venv python3-dev         # the Python package: its build and test venvs
  python3-pip                              # HiGHS and Z3 from PyPI (install_wheels below)
)
if [[ "${1:-}" == "--fuzz" ]]; then
  packages+=(clang libclang-rt-14-dev)     # libFuzzer harnesses of tests/fuzz
fi

# Wheels from PyPI that ship a C/C++ library, its headers and its folder (cmake/FindHighs.cmake
# and cmake/FindZ3.cmake ask the same python3 where they are):
# - HiGHS, the other MILP solver of src/milp: Debian 12 has no package; highsbox ships libhighs.
# - Z3, the SMT solver of src/exact: z3-solver ships libz3 5.4 with z3.h and z3++.h, in place of
#   Debian 12's Z3 4.8.12 (the fallback: docs/exact.md, "Z3 version").
wheels=("highsbox>=1.15,<1.16:highsbox" "z3-solver==5.4.1.*:z3")
install_wheels() {
  local entry spec module
  for entry in "${wheels[@]}"; do
    spec="${entry%:*}" module="${entry##*:}"
    # pip leaves a requirement that is already met alone (no download), so this is idempotent.
    # A Debian python3 refuses system-wide pip installs (PEP 668) unless told otherwise.
    python3 -m pip install -q "$spec" 2>/dev/null ||
      python3 -m pip install -q --break-system-packages "$spec"
    echo "setup: $spec in $(python3 -c "import importlib.util, os; print(os.path.dirname(importlib.util.find_spec('$module').origin))")"
  done
}

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} packages present"
  install_wheels
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"
install_wheels
