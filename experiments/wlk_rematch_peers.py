"""Set up and run the WLK and REMATCH references as peers, outside the repository.

Each reference is extracted at a pinned commit from a local git mirror (its path from
``--mirror`` or an environment variable) into ``~/.cache/ref-NAME`` and runs in its own
venv ``~/.cache/ref-NAME-venv`` (created on first use with ``pip``), through
``experiments/wlk_rematch_peer_driver.py``.  Used by ``compare_wlk.py``,
``compare_rematch.py`` and ``bench_wlk_rematch.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

HERE = Path(__file__).resolve().parent
DRIVER = HERE / "wlk_rematch_peer_driver.py"
CACHE = Path.home() / ".cache"
sys.path.insert(0, str(HERE))
from metric_peers import BAMBOO as DATA, task_files  # noqa: E402,F401 (re-exported to the compare scripts)
TASKS = tuple(f"{d}/{s}" for d in ("sts", "sick", "para") for s in ("main", "reify", "syno", "role_confusion"))


@dataclass(frozen=True)
class Reference:
    name: str
    repository: str
    commit: str
    env: str  # the environment variable naming the mirror
    packages: tuple[str, ...]

    @property
    def directory(self) -> Path:
        return CACHE / f"ref-{self.name}"

    @property
    def python(self) -> Path:
        return CACHE / f"ref-{self.name}-venv" / "bin" / "python"


WLK_REF = Reference("wlk", "flipz357/weisfeiler-leman-amr-metrics",
                    "51624e2e3742d638db083d8d7f30eedfe7e0e122", "WLK_MIRROR",
                    ("smatchpp==1.5.1", "networkx", "numpy", "scipy"))
REMATCH_REF = Reference("rematch", "osome-iu/Rematch-RARE",
                        "41e1834b7749a08188aec368361bebd51adce299", "REMATCH_MIRROR",
                        ("numpy", "pandas", "networkx"))


def setup(ref: Reference, mirror: str | None) -> None:
    """Extract ``ref`` at its pinned commit and create its venv, unless already done."""
    stamp = ref.directory / ".commit"
    if not (stamp.exists() and stamp.read_text().strip() == ref.commit):
        mirror = mirror or os.environ.get(ref.env)
        if not mirror:
            raise SystemExit(f"give --mirror or set {ref.env} to a git mirror of {ref.repository}")
        archive = subprocess.run(["git", f"--git-dir={mirror}", "archive", ref.commit],
                                 check=True, capture_output=True).stdout
        ref.directory.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(ref.directory)
        stamp.write_text(ref.commit + "\n")
    if not ref.python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(ref.python.parent.parent)], check=True)
        subprocess.run([str(ref.python), "-m", "pip", "install", "-q", *ref.packages], check=True)


def run_reference(ref: Reference, pairs: Sequence[tuple[Path, Path]], option: Sequence[str] = (),
                  hash_seed: int = 0) -> list[dict]:
    """The driver's JSON line for every file pair (``PYTHONHASHSEED=hash_seed``)."""
    argv = [str(ref.python), str(DRIVER), ref.name, str(ref.directory), *option]
    for a, b in pairs:
        argv += [str(a), str(b)]
    env = dict(os.environ, PYTHONHASHSEED=str(hash_seed))
    out = subprocess.run(argv, check=True, capture_output=True, text=True, env=env, cwd=str(CACHE)).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def read_graphs(path: Path) -> list:
    """Our reader's graphs of ``path``; an unreadable graph stops with its file, line and reason."""
    from smatchpp.read import read_file

    graphs = []
    for entry in read_file(path):
        if entry.graph is None:
            raise SystemExit(f"{path}: line {entry.line}: {entry.error}")
        graphs.append(entry.graph)
    return graphs


def tasks_arg(value: str) -> Iterable[str]:
    return TASKS if value == "all" else tuple(t for t in TASKS if t.endswith("/" + value) or t == value)
