"""The executor and its Dask backend sit below everything that gives them work (issue 23,
item 2): ``api`` and ``matrix`` hand the executor their work functions; the executor and
the Dask backend import nothing above them, so ``api``, ``distributed`` and ``matrix`` form
no import circle.  Imports inside functions count too."""

from __future__ import annotations

import ast
from pathlib import Path

import smatchpp

PACKAGE = Path(smatchpp.__file__).resolve().parent


def _imports(module: str) -> set[str]:
    """The ``smatchpp`` modules that ``module`` (e.g. ``api``) imports anywhere in its source."""
    path = PACKAGE / (module.replace(".", "/") + ".py")
    package = module.rsplit(".", 1)[0] if "." in module else ""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = ["smatchpp"] + (package.split(".") if package else [])
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            names = [f"{base}.{a.name}" for a in node.names] + [base]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        found.update(n.removeprefix("smatchpp.") for n in names if n.startswith("smatchpp."))
    return found


def test_the_dask_backend_imports_nothing_of_smatchpp():
    assert _imports("dask_backend") == set()


def test_the_executor_imports_only_its_dask_backend():
    assert _imports("executor") <= {"dask_backend", "dask_backend.stream_dask"}


def test_api_and_matrix_do_not_import_the_dask_front_or_each_other_upwards():
    above_api = {"distributed", "matrix", "cli", "explain"}
    assert not {m.split(".")[0] for m in _imports("api")} & above_api
    assert "distributed" not in {m.split(".")[0] for m in _imports("matrix")}
