#!/usr/bin/env bash
# Builds the Python wheel against PyPI's torch, z3-solver and highsbox (docs/python.md,
# "Install": the PyTorch path) and checks it as a PyTorch user would use it. Opt-in, not part of
# scripts/test.sh or CI: torch and the nvidia-* wheels it pulls weigh about 5 GB.
#
#   scripts/check-pypi-wheel.sh               a fresh venv, torch, build, install, test
#   scripts/check-pypi-wheel.sh --reuse-venv  keep the venv of the last run (torch installed)
#
# 1. a fresh venv (build/wheel-venv) with torch, z3-solver, highsbox and the build and test
#    requirements from PyPI (pip's cache: build/pip-cache, so a second fresh venv downloads
#    nothing);
# 2. `pip wheel --no-build-isolation` in it (build-wheel-pypi/), as docs/python.md's second
#    command does, and `pip install` of the wheel;
# 3. the Python tests (tests/python) on the CPU, with the wheel's own program as the command
#    line: among them a networkx graph scheduled by list, ilp and gaus with the CLI's answers,
#    and a torch of another minor version refused at import;
# 4. ldd of the package's libraries and program: LibTorch, libz3 and libhighs come from the
#    venv's wheels, no Debian LibTorch, Z3 or CBC is loaded, and the rest is the C and C++
#    runtime or the libraries the wheel carries in gaus/lib.
#
# Environment: GAUS_WHEEL_PYTHON (the interpreter of the venv, default python3; the GPU check
# needs a cp312 wheel: /root/.pyenv/versions/3.12.1/bin/python3.12), GAUS_TORCH_REQUIREMENT
# (default torch==2.11.0), GAUS_JOBS (build jobs, default 1). The wheel is left in
# build/pypi-wheel/dist/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="${GAUS_WHEEL_PYTHON:-python3}"
torch_requirement="${GAUS_TORCH_REQUIREMENT:-torch==2.11.0}"
jobs="${GAUS_JOBS:-1}"
venv="$root/build/wheel-venv"
work="$root/build/pypi-wheel"
export PIP_CACHE_DIR="${PIP_CACHE_DIR:-$root/build/pip-cache}"
# The solvers' versions: highsbox as pyproject.toml pins it, z3-solver the one last checked.
requirements=("$torch_requirement" "z3-solver==4.15.4.0" "highsbox>=1.15,<1.16"
  scikit-build-core nanobind numpy networkx pandas pytest)
reuse=false
for argument in "$@"; do
  case "$argument" in
    --reuse-venv) reuse=true ;;
    *) echo "check-pypi-wheel: unknown argument '$argument' (expected --reuse-venv)" >&2; exit 2 ;;
  esac
done

say() { echo "check-pypi-wheel: $*"; }
fail() {
  echo "check-pypi-wheel: FAILED: $*" >&2
  exit 1
}

# --- 1. the venv --------------------------------------------------------------------------------
mkdir -p "$work"
if ! $reuse || [[ ! -x "$venv/bin/python" ]]; then
  rm -rf "$venv"
  "$python" -m venv "$venv" || fail "$python -m venv $venv failed"
fi
say "installing ${requirements[*]} into $venv (pip's log: $work/pip.log)"
"$venv/bin/python" -m pip install --progress-bar off "${requirements[@]}" >"$work/pip.log" 2>&1 ||
  fail "pip install failed; the last lines of $work/pip.log:"$'\n'"$(tail -n 5 "$work/pip.log")"
torch_version="$("$venv/bin/python" -W ignore -c 'import torch; print(torch.__version__)')"
site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')"

# --- 2. the wheel ---------------------------------------------------------------------------------
say "building the wheel against torch $torch_version (-j $jobs; log: $work/build.log)"
rm -rf "$work/dist"
started=$(date +%s)
CMAKE_BUILD_PARALLEL_LEVEL="$jobs" "$venv/bin/python" -m pip wheel -v --no-build-isolation \
  --no-deps -w "$work/dist" -C build-dir=build-wheel-pypi "$root" >"$work/build.log" 2>&1 ||
  fail "the wheel did not build; see $work/build.log:"$'\n'"$(grep -m 5 -E 'error|Error' "$work/build.log")"
wheel=("$work"/dist/gaus-*.whl)
say "built $(basename "${wheel[0]}") ($(du -h "${wheel[0]}" | cut -f1)) in $(($(date +%s) - started)) s"
"$venv/bin/python" -m pip install --quiet --force-reinstall --no-deps "${wheel[0]}" ||
  fail "pip install ${wheel[0]} failed"
built="$("$venv/bin/python" -c 'import gaus; print(gaus.built_torch_version())')"
[[ "$built" == "$torch_version" ]] ||
  fail "the package says it was built against torch '$built', not the venv's $torch_version"

# --- 3. the Python tests, on the CPU --------------------------------------------------------------
say "running tests/python with the wheel's program"
(cd "$root" && GAUS_WHEEL="${wheel[0]}" CUDA_VISIBLE_DEVICES="" \
  "$venv/bin/python" -m pytest -q -p no:cacheprovider tests/python) ||
  fail "the Python tests failed"

# The done-when call, printed: the networkx graph of tests/python/test_agreement.py by list, ilp
# and gaus, beside `gaus schedule` of the same graph by the package's program.
(cd "$root/tests/python" && "$venv/bin/python" - <<'PYTHON'
import json, subprocess, tempfile
import gaus
from test_agreement import diamond

with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as native:
    json.dump(gaus.Graph(diamond()).to_dict(), native)
for method, options in (("list", {}), ("ilp", {}), ("gaus", {"seed": 1, "threads": 1})):
    result = gaus.schedule(diamond(), method=method, time_limit=20, **options)
    flags = [f for name, value in options.items() for f in ("-O", f"{name}={value}")]
    cli = json.loads(subprocess.run(
        [gaus.cli_path(), "schedule", native.name, "--method", method, "--time-limit", "20",
         *flags, "--json"], check=True, capture_output=True, text=True).stdout)
    same = result.starts == cli["schedule"]["start"] and result.objective == cli["objective"]["value"]
    print(f"check-pypi-wheel: {method}: Python {result.status} {result.objective}, "
          f"CLI {cli['status']} {cli['objective']['value']}, same starts: {same}")
    if not same:
        raise SystemExit(f"{method}: the package and the command line disagree")
PYTHON
) || fail "the package and its command line disagree on the networkx graph"

# --- 4. what the installed libraries load ----------------------------------------------------------
package="$site/gaus"
runtime='^(linux-vdso|ld-linux[^ ]*|libc|libm|libdl|librt|libpthread|libutil|libresolv|libstdc\+\+|libgcc_s|libz|libcrypto)\.so'
say "ldd of the installed package ($package):"
for file in "$package"/_gaus*.so "$package"/gaus "$package"/libgaus-engine-*.so; do
  listing="$(ldd "$file")"
  while read -r name path; do
    [[ "$name" =~ $runtime ]] && continue
    [[ "$path" == "not" ]] && fail "$file needs $name, which is not found"
    case "$name" in
      libtorch*|libc10*|libz3*|libhighs*)
        [[ "$path" == "$site"/* ]] || fail "$file loads $name from $path, not from the venv's wheels" ;;
      libCbc*|libClp*|libCoinUtils*|libOsi*|libCgl*)
        fail "$file loads CBC's $name ($path)" ;;
      *)
        [[ "$path" == "$package/lib/"* || "$path" == "$site"/* ]] ||
          fail "$file loads $name from $path, neither carried in gaus/lib nor from a wheel" ;;
    esac
  done < <(awk '/=>/ { print $1, $3 }' <<<"$listing")
  echo "  $(basename "$file"):"
  awk '/=>/ && $1 !~ /^(libc|libm|libstdc\+\+|libgcc_s|libdl|libpthread|librt)\.so/ { print "    " $1 " => " $3 }' <<<"$listing" |
    sed "s|$site/|<site-packages>/|" | grep -E 'torch|c10|z3|highs|gaus/lib' | sort -u || true
done
say "carried in gaus/lib: $(cd "$package/lib" 2>/dev/null && ls | paste -sd' ' - || echo nothing)"
say "passed: wheel $(basename "${wheel[0]}") on torch $torch_version from PyPI, Z3 and HiGHS from" \
  "their wheels, no Debian LibTorch, Z3 or CBC loaded"
