"""The layer contract (``[tool.importlinter]`` in pyproject.toml) holds, and it catches a
violation; the import graph has no circle and no private name crosses a module.

The contract is checked on the source tree (``smatchpp/`` beside ``pyproject.toml``), also
when the tests run against the installed package; the tests skip without the source tree or
without import-linter.  Every import counts, also one inside a function or under
``TYPE_CHECKING``: the planted ones below are of those kinds.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PYPROJECT = REPO / "pyproject.toml"
SOURCE = REPO / "smatchpp"
SCRIPT = REPO / "experiments" / "import_structure.py"

pytestmark = [
    pytest.mark.skipif(not (PYPROJECT.is_file() and SOURCE.is_dir() and SCRIPT.is_file()),
                       reason="needs the source tree (pyproject.toml, smatchpp/, experiments/)"),
    pytest.mark.skipif(importlib.util.find_spec("importlinter") is None, reason="needs import-linter"),
]

#: lint-imports, run by the Python that runs the tests (it analyzes the package found in its
#: working directory first: lint-imports puts that directory first on sys.path)
LINT = [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
        "sys.argv[0] = 'lint-imports'; lint_imports_command()", "--no-cache", "--no-logo"]


def lint(cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*LINT, str(PYPROJECT)], cwd=cwd, capture_output=True, text=True, timeout=600)


def structure():
    spec = importlib.util.spec_from_file_location("import_structure", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def planted_copy(tmp_path: Path, plants: dict[str, str]) -> Path:
    """A copy of the package with ``plants`` (module file -> code) appended; the folder that
    holds it."""
    shutil.copytree(SOURCE, tmp_path / "smatchpp", ignore=shutil.ignore_patterns("__pycache__"))
    for name, code in plants.items():
        with open(tmp_path / "smatchpp" / name, "a", encoding="utf-8") as f:
            f.write("\n\n" + code)
    return tmp_path


def test_the_source_tree_keeps_the_layer_contract():
    proc = lint(REPO)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "smatchpp layers KEPT" in proc.stdout and "0 broken" in proc.stdout


#: a lower layer importing a higher one, in the ways a module-level scan could miss
UPWARD = {
    "inside a function": ("graphs/read.py", "def _planted():\n    from ..cli import main\n\n    return main\n",
                          "smatchpp.graphs.read -> smatchpp.cli"),
    "under TYPE_CHECKING": ("alignment/score.py", "if TYPE_CHECKING:\n    from ..api import Scorer\n",
                            "smatchpp.alignment.score -> smatchpp.api"),
}


@pytest.mark.parametrize("kind", sorted(UPWARD))
def test_an_upward_import_breaks_the_contract(tmp_path, kind):
    module, code, edge = UPWARD[kind]
    proc = lint(planted_copy(tmp_path, {module: code}))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "smatchpp layers BROKEN" in proc.stdout and edge in proc.stdout


def test_no_circle_no_upward_import_and_no_private_import():
    """The contract ignores no import (it ignored two of ``distributed``'s until Dask ran through
    the executor), and the graph has no circle at all."""
    s = structure()
    edges, private = s.import_graph(SOURCE)
    groups, independent, ignored = s.contract(PYPROJECT)
    broken, unplaced = s.upward(edges, groups, independent)
    assert ignored == set() and broken == [] and unplaced == []
    assert s.circles(edges) == []
    assert private == []


def test_the_import_check_sees_circles_and_private_imports(tmp_path):
    """The check above is not vacuous: a lazy import of the command line from the reader
    makes a circle and breaks the order, and a private name imported lazily is reported."""
    root = planted_copy(tmp_path, {
        "graphs/read.py": "def _planted():\n    from ..cli import main\n\n    return main\n",
        "graphs/pairing.py": "def planted():\n    from .read import _planted\n\n    return _planted\n",
    })
    s = structure()
    edges, private = s.import_graph(root / "smatchpp")
    groups, independent, _ = s.contract(PYPROJECT)
    broken, _ = s.upward(edges, groups, independent)
    assert ("smatchpp.graphs.read", "smatchpp.cli") in broken
    assert any("smatchpp.graphs.read" in c and "smatchpp.cli" in c for c in s.circles(edges))
    assert private == ["smatchpp.graphs.pairing imports smatchpp.graphs.read._planted"]
