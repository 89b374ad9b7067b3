"""The import paths of modules that moved into layer folders, kept working.

Until release 0.9 every module sat at the package root (``smatchpp.read``,
``smatchpp.solvers.highs``, ...); now the folders show the layers (``smatchpp.graphs.read``,
``smatchpp.alignment.solvers.highs``).  Code written against the old paths still imports: a
finder on ``sys.meta_path`` answers an old name with the module of its new name, the same object
(so ``monkeypatch.setattr("smatchpp.read.X", ...)`` patches what the package uses).

>>> import importlib
>>> importlib.import_module("smatchpp.solvers.highs") is importlib.import_module("smatchpp.alignment.solvers.highs")
True
>>> new_name("smatchpp.aspects18")
'smatchpp.aspects.smatchpp18'

A leaf module: it imports nothing of smatchpp.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys

#: old name under ``smatchpp.`` -> new name under ``smatchpp.`` (a module or a whole folder)
MOVED = {
    **{m: f"core.{m}" for m in ("exceptions", "version", "text", "bulk", "paths", "plugins", "schedule",
                                "signature", "settings", "tables", "policy", "aspect_settings")},
    "significance": "statistics.significance",
    **{m: f"graphs.{m}" for m in ("read", "triples", "pairing")},
    **{m: f"alignment.{m}" for m in ("problem", "jit", "build_kernels", "matching", "sentences", "compile",
                                     "config", "score", "aligner", "matchers", "compression", "solvers")},
    **{m: f"running.{m}" for m in ("executor", "distributed", "runs")},
    "present": "reporting.present",
    "aspects18": "aspects.smatchpp18",
    "aspects_thesis": "aspects.thesis",
}


def new_name(fullname: str, package: str = "smatchpp") -> str:
    """The current name of a module named by its old path (unchanged when it did not move)."""
    head, _, rest = fullname.partition(".")
    if head != package or not rest:
        return fullname
    first, _, tail = rest.partition(".")
    moved = MOVED.get(first)
    if moved is None:
        return fullname
    return ".".join(p for p in (package, moved, tail) if p)


class MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old module name and loads it as the module of its new name."""

    def __init__(self, package: str) -> None:
        self.package = package

    def find_spec(self, fullname, path=None, target=None):
        target_name = new_name(fullname, self.package)
        if target_name == fullname:
            return None
        return importlib.util.spec_from_loader(fullname, self, origin=target_name)

    def create_module(self, spec):
        module = importlib.import_module(spec.origin)
        spec.loader_state = module.__spec__  # the module's own spec, given back in exec_module
        return module

    def get_code(self, fullname):
        """The new module's code: ``python -m smatchpp.build_kernels`` (an old path) still runs."""
        spec = importlib.util.find_spec(new_name(fullname, self.package))
        return spec.loader.get_code(spec.name)

    def exec_module(self, module):
        # the import system set __spec__ to the alias's spec: give the module its own back
        module.__spec__ = module.__spec__.loader_state


def install(package: str) -> None:
    """Put the finder first on ``sys.meta_path``, once."""
    if not any(isinstance(f, MovedModules) and f.package == package for f in sys.meta_path):
        sys.meta_path.insert(0, MovedModules(package))  # before the path finder: a moved folder's
        # __path__ would otherwise load its modules a second time under the old name
