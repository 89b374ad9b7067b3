"""What the experiment scripts share: where the data is, BAMBOO's tasks, the usual arguments
and the printed table.

Stdlib only; a script imports it after putting ``experiments/`` on ``sys.path``::

    from experiment import BAMBOO, add_data, add_json, markdown_table, task_files

The shared data sits beside the repository (``../shared/data``); ``$SMATCHPP_SHARED`` names
another ``shared`` folder (e.g. from a git worktree).  The argument helpers add an option with
the name, type, default and help text the scripts already used, so a script's ``--help`` does
not change when it moves onto them.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
from pathlib import Path
from typing import Iterable, Optional, Sequence

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = Path(os.environ.get("SMATCHPP_SHARED", ROOT.parent / "shared"))
DATA = SHARED / "data"
BAMBOO = DATA / "bamboo"
PARSEVAL = DATA / "parseval-lp"
LITTLE_PRINCE = DATA / "little-prince" / "amr-bank-struct-v3.0.txt"
CACHE = Path.home() / ".cache"

DATASETS = ("sts", "sick", "para")
SUBSETS = ("main", "reify", "syno", "role_confusion")
#: BAMBOO's 12 test tasks, subset by subset (sts/main, sick/main, para/main, sts/reify, ...)
TASKS = tuple(f"{d}/{s}" for s in SUBSETS for d in DATASETS)
#: the same tasks, dataset by dataset (sts/main, sts/reify, ...)
TASKS_BY_DATASET = tuple(f"{d}/{s}" for d in DATASETS for s in SUBSETS)


def task_files(task: str, data: Path = BAMBOO) -> tuple[Path, Path]:
    """``(src, tgt)`` test files of a BAMBOO task (``"sts/main"``).

    >>> [p.name for p in task_files("sts/main", Path("/d"))]
    ['src.test.amr', 'tgt.test.amr']
    """
    return data / task / "src.test.amr", data / task / "tgt.test.amr"


def tasks_arg(value: str, tasks: Sequence[str] = TASKS_BY_DATASET) -> Iterable[str]:
    """``--tasks`` as a string: ``all``, a subset (``main``) or one task (``sts/main``).

    >>> tasks_arg("main")
    ('sts/main', 'sick/main', 'para/main')
    """
    return tuple(tasks) if value == "all" else tuple(t for t in tasks if t.endswith("/" + value) or t == value)


def read_graphs(path: Path) -> list:
    """Our reader's graphs of ``path``; an unreadable graph stops with its file, line and reason."""
    from smatchpp.graphs.read import read_file

    graphs = []
    for entry in read_file(path):
        if entry.graph is None:
            raise SystemExit(f"{path}: line {entry.line}: {entry.error}")
        graphs.append(entry.graph)
    return graphs


def add_data(parser: argparse.ArgumentParser, default: Path = BAMBOO, help: Optional[str] = None) -> None:
    """``--data FOLDER`` (a Path)."""
    parser.add_argument("--data", type=Path, default=default, help=help)


def add_json(parser: argparse.ArgumentParser, help: Optional[str] = None) -> None:
    """``--json FILE``: where a script writes every number it printed."""
    parser.add_argument("--json", type=Path, default=None, help=help)


def add_workers(parser: argparse.ArgumentParser, default: Optional[int] = 1, help: Optional[str] = None) -> None:
    """``--workers N`` for our side."""
    parser.add_argument("--workers", type=int, default=default, help=help)


def add_repeats(parser: argparse.ArgumentParser, default: int = 3, help: Optional[str] = None,
                flag: str = "--repeats") -> None:
    """``--repeats N``: a timing is the median (or best) of N runs."""
    parser.add_argument(flag, type=int, default=default, help=help)


def add_mirror(parser: argparse.ArgumentParser, help: Optional[str] = None) -> None:
    """``--mirror GITDIR``: a bare clone of a reference's repository (else its environment variable)."""
    parser.add_argument("--mirror", default=None, help=help)


def need(path: Path, what: str = "shared data") -> Path:
    """``path``, or stop with where it was looked for."""
    if not path.exists():
        raise SystemExit(f"{what} not found at {path}")
    return path


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A GitHub markdown table, cells as given (format numbers before).

    >>> print(markdown_table(["a", "b"], [[1, "x"]]))
    | a | b |
    |---|---|
    | 1 | x |
    """
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def machine_line() -> str:
    """The machine and its load when a timing was taken, for the line under a table."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
            f"load {load:.1f}")


def print_results(header: Sequence[str], table: Iterable[Sequence[object]], rows: object,
                  json_path: Optional[str] = None) -> None:
    """The end of a comparison: its table, the machine line under it, and ``rows`` as JSON in
    ``json_path`` when given (``--json``)."""
    print(markdown_table(header, table))
    print(machine_line())
    if json_path:
        Path(json_path).write_text(json.dumps(rows, indent=1) + "\n")
