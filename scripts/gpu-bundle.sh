#!/usr/bin/env bash
# Builds gaus against PyPI's torch wheel (LibTorch 2.x with CUDA) and writes a bundle that runs
# on a machine with PyTorch and a GPU and nothing else (no Debian packages):
#
#   scripts/gpu-bundle.sh [TORCH_VERSION]      default 2.11.0 (docs/gaus.md, "On a GPU")
#
# dist/gaus-gpu/
#   bin/          gaus and gaus-bench
#   lib/gaus/     the engine plugins (GauS, exact), found from bin/ by the plugin loader
#   lib/          the libraries they link that are neither the system's C and C++ runtime nor
#                 torch's or CUDA's (yaml-cpp, fmt, MPI, CBC, Z3, ...), copied from this machine
#   run           the entry point: finds torch's libraries through the target's python3
#   torch-version the torch the bundle was built against
# and dist/gaus-gpu.tar.xz, the same folder packed, to copy to the GPU machine. There:
#   tar xf gaus-gpu.tar.xz && gaus-gpu/run gaus schedule GRAPH --method gaus -O device=cuda
#
# Environment: GAUS_TORCH_VENV (a virtual environment to install into or reuse, default
# build/gpu-venv-VERSION), GAUS_TORCH_CUDA_ARCH_LIST (default "9.0;10.0": Hopper and Blackwell),
# GAUS_JOBS (build jobs, default nproc).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="${1:-2.11.0}"
[[ "$version" =~ ^[0-9]+\.[0-9]+(\.[0-9]+)?$ ]] || {
  echo "gpu-bundle: '$version' is not a torch version (expected e.g. 2.11.0)" >&2
  exit 2
}
venv="${GAUS_TORCH_VENV:-$root/build/gpu-venv-$version}"
build_dir="$root/build-gpu"
arch_list="${GAUS_TORCH_CUDA_ARCH_LIST:-9.0;10.0}"
jobs="${GAUS_JOBS:-$(nproc)}"
bundle="$root/dist/gaus-gpu"

say() { echo "gpu-bundle: $*"; }
fail() {
  echo "gpu-bundle: $*" >&2
  exit 1
}

source "$root/scripts/lib/libtorch2.sh"
libtorch2_install "$venv" "torch==$version" "$root/build/gpu-bundle-pip.log"
libtorch2_configure "$build_dir" "$arch_list" "$root/build/gpu-bundle-configure.log"
say "building (-j $jobs): gaus, gaus-bench and the engine plugins"
cmake --build "$build_dir" -j "$jobs" --target gaus gaus-bench gaus-engine-differentiable \
  gaus-engine-exact

rm -rf "$bundle" "$bundle.tar.xz"
mkdir -p "$bundle/bin" "$bundle/lib/gaus"
cp "$build_dir/apps/gaus/gaus" "$build_dir/apps/gaus-bench/gaus-bench" "$bundle/bin/"
cp "$build_dir"/apps/gaus/libgaus-engine-*.so "$bundle/lib/gaus/"
cp "$root/scripts/gpu/run" "$bundle/run"
echo "$torch_version" >"$bundle/torch-version"

# The libraries to carry: every one the binaries and plugins load, less the C and C++ runtime
# (any Linux with a newer glibc and libstdc++ has them; libmvec, glibc's vector math, is part
# of glibc) and less what the target's PyTorch
# brings (everything ldd finds in the wheel's environment). A library ldd cannot find here
# would be missing there too.
runtime='^(linux-vdso|ld-linux[^ ]*|libc|libm|libmvec|libdl|librt|libpthread|libutil|libresolv|libstdc\+\+|libgcc_s)\.so'
for file in "$bundle"/bin/* "$bundle"/lib/gaus/*.so; do
  while read -r name path; do
    [[ "$name" =~ $runtime ]] && continue
    [[ "$path" == "not" ]] && fail "$file needs $name, which ldd cannot find here"
    [[ -z "$path" || "$path" == "$venv"/* ]] && continue
    [[ -e "$bundle/lib/$name" ]] || cp -L "$path" "$bundle/lib/$name"
  done < <(ldd "$file" | awk '/=>/ { print $1, $3 } !/=>/ { print $1, "" }')
done

# The bundle as the GPU machine will run it, with this machine's wheel standing in for its
# PyTorch: the plugins load, and a small schedule verifies on the CPU.
say "checking the bundle with $venv/bin/python"
GAUS_PYTHON="$venv/bin/python" "$bundle/run" gaus --version >/dev/null ||
  fail "$bundle/run gaus --version failed"
methods="$(GAUS_PYTHON="$venv/bin/python" "$bundle/run" gaus methods)"
grep -q '^gaus: ' <<<"$methods" || fail "the bundle's gaus lists no method gaus ($bundle/run gaus methods)"

say "packing $bundle.tar.xz"
tar -C "$root/dist" -cf - gaus-gpu | xz -T0 -6 >"$bundle.tar.xz"
say "$(du -sh "$bundle" | cut -f1) in $bundle ($(du -h "$bundle.tar.xz" | cut -f1) packed)," \
  "torch $torch_version, CUDA architectures $arch_list"
