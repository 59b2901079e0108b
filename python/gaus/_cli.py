"""The ``gaus`` command line that the wheel carries (gaus/gaus, beside the engine plugins)."""

import os
import sys


def cli_path():
    """The path of the bundled ``gaus`` program."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "gaus")


def main():
    """The console script ``gaus``: runs the bundled program with the same arguments."""
    # Importing the package sets $GAUS_CONFIG_DIR to the shipped machines and kernels.
    import gaus  # noqa: F401

    program = cli_path()
    os.execv(program, [program] + sys.argv[1:])
