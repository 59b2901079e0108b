# Shared by scripts/check-libtorch2.sh and scripts/gpu-bundle.sh: installs PyPI's torch wheel into
# a virtual environment and configures a build of gaus against the LibTorch 2.x (with CUDA) it
# carries. Sourced, not run; the caller sets `set -euo pipefail` and defines say() and fail().
# docs/gaus.md, "Building with a CUDA LibTorch", explains every setting below.

# libtorch2_install VENV REQUIREMENT LOG: the wheel into VENV (created when missing), then sets
# torch_version, torch_cuda, torch_prefix (its CMake package), torch_lib (its libraries) and
# nvidia_libs (the folders of the nvidia-* runtime wheels it loads, colon-separated).
libtorch2_install() {
  local venv="$1" requirement="$2" pip_log="$3" torch_facts torch_cxx11_abi
  mkdir -p "$(dirname "$pip_log")"
  if [[ ! -x "$venv/bin/python" ]]; then
    python3 -m venv "$venv" || fail "python3 -m venv $venv failed (Debian: apt-get install python3-venv)"
  fi
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
  torch_facts="$("$venv/bin/python" -W ignore - <<'PYTHON'
import glob, os, torch, torch.utils
site = os.path.dirname(os.path.dirname(torch.__file__))
nvidia = sorted(glob.glob(os.path.join(site, "nvidia", "*", "lib")))
print(torch.__version__)
print(torch.version.cuda or "none")
print(int(torch.compiled_with_cxx11_abi()))
print(torch.utils.cmake_prefix_path)
print(os.path.join(os.path.dirname(torch.__file__), "lib"))
print(":".join(nvidia))
PYTHON
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
      "fmt, spdlog and yaml-cpp use the C++11 ABI; install torch 2.7 or newer"
  fi
}

# libtorch2_configure BUILD_DIR ARCH_LIST LOG: configures BUILD_DIR against the installed wheel
# (after libtorch2_install), and puts the wheel's libraries first on LD_LIBRARY_PATH.
libtorch2_configure() {
  local build_dir="$1" arch_list="$2" configure_log="$3" nvcc toolkit_root
  # find_package(Torch) of a CUDA build enables CMake's CUDA language.
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

  # The wheel's CUDA libraries (nvidia/*/lib) come before the toolkit's in every RPATH and in
  # LD_LIBRARY_PATH: the CMake package links libcudart and libnvrtc from the toolkit found at
  # configure time, whose minor version may differ from the wheel's, and a library of one soname
  # is loaded once, from the first folder that has it. LD_LIBRARY_PATH also covers the test
  # listing that catch_discover_tests runs during the build.
  export LD_LIBRARY_PATH="$nvidia_libs:$torch_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
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
}
