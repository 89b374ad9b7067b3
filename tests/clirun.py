"""Running the command line in a fresh process, as a user's shell does.

The child imports the same ``smatchpp`` as the tests (the source tree during
development, the installed package under ``.ci/run``): its folder goes first on
``PYTHONPATH`` and the child runs in a scratch folder, so that no ``smatchpp``
folder in the working directory can shadow it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import smatchpp

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PRED, GOLD = EXAMPLES / "pred.amr", EXAMPLES / "gold.amr"
#: the folder that holds the ``smatchpp`` package the tests import
PACKAGE_ROOT = Path(smatchpp.__file__).resolve().parents[1]


def child_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(PACKAGE_ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.update(extra)
    return env


def smatchpp_argv(*args: object) -> list[str]:
    return [sys.executable, "-m", "smatchpp", *map(str, args)]


def run(*args: object, cwd: Path, timeout: float = 600, **kwargs) -> subprocess.CompletedProcess:
    """``smatchpp ARGS`` in a fresh process; never raises on a non-zero exit code."""
    if "stdout" not in kwargs and "stderr" not in kwargs:
        kwargs["capture_output"] = True
    return subprocess.run(smatchpp_argv(*args), cwd=cwd, env=child_env(), text=True,
                          timeout=timeout, **kwargs)


def run_python(code: str, *args: object, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    """``python -c CODE ARGS`` in a fresh process (to patch something, then call ``cli.main``)."""
    return subprocess.run([sys.executable, "-c", code, *map(str, args)], cwd=cwd, env=child_env(),
                          capture_output=True, text=True, timeout=timeout)
