"""The torch and Z3 checks of the wheel built on PyPI's torch (docs/python.md, "Install").

Such a package links LibTorch from the torch package beside it, whose C++ ABI holds within one
minor version only: a gaus built against torch 2.11 must not load torch 2.10's libraries. The GPU
bundle's run wrapper (scripts/gpu/run) applies the same rule to the command line. Its exact
engine links libz3 from the z3-solver package beside it, by a file name that carries Z3's minor
version (libz3.so.4.15).
"""

import importlib.metadata
import os
import warnings


def minor_version(version):
    """'2.11.0+cu130' -> '2.11': the part of a torch version that fixes its C++ ABI."""
    return ".".join(version.split("+", 1)[0].split(".")[:2])


def torch_mismatch(built, found):
    """The message refusing torch `found` for a package built against torch `built`, or None
    when the two share a minor version."""
    if minor_version(built) == minor_version(found):
        return None
    return (
        f"gaus was built against torch {built}, but this Python has torch {found}: install "
        f"torch {minor_version(built)}.x, or rebuild gaus against torch {found} "
        "(pip install --no-build-isolation --force-reinstall .)"
    )


def require_torch(built):
    """Imports torch (which loads the LibTorch libraries the extension links) and raises
    ImportError when its minor version is not the one gaus was built against. Then puts torch's
    lib/ first on $LD_LIBRARY_PATH for the bundled program and the runs `gaus.run` starts: their
    RUNPATH finds torch beside the package ($ORIGIN/../torch/lib), but torch may live in another
    site-packages (a venv with --system-site-packages, pip install --target)."""
    try:
        import torch
    except ImportError as error:
        raise ImportError(
            f"gaus was built against torch {built}, which this Python cannot import ({error}): "
            f"pip install torch=={built.split('+', 1)[0]}"
        ) from error
    message = torch_mismatch(built, torch.__version__)
    if message is not None:
        raise ImportError(message)
    torch_lib = os.path.join(os.path.dirname(torch.__file__), "lib")
    folders = [f for f in os.environ.get("LD_LIBRARY_PATH", "").split(":") if f]
    if torch_lib not in folders:
        os.environ["LD_LIBRARY_PATH"] = ":".join([torch_lib] + folders)


def z3_mismatch(built, found):
    """The warning for z3-solver `found` (None: not installed) in a package whose exact engine
    links the libz3 of z3-solver `built`, or None when the two share a minor version."""
    if found is not None and minor_version(built) == minor_version(found):
        return None
    have = f"this Python has z3-solver {found}" if found else "this Python has no z3-solver"
    return (
        f"gaus was built against z3-solver {built}, but {have}: the exact methods (ilp, twill) "
        f"cannot load until you pip install z3-solver=={built}; the others work"
    )


def check_z3(built):
    """Warns (the heuristics and GauS still run) when the installed z3-solver is not of the
    minor version gaus's exact engine was built against, which would make loading it fail."""
    try:
        found = importlib.metadata.version("z3-solver")
    except importlib.metadata.PackageNotFoundError:
        found = None
    message = z3_mismatch(built, found)
    if message is not None:
        warnings.warn(message, RuntimeWarning, stacklevel=3)
