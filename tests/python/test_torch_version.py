"""The torch check of the wheel built on PyPI's torch (docs/python.md, "Install"): LibTorch's C++
ABI holds within a minor version, so a package built against torch 2.11 refuses at import a torch
of another minor version, naming both."""

import os
import subprocess
import sys

import pytest

import gaus
from gaus._torch_check import minor_version, torch_mismatch, z3_mismatch


def test_minor_version_drops_the_patch_and_the_local_tag():
    assert minor_version("2.11.0+cu130") == "2.11"
    assert minor_version("2.11.0") == "2.11"
    assert minor_version("1.13.1") == "1.13"


def test_same_minor_version_is_accepted():
    # The wheel is built on PyPI's 2.11.0 and runs with the CUDA index's 2.11.0+cu130.
    assert torch_mismatch("2.11.0", "2.11.0+cu130") is None
    assert torch_mismatch("2.11.0", "2.11.1") is None


def test_other_minor_version_is_refused_naming_both():
    message = torch_mismatch("2.11.0", "2.10.1+cpu")
    assert message is not None
    assert "torch 2.11.0" in message and "torch 2.10.1+cpu" in message


def test_import_refuses_another_torch_minor_version(tmp_path):
    built = gaus.built_torch_version()
    if built is None:
        pytest.skip("built on the system's LibTorch: Python's torch is not checked")
    # A stand-in torch of another minor version, first on the path of a new interpreter: the
    # import must fail in the check, before the extension (and its LibTorch) is loaded.
    major, minor = (int(part) for part in minor_version(built).split("."))
    other = f"{major}.{minor - 1 if minor > 0 else minor + 1}.0"
    (tmp_path / "torch").mkdir()
    (tmp_path / "torch" / "__init__.py").write_text(f"__version__ = {other!r}\n")
    finished = subprocess.run(
        [sys.executable, "-c", "import gaus"],
        capture_output=True,
        text=True,
        # First on the path, before wherever gaus is installed (a venv, or PYTHONPATH after
        # pip install --target).
        env={"PYTHONPATH": os.pathsep.join([str(tmp_path)] + sys.path), "PATH": "/usr/bin:/bin"},
    )
    assert finished.returncode != 0
    last_line = finished.stderr.strip().splitlines()[-1]
    assert last_line.startswith("ImportError: gaus was built against torch"), finished.stderr
    assert f"torch {built}" in last_line and f"torch {other}" in last_line


def test_z3_of_the_build_minor_version_is_accepted():
    # libz3.so.4.15 is the file of every z3-solver 4.15.x.
    assert z3_mismatch("4.15.4.0", "4.15.4.0") is None
    assert z3_mismatch("4.15.4.0", "4.15.1.0") is None


def test_other_or_missing_z3_is_named_with_the_install_command():
    # z3-solver 5.4 ships libz3.so.5.4, which the exact engine built on 4.15 does not load.
    message = z3_mismatch("4.15.4.0", "5.4.1.0")
    assert "z3-solver 4.15.4.0" in message and "z3-solver 5.4.1.0" in message
    assert "pip install z3-solver==4.15.4.0" in message
    assert "no z3-solver" in z3_mismatch("4.15.4.0", None)
