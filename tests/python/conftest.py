"""What every Python test shares: where the data and the gaus program are, and a way to run the
program as the command line runs it, to hold the package's answers against its."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("GAUS_SHARED_DIR", ROOT.parent / "shared"))


def program():
    """The gaus program of the normal build (ctest passes its path), else the wheel's."""
    configured = os.environ.get("GAUS_PROGRAM")
    if configured:
        return configured
    import gaus

    return gaus.cli_path()


def run_cli(*arguments, check=True):
    """Runs `gaus ARGUMENTS...`; returns the finished process (stdout and stderr as text)."""
    finished = subprocess.run(
        [program(), *map(str, arguments)], capture_output=True, text=True, cwd=ROOT
    )
    if check and finished.returncode != 0:
        raise AssertionError(f"gaus {' '.join(map(str, arguments))}: {finished.stderr}")
    return finished


def cli_json(*arguments):
    """`gaus ... --json`, parsed."""
    return json.loads(run_cli(*arguments, "--json").stdout)


def cli_error(*arguments):
    """The message of `gaus ...` failing: its stderr line without the "gaus: error: " prefix."""
    finished = run_cli(*arguments, check=False)
    assert finished.returncode != 0, f"gaus {arguments} was expected to fail"
    line = finished.stderr.strip().splitlines()[-1]
    assert line.startswith("gaus: error: "), finished.stderr
    return line[len("gaus: error: "):]


@pytest.fixture
def ewf_path():
    path = SHARED / "benchmarks/heurigym-operator-scheduling/small/ewf.json"
    if not path.exists():
        pytest.skip(f"{path}: the shared benchmarks are not here")
    return path
