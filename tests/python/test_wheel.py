"""The wheel installs into a fresh venv and works there with nothing else from the build: the
package's commands of docs/python.md, the bundled gaus program, the engine plugins beside them."""

import importlib.metadata
import importlib.util
import os
import subprocess
import sys
import venv

import pytest

import gaus
from conftest import ROOT, SHARED


@pytest.fixture(scope="module")
def fresh_python(tmp_path_factory):
    wheel = os.environ.get("GAUS_WHEEL")
    if not wheel:
        pytest.skip("GAUS_WHEEL is not set (run_python_tests.sh sets it)")
    folder = tmp_path_factory.mktemp("fresh-venv")
    venv.EnvBuilder(with_pip=True).create(folder)
    python = str(folder / "bin" / "python")
    built_torch = gaus.built_torch_version()
    if built_torch is not None:
        # A wheel built on PyPI's torch needs that torch, a multi-GB install: the fresh venv sees
        # this interpreter's site-packages through a .pth file instead, so torch lives outside
        # the package's own site-packages (as in a venv with --system-site-packages), which is
        # also the case the package's $LD_LIBRARY_PATH for its program is for.
        torch_site = os.path.dirname(os.path.dirname(importlib.util.find_spec("torch").origin))
        site = subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()
        with open(os.path.join(site, "torch-site.pth"), "w") as pth:
            pth.write(torch_site + "\n")
    # networkx for the done-when call with a networkx graph; numpy comes as the wheel's
    # dependency; z3-solver, the Z3 of a wheel built on PyPI's torch, is installed beside it at
    # the release the wheel was built against, as docs/python.md's two commands do
    # (--force-reinstall: not the torch venv's copies).
    extra = []
    if built_torch is not None:
        extra = ["--force-reinstall", f"z3-solver=={importlib.metadata.version('z3-solver')}"]
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *extra, wheel,
         "networkx"],
        check=True,
    )
    return folder


def run_python(folder, code):
    finished = subprocess.run(
        [str(folder / "bin" / "python"), "-c", code], capture_output=True, text=True, cwd=ROOT
    )
    assert finished.returncode == 0, finished.stderr
    return finished.stdout.strip()


def test_done_when_ewf_ilp_prints_21(fresh_python):
    # Run from the repository root as docs/python.md shows it; 21 is ewf's ilp optimum.
    ewf = os.path.relpath(SHARED / "benchmarks/heurigym-operator-scheduling/small/ewf.json", ROOT)
    code = f"import gaus; print(gaus.schedule(gaus.Graph({ewf!r}), method='ilp').objective)"
    assert run_python(fresh_python, code) == "21"


def test_done_when_networkx_graph(fresh_python):
    # A chain a -> b -> c of latency-1 ops on no resources: c starts at 2, latency 3.
    code = (
        "import gaus, networkx\n"
        "g = networkx.DiGraph([('a', 'b'), ('b', 'c')])\n"
        "networkx.set_node_attributes(g, 1, 'latency')\n"
        "r = gaus.schedule(gaus.Graph(g), method='ilp')\n"
        "print(r.objective, r.starts['c'])"
    )
    assert run_python(fresh_python, code) == "3 2"


def test_bundled_program_and_plugins(fresh_python):
    # The console script runs the bundled program, which loads the plugins beside it: gaus
    # methods lists the exact engine's methods as available.
    finished = subprocess.run(
        [str(fresh_python / "bin" / "gaus"), "methods"], capture_output=True, text=True
    )
    assert finished.returncode == 0, finished.stderr
    assert "ilp:" in finished.stdout and "unavailable" not in finished.stdout
    # The shipped machines travel too: "hopper" is found by name outside the source tree.
    code = "import gaus; print(gaus.Machine('hopper').name)"
    assert run_python(fresh_python, code) == "hopper"
