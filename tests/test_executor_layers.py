"""The executor, Dask backend included, sits below everything that gives it work (issue 23,
item 2): ``api`` and ``matrix`` hand the executor their work functions, and the executor
imports nothing of smatchpp; ``distributed`` (connecting, the workers' preload) sits between
``api`` and the executor; so ``api``, ``distributed`` and ``matrix`` form no import circle.
Imports inside functions count too."""

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


def test_the_executor_imports_nothing_of_smatchpp():
    assert _imports("running.executor") == set()


def _top(module: str) -> set[str]:
    return {m.split(".")[0] for m in _imports(module)}


def test_distributed_imports_nothing_that_gives_work():
    assert not _top("running.distributed") & {"api", "matrix", "cli", "explain"}


def test_api_and_matrix_do_not_import_the_command_line_or_each_other_upwards():
    assert not _top("api") & {"matrix", "cli", "explain"}
    assert not _top("matrix") & {"cli", "explain"}
    assert not {"running.distributed", "running"} & (_imports("api") | _imports("matrix"))
