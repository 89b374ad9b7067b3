"""Build this machine's compiled kernels now, in the foreground (:mod:`smatchpp.alignment.jit`).

``python3 -m smatchpp.alignment.build_kernels`` prints the module's path, or says that
numba's JIT will be used (with the reason); for an image or a cluster, before
the first run.  Without it the first run builds them in the background.
"""

from __future__ import annotations

import sys

from .jit import kernel_module, module_path

__all__ = ["main"]


def main() -> int:
    if kernel_module() is not None:
        print(module_path())
        return 0
    print("smatchpp: the compiled kernels could not be built; numba's JIT will be used",
          file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
