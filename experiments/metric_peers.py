"""Shared by ``compare_sembleu.py``, ``compare_sema.py`` and ``bench_sembleu_sema.py``:
the run of a reference on file pairs, our per-pair scores through the metric interface, and
the pair-by-pair report.

The references are the ``sembleu`` and ``sema`` entries of ``peer_registry.py``: taken
from a git mirror (``--mirror`` or an environment variable) at a pinned commit into
``~/.cache/ref-NAME-COMMIT``, run there with this interpreter (both need only the standard
library) through ``experiments/sembleu_sema_peer_driver.py``.
"""
from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Sequence

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from peer_registry import PEERS  # noqa: E402

from smatchpp.metrics import Metric  # noqa: E402
from smatchpp.graphs.read import read_file  # noqa: E402

DRIVER = PEERS["sembleu"].driver


def run_reference(metric: str, ref: Path, pairs: Sequence[tuple[Path, Path]], ks: str = "3") -> dict:
    """The driver's JSON for ``pairs`` of files (first = hypothesis/test)."""
    options = ["--ref", str(ref)] + (["--ks", ks] if metric == "sembleu" else [])
    cmd = PEERS[metric].argv([], *options) + [str(f) for pair in pairs for f in pair]
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
