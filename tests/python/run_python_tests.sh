#!/usr/bin/env bash
# The Python tests (ctest label "python", docs/python.md "Tests"): builds the wheel from this
# checkout, installs it into a test venv and runs the pytest suite beside this script.
#   run_python_tests.sh BUILD_DIR GAUS_PROGRAM [pytest arguments]
# The venv (BUILD_DIR/python-venv) holds the build requirements (scikit-build-core, nanobind) and
# the test requirements (numpy, networkx, pandas, pytest), installed once from PyPI; the wheel is
# built without build isolation from them, in build-wheel/ beside build/ (incremental, and ccache
# finds the objects of the normal build there), with at most GAUS_JOBS (default 2) jobs.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build_dir="$1"
program="$2"
shift 2
venv="$build_dir/python-venv"
requirements=(scikit-build-core nanobind "highsbox>=1.15,<1.16" numpy networkx pandas pytest)

if [[ ! -x "$venv/bin/python" ]]; then python3 -m venv "$venv"; fi
stamp="$venv/gaus-test-requirements.txt"
if [[ "$(cat "$stamp" 2>/dev/null)" != "${requirements[*]}" ]]; then
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${requirements[@]}"
  echo "${requirements[*]}" >"$stamp"
fi

wheels="$build_dir/python-wheel"
rm -rf "$wheels"
started=$(date +%s)
CMAKE_BUILD_PARALLEL_LEVEL="${GAUS_JOBS:-2}" nice -n 10 "$venv/bin/python" -m pip wheel \
  --quiet --disable-pip-version-check --no-build-isolation --no-deps --wheel-dir "$wheels" "$root"
echo "python tests: wheel built in $(($(date +%s) - started)) s"
wheel=("$wheels"/gaus-*.whl)
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall \
  --no-deps "${wheel[0]}"

cd "$root"
GAUS_WHEEL="${wheel[0]}" GAUS_PROGRAM="$program" \
  "$venv/bin/python" -m pytest -q -p no:cacheprovider "$here" "$@"
