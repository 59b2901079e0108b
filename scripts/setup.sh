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
  libz3-dev                                # exact engine: joint SWP + WS (SMT)
  coinor-libcbc-dev                        # exact engine: MILPs (CBC)
  libopenmpi-dev openmpi-bin               # experiment runner scale-out (mpirun gaus run)
  libssl-dev                               # experiment runner: SHA-256 content hashes of graphs
  chromium                                 # browser test: opens the pictures and the report
  libpng-dev                               # browser test: decodes Chromium's screenshots
  time                                     # gaus-bench startup: /usr/bin/time per command
  python3 python3-venv python3-dev         # the Python package: its build and test venvs
)
if [[ "${1:-}" == "--fuzz" ]]; then
  packages+=(clang libclang-rt-14-dev)     # libFuzzer harnesses of tests/fuzz
fi

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"
