"""Shared by ``compare_sembleu.py``, ``compare_sema.py`` and ``bench_sembleu_sema.py``:
a reference checkout at a pinned commit (outside the repository), BAMBOO's 12
test tasks, our per-pair scores through the metric interface, and the
pair-by-pair report.

A reference is taken from a git mirror (``--mirror`` or an environment
variable) with ``git --git-dir=MIRROR archive COMMIT``, into
``~/.cache/ref-NAME-COMMIT``; it runs there with this interpreter (both
references need only the standard library) through
``experiments/sembleu_sema_peer_driver.py``.
"""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tarfile
import io
from pathlib import Path
from typing import Sequence

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from smatchpp.metrics import Metric  # noqa: E402
from smatchpp.read import read_file  # noqa: E402

BAMBOO = HERE.parent.parent / "shared" / "data" / "bamboo"
DATASETS = ("sts", "sick", "para")
SUBSETS = ("main", "reify", "syno", "role_confusion")
TASKS = tuple(f"{d}/{s}" for s in SUBSETS for d in DATASETS)
DRIVER = HERE / "sembleu_sema_peer_driver.py"
CACHE = Path.home() / ".cache"


def mirror_path(given: str | None, env: str) -> Path:
    """The git directory of a reference's mirror, from ``--mirror`` or ``$env``."""
    path = given or os.environ.get(env)
    if not path:
        raise SystemExit(f"give the reference's git mirror with --mirror or ${env} "
                         "(a bare clone of the reference's GitHub repository)")
    return Path(path)


def checkout(mirror: Path, commit: str, name: str) -> Path:
    """The reference at ``commit``, extracted once into ``~/.cache/ref-NAME-COMMIT``."""
    dest = CACHE / f"ref-{name}-{commit}"
    if not (dest / ".complete").is_file():
        dest.mkdir(parents=True, exist_ok=True)
        data = subprocess.run(["git", f"--git-dir={mirror}", "archive", commit],
                              check=True, capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.extractall(dest)
        (dest / ".complete").write_text(commit + "\n")
    return dest


def task_files(task: str, data: Path = BAMBOO) -> tuple[Path, Path]:
    """``(src, tgt)`` test files of a BAMBOO task (``"sts/main"``)."""
    return data / task / "src.test.amr", data / task / "tgt.test.amr"


def run_reference(metric: str, ref: Path, pairs: Sequence[tuple[Path, Path]], ks: str = "3") -> dict:
    """The driver's JSON for ``pairs`` of files (first = hypothesis/test)."""
    cmd = [sys.executable, str(DRIVER), metric, "--ref", str(ref)]
    if metric == "sembleu":
        cmd += ["--ks", ks]
    for a, b in pairs:
        cmd += [str(a), str(b)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=str(ref))
    return json.loads(out.stdout)


def ours(metric: Metric, first: Path, second: Path) -> list[dict | None]:
    """Every score of every pair of two files through the metric interface (``None``: a
    graph we cannot read)."""
    a, b = read_file(first), read_file(second)
    fa = [metric.features(e.graph) if e.graph is not None else None for e in a]
    fb = [metric.features(e.graph) if e.graph is not None else None for e in b]
    out: list[dict | None] = []
    for x, y in zip(fa, fb):
        if x is None or y is None:
            out.append(None)
            continue
        stats = metric.stats(x, y)
        out.append({"stats": list(stats), **metric.pair_scores(stats)})
    if len(a) != len(b):
        out += [None] * abs(len(a) - len(b))
    return out


def compare(our: list[float | None], theirs: list[float | None], tol: float = 1e-9) -> dict:
    """Pairs compared, equal within ``tol``, the largest difference and the differing pairs."""
    n = max(len(our), len(theirs))
    differ, largest = [], 0.0
    for i in range(n):
        x = our[i] if i < len(our) else None
        y = theirs[i] if i < len(theirs) else None
        if x is None or y is None:
            if x is not y:
                differ.append(i)
            continue
        d = abs(x - y)
        if not math.isfinite(d) or d > tol:
            differ.append(i)
        largest = max(largest, d)
    return {"pairs": n, "equal": n - len(differ), "largest": largest, "differ": differ}


def report(rows: list, total: int, equal: int, largest: float, examples: list, json_path: Path | None) -> None:
    """The closing lines of a fidelity run (pairs equal of all, the largest difference, up to 10
    differing pairs) and, with ``json_path``, the whole record as JSON."""
    print(f"all: {equal} of {total} pairs equal within 1e-9; largest difference {largest:.3g}")
    for ex in examples[:10]:
        print("differs:", json.dumps(ex))
    if json_path:
        json_path.write_text(json.dumps({"rows": rows, "pairs": total, "equal": equal,
                                         "largest": largest, "examples": examples}, indent=1) + "\n")
