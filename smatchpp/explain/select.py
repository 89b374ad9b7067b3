"""Choosing the pairs to explain, and extra per-pair columns for the report's index.

:func:`select` applies the command line's choices in order: an explicit list
of pair indices, then only the pairs where the hill-climber falls below the
best alignment (``gaps``), then the ``worst`` N by F1 (ties: lower index first).

>>> from smatchpp.explain import explain_pair
>>> es = [explain_pair("(d / dog)", s, index=k) for k, s in enumerate(["(d / dog)", "(c / cat)", "(d / dog :mod (b / big))"])]
>>> [e.index for e in select(es, worst=2)]
[1, 2]
>>> [e.index for e in select(es, pairs=[0, 2])]
[0, 2]
>>> parse_pairs("3,17, 5-7")
[3, 5, 6, 7, 17]
"""

from __future__ import annotations

import json
from typing import Sequence

from ..score import prf
from .model import Explanation

__all__ = ["select", "parse_pairs", "gap_columns"]


def parse_pairs(text: str) -> list[int]:
    """``"3,17,20-22"`` -> ``[3, 17, 20, 21, 22]`` (0-based pair indices, sorted, unique)."""
    out: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if "-" in part[1:]:
            lo, hi = part.split("-", 1)
            out.update(range(int(lo), int(hi) + 1))
        else:
            out.add(int(part))
    if any(k < 0 for k in out):
        raise ValueError("pair indices are 0-based and not negative")
    return sorted(out)


def select(explanations: Sequence[Explanation], pairs: Sequence[int] | None = None,
           worst: int | None = None, gaps: bool = False) -> list[Explanation]:
    """The explanations chosen by ``pairs``, then ``gaps``, then ``worst`` (in index order)."""
    es = list(explanations)
    if pairs is not None:
        wanted = set(pairs)
        es = [e for e in es if e.index in wanted]
    if gaps:
        es = [e for e in es if e.hc_gap > 0]
    if worst is not None:
        f1 = {e.index: prf(e.matched, e.test_triples, e.gold_triples)[2] for e in es}
        keep = set(sorted(f1, key=lambda i: (f1[i], i))[:worst])
        es = [e for e in es if e.index in keep]
    return es


def gap_columns(path: str, ours: bool = False) -> dict[str, dict[int, float]]:
    """Per-tool gap columns from ``smatchpp gap --pairs-out`` (``{"gap <tool>": {index: gap}}``).

    Our own hill-climber's column is left out unless ``ours``: the report computes it.
    """
    columns: dict[str, dict[int, float]] = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            row = json.loads(line)
            for key, value in row.items():
                if key.startswith("gap ") and value is not None and (ours or not key.startswith("gap hillclimber")):
                    columns.setdefault(key, {})[int(row["index"])] = float(value)
    return columns
