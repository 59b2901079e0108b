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

from . import _gaus
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


__all__ = [
    "Error",
    "Graph",
    "Machine",
    "Result",
    "Verification",
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
