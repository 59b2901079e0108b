"""gaus from Python: schedule dependence graphs with the methods of the gaus toolkit.

The package calls the same library as the ``gaus`` command line (docs/python.md): the same
readers, the same method catalog and run path (``runMethod``, whose verifier judges every
schedule), the same pictures and code generation. Errors raise :class:`gaus.Error` with the
message the command line prints.

    >>> import gaus
    >>> graph = gaus.Graph("ewf.json")
    >>> result = gaus.schedule(graph, method="list")
    >>> result.objective, result.starts["a1"]
"""

import os as _os

from ._torch_build import TORCH_VERSION as _BUILT_TORCH_VERSION
from ._torch_build import Z3_SOLVER_VERSION as _BUILT_Z3_SOLVER_VERSION

# Built on PyPI's torch: that torch's libraries are loaded first (as for every PyTorch
# extension), and another minor version than the build's is refused here with both versions
# named, rather than failing inside the loader or, worse, at a call.
if _BUILT_TORCH_VERSION is not None:
    from ._torch_check import require_torch as _require_torch

    _require_torch(_BUILT_TORCH_VERSION)
if _BUILT_Z3_SOLVER_VERSION is not None:
    from ._torch_check import check_z3 as _check_z3

    _check_z3(_BUILT_Z3_SOLVER_VERSION)

from . import _gaus  # noqa: E402
from ._cli import cli_path
from ._experiment import run
from ._graph import Graph, Machine
from ._methods import codegen, methods, render, schedule, twill, verify
from ._result import Result, Verification

Error = _gaus.Error
__version__ = "0.1.0"

# The shipped machines and kernels ("hopper", "fa_fwd_hopper") travel in the wheel; the library
# finds them through $GAUS_CONFIG_DIR, after any folder the user set there (docs/formats.md
# "machine"). The bundled program inherits it.
_configs = _os.path.join(_os.path.dirname(__file__), "configs")
if _os.path.isdir(_configs):
    _folders = [f for f in _os.environ.get("GAUS_CONFIG_DIR", "").split(":") if f]
    if _configs not in _folders:
        _os.environ["GAUS_CONFIG_DIR"] = ":".join(_folders + [_configs])


def version():
    """The library's version as ``gaus --version`` prints it: "gaus 0.1.0 (revision)"."""
    return _gaus.version()


def built_torch_version():
    """The torch version the package was built against (PyPI's torch), or None when it was
    built on the system's LibTorch."""
    return _BUILT_TORCH_VERSION


__all__ = [
    "Error",
    "Graph",
    "Machine",
    "Result",
    "Verification",
    "built_torch_version",
    "cli_path",
    "codegen",
    "methods",
    "render",
    "run",
    "schedule",
    "twill",
    "verify",
    "version",
]
