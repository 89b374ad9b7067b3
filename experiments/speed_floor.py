"""The floor under the speed benchmarks (``bench_sembleu_sema.py``, ``bench_wlk_rematch.py``).

Three processes that do less than any scorer written in Python can, on the same two files:

* ``python3 -c pass``: the interpreter's start-up;
* ``python3 -c "import numpy"``: start-up and numpy, which every metric's scores use;
* the cheapest Python pass over the two files: read the bytes, split them into blocks at
  blank lines, and one ``re.findall`` of PENMAN's tokens per file (:data:`FLOOR_SCRIPT`) — a
  lower bound for any reader in Python, which must at least see every token once.

:func:`bytecode_env` makes every timed process (ours, the references', the floor's) use
cached byte code, as an installed package does, without writing into the repository: with
``PYTHONDONTWRITEBYTECODE`` set and no ``.pyc`` files, each process would compile every module
it imports again.  The benchmarks run each command once untimed first, to fill that cache.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Sequence

__all__ = ["FLOOR_SCRIPT", "floor_commands", "bytecode_env"]

FLOOR_SCRIPT = r'''
import re, sys
token = re.compile(r'"[^"\n]*"|[()/]|:[^\s()"/]*|[^\s()"/:]+')
for path in sys.argv[1:]:
    with open(path, "rb") as handle:
        text = handle.read().decode("utf-8")
    blocks = text.split("\n\n")
    tokens = token.findall(text)
'''


def floor_commands(files: Sequence[Path | str]) -> dict[str, list[str]]:
    """Row name -> command of the three floor processes on ``files``."""
    return {
        "floor: python3 -c pass": [sys.executable, "-c", "pass"],
        "floor: python3 -c 'import numpy'": [sys.executable, "-c", "import numpy"],
        "floor: read, split into blocks, one findall of tokens per file":
            [sys.executable, "-c", FLOOR_SCRIPT, *map(str, files)],
    }


def bytecode_env(cache: Path | str) -> dict[str, str]:
    """The environment of a timed process: byte code cached under ``cache`` (outside the
    repository), written on the first, untimed, run."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env
